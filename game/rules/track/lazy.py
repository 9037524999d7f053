"""Runs of classic/team plays counted without being built (the Python generator's lazy
parts): the joker jumps (:class:`_Jokers`, :func:`_joker_run`). A caller that wants a count
and one play (the random driver, ``nth_legal``) pays for the count and that one play; the
list's ``raw`` expands the run (once) into the plays in the generator's order.

A run is a tuple subclass holding its count first (what :class:`~.plays.LegalList` reads off
it) with ``get(k)`` and ``all()``, as the split runs of :mod:`~.plays`."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from game.rules.track.board import PEGS
from game.rules.track.config import HOME0, START, Cfg
from game.rules.track.moves import _land
from game.rules.track.plays import Raw


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

    def _plays_of(self, pid: int, loc: int) -> list[Raw]:
        cfg = self[1]
        occ = self[2]
        c = pid // PEGS
        out: list[Raw] = []
        m = self[4]
        while m:
            lb = m & -m
            x = lb.bit_length() - 1
            m ^= lb
            if occ[x] // PEGS == c:
                continue
            b = _land(cfg, pid, x, occ)
            if b is not None:
                out.append((0, (("j", pid, loc, x, 0),), (b,)))
        return out

    def get(self, k: int) -> Raw:
        for cnt, pid, loc in self[3]:
            if k < cnt:
                return self._plays_of(pid, loc)[k]
            k -= cnt
        raise IndexError("joker index out of range")  # unreachable: k < n

    def all(self) -> list[Raw]:
        out: list[Raw] = []
        for _cnt, pid, loc in self[3]:
            out.extend(self._plays_of(pid, loc))
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
    for src in (starts, minfo):
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
                    while m:
                        lb = m & -m
                        x = lb.bit_length() - 1
                        m ^= lb
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
