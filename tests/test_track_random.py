"""Random games of the track game: every rule set, mode and seat count, checked play by play.

More than 2,000 complete games. A game's plays are chosen at random from the legal list, with
a bias toward plays that go forward or home three times out of four (uniform otherwise) so that
games end in a few hundred plays and the whole file fits its time budget.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.api import GameOver, IllegalPlay, NotationError, NotYourTurn, RulesError
from game.rules.cards import Rng
from game.rules.track import RULES
from game.rules.track.engine import HOME0, START, Play, TrackState, _boards

# (config, games)
CONFIGS: list[tuple[dict[str, Any], int]] = [
    ({"rules": "classic", "seats": 1}, 400),
    ({"rules": "team", "seats": 1}, 300),
    ({"rules": "classic", "seats": 2}, 150),
    ({"rules": "team", "seats": 2}, 150),
    ({"rules": "tees", "seats": 4}, 200),
    ({"rules": "tees", "seats": 6}, 100),
    ({"rules": "classic", "seats": 4}, 150),
    ({"rules": "team", "seats": 4}, 100),
    ({"rules": "classic", "seats": 4, "jokers": False}, 60),
    ({"rules": "classic", "seats": 4, "seven_to_partner": False}, 60),
    ({"rules": "team", "seats": 4, "jokers": False}, 40),
    ({"rules": "classic", "seats": 3}, 60),
    ({"rules": "classic", "seats": 5}, 30),
    ({"rules": "classic", "seats": 6, "mode": "ffa"}, 20),
    ({"rules": "classic", "seats": 7}, 15),
    ({"rules": "classic", "seats": 8, "mode": "ffa"}, 10),
    ({"rules": "team", "seats": 3}, 60),
    ({"rules": "team", "seats": 5}, 25),
    ({"rules": "team", "seats": 6, "mode": "ffa"}, 15),
    ({"rules": "team", "seats": 7}, 10),
    ({"rules": "team", "seats": 8, "mode": "ffa"}, 8),
    ({"rules": "classic", "seats": 6, "teams": 2}, 20),
    ({"rules": "classic", "seats": 6, "teams": 3}, 20),
    ({"rules": "classic", "seats": 8, "teams": 2}, 10),
    ({"rules": "classic", "seats": 8, "teams": 4}, 10),
    ({"rules": "team", "seats": 6, "teams": 2}, 15),
    ({"rules": "team", "seats": 6, "teams": 3}, 15),
    ({"rules": "team", "seats": 8, "teams": 2}, 8),
    ({"rules": "team", "seats": 8, "teams": 4}, 8),
]


def test_at_least_two_thousand_games() -> None:
    assert sum(n for _, n in CONFIGS) >= 2000


def pick(legal: list[Play], rng: Rng) -> Play:
    if rng.below(4):
        home = [p for p in legal if any(pt[3] >= HOME0 and pt[0] in "fo" for pt in p.parts)]
        if home:
            return home[rng.below(len(home))]
        fwd = [p for p in legal if p.parts[0][0] in "fo"]
        if fwd:
            return fwd[rng.below(len(fwd))]
    return legal[rng.below(len(legal))]


def check_board(s: TrackState) -> None:
    n = s.cfg.n
    assert len(s.pegs) == 5 * n
    ring = [x for x in s.pegs if 0 <= x < HOME0]
    assert len(ring) == len(set(ring)), "two pegs share a hole"
    assert all(x < s.cfg.R for x in ring)
    for c in range(n):
        homes = [x for x in s.pegs[5 * c:5 * c + 5] if x >= HOME0]
        assert len(homes) == len(set(homes)) and all(HOME0 < x <= HOME0 + 5 for x in homes)
        assert all(x == START or x >= 0 for x in s.pegs[5 * c:5 * c + 5])


def check_cards(s: TrackState) -> None:
    allc = [c for h in s.hands for c in h] + list(s.pile) + list(s.discards)
    assert Counter(allc) == Counter(s.cfg.deck), "cards not conserved"
    assert all(list(h) == sorted(h) for h in s.hands)


def play_game(conf: dict[str, Any], seed: int, thorough: bool) -> tuple[TrackState, list]:
    s = RULES.new_game(conf, seed)
    deck_size = len(s.cfg.deck)
    rng = Rng.from_seed(f"pick{seed}")
    log: list[tuple[int, str]] = []
    limit = 20000
    while RULES.to_move(s) is not None:
        seat = s.turn
        legal = RULES.legal_plays(s)
        assert legal, "the seat to move has no legal play"
        play = pick(legal, rng)
        if thorough:
            toks = [p.token for p in legal]
            assert len(set(toks)) == len(toks), "duplicate legal plays"
            key = s.key()
            assert RULES.check(s, seat, play.token) is play
            assert s.key() == key
        before = s.key() if thorough else None
        s2, events = RULES.apply(s, seat, play, events=thorough)
        if thorough:
            assert s.key() == before, "apply mutated its input"
            assert events[0]["type"] == "play" and events[0]["token"] == play.token
        s = s2
        log.append((seat, play.token))
        ring = [x for x in s.pegs if 0 <= x < HOME0]
        assert len(ring) == len(set(ring)), "two pegs share a hole"
        assert sum(map(len, s.hands)) + len(s.pile) + len(s.discards) == deck_size
        if thorough:
            check_board(s)
            check_cards(s)
            # the board kept up to date play by play equals one built from the pegs
            assert s._board is None or tuple(s._board) == _boards(s.cfg, s.pegs)
        assert len(log) < limit, "game does not end"
    check_cards(s)
    check_board(s)
    out = RULES.outcome(s)
    assert out is not None
    team = s.cfg.teams[out["team"]]
    assert out["winners"] == list(team)
    assert all(x >= HOME0 for c in team for x in s.pegs[5 * c:5 * c + 5])
    if s.cfg.mode == "solo":
        assert out["turns"] == len(log)
    return s, log


def _id(c: dict[str, Any]) -> str:
    return "-".join(f"{v}" if k in ("rules", "seats") else f"{k}={v}" for k, v in c.items())


@pytest.mark.parametrize(("conf", "games"), CONFIGS, ids=[f"{_id(c)}-x{n}" for c, n in CONFIGS])
def test_random_games(conf: dict[str, Any], games: int) -> None:
    for g in range(games):
        thorough = g % 8 == 0
        s, log = play_game(conf, 1000 + g, thorough)
        if g % 4 == 0:
            again = RULES.replay(conf, 1000 + g, log)
            assert again == s, "replay differs"


def sampled_states(conf: dict[str, Any], seed: int, every: int) -> list[TrackState]:
    s = RULES.new_game(conf, seed)
    rng = Rng.from_seed(seed)
    out = []
    k = 0
    while s.turn >= 0:
        if k % every == 0:
            out.append(s)
        s, _ = RULES.apply(s, s.turn, pick(RULES.legal_plays(s), rng), events=False)
        k += 1
    out.append(s)
    return out


SAMPLE_CONFIGS = [{"rules": "tees", "seats": 4}, {"rules": "tees", "seats": 6},
                  {"rules": "classic", "seats": 4}, {"rules": "classic", "seats": 1},
                  {"rules": "classic", "seats": 3}, {"rules": "team", "seats": 4},
                  {"rules": "team", "seats": 2}, {"rules": "classic", "seats": 8, "teams": 4},
                  {"rules": "team", "seats": 6, "teams": 3}, {"rules": "classic", "seats": 7}]


@pytest.mark.parametrize("conf", SAMPLE_CONFIGS, ids=lambda c: f"{c['rules']}-{c['seats']}")
def test_positions_round_trip(conf: dict[str, Any]) -> None:
    for seed in range(3):
        for s in sampled_states(conf, seed, 7):
            text = RULES.format_position(s)
            s2 = RULES.parse_position(text)
            assert RULES.format_position(s2) == text
            assert RULES.legal_tokens(s2) == RULES.legal_tokens(s)
            assert RULES.outcome(s2) == RULES.outcome(s)
            assert RULES.to_move(s2) == RULES.to_move(s)


@pytest.mark.parametrize("conf", SAMPLE_CONFIGS, ids=lambda c: f"{c['rules']}-{c['seats']}")
def test_views_hold_no_other_hand_and_determinize_agrees(conf: dict[str, Any]) -> None:
    for s in sampled_states(conf, 5, 9):
        n = s.cfg.n
        for seat in [*range(n), None]:
            v = RULES.view(s, seat)
            assert v["hand"] == (list(s.hands[seat]) if seat is not None else [])
            assert v["hand_counts"] == [len(h) for h in s.hands]
            # no other field holds a hand: the only card lists are the own hand and discards
            cards_fields = {k for k, x in v.items() if isinstance(x, list) and k not in
                            ("hand", "discards", "pegs", "teams", "hand_counts",
                                                   "controlled")}
            assert cards_fields == set()
            if s.turn >= 0 and seat != s.turn:
                assert "hand=?" in v["position"]
            if seat is None:
                continue
            d = RULES.determinize(v, 77)
            assert d.hands[seat] == s.hands[seat]
            assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
            check_cards(d)
            v2 = RULES.view(d, seat)
            assert v2 == v
            if seat == s.turn:
                assert RULES.legal_tokens(d) == RULES.legal_tokens(s)


def test_filter_events_hides_other_cards() -> None:
    s, ev = RULES.start({"rules": "classic", "seats": 4}, 3)
    for seat in range(4):
        f = RULES.filter_events(ev, seat)
        deal = next(e for e in f if e["type"] == "deal")
        assert "hands" not in deal and deal["hand"] == ev[0]["hands"][seat]
        draws = [e for e in f if e["type"] == "draw"]
        assert all(("card" in e) == (e["seat"] == seat) for e in draws)
    rng = Rng.from_seed(1)
    for _ in range(50):
        s, ev = RULES.apply(s, s.turn, pick(RULES.legal_plays(s), rng))
        for seat in (None, 0, 1):
            for e in RULES.filter_events(ev, seat):
                if e["type"] == "draw":
                    assert ("card" in e) == (e["seat"] == seat)
    spectator = RULES.filter_events(RULES.start({"rules": "tees", "seats": 4}, 1)[1], None)
    assert all("hand" not in e and "hands" not in e for e in spectator)


def test_bad_input_raises_specific_errors_and_changes_nothing() -> None:
    rng = Rng.from_seed(4)
    for conf in ({"rules": "classic", "seats": 4}, {"rules": "tees", "seats": 4},
                 {"rules": "team", "seats": 4}):
        for s in sampled_states(conf, 2, 25)[:-1]:
            key = s.key()
            seat = s.turn
            legal = set(RULES.legal_tokens(s))
            with pytest.raises(NotYourTurn):
                RULES.apply(s, (seat + 1) % s.cfg.n, next(iter(legal)))
            with pytest.raises(NotationError):
                RULES.apply(s, seat, "garbage")
            with pytest.raises(NotationError):
                RULES.check(s, seat, "5:z12+5")
            # random readable tokens that are not legal
            for _ in range(20):
                r = "A23456789TJQK"[rng.below(13)]
                tok = f"{r}:a{rng.below(72)}+{rng.below(12) + 1}"
                if tok in legal:
                    continue
                with pytest.raises(IllegalPlay) as e:
                    RULES.apply(s, seat, tok)
                assert not isinstance(e.value, NotYourTurn | GameOver)
                assert tok in str(e.value)
            assert s.key() == key
    over = sampled_states({"rules": "classic", "seats": 1}, 3, 1000)[-1]
    with pytest.raises(GameOver):
        RULES.apply(over, 0, "5:x")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(["tees", "classic", "team"]), seats=st.integers(1, 8),
       seed=st.integers(0, 2**32), steps=st.integers(0, 400))
def test_hypothesis_prefixes_round_trip_and_replay(rules: str, seats: int, seed: int,
                                                   steps: int) -> None:
    if rules == "tees":
        seats = 4 if seats < 5 else 6
    s = RULES.new_game({"rules": rules, "seats": seats}, seed)
    rng = Rng.from_seed(seed)
    log = []
    for _ in range(steps):
        if s.turn < 0:
            break
        legal = RULES.legal_plays(s)
        p = legal[rng.below(len(legal))]
        log.append((s.turn, p.token))
        s, _ = RULES.apply(s, s.turn, p, events=False)
    assert RULES.replay({"rules": rules, "seats": seats}, seed, log) == s
    text = RULES.format_position(s)
    s2 = RULES.parse_position(text)
    assert RULES.format_position(s2) == text
    assert RULES.legal_tokens(s2) == RULES.legal_tokens(s)
    check_cards(s)
    check_board(s)


def test_replay_reports_the_bad_play() -> None:
    with pytest.raises(RulesError, match="play 1"):
        RULES.replay({"rules": "classic", "seats": 4}, 1, [(0, "5:a30+5")])


def naive_splits(s: TrackState, total: int) -> list[str]:
    """Split plays straight from the rules: every first part on the board, the board after it
    rebuilt from scratch, every second part on that board (no shortcuts)."""
    from game.rules.track import engine as E

    cfg = s.cfg
    seat = s.turn
    kinds = (("f", "f"),) if total == 7 else (("f", "b"), ("b", "f"))
    cols = E.controlled(cfg, seat, s.pegs)
    out = []
    for k1, k2 in kinds:
        movers, _ = E._movers(s.pegs, cols)
        for loc1, pid1 in movers:
            for a in range(1, total):
                occ, rm, hm = E._boards(cfg, s.pegs)
                for to1, b1 in E._dests(cfg, k1, pid1, loc1, a, rm, hm, occ):
                    pegs2 = list(s.pegs)
                    pegs2[pid1] = to1
                    for q, _qf, qt in b1:
                        pegs2[q] = qt
                    o2, r2, h2 = E._boards(cfg, pegs2)
                    if cfg.rules == E.CLASSIC and cfg.seven and cfg.mode == "teams":
                        cols2 = E.controlled(cfg, seat, pegs2)
                    else:
                        cols2 = cols
                    movers2, _ = E._movers(pegs2, cols2)
                    for loc2, pid2 in movers2:
                        if pid2 == pid1:
                            continue
                        for to2, b2 in E._dests(cfg, k2, pid2, loc2, total - a, r2, h2, o2):
                            p = Play(total, ((k1, pid1, loc1, to1, a),
                                             (k2, pid2, loc2, to2, total - a)), (b1, b2))
                            out.append(p.token)
    return out


@pytest.mark.parametrize("conf", [
    {"rules": "classic", "seats": 4}, {"rules": "classic", "seats": 4, "seven_to_partner": False},
    {"rules": "classic", "seats": 6, "teams": 3}, {"rules": "classic", "seats": 8, "teams": 2},
    {"rules": "team", "seats": 4}, {"rules": "team", "seats": 6, "teams": 2},
    {"rules": "team", "seats": 3}, {"rules": "classic", "seats": 5},
    {"rules": "team", "seats": 8}, {"rules": "team", "seats": 8, "teams": 4}])
def test_split_generation_matches_the_plain_rules(conf: dict[str, Any]) -> None:
    checked = 0
    for seed in range(4):
        for s in sampled_states(conf, seed, 3):
            if s.turn < 0:
                continue
            ranks = {c >> 2 for c in s.hands[s.turn]}
            legal = [p.token for p in RULES.legal_plays(s) if "," in p.token]
            want: list[str] = []
            for total in (7, 9):
                if total in ranks and (total == 7 or s.cfg.conf["rules"] == "team"):
                    want += naive_splits(s, total)
            assert legal == want
            checked += bool(want)
    assert checked > 10


def test_the_engine_shuffle_is_the_cards_shuffle() -> None:
    # engine.shuffle writes cards.shuffle out in one function: the same permutation and the
    # same final generator state for every deck size the engine shuffles (and a few others)
    from game.rules import cards
    from game.rules.track import engine as eng

    for n in (0, 1, 2, 3, 52, 100, 162, 216, 255):
        for seed in range(5):
            state = cards.seed_state(seed * 7 + n)
            a = list(range(n))
            b = list(range(n))
            assert eng.shuffle(a, state) == cards.shuffle(b, state)
            assert a == b
    # a size past the table of limits falls back to cards.shuffle itself
    a = list(range(300))
    b = list(range(300))
    assert eng.shuffle(a, 12345) == cards.shuffle(b, 12345) and a == b
