"""Thousands of random complete layout games, checking invariants after every step.

After every play: the cards are conserved (a full pack), natural cards never move within a hand,
a wild card only ever lands on a face-down place, layout sizes only drop for the hand's
winners (by one), the input state is unchanged, the events replayed on the previous public view
give exactly the new public view, and the view holds no hidden card. Every game ends, and
replaying its log (on the fast, event-free path) reproduces every state.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from game.rules.cards import Rng
from game.rules.layout import RULES, format_position, make_view, parse_position
from game.rules.layout.engine import OVER, SOURCE, UP, State, full_pack
from game.rules.layout.notation import pack_of
from game.rules.layout.rules import apply_in_place

SEATS = range(2, 9)
OPTIONS = [
    {"wild": w, "last_chance": lc, "upcard": up}
    for w in ("J", "K") for lc in (False, True) for up in (False, True)
]


def _policy(st: State, rng: Rng) -> str:
    legal = [str(p) for p in RULES.legal_plays(st)]
    if st.phase == SOURCE and rng.below(4):
        # mostly sensible: a live discard, else the stock (a purely random policy keeps
        # taking dead discards and makes games very long)
        if "D" in legal and st.disc:
            top = st.disc[-1]
            r = top >> 2
            seat = st.turn
            live = r == st.wild or (r <= min(10, st.sizes[seat]) and (
                st.lay[seat][r - 1] < UP or (st.lay[seat][r - 1] & 63) >> 2 == st.wild))
            if live or "S" not in legal:
                return "D"
        return "S"
    return legal[rng.below(len(legal))]


class EventModel:
    """What a client knows: a public view, updated only from events."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.layouts = [list(p) for p in view["layouts"]]
        self.stock = view["stock"]
        self.discard = list(view["discard"])
        self.sizes = list(view["sizes"])
        self.hand: int | None = view["holding"]
        self.turn = view["turn"]
        self.winners: list[int] | None = None
        self.reshuffles = 0

    def play(self, events: list[dict[str, Any]], wild: int) -> None:
        for e in events:
            t = e["type"]
            if t == "turn":
                self.turn = e["seat"]
            elif t == "reshuffled":
                self.reshuffles += 1
                assert self.stock == 0 and self.discard[-1] == e["top"]
                assert e["stock"] == len(self.discard) - 1
                self.stock, self.discard = e["stock"], [e["top"]]
            elif t == "drawn":
                assert self.hand is None and e["seat"] == self.turn
                if e["source"] == "stock":
                    assert self.stock > 0
                    self.stock -= 1
                else:
                    assert self.discard.pop() == e["card"]
                self.hand = e["card"]
            elif t == "placed":
                p = self.layouts[e["seat"]]
                i = e["place"] - 1
                assert self.hand == e["card"] and e["card"] >> 2 == e["place"]
                # natural cards never move: the place was face down or held a wild card
                assert p[i] is None or p[i] >> 2 == wild, (p[i], e)
                self.displaced = p[i]
                p[i] = e["card"]
                self.hand = None
            elif t == "wild_placed":
                p = self.layouts[e["seat"]]
                i = e["place"] - 1
                assert self.hand == e["card"] and e["card"] >> 2 == wild
                assert p[i] is None, f"a wild card landed on a face-up place: {e}"
                self.displaced = None
                p[i] = e["card"]
                self.hand = None
            elif t == "revealed":
                assert self.displaced is None  # it came from a face-down place
                self.hand = e["card"]
            elif t == "wild_displaced":
                assert self.displaced == e["card"] and e["card"] >> 2 == wild
                self.hand = e["card"]
            elif t == "discarded":
                assert self.hand == e["card"]
                self.discard.append(e["card"])
                self.hand = None
            elif t == "hand_won":
                for s in range(len(self.sizes)):
                    drop = self.sizes[s] - e["sizes"][s]
                    assert drop == (1 if s in e["winners"] else 0), e
                self.sizes = list(e["sizes"])
            elif t == "dealt":
                assert e["sizes"] == self.sizes
                self.layouts = [[None] * k for k in self.sizes]
                self.stock = e["stock"]
                self.discard = [] if e["upcard"] is None else [e["upcard"]]
            elif t == "game_won":
                self.winners = e["winners"]
            else:
                assert t in ("passed", "completed", "hand_dead"), t

    def check(self, view: dict[str, Any]) -> None:
        assert self.layouts == view["layouts"]
        assert self.stock == view["stock"]
        assert self.discard == view["discard"]
        assert self.sizes == view["sizes"]
        assert self.hand == view["holding"]
        assert self.turn == view["turn"] or view["turn"] is None
        assert self.winners == view["winners"]


def _hidden_shuffled(st: State, seed: int) -> State:
    """The same public position with the hidden cards (face-down places, stock) permuted."""
    other = st.copy()
    hidden = [v for p in st.lay for v in p if v < UP] + st.stock
    random.Random(seed).shuffle(hidden)
    k = 0
    for p in other.lay:
        for i, v in enumerate(p):
            if v < UP:
                p[i] = hidden[k]
                k += 1
    other.stock = hidden[k:]
    other.rng = st.rng ^ 0x1234
    return other


def _starved(st: State, keep: int) -> State:
    """The same deal with all but ``keep`` stock cards moved under the discard pile, so that
    the stock runs out (and is reshuffled) at once; real play seldom empties it."""
    out = st.copy()
    cut = max(0, len(st.stock) - keep)
    out.disc = st.stock[:cut] + st.disc
    out.stock = st.stock[cut:]
    return out


def play_checked(
    cfg: dict[str, Any], seed: int, deep: bool, starve: int | None = None
) -> tuple[int, int, int]:
    """Play one random game checking every invariant; returns (plays, hands, reshuffles)."""
    st = RULES.new_game(cfg, seed)
    if starve is not None:
        st = _starved(st, starve)
    start = st
    norm = RULES.normalize_config(cfg)
    pack = Counter(full_pack(st.decks))
    wild = 11 if norm["wild"] == "J" else 13
    rng = Rng.from_seed(seed * 7919 + 1)
    model = EventModel(make_view(st, None))
    log: list[tuple[int, str]] = []
    states = [st]
    step = 0
    while (seat := RULES.to_move(st)) is not None:
        assert step < 20000, "the game does not end"
        play = _policy(st, rng)
        before = st.key()
        new, events = RULES.apply(st, seat, play)
        assert st.key() == before, "apply mutated its input"
        assert pack_of(new) == pack, "cards not conserved"
        assert new.ply == st.ply + 1
        # natural cards never move within a hand
        if new.hand == st.hand:
            for s in range(st.n):
                for old_v, new_v in zip(st.lay[s], new.lay[s], strict=True):
                    if old_v >= UP and (old_v & 63) >> 2 != wild:
                        assert new_v == old_v
        else:
            assert new.hand > st.hand
        # sizes only drop for the winners, by one
        won = [w for e in events if e["type"] == "hand_won" for w in e["winners"]]
        for s in range(st.n):
            assert new.sizes[s] == st.sizes[s] - won.count(s)
        # every place of every layout is face down, a natural, or a wild card
        for p in new.lay:
            for i, v in enumerate(p):
                if v >= UP:
                    assert (v & 63) >> 2 in (i + 1, wild)
        # events replayed on the public view give the new public view
        view = make_view(new, seat)
        assert RULES.filter_events(events, seat) == events
        model.play(events, wild)
        model.check(view)
        # the view holds no hidden card
        assert isinstance(view["stock"], int)
        for p, vp in zip(new.lay, view["layouts"], strict=True):
            assert [v < UP for v in p] == [c is None for c in vp]
        if deep or step % 16 == 0:
            assert make_view(_hidden_shuffled(new, step), seat) == view
            assert make_view(new, None) == {**view, "seat": None}
        if deep and step % 8 == 0:
            text = format_position(new)
            assert format_position(parse_position(text)) == text
            det = RULES.determinize(view, step)
            assert make_view(det, seat) == view and pack_of(det) == pack
        log.append((seat, play))
        states.append(new)
        st = new
        step += 1
    assert st.phase == OVER and st.winners and all(st.sizes[w] == 0 for w in st.winners)
    # replay on the event-free path reproduces every state
    rep = start.copy()
    for k, (seat, play) in enumerate(log):
        apply_in_place(rep, seat, play, None)
        assert rep == states[k + 1], f"replay differs after play {k}"
    if starve is None:
        assert RULES.new_game(cfg, seed) == states[0]
        assert RULES.replay(cfg, seed, log) == st
    return len(log), st.hand, model.reshuffles


def _configs(count: int, sizes: list[int], base_seed: int) -> list[tuple[dict[str, Any], int]]:
    out = []
    k = 0
    while len(out) < count:
        for n in SEATS:
            for opt in OPTIONS:
                size = sizes[k % len(sizes)]
                cfg = {"seats": n, "layout_size": size, **opt}
                if k % 5 == 0:
                    cfg["first_leader"] = k % n
                out.append((cfg, base_seed + k))
                k += 1
    return out[:count]


@pytest.mark.parametrize("chunk", range(4))
def test_random_short_games(chunk: int) -> None:
    # 4 x 1150 = 4600 games with starting sizes 1-3, every seat count and option.
    plays = 0
    for cfg, seed in _configs(1150, [1, 2, 1, 3], 100_000 * (chunk + 1)):
        plays += play_checked(cfg, seed, deep=False)[0]
    assert plays > 1150


def test_random_medium_games() -> None:
    # 336 games with starting sizes 4-6.
    for cfg, seed in _configs(336, [4, 5, 6], 700_000):
        play_checked(cfg, seed, deep=False)


def test_random_full_size_games_deep() -> None:
    # 64 full games (size 10), every seat count and option, with the deepest checks.
    hands = []
    for cfg, seed in _configs(64, [10], 900_000):
        hands.append(play_checked(cfg, seed, deep=(seed % 4 == 0))[1])
    assert min(hands) >= 10  # a size-10 game needs at least ten hands


def test_random_games_with_reshuffles() -> None:
    # Real play seldom empties the stock, so these 112 full-size games start with all but
    # 0-3 stock cards moved to the discard pile: the stock runs out and is reshuffled often.
    reshuffles = 0
    for k, (cfg, seed) in enumerate(_configs(112, [10, 7], 950_000)):
        reshuffles += play_checked(cfg, seed, deep=(k % 8 == 0), starve=k % 4)[2]
    assert reshuffles >= 100  # about one per game


def test_fast_path_and_api_agree_on_long_games() -> None:
    # The bench's in-place path without events and the API path reach equal states.
    for seed in range(6):
        cfg = {"seats": 2 + seed, "layout_size": 10, "last_chance": bool(seed & 1)}
        st = RULES.new_game(cfg, seed)
        fast = RULES.new_game(cfg, seed)
        rng = Rng.from_seed(seed)
        while (seat := RULES.to_move(st)) is not None:
            play = _policy(st, rng)
            st, _ = RULES.apply(st, seat, play)
            apply_in_place(fast, seat, play, None)
        assert fast == st
