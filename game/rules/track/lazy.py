"""Runs of classic/team plays counted without being built (the Python generator's lazy
parts): the joker jumps (:class:`_Jokers`, :func:`_joker_run`) and the classic 7 splits
(:class:`_Sevens`, :func:`_sevens_run`, counted off the colour's shape, :func:`_seven_shape`).
A caller that wants a count and one play (the random driver, ``nth_legal``) pays for the
count and that one play; the list's ``raw`` expands a run (once) into the plays in the
generator's order, built at once as before the runs (the rollouts' raw scoring).

A run is a tuple subclass holding its count first (what :class:`~.plays.LegalList` reads off
it) with ``get(k)`` and ``all()``, as the split runs of :mod:`~.plays`."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from game.rules.track.board import PEGS
from game.rules.track.config import _FULL_HOME, HOME0, START, Cfg
from game.rules.track.moves import _ct_movers, _land, _second_on_board, _sevens_one_colour
from game.rules.track.plays import _B, Raw


def _chain_off(cfg: Cfg, c: int, x: int, occ: list[int]) -> tuple[bool, int]:
    """Whether a peg of colour ``c`` that is not on the ring may land on ring hole ``x``,
    held by a peg of another colour of its team (:func:`~.moves._land`'s bump chain), and
    the mask of the holes the chain read: for a peg that is on the ring the answer is the
    same unless its own hole is in the mask (the chain treats that hole as free)."""
    team_of = cfg.team_of
    inspot = cfg.inspot
    cq = occ[x] // PEGS
    t = inspot[cq]
    visited = {x}
    m = 1 << x
    while True:
        if t in visited:
            return False, m
        m |= 1 << t
        r = occ[t]
        if r < 0:
            return True, m
        cr = r // PEGS
        if cr == cq:
            return False, m
        if team_of[cr] != team_of[cq]:
            return True, m
        visited.add(t)
        cq = cr
        t = inspot[cr]


class _Jokers(tuple):  # type: ignore[type-arg]
    """The joker jumps of one hand, kept as their sources until read: ``(n, cfg, occ, srcs,
    taken)``: ``srcs`` the ``(count, pid, loc)`` of every source peg with a jump, in the
    generator's order, ``taken`` the mask of the taken ring holes; a source's plays are its
    jumps onto every taken hole of another colour whose bump is legal (:func:`_land`), in
    hole order. ``n`` plays in all."""

    __slots__ = ()

    @property
    def n(self) -> int:
        return cast(int, self[0])

    def get(self, k: int) -> Raw:
        for cnt, pid, loc in self[3]:
            if k < cnt:
                # the source's k-th jump, the ones before it only counted
                cfg = self[1]
                occ = self[2]
                team_of = cfg.team_of
                c = pid // PEGS
                tc = team_of[c]
                m = self[4]
                while m:
                    lb = m & -m
                    x = lb.bit_length() - 1
                    m ^= lb
                    q = occ[x]
                    cq = q // PEGS
                    if cq == c:
                        continue
                    if team_of[cq] != tc:
                        b: Any = (_B((q, x, START)),)
                    else:
                        b = _land(cfg, pid, x, occ)
                        if b is None:
                            continue
                    if not k:
                        return (0, (("j", pid, loc, x, 0),), (b,))
                    k -= 1
                break
            k -= cnt
        raise IndexError("joker index out of range")  # unreachable: k < n

    def all(self) -> list[Raw]:
        # the targets of each source colour found once: an opponent's peg with its bump
        # (shared by the plays), a teammate's with its chain per source (_land)
        cfg = self[1]
        occ = self[2]
        team_of = cfg.team_of
        targets = _holes(self[4])
        percol: dict[int, list[tuple[int, Any]]] = {}
        out: list[Raw] = []
        app = out.append
        for _cnt, pid, loc in self[3]:
            c = pid // PEGS
            tl = percol.get(c)
            if tl is None:
                tl = percol[c] = []
                tc = team_of[c]
                for x in targets:
                    q = occ[x]
                    cq = q // PEGS
                    if cq != c:
                        tl.append((x, ((_B((q, x, START)),),) if team_of[cq] != tc else None))
            for x, bt in tl:
                if bt is not None:
                    app((0, (("j", pid, loc, x, 0),), bt))
                else:
                    b = _land(cfg, pid, x, occ)
                    if b is not None:
                        app((0, (("j", pid, loc, x, 0),), (b,)))
        return out


def _holes(m: int) -> list[int]:
    """The set bits of ``m``, ascending (the taken ring holes of a mask)."""
    out = []
    while m:
        lb = m & -m
        out.append(lb.bit_length() - 1)
        m ^= lb
    return out


_new_jokers = partial(tuple.__new__, _Jokers)


def _joker_run(cfg: Cfg, starts: list[int], minfo: list[Any], occ: list[int],
               rm: list[int]) -> Any:
    """The joker jumps of the pegs in start ``starts`` then of the movers ``minfo`` (the
    generator's mover info, ``(loc, pid, ...)`` sorted; pegs in home are skipped), as one
    :class:`_Jokers` run, or None when there is none. Counted, not built: a source's jumps
    are the ring pegs less those of its colour (popcounts of the ring masks) and those of a
    teammate whose bump chain is illegal (found once per colour as for a peg off the ring,
    :func:`_chain_off`; again with :func:`_land` for a source whose hole the chain read)."""
    allm = 0
    for v in rm:
        allm |= v
    nt = allm.bit_count()
    partners = cfg.partners
    cinfo: dict[int, tuple[int, list[tuple[int, int, bool]]]] = {}
    srcs: list[tuple[int, int, int]] = []
    n = 0
    both: tuple[list[Any], list[Any]] = (starts, minfo)
    for src in both:
        for e in src:
            if type(e) is int:
                pid = e
                loc = START
            else:
                loc = e[0]
                if loc >= HOME0:
                    continue
                pid = e[1]
            c = pid // PEGS
            ci = cinfo.get(c)
            if ci is None:
                cnt = nt - rm[c].bit_count()
                tms: list[tuple[int, int, bool]] = []
                for cq in partners[c]:
                    m = rm[cq]
                    t = cfg.inspot[cq]
                    while m:
                        lb = m & -m
                        x = lb.bit_length() - 1
                        m ^= lb
                        if t != x and occ[t] < 0:
                            # the chain's first step: the partner's peg goes to its free
                            # in-spot (_chain_off's common case, written out)
                            ok = True
                            mask = lb | (1 << t)
                        else:
                            ok, mask = _chain_off(cfg, c, x, occ)
                        if not ok:
                            cnt -= 1
                        tms.append((x, mask, ok))
                ci = cinfo[c] = (cnt, tms)
            cnt, tms = ci
            if loc >= 0 and tms:
                bit = 1 << loc
                for x, mask, ok in tms:
                    if mask & bit and (_land(cfg, pid, x, occ) is not None) != ok:
                        cnt += -1 if ok else 1
            if cnt:
                srcs.append((cnt, pid, loc))
                n += cnt
    if not n:
        return None
    return _new_jokers((n, cfg, occ, srcs, allm))


# --------------------------------------------------------------------------------------------
# Classic 7 splits, counted off the colour's shape


def _hfree(hm: int, k: int) -> int:
    """The free home holes after home hole ``k`` (0: from the first) up to home 5, in a row."""
    n = 0
    j = k
    while j < 5 and not (hm >> j) & 1:
        n += 1
        j += 1
    return n


def _ring_cnt(g: int, d: int, bm: int, hf: int, r: int) -> int:
    """The forward parts of count ``r`` of a ring peg ``d`` holes before its in-spot whose
    next peg of its colour is ``g`` holes ahead, with ``hf`` free home holes from home 1 and
    bit ``k`` of ``bm`` set when the hole ``k`` ahead holds a partner's peg whose bump chain
    is illegal (every other landing takes: free, an opponent's, a partner's with a legal
    chain): on the ring iff ``r < g`` and the landing takes, into home iff the in-spot is in
    the gap and the home holes up to the target are free."""
    return (r < g and not (bm >> r) & 1) + (d < g and d < r <= d + hf)


#: ``_HF[hm][k]``: :func:`_hfree` of every home mask and hole (0..5).
_HF = tuple(tuple(_hfree(h, k) for k in range(6)) for h in range(32))
#: ``_HS[hm][r][skip]``: the home pegs of home mask ``hm`` in home 1..4 but the one in home
#: ``skip`` (0: none) with ``r`` free holes ahead or more (the home second parts of count r).
_HS = tuple(tuple(tuple(sum(1 for k in range(1, 5) if (h >> (k - 1)) & 1 and k != skip
                            and _HF[h][k] >= r) for skip in range(6)) for r in range(8))
            for h in range(32))


def _seven_shape(key: tuple[Any, ...]) -> tuple[int, tuple[tuple[int, int, bool, int], ...]]:
    """The 7 splits of one colour of shape ``key`` = ``(ring, hm)``: ``ring`` the ``(gap,
    dist, bad)`` of each of its ring pegs in ring order (the holes to the next peg of the
    colour and to its in-spot, both capped at 7: every count compared with them is at most
    6; the mask of the counts whose landing does not take, see :func:`_ring_cnt`),
    ``hm`` its home mask; its home movers are its home pegs but the one in home 5. Returns
    the number of plays and per first part with a play ``(mover index, count, into home,
    plays)`` in the generator's order (movers: the ring pegs, then the home pegs by hole).

    The board after a first part, for the colour's pegs: a ring-to-ring part of count ``a``
    grows the gap of the peg behind it by ``a`` (it frees its hole, takes one inside its own
    gap); a ring-to-home part frees its hole (the peg behind's gap takes in the first peg's
    gap: the whole ring when it is left alone) and takes a home hole; a home part frees its
    hole and takes one ahead. Every second part is then counted by :func:`_ring_cnt` (written
    out) and, for a home peg, the free holes ahead of it (the tables ``_HF``, ``_HS``)."""
    ring, hm, recolour = key
    m = len(ring)
    fps: list[tuple[int, int, bool, int]] = []
    app = fps.append
    total = 0
    hfm = _HF[hm]
    hf = hfm[0]
    hsm = _HS[hm]
    for i, (g1, d1, bm1) in enumerate(ring):
        i0 = i - 1 if i > 0 else m - 1
        for a in range(1, 7):
            r = 7 - a
            if a < g1 and not (bm1 >> a) & 1:  # ring to ring
                n2 = hsm[r][0]
                for j, (g, d, bm) in enumerate(ring):
                    if j == i:
                        continue
                    if j == i0:
                        g = g + a if g + a < 7 else 7
                    if r < g and not (bm >> r) & 1:
                        n2 += 1
                    if d < g and d < r <= d + hf:
                        n2 += 1
                if n2:
                    app((i, a, False, n2))
                    total += n2
            if d1 < g1 and d1 < a <= d1 + hf:  # ring to home hole a - d1
                h2 = hm | (1 << (a - d1 - 1))
                if recolour and h2 == _FULL_HOME:
                    # the colour comes home: the rest goes to a partner (counted with the
                    # position, see _sevens_run)
                    app((i, a, True, -1))
                    continue
                hf2 = _HF[h2][0]
                n2 = _HS[h2][r][a - d1]
                for j, (g, d, bm) in enumerate(ring):
                    if j == i:
                        continue
                    if j == i0:
                        g = 7 if m == 2 else (g + g1 if g + g1 < 7 else 7)
                    if r < g and not (bm >> r) & 1:
                        n2 += 1
                    if d < g and d < r <= d + hf2:
                        n2 += 1
                if n2:
                    app((i, a, True, n2))
                    total += n2
    ih = m
    for k in range(1, 5):
        if not (hm >> (k - 1)) & 1:
            continue
        for a in range(1, hfm[k] + 1):
            r = 7 - a
            h2 = (hm & ~(1 << (k - 1))) | (1 << (k + a - 1))
            hf2 = _HF[h2][0]
            n2 = _HS[h2][r][k + a]
            for g, d, bm in ring:
                if r < g and not (bm >> r) & 1:
                    n2 += 1
                if d < g and d < r <= d + hf2:
                    n2 += 1
            if n2:
                app((ih, a, True, n2))
                total += n2
        ih += 1
    return total, tuple(fps)


def _offsets(bad: int, loc: int, fw: tuple[int, ...], R: int) -> int:
    """The mask of the counts ``k`` (1..6) whose hole ``k`` ahead of ``loc`` is in ``bad``."""
    m = 0
    for k in range(1, 7):
        x = loc + k
        if x >= R:
            x -= R
        if (bad >> x) & 1:
            m |= 1 << k
    return m


_SHAPES: dict[tuple[Any, ...], tuple[int, tuple[tuple[int, int, bool, int], ...]]] = {}


class _Sevens(tuple):  # type: ignore[type-arg]
    """The classic 7 splits of one hand kept as their shape until read: ``(n, ctx, fps,
    key)``, ``fps`` the first parts with their play counts (:func:`_seven_shape` of the shape
    ``key``), ``ctx`` the position; one play read is made alone (:func:`_split_play`), every
    play read (``all``) is :func:`~.moves._sevens_one_colour`'s list. ``n`` plays in all."""

    __slots__ = ()

    @property
    def n(self) -> int:
        return cast(int, self[0])

    def get(self, k: int) -> Raw:
        for i, a, home, n2 in self[2]:
            if k < n2:
                return _split_play(self[1], self[3], i, a, home, k)
            k -= n2
        raise IndexError("split index out of range")  # unreachable: k < n

    def all(self) -> list[Raw]:
        # every play: the builder's list (the same plays in the same order, built at once:
        # a reader of the whole list, the rollouts' raw scoring, pays what it paid before)
        cfg, seat, pegs, occ, rm, hm, movers, cols1, _recolour = self[1]
        out: list[Raw] = []
        _sevens_one_colour(cfg, seat, pegs, occ, rm, hm, movers, out, cols1)
        return out


def _split_plays(ctx: tuple[Any, ...], i: int, a: int, home: bool) -> list[Raw]:
    """The 7 splits whose first part moves mover ``i`` forward ``a`` (``home``: into
    home), on the position ``ctx``, by the definition."""
    cfg, seat, pegs, occ, rm, hm, movers, cols1, recolour = ctx
    loc1, pid1 = movers[i]
    b1: tuple[Any, ...] = ()
    if loc1 >= HOME0:
        to1 = loc1 + a
    elif home:
        d = cfg.inspot[pid1 // PEGS] - loc1
        if d < 0:
            d += cfg.R
        to1 = HOME0 + a - d
    else:
        to1 = loc1 + a
        if to1 >= cfg.R:
            to1 -= cfg.R
        q = occ[to1]
        if q >= 0:  # an opponent's peg, or a partner's with a legal chain
            b1 = cast("tuple[Any, ...]", _land(cfg, pid1, to1, occ))
    out: list[Raw] = []
    _second_on_board(cfg, seat, pegs, occ, rm, hm, movers, cols1, recolour, 7, pid1,
                     ("f", pid1, loc1, to1, a), b1, "f", 7 - a, out)
    return out


def _split_play(ctx: tuple[Any, ...], key: tuple[Any, ...], i: int, a: int, home: bool,
                k: int) -> Raw:
    """Play ``k`` of the 7 splits whose first part moves mover ``i`` forward ``a`` (``home``:
    into home), made alone off the shape ``key`` (the second movers' counts as
    :func:`_seven_shape` finds them, then the one part; a landing's bump read off the board,
    which the first part changed only at its two holes); a first part that brings the
    colour home is made by the definition (:func:`_split_plays`)."""
    cfg, _seat, _pegs, occ, _rm, _hm, movers, _cols1, recolour = ctx
    ring, hmc, _rc = key
    m = len(ring)
    loc1, pid1 = movers[i]
    rest = 7 - a
    R = cfg.R
    i0 = -1
    g0n = 0
    b1: Any = ()
    if loc1 >= HOME0:  # in home
        to1 = loc1 + a
        k1 = loc1 - HOME0
        h2 = (hmc & ~(1 << (k1 - 1))) | (1 << (k1 + a - 1))
    elif home:
        g1, d1, _bm1 = ring[i]
        to1 = HOME0 + a - d1
        h2 = hmc | (1 << (a - d1 - 1))
        if recolour and h2 == _FULL_HOME:
            return _split_plays(ctx, i, a, True)[k]
        if m >= 2:
            i0 = i - 1 if i > 0 else m - 1
            g0n = 7 if m == 2 else min(ring[i0][0] + g1, 7)
    else:
        to1 = loc1 + a
        if to1 >= R:
            to1 -= R
        if occ[to1] >= 0:
            b1 = _land(cfg, pid1, to1, occ)
        h2 = hmc
        if m >= 2:
            i0 = i - 1 if i > 0 else m - 1
            g0n = min(ring[i0][0] + a, 7)
    hf2 = _hfree(h2, 0)
    part1 = ("f", pid1, loc1, to1, a)
    team_of = cfg.team_of
    for j, (loc2, pid2) in enumerate(movers):
        if j == i:
            continue
        if j < m:
            g, d, bm = ring[j]
            if j == i0:
                g = g0n
            rok = rest < g and not (bm >> rest) & 1
            c2 = rok + (d < g and d < rest <= d + hf2)
            if k < c2:
                if rok and k == 0:
                    x = loc2 + rest
                    if x >= R:
                        x -= R
                    q = occ[x]
                    if x == loc1 or q < 0:
                        b2: Any = ()
                    elif team_of[q // PEGS] != team_of[pid2 // PEGS]:
                        b2 = (_B((q, x, START)),)
                    else:
                        b2 = _land(cfg, pid2, x, occ)
                    return (7, (part1, ("f", pid2, loc2, x, rest)), (b1, b2))
                return (7, (part1, ("f", pid2, loc2, HOME0 + rest - d, rest)), (b1, ()))
            k -= c2
        elif _hfree(h2, loc2 - HOME0) >= rest:
            if not k:
                return (7, (part1, ("f", pid2, loc2, loc2 + rest, rest)), (b1, ()))
            k -= 1
    raise IndexError("split index out of range")  # unreachable: the shape counted them


_new_sevens = partial(tuple.__new__, _Sevens)


def _sevens_run(cfg: Cfg, seat: int, pegs: tuple[int, ...], occ: list[int], rm: list[int],
                hm: list[int], ring: list[Any], cols1: tuple[int, ...]) -> Any:
    """The 7 splits of one colour as one :class:`_Sevens` run (None when there is none), or
    False when its shape does not decide them: a partner's peg within 6 holes ahead of a
    ring peg of the colour (a bump chain whose holes a first part may change); the caller
    then builds them (:func:`~.moves._sevens_one_colour`). Otherwise the count depends on
    the shape alone (:func:`_seven_shape`, kept per shape: a few thousand shapes recur).
    ``ring`` is the generator's ring pegs of the colour by hole, ``(loc, pid, gap, holes to
    the in-spot, ...)`` (:func:`~.movegen._gen_ct`); the movers (loc, pid) the run keeps
    for its plays are made only when there is one."""
    c = cols1[0]
    hmc = hm[c]
    recolour = cfg.seven and cfg.mode == "teams"
    fwdt = cfg.fwd
    kr = []
    for e in ring:  # the shape of the ring pegs: (gap, holes to the in-spot), capped at 7
        g = e[2]
        d = e[3]
        kr.append((g if g < 7 else 7, d if d < 7 else 7, 0))
    pm = 0
    for p in cfg.partners[c]:
        pm |= rm[p]
    if pm:
        win = 0
        for e in ring:
            win |= fwdt[e[0]][6]
        ph = win & pm
        if ph:
            # partners' pegs in reach: each one's bump chain must read no hole a first part
            # may change (the colour's ring holes, the holes in reach) nor one another
            # chain reads (a first part that bumps a partner moves pegs on its chain)
            forbid = rm[c] | win
            seen = 0
            bad = 0
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
                R = cfg.R
                kr = [(g, d, _offsets(bad, e[0], fwdt[e[0]], R) if bad & fwdt[e[0]][6] else 0)
                      for (g, d, _b), e in zip(kr, ring, strict=True)]
    key = (tuple(kr), hmc, recolour)
    sh = _SHAPES.get(key)
    if sh is None:
        if len(_SHAPES) > 50000:
            _SHAPES.clear()
        sh = _SHAPES[key] = _seven_shape(key)
    n, fps = sh
    home4 = recolour and hmc.bit_count() == 4
    if not n and not home4:
        return None
    ctx: tuple[Any, ...] = (cfg, seat, pegs, occ, rm, hm,
                            _ct_movers(ring, pegs, hm, cols1, False), cols1, recolour)
    if home4:
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
