"""The Python legal-play generators: classic/team (:func:`_gen_ct`) and tees
(:func:`_gen_tees`). They build raw plays (the arguments of ``Play``, plain 5-tuple parts)
and runs kept as factors, and return a :class:`LegalList` (``lazy``), the flat raw list, or
with ``want_all`` the plays by group; each is written inline (no helper call per candidate,
but for a tees play onto another colour's peg, :func:`_onto`). Over 600 lines: the two
generators, the tees one kept also in its third-pass form (:func:`_gen_tees_ref`, the
reference its tests and ``want_all`` use), are each one long function on purpose (measured:
a call per candidate costs a Python turn 5-10%)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.rules.cards import JOKER
from game.rules.track.board import PEGS
from game.rules.track.config import (
    _FULL_HOME,
    HOME0,
    START,
    TEAM,
    Cfg,
)
from game.rules.track.lazy import _joker_run, _sevens_run
from game.rules.track.moves import (
    _ct_movers,
    _land,
    _sevens_one_colour,
    _splits,
)
from game.rules.track.plays import (
    _B,
    _LOW,
    _NOB,
    Bumps,
    LegalList,
    Mover,
    PartT,
    Raw,
    _flat,
    _new_obj,
    _new_trades,
    _plays,
)
from game.rules.track.state import (
    TrackState,
    _boards,
)


def _ring_walk(ring: list[tuple[int, int, int, int, int, tuple[int, ...]]], own: int,
               hmc: int, td: tuple[int, ...], occ: list[int], tadd: tuple[tuple[int, ...], ...],
               R: int) -> None:
    """Append one colour's ring pegs to ``ring`` in hole order, off its ring mask ``own``
    (home mask ``hmc``, holes to the in-spot ``td``): (hole, peg, gap: the holes to the
    colour's next ring peg ahead, R for a lone peg; holes to the in-spot d; hh: a forward n
    goes home iff d < n <= hh, 0 if it cannot; the landings by count, ``cfg.tadd``)."""
    hf = (hmc & -hmc).bit_length() - 1 if hmc else 5  # free home holes from home 1
    lb = own & -own
    loc = first = lb.bit_length() - 1
    m = own ^ lb
    while m:
        lb = m & -m
        nx = lb.bit_length() - 1
        m ^= lb
        g = nx - loc
        d = td[loc]
        ring.append((loc, occ[loc], g, d, d + hf if d < g else 0, tadd[loc]))
        loc = nx
    g = first + R - loc  # (R for a lone peg)
    d = td[loc]
    ring.append((loc, occ[loc], g, d, d + hf if d < g else 0, tadd[loc]))


def _gen_ct(st: TrackState, want_all: bool = False, lazy: bool = False) -> Any:
    """Legal plays for classic and team (raw). With ``want_all``: (moves, joker moves,
    discards); ``lazy``: a :class:`LegalList` that keeps the team splits as runs.

    Written for a small per-rank cost: the ring pegs come off the ring masks in hole order
    (no walk over the pegs, no sort), each with its gap (holes to the next peg of its colour
    ahead: a forward ``n`` stays on the ring iff ``n`` is less) and the counts that take it
    into home (``d < n <= hh``); the pegs in home that can move forward come off a table by the
    home mask (``cfg.thmv``), so the rank loop walks no peg that cannot move. The plays come
    in the fourth pass's order (rank, then peg by (location, peg))."""
    cfg = st.cfg
    seat = st.turn
    pegs = st.pegs
    bd = st._board
    if bd is None:
        bd = st._board = _boards(cfg, pegs)
    occ, rm, hm = bd
    team = cfg.rules == TEAM
    # the colours moved (controlled(), inline)
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
    tdist = cfg.tdist
    tadd = cfg.tadd
    thmv = cfg.thmv
    # ring: per ring peg (loc, pid, gap to the next peg of its colour ahead, holes to its
    # in-spot d, hh: a forward n goes home iff d < n <= hh, 0 if it cannot), by hole; home:
    # the pegs in home that have room ahead (loc, pid, free holes ahead), by (loc, pid);
    # starts: the first peg in start of each colour; nmov: the movers (ring and home 1..4)
    ring: list[tuple[int, int, int, int, int, tuple[int, ...]]] = []
    home: list[tuple[int, int, int]] = []
    starts: list[int] = []
    nmov = 0
    if len(cols) == 1:
        c = cols[0]
        own = rm[c]
        hmc = hm[c]
        base = c * PEGS
        if own:
            _ring_walk(ring, own, hmc, tdist[c], occ, tadd, R)
            nmov = len(ring)
        if hmc:
            nmov += (hmc & 15).bit_count()
            for loc, k in thmv[hmc]:
                home.append((loc, pegs.index(loc, base, base + PEGS), k))
        if own.bit_count() + hmc.bit_count() < PEGS:
            starts.append(pegs.index(START, base, base + PEGS))
    else:
        hsrc = 0  # the colours with a peg in home that can move
        rsrc = 0  # the colours with a ring peg
        for c in cols:
            own = rm[c]
            hmc = hm[c]
            base = c * PEGS
            if hmc:
                nmov += (hmc & 15).bit_count()
                mv = thmv[hmc]
                if mv:
                    hsrc += 1
                    for loc, k in mv:
                        home.append((loc, pegs.index(loc, base, base + PEGS), k))
            if own.bit_count() + hmc.bit_count() < PEGS:
                starts.append(pegs.index(START, base, base + PEGS))
            if own:  # its ring pegs, as for one colour
                rsrc += 1
                _ring_walk(ring, own, hmc, tdist[c], occ, tadd, R)
        if hsrc > 1:
            home.sort()  # several colours' home pegs interleave by (loc, pid)
        if rsrc > 1:
            ring.sort()  # by hole (unique: the rest is never compared)
        nmov += len(ring)
    tmovers: list[Mover] | None = None  # the team splits' movers (_ct_movers), made once
    normal: list[Any] = []  # raw plays, and runs of splits (_Seconds)
    jk: list[Any] = []  # the joker run (lazy._Jokers), if any
    jn = 0  # its plays
    app = normal.append
    nob = _NOB
    f10: list[tuple[PartT, tuple[Bumps, ...]]] | None = None
    runs = False
    extra = 0  # the plays in runs less the runs (the list's length is len(normal) + extra)
    # the hand's ranks, each run of equal ones once (a hand is sorted), read in the loop
    prev = -1
    for card in st.hands[seat]:
        r = card >> 2
        if r == prev:
            continue
        prev = r
        if r in {0, 1, 8, 11, 12, 13}:  # (JOKER is 0)
            if r == JOKER:
                # the sources: the pegs in start (first), then the ring pegs; in team games
                # only the pegs in start while there are any
                if team:
                    jr = _joker_run(cfg, starts, [], occ, rm) if starts else _joker_run(
                        cfg, [], ring, occ, rm)
                else:
                    jr = _joker_run(cfg, starts, ring, occ, rm)
                if jr is not None:
                    jk.append(jr)
                    jn = jr[0]
                continue
            if r == 8:
                bwdt = cfg.bwd
                for e8 in ring:
                    loc = e8[0]
                    pid = e8[1]
                    if bwdt[loc][8] & rm[pid // PEGS]:
                        continue
                    x = loc - 8
                    if x < 0:
                        x += R
                    if occ[x] < 0:
                        app((8, (("b", pid, loc, x, 8),), nob))
                        continue
                    b = _land(cfg, pid, x, occ)
                    if b is not None:
                        app((8, (("b", pid, loc, x, 8),), (b,)))
                continue
            for pid in starts:  # come out (an Ace, J, Q or K)
                c = pid // PEGS
                o = cfg.comeout[c]
                if (rm[c] >> o) & 1:
                    continue
                if occ[o] < 0:
                    app((r, (("o", pid, START, o, 0),), nob))
                else:
                    b = _land(cfg, pid, o, occ)
                    if b is not None:
                        app((r, (("o", pid, START, o, 0),), (b,)))
            if r != 1:
                # J, Q and K all move 10: their parts are found once (f10) and played with
                # each of them (10 never fits inside the home)
                if f10 is None:
                    f10 = []
                    f10app = f10.append
                    for loc, pid, g, d, hh, xs in ring:
                        if g > 10:
                            x = xs[10]
                            if occ[x] < 0:
                                f10app((("f", pid, loc, x, 10), nob))
                            else:
                                b = _land(cfg, pid, x, occ)
                                if b is not None:
                                    f10app((("f", pid, loc, x, 10), (b,)))
                        if d < 10 <= hh:
                            f10app((("f", pid, loc, HOME0 + 10 - d, 10), nob))
                for part, bt in f10:
                    app((r, (part,), bt))
                continue
        # every single forward-r play (an Ace is one forward): the ring pegs, then the pegs
        # in home with room
        for loc, pid, g, d, hh, xs in ring:
            if r < g:
                x = xs[r]
                if occ[x] < 0:
                    app((r, (("f", pid, loc, x, r),), nob))
                else:
                    b = _land(cfg, pid, x, occ)
                    if b is not None:
                        app((r, (("f", pid, loc, x, r),), (b,)))
            if d < r <= hh:
                app((r, (("f", pid, loc, HOME0 + r - d, r),), nob))
        for loc, pid, k in home:
            if r <= k:
                app((r, (("f", pid, loc, loc + r, r),), nob))
        if r == 7:
            # a split needs two pegs that can move, or (classic team games, seven to
            # partner) one that may bring the colour home and hand the rest to a partner
            if nmov < 2 and not (nmov == 1 and not team and cfg.seven and cfg.mode == "teams"):
                continue
            if team:
                if tmovers is None:
                    tmovers = _ct_movers(ring, pegs, hm, cols, True)
                m, e = _splits(cfg, seat, pegs, occ, rm, hm, tmovers, 7, (("f", "f"),), normal,
                               cols)
                runs |= m
                extra += e
            else:
                sv = _sevens_run(cfg, seat, pegs, occ, rm, hm, ring, cols)
                if sv is False:  # not decided by the colour's shape: built
                    _sevens_one_colour(cfg, seat, pegs, occ, rm, hm,
                                       _ct_movers(ring, pegs, hm, cols, False), normal, cols)
                elif sv is not None:
                    app(sv)
                    runs = True
                    extra += sv[0] - 1
        elif r == 9 and team and nmov >= 2:
            if tmovers is None:
                tmovers = _ct_movers(ring, pegs, hm, cols, True)
            m, e = _splits(cfg, seat, pegs, occ, rm, hm, tmovers, 9, (("f", "b"), ("b", "f")),
                           normal, cols)
            runs |= m
            extra += e
    if want_all:
        discards = [(r, (("x", -1, 0, 0, 0),), _NOB) for r in _ranks(st.hands[seat])]
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
    jk.extend([(r, (("x", -1, 0, 0, 0),), _NOB) for r in _ranks(st.hands[seat])])
    if not lazy:
        return _flat(jk)
    return LegalList(jk, True, len(jk) + jn - 1) if jn else LegalList(jk)


def _ranks(hand: tuple[int, ...]) -> list[int]:
    """A hand's ranks as :func:`_gen_ct` reads them (each run of equal ranks once)."""
    ranks = []
    prev = -1
    for card in hand:
        r = card >> 2
        if r != prev:
            ranks.append(r)
            prev = r
    return ranks


def _gen_tees(st: TrackState, want_all: bool = False, lazy: bool = False) -> Any:
    """Legal plays for tees (raw), or with ``want_all`` (normal plays, last-resort plays,
    :func:`_gen_tees_ref`); ``lazy``: a :class:`LegalList` that keeps the Jack trades as
    factors.

    Written for a small fixed cost: the ring pegs come off the colour's ring mask (in hole
    order, no sort), each with its holes to the in-spot, path masks and landings (tables of
    :func:`config._tees_tables`); the home pegs that can move forward off a table by the home
    mask; the hand's ranks are read in the one loop that plays them. The plays come in the
    reference's order (rank, then peg by location)."""
    if want_all:
        return _gen_tees_ref(st, True)
    b = st._board
    if b is None:
        b = st._board = _boards(st.cfg, st.pegs)
    return _gen_tees_at(st, st.cfg, st.turn, b[0], b[1], b[2], lazy)


def _onto(cfg: Cfg, c: int, q: int, r: int, part: PartT, x: int, app: Callable[[Any], None],
          last: list[Any] | None) -> list[Any] | None:
    """A tees play of rank ``r`` whose one ``part`` (colour ``c``) lands on hole ``x``, taken
    by peg ``q`` of another colour: an opponent's peg is bumped to start (played, ``app``); a
    partner's makes the play a last resort (added to ``last``, made when needed, returned)."""
    bumps = ((_B((q, x, START)),),)
    if cfg.team_of[q // PEGS] == cfg.team_of[c]:
        if last is None:
            last = []
        last.append((r, (part,), bumps, True))
    else:
        app((r, (part,), bumps))
    return last


def _gen_tees_at(st: TrackState, cfg: Cfg, seat: int, occ: list[int], rm: list[int],
                 hm: list[int], lazy: bool) -> Any:
    """:func:`_gen_tees` of ``st`` whose config, seat to move and board lists are given (the
    quiet apply has them at hand)."""
    # the colour moved (controlled(), inline): the seat's own, or once it is done (its home
    # mask full) its partner's
    c = seat
    hmc = hm[c]
    if hmc == _FULL_HOME:
        c = cfg.tmate[seat]
        hmc = hm[c]
        if hmc == _FULL_HOME:
            return LegalList([]) if lazy else []
    own = rm[c]
    blk = own | rm[cfg.tmate[c]]
    # the ring pegs, by hole: (peg, (hole, holes to the in-spot, path masks: the n - 1 holes
    # ahead by n, landings by n)), the second a table's (cfg.tring)
    ring = []
    if own:
        tring = cfg.tring[c]
        m = own
        while m:  # from the highest hole down, then reversed
            loc = m.bit_length() - 1
            m ^= 1 << loc
            ring.append((occ[loc], tring[loc]))
        ring.reverse()
    normal: list[Raw] = []
    last: list[Raw] | None = None  # the last resorts (a list once there is one)
    app = normal.append
    nob = _NOB
    extra = -1  # the plays of the Jack trades less one (-1: no run)
    hmv = cfg.thmv[hmc]  # the pegs in home that have room ahead: (location, free holes)
    prev = -1
    for card in st.hands[seat]:
        r = card >> 2
        if r <= prev:
            if r == prev:
                continue
            return _gen_tees_ref(st, False, lazy)  # an unsorted hand (a read position)
        prev = r
        if r in {1, 3, 11, 13}:  # (every other rank is a forward count only)
            if r == 11:
                if own:
                    # every other colour's ring peg: the run keeps their mask (listed when
                    # read)
                    om = 0
                    for v in rm:
                        om |= v
                    om &= ~own
                    if om:
                        n = len(ring) * om.bit_count()
                        extra = n - 1
                        normal.append(_new_trades((n, ring, om, occ)))
                continue
            if r == 3:
                # backward 3: the ring pegs (a table by hole: the 2 holes behind and the
                # landing, None within 3 holes past the come-out hole), then the pegs in home
                # that may go back (a table by the home mask: the landing and the holes it
                # passes, or -1 for a move inside the home)
                b3 = cfg.tb3[c]
                for pid, sx in ring:
                    loc = sx[0]
                    e = b3[loc]
                    if e is None or e[0] & blk:
                        continue
                    x = e[1]
                    q = occ[x]
                    if q < 0:
                        app((3, (("b", pid, loc, x, 3),), nob))
                    elif q // PEGS != c:
                        last = _onto(cfg, c, q, 3, ("b", pid, loc, x, 3), x, app, last)
                for loc, mask, x in cfg.th3[c][hmc]:
                    if mask & blk:
                        continue
                    base = c * PEGS
                    pid = st.pegs.index(loc, base, base + PEGS)
                    if x < 0:
                        app((3, (("b", pid, loc, loc - 3, 3),), nob))
                        continue
                    q = occ[x]
                    if q < 0:
                        app((3, (("b", pid, loc, x, 3),), nob))
                    elif q // PEGS != c:
                        last = _onto(cfg, c, q, 3, ("b", pid, loc, x, 3), x, app, last)
                continue
            # an Ace or a King: come out
            cout = cfg.comeout[c]
            if not (own >> cout) & 1 and own.bit_count() + hmc.bit_count() < PEGS:
                base = c * PEGS
                start = st.pegs.index(START, base, base + PEGS)
                q = occ[cout]
                if q < 0:
                    app((r, (("o", start, START, cout, 0),), nob))
                else:  # (the come-out hole holds no peg of the colour: own was checked)
                    last = _onto(cfg, c, q, r, ("o", start, START, cout, 0), cout, app, last)
            if r == 13:
                continue
        # a forward count (1 is one forward, every other rank its own count)
        for pid, (loc, d, pm, xs) in ring:
            if r > d:
                h = r - d
                if h <= 5 and not pm[d + 1] & blk and not hmc & _LOW[h]:
                    app((r, (("f", pid, loc, HOME0 + h, r),), nob))
                continue
            if pm[r] & blk:
                continue
            x = xs[r]
            q = occ[x]
            if q < 0:
                app((r, (("f", pid, loc, x, r),), nob))
            elif q // PEGS != c:
                last = _onto(cfg, c, q, r, ("f", pid, loc, x, r), x, app, last)
        for loc, k in hmv:
            if r <= k:
                base = c * PEGS
                app((r, (("f", st.pegs.index(loc, base, base + PEGS), loc, loc + r, r),), nob))
    if lazy:  # LegalList(...), inline (no __init__ call)
        lg = _new_obj(LegalList)
        lg._made = None
        if extra < 0 and normal:
            lg._items = None
            lg._raw = normal
            lg._n = len(normal)
        elif normal:
            lg._items = normal
            lg._raw = None
            lg._n = len(normal) + extra
        else:
            lg._items = None
            lg._raw = last = last or []
            lg._n = len(last)
        return lg
    return _flat(normal) if extra >= 0 else (normal or last or [])


def _gen_tees_ref(st: TrackState, want_all: bool = False, lazy: bool = False) -> Any:
    """:func:`_gen_tees` as the third pass wrote it (the reference it is tested against, and
    the path of ``want_all`` and of an unsorted hand): legal plays for tees (raw), or with
    ``want_all`` (normal plays, last-resort plays); ``lazy``: a :class:`LegalList` that keeps
    the Jack trades as factors."""
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
            ring = [(pid, (loc,)) for loc, pid in movers if loc < HOME0]
            if ring:
                # every other colour's ring peg (x, peg), by hole: off the ring masks
                om = 0
                for v in rm:
                    om |= v
                om &= ~own
                if om:
                    runs = True
                    n = len(ring) * om.bit_count()
                    extra = n - 1
                    normal.append(_new_trades((n, ring, om, occ)))
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
    if lazy:  # (the reference: the plain constructor; _gen_tees_at makes it inline)
        if not normal:
            return LegalList(last)
        return LegalList(normal, True, len(normal) + extra) if runs else LegalList(normal)
    return _flat(normal) if runs else (normal if normal else last)
