"""The track-game engine: config, state, legal plays, apply (spec ``track.md``).

Design for speed: a peg location is one ``int`` (``START`` = -1, ring hole ``0..R-1``, home
``k`` = ``HOME0 + k``); the pegs of a game are one flat tuple, peg id ``colour * 5 + i``; per
call the generator builds a ring occupancy list and per-colour bitmasks (ring and home) and
checks paths against precomputed path masks, so a move test is a couple of ``&``.

Everything here is pure: no clocks, files or ``random``; shuffles are :func:`cards.shuffle`
(written out here as :func:`shuffle`: the same permutation and generator state, its draws
made at once in lanes of one big int) whose generator state is stored in the game state.

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

The engine is split into modules (every name importable from here, the path other code
uses): :mod:`~game.rules.track.config` (constants, config, the precomputed tables),
:mod:`~game.rules.track.plays` (parts, plays, the raw-play layout, runs, the lazy legal
list), :mod:`~game.rules.track.state` (the state and its board), :mod:`~game.rules.track.moves`
(landings, parts of every count, the 7 and 9 splits), :mod:`~game.rules.track.movegen` (the
two generators) and :mod:`~game.rules.track._core` (loading the C core); this module keeps the
public legal-play API, the applies, the deals and the switch between the engines. It is over
600 lines through its import block and ``__all__``, which re-export every name of those
modules (about 115 lines); the rest (the shuffle and its one-draw path about 85 of them) is
under 600.
"""

from __future__ import annotations

import sys
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

from game.rules.api import ConfigError, RulesError
from game.rules.cards import GOLDEN, seed_state
from game.rules.track import _core
from game.rules.track.board import PEGS
from game.rules.track.config import (
    _CFG_CACHE,
    _CONFIG_KEYS,
    _FULL_HOME,
    CLASSIC,
    COLOURS,
    DEAL_CLASSIC,
    HOME0,
    MODES,
    RANK_CHARS,
    RULE_NAMES,
    START,
    TEAM,
    TEES,
    TEES_ROUNDS,
    Cfg,
    make_cfg,
    normalize_config,
)
from game.rules.track.movegen import (
    _gen_ct,
    _gen_tees,
    _gen_tees_at,
)
from game.rules.track.moves import (
    _bwd_all,
    _chain,
    _dests,
    _fwd_all,
    _fwd_ct,
    _land,
    _movers,
    _second_movers,
    _second_on_board,
    _sevens_one_colour,
    _splits,
    _touched,
)
from game.rules.track.plays import (
    _B,
    _LOW,
    _NOB,
    _NOB2,
    _P,
    _PARTS_SLOT,
    BoardLists,
    Bump,
    Bumps,
    Cand,
    Entry,
    Event,
    LegalList,
    MInfo,
    Mover,
    Part,
    PartT,
    Play,
    Raw,
    _Bumped,
    _flat,
    _get_parts,
    _HasTokens,
    _mk,
    _new_bumped,
    _new_obj,
    _new_seconds,
    _new_trades,
    _part_text,
    _pick,
    _plays,
    _RawPlay,
    _Seconds,
    _set_parts,
    _Trades,
    loc_event,
    loc_text,
    raw_token,
)
from game.rules.track.state import (
    _STATE,
    EMPTY,
    TrackState,
    _board_after,
    _boards,
    _copy_state,
    _do,
    _move_parts,
    _moved,
    board,
    controlled,
    done,
)

#: Every name of the engine's modules, re-exported here (the import path other code uses).
__all__ = [
    "CLASSIC", "COLOURS", "DEAL_CLASSIC", "EMPTY", "FAST", "FAST_STALE", "HOME0", "MODES",
    "RANK_CHARS", "RULE_NAMES", "START", "TEAM", "TEES", "TEES_ROUNDS", "_B", "_CFG_CACHE",
    "_CONFIG_KEYS",
    "_FAST_API", "_FIELDS_SET", "_FULL_HOME", "_LIMITS", "_LOW", "_M64", "_NOB", "_NOB2", "_P",
    "_PARTS_SLOT", "_STATE", "BoardLists", "Bump", "Bumps", "Cand", "Cfg", "Entry", "Event",
    "LegalList", "MInfo", "Mover", "Part", "PartT", "Play", "Raw", "TrackState", "_Bumped",
    "_HasTokens", "_RawPlay", "_Seconds", "_Trades", "_apply_events", "_board_after", "_boards",
    "_bwd_all", "_chain", "_copy_state", "_dests", "_do", "_draw", "_fast", "_flat", "_fwd_all",
    "_fwd_ct", "_gen_ct", "_gen_tees", "_gen_tees_at", "_get_parts", "_insert", "_land",
    "_mk",
    "_move_parts", "_moved", "_movers", "_new_bumped", "_new_obj", "_new_seconds", "_new_trades",
    "_part_events", "_part_text", "_path", "_pick", "_plays", "_second_movers",
    "_second_on_board", "_set_parts", "_sevens_one_colour", "_shuffle_steps", "_splits",
    "_take_card", "_tees_continue", "_tees_deal", "_touched", "apply_play", "board", "controlled",
    "count_legal", "done", "engine_kind", "find_legal", "first_legal", "game_over_event",
    "gen_legal", "has_legal", "iter_legal", "legal_tokens", "loc_event", "loc_text", "make_cfg",
    "new_game", "normalize_config", "nth_legal", "outcome", "raw_token", "set_fast", "shuffle",
]

_FAST_API = _core.API  # the interface version this engine expects of the C core
_fast: Any = _core.fast  # the optional C core; None when not built, stale or not fitting
#: Why a C core that is there is not used (None when it is used, or simply not built).
FAST_STALE: str | None = _core.stale

FAST = False  # True while the C core serves gen_legal / apply_play(events=False)


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
#: [n]: the steps of a Fisher-Yates shuffle of n items, ``(i, i + 1, limit)`` for i from
#: n - 1 down to 1 (the limit of :func:`cards.below`'s rejection for i + 1), made once per n.
_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}
#: [n]: the lanes of :func:`shuffle`'s draws for n items: (ones: a 1 at the foot of every
#: 128-bit lane, one lane per step; the generator's increments, lane t holding (t + 1) *
#: GOLDEN; the mask of every lane's low 64 bits; the lanes' length in bytes).
_LANES: dict[int, tuple[int, int, int, int]] = {}
#: A draw at or above 2^64 - 256 may be rejected by some step (limits are 2^64 - (2^64 % m),
#: m at most 255): its top 7 bytes are all 0xff. :func:`shuffle` looks for 7 such bytes in a
#: row among its draws' bytes (a lane's upper 8 bytes are 0, so they can only be in one
#: draw; a draw with its low 7 bytes so is caught too, harmlessly) and then takes the draws
#: one by one.
_NEAR_BYTES = b"\xff" * 7
_C1 = 0xBF58476D1CE4E5B9
_LITTLE = sys.byteorder == "little"  # the lanes are read back as native 64-bit words
_C2 = 0x94D049BB133111EB


def _steps(n: int) -> tuple[tuple[int, int, int], ...]:
    steps = _STEPS.get(n)
    if steps is None:
        steps = _STEPS[n] = tuple((i, i + 1, _LIMITS[i + 1]) for i in range(n - 1, 0, -1))
    return steps


def shuffle(items: list[int], state: int) -> int:
    """:func:`game.rules.cards.shuffle` (Fisher-Yates, one :func:`cards.below` draw per
    step), the same permutation and final generator state, faster: the steps' splitmix64
    draws are made all at once, each step's in its own 128-bit lane of one big int (the
    generator states ``state + (t + 1) * GOLDEN`` side by side, mixed by the same shifts,
    xors and multiplies with every lane masked to 64 bits between them: a lane's product
    never reaches the next lane), read back as 64-bit words; then the swaps. A draw that some
    step could reject (one in 2^56, :data:`_NEAR_BYTES`) sends the whole shuffle to
    :func:`_shuffle_steps`, the draws one by one. ``test_track_shuffle`` and
    ``test_track_random`` check both against the original."""
    n = len(items)
    if n < 2 or n >= len(_LIMITS) or not _LITTLE:
        return _shuffle_steps(items, state)
    lanes = _LANES.get(n)
    if lanes is None:
        k = n - 1
        ones = sum(1 << (128 * t) for t in range(k))
        lanes = _LANES[n] = (ones, sum((t + 1) << (128 * t) for t in range(k)) * GOLDEN,
                             ones * _M64, 16 * k)
    ones, incs, masks, size = lanes
    x = (state * ones + incs) & masks
    x = ((x ^ (x >> 30)) & masks) * _C1 & masks
    x = ((x ^ (x >> 27)) & masks) * _C2 & masks
    x = (x ^ (x >> 31)) & masks
    raw = x.to_bytes(size, "little")
    if _NEAR_BYTES in raw:
        return _shuffle_steps(items, state)
    draws = memoryview(raw).cast("Q")[::2]
    for (i, m, _limit), z in zip(_steps(n), draws, strict=True):
        j = z % m
        items[i], items[j] = items[j], items[i]
    return (state + (n - 1) * GOLDEN) & _M64


def _shuffle_steps(items: list[int], state: int) -> int:
    """:func:`shuffle` one draw at a time, as :func:`cards.shuffle` does (the rejections
    included)."""
    n = len(items)
    if n >= len(_LIMITS):
        from game.rules.cards import shuffle as slow

        return slow(items, state)
    for i, m, limit in _steps(n):
        state = (state + GOLDEN) & _M64
        z = ((state ^ (state >> 30)) * _C1) & _M64
        z = ((z ^ (z >> 27)) * _C2) & _M64
        z ^= z >> 31
        while z >= limit:  # rejected (a draw in 2^64 / m at most): the next one
            state = (state + GOLDEN) & _M64
            z = ((state ^ (state >> 30)) * _C1) & _M64
            z = ((z ^ (z >> 27)) * _C2) & _M64
            z ^= z >> 31
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
        for j, t in enumerate(cfg.tafter[s.dealer]):  # the seats from the dealer's left
            h = hl[t]
            hl[t] = tuple(sorted(h + dealt[j::n] if h else dealt[j::n]))
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
    tafter = s.cfg.tafter
    while True:
        hands = s.hands
        for seat in tafter[after]:
            if hands[seat]:
                break
        else:
            _tees_deal(s, events)
            after = s.dealer
            continue
        s.turn = seat
        lg = s._legal = _gen_tees(s, lazy=True)
        if lg._n:
            if events is not None:
                events.append({"type": "turn", "seat": seat})
            return
        cards = hands[seat]
        hl = list(hands)
        hl[seat] = ()
        s.hands = tuple(hl)
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
    """Apply a play already known to be legal (from :func:`gen_legal`). Never mutates ``st``.

    With ``events`` the Python code applies it and returns its events (:func:`_apply_events`);
    without, the C core when it is on, else the Python quiet apply written here (the
    simulations' path: the same steps, no event branches; a one-part play without bumps
    moves inline, the classic/team draw from a pile that is not empty is merged into the one
    rebuild of the hands, and the tees search for the next seat starts inline)."""
    if events:
        return _apply_events(st, seat, play)
    if FAST:
        return _fast.apply(st, seat, play), []
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
    hl = list(hands)
    hl[seat] = hand[1:] if i == 0 else hand[:i] + hand[i + 1:]
    s.discards = st.discards + (card,)  # noqa: RUF005 (one copy, not a list and a copy)
    s.nplays = st.nplays + 1
    s.idle = 0
    parts = _get_parts(play)
    part = parts[0]
    kind = part[0]
    if kind == "x":
        s.pegs = st.pegs
        ob = st._board
        if ob is None:
            ob = board(st)
        s._board = ob
        occ, rm, hm = ob
    else:
        ob = st._board
        if ob is None:
            ob = board(st)
        pegs = list(st.pegs)
        occ = ob[0][:]
        rm = ob[1][:]
        hm = ob[2][:]
        bumps = play.bumps
        if kind != "t" and (bumps is _NOB or (not bumps[0] and len(parts) == 1)):
            # one part, no bump (most plays: the generators give them the one _NOB): _move_parts,
            # inline
            pid = part[1]
            frm = part[2]
            to = part[3]
            c = pid // PEGS
            pegs[pid] = to
            if frm >= HOME0:
                hm[c] &= ~(1 << (frm - HOME0 - 1))
            elif frm >= 0:
                occ[frm] = EMPTY[frm]
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
                s._legal = None
                return s, []
    rules = cfg.rules
    if rules == TEES:
        # _tees_continue, inline for one round of the table: the seats after this one in
        # turn, each with cards plays or folds (a fold empties its hand, so a round with no
        # play leaves every hand empty); then the search, which deals
        for nxt in cfg.tafter[seat]:
            cards = hl[nxt]
            if cards:
                s.hands = tuple(hl)
                s.turn = nxt
                lg = s._legal = _gen_tees_at(s, cfg, nxt, occ, rm, hm, True)
                if lg._n:
                    return s, []
                hl[nxt] = ()
                s.discards = s.discards + cards
                seat = nxt  # it folds: the search goes on from it
        s.hands = tuple(hl)
        s._legal = None
        s.turn = -1  # (the search sets it)
        _tees_continue(s, seat, None)
        return s, []
    nxt = seat + 1
    if nxt == cfg.n:
        nxt = 0
    s._legal = None
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
    return s, []


def _apply_events(st: TrackState, seat: int, play: Play, events: bool = True
                  ) -> tuple[TrackState, list[dict[str, Any]]]:
    """:func:`apply_play` with its events (always the Python code)."""
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


#: The fields the quiet :func:`apply_play` sets on the state it makes (every field of TrackState;
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
        FAST_STALE = _core.stale = f"the built C core does not fit this engine ({e}): rebuild it"
        _fast = _core.fast = None
    else:
        FAST = True
