"""Seats: who sits where, their secret tokens, names and worth.

Every seat has a secret ``token`` (the host hands it to whoever sits there; it is saved so
people can rejoin). A seat's worth is what beating it earns a winning person: 1 for an Easy
CPU, 2 for Tricky, 3 for Nasty or a person (see ``docs/table.md``, points).
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.table.errors import TableError
from game.table.messages import SeatInfo

CPU_LEVELS = ("easy", "tricky", "nasty")
STAND_IN_LEVEL = "tricky"
NAME_MAX = 24
SYMBOLS = ("circle", "square", "triangle", "diamond", "star", "hexagon", "cross", "moon")
WORTH = {"easy": 1, "tricky": 2, "nasty": 3, "person": 3}


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat when the table is created."""

    kind: str = "cpu"  # "person" | "cpu"
    name: str = ""
    level: str = "tricky"  # for a CPU
    local: bool = False  # a person on this screen (hot seat); always connected


@dataclass
class Seat:
    """One seat as the table keeps it (its token never leaves the table but to its owner)."""

    index: int
    kind: str
    name: str
    level: str
    token: str
    local: bool
    team: int = 0
    symbol: str = ""
    connected: bool = False
    ready: bool = False
    joining: bool = False
    seen: bool = False  # connected at some point since this Table object was built
    dropped_at: float | None = None  # table time when a remote person dropped
    left: str | None = None  # the name of the person who handed this seat to a CPU
    # The host took this seat from a person (hand_to_cpu or remove): their old token and name,
    # and whether they may come back to it (``allowed``; False: removed, they may only watch).
    former: str | None = None
    former_name: str | None = None
    allowed: bool = False
    timeouts: int = 0  # turns the stand-in played for this person because the turn clock ran out
    # everyone who held this seat during play and left it (to a CPU or a watcher), in order:
    # the result lists them as played, not won (docs/seats.md)
    played: list[str] = field(default_factory=list)

    def to_record(self) -> dict[str, Any]:
        """The seat as the save file keeps it (``former``... only when set: old saves match)."""
        rec: dict[str, Any] = {
            "seat": self.index, "kind": self.kind, "name": self.name, "level": self.level,
            "token": self.token, "local": self.local, "left": self.left,
        }
        if self.former is not None:
            rec.update(former=self.former, former_name=self.former_name, allowed=self.allowed)
        if self.played:
            rec["played"] = list(self.played)
        return rec

    def public(self, playing: bool, host: bool) -> SeatInfo:
        person = self.kind == "person"
        return {
            "seat": self.index, "kind": "person" if person else "cpu", "name": self.name,
            "level": None if person else self.level,
            "team": self.team, "symbol": self.symbol, "local": self.local,
            "connected": self.connected if person else True,
            "ready": self.ready if person else True,
            "standin": person and not self.connected and playing,
            "host": host, "left": self.left,
            "removed": self.former is not None and not self.allowed,
            "returnable": self.former is not None and self.allowed,
            "timeouts": self.timeouts, "played": list(self.played),
        }

    @property
    def worth(self) -> int:
        return WORTH["person"] if self.kind == "person" else WORTH[self.level]


def new_token() -> str:
    return secrets.token_urlsafe(12)


def cpu_name(level: str) -> str:
    return f"{level.title()} CPU"


def same(token: object, secret: str) -> bool:
    """Constant-time token comparison that never raises (any text, any type)."""
    if not isinstance(token, str):
        return False
    return secrets.compare_digest(token.encode("utf-8", "replace"), secret.encode("utf-8"))


def is_seat(seat: object, count: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < count


def clean_name(name: object) -> str | None:
    """Whitespace collapsed; None unless 1..NAME_MAX printable characters."""
    if not isinstance(name, str):
        return None
    n = " ".join(name.split())
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in n):
        return None
    return n if 0 < len(n) <= NAME_MAX else None


def seat_from_spec(i: int, sp: SeatSpec) -> Seat:
    if sp.kind not in ("person", "cpu"):
        raise TableError(f"seat {i}: kind must be 'person' or 'cpu', not {sp.kind!r}")
    if sp.level not in CPU_LEVELS:
        raise TableError(f"seat {i}: unknown CPU level {sp.level!r}")
    if sp.kind == "person":
        name = clean_name(sp.name)
        if name is None:
            raise TableError(f"seat {i}: a person needs a name of 1..{NAME_MAX} characters")
        return Seat(i, "person", name, sp.level, new_token(), sp.local,
                    connected=sp.local, ready=sp.local, seen=sp.local)
    return Seat(i, "cpu", cpu_name(sp.level), sp.level, new_token(), False)


def seat_from_record(r: Mapping[str, Any], i: int) -> Seat:
    """A seat from its save record; ``ValueError`` naming the fault when it is damaged."""
    if not isinstance(r, Mapping):
        raise ValueError(f"seat {i} is not a record ({type(r).__name__})")
    for key in ("seat", "kind", "name", "level", "token", "local"):
        if key not in r:
            raise ValueError(f"seat {i} has no {key!r}")
    if type(r["seat"]) is not int or r["seat"] != i:
        raise ValueError(f"seat {i} is numbered {r['seat']!r}")
    if r["kind"] not in ("person", "cpu"):
        raise ValueError(f"seat {i} has kind {r['kind']!r}")
    if r["level"] not in CPU_LEVELS:
        raise ValueError(f"seat {i} has CPU level {r['level']!r}")
    if not isinstance(r["token"], str) or not r["token"]:
        raise ValueError(f"seat {i} has no token")
    if not isinstance(r["name"], str):
        raise ValueError(f"seat {i} has name {r['name']!r}")
    left = r.get("left")
    if left is not None and not isinstance(left, str):
        raise ValueError(f"seat {i} has 'left' {left!r}")
    former, former_name = r.get("former"), r.get("former_name")
    if former is not None and (not isinstance(former, str) or not former):
        raise ValueError(f"seat {i} has 'former' {former!r}")
    if former_name is not None and not isinstance(former_name, str):
        raise ValueError(f"seat {i} has 'former_name' {former_name!r}")
    played = r.get("played", [])
    if not isinstance(played, list) or not all(isinstance(p, str) for p in played):
        raise ValueError(f"seat {i} has 'played' {played!r}")
    return Seat(i, str(r["kind"]), r["name"], str(r["level"]), r["token"], bool(r["local"]),
                left=left, former=former, former_name=former_name,
                allowed=former is not None and r.get("allowed") is True, played=list(played))


WATCHERS_MAX = 16  # people watching at once (a flood of watchers is refused, not kept)
WATCHER_RECORDS_MAX = 64  # watchers remembered (for a rejoin), connected or not


@dataclass
class Watcher:
    """A person watching the table: the public view only (no seat, no hand). ``token`` is the
    secret their connection rejoins with; ``number`` is what everyone else sees and names."""

    number: int
    name: str
    token: str
    connected: bool = True


@dataclass
class Ask:
    """A request for a CPU seat. ``token`` is the seat's secret from the change on (made when
    it was asked, given to the person only when the seat changes hands)."""

    seat: int
    name: str
    token: str
    watcher: str | None  # the watcher's token (None: a person at the host's screen)
    number: int | None  # the watcher's public number
    local: bool = False
    accepted: bool = False
