"""Track game: what the public log says about the hidden hands (used by Nasty's sampler).

What a seat's plays reveal, rule set by rule set:

* **Cards played** are public (the discard pile of the view), so ``determinize`` already deals
  them to nobody. Nothing more to do.
* **tees folds**: a seat with no playable card folds and its cards go face up onto the discard
  pile; it holds nothing until the next deal. So a fold says nothing about any hidden card
  (the folded cards are in the view, the folder's hand count is 0).
* **classic/team discards** (``9:x``, ``JK:x``): a seat may discard only when none of its
  non-joker cards can move a peg (a joker is never forced). So the cards it held then, except
  the one it discarded and jokers, are of ranks that could not move *on the board of that
  moment*. Classic draws at the start of a turn, so until that seat's next turn its hand is
  exactly those cards; team draws right after the play, so its hand is those cards plus one
  unknown card.

The board of that moment is the board of the view when every play since that discard was a
discard too (no peg has moved since: the common case in the opening, when pegs wait in start
for a come-out card). Only such discards are used: reconstructing older boards would need
the bumps, which the tokens do not record. Each seat's most recent play counts, and only if it
was a discard.

:func:`sample` deals the unseen cards like ``RULES.determinize`` but follows the process that
produced the constrained hands: a constrained seat gets its old cards from the unseen cards of
allowed ranks (jokers allowed), plus (team) one card from anything unseen; then the other
seats and the draw pile get the rest at random. With two constrained seats the deal is
sequential (an approximation of the exact joint posterior; exact for one seat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.rules.cards import JOKER, Rng
from game.rules.track import RULES
from game.rules.track.engine import TrackState, gen_legal

RANK_OF = {"JK": 0, "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
           "T": 10, "J": 11, "Q": 12, "K": 13}


def _is_discard(tok: str) -> bool:
    return tok.endswith(":x")


def movable_ranks(st: TrackState, seat: int) -> frozenset[int]:
    """Non-joker ranks that would have a legal (non-discard) play for ``seat`` on ``st``'s
    board (the seat holding one card of every rank)."""
    s = st.copy()
    s.turn = seat
    hands = list(s.hands)
    hands[seat] = tuple(r * 4 for r in range(1, 14))
    s.hands = tuple(hands)
    s._legal = None
    out = set()
    for p in gen_legal(s):
        tok = str(p)
        if _is_discard(tok):
            continue
        r = RANK_OF.get(tok.split(":", 1)[0], JOKER)
        if r != JOKER:
            out.add(r)
    return frozenset(out)


def discard_constraints(view: Mapping[str, Any], history: Sequence[Mapping[str, Any]],
                        st: TrackState | None = None) -> dict[int, frozenset[int]]:
    """``{seat: ranks}``: for each other seat whose most recent play was a discard made on the
    board of the view (only discards since), the ranks its old cards cannot be (classic/team;
    tees: always empty). ``st``: any determinized state of ``view`` (made if not given)."""
    rules = view["config"].get("rules")
    if rules not in ("classic", "team") or not history:
        return {}
    me = view["seat"]
    log: list[tuple[int, str]] = []
    for h in history:
        try:
            log.append((int(h["seat"]), str(h["play"])))
        except (KeyError, TypeError, ValueError):
            return {}  # a log we cannot read says nothing
    last: dict[int, int] = {}
    for i, (s, _) in enumerate(log):
        last[s] = i
    out: dict[int, frozenset[int]] = {}
    for s, i in sorted(last.items()):
        if s == me or not _is_discard(log[i][1]):
            continue
        if not all(_is_discard(t) for _, t in log[i + 1:]):
            continue
        if st is None:
            st = RULES.determinize(view, 0)
        if not 0 <= s < st.cfg.n or not st.hands[s]:
            continue
        ranks = movable_ranks(st, s)
        if ranks:
            out[s] = ranks
    return out


def consistent(st: TrackState, cons: Mapping[int, frozenset[int]]) -> bool:
    """Does the deal ``st`` agree with the constraints (classic: no card of a barred rank in
    the seat's hand; team: at most one, the card drawn since)?"""
    extra = 1 if st.cfg.conf.get("rules") == "team" else 0
    for s, barred in cons.items():
        if sum(1 for c in st.hands[s] if (c >> 2) in barred and c != JOKER) > extra:
            return False
    return True


def sample(view: Mapping[str, Any], seed: int, cons: Mapping[int, frozenset[int]]
           ) -> TrackState:
    """A determinized state of ``view`` whose hidden hands follow ``cons`` (see the module)."""
    st = RULES.determinize(view, seed)
    if not cons:
        return st
    me = view["seat"]
    team = st.cfg.conf.get("rules") == "team"
    pool = [c for s, h in enumerate(st.hands) if s != me for c in h] + list(st.pile)
    rng = Rng.from_seed(f"infer/{seed}")
    rng.shuffle(pool)
    hands = list(st.hands)
    for s in sorted(cons):
        barred = cons[s]
        k = len(st.hands[s])
        old = k - 1 if team else k
        allowed = [i for i, c in enumerate(pool) if c == JOKER or (c >> 2) not in barred]
        if len(allowed) < old:
            continue  # cannot be (a log from elsewhere): leave this seat to chance
        take = set(allowed[:old])
        hand = [pool[i] for i in sorted(take)]
        pool = [c for i, c in enumerate(pool) if i not in take]
        if team and k:
            hand.append(pool.pop(0))
        hands[s] = tuple(sorted(hand))
    for s in range(len(hands)):
        if s == me or s in cons:
            continue
        k = len(st.hands[s])
        hands[s] = tuple(sorted(pool[:k]))
        pool = pool[k:]
    s2 = st.copy()
    s2.hands = tuple(hands)
    s2.pile = tuple(pool)
    s2._legal = None
    return s2
