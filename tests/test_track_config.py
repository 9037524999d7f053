"""Track-game configs (spec section 2), the API surface and view/event encodings."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.api import ConfigError, GameRules, IllegalPlay, NotationError, RulesError
from game.rules.track import RULES

ALLOWED = [
    # rules, seats, mode, teams
    ("tees", 4, "teams", 2), ("tees", 6, "teams", 3),
    *[(r, 4, "teams", 2) for r in ("classic", "team")],
    *[(r, 6, "teams", t) for r in ("classic", "team") for t in (2, 3)],
    *[(r, 8, "teams", t) for r in ("classic", "team") for t in (2, 4)],
    *[(r, 2, "h2h", 2) for r in ("classic", "team")],
    *[(r, n, "ffa", n) for r in ("classic", "team") for n in range(3, 9)],
    *[(r, 1, "solo", 1) for r in ("classic", "team")],
]


@pytest.mark.parametrize(("rules", "seats", "mode", "teams"), ALLOWED)
def test_every_allowed_combination(rules: str, seats: int, mode: str, teams: int) -> None:
    conf = RULES.normalize_config({"rules": rules, "seats": seats, "mode": mode, "teams": teams})
    assert conf["teams"] == teams
    s = RULES.new_game(conf, 1)
    groups = RULES.teams(s)
    assert len(groups) == teams
    assert sorted(x for g in groups for x in g) == list(range(seats))
    for t, g in enumerate(groups):
        assert all(seat % teams == t for seat in g) if mode == "teams" else g == [t]
    assert RULES.seat_count(s) == seats
    assert RULES.to_move(s) is not None


@pytest.mark.parametrize(("config", "words"), [
    ({"rules": "tees", "seats": 5}, "tees seats 4"),
    ({"rules": "tees", "seats": 4, "mode": "ffa"}, "teams only"),
    ({"rules": "tees", "seats": 4, "teams": 4}, "2 teams of 2"),
    ({"rules": "classic", "seats": 5, "mode": "teams"}, "4, 6 or 8"),
    ({"rules": "classic", "seats": 6, "teams": 4}, "2 or 3 teams"),
    ({"rules": "team", "seats": 8, "teams": 3}, "2 or 4 teams"),
    ({"rules": "classic", "seats": 3, "mode": "h2h"}, "2 seats"),
    ({"rules": "classic", "seats": 2, "mode": "ffa"}, "3 to 8"),
    ({"rules": "classic", "seats": 2, "mode": "solo"}, "1 seat"),
    ({"rules": "classic", "seats": 9}, "1 to 8"),
    ({"rules": "classic", "seats": "4"}, "1 to 8"),
    ({"rules": "chess"}, "rules must be"),
    ({"rules": "classic", "mode": "duel"}, "mode must be"),
    ({"rules": "classic", "jokers": "yes"}, "jokers must be"),
    ({"rules": "classic", "seven_to_partner": 1}, "seven_to_partner"),
    ({"rules": "classic", "colour": "red"}, "unknown track config key"),
    ("classic", "must be a dict"),
])
def test_bad_configs_are_refused_clearly(config: object, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        RULES.normalize_config(config)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        RULES.new_game(config, 1)  # type: ignore[arg-type]


def test_defaults() -> None:
    assert RULES.normalize_config({}) == {"rules": "classic", "seats": 4, "mode": "teams",
                                          "teams": 2, "jokers": True, "seven_to_partner": True}
    assert RULES.normalize_config({"rules": "tees", "seats": 6})["teams"] == 3
    assert RULES.normalize_config({"rules": "tees"})["jokers"] is False
    assert RULES.normalize_config({"rules": "classic", "seats": 1})["mode"] == "solo"
    # solo removes the jokers even when asked for
    assert RULES.normalize_config({"rules": "team", "seats": 1, "jokers": True})["jokers"] is False
    assert RULES.normalize_config({"rules": "classic", "seats": 5})["mode"] == "ffa"
    assert RULES.normalize_config({"rules": "classic", "seats": 2})["mode"] == "h2h"


@pytest.mark.parametrize(("config", "size"), [
    ({"rules": "tees"}, 52), ({"rules": "classic", "seats": 6}, 162),
    ({"rules": "classic", "seats": 7}, 216),
    ({"rules": "classic", "seats": 4, "jokers": False}, 156),
    ({"rules": "team", "seats": 3}, 216), ({"rules": "team", "seats": 1}, 208),
    ({"rules": "classic", "seats": 1}, 156),
])
def test_pack_sizes(config: dict, size: int) -> None:
    s = RULES.new_game(config, 0)
    assert len(s.cfg.deck) == size
    assert sum(map(len, s.hands)) + len(s.pile) + len(s.discards) == size


def test_protocol_and_name() -> None:
    assert isinstance(RULES, GameRules)
    assert RULES.name == "track"


def test_same_seed_same_game_string_seeds_too() -> None:
    a = RULES.new_game({"rules": "classic"}, "table-XYZ")
    b = RULES.new_game({"rules": "classic"}, "table-XYZ")
    c = RULES.new_game({"rules": "classic"}, "table-XYZ2")
    assert a == b and a.hands != c.hands
    with pytest.raises(ConfigError):
        RULES.new_game({"rules": "classic"}, 1.5)  # type: ignore[arg-type]


def test_views_and_events_pack_with_msgpack() -> None:
    s, ev = RULES.start({"rules": "team", "seats": 4}, 2)
    for seat in (0, 3, None):
        v = RULES.view(s, seat)
        assert msgpack.unpackb(msgpack.packb(v), strict_map_key=False) == v
        f = RULES.filter_events(ev, seat)
        assert msgpack.unpackb(msgpack.packb(f)) == f
    with pytest.raises(RulesError):
        RULES.view(s, 7)

_GOOD = ("classic 4 teams2 jokers=on seven=on a:s,s,s,12,h5 b:s,s,s,s,30 c:s,s,s,s,s "
         "d:s,s,s,s,s turn=a hand=5S,7C,JK cards=3,5,5,5 pile=134 discards=10")


@settings(max_examples=300, deadline=None)
@given(cut=st.integers(0, len(_GOOD)), length=st.integers(0, 6),
       junk=st.text(alphabet="abchs0123456789,:=- xJKQ+>", max_size=6))
def test_mangled_positions_raise_only_notation_errors(cut: int, length: int, junk: str) -> None:
    text = _GOOD[:cut] + junk + _GOOD[cut + length:]
    try:
        s = RULES.parse_position(text)
    except NotationError:
        return
    RULES.legal_plays(s)  # whatever reads must work
    assert RULES.parse_position(RULES.format_position(s)) is not None


@settings(max_examples=300, deadline=None)
@given(token=st.text(alphabet="abch0123456789sxJKQTA+-,:>", max_size=12))
def test_mangled_tokens_raise_only_notation_or_illegal(token: str) -> None:
    s = RULES.parse_position(_GOOD)
    key = s.key()
    try:
        p = RULES.check(s, 0, token)
    except (NotationError, IllegalPlay):
        p = None
    assert p is None or p.token in RULES.legal_tokens(s)
    assert s.key() == key
