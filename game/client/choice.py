"""The track game's choice in progress, pygame-free: card -> peg -> hole, and for a split
(a 7 or 9 shared by two pegs) first part -> second peg -> its remainder.

The scene feeds it the person's clicks and keys and draws what it says: which pegs may be
picked, which holes are targets (with their tags, ``+3``, ``-4``, ``out``, ``jump``,
``swap``), where the keyboard cursor is. Nothing is sent to the table until :meth:`TrackChoice
.choose_target` (or :meth:`TrackChoice.take`) returns a whole play.

Pegs are named by ``(colour, loc)`` and targets by ``(colour, peg, loc)``, with locations as the
views and events write them (``"s"`` at start, a ring hole number, ``"h2"`` in home).

A play's parts are read through :func:`part` only (by name): the rules engineer is turning
``Play.parts`` into NamedTuples, and the switch is the one line there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from game.rules.track.engine import Part as EnginePart
from game.rules.track.engine import loc_event

PegKey = tuple[int, Any]  # (colour, loc)
TargetKey = tuple[int, int, Any]  # (colour, peg index, loc) where a part lands


class Part(NamedTuple):
    """One part of a play, by name: its kind (``f`` forward, ``b`` back, ``o`` out, ``j``
    jump, ``t`` swap, ``x`` discard), the peg's colour and number (0-4), from and to (view
    locations) and the count."""

    kind: str
    colour: int
    peg_no: int
    frm: Any
    to: Any
    n: int

    @property
    def peg(self) -> PegKey:
        return (self.colour, self.frm)

    @property
    def target(self) -> TargetKey:
        return (self.colour, self.peg_no, self.to)


def part(play: Any, k: int) -> Part:
    """Part ``k`` of ``play`` by name (the one place that reads ``Play.parts``)."""
    p = EnginePart(*play.parts[k])  # read by name (an engine part already is one)
    return Part(str(p.kind), int(p.peg) // 5, int(p.peg) % 5, loc_event(p.frm), loc_event(p.to),
                int(p.n))


def is_discard(play: Any) -> bool:
    """A discard (``("x", -1, 0, 0, 0)``: no peg moves)."""
    return part(play, 0).kind == "x"


def part_tag(kind: str, n: int) -> str:
    """What a target hole says: ``+3``, ``-4``, ``out``, ``jump``, ``swap``."""
    return {"f": f"+{n}", "b": f"-{n}", "o": "out", "j": "jump", "t": "swap",
            "x": "discard"}.get(kind, "")


@dataclass
class Target:
    """A highlighted hole: where the part lands, its tag, and the plays it stands for."""

    where: TargetKey
    tag: str
    plays: list[Any]


@dataclass
class TrackChoice:
    """The choice in progress: the card (hand index), then part 1 (peg, hole), then part 2."""

    card: int | None = None
    peg: PegKey | None = None
    first: tuple[PegKey, Any] | None = None  # (peg, to) of a split's first part
    peg2: PegKey | None = None
    plays: list[Any] = field(default_factory=list)  # the picked card's plays
    cursor: int = 0  # the keyboard cursor over :meth:`options`

    # ------------------------------------------------------------------ steps
    def pick_card(self, i: int, hand: list[int], legal: list[Any]) -> bool:
        """Pick hand card ``i`` (a fresh choice); True when it has plays. A card without a
        play is refused and changes nothing (the choice in progress, if any, stands). When
        the card moves one peg only, that peg is chosen too: its holes show."""
        rank = hand[i] >> 2
        plays = [p for p in legal if p.rank == rank]
        if not plays:
            return False
        self.clear()
        self.card = i
        self.plays = plays
        pegs = self.movable_pegs()
        if len(pegs) == 1:  # one peg to move (the pegs in start are one): straight to its holes
            self.peg = next(iter(pegs))
        return True

    def clear(self) -> None:
        """Nothing chosen."""
        self.card = self.peg = self.first = self.peg2 = None
        self.plays = []
        self.cursor = 0

    def choose_peg(self, peg: PegKey) -> bool:
        """Pick ``peg`` (the first part's, or after a split's first part the second's)."""
        if peg not in self.movable_pegs():
            return False
        if self.first is None:
            self.peg = peg
        else:
            self.peg2 = peg
        self.cursor = 0
        return True

    def choose_target(self, where: TargetKey) -> tuple[str, Any]:
        """Take the target hole ``where``: ``("play", play)`` (a whole play, to send),
        ``("split", None)`` (the first part of a split is set; the second peg is picked for
        the person when only one can take the rest) or ``("none", None)``."""
        hit = next((t for t in self.targets() if t.where == where), None)
        if hit is None:
            return ("none", None)
        self.cursor = 0
        if self.first is not None:
            return ("play", hit.plays[0])
        whole = [p for p in hit.plays if len(p.parts) == 1]
        if whole:
            return ("play", whole[0])
        p0 = part(hit.plays[0], 0)
        self.first = (p0.peg, p0.to)
        seconds = {part(p, 1).peg for p in self.split_plays()}
        if len(seconds) == 1:
            self.peg2 = next(iter(seconds))
        return ("split", None)

    def back(self) -> bool:
        """One step back (Esc / U); False when nothing was chosen."""
        self.cursor = 0
        if self.peg2 is not None:
            self.peg2 = None
        elif self.first is not None:
            self.first = None
        elif self.peg is not None:
            if len(self.movable_pegs()) == 1:  # the peg came with the card: both go
                self.clear()
                return True
            self.peg = None
        elif self.card is not None:
            self.clear()
        else:
            return False
        return True

    def discard_play(self) -> Any | None:
        """The picked card's discard, when discarding is the play."""
        return next((p for p in self.plays if is_discard(p)), None)

    # ------------------------------------------------------------------ what to show
    def first_parts(self) -> list[Any]:
        """The picked card's plays that move a peg (not discards)."""
        return [p for p in self.plays if not is_discard(p)]

    def split_plays(self) -> list[Any]:
        """After a split's first part: the plays that begin with it."""
        if self.first is None:
            return []
        peg, to = self.first
        return [p for p in self.plays if len(p.parts) > 1 and part(p, 0).peg == peg and
                part(p, 0).to == to]

    def first_part(self) -> Part | None:
        """A split's first part once it is set (its peg is shown at its new hole)."""
        plays = self.split_plays()
        return part(plays[0], 0) if plays else None

    def remaining(self) -> list[Any]:
        """The picked card's plays still open after the steps taken (all of them before a
        split's first part is set, then the ones that begin with it)."""
        return self.split_plays() if self.first is not None else list(self.plays)

    def movable_pegs(self) -> set[PegKey]:
        """The pegs that may be picked now."""
        if self.card is None:
            return set()
        if self.first is None:
            return {part(p, 0).peg for p in self.first_parts()}
        return {part(p, 1).peg for p in self.split_plays()}

    def chosen_peg(self) -> PegKey | None:
        """The peg whose targets are shown (the second one during a split)."""
        return self.peg2 if self.first is not None else self.peg

    def targets(self) -> list[Target]:
        """The highlighted holes now, in tag order (``-4`` before ``+3`` before ``out``)."""
        if self.card is None:
            return []
        if self.first is None and self.peg is not None:
            plays, k, peg = self.first_parts(), 0, self.peg
        elif self.first is not None and self.peg2 is not None:
            plays, k, peg = self.split_plays(), 1, self.peg2
        else:
            return []
        out: dict[TargetKey, Target] = {}
        for p in plays:  # each play's part k that moves the peg: grouped by where it lands
            pt = part(p, k)
            if pt.peg == peg:
                out.setdefault(pt.target, Target(pt.target, part_tag(pt.kind, pt.n), []))\
                    .plays.append(p)

        def order(t: Target) -> tuple[int, str]:
            return (int(t.tag) if t.tag[1:].isdigit() else 0, str(t.where))

        return sorted(out.values(), key=order)

    # ------------------------------------------------------------------ the keyboard
    def options(self) -> list[tuple[str, Any]]:
        """What Left / Right cycle through: the target holes once a peg is chosen, else the
        movable pegs (``("hole", TargetKey)`` or ``("peg", PegKey)``)."""
        targets = self.targets()
        if targets:
            return [("hole", t.where) for t in targets]
        return [("peg", p) for p in sorted(self.movable_pegs(), key=str)]

    def move_cursor(self, d: int) -> bool:
        opts = self.options()
        if not opts:
            return False
        self.cursor = (self.cursor + d) % len(opts)
        return True

    def under_cursor(self) -> tuple[str, Any] | None:
        opts = self.options()
        if not opts or self.card is None:
            return None
        return opts[self.cursor % len(opts)]

    def take(self) -> tuple[str, Any]:
        """Enter / Space: take what the cursor is on (as :meth:`choose_target`; a peg gives
        ``("peg", peg)``)."""
        got = self.under_cursor()
        if got is None:
            return ("none", None)
        kind, what = got
        if kind == "hole":
            return self.choose_target(what)
        self.choose_peg(what)
        return ("peg", what)
