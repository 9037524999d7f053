"""What both table scenes share (the track game's board and Trash's layouts build on it):
reading the session every frame and handing its messages to the scene, the animation
timeline and its clock, messages and the status line, hints, seat plates' names, the pause
and results overlays, ADMIN, the hot-seat cover, and the whole-click rule for the table's
own mouse targets.

A table scene subclasses :class:`TableScene` and fills in: ``layout``, ``draw``,
``animate(events)`` (the table's events as animations on :attr:`TableScene.timeline`),
``legal_plays()``, ``click(pos)`` (a whole left click begun on the scene, on no widget) and
``key(ev)`` (a key no widget took), plus ``clear_choice`` / ``apply_hint`` when it has a choice
in progress or hints.

The model jumps to the newest view; the timeline plays the events on top of it at the table
speed and stops while the table is paused.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.anim import TableClock, Timeline
from game.client.scene import Scene
from game.client.widgets import Button, Choice, Widget
from game.table import SPEEDS

if TYPE_CHECKING:
    from game.client.session import Session
    from game.client.stage import Stage
    from game.table.messages import TableMessage  # the typed protocol both sessions implement

#: Table seconds a message (a refusal, a prompt) stays on screen; it also goes at the next play.
#: Hints stay while their position lasts; messages on the results screen stay.
MESSAGE_SECONDS = 4.0
#: Seconds after the hot-seat cover appears before it takes a tap-in (a double-click or a
#: double Enter that finished the turn before cannot uncover the next hand).
COVER_ARM_SECONDS = 0.4
#: Frames a second of the movable pegs' pulse while nothing else moves (the app's idle loop).
PULSE_FPS = 8.0
#: The keys that tap in on the cover.
COVER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


def seat_label(seat: dict[str, Any]) -> str:
    """A seat's name for people: the person's name, or ``Blue CPU`` (CPUs by colour)."""
    if seat["kind"] == "person":
        return str(seat["name"])
    return f"{theme.SEAT_COLOUR_NAMES[seat['seat'] % 8]} CPU"


def symbol_sprite(name: str | None) -> str | None:
    if name is None:
        return None
    return name if name in theme.SYMBOLS else "ring"


class TableScene(Scene):
    """A table on screen: the session, the timeline, the overlays and the cover."""

    name = "table"
    session: Session

    def __init__(self, stage: Stage, session: Session) -> None:
        super().__init__(stage)
        self.session = session
        self.clock = TableClock()
        self.timeline = Timeline(backlog=2)
        self.follow_speed()
        self.t = 0.0
        self._covered = False
        self._cover_since = 0.0
        self._cover_press: str | int | None = None  # the gesture begun on the cover
        self._keys_down: set[int] = set()
        self._message: str | None = None
        self._message_at = 0.0
        self._message_state = -1
        self.hint: str | None = None
        self.hint_reason: str | None = None
        self._hint_job: tuple[int, Any] | None = None
        self.recorded = False
        self.new_best = False
        #: Where the hand is (the hot-seat cover lies over it); the scene lays it out.
        self.hand_rect = pygame.Rect(0, 0, 0, 0)
        self.pause_button = Button("Pause", self.pause, hotkey=pygame.K_p)
        self.admin_button = Button("ADMIN", self.admin)
        self.ready_button = Button("Ready", self.ready)
        self.leave_button = Button("Leave table", self.leave_table)
        self.done_button = Button("Back to title", self.leave_table)
        for w in (*self.leading_widgets(), self.pause_button, self.admin_button,
                  self.ready_button, self.leave_button, self.done_button):
            self.form.add(w)
        self.form.focus(None)
        # Enter / Space belong to the table unless the keyboard itself moved to a button
        self.form.click_focuses_buttons = False
        if session.screen_seat() is not None:
            stage.hints().warm()  # start the hint worker now, not on the first H

    # ------------------------------------------------------------------ for the scenes
    def leading_widgets(self) -> list[Widget]:
        """The scene's own widgets, ahead of the table's buttons in the focus order."""
        return []

    def animate(self, events: list[dict[str, Any]]) -> None:
        """Queue the animations of the table's ``events``."""

    def legal_plays(self) -> list[Any]:
        """The plays this screen's person can make now."""
        return []

    def clear_choice(self) -> None:
        """Drop the choice in progress (a play went in, or the position changed)."""

    def apply_hint(self, tok: str, reason: str) -> None:
        """Show the hint ``tok`` and its ``reason``."""

    def click(self, pos: tuple[int, int]) -> None:
        """A whole left click begun on the scene (on no widget) at ``pos``."""

    def key(self, ev: pygame.event.Event) -> None:
        """A KEYDOWN no widget took."""

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        super().enter()
        # a key already held when the table comes up (Enter on the button that opened it)
        # repeats as if pressed anew: it is no fresh press, so it never taps in on the cover
        with contextlib.suppress(pygame.error, IndexError):
            held = pygame.key.get_pressed()
            self._keys_down |= {k for k in COVER_KEYS if held[k]}
        if isinstance(self.form.focused, Button):  # back from ADMIN: the keys go to the board
            self.form.focus(None)

    def background(self, dt: float) -> None:
        """Under ADMIN (or any overlay): the table keeps up, animations included."""
        self.update(dt)

    # ------------------------------------------------------------------ redrawing (the app's
    # idle loop, game.client.scene): what makes this table draw again
    def wants_frames(self) -> bool:
        return not self.timeline.idle

    def pulse_rate(self) -> float:
        return PULSE_FPS if self.my_turn() and self.timeline.idle and self.pulsing() else 0.0

    def pulsing(self) -> bool:
        """Whether the scene draws a pulse now (on this screen's turn): the scene says."""
        return True

    def redraw_key(self) -> object:
        p = self.public
        return (super().redraw_key(), p["state_no"], p["phase"], p.get("speed"),
                str(p.get("pause")), str(p.get("seats")), p.get("cover"), self._message, self.hint,
                self._hint_job is None, self.session.status, self._covered,
                self.timeline.played)

    # ------------------------------------------------------------------ messages
    @property
    def message(self) -> str | None:
        """The message shown on the status line (under the speed line), or None."""
        return self._message

    @message.setter
    def message(self, text: str | None) -> None:
        self._message = text
        self._message_at = self.t
        self._message_state = self.public["state_no"]

    def expire_message(self) -> None:
        """A message goes after :data:`MESSAGE_SECONDS` or at the next play; a hint goes with
        its position (:meth:`cancel_hint`); the results screen keeps its message."""
        text = self._message
        if text is None or text.startswith("Hint:") or self.public["phase"] == "over":
            return
        if self.t - self._message_at >= MESSAGE_SECONDS or \
                self.public["state_no"] != self._message_state:
            self._message = None

    # ------------------------------------------------------------------ model
    @property
    def public(self) -> dict[str, Any]:
        return self.session.public

    def view(self) -> dict[str, Any]:
        return self.session.view()

    def paused(self) -> bool:
        return self.public["phase"] == "playing" and bool(self.public["pause"])

    def manual_pause(self) -> dict[str, Any] | None:
        return next((r for r in self.public["pause"] if r["reason"] == "paused"), None)

    def waiting_for(self) -> list[int]:
        """Seats the table waits for (Ready not tapped, or joining)."""
        out: list[int] = []
        for r in self.public["pause"]:
            if r.get("reason") in ("ready", "joining"):
                out += [s for s in r.get("seats", []) if s not in out]
        return out

    def show_pause(self) -> bool:
        """The pause overlay: a manual pause, or waiting for people to tap Ready."""
        return self.paused() and (self.manual_pause() is not None or bool(self.waiting_for()))

    def i_must_ready(self) -> bool:
        mine = set(self.session.tokens)
        return self.manual_pause() is not None or bool(mine & set(self.waiting_for()))

    def my_turn(self) -> bool:
        seat = self.session.screen_seat()
        v = self.view()
        return (seat is not None and seat in self.session.tokens and v.get("turn") == seat
                and self.public["phase"] == "playing" and not self.paused()
                and not self.public.get("cover"))

    @property
    def reduced(self) -> bool:
        """The local animation preference: ``reduced`` keeps motion plain (no hops, no spin);
        the timing is the table speed either way."""
        return self.stage.settings.animation == "reduced"

    def record(self) -> None:
        self.recorded = True
        res = self.session.result()
        if not res:
            return
        try:
            if res.get("solo"):
                self.new_best = self.stage.store.record_solo(res["rules"], int(res["turns"]),
                                                           int(res["seed"]))
            elif res.get("people"):
                self.stage.store.record_game(res)
        except Exception as e:  # records problems are shown, never fatal
            self.message = f"Could not save the records: {e}"

    # ------------------------------------------------------------------ intents
    def pause(self) -> None:
        r = self.session.pause()
        self.message = None if r.ok else r.message
        self.stage.sound("pause")

    def ready(self) -> None:
        self.session.ready()

    def admin(self) -> None:
        self.stage.push(AdminOverlay(self.stage, self.session))

    def leave_table(self) -> None:
        self.session.close()
        self.stage.back_to("title")

    # ------------------------------------------------------------------ hints
    THINKING = "Hint: thinking..."

    def show_hint(self) -> None:
        """H: ask the hint worker (never in this frame); :meth:`poll_hint` shows the answer."""
        legal = self.legal_plays()
        if not legal:
            return
        state_no = self.public["state_no"]
        if self._hint_job is not None and self._hint_job[0] == state_no:
            return  # already thinking about this position
        fut = self.stage.hints().ask(self.session.game, self.view(), [str(p) for p in legal],
                                   state_no)
        self._hint_job = (state_no, fut)
        self.hint = None
        self.hint_reason = None
        self.message = self.THINKING

    def hint_status(self) -> dict[str, Any] | str | None:
        """For the end-to-end hook: ``"thinking"``, the shown hint, or None."""
        if self._hint_job is not None:
            return "thinking"
        if self.hint is not None:
            return {"play": self.hint, "reason": self.hint_reason}
        return None

    def cancel_hint(self) -> None:
        if self._hint_job is not None:
            self._hint_job[1].cancel()
            self._hint_job = None
        if self.message is not None and self.message.startswith("Hint:"):
            self.message = None  # a hint belongs to the position it was asked in
        self.hint = None
        self.hint_reason = None

    def poll_hint(self) -> None:
        job = self._hint_job
        if job is None or not job[1].done():
            return
        self._hint_job = None
        if job[0] != self.public["state_no"] or not self.my_turn():
            if self.message == self.THINKING:
                self.message = None
            return
        try:
            tok, reason = job[1].result()
        except Exception as e:  # the hint's own failure is shown, never fatal
            self.message = f"No hint this time ({type(e).__name__}: {e})"
            return
        self.apply_hint(str(tok), str(reason))

    # ------------------------------------------------------------------ the hot-seat cover
    def _watch_cover(self) -> bool:
        """True while the hand is covered; notes when the cover came (a tap-in counts only
        from a gesture begun on the cover after :data:`COVER_ARM_SECONDS`)."""
        covered = bool(self.public.get("cover"))
        if covered and not self._covered:
            self._cover_since = self.t
            self._cover_press = None
        self._covered = covered
        return covered

    def _cover_armed(self) -> bool:
        return self.t - self._cover_since >= COVER_ARM_SECONDS

    def handle_cover(self, ev: pygame.event.Event, fresh: bool) -> bool:
        """A gesture on the cover; True when it was one (nothing else then sees it).

        A tap-in is a whole gesture that began on the cover once it was armed: the left button
        pressed on the covered hand and released there, or Enter / Space pressed afresh (not a
        key repeat, not a key held from the turn before) and released. So the click, key or
        double-click that finished one person's turn can never uncover the next hand."""
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                self.hand_rect.collidepoint(ev.pos):
            self._cover_press = "mouse" if self._cover_armed() else None
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self._cover_press == "mouse":
            self._cover_press = None
            if self.hand_rect.collidepoint(ev.pos):
                self._tap_in()
            return True
        if ev.type == pygame.KEYDOWN and ev.key in COVER_KEYS:
            self._cover_press = ev.key if fresh and self._cover_armed() else None
            return True  # never a play key while covered, repeats included
        if ev.type == pygame.KEYUP and ev.key in COVER_KEYS:
            if self._cover_press == ev.key:
                self._cover_press = None
                self._tap_in()
            return True
        return False

    def _tap_in(self) -> None:
        owner = self.public.get("screen_owner")
        if owner is not None:
            self.session.tap_in(owner)

    def _key_fresh(self, ev: pygame.event.Event) -> bool:
        """Track the keys held; True for a KEYDOWN of a key not already down (not a repeat)."""
        if ev.type == pygame.KEYUP:
            self._keys_down.discard(ev.key)
            return False
        if ev.type != pygame.KEYDOWN:
            return False
        fresh = ev.key not in self._keys_down
        self._keys_down.add(ev.key)
        return fresh

    # ------------------------------------------------------------------ drawing
    def draw_plate(self, surf: pygame.Surface, i: int, r: pygame.Rect, turn: int | None,
                   count: int | None, sym: str | None = None) -> None:
        """Seat ``i``'s plate in ``r``: its peg colour (and team symbol), its name (CPU level,
        stand-in), a glow for a remote person (green connected, red not), ``count`` cards."""
        a = self.stage.assets
        s = self.public["seats"][i]
        glow = None
        if s["kind"] == "person" and not s.get("local"):
            glow = theme.GOOD if s["connected"] else theme.BAD
        if glow:
            pygame.draw.rect(surf, theme.mix(glow, theme.BG, 0.55), r.inflate(6, 6),
                             border_radius=10)
        pygame.draw.rect(surf, theme.BG2 if i != turn else theme.mix(theme.seat_colour(i),
                                                                     theme.BG, 0.6),
                         r, border_radius=8)
        d = r.h - 6
        surf.blit(a.scaled(f"peg_{i % 8}", (d, d)), (r.x + 4, r.y + 3))
        if sym:
            surf.blit(a.scaled(f"sym_{sym}", (d // 2, d // 2)), (r.x + 4 + d // 4,
                                                                 r.y + 3 + d // 4))
        name = seat_label(s)
        if s["kind"] == "cpu" and r.w > self.px(330):
            name += f" ({s['level'].capitalize()})"
        if s.get("standin"):
            name += " (CPU stand-in)"
        nc = theme.BAD if glow == theme.BAD else theme.TEXT
        nt = a.fit_text(name, max(13, int(r.h * 0.62)), nc,
                        r.w - d - a.font(max(12, int(r.h * 0.5))).size("0 cards")[0] - 16)
        surf.blit(nt, nt.get_rect(midleft=(r.x + d + 10, r.centery)))
        if count is not None:
            ct = a.text(f"{count} cards", max(12, int(r.h * 0.5)), theme.TEXT_DIM)
            surf.blit(ct, ct.get_rect(midright=(r.right - 6, r.centery)))

    def draw_hint_reason(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        """The hint's reason in a box along the bottom of ``rect`` (wrapped, up to 3 lines)."""
        if not self.hint_reason or self.hint is None:
            return
        a = self.stage.assets
        size = max(13, self.px(20))
        lines = a.wrap("Why: " + self.hint_reason, size, rect.w - self.px(20))[:3]
        lh = int(size * 1.25)
        box = pygame.Rect(rect.x, rect.bottom - len(lines) * lh - self.px(14), rect.w,
                          len(lines) * lh + self.px(14))
        pygame.draw.rect(surf, theme.BG, box, border_radius=10)  # opaque: rows stay behind
        surf.blit(a.nine_slice("panel", box.size, 10), box)
        for i, line in enumerate(lines):
            t = a.text(line, size, theme.ACCENT2)
            surf.blit(t, (box.x + self.px(10), box.y + self.px(7) + i * lh))

    def connection_note(self) -> str | None:
        """What to tell a LAN player whose link to the host is not up (None when it is)."""
        if not self.session.remote or self.session.status == "connected":
            return None
        status = self.session.status
        if status == "failed":
            return ("Lost the host. When its table is back, join again (or reopen the "
                    "program): you get your own seat back.")
        return f"Connection: {status} - the game goes on; you catch up when it is back"

    def _dim(self, surf: pygame.Surface) -> None:
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surf.blit(shade, (0, 0))

    def draw_pause(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        self._dim(surf)
        w, h = surf.get_size()
        reason = self.manual_pause()
        seats = self.public["seats"]
        if reason is not None:
            title, sub = "Paused", f"by {reason.get('name', '')}"
        else:
            title = "Ready up"
            sub = "Waiting for " + ", ".join(seat_label(seats[i]) for i in self.waiting_for()
                                             if i < len(seats))
        t = a.text(title, self.px(72), theme.ACCENT)
        surf.blit(t, t.get_rect(center=(w // 2, h // 2 - self.px(90))))
        by = a.fit_text(sub, self.px(30), theme.TEXT, int(w * 0.9))
        surf.blit(by, by.get_rect(center=(w // 2, h // 2 - self.px(30))))
        for b in (self.ready_button, self.leave_button):
            b.draw(surf, a)

    def draw_results(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        self._dim(surf)
        w, h = surf.get_size()
        pub = self.public
        out = pub.get("outcome") or {}
        winners = out.get("winners", [])
        names = [seat_label(pub["seats"][i]) for i in winners]
        if pub["config"].get("mode") == "solo":
            title = f"All home in {pub.get('turns', 0)} turns!"
            sub = "A new best!" if self.new_best else "Try the same seat again from Solo."
        else:
            title = " and ".join(names) + (" win!" if len(names) > 1 else " wins!")
            pts = pub.get("points", {})
            sub = ", ".join(f"{pub['seats'][int(k)]['name']} +{v} points"
                            for k, v in pts.items()) or "No points this time."
        box = pygame.Rect(0, 0, min(int(w * 0.94), self.px(820)), self.px(340))
        box.center = (w // 2, h // 2 + self.px(20))
        surf.blit(a.nine_slice("panel", box.size, 14), box)
        t = a.fit_text(title, self.px(56), theme.ACCENT, box.w - 24)
        surf.blit(t, t.get_rect(center=(w // 2, h // 2 - self.px(80))))
        s = a.fit_text(sub, self.px(30), theme.TEXT, box.w - 24)
        surf.blit(s, s.get_rect(center=(w // 2, h // 2 - self.px(20))))
        if self.message:
            m = a.fit_text(self.message, self.px(22), theme.BAD, int(w * 0.9))
            surf.blit(m, m.get_rect(center=(w // 2, h // 2 + self.px(20))))
        self.done_button.draw(surf, a)

    # ------------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        self._watch_cover()  # a cover that came since the last frame came at its start
        self.t += dt
        before = self.public["state_no"]
        for msg in self.session.poll():
            self.on_message(msg)
        if self.public["state_no"] != before:
            self.cancel_hint()
        self.poll_hint()
        self.expire_message()
        self.follow_speed()
        self.clock.paused = self.paused()
        for name in self.timeline.update(self.clock.tick(dt)):
            self.stage.sound(name)
        over = self.public["phase"] == "over"
        if over and self.timeline.idle and not self.recorded:
            self.record()
        show = self.show_pause()
        self.ready_button.visible = show and self.i_must_ready()
        self.leave_button.visible = show
        self.done_button.visible = over and self.timeline.idle
        self.pause_button.visible = not over
        self.admin_button.visible = self.session.is_host and not over
        self.legal_plays()

    def follow_speed(self) -> None:
        """The timeline's clock runs at the table speed: animations are queued in
        normal-speed seconds, so a speed change rescales all that is still to play."""
        speed = self.public.get("speed") or "normal"
        if speed != self.clock.speed_name:
            with contextlib.suppress(ValueError):  # an unknown name keeps the speed it had
                self.clock.set_speed(str(speed))

    def on_message(self, msg: TableMessage) -> None:
        """One message of the session (the same for a local and a remote table)."""
        if msg["type"] == "start":  # once, when the game starts: the opening deal, card by card
            self.animate(msg["events"])
        elif msg["type"] == "play":
            self.animate(msg["events"])
            self.clear_choice()
        elif msg["type"] == "reset":
            self.timeline.finish()
            self.clear_choice()

    def submit(self, play: Any) -> None:
        """Send a complete play of this screen's seat."""
        seat = self.session.screen_seat()
        if seat is None:
            return
        r = self.session.play(seat, str(play))
        self.message = None if r.ok else r.message
        self.clear_choice()
        self.cancel_hint()

    def status_line(self) -> str | None:
        """The status line: the message, else what the connection is doing (LAN), else None."""
        return self.message or self.connection_note()

    def handle(self, ev: pygame.event.Event) -> None:
        fresh = self._key_fresh(ev)
        if self._watch_cover() and self.handle_cover(ev, fresh):
            return
        if self.form.handle(ev):
            return
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            # a whole click begun here: never the release of a widget's press, nor of one
            # begun before this scene was shown
            if self.form.released_here(ev):
                self.click(ev.pos)
            return
        if ev.type == pygame.KEYDOWN:
            self.key(ev)


class AdminOverlay(Scene):
    """ADMIN (the host): the table speed, and handing a missing person's seat to a CPU."""

    overlay = True
    name = "admin"
    session: Session

    def __init__(self, stage: Stage, session: Session) -> None:
        super().__init__(stage)
        self.session = session
        speeds = [(name, name.title()) for name in SPEEDS]
        self.speed = Choice("Table speed", speeds, session.public.get("speed", "normal"),
                            self._speed)
        self.form.add(self.speed)
        self.hand_buttons: list[tuple[int, Button]] = []
        for s in session.seats:
            if s["kind"] == "person" and not s.get("local") and s["seat"] not in \
                    session.tokens:
                b = Button(f"Hand {s['name']} to a CPU", partial(self._hand, int(s["seat"])))
                self.hand_buttons.append((s["seat"], b))
                self.form.add(b)
        self.close_button = Button("Close", self.back)
        self.form.add(self.close_button)
        self.message: str | None = None
        self.box = pygame.Rect(0, 0, 0, 0)

    def _speed(self, name: Any) -> None:
        r = self.session.set_speed(str(name))
        self.message = None if r.ok else r.message

    def _hand(self, seat: int) -> None:
        r = self.session.hand_to_cpu(seat)
        self.message = r.message

    def layout(self, w: int, h: int) -> None:
        bw = min(self.px(620), int(w * 0.9))
        n = 2 + len(self.hand_buttons)
        bh = self.px(90) + n * self.px(62)
        self.box = pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)
        y = self.box.y + self.px(70)
        for wd in [self.speed, *[b for _, b in self.hand_buttons], self.close_button]:
            wd.rect = pygame.Rect(self.box.x + self.px(20), y, bw - self.px(40), self.px(50))
            y += self.px(62)

    def draw(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surf.blit(shade, (0, 0))
        surf.blit(a.nine_slice("panel", self.box.size, 14), self.box)
        t = a.text("ADMIN", self.px(40), theme.ACCENT)
        surf.blit(t, t.get_rect(midtop=(self.box.centerx, self.box.y + self.px(14))))
        self.form.draw(surf, a)
        if self.message:
            m = a.fit_text(self.message, self.px(20), theme.ACCENT2, self.box.w - 20)
            surf.blit(m, m.get_rect(midtop=(self.box.centerx, self.box.bottom + 6)))
