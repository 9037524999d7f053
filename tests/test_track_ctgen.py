"""The classic/team generator of the fifth pass (``movegen._gen_ct``: the ring pegs off the ring
masks in hole order with their gaps, the pegs in home that can move off a table by the home
mask) against the fourth pass's, kept here verbatim as ``_gen_ct_ref``: the same raw plays and
runs in the same order on every position of seeded random games, for the seat to move and for
every other seat's view of the same board (every rule set and seat count, jokers on and off,
seven to partner off), read flat, through the lazy list, and with ``want_all``."""

from __future__ import annotations

from typing import Any

import pytest

from game.rules.cards import JOKER, Rng
from game.rules.track.board import PEGS
from game.rules.track.config import _FULL_HOME, HOME0, START, TEAM, Cfg
from game.rules.track.engine import (
    LegalList,
    TrackState,
    apply_play,
    gen_legal,
    new_game,
    raw_token,
)
from game.rules.track.lazy import (
    _chain_off,
    _hfree,
    _joker_run,
    _new_sevens,
    _offsets,
    _ring_cnt,
    _seven_shape,
    _split_plays,
)
from game.rules.track.movegen import _gen_ct
from game.rules.track.moves import _land, _sevens_one_colour, _splits
from game.rules.track.plays import (
    _LOW,
    _NOB,
    Bumps,
    MInfo,
    Mover,
    PartT,
    _flat,
    _new_obj,
    _plays,
)
from game.rules.track.state import _boards
from tests.track_testing import python_engine


def _gen_ct_ref(st: TrackState, want_all: bool = False, lazy: bool = False) -> Any:
    """``movegen._gen_ct`` as main had it before the fifth pass (``accf6b4``), verbatim: the
    reference. Legal plays for classic and team (raw)."""
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
    # minfo (the old _minfo, inline): per mover (loc, pid, colour, forward path masks or None in
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
    tmovers: list[Mover] | None = None  # the same less the snug home pegs (team splits)
    ranks: list[int] = []
    prev = -1
    for card in st.hands[seat]:
        r = card >> 2
        if r != prev:
            ranks.append(r)
            prev = r
    comeout = cfg.comeout
    normal: list[Any] = []  # raw plays, and runs of splits (_Seconds)
    jk: list[Any] = []  # the joker run (lazy._Jokers), if any
    jn = 0  # its plays
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
            # the sources: the pegs in start (first), then the movers; in team games only
            # the pegs in start while there are any
            if team:
                jr = _joker_run(cfg, starts, [], occ, rm) if starts else _joker_run(
                    cfg, [], minfo, occ, rm)
            else:
                jr = _joker_run(cfg, starts, minfo, occ, rm)
            if jr is not None:
                jk.append(jr)
                jn = jr[0]
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
            if team:
                # the team splits take the movers less the snug home pegs (home k..5 all
                # taken: no part of theirs exists on any board a first part leaves)
                if tmovers is None:
                    tmovers = [(m[0], m[1]) for m in minfo if m[3] is not None or (
                        hm[m[2]] >> (m[0] - HOME0)) != _FULL_HOME >> (m[0] - HOME0)]
                m, e = _splits(cfg, seat, pegs, occ, rm, hm, tmovers, 7, (("f", "f"),),
                               normal, cols)
                runs |= m
                extra += e
            else:
                if movers is None:
                    movers = [(m[0], m[1]) for m in minfo]
                sv = _sevens_run_ref(cfg, seat, pegs, occ, rm, hm, movers, cols)
                if sv is False:  # not decided by the colour's shape: built
                    _sevens_one_colour(cfg, seat, pegs, occ, rm, hm, movers, normal, cols)
                elif sv is not None:
                    app(sv)
                    runs = True
                    extra += sv[0] - 1
        elif r == 9 and team and split_ok:
            if tmovers is None:
                tmovers = [(m[0], m[1]) for m in minfo if m[3] is not None or (
                    hm[m[2]] >> (m[0] - HOME0)) != _FULL_HOME >> (m[0] - HOME0)]
            m, e = _splits(cfg, seat, pegs, occ, rm, hm, tmovers, 9, (("f", "b"), ("b", "f")),
                           normal, cols)
            runs |= m
            extra += e
    if want_all:
        discards = [(r, (("x", -1, 0, 0, 0),), _NOB) for r in ranks]
        return _plays(_flat(normal)), _plays(_flat(jk)), _plays(discards)
    if normal:
        if jk:
            normal.extend(jk)  # one joker run
            runs = True
            extra += jn - 1
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
    if not lazy:
        return _flat(jk)
    return LegalList(jk, True, len(jk) + jn - 1) if jn else LegalList(jk)


_SHAPES_REF: dict[tuple[Any, ...], tuple[int, tuple[tuple[int, int, bool, int], ...]]] = {}


def _sevens_run_ref(cfg: Cfg, seat: int, pegs: tuple[int, ...], occ: list[int], rm: list[int],
                hm: list[int], movers: list[Mover], cols1: tuple[int, ...]) -> Any:
    """``lazy._sevens_run`` as main had it before the fifth pass (the reference; its shapes
    by ``_seven_shape_ref``, its own cache)."""
    c = cols1[0]
    hmc = hm[c]
    recolour = cfg.seven and cfg.mode == "teams"
    R = cfg.R
    ins = cfg.inspot[c]
    fwdt = cfg.fwd
    ring: list[tuple[int, int, int]] = []
    win = 0
    first = -1
    prev = -1
    pd = 0
    for loc, _pid in movers:
        if loc >= HOME0:
            break
        win |= fwdt[loc][6]
        d = ins - loc
        if d < 0:
            d += R
        if prev >= 0:
            g = loc - prev
            ring.append((g if g < 7 else 7, pd, 0))
        else:
            first = loc
        prev = loc
        pd = d if d < 7 else 7
    if prev >= 0:
        g = first - prev + R if len(ring) else 7
        ring.append((g if g < 7 else 7, pd, 0))
    bad = 0
    if win:
        pm = 0
        for p in cfg.partners[c]:
            pm |= rm[p]
        ph = win & pm
        if ph:
            # partners' pegs in reach: each one's bump chain must read no hole a first part
            # may change (the colour's ring holes, the holes in reach) nor one another
            # chain reads (a first part that bumps a partner moves pegs on its chain)
            forbid = rm[c] | win
            seen = 0
            while ph:
                lb = ph & -ph
                x = lb.bit_length() - 1
                ph ^= lb
                ok, mask = _chain_off(cfg, c, x, occ)
                mask &= ~lb
                if mask & (forbid | seen):
                    return False
                seen |= mask
                if not ok:
                    bad |= lb
    if bad:
        ring = [(g, d, _offsets(bad, loc, fwdt[loc], R) if bad & fwdt[loc][6] else 0)
                for (g, d, _b), loc in zip(ring, [m[0] for m in movers], strict=False)]
    key = (tuple(ring), hmc, recolour)
    sh = _SHAPES_REF.get(key)
    if sh is None:
        if len(_SHAPES_REF) > 50000:
            _SHAPES_REF.clear()
        sh = _SHAPES_REF[key] = _seven_shape_ref(key)
    n, fps = sh
    ctx = (cfg, seat, pegs, occ, rm, hm, movers, cols1, recolour)
    if recolour and hmc.bit_count() == 4:
        # a first part that brings the colour home hands the rest to a partner: its plays
        # are counted here, built
        fl = []
        for e in fps:
            if e[3] < 0:
                n2 = len(_split_plays(ctx, e[0], e[1], True))
                if not n2:
                    continue
                n += n2
                e = (e[0], e[1], True, n2)
            fl.append(e)
        fps = tuple(fl)
    if not n:
        return None
    return _new_sevens((n, ctx, fps, key))


def _seven_shape_ref(key: tuple[Any, ...]) -> tuple[int, tuple[tuple[int, int, bool, int], ...]]:
    """``lazy._seven_shape`` as main had it before the fifth pass (the reference)."""
    ring, hm, recolour = key
    m = len(ring)
    homes = [k for k in range(1, 5) if (hm >> (k - 1)) & 1]
    fps: list[tuple[int, int, bool, int]] = []
    total = 0
    hf = _hfree(hm, 0)

    def home_sum(h2: int, r: int, skip: int) -> int:
        return sum(1 for k in range(1, 5) if (h2 >> (k - 1)) & 1 and k != skip
                   and _hfree(h2, k) >= r)

    for i, (g1, d1, bm1) in enumerate(ring):
        i0 = i - 1 if i > 0 else m - 1
        for a in range(1, 7):
            r = 7 - a
            if a < g1 and not (bm1 >> a) & 1:  # ring to ring
                n2 = home_sum(hm, r, 0)
                for j, (g, d, bm) in enumerate(ring):
                    if j == i:
                        continue
                    if j == i0:
                        g = min(g + a, 7)
                    n2 += _ring_cnt(g, d, bm, hf, r)
                if n2:
                    fps.append((i, a, False, n2))
                    total += n2
            if d1 < g1 and d1 < a <= d1 + hf:  # ring to home hole a - d1
                h2 = hm | (1 << (a - d1 - 1))
                if recolour and h2 == _FULL_HOME:
                    # the colour comes home: the rest goes to a partner (counted with the
                    # position, see _sevens_run)
                    fps.append((i, a, True, -1))
                    continue
                hf2 = _hfree(h2, 0)
                n2 = home_sum(h2, r, a - d1)
                for j, (g, d, bm) in enumerate(ring):
                    if j == i:
                        continue
                    if j == i0:
                        g = 7 if m == 2 else min(g + g1, 7)
                    n2 += _ring_cnt(g, d, bm, hf2, r)
                if n2:
                    fps.append((i, a, True, n2))
                    total += n2
    for ih, k in enumerate(homes):
        for a in range(1, 7):
            if a > _hfree(hm, k):
                break
            r = 7 - a
            h2 = (hm & ~(1 << (k - 1))) | (1 << (k + a - 1))
            hf2 = _hfree(h2, 0)
            n2 = home_sum(h2, r, k + a)
            for g, d, bm in ring:
                n2 += _ring_cnt(g, d, bm, hf2, r)
            if n2:
                fps.append((m + ih, a, True, n2))
                total += n2
    return total, tuple(fps)


CONFIGS: list[dict[str, Any]] = [
    {"rules": "classic", "seats": 1},
    {"rules": "classic", "seats": 2},
    {"rules": "classic", "seats": 3},
    {"rules": "classic", "seats": 4},
    {"rules": "classic", "seats": 4, "jokers": False},
    {"rules": "classic", "seats": 4, "mode": "ffa"},
    {"rules": "classic", "seats": 4, "seven_to_partner": False},
    {"rules": "classic", "seats": 6, "teams": 3},
    {"rules": "classic", "seats": 8},
    {"rules": "team", "seats": 4},
    {"rules": "team", "seats": 6, "teams": 3},
    {"rules": "team", "seats": 8},
    {"rules": "team", "seats": 8, "teams": 4},
]


def positions(conf: dict[str, Any], games: int) -> list[TrackState]:
    """Every position of seeded random games (Python engine)."""
    out = []
    with python_engine():
        for seed in range(games):
            s = new_game(conf, seed)
            rng = Rng.from_seed(seed)
            while s.turn >= 0:
                out.append(s)
                lg = gen_legal(s)
                s, _ = apply_play(s, s.turn, lg[rng.below(len(lg))], events=False)
    return out


def view(s: TrackState, t: int) -> TrackState:
    v = s.copy()
    v.turn = t
    v._legal = None
    return v


def same(v: TrackState) -> tuple[int, int, int]:
    """Assert the generator equals the reference on ``v`` (flat, lazy, want_all); return
    (plays, runs, home plays) for the coverage count."""
    want = _gen_ct_ref(v)
    assert _gen_ct(v) == want, v
    lg = _gen_ct(v, lazy=True)
    ref = _gen_ct_ref(v, lazy=True)
    assert isinstance(lg, LegalList)
    # the same items (raw plays and runs, the runs' contents included) and length
    assert (lg._items, lg._raw, lg._n) == (ref._items, ref._raw, ref._n), v
    assert [raw_token(r) for r in lg.raw] == [raw_token(r) for r in want]
    a = _gen_ct(v, True)
    b = _gen_ct_ref(v, True)
    assert [[p.token for p in g] for g in a] == [[p.token for p in g] for g in b], v
    home = sum(1 for r in want if r[1][0][0] == "f" and r[1][0][3] > HOME0)
    return len(want), int(lg._items is not None), home


@pytest.mark.parametrize("conf", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_the_generator_gives_the_reference_plays(conf: dict[str, Any]) -> None:
    seats = conf["seats"]
    games = 1 if conf["rules"] == "team" else 2
    plays = runs = home = views = 0
    step = 6 if conf["rules"] == "team" and seats == 8 else 2  # (team 8: long lists)
    for s in positions(conf, games)[::step]:
        for t in range(seats):
            n, k, h = same(view(s, t))
            plays += n
            runs += k
            home += h
            views += 1
    # the sweep reached runs (7s, jokers, splits) and forward plays into and inside the home
    assert views > 100 and runs > 0 and home > 0, (views, runs, home)


def test_an_unsorted_hand_gives_the_reference_plays() -> None:
    # a hand set by hand, unsorted: its ranks are taken in hand order, a rank again after
    # another one played again (as the reference does)
    checked = 0
    for conf in (CONFIGS[3], CONFIGS[9]):
        for s in positions(conf, 1)[::7]:
            u = s.copy()
            u._legal = None
            h = s.hands[s.turn]
            u.hands = tuple(tuple(reversed(x)) + x[:1] if i == s.turn else x
                            for i, x in enumerate(s.hands))
            same(u)
            checked += len(h) > 1
    assert checked > 10


def test_the_shape_counts_equal_the_reference_on_every_small_shape() -> None:
    # every shape of up to 3 ring pegs (gaps, distances 0..7, no bad counts or some), every
    # home mask the pegs leave room for, seven to partner on and off
    n = 0
    for m in range(4):
        for hm in range(32):
            if m + bin(hm).count("1") > 5:
                continue
            for rc in (False, True):
                for ring in _small_rings(m):
                    key = (ring, hm, rc)
                    assert _seven_shape(key) == _seven_shape_ref(key), key
                    n += 1
    assert n > 10000


def _small_rings(m: int) -> list[tuple[tuple[int, int, int], ...]]:
    pegs = [(g, d, bm) for g in range(1, 8) for d in (0, 1, 3, 6, 7) for bm in (0, 0b1010100)]
    out: list[tuple[tuple[int, int, int], ...]] = [()]
    for _ in range(m):
        out = [(*r, p) for r in out for p in pegs[:: (1 if m == 1 else 5 if m == 2 else 17)]]
    return out
