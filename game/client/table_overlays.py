"""The panels over a table: ADMIN (the host's table speed, turn clock, hand-overs and
watchers) and the seat-picking panel (a watcher's Ask for a seat, the hot seat's Sit here),
both a :class:`PanelOverlay` of rows laid out by :func:`stack_in_panel`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.watchers import cpu_seats, seat_words
from game.client.widgets import Button, Choice, TextInput, Toggle, Widget
from game.table import SPEEDS

if TYPE_CHECKING:
    from game.client.session import Session
    from game.client.stage import Stage


def stack_in_panel(scene: Scene, shown: Sequence[Widget], w: int, h: int, bw: int, *,
                   min_row: int, reserve: int, message: bool = False) -> pygame.Rect:
    """Lay ``shown`` out one a row in a centred panel ``bw`` wide (the overlays' shared form):
    the title (:data:`PANEL_TOP` design px), rows of 62 design px squeezed down to
    ``min_row`` when the window is short (``reserve``: what the title and margins take),
    then :data:`PANEL_FOOT` px under the last row, and a line for a ``message`` when there
    is one: the panel is as tall as its rows, never taller."""
    step = min(scene.px(62), max(scene.px(min_row), (h - scene.px(reserve)) // len(shown)))
    gap = scene.px(12)  # between rows (the last row's own gap is not kept under it)
    bh = scene.px(PANEL_TOP) + len(shown) * step - gap + scene.px(PANEL_FOOT) + (
        scene.px(PANEL_MESSAGE) if message else 0)
    box = pygame.Rect((w - bw) // 2, max(0, (h - bh) // 2), bw, min(bh, h))
    y = box.y + scene.px(PANEL_TOP)
    for wd in shown:
        wd.rect = pygame.Rect(box.x + scene.px(20), y, bw - scene.px(40), step - gap)
        y += step
    return box


#: The panels' title band, the margin under their last row and their message line (design
#: px, :func:`stack_in_panel`).
PANEL_TOP = 70
PANEL_FOOT = 18
PANEL_MESSAGE = 30


class PanelOverlay(Scene):
    """A panel of rows over the table (ADMIN, Ask for a seat / Sit here): a title, the rows
    :meth:`rows` gives one under another (:func:`stack_in_panel`), and the latest message on
    a line of its own at the panel's foot (the panel grows by it only while there is one).
    Subclasses give ``title``, :meth:`rows` and their sizes."""

    overlay = True
    #: The panel's width, its rows' least height and what its title and margins take
    #: (design px).
    panel_width = 560
    min_row = 40
    reserve = 150

    def __init__(self, stage: Stage) -> None:
        super().__init__(stage)
        self._message: str | None = None
        self.box = pygame.Rect(0, 0, 0, 0)

    @property
    def message(self) -> str | None:
        """The line at the panel's foot (a refusal, what was done), or None / ""."""
        return self._message

    @message.setter
    def message(self, text: str | None) -> None:
        grew = bool(text) != bool(self._message)
        self._message = text
        if grew and self.box.w:
            self.relayout(self.size)  # the panel gains (or gives back) its message line

    def rows(self) -> list[Widget]:
        """The widgets shown, top to bottom."""
        return []

    def layout(self, w: int, h: int) -> None:
        bw = min(self.px(self.panel_width), int(w * 0.9))
        self.box = stack_in_panel(self, self.rows(), w, h, bw, min_row=self.min_row,
                                  reserve=self.reserve, message=bool(self._message))

    def draw(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surf.blit(shade, (0, 0))
        pygame.draw.rect(surf, theme.BG, self.box, border_radius=14)
        surf.blit(a.nine_slice("panel", self.box.size, 14), self.box)
        t = a.fit_text(self.title, self.px(40), theme.ACCENT, self.box.w - 20)
        surf.blit(t, t.get_rect(midtop=(self.box.centerx, self.box.y + self.px(14))))
        self.form.draw(surf, a)
        if self._message:
            m = a.fit_text(self._message, self.px(20), theme.ACCENT2, self.box.w - 20)
            surf.blit(m, m.get_rect(midbottom=(self.box.centerx,
                                               self.box.bottom - self.px(10))))


class SeatPickOverlay(PanelOverlay):
    """Pick a CPU seat: a watcher asks for it (``hot=False``), or a person at this screen
    types a name and sits in it at its next turn (``hot=True``, ``Session.take_seat``)."""

    name = "seat_pick"
    session: Session

    def __init__(self, stage: Stage, session: Session, hot: bool = False,
                 on_done: Callable[[str], None] | None = None) -> None:
        super().__init__(stage)
        self.session = session
        self.hot = hot
        self.on_done = on_done
        self.title = "Sit here" if hot else "Ask for a seat"
        self.name_input: TextInput | None = None
        if hot:
            self.name_input = TextInput("Your name", "", 16, placeholder="type a name",
                                        on_change=self._typed)
            self.form.add(self.name_input)
        self.seat_buttons: list[tuple[int, Button]] = []
        for i in cpu_seats(session):
            label = ("Sit at " if hot else "Ask for ") + seat_words(session.seats[i])
            b = Button(label, partial(self.pick, i))
            self.seat_buttons.append((i, b))
            self.form.add(b)
        self.close_button = Button("Close", self.back)
        self.form.add(self.close_button)
        self.message = "" if self.seat_buttons else "No CPU seat is free to take."
        if self.name_input is not None:
            self.form.focus(self.name_input)

    def _typed(self, _text: str) -> None:
        self.message = ""

    def pick(self, seat: int) -> None:
        colour = theme.SEAT_COLOUR_NAMES[seat % 8]
        if self.hot:
            name = self.name_input.text.strip() if self.name_input is not None else ""
            if not name:
                self.message = "Type your name first."
                return
            r = self.session.take_seat(seat, name)
            if not r.ok:
                self.message = r.message
                return
            done = f"{name} takes {colour} at its next turn"
        else:
            r = self.session.ask_seat(seat)
            if not r.ok:
                self.message = r.message
                return
            done = f"Asked for {colour}: waiting for the host"
        if self.on_done is not None:
            self.on_done(done)
        if self.stage.top is self:
            self.stage.pop()

    def rows(self) -> list[Widget]:
        return [*([self.name_input] if self.name_input is not None else []),
                *[b for _, b in self.seat_buttons], self.close_button]


#: The turn clock's choices in ADMIN: seconds at normal speed (the table scales them by its
#: speed), or None: no clock.
TURN_CLOCKS: tuple[tuple[float | None, str], ...] = (
    (None, "Off"), (45.0, "45 s"), (90.0, "90 s"), (180.0, "3 min"), (300.0, "5 min"))


class AdminOverlay(PanelOverlay):
    """ADMIN (the host): the table speed, the turn clock, ending a pause, and for each other
    person: hand the seat to a CPU (they take it back by rejoining) or remove them (they may
    come back only to watch). On a LAN table, watchers too (``docs/seats.md``): Let people
    watch, Seat watchers by themselves, each request for a seat (Accept / Decline) and Show X
    out for each watcher; these rows follow the table while ADMIN is open."""

    name = "admin"
    title = "ADMIN"
    session: Session
    panel_width = 620
    min_row = 34
    reserve = 110

    def __init__(self, stage: Stage, session: Session) -> None:
        super().__init__(stage)
        self.session = session
        speeds = [(name, name.title()) for name in SPEEDS]
        self.speed = Choice("Table speed", speeds, session.public.get("speed", "normal"),
                            self._speed)
        self.form.add(self.speed)
        pub = session.public
        clocks = list(TURN_CLOCKS)
        now = pub.get("turn_clock", 90.0)
        if all(v != now for v, _ in clocks):
            clocks.append((now, f"{now:g} s"))
        self.turn_clock = Choice("Turn clock", clocks, now, self._turn_clock)
        self.form.add(self.turn_clock)
        self.end_pause = Button("End the pause: play on", self._end_pause)
        self.end_pause.visible = any(r.get("reason") in ("paused", "ready", "joining")
                                     for r in pub.get("pause") or [])
        self.form.add(self.end_pause)
        self.hand_buttons: list[tuple[int, Button]] = []
        for s in session.seats:
            if s["kind"] == "person" and not s.get("local") and s["seat"] not in \
                    session.tokens:
                seat = int(s["seat"])
                b = Button(f"Hand {s['name']} to a CPU", partial(self._hand, seat))
                self.hand_buttons.append((seat, b))
                self.form.add(b)
                r = Button(f"Remove {s['name']} from the table", partial(self._remove, seat))
                self.hand_buttons.append((seat, r))
                self.form.add(r)
        self.watch_toggles: list[Widget] = []
        if session.remote:
            self.allow = Toggle("Let people watch", bool(pub.get("allow_watchers", True)),
                                self._allow)
            self.auto = Toggle("Seat watchers by themselves", bool(pub.get("auto_seat")),
                               self._auto)
            self.watch_toggles = [self.allow, self.auto]
            for wd in self.watch_toggles:
                self.form.add(wd)
        #: The rows that follow the table: (what, seat or watcher number, button).
        self.watch_rows: list[tuple[str, int, Button]] = []
        self._rows_key: object = None
        self.close_button = Button("Close", self.back)
        self.form.add(self.close_button)
        self._sync_rows()

    # ------------------------------------------------------------------ watchers
    def _sync_rows(self) -> bool:
        """Rebuild the request and watcher rows when the table's asks or watchers changed;
        True when they did."""
        pub = self.session.public
        asks = [(int(a["seat"]), str(a["name"])) for a in pub.get("asks") or []
                if not a.get("accepted")]
        watchers = [(int(w["watcher"]), str(w["name"])) for w in self.session.watchers()]
        key = (tuple(asks), tuple(watchers))
        if key == self._rows_key:
            return False
        self._rows_key = key
        for _, _, b in self.watch_rows:
            b.visible = False
            if b in self.form.widgets:
                self.form.widgets.remove(b)
        self.watch_rows = []
        for seat, name in asks:
            colour = theme.SEAT_COLOUR_NAMES[seat % 8]
            self.watch_rows.append(("accept", seat, Button(f"Accept {name} for {colour}",
                                                           partial(self._accept, seat))))
            self.watch_rows.append(("decline", seat, Button(f"Decline {name}'s request",
                                                            partial(self._decline, seat))))
        for number, name in watchers:
            self.watch_rows.append(("out", number, Button(f"Show {name} out",
                                                          partial(self._show_out, number))))
        close = self.close_button in self.form.widgets
        if close:
            self.form.widgets.remove(self.close_button)
        for _, _, b in self.watch_rows:
            self.form.add(b)
        self.form.add(self.close_button)
        if self.box.w:
            self.relayout(self.size)
        return True

    def _allow(self, on: Any) -> None:
        r = self.session.allow_watchers(bool(on))
        self.message = ("People may watch." if on else "Nobody may watch now.") if r.ok \
            else r.message

    def _auto(self, on: Any) -> None:
        r = self.session.auto_seat(bool(on))
        self.message = ("A seat asked for is given at once." if on else
                        "You accept each request here.") if r.ok else r.message

    def _accept(self, seat: int) -> None:
        r = self.session.accept_seat(seat)
        colour = theme.SEAT_COLOUR_NAMES[seat % 8]
        self.message = f"{colour} changes hands at its next turn." if r.ok else r.message

    def _decline(self, seat: int) -> None:
        r = self.session.decline_seat(seat)
        self.message = "Declined: they go on watching." if r.ok else r.message

    def _show_out(self, number: int) -> None:
        r = self.session.remove_watcher(number)
        self.message = "Shown out: they may not watch again." if r.ok else r.message

    def update(self, dt: float) -> None:
        super().update(dt)
        if self._sync_rows():
            self.mark_dirty()

    def _speed(self, name: Any) -> None:
        r = self.session.set_speed(str(name))
        self.message = None if r.ok else r.message

    def _seat_name(self, seat: int) -> str:
        return str(self.session.seats[seat]["name"])

    def _done_with(self, seat: int) -> None:
        """The seat is a CPU's now: its buttons go."""
        for s, b in self.hand_buttons:
            if s == seat:
                b.visible = False
        self.hand_buttons = [(s, b) for s, b in self.hand_buttons if s != seat]
        self.relayout(self.size)

    def _hand(self, seat: int) -> None:
        name = self._seat_name(seat)
        r = self.session.hand_to_cpu(seat)
        if r.ok:
            self.message = f"A CPU plays {name}'s seat now; {name} takes it back by rejoining."
            self._done_with(seat)
        else:
            self.message = r.message

    def _remove(self, seat: int) -> None:
        name = self._seat_name(seat)
        r = self.session.remove(seat)
        if r.ok:
            self.message = f"{name} is off the table (a CPU plays the seat); they may come " \
                           f"back only to watch."
            self._done_with(seat)
        else:
            self.message = r.message

    def _turn_clock(self, seconds: Any) -> None:
        r = self.session.set_turn_clock(None if seconds is None else float(seconds))
        self.message = None if r.ok else r.message

    def _end_pause(self) -> None:
        r = self.session.end_pause()
        self.message = r.message
        if r.ok:
            self.end_pause.visible = False
            self.relayout(self.size)

    def rows(self) -> list[Widget]:
        return [self.speed, self.turn_clock, *([self.end_pause] if self.end_pause.visible
                                               else []),
                *[b for _, b in self.hand_buttons], *self.watch_toggles,
                *[b for _, _, b in self.watch_rows], self.close_button]
