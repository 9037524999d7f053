"""CPU players for the layout game (Trash): Easy, Tricky, Nasty and the hint's reasons.

A seat's only decisions are where to take a card from (``S`` stock / ``D`` top discard) and
where a wild card goes (``W<i>``). Everything is read from the seat's view.

* **Easy** takes a live top discard only some of the time and puts a wild card on any
  face-down place (picked at random from the seed).
* **Tricky** always takes a live top discard, and puts a wild card on the face-down place whose
  rank it has seen most often among the face-up cards on the table right now (every layout and
  the top discard): the rank least likely to come, by what it sees at a glance.
* **Nasty** counts cards: the unseen cards (the stock and every face-down card) are the pack
  minus every face-up card, the whole discard pile and the card in hand. A wild card goes where
  the fewest copies of the place's rank are left unseen; with a budget, close choices (and the
  choice of passing on a dead discard versus drawing late in a hand) are settled by sampling
  deals consistent with the view and playing the hand out with the Tricky policy for everyone.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from game.rules.cards import Rng
from game.rules.layout import RULES, engine
from game.rules.layout.engine import OVER, SOURCE, UP, State

RANK_WORDS = ("", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")


def _wild_rank(view: Mapping[str, Any]) -> int:
    return 11 if str(view["config"].get("wild", "J")).upper() == "J" else 13


def live_for(view: Mapping[str, Any], seat: int, card: int) -> bool:
    """Would ``card`` be placed if ``seat`` took it now (same test as the engine's)?"""
    r = card >> 2
    lay = view["layouts"][seat]
    if r == _wild_rank(view):
        return any(v is None for v in lay)
    if r > 10 or r > view["sizes"][seat]:
        return False
    v = lay[r - 1]
    return v is None or (v >> 2) == _wild_rank(view)


def unseen_by_rank(view: Mapping[str, Any]) -> list[int]:
    """Copies of each rank not visible anywhere (in the stock or face down), by rank 0..13."""
    n = view["config"]["seats"]
    decks = (n + 1) // 2
    cnt = [0] + [4 * decks] * 13
    for lay in view["layouts"]:
        for v in lay:
            if v is not None:
                cnt[v >> 2] -= 1
    for c in view["discard"]:
        cnt[c >> 2] -= 1
    if view.get("holding") is not None:
        cnt[view["holding"] >> 2] -= 1
    return [max(0, x) for x in cnt]


def glance_counts(view: Mapping[str, Any]) -> list[int]:
    """Copies of each rank visible on the table now (face up in layouts, the top discard)."""
    cnt = [0] * 14
    for lay in view["layouts"]:
        for v in lay:
            if v is not None:
                cnt[v >> 2] += 1
    if view["discard"]:
        cnt[view["discard"][-1] >> 2] += 1
    return cnt


def _face_down(view: Mapping[str, Any], seat: int) -> list[int]:
    return [i + 1 for i, v in enumerate(view["layouts"][seat]) if v is None]


def _wild_by(counts: Sequence[int], legal: Sequence[str], most: bool) -> str:
    """The wild token whose place rank has the most (``most``) / fewest counted copies."""
    best = legal[0]
    bv: float = -1e9
    for tok in legal:
        place = int(tok[1:])
        v = counts[place] if most else -counts[place]
        v += place * 1e-3  # ties: the higher place (fewer of those places across the table)
        if v > bv:
            bv = v
            best = tok
    return best


def easy(view: Mapping[str, Any], legal: Sequence[str], seed: int) -> str:
    rng = Rng.from_seed(f"easy-layout/{seed}/{view.get('ply', 0)}")
    if legal[0].startswith("W"):
        return legal[rng.below(len(legal))]
    if "D" in legal and "S" in legal:
        top = view["discard"][-1]
        if live_for(view, view["turn"], top) and rng.random() < 0.35:
            return "D"
        return "S"
    return legal[0]


def tricky(view: Mapping[str, Any], legal: Sequence[str], seed: int) -> str:
    if legal[0].startswith("W"):
        return _wild_by(glance_counts(view), legal, most=True)
    if "D" in legal and "S" in legal:
        return "D" if live_for(view, view["turn"], view["discard"][-1]) else "S"
    return legal[0]


# ------------------------------------------------------------------------------- simulation


def _sim_live(st: State, seat: int, c: int) -> bool:
    return engine.is_live(st, seat, c)


def _sim_policy_take(st: State) -> None:
    """Tricky policy on a full state: take a live discard, else the stock."""
    disc = st.disc
    live = bool(disc) and _sim_live(st, st.turn, disc[-1])
    if live:
        engine.take(st, False, None)
    elif engine.can_draw_stock(st):
        engine.take(st, True, None)
    else:
        engine.take(st, False, None)


def _sim_policy_wild(st: State) -> None:
    lay = st.lay[st.turn]
    cnt = [0] * 14
    for p in st.lay:
        for v in p:
            if v >= UP:
                cnt[(v & 63) >> 2] += 1
    if st.disc:
        cnt[st.disc[-1] >> 2] += 1
    best = -1
    bv = -1e9
    for i, v in enumerate(lay):
        if v < UP:
            s = cnt[i + 1] + (i + 1) * 1e-3
            if s > bv:
                bv = s
                best = i
    engine.place_wild(st, best + 1, None)


def _play_out_hand(st: State, seat: int, max_ply: int = 4000) -> float:
    """Play the current hand to its end with the Tricky policy; 1 if ``seat`` wins it."""
    hand = st.hand
    ply = 0
    while st.phase != OVER and st.hand == hand and ply < max_ply:
        if st.phase == SOURCE:
            _sim_policy_take(st)
        else:
            _sim_policy_wild(st)
        ply += 1
    if st.phase == OVER:
        return 1.0 if seat in st.winners else 0.0
    return 1.0 if st.leader == seat and st.hand != hand else 0.0


def _apply_tok(st: State, tok: str) -> None:
    if tok == "S":
        engine.take(st, True, None)
    elif tok == "D":
        engine.take(st, False, None)
    else:
        engine.place_wild(st, int(tok[1:]), None)


class SearchStats:
    samples = 0


def _sample(view: Mapping[str, Any], cands: Sequence[str], seed: int, budget_ms: float,
            max_samples: int | None) -> list[float] | None:
    t0 = time.perf_counter()
    deadline = t0 + budget_ms / 1000.0
    seat = view["turn"]
    wins = [0.0] * len(cands)
    k = 0
    per = 0.0
    while max_samples is None or k < max_samples:
        now = time.perf_counter()
        if max_samples is None and now + per * 1.2 > deadline:
            break
        det = RULES.determinize(view, (seed * 1000003 + k * 7919 + 5) & ((1 << 62) - 1))
        for j, tok in enumerate(cands):
            s = det.copy()
            _apply_tok(s, tok)
            wins[j] += _play_out_hand(s, seat)
        k += 1
        el = time.perf_counter() - now
        per = el if k == 1 else 0.7 * per + 0.3 * el
    SearchStats.samples = k
    if k == 0:
        return None
    return [w / k for w in wins]


def nasty(view: Mapping[str, Any], legal: Sequence[str], seed: int, budget_ms: float,
          max_samples: int | None = None) -> str:
    SearchStats.samples = 0
    seat = view["turn"]
    unseen = unseen_by_rank(view)
    if legal[0].startswith("W"):
        base = _wild_by(unseen, legal, most=False)
        if len(legal) == 1:
            return base
        # the two best places by the count, then the rest by count; sample if there is time
        ranked = sorted(legal, key=lambda t: (unseen[int(t[1:])], -int(t[1:])))
        cands = ranked[:3]
        if budget_ms < 30 and max_samples is None:
            return base
        res = _sample(view, cands, seed, budget_ms, max_samples)
        if res is None:
            return base
        best = 0
        for j in range(1, len(cands)):
            if res[j] > res[best] + 1e-9:
                best = j
        return cands[best]
    if "D" in legal and "S" in legal:
        top = view["discard"][-1]
        if live_for(view, seat, top):
            return "D"
        # the chance the stock gives us a live card, by the count
        need = 0
        for i, v in enumerate(view["layouts"][seat]):
            if v is None or (v >> 2) == _wild_rank(view):
                need += unseen[i + 1]
        if any(v is None for v in view["layouts"][seat]):
            need += unseen[_wild_rank(view)]
        total = sum(unseen)
        p_live = need / total if total else 0.0
        if p_live >= 0.25 or (budget_ms < 30 and max_samples is None):
            return "S"
        res = _sample(view, ["S", "D"], seed, budget_ms, max_samples)
        if res is None or res[0] >= res[1]:
            return "S"
        return "D"
    return legal[0]


def explain(view: Mapping[str, Any], token: str) -> str:
    seat = view["turn"]
    if token == "D":
        top = view["discard"][-1]
        r = top >> 2
        if r == _wild_rank(view):
            return f"takes the {RANK_WORDS[r]} from the discards: a wild card for a face-down place"
        lay = view["layouts"][seat]
        if r <= len(lay) and lay[r - 1] is not None and live_for(view, seat, top):
            return (f"takes the {RANK_WORDS[r]} from the discards: it frees the wild card on "
                    f"your {RANK_WORDS[r]} place")
        if live_for(view, seat, top):
            return f"takes the {RANK_WORDS[r]} from the discards: it fills your {RANK_WORDS[r]} place"
        return "takes back the dead discard: the stock is unlikely to help you now"
    if token == "S":
        if view["discard"] and "D" in view.get("legal", ["D"]):
            r = view["discard"][-1] >> 2
            return f"the {RANK_WORDS[r]} on the discards is no use to you: draw from the stock"
        return "draws from the stock"
    place = int(token[1:])
    unseen = unseen_by_rank(view)
    left = unseen[place]
    word = RANK_WORDS[place]
    if left == 0:
        return f"every {word} is already showing: only a wild card can fill that place"
    return (f"only {left} {word}{'s' if left != 1 else ''} left unseen: the wild card fills the "
            "place least likely to come")


def hint(view: Mapping[str, Any], legal: Sequence[str], seed: int, budget_ms: float
         ) -> tuple[str, str]:
    tok = nasty(view, legal, seed, budget_ms)
    return tok, explain(view, tok)
