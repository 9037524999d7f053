"""Watchers on screen (issue 17, ``docs/seats.md``): who is watching, a watcher's own line,
the "Ask for a seat" panel and the hot seat's "Sit here" panel.

The words come from the public summary only (``watchers``, ``watching``, ``asks``), so every
screen at the table, the watcher's too, says the same thing:

* :func:`watching_line`: ``Watching: Cid, Dee`` (``Watching: 5 people`` when many);
* :func:`watcher_line`: this screen's own state: ``You are watching`` (the welcome's note),
  ``Waiting for the host: you asked for Blue``, ``You take Blue at its next turn``;
* :func:`cpu_seats`: the seats that may be asked for (the table's "Ask for a seat" and
  "Sit here" panel, :class:`game.client.table_overlays.SeatPickOverlay`, lists them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from game.client import theme

if TYPE_CHECKING:
    from game.client.session import Session

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
    me = session.watcher
    if me is None:
        return None
    for a in session.public.get("asks") or []:
        if a.get("watcher") == me:
            return dict(a)
    return None


def watcher_line(session: Session, short: bool = False) -> str | None:
    """This screen's own line while it watches (None: it holds a seat, or watches nothing);
    ``short``: "You are watching" instead of the welcome's whole note (a status line)."""
    if session.watcher is None or session.tokens:
        return None
    ask = my_ask(session)
    if ask is not None:
        colour = colour_name(int(ask["seat"]))
        if ask.get("accepted"):
            return f"You take {colour} at its next turn"
        return f"Waiting for the host: you asked for {colour}"
    note = str(session.watch_note or "")
    return "You are watching" if short or not note else note


def cpu_seats(session: Session) -> list[int]:
    """The seats that may be asked for (CPU seats nobody else asked for first)."""
    me = session.watcher
    taken = {int(a["seat"]) for a in session.public.get("asks") or []
             if a.get("watcher") != me or me is None}
    return [int(s["seat"]) for s in session.seats if s["kind"] == "cpu"
            and int(s["seat"]) not in taken]


def seat_words(seat: Mapping[str, Any]) -> str:
    level = str(seat.get("level") or "").capitalize()
    return f"{colour_name(int(seat['seat']))} CPU" + (f" ({level})" if level else "")
