"""Plays of the track engine: :class:`Part`, :class:`Bump`, :class:`Play` (and the
picked play :class:`_RawPlay` whose parts stay raw until read), the raw-play layout the
generators build, the runs of raw plays kept as factors (tees Jack trades, team splits) and
the Python engine's lazy legal list :class:`LegalList`."""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any, NamedTuple, Protocol, cast

from game.rules.api import TokenPlay
from game.rules.track.board import PEGS
from game.rules.track.config import (
    COLOURS,
    HOME0,
    RANK_CHARS,
    START,
)

# --------------------------------------------------------------------------------------------
# Plays


def loc_text(loc: int) -> str:
    if loc == START:
        return "s"
    if loc >= HOME0:
        return f"h{loc - HOME0}"
    return str(loc)


def loc_event(loc: int) -> int | str:
    """Location in events and views: ring hole int, ``"s"`` for start, ``"h3"`` for home 3."""
    if loc == START:
        return "s"
    if loc >= HOME0:
        return f"h{loc - HOME0}"
    return loc


class Part(NamedTuple):
    """One part of a play, by name (python-chess's ``Move`` is the model); still a 5-tuple
    ``(kind, peg, frm, to, n)``, so it unpacks and compares like one.

    ``kind``: ``"o"`` come out, ``"f"`` forward ``n``, ``"b"`` backward ``n``, ``"j"`` joker
    jump, ``"t"`` Jack trade (tees; ``n`` is the other peg), ``"x"`` discard (the play's only
    part: ``peg`` -1, the rest 0). ``peg``: the peg id ``colour * 5 + i``. ``frm``/``to``: its
    locations before and after (``START`` -1, ring hole, ``HOME0 + k`` for home ``k``).
    """

    kind: str
    peg: int
    frm: int
    to: int
    n: int

    @property
    def colour(self) -> int:
        """The colour (seat) of the moved peg; -1 for a discard."""
        return self.peg // PEGS if self.peg >= 0 else -1

    @property
    def steps(self) -> int:
        """Holes walked: ``n`` for a forward or backward part, else 0."""
        return self.n if self.kind in ("f", "b") else 0

    @property
    def other(self) -> int:
        """The peg a Jack trade swaps with; -1 for every other kind."""
        return self.n if self.kind == "t" else -1

    @property
    def is_discard(self) -> bool:
        return self.kind == "x"


class Bump(NamedTuple):
    """A peg a part bumped: ``peg`` goes from ``frm`` to ``to`` (``START``, or a partner's
    in-spot in a classic/team chain). Still a 3-tuple ``(peg, frm, to)``."""

    peg: int
    frm: int
    to: int


Bumps = tuple[Bump, ...]  # the bumps of one part
#: A play as the Python generators build it, before a :class:`Play` is made of it (only for
#: the plays a caller takes): ``(rank, parts, bumps)`` or ``(rank, parts, bumps, True)``
#: (a tees last resort), the arguments of ``Play`` except that the parts are plain 5-tuples
#: (made :class:`Part` with the play, :func:`_mk`).
Raw = tuple[Any, ...]
PartT = tuple[str, int, int, int, int]  # a part as a raw play holds it (see Part)
Cand = tuple[PartT, Bumps]  # a candidate part and its bumps (split generation)
Mover = tuple[int, int]  # (location, peg id) of a peg that may move
#: a classic/team mover as the fourth pass's generator listed it (loc, pid, colour, forward
#: path masks or None in home, own ring mask, holes to the in-spot): its reference in the tests
MInfo = tuple[int, int, int, "tuple[int, ...] | None", int, int]
Entry = tuple[int, int, int, int, int, list[Cand]]  # see _splits
BoardLists = tuple[list[int], list[int], list[int]]  # (ring occupancy, ring masks, home masks)
Event = dict[str, Any]


class _HasTokens(Protocol):
    def tokens(self) -> list[str]: ...


def _part_text(part: Part) -> str:
    kind, pid, frm, to, n = part
    c = COLOURS[pid // PEGS]
    if kind == "o":
        return c + "s"
    if kind == "f":
        return f"{c}{loc_text(frm)}+{n}" + ("h" if frm < HOME0 and to >= HOME0 else "")
    if kind == "b":
        return f"{c}{loc_text(frm)}-{n}"
    if kind == "j":
        return f"{c}{loc_text(frm)}>{to}"
    if kind == "t":
        return f"{c}{frm}x{to}"
    return "x"


class Play(TokenPlay):
    """One complete play: a card and everything it moves. ``str(play)`` is its token.

    ``rank``: the card's rank (0 joker, 1..13). ``parts``: a tuple of one or two :class:`Part`.
    ``bumps``: per part, a tuple of the :class:`Bump` it caused, in order. ``last``: a tees
    last-resort landing on a partner. A play equals another play of the same token and never
    a string (``str(play) == token`` compares tokens); it hashes as its token.
    """

    __slots__ = ("_tok", "bumps", "last", "parts", "rank")

    rank: int
    parts: tuple[Part, ...]
    bumps: tuple[tuple[Bump, ...], ...]
    last: bool
    _tok: str | None

    def __init__(self, rank: int, parts: tuple[Part, ...],
                 bumps: tuple[tuple[Bump, ...], ...] = ((),), last: bool = False) -> None:
        self.rank = rank
        self.parts = parts
        self.bumps = bumps
        self.last = last
        self._tok = None

    @property
    def token(self) -> str:
        t = self._tok
        if t is None:
            # the parts as stored (a _RawPlay's are left raw)
            t = self._tok = RANK_CHARS[self.rank] + ":" + ",".join(map(_part_text,
                                                                        _get_parts(self)))
        return t

    @property
    def is_discard(self) -> bool:
        return bool(_get_parts(self)[0][0] == "x")


_P = partial(tuple.__new__, Part)  # Part from a 5-tuple, without a Python-level __new__
_B = partial(tuple.__new__, Bump)
_PARTS_SLOT = cast(Any, Play.__dict__["parts"])  # the slot itself (the C core reads it)
_get_parts = _PARTS_SLOT.__get__  # a play's parts as stored: Part, or raw 5-tuples
_set_parts = _PARTS_SLOT.__set__
_new_obj = object.__new__
_NOB = ((),)  # the bumps of a one-part play that bumped nothing
_NOB2 = ((), ())  # of a two-part play
_LOW = tuple((1 << k) - 1 for k in range(14))  # the masks of the k lowest bits


class _RawPlay(Play):
    """A :class:`Play` made from a raw play (the one a legal list's reader picks): the same
    fields, but its ``parts`` slot holds the raw plain 5-tuples until ``.parts`` is read,
    which makes them :class:`Part` (once). The engine's applies read the slot as it is (a
    5-tuple unpacks and compares as a ``Part``; the C core takes either), so a picked play
    that is only applied never makes its parts. It pickles and copies as a plain ``Play``."""

    __slots__ = ()

    @property  # type: ignore[override]
    def parts(self) -> tuple[Part, ...]:
        p = _get_parts(self)
        if type(p[0]) is not Part:
            p = tuple(map(_P, p))
            _set_parts(self, p)
        return cast("tuple[Part, ...]", p)

    @parts.setter
    def parts(self, value: tuple[Part, ...]) -> None:
        _set_parts(self, value)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.rank, self.parts, self.bumps, self.last))


def _pick(r: Raw) -> Play:
    """The play of a raw play, its parts left raw (:class:`_RawPlay`)."""
    p = _new_obj(_RawPlay)
    p.rank = r[0]
    _set_parts(p, r[1])
    p.bumps = r[2]
    p.last = len(r) == 4
    p._tok = None
    return cast(Play, p)


def _mk(r: Raw) -> Play:
    """The :class:`Play` of a raw play (its parts, plain 5-tuples in the raw play, made
    :class:`Part`)."""
    return Play(r[0], tuple(map(_P, r[1])), r[2], len(r) == 4)


def _plays(raws: Sequence[Raw]) -> list[Play]:
    return [_mk(r) for r in raws]


def raw_token(raw: Raw) -> str:
    """The token of a raw play (what ``str(Play(*raw))`` gives)."""
    return RANK_CHARS[raw[0]] + ":" + ",".join(map(_part_text, raw[1]))


class _Trades(tuple):  # type: ignore[type-arg]
    """A run of raw plays kept as its two factors until read: the tees Jack trades (every
    ring peg of the mover with every other colour's ring peg, mover-major): ``(n, ring, om,
    occ)``, ``n`` plays, ``ring`` the mover's ring pegs (``(peg, (hole, ...))``),
    ``om`` the mask of the other pegs' holes and ``occ`` the ring occupancy (a board's, never
    changed): the other pegs are listed off them only when a trade is read. A tuple made with
    ``tuple.__new__`` (:data:`_new_trades`), never a raw play (``type(x) is tuple``), as
    :class:`_Seconds`."""

    __slots__ = ()

    @property
    def n(self) -> int:
        return cast(int, self[0])

    def others(self) -> list[tuple[int, int]]:
        """The other colours' ring pegs ``(hole, peg)``, by hole."""
        _n, _ring, om, occ = self
        out = []
        while om:
            lb = om & -om
            x = lb.bit_length() - 1
            out.append((x, occ[x]))
            om ^= lb
        return out

    def get(self, k: int) -> Raw:
        others = self.others()
        pid, sx = self[1][k // len(others)]
        x, q = others[k % len(others)]
        return (11, (("t", pid, sx[0], x, q),), _NOB)

    def all(self) -> list[Raw]:
        others = self.others()
        return [(11, (("t", pid, sx[0], x, q),), _NOB) for pid, sx in self[1] for x, q in others]


class _Seconds(tuple):  # type: ignore[type-arg]
    """A run of raw split plays kept as their parts until read: ``(n, total, part1, ents,
    skip, repl)``, one first part ``part1`` (which bumped nothing) followed by the second
    parts of ``ents`` (the entries of :func:`_splits` for the second part's kind and count,
    one per mover, in mover order): an entry whose bit is clear in ``skip`` gives its parts
    of the original board, one whose bit is set gives ``repl[index]`` (its parts on the
    board after the first part) or nothing; ``n`` plays in all. The team splits' common
    case, where most plays are. A tuple (made with ``tuple.__new__``, no Python-level
    ``__init__``: one is made per first part), never a raw play (``type(x) is tuple``)."""

    __slots__ = ()

    @property
    def n(self) -> int:
        return cast(int, self[0])

    def _segs(self) -> Iterator[list[Cand]]:
        _n, _total, _part1, ents, skip, repl = self
        for i, e in enumerate(ents):
            if (skip >> i) & 1:
                if repl is not None:
                    seg = repl.get(i)
                    if seg is not None:
                        yield seg
            elif e[5]:
                yield e[5]

    def get(self, k: int) -> Raw:
        for seg in self._segs():
            if k < len(seg):
                part2, b2 = seg[k]
                return (self[1], (self[2], part2), ((), b2))
            k -= len(seg)
        raise IndexError("split index out of range")  # unreachable: k < n

    def all(self) -> list[Raw]:
        total = self[1]
        part1 = self[2]
        return [(total, (part1, part2), ((), b2)) for seg in self._segs() for part2, b2 in seg]


class _Bumped(tuple):  # type: ignore[type-arg]
    """A run of raw split plays kept as their parts until read: ``(n, total, part1, b1,
    segs)``, one first part ``part1`` with its bumps ``b1`` followed by each second part of
    ``segs`` (lists of ``(part, bumps)``, in order), ``n`` plays in all (the team splits of a
    first part that bumped). A tuple, as :class:`_Seconds`."""

    __slots__ = ()

    @property
    def n(self) -> int:
        return cast(int, self[0])

    def get(self, k: int) -> Raw:
        for seg in self[4]:
            if k < len(seg):
                part2, b2 = seg[k]
                return (self[1], (self[2], part2), (self[3], b2))
            k -= len(seg)
        raise IndexError("split index out of range")  # unreachable: k < n

    def all(self) -> list[Raw]:
        _n, total, part1, b1, segs = self
        return [(total, (part1, part2), (b1, b2)) for seg in segs for part2, b2 in seg]


_new_trades = partial(tuple.__new__, _Trades)
_new_seconds = partial(tuple.__new__, _Seconds)
_new_bumped = partial(tuple.__new__, _Bumped)


def _flat(items: list[Any]) -> list[Raw]:
    out: list[Raw] = []
    for it in items:
        if type(it) is not tuple:
            out.extend(it.all())
        else:
            out.append(it)
    return out


class LegalList(Sequence[Play]):
    """The Python engine's legal list: the raw plays (``raw``, see :data:`Raw`) and a
    :class:`Play` made of one only when it is read (each made once). Acts as a read-only list
    (len, index, slices, iteration, ``in``, ``==`` with a list), like the C core's list;
    ``raw`` lets a caller that scores every play skip the objects (the CPU's rollouts).

    Built from ``items`` that may hold runs kept as factors (:class:`_Trades`, with
    ``runs``): its length is known at once, one play is found without expanding the others,
    and ``raw`` expands them (once) when asked."""

    __slots__ = ("_items", "_made", "_n", "_raw")

    def __init__(self, items: list[Any], runs: bool = False, n: int = -1) -> None:
        if runs:  # n: the number of plays, when the generator counted them
            self._items: list[Any] | None = items
            self._raw: list[Raw] | None = None
            self._n = n if n >= 0 else sum(1 if type(it) is tuple else it.n for it in items)
        else:
            self._items = None
            self._raw = items
            self._n = len(items)
        # the plays made so far: None, one (index, play), or a list by index
        self._made: list[Play | None] | tuple[int, Play] | None = None

    @property
    def raw(self) -> list[Raw]:
        r = self._raw
        if r is None:
            r = self._raw = _flat(cast(list[Any], self._items))
        return r

    def __len__(self) -> int:
        return self._n

    def _get_raw(self, i: int) -> Raw:
        r = self._raw
        if r is not None:
            return r[i]
        for it in cast("list[Raw | _Trades | _Seconds | _Bumped]", self._items):
            if type(it) is tuple:  # a raw play (the runs are tuple subclasses or objects)
                if i == 0:
                    return it
                i -= 1
            else:
                run = cast("_Trades | _Seconds | _Bumped", it)
                # the runs are tuples holding their count first (no property call)
                k = cast(int, run[0])  # type: ignore[index]
                if i < k:
                    return run.get(i)
                i -= k
        raise IndexError("legal play index out of range")  # unreachable: i was checked

    def __getitem__(self, i: Any) -> Any:
        if type(i) is not int:  # (an int is the common case: straight on)
            if isinstance(i, slice):
                return [self[j] for j in range(*i.indices(self._n))]
            i = operator.index(i)
        made = self._made
        if type(made) is not list:
            # nothing made yet (None), or one play, (index, play): a reader that takes one
            # play (a random pick, a rollout's) makes no list for the others
            n = self._n
            if i < 0:
                i += n
            if not 0 <= i < n:
                raise IndexError("legal play index out of range")
            if made is not None:
                one = cast("tuple[int, Play]", made)
                if one[0] == i:
                    return one[1]
                made = self._made = [None] * n
                made[one[0]] = one[1]
            else:
                raw = self._raw
                r = raw[i] if raw is not None else self._get_raw(i)
                # _pick, inline: a _RawPlay, its parts left raw
                q = _new_obj(_RawPlay)
                q.rank = r[0]
                _set_parts(q, r[1])
                q.bumps = r[2]
                q.last = len(r) == 4
                q._tok = None
                self._made = (i, q)
                return q
        p = made[i]  # raises IndexError out of range, and takes negative indices
        if p is None:
            if i < 0:
                i += self._n
            raw = self._raw
            r = raw[i] if raw is not None else self._get_raw(i)
            p = made[i] = _pick(r)
        return p

    def __iter__(self) -> Iterator[Play]:
        made = self._made
        if type(made) is not list:
            one = cast("tuple[int, Play] | None", made)
            made = self._made = [None] * self._n
            if one is not None:
                made[one[0]] = one[1]
        raw = self.raw
        for i, p in enumerate(made):
            if p is None:
                p = made[i] = _mk(raw[i])
            yield p

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalList | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other,
                                                                          strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def tokens(self) -> list[str]:
        return [raw_token(r) for r in self.raw]

    def __repr__(self) -> str:
        return f"LegalList({self.tokens()!r})"
