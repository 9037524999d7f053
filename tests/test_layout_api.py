"""The layout game behind the shared API: config, errors, notation, views, determinize."""

from __future__ import annotations

import pickle
from collections import Counter

import msgpack
import pytest

from game.rules.api import (
    ConfigError,
    GameOver,
    GameRules,
    IllegalPlay,
    NotationError,
    NotYourTurn,
    RulesError,
)
from game.rules.cards import Rng
from game.rules.layout import RULES, Play, format_position, make_view, parse_position
from game.rules.layout.engine import UP, shuffle_ints
from game.rules.layout.notation import pack_of


def test_rules_object_satisfies_the_protocol() -> None:
    assert isinstance(RULES, GameRules)
    assert RULES.name == "layout"


def test_config_defaults_follow_the_seed() -> None:
    assert RULES.normalize_config({"seats": 2}) == {
        "seats": 2, "wild": "J", "last_chance": False, "upcard": False, "layout_size": 10,
        "first_leader": None,
    }
    assert RULES.normalize_config({"seats": 8, "wild": "k", "game": "layout"})["wild"] == "K"


@pytest.mark.parametrize(
    ("config", "match"),
    [
        ({"seats": 1}, "seats must be an int from 2 to 8"),
        ({"seats": 9}, "seats must be an int from 2 to 8"),
        ({"seats": True}, "seats must be an int"),
        ({"seats": "4"}, "seats must be an int"),
        ({"seats": 4, "wild": "Q"}, "wild must be 'J'"),
        ({"seats": 4, "last_chance": 1}, "last_chance must be true or false"),
        ({"seats": 4, "upcard": "yes"}, "upcard must be true or false"),
        ({"seats": 4, "layout_size": 0}, "layout_size must be an int from 1 to 10"),
        ({"seats": 4, "layout_size": 11}, "layout_size must be an int from 1 to 10"),
        ({"seats": 4, "first_leader": 4}, "first_leader must be a seat 0..3"),
        ({"seats": 4, "colour": "red"}, "unknown layout option"),
        ({"seats": 4, "game": "track"}, "is not the layout game"),
    ],
)
def test_bad_configs_are_refused(config: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        RULES.normalize_config(config)
    with pytest.raises(ConfigError):
        RULES.new_game(config, 1)


def test_decks_and_deal_sizes() -> None:
    for n, decks in ((2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4)):
        st = RULES.new_game({"seats": n}, n)
        assert sum(pack_of(st).values()) == 52 * decks
        assert len(st.stock) == 52 * decks - 10 * n
        assert RULES.teams(st) == [[s] for s in range(n)]
        assert RULES.seat_count(st) == n


def test_the_first_leader_is_chosen_by_the_seed_or_the_host() -> None:
    leaders = {RULES.new_game({"seats": 4}, seed).leader for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    st = RULES.new_game({"seats": 4, "first_leader": 3}, 5)
    assert st.leader == 3 and RULES.to_move(st) == 3
    # same config and seed, same deal
    assert RULES.new_game({"seats": 4}, 77) == RULES.new_game({"seats": 4}, 77)
    assert RULES.new_game({"seats": 4}, 77) != RULES.new_game({"seats": 4}, 78)


def test_play_tokens() -> None:
    st = RULES.new_game({"seats": 2}, 3)
    assert RULES.parse_play(st, " s ") == Play("S") and isinstance(RULES.parse_play(st, "s"), Play)
    assert RULES.parse_play(st, "w3") == Play("W", 3) and str(Play("W", 3)) == "W3"
    assert RULES.parse_play(st, "J10") == Play("W", 10) and RULES.parse_play(st, "J10").place == 10
    assert hash(Play("D")) == hash("D") and str(Play("D")) == "D"
    assert Play("W", 7).place == 7 and Play("S").place is None and Play("D").kind == "D"
    # a play is never its token (python-chess's Move): compare str(play) or parse the token
    assert Play("S") != "S" and "S" != Play("S") and not isinstance(Play("S"), str)  # noqa: SIM300
    assert Play("W", 3) != "W3" and "W3" not in RULES.legal_plays(st)
    assert Play("S") in RULES.legal_plays(st) and "S" in RULES.legal_tokens(st)
    assert RULES.parse_play(st, Play("D")) == Play("D")  # a play is taken as it is
    assert pickle.loads(pickle.dumps(Play("W", 4))) == Play("W", 4)
    for kind, place in (("S", 1), ("W", 0), ("W", 11), ("W", None), ("X", None)):
        with pytest.raises(NotationError):
            Play(kind, place)
    for bad, match in (("X", "not a layout play"), ("W0", "numbered 1 to 10"),
                       ("W11", "numbered 1 to 10"), ("K3", "Jacks are wild"), ("", "not a"),
                       (3, "token string")):
        with pytest.raises(NotationError, match=match):
            RULES.parse_play(st, bad)  # type: ignore[arg-type]


def _mid_game_states(n: int, seeds: range) -> list:
    out = []
    for seed in seeds:
        st = RULES.new_game({"seats": n, "layout_size": 4, "last_chance": seed % 2 == 0}, seed)
        rng = Rng.from_seed(seed)
        while (seat := RULES.to_move(st)) is not None:
            legal = RULES.legal_plays(st)
            st, _ = RULES.apply(st, seat, legal[rng.below(len(legal))])
            out.append(st)
    return out


def test_bad_plays_raise_specific_errors_and_change_nothing() -> None:
    st = RULES.new_game({"seats": 3, "first_leader": 1}, 9)
    text = format_position(st)
    with pytest.raises(NotYourTurn, match="seat 1's turn, not seat 0's"):
        RULES.apply(st, 0, "S")
    with pytest.raises(NotYourTurn, match="no seat 5"):
        RULES.check(st, 5, "S")
    with pytest.raises(IllegalPlay, match="discard pile is empty"):
        RULES.apply(st, 1, "D")
    with pytest.raises(IllegalPlay, match="first take a card"):
        RULES.apply(st, 1, "W2")
    with pytest.raises(NotationError):
        RULES.apply(st, 1, "draw")
    assert format_position(st) == text
    # a wild card pending: only W plays
    wild_states = [s for s in _mid_game_states(3, range(30)) if s.phase == 1]
    assert wild_states
    ws = wild_states[0]
    with pytest.raises(IllegalPlay, match="a wild card is in hand"):
        RULES.check(ws, ws.turn, "S")
    up = [i + 1 for i, v in enumerate(ws.lay[ws.turn]) if v >= UP]
    if up:
        with pytest.raises(IllegalPlay, match="already face up"):
            RULES.check(ws, ws.turn, f"W{up[0]}")
    # game over
    over = _mid_game_states(2, range(1))[-1]
    assert RULES.outcome(over) is not None and RULES.to_move(over) is None
    with pytest.raises(GameOver, match="game is over"):
        RULES.apply(over, 0, "S")


def test_replay_rebuilds_and_names_the_bad_play() -> None:
    cfg = {"seats": 3, "layout_size": 3}
    st = RULES.new_game(cfg, 4)
    log = []
    rng = Rng.from_seed(4)
    while (seat := RULES.to_move(st)) is not None:
        legal = RULES.legal_plays(st)
        play = str(legal[rng.below(len(legal))])
        st, _ = RULES.apply(st, seat, play)
        log.append((seat, play))
    assert RULES.replay(cfg, 4, log) == st
    assert RULES.replay(cfg, 4, log[:5]) != st
    bad = [*log[:3], ((log[3][0] + 1) % 3, log[3][1])]
    with pytest.raises(NotYourTurn, match="play 3"):
        RULES.replay(cfg, 4, bad)
    with pytest.raises(NotationError, match=r"play 0: expected \(seat, token\)"):
        RULES.replay(cfg, 4, ["S"])  # type: ignore[list-item]


def test_positions_round_trip_full_and_public() -> None:
    states = _mid_game_states(4, range(8))[::7] + _mid_game_states(2, range(8, 12))[::5]
    assert len(states) > 40
    for st in states:
        text = format_position(st)
        back = parse_position(text)
        assert back == st and format_position(back) == text
        pub = format_position(st, public=True)
        assert "?" in pub or st.phase == 2
        guessed = parse_position(pub)  # the hidden cards dealt from the unseen pack
        assert format_position(guessed, public=True) == pub
        assert pack_of(guessed) == pack_of(st)
        assert make_view(guessed, 0) == make_view(st, 0)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "starts with the word 'layout'"),
        ("trash p0=?AS", "starts with the word 'layout'"),
        ("layout turn=0", "no layouts"),
        ("layout p0=?AS p2=?2S", "no gap"),
        ("layout p0=?AS p1=?2S seats=3", "seats=3 but 2 layouts"),
        ("layout p0=?AS p1=?2S bogus=1", "unknown field bogus="),
        ("layout p0=?AS p1=?2S p01=?3S", "unknown field p01="),
        ("layout p0=?AS p1=?2S p1=?3S", "given twice"),
        ("layout p0=?AS p1=?2S turn", "key=value"),
        ("layout p0=?AS p1=?ZZ", "p1 place 1"),
        ("layout p0=?AS p1=?JK", "no jokers"),
        ("layout p0=?AS,3S p1=?2S", "face-up 3S can only lie on place 3"),
        ("layout p0=?AS,QS p1=?2S", "QS is not wild"),
        ("layout p0=?AS p1=?AS", "2 copies of AS"),
        ("layout p0=?AS p1=?2S turn=2", "no seat 2"),
        ("layout p0=?AS p1=?2S size=0", "size=0 is below 1"),
        ("layout p0=?AS p1=?2S size=11", "bad options"),
        ("layout p0=?AS p1=?2S wild=Q", "bad options"),
        ("layout p0=?AS p1=?2S sizes=1", "give 2 whole numbers"),
        ("layout p0=?AS p1=?2S sizes=2,1", "has 1 places but its size is 2"),
        ("layout p0=?AS p1=?2S phase=wild", "needs the wild card in hand"),
        ("layout p0=?AS p1=?2S hold=JS phase=source", "only while a wild card"),
        ("layout p0=?AS p1=?2S phase=dance", "one of source, wild, over"),
        ("layout p0=AS p1=?2S", "layout is complete"),
        ("layout p0=?AS p1=AH", "p1= is complete"),
        ("layout p0=? p1=?2S", "mixes public and full forms"),
        ("layout p0=?AS p1=?2S last=0:0:1", "needs lastchance=1"),
        ("layout p0=?AS p1=?2S lastchance=1 last=0:1:0", "starts with the first"),
        ("layout p0=?AS p1=?2S ply=x", "not a whole number"),
        ("layout p0=?AS p1=?2S lastchance=2", "write 0 or 1"),
    ],
)
def test_bad_positions_are_refused(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        parse_position(text)


def test_views_are_public_msgpack_friendly_and_determinize_back() -> None:
    for st in _mid_game_states(5, range(3))[::9]:
        view = RULES.view(st, 2)
        assert msgpack.unpackb(msgpack.packb(view)) == view
        assert RULES.view(st, None) == {**view, "seat": None}
        assert view["stock"] == len(st.stock)
        hidden = {v for p in st.lay for v in p if v < UP} | set(st.stock)
        flat = [c for p in view["layouts"] for c in p if c is not None]
        # every card the view shows is face up, held or discarded
        assert Counter(flat) == Counter(v & 63 for p in st.lay for v in p if v >= UP)
        assert view["discard"] == st.disc
        d1, d2 = RULES.determinize(view, 1), RULES.determinize(view, 2)
        assert make_view(d1, 2) == view == make_view(d2, 2)
        assert pack_of(d1) == pack_of(st) == pack_of(d2)
        if len(hidden) > 3:
            assert (d1.stock, d1.lay) != (d2.stock, d2.lay)
        # the CPU can compute the same legal plays from its guess
        assert RULES.legal_plays(d1) == RULES.legal_plays(st)
    with pytest.raises(RulesError, match="not a layout view"):
        RULES.determinize({"config": {"seats": 2}}, 1)
    with pytest.raises(RulesError, match="no seat 7"):
        RULES.view(st, 7)


def test_events_are_msgpack_friendly_and_unfiltered() -> None:
    st = RULES.new_game({"seats": 2, "upcard": True}, 12)
    for _ in range(30):
        seat = RULES.to_move(st)
        assert seat is not None
        st, ev = RULES.apply(st, seat, RULES.legal_plays(st)[0])
        assert msgpack.unpackb(msgpack.packb(ev)) == ev
        for s in (0, 1, None):
            assert RULES.filter_events(ev, s) == ev


def test_the_engine_shuffle_is_deterministic_and_uniform() -> None:
    a, b = list(range(52)), list(range(52))
    assert shuffle_ints(a, 99) == shuffle_ints(b, 99) and a == b and sorted(a) == list(range(52))
    # all 24 orders of 4 items, about equally often (chi-square, 23 degrees of freedom:
    # 60 is far beyond the 0.9999 quantile, about 52)
    counts: Counter[tuple[int, ...]] = Counter()
    state = 5
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        state = shuffle_ints(items, state)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    chi = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi < 60
    # every card reaches the top of a 104-card pack: a spread test on position 103
    tops: Counter[int] = Counter()
    for _ in range(5200):
        items = list(range(104))
        state = shuffle_ints(items, state)
        tops[items[-1]] += 1
    assert len(tops) == 104 and max(tops.values()) < 100


def test_start_gives_the_opening_deal_events() -> None:
    st, ev = RULES.start({"seats": 3, "upcard": True, "first_leader": 1, "layout_size": 5}, 8)
    assert st == RULES.new_game({"seats": 3, "upcard": True, "first_leader": 1,
                                 "layout_size": 5}, 8)
    # 3 seats: 104 cards; 15 dealt, one upcard, 88 in the stock
    assert ev == [
        {"type": "dealt", "hand": 1, "sizes": [5, 5, 5], "leader": 1, "stock": 88,
         "upcard": st.disc[0]},
        {"type": "turn", "seat": 1},
    ]
    assert RULES.legal_tokens(st) == ["S", "D"]


def test_an_unsettled_hand_built_position_passes_on_when_read() -> None:
    # Seat 0 is "to move" but the stock is empty and the lone discard 2C is dead for it (its
    # place 2 holds 2S): reading the position plays the pass, and seat 1, for whom 2C is live,
    # is to move with D as its only play.
    text = "layout turn=0 p0=?AS,2S p1=?AH,?2H stock=- discard=2C"
    st = parse_position(text)
    assert st.turn == 1 and st.passes == 1 and RULES.legal_tokens(st) == ["D"]
    raw = parse_position(text, settle=False)
    assert raw.turn == 0 and RULES.legal_tokens(raw) == []
    # dead for both: the hand is dealt again (a full pack, same leader)
    st = parse_position("layout turn=0 p0=?AS,2S p1=?AH,?2H stock=- discard=KC")
    assert st.hand == 2 and st.turn == 0 and len(st.stock) == 52 - 4
