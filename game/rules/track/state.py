"""The track engine's state (:class:`TrackState`) and its board: the ring occupancy and
the per-colour ring and home masks of a state (cached), and the moves of a play's parts on
them (both apply paths)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from game.rules.fields import CACHE, SHARE, UNKEYED, FieldState, derive, spec
from game.rules.track.board import PEGS
from game.rules.track.config import (
    HOME0,
    TEAM,
    Cfg,
)
from game.rules.track.plays import (
    BoardLists,
    Bumps,
    Play,
    _get_parts,
)

# --------------------------------------------------------------------------------------------
# State


@dataclass(slots=True, kw_only=True, eq=False, repr=False)
class TrackState(FieldState):
    """A full game state. Treat as immutable: the engine builds new states, never edits one.

    The fields below are the one list of what a state holds: ``copy``, ``key``, equality and
    pickling derive from it (:mod:`game.rules.fields`); the C core reads and writes the same
    slots by name."""

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


#: [hole]: the value of an empty ring hole in an occupancy list, ``-1 - hole`` (negative, as
#: every reader tests: ``occ[x] < 0``). One distinct int object per hole, made once: a list
#: holding the same object in most of its slots copies at a fraction of the speed (each copy
#: counts a reference on that one object, one after the other), and the quiet apply copies
#: the occupancy on every play. A board is equal to :func:`_boards` of its pegs only when
#: every emptied hole gets its own value back (``occ[x] = EMPTY[x]``), as the applies do.
EMPTY: tuple[int, ...] = tuple(-1 - x for x in range(18 * 8))  # the ring of 8 seats, the largest


def _boards(cfg: Cfg, pegs: Sequence[int]) -> BoardLists:
    occ = list(EMPTY[:cfg.R])
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
    moved = (*bumps, (pid, pegs[pid], to))  # the bumped pegs, then the mover
    for q, qf, _ in moved:
        c = q // PEGS
        if qf >= HOME0:
            hm[c] &= ~(1 << (qf - HOME0 - 1))
        elif qf >= 0:
            if occ[qf] == q:
                occ[qf] = EMPTY[qf]
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
                occ[frm] = EMPTY[frm]
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
