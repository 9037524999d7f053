"""The tees generator of the fourth pass (``movegen._gen_tees``: ring pegs off the ring mask,
tables by hole and by home mask) against the third pass's, kept as ``_gen_tees_ref``: the same
raw plays in the same order on every position of seeded random games, for the seat to move
and for every other seat's view of the same board (a partner's colour once a seat is home,
last resorts, Jack trades, backward 3s from home), and through the lazy list."""

from __future__ import annotations

import pytest

from game.rules.cards import Rng
from game.rules.track import engine
from game.rules.track.engine import (
    LegalList,
    TrackState,
    apply_play,
    gen_legal,
    new_game,
    raw_token,
    set_fast,
)
from game.rules.track.movegen import _gen_tees, _gen_tees_ref
from game.rules.track.notation import parse_position


def positions(seats: int, games: int) -> list[TrackState]:
    out = []
    prev = set_fast(False)
    try:
        for seed in range(games):
            s = new_game({"rules": "tees", "seats": seats}, seed)
            rng = Rng.from_seed(seed)
            while s.turn >= 0:
                out.append(s)
                lg = gen_legal(s)
                s, _ = apply_play(s, s.turn, lg[rng.below(len(lg))], events=False)
    finally:
        set_fast(prev)
    return out


@pytest.mark.parametrize("seats", [4, 6])
def test_the_generator_gives_the_reference_plays(seats: int) -> None:
    seen = {"last": 0, "trades": 0, "back3": 0, "partner": 0, "home": 0}
    for s in positions(seats, 6):
        for t in range(seats):
            v = s.copy()
            v.turn = t
            got = _gen_tees(v)
            want = _gen_tees_ref(v)
            assert got == want, (v, t)
            lazy = _gen_tees(v.copy(), lazy=True)
            assert isinstance(lazy, LegalList) and len(lazy) == len(want)
            assert [raw_token(r) for r in lazy.raw] == [raw_token(r) for r in want]
            if want and len(want[0]) == 4:
                seen["last"] += 1
            seen["trades"] += any(r[1][0][0] == "t" for r in want)
            seen["back3"] += any(r[1][0][0] == "b" and r[1][0][2] > 200 for r in want)
            seen["partner"] += any(r[1][0][1] // 5 != t for r in want)
            seen["home"] += any(r[1][0][0] == "f" and r[1][0][2] > 200 for r in want)
    # the sweep reached every special case the tables serve
    assert all(k > 0 for k in seen.values()), seen


def test_an_unsorted_hand_and_want_all_take_the_reference() -> None:
    s = parse_position("tees 4 teams2 jokers=off seven=on a:s,s,s,40,h1 b:s,s,s,s,s "
                       "c:s,s,s,s,s d:s,s,s,2,17 turn=a hand=3D,8D,TD,QS cards=4,4,4,4 "
                       "pile=16 discards=20 dealer=d round=2")
    base = _gen_tees(s)
    u = s.copy()
    u.hands = (tuple(reversed(s.hands[0])), *s.hands[1:])  # a hand set by hand, unsorted
    assert _gen_tees(u) == _gen_tees_ref(u)
    assert sorted(map(raw_token, _gen_tees(u))) == sorted(map(raw_token, base))
    normal, last = _gen_tees(s, True)
    assert [p.token for p in normal] == [raw_token(r) for r in base] and last == []


def test_the_jack_run_lists_the_other_pegs_only_when_read() -> None:
    s = parse_position("tees 4 teams2 jokers=off seven=on a:s,s,s,10,20 b:s,s,s,s,30 "
                       "c:s,s,s,5,50 d:s,s,s,s,60 turn=a hand=JD cards=1,4,4,4 "
                       "pile=16 discards=23 dealer=d round=2")
    with_engine = set_fast(False)
    try:
        s._legal = None  # (parse_position may have cached the C core's list)
        lg = gen_legal(s)
        assert isinstance(lg, LegalList) and lg._raw is None  # one run, kept as factors
        assert len(lg) == 2 * 4  # two ring pegs of a, four other ring pegs
        run = lg._items[0]  # type: ignore[index]
        assert type(run) is engine._Trades
        assert run.others() == [(x, s.pegs.index(x)) for x in (5, 30, 50, 60)]  # by hole
        # mover-major: play 5 is a's second ring peg (20) with the second other peg (30)
        assert lg[5].token == "J:a20x30" and str(lg[0]) == "J:a10x5"
        assert [p.token for p in lg] == [raw_token(r) for r in _gen_tees_ref(s)]
    finally:
        set_fast(with_engine)
