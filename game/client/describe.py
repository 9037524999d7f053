"""Track plays in words for people who do not know hole numbers (the moves list, the hint).

A peg is named by its colour and its rank among that colour's pegs on the track, counted from
the front (the one furthest along from its come-out hole): ``Red's peg`` when it is the only
one, else ``Red's front peg``, ``Red's 2nd peg``, ..., ``Red's back peg``; ``a Red peg from
start``; ``Red's peg in home 2``. Counts are ``+5`` / ``-4``; landing on another colour's peg
says ``bumps Blue``; the joker says what it lands on::

    5:a12+5        ->  5: Red's front peg +5
    6:a0+6h        ->  6: Red's peg +6 into home 3
    7:a12+3,c40+4  ->  7: Red's peg +3, then Yellow's peg +4 (bumps Blue)
    JK:as>36       ->  Joker: a Red peg from start jumps onto Blue's back peg
    J:a12x40       ->  Jack: Red's peg swaps with Blue's front peg
    K:as           ->  King: a Red peg comes out
    9:x            ->  9: discard

Pure functions of the play's parts and the seat's view (``view["pegs"]``: per colour, five
places ``"s"``, a ring hole or ``"h3"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.client.theme import SEAT_COLOUR_NAMES
from game.rules.track.board import Board
from game.rules.track.engine import loc_event

CARD_NAMES = {0: "Joker", 1: "Ace", 10: "10", 11: "Jack", 12: "Queen", 13: "King"}
ORDINALS = ("front", "2nd", "3rd", "4th", "5th")


def card_name(rank: int) -> str:
    return CARD_NAMES.get(rank, str(rank))


def colour_name(colour: int) -> str:
    return SEAT_COLOUR_NAMES[colour % len(SEAT_COLOUR_NAMES)]


def _is_home(loc: Any) -> bool:
    return isinstance(loc, str) and loc.startswith("h")


class PegNamer:
    """Names pegs and places of one position (the view the moves list was made from)."""

    def __init__(self, pegs: Sequence[Sequence[Any]]) -> None:
        self.pegs = [list(p) for p in pegs]
        self.board = Board(max(1, len(self.pegs)))

    def progress(self, colour: int, hole: int) -> int:
        return self.board.distance(self.board.come_out(colour), hole)

    def peg(self, colour: int, loc: Any) -> str:
        col = colour_name(colour)
        if loc == "s":
            return f"a {col} peg from start"
        if _is_home(loc):
            return f"{col}'s peg in home {str(loc)[1:]}"
        ring = sorted((x for x in self.pegs[colour] if isinstance(x, int)),
                      key=lambda h: -self.progress(colour, h))
        if len(ring) <= 1 or loc not in ring:
            return f"{col}'s peg"
        i = ring.index(loc)
        word = "back" if i == len(ring) - 1 else ORDINALS[i]
        return f"{col}'s {word} peg"

    def place(self, hole: int) -> str:
        """A ring hole by the nearest landmark: a colour's come-out hole or home turn."""
        seats = len(self.pegs)
        for c in range(seats):
            if hole == self.board.come_out(c):
                return f"{colour_name(c)}'s come-out hole"
            if hole == self.board.in_spot(c):
                return f"{colour_name(c)}'s home turn"
        best = min(range(seats), key=lambda c: self.board.distance(hole,
                                                                    self.board.come_out(c)))
        d = self.board.distance(hole, self.board.come_out(best))
        return f"{d} before {colour_name(best)}'s come-out hole"


def describe_parts(rank: int, parts: Sequence[tuple[Any, ...]],
                   pegs: Sequence[Sequence[Any]],
                   bumps: Sequence[Sequence[tuple[Any, ...]]] = ()) -> str:
    """A play (its card rank and engine parts ``(kind, peg_id, from, to, n)``, places as in
    the engine or as event places) in words, for the position ``pegs``. ``bumps`` (the
    play's own, one tuple of ``(peg_id, from, to)`` per part) tells a bump back to start
    from a partner sent on to its in-spot (classic and team)."""
    namer = PegNamer(pegs)
    occupied: dict[int, int] = {}
    for c, locs in enumerate(namer.pegs):
        for loc in locs:
            if isinstance(loc, int):
                occupied[loc] = c
    out: list[str] = []
    for i, part in enumerate(parts):
        kind = part[0]
        if kind == "x":
            return f"{card_name(rank)}: discard"
        if kind not in ("o", "f", "b", "j", "t"):
            raise ValueError(f"not a play in this position: {part!r}")
        pid, frm, to, n = part[1], _ev(part[2]), _ev(part[3]), part[4]
        colour = pid // 5
        who = namer.peg(colour, frm)
        if kind == "o":
            text = f"a {colour_name(colour)} peg comes out"
        elif kind in ("f", "b"):
            sign = "+" if kind == "f" else "-"
            text = f"{who} {sign}{n}"
            if _is_home(to):
                text += f" to home {str(to)[1:]}" if _is_home(frm) else \
                    f" into home {str(to)[1:]}"
            elif _is_home(frm):
                text += " back out of home"
        elif kind == "j":
            other = occupied.get(to) if isinstance(to, int) else None
            if other is not None:
                text = f"{who} jumps onto {namer.peg(other, to)}"
                other = None  # said already: no "bumps" too
            else:
                text = f"{who} jumps to {namer.place(int(to))}"
        elif kind == "t":
            other = occupied.get(to) if isinstance(to, int) else None
            mate = namer.peg(other, to) if other is not None else namer.place(int(to))
            text = f"{who} swaps with {mate}"
        else:
            text = f"{who} swaps"  # pragma: no cover (kinds checked above)
        if kind in ("o", "f", "b") and isinstance(to, int):
            other = occupied.get(to)
            if other is not None and other != colour:
                sent_on = any(_ev(b[2]) != "s" for b in (bumps[i] if i < len(bumps) else ()))
                text += (f" (sends {colour_name(other)} on)" if sent_on
                         else f" (bumps {colour_name(other)})")
        if isinstance(frm, int) and kind != "t":
            occupied.pop(frm, None)
        if isinstance(to, int) and kind != "t":
            occupied[to] = colour
        out.append(text)
    if not out:
        return card_name(rank)
    return f"{card_name(rank)}: " + ", then ".join(out)


def _ev(loc: Any) -> Any:
    """An engine place (int code) or an event place (``"s"``, int, ``"h3"``) as an event
    place."""
    if isinstance(loc, str):
        return loc
    return loc_event(int(loc))


def describe_play(play: Any, view: dict[str, Any]) -> str:
    """An engine :class:`~game.rules.track.engine.Play` in words, for ``view``."""
    return describe_parts(int(play.rank), play.parts, view.get("pegs") or [],
                          getattr(play, "bumps", ()) or ())


def describe_token(tok: str, view: dict[str, Any]) -> str:
    """A play token in words for the position of ``view``:
    ``JK:as>36`` -> ``Joker: a Red peg from start jumps onto Blue's back peg``."""
    from game.rules.track import RULES as TRACK

    state = TRACK.determinize(view, 0)
    return describe_play(TRACK.parse_play(state, tok), view)
