"""The shared rules API: the registry names the games, and each game declares what the table,
the CPU players and the client use (no probing)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from game.rules import registry
from game.rules.api import ConfigError, GameRules, RulesError, UnknownGame


def test_the_registry_names_both_games_and_returns_their_rules() -> None:
    from game.rules.layout import RULES as LAYOUT
    from game.rules.track import RULES as TRACK

    assert registry.names() == ("track", "layout")
    assert set(registry.GAMES) == {"track", "layout"}
    assert registry.rules_for("track") is TRACK
    assert registry.rules_for("layout") is LAYOUT
    assert registry.rules_for("track") is registry.rules_for("track")


@pytest.mark.parametrize("bad", ["chess", "", "Track", "game.rules.track", None, 3, ("track",)])
def test_an_unknown_game_is_a_clear_error(bad: object) -> None:
    with pytest.raises(UnknownGame) as e:
        registry.rules_for(bad)  # type: ignore[arg-type]
    assert "unknown game" in str(e.value)
    assert "'track'" in str(e.value) and "'layout'" in str(e.value)
    # it is a config error (a game name is part of a table's config) and a lookup error
    assert isinstance(e.value, ConfigError) and isinstance(e.value, RulesError)
    assert isinstance(e.value, LookupError)


def test_naming_a_game_imports_it_only_when_asked() -> None:
    code = (
        "import sys\n"
        "from game.rules import registry\n"
        "before = 'game.rules.layout' in sys.modules\n"
        "registry.rules_for('layout')\n"
        "print(before, 'game.rules.layout' in sys.modules, 'game.rules.track' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "False"]


@pytest.mark.parametrize(
    ("name", "title", "seats", "hides"),
    [("track", "Track", (1, 8), True), ("layout", "Trash", (2, 8), False)],
)
def test_each_game_declares_its_capabilities(
    name: str, title: str, seats: tuple[int, int], hides: bool
) -> None:
    rules = registry.rules_for(name)
    assert isinstance(rules, GameRules)
    assert rules.name == name and rules.title == title
    assert (rules.min_seats, rules.max_seats) == seats
    assert rules.hides_hands_from_neighbours is hides
    # the declared seat range is the one normalize_config accepts
    lo, hi = seats
    base = {"rules": "classic"} if name == "track" else {}
    assert rules.normalize_config({**base, "seats": lo})["seats"] == lo
    assert rules.normalize_config({**base, "seats": hi})["seats"] == hi
    for bad in (lo - 1, hi + 1):
        with pytest.raises(ConfigError):
            rules.normalize_config({**base, "seats": bad})


@pytest.mark.parametrize(
    ("name", "config", "first_event"),
    [("track", {"rules": "classic", "seats": 4}, "deal"),
     ("track", {"rules": "tees", "seats": 4}, "deal"),
     ("layout", {"seats": 3}, "dealt")],
)
def test_start_is_new_game_plus_the_opening_events(
    name: str, config: dict[str, object], first_event: str
) -> None:
    rules = registry.rules_for(name)
    state, events = rules.start(config, 11)
    assert state == rules.new_game(config, 11)
    assert events and events[0]["type"] == first_event
    assert any(e["type"] == "turn" for e in events)
    assert all(isinstance(e, dict) and "type" in e for e in events)


@pytest.mark.parametrize(
    ("name", "config"),
    [("track", {"rules": "classic", "seats": 4}), ("track", {"rules": "team", "seats": 4}),
     ("track", {"rules": "tees", "seats": 6}), ("layout", {"seats": 4})],
)
def test_legal_tokens_are_the_legal_plays_written_out(name: str, config: dict[str, object]
                                                      ) -> None:
    from game.rules.cards import Rng

    rules = registry.rules_for(name)
    state = rules.new_game(config, 5)
    rng = Rng.from_seed(5)
    for _ in range(60):
        if rules.to_move(state) is None:
            break
        tokens = rules.legal_tokens(state)
        assert tokens == [str(p) for p in rules.legal_plays(state)]
        assert tokens and all(type(t) is str for t in tokens)
        seat = rules.to_move(state)
        assert seat is not None
        state, _ = rules.apply(state, seat, tokens[rng.below(len(tokens))])
