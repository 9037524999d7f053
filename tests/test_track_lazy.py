"""The Python engine's lazy legal list (``engine.LegalList``) and the one-play / count API.

The list keeps raw plays, and runs of them (tees Jack trades, team splits of a first part
that bumped nothing) as factors, and makes a :class:`Play` only for the plays read. These
tests check, on the Python engine, that every way of reading it gives the same plays in the
same order as the flat list, that ``count_legal`` / ``nth_legal`` / ``first_legal`` /
``find_legal`` / ``has_legal`` agree with it, that the rollout policy's scores of the raw
plays equal the scores of the plays, and ``engine_kind``.
"""

from __future__ import annotations

import pytest

from game.ai import track as ai
from game.rules.cards import Rng
from game.rules.track import RULES, engine, engine_kind
from game.rules.track.engine import (
    START,
    LegalList,
    TrackState,
    apply_play,
    count_legal,
    find_legal,
    first_legal,
    gen_legal,
    has_legal,
    iter_legal,
    new_game,
    nth_legal,
    raw_token,
    set_fast,
)
from tests.track_testing import python_engine


def positions(rules: str, seats: int, games: int, every: int) -> list[TrackState]:
    """Every ``every``-th position of seeded random games (Python engine)."""
    out = []
    for seed in range(games):
        s = new_game({"rules": rules, "seats": seats}, seed)
        rng = Rng.from_seed(seed)
        n = 0
        while s.turn >= 0:
            lg = gen_legal(s)
            if n % every == 0:
                out.append(s)
            s, _ = apply_play(s, s.turn, lg[rng.below(len(lg))], events=False)
            n += 1
    return out


def fresh(s: TrackState) -> LegalList:
    s._legal = None
    lg = gen_legal(s)
    assert isinstance(lg, LegalList)
    return lg


@pytest.mark.parametrize(("rules", "seats"), [("tees", 4), ("classic", 4), ("team", 4),
                                               ("team", 8)])
def test_every_read_gives_the_flat_list(rules: str, seats: int) -> None:
    runs = 0
    with python_engine():
        for s in positions(rules, seats, 2, 7):
            flat = [raw_token(r) for r in fresh(s).raw]  # the runs expanded
            lg = fresh(s)
            runs += lg._raw is None  # kept some run as factors
            assert len(lg) == count_legal(s) == len(flat) > 0
            # one play read by index, from the factors (the list never expanded before)
            for i in {0, len(flat) // 2, len(flat) - 1}:
                one = fresh(s)
                assert one[i].token == flat[i]
                assert one[i] is one[i]  # made once
                assert one[-1].token == flat[-1]
                assert nth_legal(s, i).token == flat[i]
            s._legal = lg
            assert lg.tokens() == flat
            assert [p.token for p in lg] == flat
            assert [p.token for p in iter_legal(s)] == flat
            assert [p.token for p in lg[1:4]] == flat[1:4]
            assert lg == list(lg) and lg != list(lg)[1:]
            assert first_legal(s) is lg[0] and has_legal(s)
            mid = flat[len(flat) // 2]
            assert find_legal(s, mid) is lg[len(flat) // 2]
            assert find_legal(s, "K:zz") is None
            # the rules' own look-up by token gives the list's play
            assert RULES.check(s, s.turn, mid) is lg[len(flat) // 2]
    if rules in ("tees", "team"):
        assert runs > 0  # the factored runs were exercised


def test_a_play_is_made_once_whatever_the_order_of_reads() -> None:
    """The list keeps the first play read on its own (no list of the others) and moves it
    into the list by index at the second: every read of an index gives that one object, by a
    negative index too, through iteration and after, and an index out of range raises at
    every stage."""
    with python_engine():
        s = next(st for st in positions("classic", 4, 1, 40) if count_legal(st) >= 3)
        n = count_legal(s)
        lg = fresh(s)
        with pytest.raises(IndexError):
            lg[-n - 1]  # the read is the test
        first = lg[1]
        assert lg[1 - n] is first and lg[1] is first
        with pytest.raises(IndexError):
            lg[n]
        other = lg[-1]  # the second index read: the list by index starts here
        assert lg[1] is first and lg[n - 1] is other
        with pytest.raises(IndexError):
            lg[-n - 1]
        every = list(lg)
        assert every[1] is first and every[-1] is other and lg[0] is every[0]
        lg2 = fresh(s)
        one = lg2[2]
        assert list(lg2)[2] is one  # iteration after one read keeps that play
        assert [p.token for p in lg2] == [p.token for p in every]


def test_out_of_range_and_game_over() -> None:
    with python_engine():
        s = new_game({"rules": "classic", "seats": 2}, 3)
        n = count_legal(s)
        for bad in (n, -1, 1.0, "0"):
            with pytest.raises(IndexError):
                nth_legal(s, bad)  # type: ignore[arg-type]
        with pytest.raises(IndexError):
            fresh(s)[n]
        over = s.copy()
        over.turn = -1
        assert count_legal(over) == 0 and first_legal(over) is None
        assert not has_legal(over) and list(iter_legal(over)) == []


def test_jack_trades_hand_made() -> None:
    """Tees, seat 0 (colour a) holds one Jack; a has ring pegs on 5 and 10, b on 20, c on 30,
    d on 40, every other peg in start. A Jack trades a ring peg of a with any other colour's
    ring peg: 2 x 3 = 6 plays, a's pegs by hole, the other pegs by hole."""
    with python_engine():
        s = new_game({"rules": "tees", "seats": 4}, 1).copy()
        pegs = [START] * 20
        pegs[0], pegs[1], pegs[5], pegs[10], pegs[15] = 5, 10, 20, 30, 40
        s.pegs = tuple(pegs)
        s.turn = 0
        s.hands = ((11 << 2,), (), (), ())
        want = ["J:a5x20", "J:a5x30", "J:a5x40", "J:a10x20", "J:a10x30", "J:a10x40"]
        lg = fresh(s)
        assert lg._raw is None and len(lg) == 6  # counted from the factors
        assert lg[4].token == "J:a10x30"
        assert lg.tokens() == want
        p = nth_legal(s, 3)
        assert (p.rank, p.parts[0].kind, p.parts[0].peg, p.parts[0].frm, p.parts[0].to,
                p.parts[0].n) == (11, "t", 1, 10, 20, 5)


@pytest.mark.parametrize(("rules", "seats"), [("tees", 4), ("classic", 4), ("team", 8)])
def test_rollout_scores_of_raw_plays(rules: str, seats: int) -> None:
    with python_engine():
        for s in positions(rules, seats, 1, 9):
            lg = fresh(s)
            raw_scores = ai.lite_scores(s, s.turn, lg)  # from the raw plays
            plays = list(fresh(s))
            assert raw_scores == [ai.lite_score(s, s.turn, p) for p in plays]
            best = max(range(len(plays)), key=lambda i: (raw_scores[i], -i))
            assert ai.lite_choice(s, s.turn, fresh(s)).token == plays[best].token


def test_engine_kind() -> None:
    prev = set_fast(False)
    try:
        assert engine_kind() == "Python"
        set_fast(True)
        assert engine_kind() == ("C core" if engine._fast is not None else "Python")
    finally:
        set_fast(prev)


def test_picked_play_keeps_its_parts_raw_until_read() -> None:
    """A play read from the Python list keeps its parts as the raw 5-tuples (the applies read
    the slot as it is) until ``.parts`` is read, which gives :class:`Part` (made once); it
    compares, hashes, pickles and copies as the plain ``Play`` of the same token, and the C
    core applies it as it applies that plain ``Play``."""
    import copy
    import pickle

    from game.rules.track.engine import Part, Play

    with python_engine():
        s = new_game({"rules": "classic", "seats": 4}, 5)
        lg = fresh(s)
        p = lg[0]
        raw = lg.raw[0]
        assert type(engine._get_parts(p)[0]) is tuple  # not made yet
        plain = Play(raw[0], tuple(Part(*x) for x in raw[1]), raw[2], len(raw) == 4)
        assert p == plain and hash(p) == hash(plain) and str(p) == raw_token(raw)
        assert p != str(p)  # never equal to a string
        quiet = apply_play(s, s.turn, p, events=False)[0]
        assert quiet == apply_play(s, s.turn, plain, events=False)[0]
        assert type(engine._get_parts(p)[0]) is tuple  # the apply did not make them
        for again in (pickle.loads(pickle.dumps(p)), copy.copy(p)):
            assert type(again) is Play and again == plain
        parts = p.parts
        assert all(type(x) is Part for x in parts) and p.parts is parts
        assert (parts[0].kind, parts[0].peg) == (raw[1][0][0], raw[1][0][1])
    q = lg[1]  # made on the Python engine, its parts still raw
    assert type(engine._get_parts(q)[0]) is tuple
    py_after = apply_play(s, s.turn, q, events=False)[0]
    if engine._fast is not None:  # the C core applies it as the Python engine does
        prev = set_fast(True)
        try:
            assert type(engine._get_parts(q)[0]) is tuple
            assert apply_play(s, s.turn, q, events=False)[0] == py_after
        finally:
            set_fast(prev)


@pytest.mark.parametrize(("rules", "seats"), [("tees", 4), ("classic", 2), ("team", 4)])
def test_quiet_apply_sets_every_field(rules: str, seats: int) -> None:
    """The Python quiet apply builds its state field by field (not a copy): the fields it
    sets are every field of the dataclass, every state it makes (plays, discards, deals,
    reshuffles, the winning play) has every slot set, and it equals the state of the apply
    with events, field by field (``idle`` too, which the key leaves out)."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(TrackState)}
    assert set(engine._FIELDS_SET) == names
    with python_engine():
        for seed in range(3):
            s = new_game({"rules": rules, "seats": seats}, seed)
            rng = Rng.from_seed(seed)
            while s.turn >= 0:
                lg = gen_legal(s)
                p = lg[rng.below(len(lg))]
                quiet = apply_play(s, s.turn, p, events=False)[0]
                loud = apply_play(s, s.turn, p, events=True)[0]
                for n in names - {"_legal", "_board"}:
                    assert getattr(quiet, n) == getattr(loud, n), n
                assert quiet._legal is None or rules == "tees"
                assert quiet._board is not None
                s = quiet
            assert s.winner >= 0
