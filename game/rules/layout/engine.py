"""The layout game (Trash) engine core: the state and every automatic step of a turn.

Representation (chosen for speed: small ints and flat lists, copied with slices):

* a card is the shared ``rank * 4 + suit`` int (no jokers in this game);
* a place of a layout is one int: a face-down card is the card itself (< 64), a face-up card is
  ``card | 64`` (natural when its rank is the place number, else it is a wild card);
* piles are lists whose **top is the last element** (``pop()`` draws);
* ``down[s]`` counts the face-down places of seat ``s`` so that "complete" is one compare.

The mutating functions below (``_start_turn``, ``_take``, ``_place_wild`` ...) work in place on
a state the caller owns; ``ev`` is the event list to append to, or ``None`` on the fast
simulation path, which builds no events at all. The public, non-mutating API lives in
:mod:`game.rules.layout.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.rules.cards import below, shuffle_grouped
from game.rules.fields import LIST, ROWS, SHARE, UNKEYED, FieldState, derive, spec

UP = 64  # face-up bit of a place
CARD = 63  # mask back to the card

SOURCE, WILD, OVER = 0, 1, 2  # phases: the seat to move picks a source / a place for a wild
PHASE_NAMES = ("source", "wild", "over")

Event = dict[str, Any]

# The layout deals use the project's one generator and its grouped shuffle (game.rules.cards);
# these names stay for existing callers.
shuffle_ints = shuffle_grouped
below_int = below


@dataclass(slots=True, kw_only=True, eq=False, repr=False)
class State(FieldState):
    """One position of a layout game. Treat as immutable outside this package.

    The fields below are the one list of what a state holds: ``copy``, ``key``, equality and
    pickling derive from it (:mod:`game.rules.fields`)."""

    cfg: dict[str, Any] = field(metadata=spec(key="tuple(sorted({}.items()))"))  # normalized
    seed: int = field(metadata=SHARE)
    n: int = field(metadata=UNKEYED)  # seats (from cfg)
    decks: int = field(metadata=UNKEYED)  # decks in the pack (from cfg)
    wild: int = field(metadata=UNKEYED)  # the wild rank, 11 or 13 (from cfg)
    sizes: list[int] = field(metadata=LIST)  # per seat, the layout size it still plays
    lay: list[list[int]] = field(metadata=ROWS)  # per seat, its places (card, | UP face up)
    down: list[int] = field(metadata=spec(copy="list", key=None))  # face-down places (from lay)
    stock: list[int] = field(metadata=LIST)  # top is the last card
    disc: list[int] = field(metadata=LIST)  # the discard pile, top last
    hold: int = field(metadata=SHARE)  # the wild card waiting for a place, -1 if none
    turn: int = field(metadata=SHARE)
    phase: int = field(metadata=SHARE)  # SOURCE, WILD or OVER
    rng: int = field(metadata=SHARE)  # the generator state (cards.splitmix64)
    hand: int = field(metadata=SHARE)  # the hand number, from 1
    leader: int = field(metadata=SHARE)  # the seat who leads this hand
    lc_first: int = field(metadata=SHARE)  # last chance: the first to complete, -1 if none
    lc_done: list[int] = field(metadata=LIST)  # last chance: the seats who completed
    lc_left: list[int] = field(metadata=LIST)  # last chance: the seats still to play
    passes: int = field(metadata=SHARE)  # turns passed in a row (nothing to take)
    ply: int = field(metadata=SHARE)  # plays applied
    winners: list[int] = field(metadata=LIST)  # the game's winners once over

    def __repr__(self) -> str:
        from game.rules.layout.notation import format_position

        return f"<layout {format_position(self)}>"


derive(State)  # its copy, key, equality and pickling (FieldState)


_PACKS = [[r * 4 + s for r in range(1, 14) for s in range(4)] * d for d in range(5)]


def full_pack(decks: int) -> list[int]:
    """``decks`` standard decks without jokers, in order (a new list)."""
    return _PACKS[decks][:]


# ----------------------------------------------------------------------------------- dealing


def deal(st: State, ev: list[Event] | None) -> None:
    """Shuffle a full pack and deal every layout face down; the leader is to move."""
    pack = full_pack(st.decks)
    st.rng = shuffle_grouped(pack, st.rng)
    sizes = st.sizes
    lay = []
    k = len(pack)
    for s in range(st.n):
        size = sizes[s]
        lay.append(pack[k - size:k])
        k -= size
    st.lay = lay
    st.down = sizes[:]
    del pack[k:]
    st.stock = pack
    st.disc = [pack.pop()] if st.cfg["upcard"] else []
    st.hold = -1
    st.phase = SOURCE
    st.lc_first = -1
    st.lc_done = []
    st.lc_left = []
    st.passes = 0
    st.turn = st.leader
    if ev is not None:
        ev.append({
            "type": "dealt", "hand": st.hand, "sizes": sizes[:], "leader": st.leader,
            "stock": len(st.stock), "upcard": st.disc[-1] if st.disc else None,
        })
    start_turn(st, ev)


# ------------------------------------------------------------------------------------ turns


def is_live(st: State, seat: int, c: int) -> bool:
    """Would ``c`` be placed (not stop at once) if ``seat`` took it now?"""
    r = c >> 2
    if r == st.wild:
        return st.down[seat] > 0
    if r > 10 or r > st.sizes[seat]:
        return False
    v = st.lay[seat][r - 1]
    return v < UP or ((v & CARD) >> 2) == st.wild


def can_draw_stock(st: State) -> bool:
    return bool(st.stock) or len(st.disc) >= 2


def start_turn(st: State, ev: list[Event] | None) -> None:
    """The turn has just passed to ``st.turn``: pass it on at once if there is no choice."""
    while True:
        s = st.turn
        if ev is not None:
            ev.append({"type": "turn", "seat": s})
        if st.stock or len(st.disc) >= 2:
            return
        if st.disc and is_live(st, s, st.disc[-1]):
            return
        # Stock and discards exhausted and nothing live to take: the turn passes.
        if ev is not None:
            ev.append({"type": "passed", "seat": s})
        st.passes += 1
        if st.lc_first >= 0:
            st.lc_left.pop(0)
            if not st.lc_left:
                finish_hand(st, st.lc_done[:], ev)
                return
            st.turn = st.lc_left[0]
            continue
        if st.passes >= st.n:
            # Nobody can take the lone card: the hand is dead (only reachable from a hand-built
            # position: a real pack always leaves 31+ cards between stock and discards).
            if ev is not None:
                ev.append({"type": "hand_dead", "hand": st.hand})
            st.hand += 1
            deal(st, ev)
            return
        st.turn = (s + 1) % st.n


def end_turn(st: State, ev: list[Event] | None) -> None:
    st.passes = 0
    st.hold = -1
    st.phase = SOURCE
    if st.lc_first >= 0:
        left = st.lc_left
        if left and left[0] == st.turn:
            left.pop(0)
        if not left:
            finish_hand(st, st.lc_done[:], ev)
            return
        st.turn = left[0]
    else:
        st.turn = (st.turn + 1) % st.n
    start_turn(st, ev)


def take(st: State, from_stock: bool, ev: list[Event] | None) -> None:
    """The seat to move takes the top of the stock or of the discard pile and plays it out."""
    s = st.turn
    if from_stock:
        stock = st.stock
        if not stock:
            disc = st.disc
            top = disc.pop()
            stock = disc
            st.rng = shuffle_grouped(stock, st.rng)
            st.stock = stock
            st.disc = [top]
            if ev is not None:
                ev.append({"type": "reshuffled", "stock": len(stock), "top": top})
        c = stock.pop()
    else:
        c = st.disc.pop()
    if ev is not None:
        ev.append({
            "type": "drawn", "seat": s, "source": "stock" if from_stock else "discard", "card": c,
        })
    resolve(st, c, ev)


def resolve(st: State, c: int, ev: list[Event] | None) -> None:
    """Play the card in hand out: placements, reveals and displacements until a stop."""
    s = st.turn
    lay = st.lay[s]
    size = st.sizes[s]
    wild = st.wild
    down = st.down
    while True:
        r = c >> 2
        if r == wild:
            if down[s] == 1:  # one face-down place left: no choice to make
                for i in range(size):
                    if lay[i] < UP:
                        break
                v = lay[i]
                lay[i] = c | UP
                down[s] = 0
                if ev is not None:
                    ev.append({"type": "wild_placed", "seat": s, "place": i + 1, "card": c})
                    ev.append({"type": "revealed", "seat": s, "place": i + 1, "card": v})
                complete(st, v, ev)
                return
            st.hold = c
            st.phase = WILD
            return
        if r > 10 or r > size:
            reason = "stopper" if r > 10 else "dead"
            break
        v = lay[r - 1]
        if v < UP:
            lay[r - 1] = c | UP
            down[s] -= 1
            if ev is not None:
                ev.append({"type": "placed", "seat": s, "place": r, "card": c})
                ev.append({"type": "revealed", "seat": s, "place": r, "card": v})
            if down[s] == 0:
                complete(st, v, ev)
                return
            c = v
            continue
        v &= CARD
        if (v >> 2) == wild:
            lay[r - 1] = c | UP
            if ev is not None:
                ev.append({"type": "placed", "seat": s, "place": r, "card": c})
                ev.append({"type": "wild_displaced", "seat": s, "place": r, "card": v})
            # (no completion check: taking back a wild card leaves the face-down count as it
            # was, and that was not zero at the start of the turn)
            c = v
            continue
        reason = "filled"
        break
    disc = st.disc
    disc.append(c)
    if ev is None and st.lc_first < 0:
        # the simulation fast path of end_turn/start_turn (hold and phase are already clear)
        st.passes = 0
        st.turn = (s + 1) % st.n
        if st.stock or len(disc) >= 2:
            return
        start_turn(st, None)
        return
    if ev is not None:
        ev.append({"type": "discarded", "seat": s, "card": c, "reason": reason})
    end_turn(st, ev)


def place_wild(st: State, place: int, ev: list[Event] | None) -> None:
    """The wild card in hand goes face up on face-down ``place`` (1-based)."""
    s = st.turn
    lay = st.lay[s]
    c = st.hold
    v = lay[place - 1]
    lay[place - 1] = c | UP
    st.down[s] -= 1
    st.hold = -1
    st.phase = SOURCE
    if ev is not None:
        ev.append({"type": "wild_placed", "seat": s, "place": place, "card": c})
        ev.append({"type": "revealed", "seat": s, "place": place, "card": v})
    if st.down[s] == 0:
        complete(st, v, ev)
        return
    resolve(st, v, ev)


def complete(st: State, c: int, ev: list[Event] | None) -> None:
    """The seat to move has no face-down place left; ``c`` is the card still in hand."""
    s = st.turn
    st.disc.append(c)
    if ev is not None:
        ev.append({"type": "discarded", "seat": s, "card": c, "reason": "complete"})
        ev.append({"type": "completed", "seat": s, "last_chance": bool(st.cfg["last_chance"])})
    if not st.cfg["last_chance"]:
        finish_hand(st, [s], ev)
        return
    if st.lc_first < 0:
        st.lc_first = s
        st.lc_done = [s]
        n = st.n
        st.lc_left = [s] + [(s + k) % n for k in range(1, n)]
    else:
        st.lc_done.append(s)
    end_turn(st, ev)


def finish_hand(st: State, winners: list[int], ev: list[Event] | None) -> None:
    sizes = st.sizes
    for w in winners:
        sizes[w] -= 1
    st.hold = -1
    st.leader = winners[0]
    if ev is not None:
        ev.append({
            "type": "hand_won", "hand": st.hand, "winners": winners[:], "sizes": sizes[:],
            "leader": winners[0],
        })
    done = [w for w in winners if sizes[w] == 0]
    if done:
        st.phase = OVER
        st.winners = done
        st.lc_first = -1
        st.lc_done = []
        st.lc_left = []
        if ev is not None:
            ev.append({"type": "game_won", "winners": done[:]})
        return
    st.hand += 1
    deal(st, ev)
