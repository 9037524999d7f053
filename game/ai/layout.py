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
  the fewest copies of the place's rank are left unseen; it takes a live top discard and
  otherwise draws (it used to take a dead discard back when the stock looked useless: exact
  forecasts showed that loses). It answers at once.

The sampling search below (determinized deals, every play played out to the end of the hand,
common random numbers) is off (``SEARCH_WILD``/``SEARCH_SOURCE``): measured exactly, no
view-only rule beats Tricky's two (take a live discard, else draw) and where the wild card goes
hardly matters, so the search finds nothing to gain (``docs/ai.md``). The bench oracle
(``bench/layout_oracle.py``) uses :func:`play_out` on the *real* state to measure the ceiling.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from game.rules.cards import Rng

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
        v: float = counts[place] if most else -counts[place]
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


class SearchStats:
    samples = 0


def _live_share(view: Mapping[str, Any], seat: int, unseen: Sequence[int]) -> float:
    """Share of the unseen cards that would be live for ``seat`` (its open places + wilds)."""
    total = sum(unseen)
    if not total:
        return 0.0
    w = _wild_rank(view)
    lay = view["layouts"][seat]
    need = 0
    for i, v in enumerate(lay):
        if v is None or (v >> 2) == w:
            need += unseen[i + 1]
    if any(v is None for v in lay):
        need += unseen[w]
    return need / total


def count_choice(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    """The counting rule (Nasty's default before its search): wild cards go where the fewest
    copies of the place's rank are unseen; a live discard is always taken; a dead one is left
    (drawing) unless the stock is very unlikely to help us while the card we would end up
    discarding is likely to help the next player and the top discard is dead for them (then
    taking the dead card back passes safely)."""
    seat = view["turn"]
    unseen = unseen_by_rank(view)
    if legal[0].startswith("W"):
        return _wild_by(unseen, legal, most=bool(WILD_MOST))
    if "D" in legal and "S" in legal:
        top = view["discard"][-1]
        if live_for(view, seat, top):
            return "D"
        n = view["config"]["seats"]
        nxt = (seat + 1) % n
        p_me = _live_share(view, seat, unseen)
        p_them = _live_share(view, nxt, unseen)
        if not live_for(view, nxt, top) and p_me < PASS_RATIO * p_them and p_me < 0.15:
            return "D"
        return "S"
    return legal[0]


WILD_MOST = 0.0  # experiments: 1 puts a wild card where the MOST copies are unseen
PASS_RATIO = 0.0  # was 0.3: exact forecasts show passing loses in every bucket (docs/ai.md)


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
            w = RANK_WORDS[r]
            return f"takes the {w} from the discards: it fills your {w} place"
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


def hint(view: Mapping[str, Any], legal: Sequence[str], seed: int, budget_ms: float,
         history: Sequence[Mapping[str, Any]] = ()) -> tuple[str, str]:
    tok = nasty(view, legal, seed, budget_ms)
    return tok, explain(view, tok)


# ------------------------------------------------------------------------- sampling search
#
# The rollout policy works on a full engine state (a determinized sample, never the real one)
# through the engine's fast path: it takes a live top discard, else draws, and puts a wild card
# on the face-down place whose rank shows most on the table (Tricky's rule, from the state's
# face-up cards). Hands are short (about ten turns in two-player games), so a rollout plays the
# hand out to its end and the score is simply whether our seat won it.

ROLLOUT_TURNS = 400  # a safety bound; a real hand ends long before


def _state_glance(st: Any) -> list[int]:
    cnt = [0] * 14
    for lay in st.lay:
        for v in lay:
            if v >= 64:
                cnt[(v & 63) >> 2] += 1
    if st.disc:
        cnt[st.disc[-1] >> 2] += 1
    return cnt


def _policy_wild(st: Any) -> int:
    """Tricky's wild place (1-based) on a full state: the face-down place whose rank shows most."""
    cnt = _state_glance(st)
    lay = st.lay[st.turn]
    best = 0
    bv = -1.0
    for i, v in enumerate(lay):
        if v < 64:
            sc = cnt[i + 1] + (i + 1) * 1e-3
            if sc > bv:
                bv = sc
                best = i + 1
    return best


class Sampler:
    """Deals of the unseen cards consistent with a view, fast: ``determinize`` once (it checks
    the view and finds the hidden slots: every face-down place and the stock), then each
    sample reshuffles those same cards over the same slots with the engine's shuffle."""

    def __init__(self, view: Mapping[str, Any], seed: int) -> None:
        from game.rules.layout.rules import determinize

        self.base = determinize(view, seed)
        self.slots = [(s, i) for s, lay in enumerate(self.base.lay)
                      for i, v in enumerate(lay) if v < 64]
        self.pool = [self.base.lay[s][i] for s, i in self.slots] + self.base.stock
        self.rng = Rng.from_seed(f"layout-sampler/{seed}").state

    def deal(self) -> Any:
        from game.rules.layout.engine import shuffle_ints

        pool = self.pool[:]
        self.rng = shuffle_ints(pool, self.rng)
        st = self.base.copy()
        k = len(self.slots)
        for j, (s, i) in enumerate(self.slots):
            st.lay[s][i] = pool[j]
        st.stock = pool[k:]
        st.rng = (self.rng * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF  # the reshuffles
        return st


def apply_token(st: Any, tok: str) -> None:
    """Play ``tok`` for the seat to move on ``st`` in place (engine fast path, no events)."""
    from game.rules.layout import engine

    t = str(tok)
    if t[0] == "W":
        engine.place_wild(st, int(t[1:]), None)
    else:
        engine.take(st, t[0] == "S", None)
    st.ply += 1


def play_out(base: Any, tok: str, me: int) -> float:
    """Play ``tok`` on a copy of ``base`` and the rest of the hand with the rollout policy for
    every seat: 1.0 if ``me`` won the hand (its layout shrank), else 0.0. (``tok`` itself may
    end the hand: the hand and the size are taken before it.)"""
    st = base.copy()
    hand0 = st.hand
    size0 = st.sizes[me]
    apply_token(st, tok)
    return rollout(st, me, hand0, size0)


def rollout(st: Any, me: int, hand0: int | None = None, size0: int | None = None) -> float:
    """Play hand ``hand0`` (default: the one in progress) out on ``st`` (mutated) with the
    rollout policy for every seat; 1.0 if ``me`` won it (its layout is smaller than ``size0``),
    else 0.0."""
    from game.rules.layout import engine

    if hand0 is None:
        hand0 = st.hand
    if size0 is None:
        size0 = st.sizes[me]
    take, place_wild, is_live = engine.take, engine.place_wild, engine.is_live
    for _ in range(ROLLOUT_TURNS):
        if st.hand != hand0 or st.phase == engine.OVER:
            break
        if st.phase == engine.SOURCE:
            disc = st.disc
            can_stock = bool(st.stock) or len(disc) >= 2
            live = bool(disc) and is_live(st, st.turn, disc[-1])
            take(st, can_stock and not live, None)
        else:
            place_wild(st, _policy_wild(st), None)
    return 1.0 if st.sizes[me] < size0 else 0.0


SEARCH_Z = 1.0  # an alternative must beat the default by this many paired standard errors
SEARCH_WILD = 0.0  # experiments (off): search the wild placements / the draw source
SEARCH_SOURCE = 0.0
MIN_SAMPLES = 8  # before racing may stop the search


def nasty(view: Mapping[str, Any], legal: Sequence[str], seed: int, budget_ms: float,
          max_samples: int | None = None, history: Sequence[Mapping[str, Any]] = ()) -> str:
    """Determinized rollouts from the seat's view: each sample deals the unseen cards at random
    (``determinize``: the stock and every face-down place, by the card count), and every legal
    play is played out to the end of the hand in that same deal (common random numbers). The
    count's choice (:func:`count_choice`) stands unless another play wins the hand more often,
    by more than ``SEARCH_Z`` paired standard errors. Stops at ``max_samples``, or when 85% of
    ``budget_ms`` is spent."""
    legal = [str(t) for t in legal]
    default = count_choice(view, legal)
    SearchStats.samples = 0
    if len(legal) == 1:
        return legal[0]
    if not (SEARCH_WILD if legal[0].startswith("W") else SEARCH_SOURCE):
        return default
    me = int(view["turn"])
    others = [t for t in legal if t != default]
    sums = dict.fromkeys(others, 0.0)
    sqs = dict.fromkeys(others, 0.0)
    cap = max_samples if max_samples is not None else 10_000
    deadline = time.perf_counter() + 0.85 * budget_ms / 1000.0
    n = 0
    t0 = time.perf_counter()
    sampler = Sampler(view, seed)
    while n < cap:
        base = sampler.deal()
        v0 = play_out(base, default, me)
        for t in others:
            d = play_out(base, t, me) - v0
            sums[t] += d
            sqs[t] += d * d
        n += 1
        if max_samples is None:
            now = time.perf_counter()
            if now + (now - t0) / n > deadline:
                break
    SearchStats.samples = n
    best = default
    best_mean = 0.0
    for t in others:
        mean = sums[t] / n
        var = max(0.0, sqs[t] / n - mean * mean)
        se = math.sqrt(var / n) if n > 1 else 1.0
        if mean > best_mean and mean > SEARCH_Z * se and (se > 0 or n >= MIN_SAMPLES):
            best = t
            best_mean = mean
    return best
