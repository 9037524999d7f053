"""Pause, the hot-seat cover and watchers at the table (:class:`TableSeats`, a layer of the
table scenes over :class:`~game.client.table_end.TableEnd`).

The pause overlay holds the focus while shown (Enter / Space / R / P / Esc tap Ready) and
offers Sit here (a second person at this screen takes a CPU seat) and Leave my seat to a
watcher; the hot-seat cover takes only a whole tap-in gesture begun on it once armed; a
watcher's hand area says so and offers Ask for a seat (``docs/seats.md``). The table's info
line (the speed, who is watching) and the status line are drawn from here for both scenes.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.client import theme
from game.client.table_core import COVER_ARM_SECONDS, COVER_KEYS, seat_label
from game.client.table_end import TableEnd
from game.client.table_overlays import SeatPickOverlay
from game.client.watchers import cpu_seats, my_ask, watcher_line, watching_line
from game.client.widgets import Button


class TableSeats(TableEnd):
    """The table's pause overlay, hot-seat cover and watchers."""

    # ------------------------------------------------------------------ watchers
    def watching(self) -> bool:
        """This screen watches: it holds no seat (a watcher's public view, no hand). A table
        screen (the room's display: everyone plays on a phone) is not a watcher here: it asks
        for no seat and shows no watcher's panel."""
        return self.session.watcher is not None and not self.session.tokens and \
            not self.session.table_screen

    def ask_for_seat(self) -> None:
        """A watcher picks a CPU seat to ask the host for."""
        self.stage.push(SeatPickOverlay(self.stage, self.session, hot=False,
                                        on_done=self._said))

    def sit_here(self) -> None:
        """Hot seat (Pause on a local table): a second person takes a CPU seat."""
        self.stage.push(SeatPickOverlay(self.stage, self.session, hot=True,
                                        on_done=self._said))

    def _said(self, text: str) -> None:
        self.message = text

    def give_seat(self, k: int) -> None:
        """Leave this screen's seat for good to the ``k``-th watcher listed in Pause."""
        seat = self.screen_seat()
        if seat is None or k >= len(self._give_to):
            return
        w = self._give_to[k]
        r = self.session.hand_to_watcher(seat, int(w["watcher"]))
        self.message = f"Your seat goes to {w['name']} at its next turn" if r.ok else r.message

    def _pause_extras(self, show: bool) -> None:
        """Which of Sit here / Leave my seat to ... the pause overlay offers, and where."""
        s = self.session
        playing = self.public["phase"] == "playing"
        self.sit_button.visible = show and playing and not s.remote and bool(s.tokens) and \
            bool(cpu_seats(s))
        mine = self.screen_seat()
        can_give = show and playing and s.remote and mine is not None and \
            not self.public["seats"][mine].get("host")
        self._give_to = s.watchers()[:len(self.give_buttons)] if can_give else []
        lr = self.leave_button.rect
        y = lr.bottom + self.px(12)
        for b in [self.sit_button, *self.give_buttons]:
            if b is not self.sit_button:
                k = self.give_buttons.index(b)
                b.visible = k < len(self._give_to)
                if b.visible:
                    b.label = f"Leave my seat to {self._give_to[k]['name']}"
            if b.visible:  # as wide as Ready and Leave; "Leave my seat to <name>" wider
                w = lr.w if b is self.sit_button else max(lr.w, self.px(360))
                b.rect = pygame.Rect(lr.centerx - w // 2, y, w, lr.h)
                y += lr.h + self.px(10)
        ask = my_ask(s)
        self.ask_button.visible = self.watching() and playing and not show and \
            bool(cpu_seats(s)) and not (ask is not None and ask.get("accepted"))

    def watching_text(self) -> str | None:
        """Who is watching, for the table's info line (None: nobody)."""
        return watching_line(self.session.public)

    def info_text(self, lead: Sequence[str] = ()) -> str:
        """The table's info line: the scene's own ``lead`` (``Hand 2``, a solo ``Turn 5``),
        the table speed, and who is watching (issue 17) when anyone is."""
        parts = [*lead, f"Speed: {self.public.get('speed', '')}"]
        watching = self.watching_text()
        if watching:
            parts.append(watching)
        return "   ".join(parts)

    def draw_info(self, surf: pygame.Surface, lead: Sequence[str], size: int, width: int,
                  **where: tuple[int, int]) -> pygame.Rect:
        """Draw :meth:`info_text` at ``size`` (shrunk to ``width``), placed by ``where`` (a
        ``get_rect`` anchor: ``topleft=``, ``midtop=``...); returns where it went."""
        t = self.stage.assets.fit_text(self.info_text(lead), size, theme.TEXT_DIM, width)
        r = t.get_rect(**where)
        surf.blit(t, r)
        return r

    #: A local table nobody at this screen plays any more (their seats handed to CPUs).
    WATCHING_ON = "You are watching: CPUs play every seat"

    def watching_on(self) -> bool:
        """A local table where nobody at this screen holds a seat (the last person here
        handed theirs to a CPU): the screen watches on, its move log following the table
        (the table takes a hot seat only from someone seated here: Pause, Leave table is
        the way out)."""
        s = self.session
        return not s.remote and not s.replay and not s.tokens and not s.table_screen and \
            self.public["phase"] == "playing"

    def draw_watching(self, surf: pygame.Surface) -> bool:
        """A watcher's hand area: "You are watching" (or its request's state) and Ask for
        a seat. True when drawn (this screen watches: there is no hand to draw)."""
        line = watcher_line(self.session) if self.watching() else (
            self.WATCHING_ON if self.watching_on() else None)
        if line is None:
            return False
        a = self.stage.assets
        r = self.hand_rect
        surf.blit(a.nine_slice("panel", r.size, 14), r)
        size = max(13, self.px(22))
        y = r.y + self.px(8)
        lines = a.wrap(line, size, r.w - 20)[:2]
        if len(lines) * int(size * 1.2) + self.px(64) > r.h:  # a small window: the short line
            lines = a.wrap(str(watcher_line(self.session, short=True)), size, r.w - 20)[:1]
        for text in lines:
            t = a.text(text, size, theme.ACCENT)
            surf.blit(t, t.get_rect(midtop=(r.centerx, y)))
            y += int(size * 1.2)
        bw = min(self.px(300), r.w - 20)
        by = max(y + self.px(4), r.bottom - self.px(60))
        self.ask_button.rect = pygame.Rect(r.centerx - bw // 2, by, bw,
                                           max(self.px(30), min(self.px(48), r.bottom - by - 4)))
        if self.ask_button.visible:
            self.ask_button.draw(surf, a)
        return True

    def place_ask_button(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        """Ask for a seat at ``rect`` (a scene whose hand area shows a seat's public cards)."""
        self.ask_button.rect = rect
        if self.ask_button.visible:
            self.ask_button.draw(surf, self.stage.assets)

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
        self._pause_extras(True)
        column = [b for b in (self.ready_button, self.leave_button, self.sit_button,
                              *self.give_buttons) if b.visible]
        if self.ready_button.visible:  # the keys, under the whole column of buttons
            keys = a.fit_text("Enter, Space, R, P or Esc: Ready, play on", self.px(22),
                              theme.TEXT_DIM, int(w * 0.9))
            bottom = max(b.rect.bottom for b in column)
            surf.blit(keys, keys.get_rect(midtop=(w // 2, bottom + self.px(14))))
        for b in column:
            b.draw(surf, a)

    def status_line(self) -> str | None:
        """The status line: the message, else what the connection is doing (LAN), else the
        table's fresh notice, else the turn clock running low, else a watcher's own line
        ("You are watching"), else None."""
        return self.message or self.connection_note() or self.notice_text() or \
            self.clock_note() or (watcher_line(self.session, short=True) if self.watching()
                                  else self.WATCHING_ON if self.watching_on() else None)

    #: Keys that tap Ready on the pause overlay (Esc too: back to the game).
    READY_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_r, pygame.K_p,
                  pygame.K_ESCAPE)

    def handle_pause_key(self, ev: pygame.event.Event, fresh: bool) -> bool:
        """Keys on the pause overlay; True when the overlay took the key. Enter / Space press
        the focused overlay button (Ready when none is focused); R, P and Esc tap Ready.
        A key repeat or a key held since the pause is no answer (P held must not resume)."""
        if ev.type != pygame.KEYDOWN or not self.show_pause():
            return False
        focused = self.form.focused
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and \
                isinstance(focused, Button) and focused.visible:
            return False  # Leave table (or Ready) has the focus: the form presses it
        if ev.key in self.READY_KEYS:
            if fresh and self.ready_button.visible:
                self.ready()
                self.stage.sound("click")
            return True
        return ev.key not in (pygame.K_TAB, pygame.K_UP, pygame.K_DOWN, pygame.K_F11)
