"""Property tests (Hypothesis): bad input never escapes as anything but a RulesError, and
nothing ever changes the state it is given."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.api import NotationError, RulesError
from game.rules.cards import Rng
from game.rules.layout import RULES, format_position, parse_position
from game.rules.layout.engine import State


@cache
def _states() -> tuple[State, ...]:
    out = []
    for seed in range(6):
        cfg = {"seats": 2 + seed, "layout_size": 3, "last_chance": seed % 2 == 1,
               "wild": "JK"[seed % 2], "upcard": seed % 3 == 0}
        s = RULES.new_game(cfg, seed)
        rng = Rng.from_seed(seed)
        while (seat := RULES.to_move(s)) is not None:
            out.append(s)
            legal = RULES.legal_plays(s)
            s, _ = RULES.apply(s, seat, legal[rng.below(len(legal))])
        out.append(s)
    return tuple(out)


TOKENS = st.one_of(
    st.sampled_from(["S", "D", "s", "d", "W1", "W5", "W10", "J3", "K3", "W0", "W11", "", "X"]),
    st.text(max_size=5),
)
SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(k=st.integers(min_value=0), seat=st.integers(min_value=-1, max_value=9), token=TOKENS)
def test_any_play_either_applies_or_raises_and_never_mutates(k: int, seat: int,
                                                             token: str) -> None:
    states = _states()
    s = states[k % len(states)]
    before = s.key()
    legal = [str(p) for p in RULES.legal_plays(s)]
    try:
        RULES.check(s, seat, token)
        ok = True
    except RulesError:
        ok = False
    assert s.key() == before
    expected = seat == RULES.to_move(s) and token.strip().upper() in legal + [
        f"{'J' if s.wild == 11 else 'K'}{t[1:]}" for t in legal if t[0] == "W"]
    assert ok == expected
    try:
        new, _ = RULES.apply(s, seat, token)
        assert ok and new.ply == s.ply + 1
    except RulesError:
        assert not ok
    assert s.key() == before


@SETTINGS
@given(k=st.integers(min_value=0), data=st.data())
def test_damaged_positions_raise_notation_errors_only(k: int, data: st.DataObject) -> None:
    states = _states()
    text = format_position(states[k % len(states)])
    i = data.draw(st.integers(min_value=0, max_value=len(text) - 1))
    j = data.draw(st.integers(min_value=i, max_value=min(len(text), i + 6)))
    junk = data.draw(st.text(alphabet="?,=.:-0123456789ACDHJKQSTWp ", max_size=4))
    damaged = text[:i] + junk + text[j:]
    try:
        s = parse_position(damaged)
    except NotationError:
        return
    again = format_position(s)
    assert format_position(parse_position(again)) == again
