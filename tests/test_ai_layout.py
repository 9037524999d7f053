"""CPU players and hints in the layout game (Trash): hand-made positions and the contract."""

from __future__ import annotations

import pytest

from game.ai import LEVELS, choose_play, hint
from game.ai import layout as ai
from game.rules.cards import Rng
from game.rules.layout import RULES

# Two seats, one deck. Seat 0 to take a card; its places 1-3 are natural (AC 2C 3C), 4-10 face
# down. The top discard 4H is live for seat 0 (place 4 is face down).
LIVE_4 = ("layout seats=2 seed=3 hand=1 leader=1 turn=0 phase=source sizes=10,10 "
          "p0=AC,2C,3C,?,?,?,?,?,?,? p1=?,?,?,?,?,?,?,?,?,? stock=29 discard=TD,7C,4H")

# Seat 0 holds a wild Jack with places 3 and 7 face down (everything else natural). Three 3s
# are showing (3D on seat 1's place 3, 3S and 3H in the discards): one 3 is left unseen, but
# three 7s are (only 7C, buried in the discards, shows). By the count the Jack goes on place 3.
WILD_3_7 = ("layout seats=2 seed=3 hand=1 leader=1 turn=0 phase=wild hold=JC sizes=10,10 "
            "p0=AC,2C,?,4S,5C,6S,?,8C,9S,TH p1=AH,?,3D,?,?,?,?,?,?,? stock=28 "
            "discard=3S,7C,3H")


def _view(pos: str) -> tuple[dict, list[str]]:
    st = RULES.parse_position(pos)
    return RULES.view(st, st.turn), [str(p) for p in RULES.legal_plays(st)]


def test_positions_have_the_plays_worked_out_by_hand() -> None:
    view, legal = _view(LIVE_4)
    assert legal == ["S", "D"] and view["discard"][-1] == 4 * 4 + 2  # 4H
    view, legal = _view(WILD_3_7)
    assert legal == ["W3", "W7"]


@pytest.mark.parametrize("level", ["tricky", "nasty"])
def test_takes_a_live_discard(level: str) -> None:
    view, legal = _view(LIVE_4)
    for seed in range(5):
        assert choose_play("layout", view, legal, level, seed, 20.0) == "D"


def test_easy_takes_a_live_discard_only_sometimes() -> None:
    view, legal = _view(LIVE_4)
    took = sum(choose_play("layout", view, legal, "easy", seed) == "D" for seed in range(200))
    assert 20 <= took <= 180


def test_tricky_and_nasty_draw_rather_than_take_a_dead_discard() -> None:
    # a Queen on top is dead for everybody
    view, legal = _view(LIVE_4.replace("discard=TD,7C,4H", "discard=TD,4H,QC"))
    assert choose_play("layout", view, legal, "tricky", 1) == "S"
    assert choose_play("layout", view, legal, "nasty", 1, 50.0) == "S"


def test_nasty_counts_cards_for_the_wild() -> None:
    view, legal = _view(WILD_3_7)
    counts = ai.unseen_by_rank(view)
    assert counts[3] == 1 and counts[7] == 3
    assert choose_play("layout", view, legal, "nasty", 1, 50.0) == "W3"
    tok, reason = hint("layout", view, legal, 1, 50.0)
    assert tok == "W3" and "only 1 3 left unseen" in reason


def test_tricky_places_the_wild_by_what_it_sees_now() -> None:
    view, legal = _view(WILD_3_7)
    # at a glance: 3D face up on seat 1 and the top discard 3H: two 3s, one 7 (7C is buried)
    assert ai.glance_counts(view)[3] == 2
    assert choose_play("layout", view, legal, "tricky", 1) == "W3"


def test_hint_names_the_live_discard() -> None:
    view, legal = _view(LIVE_4)
    tok, reason = hint("layout", view, legal, 2, 30.0)
    assert tok == "D"
    assert reason == "takes the 4 from the discards: it fills your 4 place"


def test_every_level_returns_a_legal_play_in_random_games() -> None:
    n = 0
    for g in range(6):
        st = RULES.new_game({"seats": 2 + g % 3}, 100 + g)
        rng = Rng(g)
        k = 0
        while RULES.to_move(st) is not None and k < 300:
            seat = RULES.to_move(st)
            legal = [str(p) for p in RULES.legal_plays(st)]
            view = RULES.view(st, seat)
            for level in LEVELS:
                assert choose_play("layout", view, legal, level, k, 5.0) in legal
            tok, reason = hint("layout", view, legal, k, 5.0)
            assert tok in legal and reason
            st, _ = RULES.apply(st, seat, legal[rng.below(len(legal))])
            k += 1
            n += 1
    assert n > 500


def test_choice_ignores_hidden_cards() -> None:
    st = RULES.new_game({"seats": 3}, 8)
    rng = Rng(3)
    for _ in range(40):
        seat = RULES.to_move(st)
        legal = [str(p) for p in RULES.legal_plays(st)]
        st, _ = RULES.apply(st, seat, legal[rng.below(len(legal))])
    seat = RULES.to_move(st)
    view = RULES.view(st, seat)
    other = RULES.determinize(view, 12345)  # other face-down cards and stock order
    assert other.lay != st.lay or other.stock != st.stock
    assert RULES.view(other, seat) == view
    legal = [str(p) for p in RULES.legal_plays(st)]
    for level in LEVELS:
        assert choose_play("layout", RULES.view(other, seat), legal, level, 7, 5.0) == \
            choose_play("layout", view, legal, level, 7, 5.0)
