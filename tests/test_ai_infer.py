"""Track inference from the public log (game/ai/infer.py): what a discard says, and the sampler."""

from __future__ import annotations

from typing import Any

from game.ai import infer, track
from game.rules.track import RULES

COME_OUT = frozenset({1, 11, 12, 13})  # classic: A, J, Q, K bring a peg out of start


# Classic, 4 seats: a has a peg out on its come-out hole, b, c and d wait in start. a to move.
POS = ("classic 4 teams2 jokers=on seven=on a:8,s,s,s,s b:s,s,s,s,s c:s,s,s,s,s "
       "d:s,s,s,s,s turn=a hand=5S,7C,7D,8D,JC,QD cards=6,5,5,5 pile=138 discards=3")


def _first_discard_position(rules: str, seed: int) -> tuple[Any, list[dict[str, Any]], int]:
    """The hand-made position above, and a log whose last play is seat b (1) discarding a 4
    (so no peg has moved since: the board of the view is the board of that discard)."""
    st = RULES.parse_position(POS)
    log = [{"seat": 0, "play": "K:as"}, {"seat": 1, "play": "4:x"}, {"seat": 2, "play": "9:x"},
           {"seat": 3, "play": "2:x"}]
    return st, log, 1


def test_a_discard_with_every_peg_in_start_bars_the_come_out_cards() -> None:
    st, log, s = _first_discard_position("classic", 3)
    me = RULES.to_move(st)
    view = RULES.view(st, me)
    cons = infer.discard_constraints(view, log)
    # all of that seat's pegs wait in start: only a come-out card could have moved one
    assert cons[s] == COME_OUT
    # every sample follows it; without the log some samples give that seat a come-out card
    for k in range(20):
        d = infer.sample(view, k, cons)
        assert not any((c >> 2) in COME_OUT for c in d.hands[s])
        assert RULES.view(d, me)["hand"] == view["hand"]
        assert [len(h) for h in d.hands] == view["hand_counts"]
    unconstrained = [RULES.determinize(view, k) for k in range(40)]
    assert any(any((c >> 2) in COME_OUT for c in d.hands[s]) for d in unconstrained)


def test_real_games_always_agree_with_the_inference() -> None:
    # The real hidden hands of played games must satisfy every constraint drawn from the log
    # (a wrong inference would bar cards the seat really holds).
    found = 0
    for rules, seed in (("classic", 11), ("team", 12)):
        st = RULES.new_game({"rules": rules, "seats": 4}, seed)
        log: list[dict[str, Any]] = []
        for _k in range(300):
            seat = RULES.to_move(st)
            if seat is None:
                break
            cons = infer.discard_constraints(RULES.view(st, seat), log)
            found += len(cons)
            assert infer.consistent(st, cons)
            tok = str(track.lite_choice(st, seat, RULES.legal_plays(st)))
            st, _ = RULES.apply(st, seat, tok)
            log.append({"seat": seat, "play": tok})
    assert found >= 3


def test_the_sampler_deals_exactly_the_unseen_cards() -> None:
    st, log, _s = _first_discard_position("classic", 3)
    me = RULES.to_move(st)
    view = RULES.view(st, me)
    cons = infer.discard_constraints(view, log)
    hidden = sorted([c for i, h in enumerate(st.hands) if i != me for c in h] + list(st.pile))
    for k in range(5):
        d = infer.sample(view, k, cons)
        assert sorted([c for i, h in enumerate(d.hands) if i != me for c in h]
                      + list(d.pile)) == hidden
        assert d.pegs == st.pegs and d.discards == st.discards


def test_a_deal_against_the_discard_is_rejected() -> None:
    st, _log, s = _first_discard_position("classic", 3)
    cons = {s: COME_OUT}
    good = st.copy()
    hands = list(st.hands)
    hands[s] = (2 * 4, 3 * 4, 4 * 4, 5 * 4, 6 * 4)  # 2 3 4 5 6: none could bring a peg out
    good.hands = tuple(hands)
    assert infer.consistent(good, cons)
    bad = st.copy()
    hands[s] = (2 * 4, 3 * 4, 4 * 4, 5 * 4, 13 * 4)  # ... but a King could
    bad.hands = tuple(hands)
    assert not infer.consistent(bad, cons)
    hands[s] = (0, 3 * 4, 4 * 4, 5 * 4, 6 * 4)  # a joker is never forced: allowed
    bad.hands = tuple(hands)
    assert infer.consistent(bad, cons)


def test_no_constraint_once_a_peg_has_moved_since() -> None:
    st, log, s = _first_discard_position("classic", 3)
    me = RULES.to_move(st)
    view = RULES.view(st, me)
    assert s in infer.discard_constraints(view, log)
    moved = [*log, {"seat": me, "play": "A:as"}]  # any later non-discard: the board changed
    assert s not in infer.discard_constraints(view, moved)
    # a later play by that seat itself replaces the discard as its most recent play
    assert s not in infer.discard_constraints(view, [*log, {"seat": s, "play": "K:as"}])


def test_tees_and_bad_logs_give_no_constraints() -> None:
    st = RULES.new_game({"rules": "tees", "seats": 4}, 5)
    view = RULES.view(st, RULES.to_move(st))
    assert infer.discard_constraints(view, [{"seat": 1, "play": "9:x"}]) == {}
    st, _log, _s = _first_discard_position("classic", 3)
    view = RULES.view(st, RULES.to_move(st))
    assert infer.discard_constraints(view, [{"who": 1}]) == {}


def test_nasty_with_the_log_reads_only_the_view_and_the_log() -> None:
    st, log, _s = _first_discard_position("classic", 3)
    me = RULES.to_move(st)
    view = RULES.view(st, me)
    legal = [str(p) for p in RULES.legal_plays(st)]
    other = infer.sample(view, 77, infer.discard_constraints(view, log))  # other hidden hands
    assert other.hands != st.hands
    a = track.nasty(view, legal, 5, 1e9, max_samples=6, history=log)
    assert track.SearchStats.constrained == 3  # b, c and d each discarded on this board
    assert track.nasty(RULES.view(other, me), legal, 5, 1e9, max_samples=6, history=log) == a
