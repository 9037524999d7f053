"""The optional C core of the track engine (``game/rules/track/_fast.c``) against the Python
engine, which is the reference: the same legal plays in the same order (token, rank, parts,
bumps, last), the same next state after every play, on random complete games of every rule
set, mode, seat count and option, and on hand-made edge positions; bad input raises a clear
error and changes nothing (and never crashes the interpreter).

Skipped when the extension is not built (``pip install -e .`` builds it where a C compiler is
available; without one the Python engine runs and these tests have nothing to compare).
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from test_track_helpers import pos

from game.rules.api import RulesError
from game.rules.cards import Rng
from game.rules.track import RULES, engine
from game.rules.track.engine import Play, TrackState, apply_play, gen_legal, new_game, set_fast
from game.rules.track.notation import format_position, parse_position

pytestmark = pytest.mark.skipif(
    engine._fast is None,
    reason="the C core game.rules.track._fast is not built (pip install -e . builds it; "
           "it needs a C compiler): nothing to compare with the Python engine")


@contextmanager
def core(fast: bool) -> Iterator[None]:
    prev = set_fast(fast)
    try:
        yield
    finally:
        set_fast(prev)


def sig(p: Play) -> tuple:
    return (p.token, p.rank, p.parts, p.bumps, p.last)


def sig_data(p: Play) -> tuple:
    """What a play is made of (its token is computed from rank and parts by the same
    ``Play.token`` for both cores)."""
    return (p.rank, p.parts, p.bumps, p.last)


def both_parse(text: str) -> tuple[TrackState, TrackState]:
    with core(False):
        sp = parse_position(text)
    with core(True):
        sc = parse_position(text)
    assert sc.key() == sp.key()
    return sp, sc


def legal_py(s: TrackState) -> list[Play]:
    with core(False):
        s._legal = None
        return list(gen_legal(s))


def legal_c(s: TrackState) -> Any:
    with core(True):
        s._legal = None
        lg = gen_legal(s)
    assert type(lg) is engine._fast.PlayList
    return lg


def check_position(text: str) -> list[str]:
    """C and Python agree on the legal plays of ``text`` and on the state after each one
    (applied by each core, the C core given both its own and the Python engine's play)."""
    sp, sc = both_parse(text)
    lp = legal_py(sp)
    lc = legal_c(sc)
    assert [sig(p) for p in lc] == [sig(p) for p in lp]
    for i, p in enumerate(lp):
        with core(False):
            np_, _ = apply_play(sp, sp.turn, p, events=False)
        with core(True):
            nc, _ = apply_play(sc, sc.turn, lc[i], events=False)
            nc2, _ = apply_play(sc, sc.turn, p, events=False)
        assert nc.key() == np_.key(), p.token
        assert nc2.key() == np_.key(), p.token
        if np_.turn >= 0:
            assert [sig(q) for q in legal_c(nc)] == [sig(q) for q in legal_py(np_)]
    return [p.token for p in lp]


# --------------------------------------------------------------------------------------------
# Random complete games, both cores in lockstep

GAMES: list[tuple[dict[str, Any], int]] = [
    ({"rules": "tees", "seats": 4}, 80),
    ({"rules": "tees", "seats": 6}, 60),
    ({"rules": "classic", "seats": 1}, 30),
    ({"rules": "classic", "seats": 2}, 35),
    ({"rules": "classic", "seats": 2, "jokers": False}, 10),
    ({"rules": "classic", "seats": 3}, 30),
    ({"rules": "classic", "seats": 4}, 60),
    ({"rules": "classic", "seats": 4, "mode": "ffa"}, 25),
    ({"rules": "classic", "seats": 4, "seven_to_partner": False}, 25),
    ({"rules": "classic", "seats": 4, "jokers": False}, 20),
    ({"rules": "classic", "seats": 5}, 15),
    ({"rules": "classic", "seats": 6}, 15),
    ({"rules": "classic", "seats": 6, "teams": 3}, 15),
    ({"rules": "classic", "seats": 6, "mode": "ffa"}, 8),
    ({"rules": "classic", "seats": 7}, 8),
    ({"rules": "classic", "seats": 8}, 10),
    ({"rules": "classic", "seats": 8, "teams": 4}, 10),
    ({"rules": "classic", "seats": 8, "mode": "ffa"}, 5),
    ({"rules": "classic", "seats": 8, "seven_to_partner": False}, 5),
    ({"rules": "team", "seats": 1}, 10),
    ({"rules": "team", "seats": 2}, 30),
    ({"rules": "team", "seats": 3, "mode": "ffa"}, 25),
    ({"rules": "team", "seats": 4}, 40),
    ({"rules": "team", "seats": 4, "jokers": False}, 12),
    ({"rules": "team", "seats": 4, "mode": "ffa"}, 10),
    ({"rules": "team", "seats": 5, "mode": "ffa"}, 6),
    ({"rules": "team", "seats": 6}, 7),
    ({"rules": "team", "seats": 6, "teams": 3}, 7),
    ({"rules": "team", "seats": 8}, 7),
    ({"rules": "team", "seats": 8, "teams": 4}, 6),
    ({"rules": "team", "seats": 8, "mode": "ffa"}, 3),
]


def pick(rng: Rng, plays: list[Play]) -> int:
    """Uniform, but one time in three a split or a bumping play when there is one (they are
    where the generators differ most)."""
    if rng.below(3) == 0:
        rich = [i for i, p in enumerate(plays) if len(p.parts) == 2 or any(p.bumps)]
        if rich:
            return rich[rng.below(len(rich))]
    return rng.below(len(plays))


def lockstep(conf: dict[str, Any], seed: int) -> int:
    with core(False):
        sp = new_game(conf, seed)
    with core(True):
        sc = new_game(conf, seed)
    assert sc.key() == sp.key()
    rng = Rng.from_seed(seed * 7919 + 3)
    events = seed % 5 == 0  # some games also check the events path with the C core's plays
    turns = 0
    while sp.turn >= 0:
        assert sc.turn == sp.turn
        with core(False):
            lp = gen_legal(sp)
        with core(True):
            lc = gen_legal(sc)
        where = (conf, seed, turns)
        assert len(lc) == len(lp), where
        assert [sig_data(p) for p in lc] == [sig_data(p) for p in lp], (
            where, format_position(sp))
        if turns % 8 == 0:  # the C core's own token text, now and then
            assert lc.tokens() == [p.token for p in lp], where
        i = pick(rng, lp)
        seat = sp.turn
        if events and turns % 3 == 0:
            with core(False):
                sp2, evp = apply_play(sp, seat, lp[i], events=True)
            with core(True):
                sc2, evc = apply_play(sc, seat, lc[i], events=True)
            assert evc == evp, where
        else:
            with core(False):
                sp2, _ = apply_play(sp, seat, lp[i], events=False)
            with core(True):
                # the C core applies its own plays and the Python engine's alike
                sc2, _ = apply_play(sc, seat, (lc if turns % 2 else lp)[i], events=False)
        assert sc2.key() == sp2.key(), where
        assert sc2.idle == sp2.idle, where
        sp, sc = sp2, sc2
        turns += 1
    assert sc.winner == sp.winner >= 0
    return turns


@pytest.mark.parametrize(("conf", "games"), GAMES,
                         ids=[",".join(f"{k}={v}" for k, v in c.items()) for c, _ in GAMES])
def test_random_games_match_the_python_engine(conf: dict[str, Any], games: int) -> None:
    turns = sum(lockstep(conf, seed) for seed in range(games))
    assert turns > games  # the games were played


def test_game_count_of_the_sweep() -> None:
    assert sum(g for _, g in GAMES) >= 600


# --------------------------------------------------------------------------------------------
# Hand-made positions (four seats: a in-spot 3, come-out 8; b 21/26; c 39/44; d 57/62;
# a and c are partners in teams2). Expected lists worked out by hand from docs/notation.md.


def test_bump_chain_through_partners_and_a_split_after_it() -> None:
    # a10+5 lands on partner c15: c goes to its in-spot 39, where a's own peg stands (c's
    # partner): that goes on to a's in-spot 3, where b stands (an opponent): b goes to start.
    text = pos("classic", {"a": "s,s,s,10,39", "b": "s,s,s,s,3", "c": "s,s,s,s,15"}, "5C")
    assert check_position(text) == ["5:a10+5", "5:a39+5"]
    _, sc = both_parse(text)
    (p, _) = legal_c(sc)
    # pegs numbered in place order: a10 = 3, a39 = 4, b3 = 9, c15 = 14
    assert p.bumps == (((14, 15, 39), (4, 39, 3), (9, 3, -1)),)
    # With a 7 the chain is a first part; the second part is played by a's other peg, now on
    # a's in-spot 3 after the chain (not from 39): 3+2 on the ring, or into home 2.
    text7 = pos("classic", {"a": "s,s,s,10,39", "b": "s,s,s,s,3", "c": "s,s,s,s,15"}, "7C")
    toks = check_position(text7)
    assert [t for t in toks if t.startswith("7:a10+5,")] == [
        "7:a10+5,a3+2", "7:a10+5,a3+2h"]


def test_seven_hands_the_rest_to_the_partner_mid_split() -> None:
    # a1 turns into home 1 with 3 (a is then done), the 4 left go to partner c's peg on 40.
    text = pos("classic", {"a": "1,h2,h3,h4,h5", "c": "s,s,s,s,40"}, "7C")
    assert check_position(text) == ["7:a1+7", "7:a1+3h,c40+4"]
    off = pos("classic", {"a": "1,h2,h3,h4,h5", "c": "s,s,s,s,40"}, "7C", seven=False)
    assert check_position(off) == ["7:a1+7"]


def test_a_win_by_a_split() -> None:
    # a1+3 fills a's home; the 4 left bring c36 into c's home 1: a and c are all home.
    text = pos("classic", {"a": "1,h2,h3,h4,h5", "c": "36,h2,h3,h4,h5"}, "7C")
    assert check_position(text) == ["7:a1+7", "7:a1+3h,c36+4", "7:a1+3h,c36+4h"]
    _, sc = both_parse(text)
    with core(True):
        s2, _ = apply_play(sc, 0, legal_c(sc)[2], events=False)
    assert (s2.winner, s2.turn) == (0, -1)
    assert engine.outcome(s2) == {"winners": [0, 2], "team": 0}


def test_nine_splits_back_past_the_come_out_hole() -> None:
    # team: a10 goes back past its come-out hole 8 (a10-4 -> 6), c50 forward; both orders.
    text = pos("team", {"a": "s,s,s,s,10", "c": "s,s,s,s,50"}, "9C")
    toks = check_position(text)
    assert "9:a10+5,c50-4" in toks
    assert "9:c50-4,a10+5" in toks
    # by first peg, then the forward-first block before the backward-first one
    assert toks.index("9:a10+1,c50-8") < toks.index("9:c50+1,a10-8") < toks.index(
        "9:a10-1,c50+8")
    assert "9:a10-4,c50+5" in toks and "9:c50+5,a10-4" in toks
    # backward over the in-spot: a5-4 -> 1 (never into home backward)
    toks = check_position(pos("team", {"a": "s,s,s,s,5", "c": "s,s,s,s,50"}, "9C"))
    assert "9:a5-4,c50+5" in toks


def test_team_nine_with_partner_bumps_both_ways() -> None:
    # a lands on partner c (sent on to 39), b and d are bumped to start
    text = pos("team", {"a": "s,s,s,10,30", "b": "s,s,s,s,14", "c": "s,s,s,s,20",
                        "d": "s,s,s,s,27"}, "JK,7C,9C")
    check_position(text)


def test_tees_three_from_home_and_snug() -> None:
    assert check_position(pos("tees", {"a": "s,s,s,s,h1"}, "3C")) == ["3:ah1-3"]
    # h1 steps back to in-spot - 2 = 1, bumping b there
    text = pos("tees", {"a": "s,s,s,s,h1", "b": "s,s,s,s,1"}, "3C")
    assert check_position(text) == ["3:ah1-3"]
    _, sc = both_parse(text)
    assert legal_c(sc)[0].bumps == (((9, 1, -1),),)
    # h3 with h4 empty is not snug: back onto the in-spot; h4+h5 are snug
    assert check_position(pos("tees", {"a": "s,s,s,h3,h5"}, "3C")) == ["3:ah3-3"]
    # partner c on 2 blocks h1's way back (ins 3, then 2)
    check_position(pos("tees", {"a": "s,s,s,s,h1", "c": "s,s,s,s,2"}, "3C,5C"))


def test_tees_jack_trades() -> None:
    text = pos("tees", {"a": "s,s,s,10,30", "b": "s,s,s,s,40", "c": "s,s,s,s,12"}, "JC")
    assert check_position(text) == ["J:a10x12", "J:a10x40", "J:a30x12", "J:a30x40"]


def test_tees_last_resort_and_king() -> None:
    # a10 with a 5 can only land on partner c15: a last resort, flagged
    text = pos("tees", {"a": "s,s,s,s,10", "c": "s,s,s,s,15"}, "5C")
    check_position(text)
    _, sc = both_parse(text)
    (p,) = legal_c(sc)
    assert p.last and p.token == "5:a10+5"
    check_position(pos("tees", {"a": "s,s,s,s,20", "b": "s,s,s,s,8"}, "AC,8C,QC,KC"))


def test_team_joker_brings_a_peg_out_first() -> None:
    text = pos("team", {"a": "s,s,s,s,10", "b": "s,s,s,s,20", "d": "s,s,s,s,50"}, "JK")
    assert check_position(text) == [
        "JK:as>20", "JK:as>50", "JK:cs>10", "JK:cs>20", "JK:cs>50", "JK:x"]
    text = pos("team", {"a": "h1,h2,h3,h4,10", "b": "s,s,s,s,20", "c": "h1,h2,h3,h4,h5"}, "JK")
    assert check_position(text) == ["JK:a10>20", "JK:x"]


def test_classic_joker_and_discards() -> None:
    check_position(pos("classic", {"a": "s,s,s,s,30", "b": "s,s,s,s,20", "c": "s,s,s,s,40"},
                       "JK,5C,9D"))
    assert check_position(pos("classic", {}, "2C,7C,9C")) == ["2:x", "7:x", "9:x"]


def test_tees_fold_on_reading_is_the_same() -> None:
    # a holds only a 3 and its peg is too close behind the come-out hole: a folds on reading
    # and play moves on (the C core deals and folds too)
    text = pos("tees", {"a": "s,s,s,s,10"}, "3C", counts={"b": 4, "c": 4, "d": 4})
    sp, sc = both_parse(text)
    assert sp.turn != 0 and sc.turn == sp.turn
    assert format_position(sc) == format_position(sp)
    assert [sig(p) for p in sc._legal] == [sig(p) for p in sp._legal]


def test_tees_used_up_deck_reshuffles_and_passes_the_deal() -> None:
    # round 3 of 3 at four seats, a plays its last card: the deck passes to a, reshuffled
    text = pos("tees", {"a": "s,s,s,s,20"}, "5C", dealer="d", rnd=3, discards=30)
    sp, sc = both_parse(text)
    (p,) = legal_c(sc)
    with core(True):
        s2, _ = apply_play(sc, 0, p, events=False)
    with core(False):
        s3, _ = apply_play(sp, 0, legal_py(sp)[0], events=False)
    assert s2.key() == s3.key()
    # dealer a, round 1 of the new deck: 20 cards dealt (b leads; a seat that cannot play
    # folds its cards onto the discards)
    assert (s2.dealer, s2.round, len(s2.pile)) == (0, 1, 32)
    assert sum(len(h) for h in s2.hands) + len(s2.discards) == 20


def test_classic_and_team_draw_reshuffles_the_discards() -> None:
    # the pile is empty: the next seat's draw (classic) / the mover's draw (team) reshuffles
    text = pos("classic", {"a": "s,s,s,s,30"}, "2C,3C,5C,7C,9C,TC",
               counts={"b": 5, "c": 5, "d": 5}, discards=141)
    check_position(text)
    _, sc = both_parse(text)
    with core(True):
        s2, _ = apply_play(sc, 0, legal_c(sc)[0], events=False)
    assert (len(s2.pile), s2.discards, len(s2.hands[1])) == (141, (), 6)
    text = pos("team", {"a": "s,s,s,s,30"}, "2C,5C,7C,9C,TC",
               counts={"b": 5, "c": 5, "d": 5}, discards=196)
    check_position(text)
    _, sc = both_parse(text)
    with core(True):
        s2, _ = apply_play(sc, 0, legal_c(sc)[0], events=False)
    assert (len(s2.pile), s2.discards, len(s2.hands[0])) == (196, (), 5)


@pytest.mark.parametrize("seats", [5, 6, 7, 8])
def test_big_boards(seats: int) -> None:
    # bump chains and splits across partners on the bigger rings (R = 18 * seats)
    pegs = {"a": "s,s,s,10,40", "b": "s,s,s,s,12", "c": "s,s,s,s,14", "e": "s,s,s,s,16"}
    for rules in ("classic", "team"):
        check_position(pos(rules, pegs, "JK,7C,8C,9C,KC", seats=seats,
                           mode="ffa" if seats in (5, 7) else None))


# --------------------------------------------------------------------------------------------
# The C sequence behaves as the list it replaces


def test_playlist_behaves_like_a_list() -> None:
    text = pos("classic", {"a": "s,s,s,10,30", "b": "s,s,s,s,20"}, "5C,7C,KC")
    sp, sc = both_parse(text)
    lp = legal_py(sp)
    lc = legal_c(sc)
    n = len(lp)
    assert len(lc) == n > 5 and bool(lc)
    assert lc[0] is lc[0]  # materialised once, then cached
    assert lc[-1] is lc[n - 1] and lc[-n] is lc[0]
    assert [p.token for p in lc[1:4]] == [p.token for p in lp[1:4]]
    assert [p.token for p in reversed(lc)] == [p.token for p in reversed(lp)]
    assert lc == lp and lc == list(lc)
    assert not lc != lp  # noqa: SIM202 (the != of the C sequence)
    assert lp[3] in lc and lp[3].token in lc.tokens()
    # a play is never its token: the C list holds no string, as the Python list holds none
    assert lp[3].token not in lc and lp[3].token not in lp and lc[3] != lp[3].token
    assert lc.index(lp[2]) == 2 and lc.count(lp[2]) == 1
    assert lc.tokens() == [p.token for p in lp]
    assert repr(lc) == repr(lp)
    assert lc + lc == lp + lp
    with pytest.raises(IndexError):
        lc[n]
    with pytest.raises(IndexError):
        lc[-n - 1]
    with pytest.raises(TypeError):
        lc["a"]
    with pytest.raises(TypeError):
        hash(lc)
    assert RULES.legal_plays(sc) == lp and RULES.legal_tokens(sc) == [p.token for p in lp]
    for copied in (copy.copy(lc), copy.deepcopy(lc), pickle.loads(pickle.dumps(lc))):
        assert type(copied) is list and [p.token for p in copied] == [p.token for p in lp]
    assert pickle.loads(pickle.dumps(sc)).key() == sc.key()
    # rules.check finds the C core's own play object, and a token
    assert RULES.check(sc, 0, lc[3]) is lc[3]
    assert RULES.check(sc, 0, lp[3].token) is lc[3]


def test_game_over_state_has_no_plays() -> None:
    text = pos("classic", {"a": "1,h2,h3,h4,h5", "c": "36,h2,h3,h4,h5"}, "7C")
    _, sc = both_parse(text)
    with core(True):
        s2, _ = apply_play(sc, 0, legal_c(sc)[2], events=False)
        lg = gen_legal(s2)
    assert len(lg) == 0 and not lg and list(lg) == []


def test_set_fast_switches_and_reports() -> None:
    prev = set_fast(False)
    try:
        assert engine.FAST is False
        assert set_fast(True) is False
        assert engine.FAST is True
        assert set_fast(True) is True
    finally:
        set_fast(prev)


# --------------------------------------------------------------------------------------------
# Bad input: a clear error, nothing changed, no crash

_F = engine._fast


def _state() -> TrackState:
    with core(True):
        return parse_position(pos("classic", {"a": "s,s,s,10,30", "b": "s,s,s,s,20"},
                                  "5C,7C,KC"))


@pytest.mark.parametrize(("field", "value", "err"), [
    ("pegs", None, TypeError),
    ("pegs", (), ValueError),
    ("pegs", (-1,) * 19, ValueError),
    ("pegs", (-1,) * 19 + (72,), ValueError),
    ("pegs", (-1,) * 19 + (206,), ValueError),
    ("pegs", (-1,) * 19 + (200,), ValueError),
    ("pegs", (-1,) * 19 + (-2,), ValueError),
    ("pegs", (-1,) * 19 + ("x",), TypeError),
    ("pegs", (-1,) * 19 + (1 << 80,), OverflowError),
    ("hands", (), ValueError),
    ("hands", ((99,), (), (), ()), ValueError),
    ("hands", ([20, 28], (), (), ()), TypeError),
    ("hands", ((-1,), (), (), ()), ValueError),
    ("turn", 4, ValueError),
    ("turn", "a", TypeError),
])
def test_bad_states_raise_and_change_nothing(field: str, value: Any, err: type) -> None:
    s = _state()
    setattr(s, field, value)
    s._legal = None
    with pytest.raises(err):
        _F.legal(s)
    assert getattr(s, field) is value and s._legal is None


def test_bad_calls_raise() -> None:
    with pytest.raises(TypeError):
        _F.legal(object())
    with pytest.raises(TypeError):
        _F.legal(None)
    with pytest.raises(TypeError):
        _F.apply(1, 2)
    with pytest.raises(TypeError):
        _F.apply(object(), 0, None)
    with pytest.raises(AttributeError):
        _F.Config(object())
    s = _state()
    with pytest.raises(ValueError):
        _F.tees_continue(s, 0)  # not a tees game


@pytest.mark.parametrize(("parts", "bumps", "rank", "err"), [
    ((("f", 99, 10, 15, 5),), ((),), 5, ValueError),
    ((("f", 3, 10, 15, 5),) * 3, ((),) * 3, 5, ValueError),
    ((("f", 3, 10, 15, 5),), ((), ()), 5, ValueError),
    ((("f", 3, 10, 500, 5),), ((),), 5, ValueError),
    ((("f", 3, 10, 15, 5),), (((99, 15, -1),),), 5, ValueError),
    ((("f", 3, 10, 15, 5),), (((9, 15, 300),),), 5, ValueError),
    ((("f", 3, 10, 15, 5),), (((9, 15, -1),) * 40,), 5, ValueError),
    ((("f", 3, 10, 15, 5),), ((9, 15, -1),), 5, ValueError),
    ((("z", 3, 10, 15, 5),), ((),), 5, ValueError),
    ((("ff", 3, 10, 15, 5),), ((),), 5, ValueError),
    ((("f", 3, 10, 15),), ((),), 5, ValueError),
    ((("f", 3, 10, 15, 5),), ((),), 9, RulesError),
    ((("f", 3, 10, 15, 5),), ((),), 14, ValueError),
    ((("f", 3, 10, -1, 5),), ((),), 5, ValueError),
    ((("t", 3, 10, 15, 77),), ((),), 11, ValueError),
    ((("f", 3, 10, 15, 5), ("x", -1, 0, 0, 0)), ((), ()), 5, ValueError),
    ((), (), 5, ValueError),
])
def test_bad_plays_raise_and_change_nothing(parts: tuple, bumps: tuple, rank: int,
                                            err: type) -> None:
    s = _state()
    before = s.key()
    play = Play(rank, parts, bumps)
    with core(True), pytest.raises(err):
        apply_play(s, 0, play, events=False)
    assert s.key() == before
    with pytest.raises(ValueError):
        _F.apply(s, 7, gen_legal(s)[0])  # no seat 7
    assert s.key() == before


def test_bad_rng_on_reshuffle_raises() -> None:
    text = pos("classic", {"a": "s,s,s,s,30"}, "2C,3C,5C,7C,9C,TC",
               counts={"b": 5, "c": 5, "d": 5}, discards=141)
    with core(True):
        s = parse_position(text)
        s.rng = "x"
        with pytest.raises(TypeError):
            apply_play(s, 0, gen_legal(s)[0], events=False)


def test_corrupted_states_and_plays_never_crash() -> None:
    """Random damage to real states and random plays: each call returns or raises an ordinary
    exception (a crash would take the interpreter down with it). Where a damaged state is
    still read, nothing it was given changes."""
    rng = Rng.from_seed(20261130)

    def r(n: int) -> int:
        return rng.below(n)

    junk_locs = [-2, -1, 0, 71, 72, 143, 144, 199, 200, 201, 205, 206, 1 << 70, "x", None]
    junk_cards = [-1, 0, 1, 55, 56, 1000, "AS", None, 1 << 70]
    states = []
    real: list[Play] = []  # plays made in those games
    for i, conf in enumerate([{"rules": "tees", "seats": 4}, {"rules": "tees", "seats": 6},
                              {"rules": "classic", "seats": 4}, {"rules": "team", "seats": 8},
                              {"rules": "classic", "seats": 3}]):
        with core(True):
            s = new_game(conf, i)
            for _ in range(60):
                lg = gen_legal(s)
                real.append(lg[r(len(lg))])
                s, _ = apply_play(s, s.turn, real[-1], events=False)
                states.append(s)
                if s.turn < 0:
                    break
    calls = raised = 0
    for _ in range(3000):
        s = states[r(len(states))].copy()
        k = r(6)
        if k == 0:
            pegs = list(s.pegs)
            pegs[r(len(pegs))] = junk_locs[r(len(junk_locs))]
            s.pegs = tuple(pegs)
        elif k == 1:
            pegs = list(s.pegs)
            for _ in range(1 + r(6)):
                pegs[r(len(pegs))] = r(s.cfg.R) if r(2) else 201 + r(5)  # shared holes
            s.pegs = tuple(pegs)
        elif k == 2:
            hands = list(s.hands)
            hands[max(s.turn, 0)] = tuple(junk_cards[r(len(junk_cards))] if r(4) == 0 else r(56)
                                          for _ in range(r(12)))
            s.hands = tuple(hands)
        elif k == 3:
            s.pile = tuple(r(56) for _ in range(r(3)))
            s.rng = [-1, 1 << 64, 1 << 70, "x", 0][r(5)]
        elif k == 4:
            s.turn = [-1, 0, 1, 7, 8, -2, "a"][r(7)]
            s.round = [-1, 0, 3, 1000, 1 << 40][r(5)]
        before = (s.pegs, s.hands, s.pile, s.discards, s.rng, s.turn)
        if r(2) == 0:
            parts = tuple((["f", "b", "o", "j", "t", "x", "z"][r(7)], r(50) - 5, r(80) - 1,
                           r(80) - 1, r(50) - 5) for _ in range(r(4)))
            play = Play(r(15), parts, tuple(tuple((r(45) - 2, r(80) - 1, r(80) - 1)
                                                  for _ in range(r(3))) for _ in parts))
        else:
            play = real[r(len(real))]
        for which in range(2):
            calls += 1
            try:
                if which == 0:
                    _F.legal(s)
                else:
                    _F.apply(s, r(9) - 1, play)
            except (TypeError, ValueError, OverflowError, RulesError):
                raised += 1
        assert (s.pegs, s.hands, s.pile, s.discards, s.rng, s.turn) == before
    assert calls == 6000 and 0 < raised < calls


def test_draw_into_an_unsorted_hand_inserts_where_bisect_does() -> None:
    # engine._insert is bisect_right; hands are kept sorted, but a hand set by hand need not
    # be: the C core inserts at the same place
    text = pos("classic", {"a": "s,s,s,s,30"}, "2C,3C,5C,7C,9C,TC",
               counts={"b": 5, "c": 5, "d": 5})
    for hand in ((52, 8, 40, 12, 30), (8, 52, 12), (), (55, 54, 53, 4, 4)):
        sp, sc = both_parse(text)
        for s in (sp, sc):
            s.hands = (s.hands[0], hand, *s.hands[2:])
        with core(False):
            a, _ = apply_play(sp, 0, legal_py(sp)[0], events=False)
        with core(True):
            b, _ = apply_play(sc, 0, legal_c(sc)[0], events=False)
        assert b.key() == a.key() and len(b.hands[1]) == len(hand) + 1
