"""Helpers for the table tests: a fake clock and "race", a tiny honest GameRules double.

Race: each seat holds cards; on its turn a seat plays one card from its hand, adds the card's
rank to its total, then draws the top card of the deck (if any). The first seat (or team) whose
total reaches ``target`` wins. If every hand is empty, the highest total wins. Hands are hidden:
a seat's view shows only its own hand, and the drawn card in a "draw" event is hidden from the
other seats. Config: ``seats`` (1..4), ``target`` (default 30), ``teams`` (``False``: every seat
for itself; ``True``: seats 0,2 against 1,3), ``hands`` (optional fixed hands as card texts, and
then ``deck`` the fixed deck top first; without them the 52 cards are shuffled with the seed
and each seat gets 3).

The tests in this file check the double itself against hand-worked positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from game.rules.api import ConfigError, GameOver, IllegalPlay, NotationError, NotYourTurn
from game.rules.cards import CardError, Rng, card_text, make_deck, parse_card
from game.table import register_rules


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


@dataclass(frozen=True)
class RaceState:
    config: dict[str, Any]
    seed: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    totals: tuple[int, ...]
    turn: int
    winners: tuple[int, ...] | None
    plays: int


class Race:
    name = "race"
    title = "Race"
    min_seats = 1
    max_seats = 4
    hides_hands_from_neighbours = True

    def normalize_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        cfg = {"seats": 2, "target": 30, "teams": False, "hands": None, "deck": None}
        unknown = set(config) - set(cfg)
        if unknown:
            raise ConfigError(f"unknown race option(s) {sorted(unknown)}")
        cfg.update(config)
        if type(cfg["seats"]) is not int or not 1 <= cfg["seats"] <= 4:
            raise ConfigError("race seats must be 1..4")
        if cfg["teams"] and cfg["seats"] != 4:
            raise ConfigError("race teams need 4 seats")
        if cfg["hands"] is not None and len(cfg["hands"]) != cfg["seats"]:
            raise ConfigError("one hand per seat")
        return cfg

    def new_game(self, config: Mapping[str, Any], seed: int) -> RaceState:
        cfg = self.normalize_config(config)
        n = cfg["seats"]
        if cfg["hands"] is not None:
            hands = tuple(tuple(parse_card(c) for c in h) for h in cfg["hands"])
            deck = tuple(parse_card(c) for c in (cfg["deck"] or []))
        else:
            cards = make_deck()
            Rng.from_seed(seed).shuffle(cards)
            hands = tuple(tuple(cards[3 * i: 3 * i + 3]) for i in range(n))
            deck = tuple(cards[3 * n:])
        return RaceState(cfg, seed, hands, deck, (0,) * n, 0, None, 0)

    def seat_count(self, state: RaceState) -> int:
        return len(state.hands)

    def teams(self, state: RaceState) -> list[list[int]]:
        if state.config["teams"]:
            return [[0, 2], [1, 3]]
        return [[i] for i in range(len(state.hands))]

    def to_move(self, state: RaceState) -> int | None:
        return None if state.winners is not None else state.turn

    def legal_plays(self, state: RaceState) -> list[str]:
        if state.winners is not None:
            return []
        return [card_text(c) for c in sorted(set(state.hands[state.turn]))]

    def start(self, config: Mapping[str, Any], seed: int) -> tuple[RaceState, list[dict]]:
        return self.new_game(config, seed), []

    def legal_tokens(self, state: RaceState) -> list[str]:
        return self.legal_plays(state)

    def parse_play(self, state: RaceState, token: str) -> str:
        try:
            return card_text(parse_card(str(token)))
        except CardError as e:
            raise NotationError(str(e)) from None

    def check(self, state: RaceState, seat: int, play: Any) -> str:
        if state.winners is not None:
            raise GameOver("the race is over")
        if seat != state.turn:
            raise NotYourTurn(f"seat {state.turn} is to move, not seat {seat}")
        token = self.parse_play(state, str(play))
        if token not in self.legal_plays(state):
            raise IllegalPlay(f"{token} is not in the hand of seat {seat}")
        return token

    def _team_total(self, state: RaceState, totals: Sequence[int], seat: int) -> int:
        for team in self.teams(state):
            if seat in team:
                return sum(totals[s] for s in team)
        raise AssertionError

    def apply(self, state: RaceState, seat: int, play: Any) -> tuple[RaceState, list[dict]]:
        token = self.check(state, seat, play)
        c = parse_card(token)
        hands = [list(h) for h in state.hands]
        hands[seat].remove(c)
        totals = list(state.totals)
        totals[seat] += c >> 2
        events: list[dict] = [{"type": "play", "seat": seat, "card": c}]
        deck = list(state.deck)
        if deck:
            d = deck.pop(0)
            hands[seat].append(d)
            events.append({"type": "draw", "seat": seat, "card": d})
        winners: tuple[int, ...] | None = None
        if self._team_total(state, totals, seat) >= state.config["target"]:
            team = next(t for t in self.teams(state) if seat in t)
            winners = tuple(team)
        elif not any(hands):
            best = max(totals)
            winners = tuple(i for i, t in enumerate(totals) if t == best)
        n = len(hands)
        turn = (seat + 1) % n
        if winners is None:
            while not hands[turn]:
                turn = (turn + 1) % n
        else:
            events.append({"type": "win", "winners": list(winners)})
        new = RaceState(
            state.config, state.seed, tuple(tuple(h) for h in hands), tuple(deck),
            tuple(totals), turn, winners, state.plays + 1,
        )
        return new, events

    def view(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in state.hands],
            "totals": list(state.totals),
            "deck": len(state.deck),
            "turn": self.to_move(state),
            "legal": self.legal_plays(state) if seat == self.to_move(state) else [],
        }

    def filter_events(self, events: Sequence[dict], seat: int | None) -> list[dict]:
        out = []
        for e in events:
            e = dict(e)
            if e["type"] == "draw" and e["seat"] != seat:
                e["card"] = None
            out.append(e)
        return out

    def determinize(self, view: Mapping[str, Any], seed: int) -> RaceState:
        raise NotImplementedError

    def outcome(self, state: RaceState) -> dict[str, Any] | None:
        if state.winners is None:
            return None
        return {"winners": list(state.winners), "totals": list(state.totals)}

    def replay(
        self, config: Mapping[str, Any], seed: int, plays: Iterable[tuple[int, str]]
    ) -> RaceState:
        st = self.new_game(config, seed)
        for seat, token in plays:
            st, _ = self.apply(st, seat, token)
        return st

    def format_position(self, state: RaceState) -> str:
        return repr(state)

    def parse_position(self, text: str) -> RaceState:
        raise NotImplementedError


RACE = Race()
register_rules(RACE)


# ------------------------------------------------------------------ the double's own tests


def test_race_double_plays_as_worked_by_hand() -> None:
    cfg = {"seats": 2, "target": 10, "hands": [["5S", "2C"], ["KH", "3D"]], "deck": ["4H"]}
    st = RACE.new_game(cfg, 0)
    assert RACE.legal_plays(st) == ["2C", "5S"]  # sorted by card int: 2C=8, 5S=23
    with pytest.raises(NotYourTurn):
        RACE.check(st, 1, "KH")
    with pytest.raises(IllegalPlay):
        RACE.check(st, 0, "KH")
    st, ev = RACE.apply(st, 0, "5S")  # seat 0: total 5, draws the 4H
    assert ev == [{"type": "play", "seat": 0, "card": 23}, {"type": "draw", "seat": 0, "card": 18}]
    assert RACE.filter_events(ev, 1)[1]["card"] is None
    assert RACE.view(st, 1)["hand"] == [parse_card("KH"), parse_card("3D")]
    st, _ = RACE.apply(st, 1, "KH")  # seat 1: 13 >= 10, wins
    assert RACE.outcome(st) == {"winners": [1], "totals": [5, 13]}
    assert RACE.to_move(st) is None


def test_race_double_teams_and_empty_hands() -> None:
    cfg = {"seats": 4, "teams": True, "target": 9,
           "hands": [["5S"], ["2C"], ["4H"], ["AD"]], "deck": []}
    st = RACE.replay(cfg, 0, [(0, "5S"), (1, "2C"), (2, "4H")])  # team 0+2: 5+4 = 9
    assert RACE.outcome(st) == {"winners": [0, 2], "totals": [5, 2, 4, 0]}
    cfg = {"seats": 2, "target": 99, "hands": [["5S"], ["5C"]], "deck": []}
    st = RACE.replay(cfg, 0, [(0, "5S"), (1, "5C")])
    assert RACE.outcome(st) == {"winners": [0, 1], "totals": [5, 5]}


# ------------------------------------------------------------------ helpers for whole games


class RandomCpu:
    """A CPU runner double: a seeded random legal play, at once (so games end quickly and
    replay exactly whatever the real CPUs do)."""

    def __init__(self) -> None:
        self._answers: dict[object, str] = {}
        self.requests = 0
        self.levels: set[str] = set()

    def request(self, key: object, job: Any) -> None:
        self.requests += 1
        self.levels.add(job.level)
        self._answers[key] = Rng(job.seed).choice(list(job.legal))

    def poll(self, key: object) -> str | None:
        return self._answers.pop(key)

    def cancel(self, key: object) -> None:
        self._answers.pop(key, None)

    def close(self) -> None:
        self._answers.clear()


class FirstCpu(RandomCpu):
    """A CPU runner double that plays the first legal play (race tests work these by hand)."""

    def request(self, key: object, job: Any) -> None:
        self.requests += 1
        self.levels.add(job.level)
        self._answers[key] = job.legal[0]


def person_choice(table: Any, seat: int) -> str:
    """What a scripted person plays: a legal play picked by the state number (deterministic)."""
    legal = [str(p) for p in table.rules.legal_plays(table.state)]
    return legal[Rng(table.seed ^ (table.state_no * 7919 + seat)).below(len(legal))]


def play_out(table: Any, clock: FakeClock, *, max_plays: int = 20000,
             stop_at: int | None = None,
             after: Callable[[], None] | None = None) -> list[tuple[float, int]]:
    """Drive ``table`` to the end (or to ``stop_at`` plays): people play ``person_choice`` as
    soon as it is their turn, CPUs when the table releases them; ``after()`` runs after each
    play. Returns (clock, state_no) of every play."""
    times: list[tuple[float, int]] = []
    while table.phase == "playing" and table.state_no < (stop_at or max_plays):
        mover = table.to_move()
        seat = table.snapshot(None)["seats"][mover]
        if seat["kind"] == "person" and seat["connected"]:
            r = table.submit(table.token(mover), person_choice(table, mover), table.state_no)
            assert r.ok, r
        else:
            due = table.next_due()
            assert due is not None, table.pause_reasons()
            clock.t = max(clock.t, due)
            assert table.tick() == 1
        times.append((clock.t, table.state_no))
        if after is not None:
            after()
    return times


def test_every_public_name_of_the_table_package_loads_from_its_module() -> None:
    """``game.table`` loads its names when first used: each name in ``__all__`` is found, and
    is the very object its own module defines (the lazy map and the modules agree)."""
    import importlib

    import game.table as pkg

    for name in pkg.__all__:
        where = pkg._WHERE[name]
        assert getattr(pkg, name) is getattr(importlib.import_module(where), name), name
    assert set(pkg._WHERE) == set(pkg.__all__)
