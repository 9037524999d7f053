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


# ----------------------------------------------------------------------- state fields, once


def test_track_state_fields_are_declared_once() -> None:
    import dataclasses
    import pickle

    from game.rules.track import RULES as TRACK
    from game.rules.track.engine import TrackState, gen_legal

    names = [f.name for f in dataclasses.fields(TrackState)]
    assert names == ["cfg", "seed", "pegs", "hands", "pile", "discards", "rng", "turn", "dealer",
                     "round", "nplays", "winner", "idle", "_legal", "_board"]
    assert set(TrackState.__slots__) == set(names)  # the slots are the fields (the C core's too)
    st = TRACK.new_game({"rules": "classic", "seats": 4}, 9)
    gen_legal(st)
    assert st._legal is not None
    # the key: the config, then every field but the cfg object and the idle guard, in order
    assert st.key() == ("classic", 4, "teams", 2, True, True, 9, st.pegs, st.hands, st.pile,
                        st.discards, st.rng, 0, 3, 0, 0, -1)
    c = st.copy()
    assert c == st and c is not st and c.pegs is st.pegs and c._legal is None and c._board is None
    c.idle = 7
    assert c == st  # idle is no part of the position
    again = pickle.loads(pickle.dumps(st))
    assert again == st and again._legal is None and again.cfg is st.cfg
    with pytest.raises(TypeError):
        TrackState(cfg=st.cfg, seed=1)  # type: ignore[call-arg]  # every field must be given


def test_layout_state_fields_are_declared_once() -> None:
    import dataclasses
    import pickle

    from game.rules.layout import RULES as LAYOUT
    from game.rules.layout.engine import State

    assert set(State.__slots__) == {f.name for f in dataclasses.fields(State)}
    st = LAYOUT.new_game({"seats": 3}, 4)
    c = st.copy()
    assert c == st and c.key() == st.key()
    # lists are copied (a copy is changed in place by the engine), rows one by one
    c.lay[0][0] ^= 1
    c.stock.pop()
    assert st.lay[0][0] != c.lay[0][0] and len(st.stock) == len(c.stock) + 1
    assert c != st
    # derived fields stay out of the key: down follows lay, n/decks/wild follow cfg
    d = st.copy()
    d.down = [0, 0, 0]
    assert d == st
    assert st.key()[0] == tuple(sorted(st.cfg.items())) and st.key()[1] == 4
    again = pickle.loads(pickle.dumps(st))
    assert again == st and again.lay == st.lay and again.lay is not st.lay


def test_a_state_field_must_say_how_it_copies() -> None:
    import dataclasses

    from game.rules import fields

    with pytest.raises(ValueError):
        fields.spec(copy="deep")  # type: ignore[arg-type]

    @dataclasses.dataclass(slots=True, kw_only=True)
    class Plain:
        x: int = dataclasses.field(metadata=fields.SHARE)
        y: int = 0  # not declared with a spec

    with pytest.raises(TypeError, match=r"Plain\.y"):
        fields.derive(Plain)


def test_a_field_state_gets_its_methods_from_its_fields() -> None:
    import copy
    import dataclasses

    from game.rules import fields

    @dataclasses.dataclass(slots=True, kw_only=True, eq=False)
    class Spot(fields.FieldState):
        n: int = dataclasses.field(metadata=fields.SHARE)
        row: list[int] = dataclasses.field(metadata=fields.LIST)
        guard: int = dataclasses.field(metadata=fields.UNKEYED)
        memo: object = dataclasses.field(default=None, init=False, metadata=fields.CACHE)

    @dataclasses.dataclass(slots=True, kw_only=True, eq=False)
    class Other(fields.FieldState):
        n: int = dataclasses.field(metadata=fields.SHARE)
        row: list[int] = dataclasses.field(metadata=fields.LIST)
        guard: int = dataclasses.field(metadata=fields.UNKEYED)

    fields.derive(Spot)
    fields.derive(Other)
    a = Spot(n=3, row=[1, 2], guard=0)
    a.memo = "cached"
    assert a.key() == (3, (1, 2))  # the guard is no part of the key
    c = a.copy()
    assert type(c) is Spot and c == a and c.row is not a.row and c.memo is None
    c.guard = 9
    assert c == a and hash(c) == hash(a)
    c.row.append(3)
    assert c != a and a.row == [1, 2]
    o = Other(n=3, row=[1, 2], guard=0)
    assert o.key() == a.key() and o != a and a != o  # a state equals only its own class
    back = copy.copy(a)  # through __getstate__ / __setstate__, as a pickle goes
    assert back == a and back.guard == 0 and back.memo is None
    assert a.__getstate__() == (3, [1, 2], 0)  # the fields in order, the cache left out
