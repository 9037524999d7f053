"""The classic/team generator's lazy runs (``game/rules/track/lazy.py``): the joker jumps and
the classic 7 splits are counted without being built and made only when read.

Checked on the Python engine: the lists with the runs give the same plays in the same order,
read whole, one index at a time, or through the non-lazy generator, as the plays built one
by one (the classic 7 splits by ``moves._sevens_one_colour``, the joker jumps by their
definition written out here); the 7-split count of small boards worked out by hand; and that
a count and one play read do not build the other first parts' plays.
"""

from __future__ import annotations

from typing import Any

import pytest

from game.rules.cards import Rng
from game.rules.track import lazy, movegen
from game.rules.track.config import HOME0, START
from game.rules.track.engine import (
    TrackState,
    apply_play,
    board,
    gen_legal,
    new_game,
    raw_token,
)
from game.rules.track.moves import _land
from game.rules.track.state import controlled
from tests.track_testing import python_engine


def positions(conf: dict[str, Any], games: int) -> list[TrackState]:
    """Every position of seeded random games (Python engine)."""
    out = []
    for seed in range(games):
        s = new_game(conf, seed)
        rng = Rng.from_seed(seed)
        while s.turn >= 0:
            lg = gen_legal(s)
            out.append(s)
            s, _ = apply_play(s, s.turn, lg[rng.below(len(lg))], events=False)
    return out


def fresh(s: TrackState) -> TrackState:
    t = s.copy()
    t._legal = None
    return t


CLASSIC = [
    {"rules": "classic", "seats": 1},
    {"rules": "classic", "seats": 2},
    {"rules": "classic", "seats": 4},
    {"rules": "classic", "seats": 4, "mode": "ffa"},
    {"rules": "classic", "seats": 4, "seven_to_partner": False},
    {"rules": "classic", "seats": 6, "teams": 3},
    {"rules": "classic", "seats": 8},
]


def tokens_of(lg: Any) -> list[str]:
    return [raw_token(r) for r in lg]


@pytest.mark.parametrize("conf", CLASSIC, ids=lambda c: "-".join(map(str, c.values())))
def test_classic_sevens_run_gives_the_plays_built_one_by_one(
        conf: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    with python_engine():
        states = [s for s in positions(conf, 6) if any(c >> 2 == 7 for c in s.hands[s.turn])]
        assert len(states) > 100
        got: list[Any] = []
        real = movegen._sevens_run

        def recording(*a: Any) -> Any:
            got.append(real(*a))
            return got[-1]

        for s in states:
            monkeypatch.setattr(movegen, "_sevens_run", recording)
            lg = movegen._gen_ct(fresh(s), lazy=True)
            lazy_toks = lg.tokens()
            one_by_one = [raw_token(lg._get_raw(k)) for k in range(len(lg))]
            flat = tokens_of(movegen._gen_ct(fresh(s)))
            with monkeypatch.context() as mp:
                # the 7 splits built one by one (the builder the run falls back to)
                mp.setattr(movegen, "_sevens_run", lambda *a: False)
                built = tokens_of(movegen._gen_ct(fresh(s)))
            assert lazy_toks == one_by_one == flat == built
            assert len(lg) == len(built)
        # the run (or no split at all) is the common case, building them the exception
        assert sum(type(g) is lazy._Sevens for g in got) > len(got) // 4
        assert sum(g is False for g in got) < len(got) // 10


def naive_jokers(s: TrackState) -> list[str]:
    """The joker jumps by their definition: every source peg (team: the pegs in start while
    there are any) onto every ring peg of another colour whose bump chain is legal."""
    cfg = s.cfg
    occ, _rm, _hm = board(s)
    cols = controlled(cfg, s.turn, s.pegs)
    team = cfg.rules == 2
    starts = []
    ring = []
    for c in cols:
        pids = range(c * 5, c * 5 + 5)
        st = [p for p in pids if s.pegs[p] == START]
        if st:
            starts.append(st[0])
        ring += [(s.pegs[p], p) for p in pids if 0 <= s.pegs[p] < HOME0]
    ring.sort()
    if team:
        sources = [(START, p) for p in starts] if starts else ring
    else:
        sources = [(START, p) for p in starts] + ring
    out = []
    for loc, pid in sources:
        for x in sorted(x for x in s.pegs if 0 <= x < HOME0):
            if occ[x] // 5 == pid // 5:
                continue
            b = _land(cfg, pid, x, occ)
            if b is not None:
                out.append(raw_token((0, (("j", pid, loc, x, 0),), (b,))))
    return out


@pytest.mark.parametrize("conf", [*CLASSIC[1:], {"rules": "team", "seats": 4},
                                  {"rules": "team", "seats": 6}],
                         ids=lambda c: "-".join(map(str, c.values())))
def test_joker_run_gives_the_jumps_of_the_definition(conf: dict[str, Any]) -> None:
    with python_engine():
        states = [s for s in positions(conf, 8) if any(c >> 2 == 0 for c in s.hands[s.turn])]
        assert len(states) > 50
        seen = 0
        for s in states:
            lg = movegen._gen_ct(fresh(s), lazy=True)
            jr = [it for it in (lg._items or lg._raw) if type(it) is lazy._Jokers]
            want = naive_jokers(s)
            if not jr:
                assert want == []
                continue
            seen += 1
            (run,) = jr
            assert run[0] == len(want)
            assert tokens_of(run.all()) == want
            assert [raw_token(run.get(k)) for k in range(run[0])] == want
            # the list's tail is the jumps (then, with no other play, the discards)
            assert [t for t in lg.tokens() if t.startswith("JK:") and t[3:] != "x"] == want
        assert seen > 30


def board_with(pegs0: dict[int, int], hand: tuple[int, ...]) -> TrackState:
    """A one-seat classic game with seat 0's pegs at ``pegs0`` (peg -> hole), the rest in
    start, and ``hand`` in its hand."""
    s = new_game({"rules": "classic", "seats": 1}, 1)
    t = s.copy()
    pegs = [START] * len(s.pegs)
    for p, x in pegs0.items():
        pegs[p] = x
    t.pegs = tuple(pegs)
    t.hands = (tuple(sorted(hand)),)
    t._legal = None
    t._board = None
    return t


def sevens(s: TrackState) -> list[str]:
    return [t for t in movegen._gen_ct(s, lazy=True).tokens() if "," in t]


def test_seven_split_counts_worked_out_by_hand() -> None:
    # one seat: ring of 72 holes, in-spot 3; a hand of one 7
    with python_engine():
        # pegs at 20 and 23 (in-spot 55 and 52 holes ahead: home out of reach). The peg at 20
        # first: 1 or 2 (3 meets the peg at 23), then 23 moves 6 or 5 (free ahead): 2; the
        # peg at 23 first: 1..6, then 20 moves 6..1 with the gap 3 + a: 7 - a < 3 + a for
        # a = 3..6: 4. And one single 7 (23 -> 30; 20 is blocked by 23).
        s = board_with({0: 20, 1: 23}, (7 << 2,))
        assert len(sevens(s)) == 6
        assert len(movegen._gen_ct(s, lazy=True)) == 7
        # pegs at 1 (in-spot 2 ahead, home empty) and 40. 1 first: to the ring 1..6, then 40
        # moves 6..1: 6; into home 3..6 (home 1..4), then 40 moves 4..1: 4. 40 first: 1..6,
        # then 1 moves 6..1 to the ring (6) and into home when 7 - a >= 3 (a = 1..4): 4.
        # 6 + 4 + 10 = 20 splits; singles: 1 -> 8 and 1 -> home 5, 40 -> 47.
        s = board_with({0: 1, 1: 40}, (7 << 2,))
        assert len(sevens(s)) == 20
        assert len(movegen._gen_ct(s, lazy=True)) == 23
        # the same with a peg in home 2 (free from home 1: 1 hole; ahead of it: 3).
        # 1 first, to the ring 1..6: 40 moves 6..1 (6) and the home peg 3..1 (a = 4..6: 3);
        # into home 1 (a = 3): 40 moves 4 (1), the home peg cannot: 10.
        # 40 first, 1..6: 1 moves 6..1 to the ring (6), into home 1 with 3 (a = 4: 1), the
        # home peg 3..1 (a = 4..6: 3): 10.
        # The home peg first, 1..3 (to home 3..5; free from home 1: a + 1 holes): 1 moves
        # 6..4 to the ring (3) and into home when 7 - a <= 3 + a (a = 2, 3: 2), 40 moves
        # 6..4 (3): 8. 10 + 10 + 8 = 28.
        s = board_with({0: 1, 1: 40, 2: HOME0 + 2}, (7 << 2,))
        assert len(sevens(s)) == 28


def test_a_count_and_one_play_build_no_other_play(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def spy(name: str, real: Any) -> Any:
        def f(*a: Any) -> Any:
            calls.append(name)
            return real(*a)
        return f

    # the builders a run may fall back to: the first part's plays, every play
    monkeypatch.setattr(lazy, "_split_plays", spy("first part", lazy._split_plays))
    monkeypatch.setattr(lazy, "_sevens_one_colour", spy("all", lazy._sevens_one_colour))
    with python_engine():
        s = board_with({0: 1, 1: 40}, (7 << 2,))
        lg = movegen._gen_ct(s, lazy=True)
        assert len(lg) == 23
        last = lg[len(lg) - 1]  # the last split: 40 moves 6, then 1 moves 1
        first = lg[3]  # the first split, after the three single 7s: 1 -> 2, then 40 + 6
        assert calls == []  # counted and read without building the others
        assert (str(first), str(last)) == ("7:a1+1,a40+6", "7:a40+6,a1+1")
        assert [str(p) for p in lg] == lg.tokens()
        assert calls == ["all"]  # the whole list: the builder, once
