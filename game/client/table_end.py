"""The end of a game at the table (:class:`TableEnd`, a layer of the table scenes over
:class:`~game.client.table_core.TableCore`): the records (points, a solo best), the game kept
among Recent games (:mod:`game.client.keep`), and the end panel: the standings, turns and
points; Enter = Rematch, W = Watch again, Save record..., Esc = Back. Never at a replay: its
End is the last position, with the viewer on top.
"""

from __future__ import annotations

import pygame

from game.client import theme
from game.client.keep import keep_finished, save_record
from game.client.table_core import TableCore, seat_label
from game.client.widgets import Button


class TableEnd(TableCore):
    """The table's end panel and records."""

    def record(self) -> None:
        self.recorded = True
        self.keep_record()
        res = self.session.result()
        if not res:
            return
        try:
            if res.get("solo"):
                if self.session.undos:  # undo shows the coming draws: no best from it
                    return
                self.new_best = self.stage.store.record_solo(res["rules"], int(res["turns"]),
                                                           int(res["seed"]))
            elif res.get("people"):
                me, pid = self.stage.settings.name, self.stage.settings.player_id
                people = [dict(p, pid=pid) if pid and p["name"] == me and
                          p["seat"] in self.session.tokens else dict(p) for p in res["people"]]
                self.stage.store.record_game({**res, "people": people})
        except Exception as e:  # records problems are shown, never fatal
            self.message = f"Could not save the records: {e}"

    def keep_record(self) -> None:
        """The finished game's record among Recent games (a table this program holds: local or
        hosted; a guest keeps none, see :mod:`game.client.keep`)."""
        try:
            self.kept = keep_finished(self.session, self.stage.store.folder)
            self.layout_results(*self.stage.size)
        except Exception as e:  # records problems are shown, never fatal
            self.message = f"Could not keep this game's record: {e}"

    def watch_again(self) -> None:
        """Watch again (W): the replay viewer over this game's record."""
        if self.kept is not None:
            self.message = self.stage.open_replay(self.kept)

    def save_record(self) -> None:
        """Save record...: a copy in the documents folder; the message says where."""
        if self.kept is not None:
            self.message = save_record(self.kept)

    def can_rematch(self) -> bool:
        """Rematch (same seats, new deal) is offered at a table played on this screen."""
        return not self.session.remote

    def rematch(self) -> None:
        """A new table with the same config and seats (people, CPU levels), a new deal."""
        problem = self.stage.rematch(self.session)
        if problem:
            self.message = problem

    def standings(self) -> list[tuple[int, str, str, str]]:
        """The end screen's rows, best first: (seat, name, standing, points gained)."""
        pub = self.public
        out = pub.get("outcome") or {}
        winners = [int(w) for w in out.get("winners", [])]
        pts = pub.get("points") or {}
        seats = pub["seats"]
        view = self.view()
        rows: list[tuple[int, int, int, str, str, str]] = []
        for s in seats:
            i = int(s["seat"])
            if self.session.game == "layout":
                sizes = out.get("sizes") or []
                size = int(sizes[i]) if i < len(sizes) else 0
                start = int(pub["config"].get("layout_size", 10))
                won = start - size
                standing = (f"{won} hand{'s' if won != 1 else ''} won, "
                            f"layout of {size}" if size else
                            f"{won} hand{'s' if won != 1 else ''} won, layout cleared")
                key = size
            else:
                pegs = (view.get("pegs") or [])
                mine = pegs[i] if i < len(pegs) else []
                home = sum(1 for x in mine if isinstance(x, str) and x.startswith("h"))
                standing = f"{home} of {len(mine)} pegs home"
                key = -home
            gained = pts.get(str(i))
            if s["kind"] != "person":
                points = ""
            elif gained:
                points = f"+{gained} point" + ("s" if int(gained) != 1 else "")
            else:
                points = "no points"
            name = seat_label(s) + (" (won)" if i in winners else "")
            rows.append((0 if i in winners else 1, key, i, name, standing, points))
        rows.sort()
        return [(i, name, st, p) for _, _, i, name, st, p in rows]

    def relayout(self, size: tuple[int, int]) -> None:
        super().relayout(size)
        self.layout_results(*size)

    def results_shown(self) -> bool:
        """The end screen is up: the game is over and its last animations played. Never at a
        replay (``Session.replay``): its End is the last position, and the viewer on top
        takes every key and click, so Back and Rematch would be dead buttons over it."""
        return (self.public["phase"] == "over" and self.timeline.idle
                and not self.session.replay)

    def layout_results(self, w: int, h: int) -> None:
        """The end screen: a panel with the standings; Back, Watch again, Save record... (when
        the game was kept) and Rematch along its bottom."""
        n = len(self.public.get("seats") or [])
        row = self.px(34)
        bh = self.px(150) + (n + 1) * row + self.px(90)
        bw = min(int(w * 0.94), self.px(900))
        self.results_box = pygame.Rect((w - bw) // 2, max(4, (h - bh) // 2), bw, min(bh, h - 8))
        row_of = [self.done_button] + (
            [self.watch_button, self.save_button] if self.kept is not None else []) + (
            [self.rematch_button] if self.can_rematch() else [])
        gap = self.px(14)
        b = min(self.px(220), (bw - self.px(40) - gap * (len(row_of) - 1)) // len(row_of))
        y = self.results_box.bottom - self.px(78)
        x = self.results_box.centerx - (b * len(row_of) + gap * (len(row_of) - 1)) // 2
        for k, btn in enumerate(row_of):
            btn.rect = pygame.Rect(x + k * (b + gap), y, b, self.px(58))

    def handle_results_key(self, ev: pygame.event.Event, fresh: bool) -> bool:
        """Keys on the end screen: Enter / Space press the focused button (Rematch first),
        Left / Right move between the buttons, Esc is Back; nothing reaches the board."""
        if ev.type != pygame.KEYDOWN or not self.done_button.visible:
            return False
        if ev.key in (pygame.K_LEFT, pygame.K_RIGHT):
            self.form.move(1)
            return True
        if ev.key == pygame.K_ESCAPE:
            self.leave_table()
            return True
        if ev.key == pygame.K_w:
            if fresh and self.watch_button.visible:
                self.watch_again()
            return True
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if not fresh:
                return True  # a key held from the last play is no answer
            f = self.form.focused
            target = f if isinstance(f, Button) and f.visible else (
                self.rematch_button if self.rematch_button.visible else self.done_button)
            target.press()
            return True
        return ev.key not in (pygame.K_TAB, pygame.K_UP, pygame.K_DOWN, pygame.K_F11)

    def results_title(self) -> str:
        """The end panel's headline: who won (solo: the turns it took)."""
        pub = self.public
        winners = (pub.get("outcome") or {}).get("winners", [])
        if pub["config"].get("mode") == "solo":
            turns = int(pub.get("turns") or 0)
            return f"All home in {turns} turn{'s' if turns != 1 else ''}!"
        names = [seat_label(pub["seats"][i]) for i in winners]
        return " and ".join(names) + (" win!" if len(names) > 1 else " wins!")

    def results_subtitle(self) -> str:
        """The end panel's line under the headline: the game's length (solo: the best)."""
        pub = self.public
        turns = int(pub.get("turns") or 0)
        if pub["config"].get("mode") == "solo":
            if self.session.undos:
                return "Undo was used: this game does not count for the best."
            return "A new best!" if self.new_best else "Rematch deals a new seed."
        if self.session.game == "layout":
            hands = int((pub.get("outcome") or {}).get("hands") or 0)
            return (f"{hands} hand{'s' if hands != 1 else ''}, "
                    f"{turns} turn{'s' if turns != 1 else ''}")
        return f"{turns} turn{'s' if turns != 1 else ''}"

    def draw_results(self, surf: pygame.Surface) -> None:
        """The end of the game: who won, the turns, each seat's standing and points gained,
        Rematch and Back. The board behind is shaded almost away: nothing dealt after the
        end shows through."""
        a = self.stage.assets
        w, h = surf.get_size()
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 215))
        surf.blit(shade, (0, 0))
        if self.results_box.w == 0:
            self.layout_results(w, h)
        box = self.results_box
        pub = self.public
        winners = (pub.get("outcome") or {}).get("winners", [])
        title, sub = self.results_title(), self.results_subtitle()
        pygame.draw.rect(surf, theme.BG, box, border_radius=14)
        surf.blit(a.nine_slice("panel", box.size, 14), box)
        t = a.fit_text(title, self.px(52), theme.ACCENT, box.w - 24)
        surf.blit(t, t.get_rect(midtop=(box.centerx, box.y + self.px(16))))
        st = a.fit_text(sub, self.px(28), theme.TEXT, box.w - 24)
        surf.blit(st, st.get_rect(midtop=(box.centerx, box.y + self.px(78))))
        row = self.px(34)
        x0 = box.x + self.px(28)
        cols = (x0, x0 + int(box.w * 0.42), box.right - self.px(28))
        y = box.y + self.px(124)
        size = self.px(24)
        for k, text in enumerate(("Seat", "Standing", "Points")):
            ht = a.text(text, self.px(20), theme.TEXT_DIM)
            surf.blit(ht, ht.get_rect(topright=(cols[2], y)) if k == 2 else (cols[k], y))
        y += row
        for i, name, standing, points in self.standings():
            pygame.draw.circle(surf, theme.seat_colour(i % 8), (x0 - self.px(12), y + row // 2 - 2),
                               max(4, self.px(8)))
            colour = theme.ACCENT if i in winners else theme.TEXT
            nt = a.fit_text(name, size, colour, cols[1] - cols[0] - 8)
            surf.blit(nt, (cols[0] + self.px(4), y))
            sd = a.fit_text(standing, size, theme.TEXT, int(box.w * 0.36))
            surf.blit(sd, (cols[1], y))
            pt = a.text(points, size, theme.GOOD if points.startswith("+") else theme.TEXT_DIM)
            surf.blit(pt, pt.get_rect(topright=(cols[2], y)))
            y += row
        if self.message:
            good = self.message.startswith("Record saved")
            m = a.fit_text(self.message, self.px(22), theme.GOOD if good else theme.BAD,
                           box.w - 24)
            surf.blit(m, m.get_rect(midbottom=(box.centerx, self.done_button.rect.y - 6)))
        self.rematch_button.draw(surf, a)
        self.done_button.draw(surf, a)
        if self.watch_button.visible:
            self.watch_button.draw(surf, a)
            self.save_button.draw(surf, a)
