"""CPU players and hints in the track game: hand-made positions (worked out by hand from the
spec) and the interface contract."""

from __future__ import annotations

import pytest

from game.ai import LEVELS, choose_play, hint
from game.ai import track as ai
from game.rules.cards import Rng
from game.rules.track import RULES

# tees, 4 seats (teams a+c against b+d). a: come-out 8, in-spot 3; b: come-out 26, in-spot 21.
# a's peg on 10 holds a 2 and a 5; b's peg on 15 has gone round from 26 and is 6 short of its
# in-spot. 5:a10+5 lands on it and sends it back to start; 2:a10+2 bumps nothing.
BUMP_TEES = ("tees 4 teams2 jokers=off seven=on a:s,s,s,s,10 b:s,s,s,s,15 c:s,s,s,s,s "
             "d:s,s,s,s,s turn=a hand=2C,5C cards=2,2,2,2 pile=32 discards=12 dealer=d round=1")

# classic, 4 seats, no jokers. a's peg on 30, b's peg on 36 (b has travelled 10 from 26).
# a holds 3, 6, 9, 9, 10, 10 and no come-out card: a30 goes to 33, 36, 39 or 40. 6:a30+6 wins
# 6 holes and costs b its 10 holes and its peg out; 10:a30+10 only wins 10 holes; a on 36 is
# then safe (b and d have nothing out, 36 is nobody's come-out hole).
BUMP_CLASSIC = ("classic 4 teams2 jokers=off seven=on a:s,s,s,s,30 b:s,s,s,s,36 c:s,s,s,s,s "
                "d:s,s,s,s,s turn=a hand=3C,6C,9C,9D,TC,TD cards=6,5,5,5 pile=125 discards=10")

# tees. a's pegs on 20 and 41, b's peg on 38, a holds one 4. By hand:
# * 4:a41+4 -> 45, seven ahead of b's 38: b hits it with any 7 (four 7s unseen);
# * 4:a20+4 -> 24: no opponent peg is behind it within reach, and 24 is no come-out hole
#   (b 26, c 44, d 62); a's peg on 41 stays three ahead of b (tees has no 3 forward).
# Same progress, one leaves a peg exposed: Tricky and Nasty play 4:a20+4.
BLUNDER_TEES = ("tees 4 teams2 jokers=off seven=on a:s,s,s,20,41 b:s,s,s,s,38 c:s,s,s,s,s "
                "d:s,s,s,s,s turn=a hand=4C cards=1,2,2,2 pile=32 discards=13 dealer=d round=1")


def _ask(pos: str, level: str, seed: int = 1) -> str:
    st = RULES.parse_position(pos)
    view = RULES.view(st, st.turn)
    legal = RULES.legal_tokens(st)
    if level == "nasty":
        return ai.nasty(view, legal, seed, budget_ms=1e9, max_samples=24)  # a usual count
    return choose_play("track", view, legal, level, seed, 50.0)


def test_positions_have_the_plays_worked_out_by_hand() -> None:
    assert RULES.legal_tokens(RULES.parse_position(BUMP_TEES)) == ["2:a10+2", "5:a10+5"]
    assert set(RULES.legal_tokens(RULES.parse_position(BLUNDER_TEES))) == {"4:a20+4", "4:a41+4"}
    legal = RULES.legal_tokens(RULES.parse_position(BUMP_CLASSIC))
    assert "6:a30+6" in legal and "3:a30+3" in legal


@pytest.mark.parametrize("level", ["tricky", "nasty"])
def test_takes_the_obvious_bump_tees(level: str) -> None:
    assert _ask(BUMP_TEES, level) == "5:a10+5"


@pytest.mark.parametrize("level", ["tricky", "nasty"])
def test_takes_the_obvious_bump_classic(level: str) -> None:
    assert _ask(BUMP_CLASSIC, level) == "6:a30+6"


@pytest.mark.parametrize("level", ["tricky", "nasty"])
def test_avoids_leaving_a_peg_exposed(level: str) -> None:
    for seed in range(3):
        assert _ask(BLUNDER_TEES, level, seed) == "4:a20+4"


def test_hint_names_the_bump() -> None:
    st = RULES.parse_position(BUMP_TEES)
    tok, reason = hint("track", RULES.view(st, 0), RULES.legal_tokens(st), 3, 60.0)
    assert tok == "5:a10+5"
    assert "bumps Blue back to start" in reason


def test_hint_says_when_a_peg_is_safe_but_for_one_card() -> None:
    # a's peg on 45 moves 4 to 49, nine ahead of b's peg on 40 (whose way to its in-spot 21
    # is long): only a 9 reaches it; nothing is behind it within 3 for a tees 3 backward.
    pos = ("tees 4 teams2 jokers=off seven=on a:s,s,s,s,45 b:s,s,s,s,40 c:s,s,s,s,s "
           "d:s,s,s,s,s turn=a hand=4C cards=1,2,2,2 pile=32 discards=13 dealer=d round=1")
    st = RULES.parse_position(pos)
    tok, reason = hint("track", RULES.view(st, 0), RULES.legal_tokens(st), 3, 0.0)
    assert tok == "4:a45+4"
    assert reason == "safe from every card but a 9"


def test_probability_of_holding_a_rank_by_hand() -> None:
    st = RULES.parse_position(BLUNDER_TEES)
    know = ai.Know(st, 0)
    # unseen: 52 - 1 (hand) - 13 discards = 38 cards, four 7s among them; b holds 2 cards.
    assert know.unseen_n == 38 and know.unseen[7] == 4
    p = ai.p_holds(know, frozenset({7}), 2)
    assert p == pytest.approx(1 - (34 / 38) * (33 / 37))


def _random_positions(rules: str, n_games: int, every: int, seed: int):
    for g in range(n_games):
        st = RULES.new_game({"rules": rules, "seats": 4}, seed + g)
        rng = Rng(seed + g)
        k = 0
        while RULES.to_move(st) is not None and k < 400:
            legal = RULES.legal_tokens(st)
            if k % every == every - 1 and len(legal) > 1:
                yield st, legal
            st, _ = RULES.apply(st, st.turn, legal[rng.below(len(legal))], events=False)
            k += 1


@pytest.mark.parametrize("rules", ["tees", "classic", "team"])
def test_every_level_returns_a_legal_play(rules: str) -> None:
    count = 0
    for st, legal in _random_positions(rules, 2, 37, 11):
        view = RULES.view(st, st.turn)
        for level in LEVELS:
            tok = choose_play("track", view, legal, level, count, 5.0)
            assert tok in legal, (level, tok)
        tok, reason = hint("track", view, legal, count, 5.0)
        assert tok in legal and reason
        count += 1
    assert count >= 8


def test_choice_ignores_hidden_cards() -> None:
    """Two states that differ only in cards the seat cannot see give one view and one choice."""
    for st, legal in _random_positions("classic", 1, 23, 5):
        seat = st.turn
        view = RULES.view(st, seat)
        other = RULES.determinize(view, 99)  # same view, other hidden hands and pile
        assert other.hands != st.hands or other.pile != st.pile
        view2 = RULES.view(other, seat)
        assert view2 == view
        for level in ("easy", "tricky"):
            assert choose_play("track", view2, legal, level, 4) == choose_play(
                "track", view, legal, level, 4)
        assert ai.nasty(view2, legal, 4, 1e9, max_samples=2) == ai.nasty(
            view, legal, 4, 1e9, max_samples=2)


def test_nasty_sample_count_follows_budget() -> None:
    st = RULES.parse_position(BLUNDER_TEES.replace("hand=4C", "hand=4C").replace(
        "a:s,s,s,20,41", "a:s,s,20,30,41"))
    view = RULES.view(st, 0)
    legal = RULES.legal_tokens(st)
    assert len(legal) >= 2
    ai.nasty(view, legal, 1, 1e9, max_samples=5)
    assert ai.SearchStats.samples == 5
    ai.nasty(view, legal, 1, 0.0)
    assert ai.SearchStats.samples <= 1
    ai.nasty(view, legal, 1, 120.0)
    big = ai.SearchStats.samples
    assert big > 5  # a sample of this small position takes far less than 20 ms


def test_bad_arguments_are_refused() -> None:
    st = RULES.parse_position(BUMP_TEES)
    view = RULES.view(st, 0)
    with pytest.raises(ValueError, match="unknown CPU level"):
        choose_play("track", view, ["5:a10+5"], "grandmaster", 1)
    with pytest.raises(ValueError, match="at least one legal play"):
        choose_play("track", view, [], "easy", 1)
    with pytest.raises(ValueError, match="unknown game"):
        choose_play("chess", view, ["5:a10+5"], "easy", 1)


def test_worker_job_round_trips_through_pickle() -> None:
    """The table runs CPUs in a worker process: the job must pickle, and the answer be legal."""
    import pickle

    from game.cpu_worker import CpuJob, run_job

    st = RULES.parse_position(BUMP_TEES)
    job = CpuJob("track", RULES.view(st, 0), tuple(RULES.legal_tokens(st)), "nasty", 3, 30.0)
    job2 = pickle.loads(pickle.dumps(job))
    assert run_job(job2) == "5:a10+5"


@pytest.mark.parametrize("config", [
    {"rules": "tees", "seats": 6},
    {"rules": "classic", "seats": 2},
    {"rules": "classic", "seats": 3},
    {"rules": "classic", "seats": 1},
    {"rules": "team", "seats": 6, "teams": 3},
    {"rules": "classic", "seats": 8, "teams": 4},
])
def test_every_level_in_other_modes(config: dict) -> None:
    st = RULES.new_game(config, 21)
    rng = Rng(21)
    asked = 0
    for k in range(240):
        if RULES.to_move(st) is None:
            break
        legal = RULES.legal_tokens(st)
        if k % 20 == 19 and len(legal) > 1:
            view = RULES.view(st, st.turn)
            for level in LEVELS:
                assert choose_play("track", view, legal, level, k, 5.0) in legal
            assert hint("track", view, legal, k, 0.0)[0] in legal
            asked += 1
        st, _ = RULES.apply(st, st.turn, legal[rng.below(len(legal))], events=False)
    assert asked >= 3


def test_race_drops_only_a_candidate_clearly_behind() -> None:
    """Nasty's racing, by hand: after 10 common samples candidate 0 leads; candidate 1 trails it
    by 6 and 4 alternately (paired difference 5, standard error 1/3: dropped at z=2); candidate
    2 trails by 1 on average but by 11 and -9 alternately (standard error about 3.3: kept). The
    shrunk means divide the totals by 10 + PRIOR_N: gaps 50/14 and 10/14."""
    lead = [10.0, 20.0, 10.0, 20.0, 10.0, 20.0, 10.0, 20.0, 10.0, 20.0]
    behind = [v - (4.0 if t % 2 else 6.0) for t, v in enumerate(lead)]
    noisy = [v - (11.0 if t % 2 else -9.0) for t, v in enumerate(lead)]
    assert sum(lead) - sum(noisy) == 10.0
    svals = [lead, behind, noisy]
    totals = [sum(v) for v in svals]
    prior = [0.0, 0.0, 0.0]  # equal Tricky scores: the shrinkage does not change the order
    assert ai._race([0, 1, 2], totals, svals, prior, 10, 2.0) == [0, 2]
    # a huge z keeps everyone; the leader is never dropped
    assert ai._race([0, 1, 2], totals, svals, prior, 10, 1e9) == [0, 1, 2]
    assert ai._race([1, 2], totals, svals, prior, 10, 2.0)[0] in (1, 2)


def test_nasty_rollout_replies_are_tricky_choices() -> None:
    """With smart plies the first replies in a rollout are Tricky's own choices: the search
    still takes the obvious bump and avoids the obvious blunder, with or without racing."""
    saved = (dict(ai.SMART_PLIES), ai.SMART_TOPK, ai.RACE_Z)
    try:
        for rules in ai.SMART_PLIES:
            ai.SMART_PLIES[rules] = 3.0
        for topk, z in ((0.0, 0.0), (3.0, 2.0)):
            ai.SMART_TOPK, ai.RACE_Z = topk, z
            assert _ask(BUMP_TEES, "nasty") == "5:a10+5"
            assert _ask(BUMP_CLASSIC, "nasty") == "6:a30+6"
            assert _ask(BLUNDER_TEES, "nasty") == "4:a20+4"
    finally:
        ai.SMART_PLIES.update(saved[0])
        ai.SMART_TOPK, ai.RACE_Z = saved[1], saved[2]


def test_tournament_nasty_py_thinks_on_python_only() -> None:
    """The bench level ``nasty-py`` (issue 21: Nasty on the pure-Python engine against Nasty on
    the C core) switches the C core off around its own decision only, answers what Nasty
    answers at the same fixed sample count (the engines give the same plays), and puts the
    switch back even when the decision raises."""
    import bench.tournament as tm
    from game.rules.track import engine

    st = RULES.parse_position(BUMP_TEES)
    view = RULES.view(st, 0)
    legal = RULES.legal_tokens(st)
    seen: list[bool] = []
    real = ai.nasty

    def spy(*args: object, **kw: object) -> str:
        seen.append(engine.FAST)
        return real(*args, **kw)  # type: ignore[arg-type]

    prev = engine.set_fast(True)
    old_samples = tm.SAMPLES[0]
    tm.SAMPLES[0] = 6
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ai, "nasty", spy)
            py = tm._decide("track", view, legal, "nasty-py", 3, 300.0)
            on = tm._decide("track", view, legal, "nasty", 3, 300.0)
            assert seen == [False, engine._fast is not None]
            want = "C core" if engine._fast is not None else "Python"
            assert engine.engine_kind() == want  # restored
            assert py == on
            mp.setattr(ai, "nasty", lambda *a, **k: 1 / 0)
            with pytest.raises(ZeroDivisionError):
                tm._decide("track", view, legal, "nasty-py", 3, 300.0)
            assert engine.engine_kind() == want
    finally:
        tm.SAMPLES[0] = old_samples
        engine.set_fast(prev)
