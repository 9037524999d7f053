"""The track-game engine: config, state, legal plays, apply (spec ``track.md``).

Design for speed: a peg location is one ``int`` (``START`` = -1, ring hole ``0..R-1``, home
``k`` = ``HOME0 + k``); the pegs of a game are one flat tuple, peg id ``colour * 5 + i``; per
call the generator builds a ring occupancy list and per-colour bitmasks (ring and home) and
checks paths against precomputed path masks, so a move test is a couple of ``&``.

Everything here is pure: no clocks, files or ``random``; shuffles are :func:`cards.shuffle`
(written out here as :func:`shuffle`, the same steps) whose generator state is stored in the
game state.

An optional C core (``_fast.c``, built by ``pip install -e .`` where a C compiler exists)
serves :func:`gen_legal`, ``apply_play(..., events=False)`` and the tees deals and folds when
it is built (``FAST``); it gives exactly what this Python code gives (the reference; tests
``test_track_fast.py`` and ``bench/track_fingerprint.py`` compare them). Its legal list is a
read-only sequence of :class:`Play` (built on demand) rather than a ``list``.
:func:`set_fast` switches between them (:func:`engine_kind` names the one that runs); events
are always built here.

The Python generators build raw plays (the arguments of ``Play``, with plain 5-tuple parts,
see :data:`Raw`), and keep the tees Jack trades and the team splits as runs of factors (a
first part and the second parts it leaves as they were); they count the plays of the runs,
and :class:`LegalList` makes a :class:`Play` only of a play that is read, so a count, one
random play (``nth_legal``) or the rollout policy's scores of every play (``LegalList.raw``)
cost no play objects for the rest. The splits compute every single part on the original
board once, and for each first part find the second parts it may have changed through
dependence masks (path, landing, the holes a bump chain reads, home) instead of a walk over
every second part; those few are recomputed on a private copy of the board moved in place.

This file is over 600 lines on purpose, for now: the generators, the state and the quiet
apply share the board encoding, the path-mask tables and the raw-play layout, and they sit
on the hot path where a call across modules or an attribute look-up per candidate costs;
the split into movegen / apply / state modules is a mechanical follow-up (the public names
re-exported from here) that was left out of the speed work to keep the fingerprints
checkable one change at a time.
"""

from __future__ import annotations

import importlib
import operator
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple, Protocol, cast

from game.rules.api import ConfigError, RulesError
from game.rules.cards import GOLDEN, JOKER, make_deck, seed_state
from game.rules.fields import CACHE, SHARE, UNKEYED, derive, spec
from game.rules.track.board import PEGS, Board

_FAST_API = 2  # the interface version this file expects of the C core
_fast: Any  # the optional C core (game/rules/track/_fast.c, no stubs); None when not built
try:  # the Python code below is the reference
    _fast = importlib.import_module("game.rules.track._fast")
except ImportError:  # not built: the Python engine runs
    _fast = None
#: Why a C core that is there is not used (None when it is used, or simply not built).
FAST_STALE: str | None = None
if _fast is not None and getattr(_fast, "API", None) != _FAST_API:
    # a build of another version of _fast.c: not used
    FAST_STALE = (f"the built C core has interface {getattr(_fast, 'API', None)!r}, this engine "
                  f"needs {_FAST_API}: rebuild it (pip install -e . or python setup.py "
                  "build_ext --inplace)")
    _fast = None

FAST = False  # True while the C core serves gen_legal / apply_play(events=False)

TEES, CLASSIC, TEAM = 0, 1, 2
RULE_NAMES = ("tees", "classic", "team")
MODES = ("teams", "h2h", "ffa", "solo")
START = -1
HOME0 = 200  # home k (1..5) is HOME0 + k
COLOURS = "abcdefgh"
RANK_CHARS = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
TEES_ROUNDS = {4: (5, 4, 4), 6: (4, 4)}
DEAL_CLASSIC = 5
_FULL_HOME = (1 << PEGS) - 1
_CONFIG_KEYS = ("rules", "seats", "mode", "teams", "jokers", "seven_to_partner")


# --------------------------------------------------------------------------------------------
# Config


def normalize_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Fill defaults and check every field; raise :class:`ConfigError` with a clear message."""
    if not isinstance(config, Mapping):
        raise ConfigError(f"a track config must be a dict, not {type(config).__name__}")
    unknown = sorted(str(k) for k in config if k not in _CONFIG_KEYS)
    if unknown:
        raise ConfigError(
            f"unknown track config key(s) {', '.join(unknown)}; expected {', '.join(_CONFIG_KEYS)}"
        )
    rules = config.get("rules", "classic")
    if rules not in RULE_NAMES:
        raise ConfigError(f"rules must be one of tees, classic, team, not {rules!r}")
    seats = config.get("seats", 4)
    if type(seats) is not int or not 1 <= seats <= 8:
        raise ConfigError(f"seats must be a whole number from 1 to 8, not {seats!r}")
    mode = config.get("mode")
    if mode is None:
        if rules == "tees":
            mode = "teams"
        else:
            mode = {1: "solo", 2: "h2h", 4: "teams", 6: "teams", 8: "teams"}.get(seats, "ffa")
    if mode not in MODES:
        raise ConfigError(f"mode must be one of teams, h2h, ffa, solo, not {mode!r}")
    teams = config.get("teams")
    if teams is not None and (type(teams) is not int):
        raise ConfigError(f"teams must be a whole number, not {teams!r}")
    if rules == "tees":
        if mode != "teams":
            raise ConfigError("tees is played in teams only (4 seats as 2x2 or 6 seats as 3x2)")
        if seats not in (4, 6):
            raise ConfigError(f"tees seats 4 (2 teams of 2) or 6 (3 teams of 2), not {seats}")
        want = seats // 2
        if teams is None:
            teams = want
        if teams != want:
            raise ConfigError(f"tees with {seats} seats has {want} teams of 2, not {teams} teams")
    elif mode == "teams":
        allowed = {4: (2,), 6: (2, 3), 8: (2, 4)}.get(seats)
        if allowed is None:
            raise ConfigError(f"team games seat 4, 6 or 8 players, not {seats}")
        if teams is None:
            teams = 2
        if teams not in allowed:
            raise ConfigError(
                f"{seats} seats split into {' or '.join(map(str, allowed))} teams, not {teams}"
            )
    elif mode == "h2h":
        if seats != 2:
            raise ConfigError(f"head to head is for 2 seats, not {seats}")
        if teams not in (None, 2):
            raise ConfigError("head to head has 2 one-player teams")
        teams = 2
    elif mode == "ffa":
        if not 3 <= seats <= 8:
            raise ConfigError(f"free-for-all is for 3 to 8 seats, not {seats}")
        if teams not in (None, seats):
            raise ConfigError(f"free-for-all with {seats} seats has {seats} one-player teams")
        teams = seats
    else:  # solo
        if seats != 1:
            raise ConfigError(f"solo is for 1 seat, not {seats}")
        if teams not in (None, 1):
            raise ConfigError("solo has one team of one")
        teams = 1
    jokers = config.get("jokers", rules != "tees")
    if type(jokers) is not bool:
        raise ConfigError(f"jokers must be true or false, not {jokers!r}")
    if rules == "tees" or mode == "solo":
        jokers = False  # tees has no jokers; solo removes them (nothing to bump)
    seven = config.get("seven_to_partner", True)
    if type(seven) is not bool:
        raise ConfigError(f"seven_to_partner must be true or false, not {seven!r}")
    return {"rules": rules, "seats": seats, "mode": mode, "teams": teams, "jokers": jokers,
            "seven_to_partner": seven}


class Cfg:
    """A normalized config plus every precomputed table of the engine (shared, immutable)."""

    __slots__ = (
        "R",
        "bwd",
        "comeout",
        "conf",
        "deck",
        "fast",
        "fwd",
        "inspot",
        "jokers",
        "key",
        "mode",
        "n",
        "nteams",
        "partners",
        "rules",
        "seven",
        "team_of",
        "teamcols",
        "teams",
    )

    conf: dict[str, Any]
    key: tuple[Any, ...]
    rules: int
    n: int
    mode: str
    nteams: int
    jokers: bool
    seven: bool
    R: int
    inspot: tuple[int, ...]
    comeout: tuple[int, ...]
    team_of: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    teamcols: tuple[tuple[int, ...], ...]
    partners: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    fwd: tuple[tuple[int, ...], ...]  # [hole][k]: ring mask of the k holes ahead
    bwd: tuple[tuple[int, ...], ...]  # [hole][k]: ring mask of the k holes behind
    fast: Any  # the C core's copy (_fast.Config), None without it

    def __init__(self, conf: dict[str, Any]) -> None:
        self.conf = conf
        self.key = tuple(conf[k] for k in _CONFIG_KEYS)  # what a state's key starts with
        self.rules = RULE_NAMES.index(conf["rules"])
        n = self.n = conf["seats"]
        self.mode = conf["mode"]
        self.nteams = conf["teams"]
        self.jokers = conf["jokers"]
        self.seven = conf["seven_to_partner"]
        b = Board(n)
        R = self.R = b.ring
        self.inspot = tuple(b.in_spot(c) for c in range(n))
        self.comeout = tuple(b.come_out(c) for c in range(n))
        if self.mode == "teams":
            self.team_of = tuple(c % self.nteams for c in range(n))
        else:
            self.team_of = tuple(range(n))
        self.teams = tuple(
            tuple(c for c in range(n) if self.team_of[c] == t) for t in range(self.nteams)
        )
        self.teamcols = tuple(self.teams[self.team_of[c]] for c in range(n))
        self.partners = tuple(
            tuple((c + k) % n for k in range(1, n) if self.team_of[(c + k) % n] == self.team_of[c])
            for c in range(n)
        )
        if self.rules == TEES:
            decks = 1
        elif self.rules == TEAM:
            decks = 4
        else:
            decks = 3 if n <= 6 else 4
        self.deck = tuple(make_deck(decks, 2 if self.jokers else 0))
        fwd = []
        bwd = []
        for h in range(R):
            f = [0]
            g = [0]
            mf = mg = 0
            for k in range(1, 14):
                mf |= 1 << ((h + k) % R)
                mg |= 1 << ((h - k) % R)
                f.append(mf)
                g.append(mg)
            fwd.append(tuple(f))
            bwd.append(tuple(g))
        self.fwd = tuple(fwd)
        self.bwd = tuple(bwd)
        self.fast = None if _fast is None else _fast.Config(self)

    def __reduce__(self) -> tuple[Callable[[Mapping[str, Any]], Cfg], tuple[dict[str, Any]]]:
        # pickled and copied as its config (the tables, and the C core's copy, are rebuilt)
        return (make_cfg, (self.conf,))


_CFG_CACHE: dict[tuple[Any, ...], Cfg] = {}


def make_cfg(config: Mapping[str, Any]) -> Cfg:
    conf = normalize_config(config)
    key = tuple(conf[k] for k in _CONFIG_KEYS)
    cfg = _CFG_CACHE.get(key)
    if cfg is None:
        cfg = _CFG_CACHE[key] = Cfg(conf)
    return cfg


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
MInfo = tuple[int, int, int, "tuple[int, ...] | None", int, int]  # see _minfo
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


class Play:
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

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Play({self.token!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Play):
            return self.token == other.token
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.token)

    @property
    def is_discard(self) -> bool:
        return bool(_get_parts(self)[0][0] == "x")


_P = partial(tuple.__new__, Part)  # Part from a 5-tuple, without a Python-level __new__
_B = partial(tuple.__new__, Bump)
_PARTS_SLOT = cast(Any, Play.__dict__["parts"])  # the slot itself (the C core reads it)
_get_parts = _PARTS_SLOT.__get__  # a play's parts as stored: Part, or raw 5-tuples
_set_parts = _PARTS_SLOT.__set__
_new_obj = object.__new__


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


class _Trades:
    """A run of raw plays kept as its two factors until read: the tees Jack trades (every
    ring peg of the mover with every other colour's ring peg, mover-major), ``n`` of them."""

    __slots__ = ("n", "others", "ring")

    def __init__(self, ring: list[Mover], others: list[tuple[int, int]]) -> None:
        self.ring = ring
        self.others = others
        self.n = len(ring) * len(others)

    def get(self, k: int) -> Raw:
        loc, pid = self.ring[k // len(self.others)]
        x, q = self.others[k % len(self.others)]
        return (11, (("t", pid, loc, x, q),), _NOB)

    def all(self) -> list[Raw]:
        return [(11, (("t", pid, loc, x, q),), _NOB)
                for loc, pid in self.ring for x, q in self.others]


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
        self._made: list[Play | None] | None = None

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
                # the split runs are tuples holding their count first (no property call)
                k = run.n if type(run) is _Trades else cast(int, run[0])  # type: ignore[index]
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
        if made is None:
            made = self._made = [None] * self._n
        p = made[i]  # raises IndexError out of range, and takes negative indices
        if p is None:
            if i < 0:
                i += self._n
            raw = self._raw
            r = raw[i] if raw is not None else self._get_raw(i)
            # _pick, inline: a _RawPlay, its parts left raw
            p = made[i] = _new_obj(_RawPlay)
            p.rank = r[0]
            _set_parts(p, r[1])
            p.bumps = r[2]
            p.last = len(r) == 4
            p._tok = None
        return p

    def __iter__(self) -> Iterator[Play]:
        made = self._made
        if made is None:
            made = self._made = [None] * self._n
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


# --------------------------------------------------------------------------------------------
# State


@dataclass(slots=True, kw_only=True, eq=False, repr=False)
class TrackState:
    """A full game state. Treat as immutable: the engine builds new states, never edits one.

    The fields below are the one list of what a state holds: ``copy``, ``key`` and pickling
    derive from it (:mod:`game.rules.fields`); the C core reads and writes the same slots by
    name."""

    cfg: Cfg = field(metadata=spec(key="*{}.key"))  # the key starts with its config
    seed: int | str = field(metadata=SHARE)
    pegs: tuple[int, ...] = field(metadata=SHARE)  # peg id colour * 5 + i -> location
    hands: tuple[tuple[int, ...], ...] = field(metadata=SHARE)  # per seat, sorted
    pile: tuple[int, ...] = field(metadata=SHARE)  # draw pile (tees: the undealt rest); top last
    discards: tuple[int, ...] = field(metadata=SHARE)
    rng: int = field(metadata=SHARE)  # the generator state (cards.splitmix64)
    turn: int = field(metadata=SHARE)  # seat to move, -1 when over
    dealer: int = field(metadata=SHARE)
    round: int = field(metadata=SHARE)  # tees: rounds dealt from the current deck
    nplays: int = field(metadata=SHARE)
    winner: int = field(metadata=SHARE)  # winning team, -1 while playing
    idle: int = field(metadata=UNKEYED)  # tees: deals in a row without a play (deadlock guard)
    # caches, None in every new state and copy: the legal plays (a list, or the C core's
    # PlayList) and the board (ring occupancy, per-colour ring masks, home masks)
    _legal: Sequence[Play] | None = field(default=None, init=False, metadata=CACHE)
    _board: tuple[list[int], list[int], list[int]] | None = field(
        default=None, init=False, metadata=CACHE)

    def copy(self) -> TrackState:
        """The same state with the caches cleared (the engine then changes the copy)."""
        return _STATE.copy(self)

    def key(self) -> tuple[Any, ...]:
        """Everything that defines the state (for equality checks in tests and replays): the
        config, then every field but ``idle``."""
        return _STATE.key(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TrackState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __getstate__(self) -> tuple[Any, ...]:
        return _STATE.getstate(self)

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        _STATE.setstate(self, values)

    def __repr__(self) -> str:
        from game.rules.track.notation import format_position

        return f"TrackState({format_position(self)!r})"


_STATE = derive(TrackState)
_copy_state = _STATE.copy


def done(pegs: Sequence[int], c: int) -> bool:
    b = c * PEGS
    return min(pegs[b:b + PEGS]) >= HOME0


def controlled(cfg: Cfg, seat: int, pegs: Sequence[int]) -> tuple[int, ...]:
    """The colours ``seat`` moves now."""
    if cfg.rules == TEAM:
        return cfg.teamcols[seat]
    if not done(pegs, seat):
        return (seat,)
    for p in cfg.partners[seat]:
        if not done(pegs, p):
            return (p,)
    return ()


def _boards(cfg: Cfg, pegs: Sequence[int]) -> BoardLists:
    occ = [-1] * cfg.R
    rm = [0] * cfg.n
    hm = [0] * cfg.n
    for pid, loc in enumerate(pegs):
        if loc >= HOME0:
            hm[pid // PEGS] |= 1 << (loc - HOME0 - 1)
        elif loc >= 0:
            occ[loc] = pid
            rm[pid // PEGS] |= 1 << loc
    return occ, rm, hm


def board(st: TrackState) -> tuple[list[int], list[int], list[int]]:
    """(ring occupancy, per-colour ring masks, per-colour home masks) of a state; cached.
    The lists are shared between states and must never be mutated."""
    b = st._board
    if b is None:
        b = st._board = _boards(st.cfg, st.pegs)
    return b


def _do(pegs: list[int], occ: list[int], rm: list[int], hm: list[int], pid: int, to: int,
        bumps: Bumps) -> None:
    """Move ``pid`` to ``to`` and apply its bumps, updating every board list in place."""
    moved = [(q, qf, qt) for q, qf, qt in bumps]
    moved.append((pid, pegs[pid], to))
    for q, qf, _ in moved:
        c = q // PEGS
        if qf >= HOME0:
            hm[c] &= ~(1 << (qf - HOME0 - 1))
        elif qf >= 0:
            if occ[qf] == q:
                occ[qf] = -1
            rm[c] &= ~(1 << qf)
    for q, _, qt in moved:
        c = q // PEGS
        pegs[q] = qt
        if qt >= HOME0:
            hm[c] |= 1 << (qt - HOME0 - 1)
        elif qt >= 0:
            occ[qt] = q
            rm[c] |= 1 << qt


def _moved(st: TrackState, play: Play) -> tuple[list[int], list[int], list[int], list[int],
                                               bool]:
    """The pegs and the board after ``play``'s parts (fresh lists; ``st`` is not changed),
    and whether a peg went home: the board update of both apply paths."""
    pegs = list(st.pegs)
    ob = st._board
    if ob is None:
        ob = board(st)
    occ, rm, hm = ob[0][:], ob[1][:], ob[2][:]
    return pegs, occ, rm, hm, _move_parts(_get_parts(play), play.bumps, pegs, occ, rm, hm)


def _move_parts(parts: Sequence[Any], bumps_of: Sequence[Bumps], pegs: list[int],
                occ: list[int], rm: list[int], hm: list[int]) -> bool:
    """Move a play's parts on the board (``pegs`` and the occupancy, ring and home masks, in
    place), for both apply paths (the events are the caller's); True when a peg went home."""
    homed = False
    for part, bumps in zip(parts, bumps_of, strict=True):
        kind, pid, frm, to, n = part
        if kind == "t":
            c, oc = pid // PEGS, n // PEGS
            pegs[pid] = to
            pegs[n] = frm
            occ[to] = pid
            occ[frm] = n
            rm[c] ^= (1 << frm) | (1 << to)
            rm[oc] ^= (1 << frm) | (1 << to)
            continue
        if bumps:
            _do(pegs, occ, rm, hm, pid, to, bumps)
        else:  # lift the peg, put it down
            c = pid // PEGS
            pegs[pid] = to
            if frm >= HOME0:
                hm[c] &= ~(1 << (frm - HOME0 - 1))
            elif frm >= 0:
                occ[frm] = -1
                rm[c] &= ~(1 << frm)
            if to >= HOME0:
                hm[c] |= 1 << (to - HOME0 - 1)
            else:
                occ[to] = pid
                rm[c] |= 1 << to
        if to >= HOME0:
            homed = True
    return homed


def _board_after(pegs: tuple[int, ...] | list[int], occ: list[int], rm: list[int],
                 hm: list[int], pid: int, to: int, bumps: Bumps
                 ) -> tuple[list[int], list[int], list[int]]:
    """``(occ, rm, hm)`` of a copy of the board after ``pid`` moves to ``to`` with ``bumps``
    (the board a split's second part is found on); the arguments are not changed."""
    q2 = list(pegs)
    o2 = occ[:]
    r2 = rm[:]
    h2 = hm[:]
    _do(q2, o2, r2, h2, pid, to, bumps)
    return o2, r2, h2


def _land(cfg: Cfg, pid: int, x: int, occ: list[int]) -> Bumps | None:
    """Bumps caused by peg ``pid`` landing on ring hole ``x`` (classic/team), or None if illegal."""
    q = occ[x]
    if q < 0 or q == pid:
        return ()
    c = pid // PEGS
    cq = q // PEGS
    if cq == c:
        return None
    team_of = cfg.team_of
    if team_of[cq] != team_of[c]:
        return (_B((q, x, START)),)
    inspot = cfg.inspot
    t = inspot[cq]
    bumps = [_B((q, x, t))]
    visited = {x}
    while True:
        if t in visited:
            return None
        r = occ[t]
        if r < 0 or r == pid:
            return tuple(bumps)
        cr = r // PEGS
        if cr == cq:
            return None
        if team_of[cr] != team_of[cq]:
            bumps.append(_B((r, t, START)))
            return tuple(bumps)
        visited.add(t)
        nt = inspot[cr]
        bumps.append(_B((r, t, nt)))
        cq = cr
        t = nt


def _fwd_ct(cfg: Cfg, c: int, loc: int, n: int, rm: list[int], hm: list[int]) -> list[int]:
    """Classic/team forward destinations of a peg (before bump checks): ring first, then home."""
    if loc >= HOME0:
        k = loc - HOME0
        if k + n <= 5 and not (hm[c] >> k) & ((1 << n) - 1):
            return [loc + n]
        return []
    out = []
    own = rm[c]
    fwd = cfg.fwd[loc]
    if not fwd[n] & own:
        out.append((loc + n) % cfg.R)
    d = (cfg.inspot[c] - loc) % cfg.R
    if d < n <= d + 5 and not fwd[d] & own and not hm[c] & ((1 << (n - d)) - 1):
        out.append(HOME0 + n - d)
    return out


def _movers(pegs: tuple[int, ...] | list[int], cols: tuple[int, ...]
            ) -> tuple[list[Mover], list[int]]:
    """(sorted (loc, pid) of pegs out of start that might move, first start peg per colour)."""
    movers = []
    starts = []
    for c in cols:
        b = c * PEGS
        first = -1
        for pid in range(b, b + PEGS):
            loc = pegs[pid]
            if loc == START:
                if first < 0:
                    first = pid
            elif loc < HOME0 + 5:
                movers.append((loc, pid))
        if first >= 0:
            starts.append(first)
    movers.sort()
    return movers, starts


_NOB = ((),)
_NOB2 = ((), ())
_LOW = tuple((1 << k) - 1 for k in range(14))


def _minfo(cfg: Cfg, movers: list[Mover], rm: list[int]) -> list[MInfo]:
    """Per mover: (loc, pid, colour, forward path masks or None in home, own ring mask,
    holes to the own in-spot)."""
    R = cfg.R
    fwdt = cfg.fwd
    inspot = cfg.inspot
    out: list[MInfo] = []
    for loc, pid in movers:
        c = pid // PEGS
        if loc >= HOME0:
            out.append((loc, pid, c, None, 0, 0))
        else:
            d = inspot[c] - loc
            if d < 0:
                d += R
            out.append((loc, pid, c, fwdt[loc], rm[c], d))
    return out


def _gen_ct(st: TrackState, want_all: bool = False, lazy: bool = False) -> Any:
    """Legal plays for classic and team (raw). With ``want_all``: (moves, joker moves,
    discards); ``lazy``: a :class:`LegalList` that keeps the team splits as runs."""
    cfg = st.cfg
    seat = st.turn
    pegs = st.pegs
    bd = st._board
    if bd is None:
        bd = st._board = _boards(cfg, pegs)
    occ, rm, hm = bd
    team = cfg.rules == TEAM
    # the colours moved (controlled(), inline), their movers (loc, pid) sorted and the first
    # peg in start of each (_movers, inline) and the hand's ranks (_hand_ranks, inline)
    if team:
        cols = cfg.teamcols[seat]
    elif hm[seat] != _FULL_HOME:  # not done (a full home mask: every peg home)
        cols = (seat,)
    else:
        cols = ()
        for p in cfg.partners[seat]:
            if hm[p] != _FULL_HOME:
                cols = (p,)
                break
    R = cfg.R
    # minfo (see _minfo, inline): per mover (loc, pid, colour, forward path masks or None in
    # home, own ring mask, holes to the own in-spot), sorted as the movers (by loc, pid)
    minfo: list[MInfo] = []
    starts: list[int] = []
    fwdt = cfg.fwd
    inspot = cfg.inspot
    for c in cols:
        first = -1
        own_c = rm[c]
        ins = inspot[c]
        for pid in range(c * PEGS, c * PEGS + PEGS):
            loc = pegs[pid]
            if loc == START:
                if first < 0:
                    first = pid
            elif loc >= HOME0:
                if loc < HOME0 + 5:
                    minfo.append((loc, pid, c, None, 0, 0))
            else:
                d = ins - loc
                if d < 0:
                    d += R
                minfo.append((loc, pid, c, fwdt[loc], own_c, d))
        if first >= 0:
            starts.append(first)
    minfo.sort()  # (loc, pid) are unique: the rest is never compared
    movers: list[Mover] | None = None  # [(loc, pid)] of minfo, made when needed
    ranks: list[int] = []
    prev = -1
    for card in st.hands[seat]:
        r = card >> 2
        if r != prev:
            ranks.append(r)
            prev = r
    comeout = cfg.comeout
    normal: list[Any] = []  # raw plays, and runs of splits (_Seconds)
    jk: list[Raw] = []
    app = normal.append
    f10: list[tuple[PartT, tuple[Bumps, ...]]] | None = None
    runs = False
    extra = 0  # the plays in runs less the runs (the list's length is len(normal) + extra)
    low = _LOW
    # a split needs two pegs that can move, or (classic team games, seven to partner) one that
    # may bring the colour home and hand the rest to a partner
    split_ok = len(minfo) >= 2 or (
        len(minfo) == 1 and not team and cfg.seven and cfg.mode == "teams")
    for r in ranks:
        if r == JOKER:
            if movers is None:
                movers = [(m[0], m[1]) for m in minfo]
            if team and starts:
                sources = [(START, pid) for pid in starts]
            elif team:
                sources = movers
            else:
                sources = [(START, pid) for pid in starts] + movers
            targets = sorted(x for x in pegs if 0 <= x < HOME0)
            for loc, pid in sources:
                if loc >= HOME0:
                    continue
                c = pid // PEGS
                for x in targets:
                    if occ[x] // PEGS == c:
                        continue
                    b = _land(cfg, pid, x, occ)
                    if b is not None:
                        jk.append((0, (("j", pid, loc, x, 0),), (b,)))
            continue
        if r == 1 or r >= 11:
            for pid in starts:
                c = pid // PEGS
                o = comeout[c]
                if (rm[c] >> o) & 1:
                    continue
                if occ[o] < 0:
                    app((r, (("o", pid, START, o, 0),), _NOB))
                else:
                    b = _land(cfg, pid, o, occ)
                    if b is not None:
                        app((r, (("o", pid, START, o, 0),), (b,)))
        if r == 8:
            bwdt = cfg.bwd
            for m8 in minfo:
                loc = m8[0]
                if loc >= HOME0:
                    continue
                pid = m8[1]
                if bwdt[loc][8] & rm[pid // PEGS]:
                    continue
                x = loc - 8
                if x < 0:
                    x += R
                b = _land(cfg, pid, x, occ)
                if b is not None:
                    app((8, (("b", pid, loc, x, 8),), (b,)))
            continue
        # every single forward-n play of the movers (_fwd_plays, inline); J, Q and K all
        # move 10: their parts are found once (f10) and played with each of them
        if r >= 11:
            if f10 is None:
                f10 = []
                f10app = f10.append
                for loc, pid, c, f, own, d in minfo:
                    if f is None:
                        continue  # 10 never fits in the home
                    if not f[10] & own:
                        x = loc + 10
                        if x >= R:
                            x -= R
                        if occ[x] < 0:
                            f10app((("f", pid, loc, x, 10), _NOB))
                        else:
                            b = _land(cfg, pid, x, occ)
                            if b is not None:
                                f10app((("f", pid, loc, x, 10), (b,)))
                    if d < 10 <= d + 5 and not f[d] & own and not hm[c] & low[10 - d]:
                        f10app((("f", pid, loc, HOME0 + 10 - d, 10), _NOB))
            for part, bt in f10:
                app((r, (part,), bt))
            continue
        n = 1 if r == 1 else r
        lown = low[n]
        for loc, pid, c, f, own, d in minfo:
            if f is None:
                k = loc - HOME0
                if k + n <= 5 and not (hm[c] >> k) & lown:
                    app((r, (("f", pid, loc, loc + n, n),), _NOB))
                continue
            if not f[n] & own:
                x = loc + n
                if x >= R:
                    x -= R
                if occ[x] < 0:
                    app((r, (("f", pid, loc, x, n),), _NOB))
                else:
                    b = _land(cfg, pid, x, occ)
                    if b is not None:
                        app((r, (("f", pid, loc, x, n),), (b,)))
            if d < n <= d + 5 and not f[d] & own and not hm[c] & low[n - d]:
                app((r, (("f", pid, loc, HOME0 + n - d, n),), _NOB))
        if r == 7 and split_ok:
            if movers is None:
                movers = [(m[0], m[1]) for m in minfo]
            if team:
                m, e = _splits(cfg, seat, pegs, occ, rm, hm, movers, 7, (("f", "f"),), normal,
                               cols)
                runs |= m
                extra += e
            else:
                _sevens_one_colour(cfg, seat, pegs, occ, rm, hm, movers, normal, cols)
        elif r == 9 and team and split_ok:
            if movers is None:
                movers = [(m[0], m[1]) for m in minfo]
            m, e = _splits(cfg, seat, pegs, occ, rm, hm, movers, 9, (("f", "b"), ("b", "f")),
                           normal, cols)
            runs |= m
            extra += e
    if want_all:
        discards = [(r, (("x", -1, 0, 0, 0),), _NOB) for r in ranks]
        return _plays(_flat(normal)), _plays(jk), _plays(discards)
    if normal:
        if jk:
            normal.extend(jk)
        if lazy:  # LegalList(...), inline (no __init__ call)
            lg = _new_obj(LegalList)
            if runs:
                lg._items = normal
                lg._raw = None
                lg._n = len(normal) + extra
            else:
                lg._items = None
                lg._raw = normal
                lg._n = len(normal)
            lg._made = None
            return lg
        return _flat(normal) if runs else normal
    jk.extend((r, (("x", -1, 0, 0, 0),), _NOB) for r in ranks)
    return LegalList(jk) if lazy else jk


def _dests(cfg: Cfg, kind: str, pid: int, loc: int, n: int, rm: list[int], hm: list[int],
           occ: list[int]) -> list[tuple[int, Bumps]]:
    """(to, bumps) of one split part (classic/team)."""
    out = []
    if kind == "f":
        for to in _fwd_ct(cfg, pid // PEGS, loc, n, rm, hm):
            if to < HOME0:
                b = _land(cfg, pid, to, occ)
                if b is None:
                    continue
            else:
                b = ()
            out.append((to, b))
    else:
        if loc >= HOME0 or loc < 0:
            return out
        if cfg.bwd[loc][n] & rm[pid // PEGS]:
            return out
        x = (loc - n) % cfg.R
        b = _land(cfg, pid, x, occ)
        if b is not None:
            out.append((x, b))
    return out


def _fwd_all(cfg: Cfg, pid: int, loc: int, top: int, occ: list[int], rm: list[int],
             hm: list[int]) -> list[list[Cand]]:
    """Forward parts of one peg for every count 1..top (classic/team), index = count:
    lists of ``(part, bumps)``, ring destination before home, as :func:`_dests` gives."""
    c = pid // PEGS
    if top == 6:  # the 7 splits (a literal: no comprehension call)
        out: list[list[Cand]] = [[], [], [], [], [], [], []]
    else:
        out = [[] for _ in range(top + 1)]
    h = hm[c]
    if loc >= HOME0:
        k = loc - HOME0
        for a in range(1, min(top, 5 - k) + 1):
            if (h >> (k + a - 1)) & 1:
                break
            out[a].append((("f", pid, loc, loc + a, a), ()))
        return out
    R = cfg.R
    f = cfg.fwd[loc]
    own = rm[c]
    d = cfg.inspot[c] - loc
    if d < 0:
        d += R
    ring_ok = True
    home_ok = d < top and not f[d] & own
    for a in range(1, top + 1):
        lst = out[a]
        if ring_ok:
            x = loc + a
            if x >= R:
                x -= R
            if (own >> x) & 1:
                ring_ok = False
            elif occ[x] < 0:
                lst.append((("f", pid, loc, x, a), ()))
            else:
                b = _land(cfg, pid, x, occ)
                if b is not None:
                    lst.append((("f", pid, loc, x, a), b))
        if home_ok and a > d:
            k = a - d
            if k > 5 or (h >> (k - 1)) & 1:
                home_ok = False
            else:
                lst.append((("f", pid, loc, HOME0 + k, a), ()))
    return out


def _bwd_all(cfg: Cfg, pid: int, loc: int, top: int, occ: list[int], rm: list[int]
             ) -> list[list[Cand]]:
    """Backward parts of one ring peg for every count 1..top (classic/team), index = count:
    lists of ``(part, bumps)`` as :func:`_dests` gives them."""
    out: list[list[Cand]] = [[] for _ in range(top + 1)]
    R = cfg.R
    own = rm[pid // PEGS]
    for a in range(1, top + 1):
        x = loc - a
        if x < 0:
            x += R
        if (own >> x) & 1:
            break  # an own peg blocks this count and every longer one
        if occ[x] < 0:
            out[a].append((("b", pid, loc, x, a), ()))
        else:
            b = _land(cfg, pid, x, occ)
            if b is not None:
                out[a].append((("b", pid, loc, x, a), b))
    return out


def _touched(cfg: Cfg, frm: int, to: int, bumps: Bumps) -> int:
    """Ring holes whose occupant a part changed (mask)."""
    m = 0
    if 0 <= frm < HOME0:
        m |= 1 << frm
    if 0 <= to < HOME0:
        m |= 1 << to
    for _q, qf, qt in bumps:
        m |= 1 << qf
        if qt >= 0:
            m |= 1 << qt
    return m


def _second_movers(cfg: Cfg, seat: int, pegs: tuple[int, ...], movers: list[Mover],
                   cols1: tuple[int, ...], recolour: bool, pid1: int, to1: int, b1: Bumps
                   ) -> list[Mover]:
    """The ``(loc, pid)`` that may make a split's second part after the first part moved
    ``pid1`` to ``to1`` with bumps ``b1``: the colours moved may change (seven to partner,
    ``recolour``) and bumped pegs moved; otherwise the same movers less the first peg."""
    if not b1 and not (recolour and to1 >= HOME0):
        return [m for m in movers if m[1] != pid1]
    p2 = list(pegs)
    p2[pid1] = to1
    for q, _qf, qt in b1:
        p2[q] = qt
    if recolour and to1 >= HOME0:
        cols2 = controlled(cfg, seat, p2)
        if cols2 != cols1:
            return _movers(p2, cols2)[0]
    if b1:
        return sorted((p2[pid], pid) for _, pid in movers if pid != pid1 and p2[pid] != START)
    return [m for m in movers if m[1] != pid1]


def _second_on_board(cfg: Cfg, seat: int, pegs: tuple[int, ...], occ: list[int], rm: list[int],
                     hm: list[int], movers: list[Mover], cols1: tuple[int, ...], recolour: bool,
                     total: int, pid1: int, part1: PartT, b1: Bumps, k2: str, rest: int,
                     out: list[Raw]) -> None:
    """Every split of ``total`` starting with ``part1`` (bumps ``b1``), the second part of
    kind ``k2`` and count ``rest`` generated on the board left by the first part: the
    definition itself, with no reuse of the original board's parts."""
    to1 = part1[3]
    movers2 = _second_movers(cfg, seat, pegs, movers, cols1, recolour, pid1, to1, b1)
    o2, r2, h2 = _board_after(pegs, occ, rm, hm, pid1, to1, b1)
    app = out.append
    for loc2, pid2 in movers2:
        if pid2 == pid1:
            continue
        for to2, b2 in _dests(cfg, k2, pid2, loc2, rest, r2, h2, o2):
            app((total, (part1, (k2, pid2, loc2, to2, rest)), (b1, b2)))


def _sevens_one_colour(cfg: Cfg, seat: int, pegs: tuple[int, ...], occ: list[int],
                       rm: list[int], hm: list[int], movers: list[Mover], out: list[Raw],
                       cols1: tuple[int, ...]) -> None:
    """The 7 splits when every mover is of one colour (every rule set but ``team``): the same
    plays in the same order as :func:`_splits`, cheaper for the few pegs of one colour. A
    first part that bumps, or enters or moves in home (which may also hand the rest of the
    turn to a partner, seven to partner), takes :func:`_second_on_board`; any other first
    part only changed two ring holes of the colour, so a second part whose path and landing
    avoid both (and whose landing was free) is the one of the original board."""
    recolour = cfg.seven and cfg.mode == "teams"
    fwdt = cfg.fwd
    R = cfg.R
    app = out.append
    fws = [(loc, pid, _fwd_all(cfg, pid, loc, 6, occ, rm, hm)) for loc, pid in movers]
    deps: dict[int, int] = {}  # pid * 8 + count: the dependence mask of a taken landing
    o2 = occ  # a private copy of the board (occ, rm) once copied, see below
    r2 = rm
    copied = False
    for loc1, pid1, fw1 in fws:
        c1 = pid1 // PEGS
        for a in range(1, 7):
            d1 = fw1[a]
            if not d1:
                continue
            rest = 7 - a
            for part1, b1 in d1:
                to1 = part1[3]
                if b1 or to1 >= HOME0 or loc1 >= HOME0:
                    _second_on_board(cfg, seat, pegs, occ, rm, hm, movers, cols1, recolour, 7,
                                     pid1, part1, b1, "f", rest, out)
                    continue
                T = (1 << loc1) | (1 << to1)
                moved = False
                for loc2, pid2, fw2 in fws:
                    if pid2 == pid1:
                        continue
                    if loc2 >= HOME0:  # a home peg: the first part left the home alone
                        for part2, _b2 in fw2[rest]:
                            app((7, (part1, part2), _NOB2))
                        continue
                    x = loc2 + rest
                    if x >= R:
                        x -= R
                    if occ[x] < 0:
                        dep = fwdt[loc2][rest]
                    else:  # a taken landing: its path and the holes its bump chain reads
                        key = pid2 * 8 + rest
                        dep = deps.get(key, -1)
                        if dep < 0:
                            dep = deps[key] = fwdt[loc2][rest] | _chain(cfg, pid2, x, occ)
                    if not dep & T:
                        for part2, b2 in fw2[rest]:
                            app((7, (part1, part2), ((), b2) if b2 else _NOB2))
                        continue
                    if not moved:
                        # the board after the first part (ring to ring, no bump): a private
                        # copy, moved in place and put back below
                        if not copied:
                            o2 = occ[:]
                            r2 = rm[:]
                            copied = True
                        o2[loc1] = -1
                        o2[to1] = pid1
                        r2[c1] ^= T
                        moved = True
                    for to2, b2 in _dests(cfg, "f", pid2, loc2, rest, r2, hm, o2):
                        app((7, (part1, ("f", pid2, loc2, to2, rest)), ((), b2)))
                if moved:
                    o2[loc1] = pid1
                    o2[to1] = -1
                    r2[c1] ^= T


def _chain(cfg: Cfg, pid: int, x: int, occ: list[int]) -> int:
    """The mask of the ring holes whose occupant :func:`_land` reads when peg ``pid`` lands
    on ``x``: its result stays the same while none of them changes."""
    m = 1 << x
    q = occ[x]
    if q < 0 or q == pid:
        return m
    c = pid // PEGS
    cq = q // PEGS
    team_of = cfg.team_of
    if cq == c or team_of[cq] != team_of[c]:
        return m
    inspot = cfg.inspot
    t = inspot[cq]
    visited = {x}
    while t not in visited:
        m |= 1 << t
        r = occ[t]
        if r < 0 or r == pid:
            break
        cr = r // PEGS
        if cr == cq or team_of[cr] != team_of[cq]:
            break
        visited.add(t)
        cq = cr
        t = inspot[cr]
    return m


def _splits(cfg: Cfg, seat: int, pegs: tuple[int, ...], occ: list[int], rm: list[int],
            hm: list[int], movers: list[Mover], total: int, kinds: tuple[tuple[str, str], ...],
            out: list[Any], cols1: tuple[int, ...]) -> tuple[bool, int]:
    """Every split of ``total`` (7: forward+forward; team 9: forward+backward either order).
    The plays of a first part that bumped nothing are appended as one :class:`_Seconds` run
    (no play tuple built until read); returns whether any run was appended and the
    number of plays in the runs less the number of runs.

    The second part is generated on the board left by the first. To save work, a second part
    computed on the original board is reused when the first part touched none of the holes it
    depends on (its path, its landing and the holes a bump chain from there reads, and its
    colour's home); the board after the first part is only built when some second part needs
    it."""
    team = cfg.rules == TEAM
    recolour = not team and cfg.seven and cfg.mode == "teams"
    fwdt = cfg.fwd
    bwdt = cfg.bwd
    app = out.append
    R = cfg.R
    # Every single part on the original board, per kind, built in one pass:
    #   rows[kind][pid][amount] = [(part, bumps)] (for the first part);
    #   flat[kind][amount] = [(pid, colour, dep, land, loc, [(part, bumps)])], one entry per
    #   mover in mover order (index ``i`` of ``movers``), and ents[kind][pid][amount] the
    #   same entries by peg (for a second part after a first part that bumped or changed
    #   the colours moved).
    # ``land`` is the mask of the holes the part's landing depends on (the landing, and when
    # it is taken every hole the bump chain reads, :func:`_chain`), ``dep`` that plus its
    # path (which must hold no peg of its colour) and bit ``R + colour`` (its home). A first
    # part that moved a peg of colour c1 without a bump and touched ring holes and home
    # ``T`` (same encoding) leaves an entry as it was on the original board unless ``dep &
    # T`` (an entry of colour c1) or ``land & T`` (another colour: its path and home did not
    # change). Those entries are found without a walk over every entry: the ones of colour
    # c1 (``bycol``), the mover whose landing is the first part's landing (through ``occ``:
    # the free landing ``to1`` of a mover ``rest`` holes before or after), and the entries
    # of a taken landing (``chained[kind][amount]``, few).
    # base[kind][amount]: the number of parts of the entries of flat[kind][amount].
    # A backward part of a peg in home never exists: its entries are empty and depend on
    # nothing.
    amounts = range(1, total)
    top = total - 1
    inspot = cfg.inspot
    made = False
    extra = 0
    rows: dict[str, dict[int, list[list[Cand]]]] = {}
    flat: dict[str, list[list[Entry]]] = {}
    chained: dict[str, list[list[tuple[int, int]]]] = {}
    basen: dict[str, list[int]] = {}
    midx: dict[int, int] = {}
    bycol: dict[int, list[int]] = {}
    for i, (_loc, pid) in enumerate(movers):
        midx[pid] = i
        c = pid // PEGS
        lst = bycol.get(c)
        if lst is None:
            bycol[c] = [i]
        else:
            lst.append(i)
    for kind in {k for pair in kinds for k in pair}:
        tab = rows[kind] = {}
        fl: list[list[Entry]] = [[] for _ in range(total)]
        ch: list[list[tuple[int, int]]] = [[] for _ in range(total)]
        base = [0] * total
        flat[kind] = fl
        chained[kind] = ch
        basen[kind] = base
        fw_kind = kind == "f"
        pm = fwdt if fw_kind else bwdt
        for i, (loc, pid) in enumerate(movers):
            c = pid // PEGS
            cbit = 1 << (R + c)
            if loc >= HOME0:
                if not fw_kind:
                    tab[pid] = [[]] * total
                    e0: Entry = (pid, c, 0, 0, loc, [])
                    for a in amounts:
                        fl[a].append(e0)
                    continue
                fwh = _fwd_all(cfg, pid, loc, total - 1, occ, rm, hm)
                tab[pid] = fwh
                for a in amounts:
                    parts = fwh[a]
                    fl[a].append((pid, c, cbit, 0, loc, parts))
                    if parts:
                        base[a] += len(parts)
                continue
            # a ring peg: its parts for every count (_fwd_all / _bwd_all) and its entries,
            # in one walk of its path
            pml = pm[loc]
            own = rm[c]
            fw: list[list[Cand]] = [[] for _ in range(total)]
            tab[pid] = fw
            ring_ok = True
            if fw_kind:
                hmc = hm[c]
                d = inspot[c] - loc
                if d < 0:
                    d += R
                home_ok = d < top and not pml[d] & own
            else:
                home_ok = False
            for a in amounts:
                cands = fw[a]
                if fw_kind:
                    x = loc + a
                    if x >= R:
                        x -= R
                else:
                    x = loc - a
                    if x < 0:
                        x += R
                if occ[x] < 0:
                    land = 1 << x
                    if ring_ok:
                        cands.append(((kind, pid, loc, x, a), ()))
                else:
                    land = _chain(cfg, pid, x, occ)
                    ch[a].append((i, land))
                    if ring_ok:
                        if (own >> x) & 1:
                            ring_ok = False  # an own peg blocks this count and every longer
                        else:
                            b = _land(cfg, pid, x, occ)
                            if b is not None:
                                cands.append(((kind, pid, loc, x, a), b))
                if home_ok and a > d:
                    k = a - d
                    if k > 5 or (hmc >> (k - 1)) & 1:
                        home_ok = False
                    else:
                        cands.append((("f", pid, loc, HOME0 + k, a), ()))
                fl[a].append((pid, c, pml[a] | cbit | land, land, loc, cands))
                if cands:
                    base[a] += len(cands)

    o2: list[int] | None = None  # a private copy of the board (occ, rm, hm), see below
    r2: list[int] = rm
    h2: list[int] = hm
    for k1, k2 in kinds:
        tab1 = rows[k1]
        flat2 = flat[k2]
        chained2 = chained[k2]
        base2 = basen[k2]
        fw2 = k2 == "f"
        for loc1, pid1 in movers:
            c1 = pid1 // PEGS
            row1 = tab1[pid1]
            same = bycol[c1]
            bit1 = 1 << midx[pid1]
            for a in amounts:
                d1 = row1[a]
                if not d1:
                    continue
                rest = total - a
                for part1, b1 in d1:
                    to1 = part1[3]
                    home_c = c1 if (to1 >= HOME0 or loc1 >= HOME0) else -1
                    if not b1 and not (recolour and to1 >= HOME0):
                        # the common case: nothing bumped, the same pegs move second
                        T = 0 if home_c < 0 else 1 << (R + home_c)
                        if 0 <= loc1 < HOME0:
                            T |= 1 << loc1
                        ents_r = flat2[rest]
                        skip = 0
                        if to1 < HOME0:
                            T |= 1 << to1
                            # the mover whose landing is to1 (free on the original board)
                            y = to1 - rest if fw2 else to1 + rest
                            if y < 0:
                                y += R
                            elif y >= R:
                                y -= R
                            q = occ[y]
                            if q >= 0:
                                j = midx.get(q)
                                if j is not None:
                                    skip = 1 << j
                        for j in same:
                            if ents_r[j][2] & T:
                                skip |= 1 << j
                        for j, m in chained2[rest]:
                            if m & T:
                                skip |= 1 << j
                        skip &= ~bit1
                        n = base2[rest]
                        repl: dict[int, list[Cand]] | None = None
                        if skip:
                            # the board after the first part: the private copy, moved
                            # (no bump: the first peg leaves loc1 and lands on to1), and
                            # put back after
                            if o2 is None:
                                o2 = occ[:]
                                r2 = rm[:]
                                h2 = hm[:]
                            rm0 = r2[c1]
                            hm0 = h2[c1]
                            if loc1 >= HOME0:
                                h2[c1] &= ~(1 << (loc1 - HOME0 - 1))
                            else:
                                o2[loc1] = -1
                                r2[c1] &= ~(1 << loc1)
                            if to1 >= HOME0:
                                h2[c1] |= 1 << (to1 - HOME0 - 1)
                            else:
                                o2[to1] = pid1
                                r2[c1] |= 1 << to1
                            m = skip
                            while m:
                                low = m & -m
                                j = low.bit_length() - 1
                                m ^= low
                                pid2, _c2, _dep, _land2, loc2, parts2 = ents_r[j]
                                n -= len(parts2)
                                seg = [((k2, pid2, loc2, to2, rest), b2)
                                       for to2, b2 in _dests(cfg, k2, pid2, loc2, rest,
                                                             r2, h2, o2)]
                                if seg:
                                    if repl is None:
                                        repl = {j: seg}
                                    else:
                                        repl[j] = seg
                                    n += len(seg)
                            if loc1 < HOME0:
                                o2[loc1] = pid1
                            if to1 < HOME0:
                                o2[to1] = -1
                            r2[c1] = rm0
                            h2[c1] = hm0
                        n -= len(ents_r[midx[pid1]][5])
                        if n:
                            app(_new_seconds((n, total, part1, ents_r, skip | bit1, repl)))
                            made = True
                            extra += n - 1
                        continue
                    T = _touched(cfg, loc1, to1, b1)
                    movers2 = _second_movers(cfg, seat, pegs, movers, cols1, recolour, pid1,
                                             to1, b1)
                    board2 = None
                    bsegs: list[list[Cand]] = []
                    nb = 0
                    for loc2, pid2 in movers2:
                        if pid2 == pid1:
                            continue
                        j = midx.get(pid2)
                        if j is not None and pegs[pid2] == loc2 and pid2 // PEGS != home_c:
                            e2 = flat2[rest][j]
                            if not e2[2] & T:
                                # untouched path and landing: as on the original board
                                if e2[5]:
                                    bsegs.append(e2[5])
                                    nb += len(e2[5])
                                continue
                        if board2 is None:
                            board2 = _board_after(pegs, occ, rm, hm, pid1, to1, b1)
                        seg = [((k2, pid2, loc2, to2, rest), b2)
                               for to2, b2 in _dests(cfg, k2, pid2, loc2, rest, board2[1],
                                                     board2[2], board2[0])]
                        if seg:
                            bsegs.append(seg)
                            nb += len(seg)
                    if nb:
                        app(_new_bumped((nb, total, part1, b1, bsegs)))
                        made = True
                        extra += nb - 1
    return made, extra


def _gen_tees(st: TrackState, want_all: bool = False, lazy: bool = False) -> Any:
    """Legal plays for tees (raw), or with ``want_all`` (normal plays, last-resort plays);
    ``lazy``: a :class:`LegalList` that keeps the Jack trades as factors."""
    cfg = st.cfg
    seat = st.turn
    pegs = st.pegs
    b = st._board
    if b is None:
        b = st._board = _boards(cfg, pegs)
    occ, rm, hm = b
    # the colour moved (controlled(), inline): the seat's own, or once it is done (its home
    # mask full) a partner's
    c = seat
    if hm[seat] == _FULL_HOME:
        c = -1
        for p in cfg.partners[seat]:
            if hm[p] != _FULL_HOME:
                c = p
                break
        if c < 0:
            return ([], []) if want_all else (LegalList([]) if lazy else [])
    R = cfg.R
    normal: list[Raw] = []
    last: list[Raw] = []
    app = normal.append
    team_of = cfg.team_of
    tc = team_of[c]
    blk = 0
    for x in cfg.teamcols[c]:
        blk |= rm[x]
    own = rm[c]
    # movers (loc, pid) sorted, and the first peg in start (_movers, inline for one colour)
    base = c * PEGS
    movers = []
    start = -1
    for pid in range(base, base + PEGS):
        loc = pegs[pid]
        if loc == START:
            if start < 0:
                start = pid
        elif loc < HOME0 + 5:
            movers.append((loc, pid))
    movers.sort()
    ins = cfg.inspot[c]
    cout = cfg.comeout[c]
    fwdt = cfg.fwd
    bwdt = cfg.bwd
    hmc = hm[c]
    nob = _NOB
    runs = False  # some Jack trades are kept as a _Trades run
    extra = 0  # its plays less one
    # the hand's ranks, each once, ascending (a hand is sorted: one pass, else a sort)
    ranks: list[int] = []
    prev = -1
    for card in st.hands[seat]:
        r = card >> 2
        if r > prev:
            ranks.append(r)
            prev = r
        elif r < prev:
            ranks = sorted({card >> 2 for card in st.hands[seat]})
            break
    for r in ranks:
        if r == 1 or r == 13:
            if start >= 0 and not (own >> cout) & 1:
                q = occ[cout]
                if q < 0:
                    app((r, (("o", start, START, cout, 0),), nob))
                elif q // PEGS != c:
                    part = ("o", start, START, cout, 0)
                    if team_of[q // PEGS] == tc:
                        last.append((r, (part,), ((_B((q, cout, START)),),), True))
                    else:
                        app((r, (part,), ((_B((q, cout, START)),),)))
            if r == 13:
                continue
        if r == 11:
            ring = [m for m in movers if m[0] < HOME0]
            if ring:
                # every other colour's ring peg (x, peg), by hole: off the ring masks
                om = 0
                for v in rm:
                    om |= v
                om &= ~own
                others = []
                while om:
                    lb = om & -om
                    x = lb.bit_length() - 1
                    others.append((x, occ[x]))
                    om ^= lb
                if others:
                    runs = True
                    tr = _Trades(ring, others)
                    extra = tr.n - 1
                    normal.append(tr)  # type: ignore[arg-type]
            continue
        if r == 3:
            for loc, pid in movers:
                if loc < HOME0:
                    if (loc - cout) % R < 3 or bwdt[loc][2] & blk:
                        continue
                    x = (loc - 3) % R
                else:
                    k = loc - HOME0
                    if (hmc >> k) == (_FULL_HOME >> k):
                        continue  # snug
                    if k >= 4:
                        if not (hmc >> (k - 4)) & 7:
                            app((3, (("b", pid, loc, loc - 3, 3),), nob))
                        continue
                    if hmc & ((1 << (k - 1)) - 1):
                        continue
                    x = (ins - (3 - k)) % R
                    if bwdt[(ins + 1) % R][3 - k] & blk & ~(1 << x):
                        continue
                q = occ[x]
                if q < 0:
                    app((3, (("b", pid, loc, x, 3),), nob))
                elif q // PEGS != c:
                    part = ("b", pid, loc, x, 3)
                    if team_of[q // PEGS] == tc:
                        last.append((3, (part,), ((_B((q, x, START)),),), True))
                    else:
                        app((3, (part,), ((_B((q, x, START)),),)))
            continue
        n = r  # 1 is one forward, every other rank its own count
        for loc, pid in movers:
            if loc >= HOME0:
                k = loc - HOME0
                if k + n <= 5 and not (hmc >> k) & ((1 << n) - 1):
                    app((r, (("f", pid, loc, loc + n, n),), nob))
                continue
            d = ins - loc
            if d < 0:
                d += R
            if n > d:
                h = n - d
                if h <= 5 and not fwdt[loc][d] & blk and not hmc & ((1 << h) - 1):
                    app((r, (("f", pid, loc, HOME0 + h, n),), nob))
                continue
            if fwdt[loc][n - 1] & blk:
                continue
            x = loc + n
            if x >= R:
                x -= R
            q = occ[x]
            if q < 0:
                app((r, (("f", pid, loc, x, n),), nob))
            elif q // PEGS != c:
                part = ("f", pid, loc, x, n)
                if team_of[q // PEGS] == tc:
                    last.append((r, (part,), ((_B((q, x, START)),),), True))
                else:
                    app((r, (part,), ((_B((q, x, START)),),)))
    if want_all:
        return _plays(_flat(normal)), _plays(last)
    if lazy:  # LegalList(...), inline (no __init__ call)
        lg = _new_obj(LegalList)
        if not normal:
            lg._items = None
            lg._raw = last
            lg._n = len(last)
        elif runs:
            lg._items = normal
            lg._raw = None
            lg._n = len(normal) + extra
        else:
            lg._items = None
            lg._raw = normal
            lg._n = len(normal)
        lg._made = None
        return lg
    return _flat(normal) if runs else (normal if normal else last)


def gen_legal(st: TrackState) -> Sequence[Play]:
    """Every legal play of the seat to move (cached on the state): a list, or with the C core
    a read-only sequence that acts as one (len, index, slices, iteration, ``in``, ``==``)."""
    lg = st._legal
    if lg is None:
        if FAST:
            lg = _fast.legal(st)
        elif st.turn < 0:
            lg = []
        elif st.cfg.rules == TEES:
            lg = _gen_tees(st, lazy=True)
        else:
            lg = _gen_ct(st, lazy=True)
        st._legal = lg
    return lg


def count_legal(st: TrackState) -> int:
    """How many legal plays the seat to move has (no play object is made)."""
    return len(gen_legal(st))


def has_legal(st: TrackState) -> bool:
    """Whether the seat to move has any legal play (the tees fold check)."""
    return len(gen_legal(st)) > 0


def first_legal(st: TrackState) -> Play | None:
    """The first legal play (only it is made a :class:`Play`), None when there is none."""
    lg = gen_legal(st)
    return lg[0] if len(lg) else None


def nth_legal(st: TrackState, i: int) -> Play:
    """Legal play ``i`` (``0 <= i < count_legal(st)``): a random driver's pick, the others
    left unmade. Raises :class:`IndexError` for any other ``i``."""
    lg = gen_legal(st)
    if type(i) is not int or not 0 <= i < len(lg):
        raise IndexError(f"legal play {i!r} of {len(lg)}")
    return lg[i]


def iter_legal(st: TrackState) -> Iterator[Play]:
    """The legal plays one by one, each made when reached (a caller that stops early makes
    no more)."""
    lg = gen_legal(st)
    for i in range(len(lg)):
        yield lg[i]


def find_legal(st: TrackState, token: str) -> Play | None:
    """The legal play whose token is ``token`` (exact, as ``str(play)`` gives), else None;
    found by token, so no other play object is made."""
    lg = gen_legal(st)
    if isinstance(lg, list):
        for p in lg:
            if p.token == token:
                return cast(Play, p)
        return None
    try:
        i = cast(_HasTokens, lg).tokens().index(token)
    except ValueError:
        return None
    return lg[i]


def engine_kind() -> str:
    """Which engine serves the legal plays and the quiet applies now: ``"C core"`` (the
    optional ``_fast.c`` is built and on) or ``"Python"`` (not built, stale, or switched off
    with :func:`set_fast`), for the window's Settings/About line."""
    return "C core" if FAST else "Python"


def legal_tokens(st: TrackState) -> list[str]:
    """The tokens of :func:`gen_legal`, in order (the C core's list writes them without
    building a play object)."""
    lg = gen_legal(st)
    if isinstance(lg, list):
        return [p.token for p in lg]
    return cast(_HasTokens, lg).tokens()


# --------------------------------------------------------------------------------------------
# Apply


def _path(cfg: Cfg, c: int, kind: str, frm: int, to: int, n: int) -> list[int | str]:
    R = cfg.R
    if kind == "f":
        if frm >= HOME0:
            return [f"h{k}" for k in range(frm - HOME0 + 1, to - HOME0 + 1)]
        if to >= HOME0:
            d = (cfg.inspot[c] - frm) % R
            return [(frm + i) % R for i in range(1, d + 1)] + [
                f"h{k}" for k in range(1, to - HOME0 + 1)]
        return [(frm + i) % R for i in range(1, n + 1)]
    if kind == "b":
        if frm >= HOME0:
            out: list[int | str] = []
            k = frm - HOME0
            steps = n
            while steps and k > 1:
                k -= 1
                steps -= 1
                out.append(f"h{k}")
            h = cfg.inspot[c]
            while steps:
                out.append(h)
                h = (h - 1) % R
                steps -= 1
            return out
        return [(frm - i) % R for i in range(1, n + 1)]
    return [to]


def _part_events(cfg: Cfg, part: Part, bumps: Bumps, events: list[Event]) -> None:
    kind, pid, frm, to, n = part
    c, i = divmod(pid, PEGS)
    if kind == "t":
        oc, oi = divmod(n, PEGS)
        events.append({"type": "trade", "colour": c, "peg": i, "from": frm, "to": to,
                       "other_colour": oc, "other_peg": oi})
        return
    if kind == "o":
        events.append({"type": "come_out", "colour": c, "peg": i, "from": "s", "to": to,
                       "path": [to]})
    else:
        events.append({"type": "move", "colour": c, "peg": i, "from": loc_event(frm),
                       "to": loc_event(to), "steps": n if kind != "j" else 0,
                       "backward": kind == "b", "jump": kind == "j",
                       "path": _path(cfg, c, kind, frm, to, n)})
        if to >= HOME0 and frm < HOME0:
            events.append({"type": "home", "colour": c, "peg": i, "hole": to - HOME0})
    for q, qf, qt in bumps:
        qc, qi = divmod(q, PEGS)
        events.append({"type": "bump", "colour": qc, "peg": qi, "from": qf,
                       "to": loc_event(qt), "by": c})


def _take_card(hand: tuple[int, ...], r: int) -> tuple[int, tuple[int, ...]]:
    for i, card in enumerate(hand):
        if card >> 2 == r:
            return card, hand[:i] + hand[i + 1:]
    raise RulesError(f"no card of rank {r} in hand")  # unreachable after check()


def _insert(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = bisect_right(hand, card)
    return (*hand[:i], card, *hand[i:])


_M64 = (1 << 64) - 1
_LIMITS = tuple((1 << 64) - ((1 << 64) % m) if m else 0 for m in range(256))


def shuffle(items: list[int], state: int) -> int:
    """:func:`game.rules.cards.shuffle` (Fisher-Yates, one :func:`cards.below` draw per
    step), the same steps and results, written out in one function (no call per step: the
    deals and reshuffles are on the quiet apply's path); ``test_track_helpers`` checks it
    against the original."""
    n = len(items)
    if n > len(_LIMITS):
        from game.rules.cards import shuffle as slow

        return slow(items, state)
    limits = _LIMITS
    for i in range(n - 1, 0, -1):
        m = i + 1
        limit = limits[m]
        while True:
            state = (state + GOLDEN) & _M64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
            z ^= z >> 31
            if z < limit:
                break
        j = z % m
        items[i], items[j] = items[j], items[i]
    return state


def _draw(s: TrackState, seat: int, events: list[Event] | None) -> None:
    """``seat`` draws one card (reshuffling the discards into a new pile when needed)."""
    if not s.pile:
        cards = sorted(s.discards)
        s.rng = shuffle(cards, s.rng)
        s.pile = tuple(cards)
        s.discards = ()
        if events is not None:
            events.append({"type": "reshuffle", "count": len(cards)})
        if not s.pile:
            return
    card = s.pile[-1]
    s.pile = s.pile[:-1]
    hands = list(s.hands)
    hands[seat] = _insert(hands[seat], card)
    s.hands = tuple(hands)
    if events is not None:
        events.append({"type": "draw", "seat": seat, "card": card, "pile": len(s.pile)})


def _tees_deal(s: TrackState, events: list[Event] | None) -> None:
    cfg = s.cfg
    n = cfg.n
    sched = TEES_ROUNDS[n]
    if s.round >= len(sched) or len(s.pile) < sched[s.round] * n:
        # the deck is used up (a read position may also hold too few cards for the round)
        s.dealer = (s.dealer + 1) % n
        cards = sorted(s.discards + s.pile)
        s.rng = shuffle(cards, s.rng)
        s.pile = tuple(cards)
        s.discards = ()
        s.round = 0
        if events is not None:
            events.append({"type": "reshuffle", "count": len(cards), "dealer": s.dealer})
    k = sched[s.round]
    pile_t = s.pile
    top = len(pile_t) - k * n
    if top >= 0:
        # k rounds of one card each from the top, clockwise from the dealer's left, as slices:
        # the seat j places after the dealer gets cards j-1, j-1+n, ... counted from the top
        dealt = pile_t[top:][::-1]
        s.pile = pile_t[:top]
        hl = list(s.hands)
        dealer = s.dealer
        for j in range(1, n + 1):
            t = (dealer + j) % n
            hl[t] = tuple(sorted(hl[t] + dealt[j - 1::n]))
        s.hands = tuple(hl)
    else:  # too few cards even after the reshuffle (a read position): as written, it fails
        pile = list(pile_t)
        hands = [list(h) for h in s.hands]
        for _ in range(k):
            for j in range(1, n + 1):
                hands[(s.dealer + j) % n].append(pile.pop())
        s.pile = tuple(pile)
        s.hands = tuple(tuple(sorted(h)) for h in hands)
    s.round += 1
    s.idle += 1
    if s.idle > 1000:
        raise RulesError("no seat has been able to play for 1000 deals: the game is stuck")
    if events is not None:
        events.append({"type": "deal", "dealer": s.dealer, "round": s.round,
                       "counts": [len(h) for h in s.hands],
                       "hands": [list(h) for h in s.hands]})


def _tees_continue(s: TrackState, after: int, events: list[Event] | None) -> None:
    """Find the next seat (clockwise after ``after``) that can play, dealing and folding."""
    if FAST and events is None:
        _fast.tees_continue(s, after)
        return
    n = s.cfg.n
    while True:
        seat = -1
        for j in range(1, n + 1):
            t = (after + j) % n
            if s.hands[t]:
                seat = t
                break
        if seat < 0:
            _tees_deal(s, events)
            after = s.dealer
            continue
        s.turn = seat
        lg = s._legal = _gen_tees(s, lazy=True)
        if lg._n:
            if events is not None:
                events.append({"type": "turn", "seat": seat})
            return
        cards = s.hands[seat]
        hands = list(s.hands)
        hands[seat] = ()
        s.hands = tuple(hands)
        s.discards = s.discards + cards
        s._legal = None
        if events is not None:
            events.append({"type": "fold", "seat": seat, "cards": list(cards)})
        after = seat


def new_game(config: Mapping[str, Any], seed: Any, events: list[Event] | None = None) -> TrackState:
    """A fresh game; the opening deal (and tees folds, classic's first draw) are appended to
    ``events`` when a list is given."""
    cfg = make_cfg(config)
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise ConfigError(f"a seed must be an int or a str, not {seed!r}")
    n = cfg.n
    deck = sorted(cfg.deck)
    rng = shuffle(deck, seed_state(seed))
    s = TrackState(cfg=cfg, seed=seed, pegs=(START,) * (PEGS * n), hands=((),) * n,
                   pile=tuple(deck), discards=(), rng=rng, turn=-1, dealer=n - 1, round=0,
                   nplays=0, winner=-1, idle=0)
    if cfg.rules == TEES:
        _tees_continue(s, s.dealer, events)
        return s
    pile = list(s.pile)
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(DEAL_CLASSIC):
        for j in range(n):
            hands[j].append(pile.pop())
    s.pile = tuple(pile)
    s.hands = tuple(tuple(sorted(h)) for h in hands)
    s.turn = 0
    if events is not None:
        events.append({"type": "deal", "dealer": s.dealer, "round": 1,
                       "counts": [len(h) for h in s.hands], "hands": [list(h) for h in s.hands]})
        events.append({"type": "turn", "seat": 0})
    if cfg.rules == CLASSIC:
        _draw(s, 0, events)
    return s


def apply_play(st: TrackState, seat: int, play: Play, events: bool = True
               ) -> tuple[TrackState, list[dict[str, Any]]]:
    """Apply a play already known to be legal (from :func:`gen_legal`). Never mutates ``st``."""
    if not events:
        if FAST:
            return _fast.apply(st, seat, play), []
        return _apply_quiet(st, seat, play), []
    cfg = st.cfg
    ev: list[Event] | None = [] if events else None
    s = st.copy()
    card, hand = _take_card(st.hands[seat], play.rank)
    hands = list(st.hands)
    hands[seat] = hand
    s.hands = tuple(hands)
    s.discards = (*st.discards, card)
    s.nplays = st.nplays + 1
    s.idle = 0
    parts = play.parts
    if ev is not None:
        ev.append({"type": "play", "seat": seat, "card": card, "token": play.token,
                   "discard": parts[0][0] == "x"})
        if parts[0][0] == "x":
            ev.append({"type": "discard", "seat": seat, "card": card})
    if parts[0][0] == "x":
        s._board = st._board
    else:
        pegs, occ, rm, hm, homed = _moved(st, play)
        if ev is not None:
            for part, bumps in zip(parts, play.bumps, strict=True):
                _part_events(cfg, part, bumps, ev)
        s.pegs = tuple(pegs)
        s._board = (occ, rm, hm)
        team = cfg.team_of[seat]
        if homed and all(done(pegs, c) for c in cfg.teams[team]):
            s.winner = team
            s.turn = -1
            if ev is not None:
                ev.append(game_over_event(s))
            return s, ev if ev is not None else []
    n_seats = cfg.n
    if cfg.rules == TEES:
        _tees_continue(s, seat, ev)
    elif cfg.rules == CLASSIC:
        nxt = (seat + 1) % n_seats
        s.turn = nxt
        if ev is not None:
            ev.append({"type": "turn", "seat": nxt})
        _draw(s, nxt, ev)
    else:
        _draw(s, seat, ev)
        nxt = (seat + 1) % n_seats
        s.turn = nxt
        if ev is not None:
            ev.append({"type": "turn", "seat": nxt})
    return s, ev if ev is not None else []


def _apply_quiet(st: TrackState, seat: int, play: Play) -> TrackState:
    """:func:`apply_play` without events on the Python engine: the same steps, no event
    branches (the simulations' path); a one-part play without bumps moves inline, and the
    classic/team draw from a pile that is not empty is merged into the one rebuild of the
    hands."""
    cfg = st.cfg
    hands = st.hands
    hand = hands[seat]
    r = play.rank
    i = 0
    for card in hand:
        if card >> 2 == r:
            break
        i += 1
    else:
        raise RulesError(f"no card of rank {r} in hand")
    # the new state, every field set here (not a copy whose fields are then written again):
    # the ones a play leaves, then the ones it changes, below; _FIELDS_SET lists them and a
    # test checks it against the dataclass
    s = _new_obj(TrackState)
    s.cfg = cfg
    s.seed = st.seed
    s.rng = st.rng
    s.dealer = st.dealer
    s.round = st.round
    s.winner = st.winner
    s.pile = st.pile
    s.turn = st.turn
    s._legal = None
    hl = list(hands)
    hl[seat] = hand[:i] + hand[i + 1:]
    s.discards = st.discards + (card,)  # noqa: RUF005 (one copy, not a list and a copy)
    s.nplays = st.nplays + 1
    s.idle = 0
    parts = _get_parts(play)
    part = parts[0]
    kind = part[0]
    if kind == "x":
        s.pegs = st.pegs
        s._board = st._board
    else:
        ob = st._board
        if ob is None:
            ob = board(st)
        pegs = list(st.pegs)
        occ = ob[0][:]
        rm = ob[1][:]
        hm = ob[2][:]
        bumps = play.bumps
        if kind != "t" and not bumps[0] and len(parts) == 1:
            # one part, no bump (most plays): _move_parts, inline
            pid = part[1]
            frm = part[2]
            to = part[3]
            c = pid // PEGS
            pegs[pid] = to
            if frm >= HOME0:
                hm[c] &= ~(1 << (frm - HOME0 - 1))
            elif frm >= 0:
                occ[frm] = -1
                rm[c] &= ~(1 << frm)
            if to >= HOME0:
                hm[c] |= 1 << (to - HOME0 - 1)
                homed = True
            else:
                occ[to] = pid
                rm[c] |= 1 << to
                homed = False
        else:
            homed = _move_parts(parts, bumps, pegs, occ, rm, hm)
        s.pegs = tuple(pegs)
        s._board = (occ, rm, hm)
        if homed:
            team = cfg.team_of[seat]
            if all(min(pegs[c * PEGS:c * PEGS + PEGS]) >= HOME0 for c in cfg.teams[team]):
                s.hands = tuple(hl)
                s.winner = team
                s.turn = -1
                return s
    rules = cfg.rules
    if rules == TEES:
        s.hands = tuple(hl)
        _tees_continue(s, seat, None)
        return s
    nxt = seat + 1
    if nxt == cfg.n:
        nxt = 0
    drawer = nxt if rules == CLASSIC else seat
    pile = st.pile
    if pile:
        # _draw, inline: the top card into the drawer's sorted hand
        card = pile[-1]
        s.pile = pile[:-1]
        h = hl[drawer]
        j = bisect_right(h, card)
        hl[drawer] = (*h[:j], card, *h[j:])
        s.hands = tuple(hl)
    else:
        s.hands = tuple(hl)
        _draw(s, drawer, None)
    s.turn = nxt
    return s


#: The fields :func:`_apply_quiet` sets on the state it makes (every field of TrackState;
#: ``test_track_lazy`` checks it against the dataclass).
_FIELDS_SET = ("cfg", "seed", "rng", "dealer", "round", "winner", "pile", "turn", "_legal",
               "discards", "nplays", "idle", "pegs", "_board", "hands")


def outcome(s: TrackState) -> dict[str, Any] | None:
    if s.winner < 0:
        return None
    out: dict[str, Any] = {"winners": list(s.cfg.teams[s.winner]), "team": s.winner}
    if s.cfg.mode == "solo":
        out["turns"] = s.nplays
    return out


def game_over_event(s: TrackState) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "game_over"}
    ev.update(outcome(s) or {})
    return ev


# --------------------------------------------------------------------------------------------
# The optional C core


def set_fast(on: bool) -> bool:
    """Use the C core (when it is built) for :func:`gen_legal`, ``apply_play(events=False)``
    and the tees deals and folds; ``False`` forces the Python code. Returns the previous
    setting. States keep the legal list they cached under either core."""
    global FAST
    prev = FAST
    FAST = bool(on) and _fast is not None
    return prev


if _fast is not None:
    try:
        _fast.setup(Play, TrackState, RulesError, Part, Bump)
    except (TypeError, AttributeError) as e:  # the classes do not match what the build expects
        FAST_STALE = f"the built C core does not fit this engine ({e}): rebuild it"
        _fast = None
    else:
        FAST = True
