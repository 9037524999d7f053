"""Watchers on screen (issue 17, ``docs/seats.md``): who is watching, a watcher's own line,
the "Ask for a seat" panel and the hot seat's "Sit here" panel.

The words come from the public summary only (``watchers``, ``watching``, ``asks``), so every
screen at the table, the watcher's too, says the same thing:

* :func:`watching_line`: ``Watching: Cid, Dee`` (``Watching: 5 people`` when many);
* :func:`watcher_line`: this screen's own state: ``You are watching`` (the welcome's note),
  ``Waiting for the host: you asked for Blue``, ``You take Blue at its next turn``;
* :class:`SeatPickOverlay`: a list of the CPU seats; a click asks for one (a watcher) or,
  with a name typed, sits a person at this screen in it at its next turn (hot seat).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.widgets import Button, TextInput

if TYPE_CHECKING:
    from game.client.session import Session
    from game.client.stage import Stage
    from game.table import Result

#: Up to this many names are listed; more watchers are counted instead.
MAX_NAMES = 3


def colour_name(seat: int) -> str:
    return theme.SEAT_COLOUR_NAMES[seat % 8]


def watching_line(public: Mapping[str, Any], max_names: int = MAX_NAMES) -> str | None:
    """Who is watching, for every screen: None when nobody is."""
    names = [str(w.get("name", "")) for w in public.get("watchers") or []]
    count = max(len(names), int(public.get("watching") or 0))
    if count == 0:
        return None
    if count > max_names or len(names) < count:
        return f"Watching: {count} people"
    return "Watching: " + ", ".join(names)


def my_ask(session: Session) -> dict[str, Any] | None:
    """This watcher's request for a seat (from the public ``asks``), if it has one."""
    me = getattr(session, "watcher", None)
    if me is None:
        return None
    for a in session.public.get("asks") or []:
        if a.get("watcher") == me:
            return dict(a)
    return None


def watcher_line(session: Session, short: bool = False) -> str | None:
    """This screen's own line while it watches (None: it holds a seat, or watches nothing);
    ``short``: "You are watching" instead of the welcome's whole note (a status line)."""
    if getattr(session, "watcher", None) is None or session.tokens:
        return None
    ask = my_ask(session)
    if ask is not None:
        colour = colour_name(int(ask["seat"]))
        if ask.get("accepted"):
            return f"You take {colour} at its next turn"
        return f"Waiting for the host: you asked for {colour}"
    note = str(getattr(session, "watch_note", "") or "")
    return "You are watching" if short or not note else note


def cpu_seats(session: Session) -> list[int]:
    """The seats that may be asked for (CPU seats nobody else asked for first)."""
    me = getattr(session, "watcher", None)
    taken = {int(a["seat"]) for a in session.public.get("asks") or []
             if a.get("watcher") != me or me is None}
    return [int(s["seat"]) for s in session.seats if s["kind"] == "cpu"
            and int(s["seat"]) not in taken]


def seat_words(seat: Mapping[str, Any]) -> str:
    level = str(seat.get("level") or "").capitalize()
    return f"{colour_name(int(seat['seat']))} CPU" + (f" ({level})" if level else "")


class SeatPickOverlay(Scene):
    """Pick a CPU seat: a watcher asks for it (``hot=False``), or a person at this screen
    types a name and sits in it at its next turn (``hot=True``, ``Session.take_seat``)."""

    overlay = True
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
        self.box = pygame.Rect(0, 0, 0, 0)

    def _typed(self, _text: str) -> None:
        self.message = ""

    def pick(self, seat: int) -> None:
        colour = colour_name(seat)
        if self.hot:
            name = self.name_input.text.strip() if self.name_input is not None else ""
            if not name:
                self.message = "Type your name first."
                return
            r: Result = self.session.take_seat(seat, name)
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

    def layout(self, w: int, h: int) -> None:
        bw = min(self.px(560), int(w * 0.9))
        shown: list[Any] = [*([self.name_input] if self.name_input is not None else []),
                            *[b for _, b in self.seat_buttons], self.close_button]
        step = min(self.px(62), max(self.px(40), (h - self.px(150)) // len(shown)))
        bh = self.px(120) + len(shown) * step
        self.box = pygame.Rect((w - bw) // 2, max(0, (h - bh) // 2), bw, min(bh, h))
        y = self.box.y + self.px(70)
        for wd in shown:
            wd.rect = pygame.Rect(self.box.x + self.px(20), y, bw - self.px(40),
                                  step - self.px(12))
            y += step

    def draw(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surf.blit(shade, (0, 0))
        pygame.draw.rect(surf, theme.BG, self.box, border_radius=14)
        surf.blit(a.nine_slice("panel", self.box.size, 14), self.box)
        t = a.text(self.title, self.px(40), theme.ACCENT)
        surf.blit(t, t.get_rect(midtop=(self.box.centerx, self.box.y + self.px(14))))
        self.form.draw(surf, a)
        if self.message:
            m = a.fit_text(self.message, self.px(20), theme.ACCENT2, self.box.w - 20)
            surf.blit(m, m.get_rect(midbottom=(self.box.centerx, self.box.bottom - self.px(8))))


def draw_lines(surf: pygame.Surface, assets: Any, lines: list[tuple[str, Any]],
               x: int, y: int, w: int, size: int) -> int:
    """Draw ``lines`` (text, colour) from ``(x, y)`` down, each fitted to ``w``; the y below."""
    for text, colour in lines:
        t = assets.fit_text(text, size, colour, w)
        surf.blit(t, (x, y))
        y += t.get_height() + 2
    return y
