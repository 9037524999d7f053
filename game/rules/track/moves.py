"""The shared steps of the classic/team generators and the splits: a landing and its bump
chain (:func:`_land`, :func:`_chain`), forward and backward parts for one count or every count,
and the 7 and 9 splits (:func:`_sevens_one_colour`, :func:`_splits`: every single part
computed on the original board once, each first part's changed second parts found through
dependence masks and recomputed on a private copy of the board moved in place; the team
split run of a first part that bumped one opponent's peg, :class:`_SecondsB`). The classic 7
splits are usually counted off the colour's shape instead (:mod:`~.lazy`), which falls back
to :func:`_sevens_one_colour` and makes its plays with :func:`_second_on_board`. The movers
the splits take come off the generator's ring pegs and a table by home mask
(:func:`_ct_movers`).

Over 600 lines on purpose: the splits and the part helpers they inline share the board
encoding and the entry layout, and they sit on the hot path where a call across modules per
candidate costs; the two split generators are one unit (the same plays in the same order).
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from game.rules.track.board import PEGS
from game.rules.track.config import (
    _FULL_HOME,
    HOME0,
    START,
    TEAM,
    Cfg,
)
from game.rules.track.plays import (
    _B,
    _NOB2,
    Bumps,
    Cand,
    Entry,
    Mover,
    PartT,
    Raw,
    _new_bumped,
    _new_seconds,
)
from game.rules.track.state import (
    _board_after,
    controlled,
)


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


#: ``_HOME_MOVERS[unsnug][home mask]``: the home holes 1..4 (as locations) that hold a mover
#: of :func:`_ct_movers`, ascending; with ``unsnug`` less the snug ones (home k..5 all taken).
_HOME_MOVERS = tuple(tuple(tuple(HOME0 + k for k in range(1, 5) if (h >> (k - 1)) & 1 and not (
    u and (h >> k) == _FULL_HOME >> k)) for h in range(32)) for u in (False, True))


def _ct_movers(ring: list[Any], pegs: tuple[int, ...], hm: list[int], cols: tuple[int, ...],
               unsnug: bool) -> list[Mover]:
    """The movers (loc, pid) of :func:`~.movegen._gen_ct`'s colours for the splits: its ring
    pegs ``ring`` (``(loc, pid, ...)`` by hole), then the pegs in home 1..4 by (loc, pid);
    with ``unsnug`` less the snug ones (home k..5 all taken: no part of theirs exists on any
    board a first part leaves; the team splits)."""
    out: list[Mover] = []
    for e in ring:  # (a loop: a comprehension is a call, dearer for a few pegs)
        out.append((e[0], e[1]))
    hmv = _HOME_MOVERS[unsnug]
    if len(cols) == 1:
        c = cols[0]
        base = c * PEGS
        for loc in hmv[hm[c]]:
            out.append((loc, pegs.index(loc, base, base + PEGS)))
        return out
    hl: list[Mover] = []
    for c in cols:
        base = c * PEGS
        for loc in hmv[hm[c]]:
            hl.append((loc, pegs.index(loc, base, base + PEGS)))
    hl.sort()
    out.extend(hl)
    return out


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
    h2: list[int] | None = None  # and of the home masks, once a first part goes home
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
                    if b1 or (recolour and (hm[c1] & ~(
                            (1 << (loc1 - HOME0 - 1)) if loc1 >= HOME0 else 0)
                            | (1 << (to1 - HOME0 - 1))) == _FULL_HOME):
                        # a bump, or the colour comes home (the rest may go to a partner)
                        _second_on_board(cfg, seat, pegs, occ, rm, hm, movers, cols1,
                                         recolour, 7, pid1, part1, b1, "f", rest, out)
                        continue
                    # into or in home, no bump, the colour not done: the same pegs move
                    # second, every one on the board after the first part (the private copy,
                    # moved in place and put back), as _second_on_board finds them
                    if not copied:
                        o2 = occ[:]
                        r2 = rm[:]
                        copied = True
                    if h2 is None:
                        h2 = hm[:]
                    rm0 = r2[c1]
                    hm0 = h2[c1]
                    if loc1 >= HOME0:
                        h2[c1] &= ~(1 << (loc1 - HOME0 - 1))
                    else:
                        o2[loc1] = -1
                        r2[c1] &= ~(1 << loc1)
                    h2[c1] |= 1 << (to1 - HOME0 - 1)  # forward: the peg ends in home
                    for loc2, pid2, _fw2 in fws:
                        if pid2 == pid1:
                            continue
                        for to2, b2 in _dests(cfg, "f", pid2, loc2, rest, r2, h2, o2):
                            app((7, (part1, ("f", pid2, loc2, to2, rest)), ((), b2)))
                    if loc1 < HOME0:
                        o2[loc1] = pid1
                    r2[c1] = rm0
                    h2[c1] = hm0
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


class _SecondsB(tuple):  # type: ignore[type-arg]
    """A run of team split plays as :class:`~.plays._Seconds` (``(n, total, part1, ents,
    skip, repl, b1)``) whose first part bumped one opponent's peg to start (``b1``): every
    play carries that bump with its first part."""

    __slots__ = ()

    @property
    def n(self) -> int:
        return cast(int, self[0])

    def _segs(self) -> list[list[Cand]]:
        ents = self[3]
        skip = self[4]
        repl = self[5]
        out = []
        for i, e in enumerate(ents):
            if (skip >> i) & 1:
                if repl is not None:
                    seg = repl.get(i)
                    if seg is not None:
                        out.append(seg)
            elif e[5]:
                out.append(e[5])
        return out

    def get(self, k: int) -> Raw:
        for seg in self._segs():
            if k < len(seg):
                part2, b2 = seg[k]
                return (self[1], (self[2], part2), (self[6], b2))
            k -= len(seg)
        raise IndexError("split index out of range")  # unreachable: k < n

    def all(self) -> list[Raw]:
        total = self[1]
        part1 = self[2]
        b1 = self[6]
        return [(total, (part1, part2), (b1, b2)) for seg in self._segs()
                for part2, b2 in seg]


_new_seconds_b = partial(tuple.__new__, _SecondsB)


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


def _recomputed(cfg: Cfg, skip: int, ents: list[Any], k2: str, rest: int, o2: list[int],
                r2: list[int], h2: list[int]) -> tuple[int, dict[int, list[Cand]] | None]:
    """The second parts of the entries in ``skip`` (a mask of indexes into ``ents``) found
    again on the board a first part left (``o2``, ``r2``, ``h2``): the change in the count of
    plays and the replacements by entry index (None when every one is left without a part)."""
    repl: dict[int, list[Cand]] | None = None
    dn = 0
    m = skip
    while m:
        low = m & -m
        j = low.bit_length() - 1
        m ^= low
        pid2, _c2, _dep, _land2, loc2, parts2 = ents[j]
        dn -= len(parts2)
        seg = [((k2, pid2, loc2, to2, rest), b2)
               for to2, b2 in _dests(cfg, k2, pid2, loc2, rest, r2, h2, o2)]
        if seg:
            if repl is None:
                repl = {j: seg}
            else:
                repl[j] = seg
            dn += len(seg)
    return dn, repl


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
    team_of = cfg.team_of
    tadd = cfg.tadd
    tdist = cfg.tdist
    allm = 0  # every ring peg
    for v in rm:
        allm |= v
    len0 = len(out)  # (every item appended is a run)
    extra = 0
    rows: dict[str, dict[int, list[list[Cand]]]] = {}
    flat: dict[str, list[list[Entry]]] = {}
    chained: dict[str, list[list[tuple[int, int]]]] = {}
    basen: dict[str, list[int]] = {}
    # mpos[pid]: the mover index of peg pid, -1 for a peg that is no mover; R entries -1
    # follow, so an empty hole's occupant (state.EMPTY: -1 - hole, a negative index into
    # them) reads as no mover
    mpos = [-1] * (cfg.n * PEGS + R)
    bycol: dict[int, list[int]] = {}
    ringcol: dict[int, list[int]] = {}  # the same, ring movers only
    for i, (loc, pid) in enumerate(movers):
        mpos[pid] = i
        c = pid // PEGS
        lst = bycol.get(c)
        if lst is None:
            bycol[c] = [i]
        else:
            lst.append(i)
        if loc < HOME0:
            lst = ringcol.get(c)
            if lst is None:
                ringcol[c] = [i]
            else:
                lst.append(i)
    # per mover: the index of the ring peg of its colour ahead of it and of the one behind
    # it (ring order; -1: none), indexed by whether a second part goes forward
    nbrs: list[tuple[int, int]] = [(-1, -1)] * len(movers)
    for rg in ringcol.values():
        nr = len(rg)
        if nr >= 2:
            for t, jr in enumerate(rg):
                nbrs[jr] = (rg[t + 1 - nr], rg[t - 1])
    # (a literal list of empty lists is one BUILD_LIST; a comprehension is a call)
    for kind in ("f",) if total == 7 else ("f", "b"):
        tab = rows[kind] = {}
        fl: list[list[Entry]] = ([[], [], [], [], [], [], []] if total == 7 else
                                 [[], [], [], [], [], [], [], [], []])
        ch: list[list[tuple[int, int]]] = ([[], [], [], [], [], [], []] if total == 7 else
                                           [[], [], [], [], [], [], [], [], []])
        base = [0] * total
        flat[kind] = fl
        chained[kind] = ch
        basen[kind] = base
        fw_kind = kind == "f"
        pm = fwdt if fw_kind else bwdt
        for i, (loc, pid) in enumerate(movers):
            c = pid // PEGS
            tc = team_of[c]
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
            if not pml[top] & allm and (not fw_kind or tdist[c][loc] >= top):
                # no peg on the path and the in-spot out of reach (the common case, written
                # out): every count lands on a free hole, one part each, no chain
                fwf: list[list[Cand]] = [[]]
                tab[pid] = fwf
                xs = tadd[loc]
                for a in amounts:
                    x = xs[a] if fw_kind else (loc - a if loc >= a else loc - a + R)
                    cf: list[Cand] = [((kind, pid, loc, x, a), ())]
                    fwf.append(cf)
                    fl[a].append((pid, c, pml[a] | cbit, 1 << x, loc, cf))
                    base[a] += 1
                continue
            own = rm[c]
            fw: list[list[Cand]] = ([[], [], [], [], [], [], []] if total == 7 else
                                    [[], [], [], [], [], [], [], [], []])
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
            xs = tadd[loc]  # (the hole a ahead: xs[a])
            for a in amounts:
                cands = fw[a]
                x = xs[a] if fw_kind else (loc - a if loc >= a else loc - a + R)  # the landing
                if occ[x] < 0:
                    land = 1 << x
                    if ring_ok:
                        cands.append(((kind, pid, loc, x, a), ()))
                else:
                    q = occ[x]
                    if team_of[q // PEGS] != tc:
                        # an opponent's peg: bumped to start (_chain and _land, inline)
                        land = 1 << x
                        ch[a].append((i, land))
                        if ring_ok:
                            cands.append(((kind, pid, loc, x, a), (_B((q, x, START)),)))
                    else:
                        land = _chain(cfg, pid, x, occ)
                        ch[a].append((i, land))
                        if ring_ok:
                            if (own >> x) & 1:
                                ring_ok = False  # an own peg blocks this count and longer
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
        for i1, (loc1, pid1) in enumerate(movers):
            c1 = pid1 // PEGS
            row1 = tab1[pid1]
            same = bycol[c1]
            bit1 = 1 << i1
            ring1 = loc1 < HOME0
            lbit1 = 1 << loc1 if ring1 else 0
            jn = nbrs[i1][fw2]
            for a in amounts:
                d1 = row1[a]
                if not d1:
                    continue
                rest = total - a
                ents_r = flat2[rest]
                ch2 = chained2[rest]
                n0 = base2[rest] - len(ents_r[i1][5])  # the plays but the first peg's
                jdep = ents_r[jn][2] if jn >= 0 else 0
                for part1, b1 in d1:
                    to1 = part1[3]
                    if ring1 and to1 < HOME0 and (
                            not b1 or (len(b1) == 1 and b1[0][2] == START)):
                        # ring to ring, nothing bumped or one opponent's peg (sent to start:
                        # the team's pegs and the holes they see change as without it), the
                        # same pegs move second (the general case below, written for it):
                        # of the first peg's colour only the ring peg behind it (for a
                        # forward second part) or ahead of it (backward) may see loc1 or to1
                        # (every other one's path ends at a peg of the colour first); of the
                        # other colours the mover whose free landing is to1 and the taken
                        # landings whose chain reads loc1 or to1
                        T = lbit1 | (1 << to1)
                        # (y: the hole rest before or after to1, read with a negative
                        # index for one past the ring's start)
                        j = mpos[occ[to1 - rest if fw2 else to1 + rest - R]]
                        skip = 1 << j if j >= 0 else 0
                        if jdep & T:
                            skip |= 1 << jn
                        for j, m in ch2:
                            if m & T:
                                skip |= 1 << j
                        if not skip or skip == bit1:
                            # nothing to recompute (the common case, written out)
                            if n0:
                                if b1:
                                    app(_new_seconds_b((n0, total, part1, ents_r, bit1, None,
                                                        b1)))
                                else:
                                    app(_new_seconds((n0, total, part1, ents_r, bit1, None)))
                                extra += n0 - 1
                            continue
                        skip &= ~bit1
                        n = n0
                        repl: dict[int, list[Cand]] | None = None
                        if skip:
                            if o2 is None:
                                o2 = occ[:]
                                r2 = rm[:]
                                h2 = hm[:]
                            rm0 = r2[c1]
                            o2[loc1] = -1
                            o2[to1] = pid1
                            r2[c1] = rm0 ^ T
                            if b1:  # the opponent's peg leaves the ring
                                r2[b1[0][0] // PEGS] ^= 1 << to1
                            dn, repl = _recomputed(cfg, skip, ents_r, k2, rest, o2, r2, h2)
                            n += dn
                            o2[loc1] = pid1
                            o2[to1] = occ[to1]
                            r2[c1] = rm0
                            if b1:
                                r2[b1[0][0] // PEGS] ^= 1 << to1
                        if n:
                            if b1:
                                app(_new_seconds_b((n, total, part1, ents_r, skip | bit1, repl,
                                                    b1)))
                            else:
                                app(_new_seconds((n, total, part1, ents_r, skip | bit1,
                                                  repl)))
                            extra += n - 1
                        continue
                    home_c = c1 if (to1 >= HOME0 or loc1 >= HOME0) else -1
                    if (not b1 or (len(b1) == 1 and b1[0][2] == START)) and not (
                            recolour and to1 >= HOME0):
                        # the common case: nothing bumped, or one opponent's peg (sent to
                        # start: the team's pegs and the holes they see change as without
                        # it), the same pegs move second
                        T = 0 if home_c < 0 else 1 << (R + home_c)
                        if 0 <= loc1 < HOME0:
                            T |= 1 << loc1
                        skip = 0
                        if to1 < HOME0:
                            T |= 1 << to1
                            # the mover whose landing is to1 (free on the original board)
                            j = mpos[occ[to1 - rest if fw2 else to1 + rest - R]]
                            if j >= 0:
                                skip = 1 << j
                        for j in same:
                            if ents_r[j][2] & T:
                                skip |= 1 << j
                        for j, m in chained2[rest]:
                            if m & T:
                                skip |= 1 << j
                        skip &= ~bit1
                        n = n0
                        repl = None
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
                                if b1:  # the opponent's peg leaves the ring
                                    r2[b1[0][0] // PEGS] ^= 1 << to1
                            dn, repl = _recomputed(cfg, skip, ents_r, k2, rest, o2, r2, h2)
                            n += dn
                            if loc1 < HOME0:
                                o2[loc1] = pid1
                            if to1 < HOME0:
                                o2[to1] = occ[to1]
                                if b1:
                                    r2[b1[0][0] // PEGS] ^= 1 << to1
                            r2[c1] = rm0
                            h2[c1] = hm0
                        if n:
                            if b1:
                                app(_new_seconds_b((n, total, part1, ents_r, skip | bit1, repl,
                                                    b1)))
                            else:
                                app(_new_seconds((n, total, part1, ents_r, skip | bit1,
                                                  repl)))
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
                        j = mpos[pid2]
                        if j >= 0 and pegs[pid2] == loc2 and pid2 // PEGS != home_c:
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
                        extra += nb - 1
    return len(out) > len0, extra
