"""The one speed table: every event type an engine emits has a duration, every key is emitted.

Event types are collected by playing games of every rule set and Trash (a fixed random choice
of legal plays), plus three Trash positions for the rare ones (a reshuffle, two passes and a
dead hand), written like tests/test_layout_golden.py's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.rules.layout import RULES as LAYOUT
from game.rules.layout.notation import parse_position
from game.rules.track import RULES as TRACK
from game.table.pacing import DURATIONS, SPEEDS, event_duration

GAMES: list[tuple[Any, dict[str, Any], int]] = [
    (TRACK, {"rules": "tees", "seats": 4}, 3),
    (TRACK, {"rules": "tees", "seats": 6}, 1),
    (TRACK, {"rules": "classic", "seats": 4}, 3),
    (TRACK, {"rules": "classic", "seats": 1}, 1),
    (TRACK, {"rules": "team", "seats": 4}, 3),
    (LAYOUT, {"seats": 2}, 3),
    (LAYOUT, {"seats": 4, "upcard": True}, 2),
]


def _pos(**f: Any) -> str:
    d: dict[str, Any] = {
        "seats": 2, "wild": "J", "lastchance": 0, "upcard": 0, "size": 10, "first": "-",
        "seed": 0, "hand": 1, "leader": 0, "turn": 0, "phase": "source", "hold": "-",
        "passes": 0, "ply": 0, "rng": 1, "last": "-", "sizes": "10,10",
    }
    d.update({k: v for k, v in f.items() if k in d})
    text = "layout " + " ".join(f"{k}={v}" for k, v in d.items())
    for s in range(int(d["seats"])):
        text += f" p{s}={f[f'p{s}']}"
    return text + f" stock={f.get('stock', '-')} discard={f.get('discard', '-')}"


def emitted_types() -> set[str]:
    seen: set[str] = set()
    for rules, config, games in GAMES:
        for g in range(games):
            rng = random.Random(g)
            state, events = rules.start(config, g)
            seen |= {e["type"] for e in events}
            for _ in range(3000):  # bounded: every game here ends well within it
                if rules.outcome(state) is not None:
                    break
                seat = rules.to_move(state)
                state, events = rules.apply(state, seat, rng.choice(rules.legal_plays(state)))
                seen |= {e["type"] for e in events}
    p0 = "?7H,2H,?5C,4D,5D,?6C,?QD,?8C,9S,?3C"
    p1 = "?AS,?2S,?3S,?4S,?5S,?6D,?7S,?8S,?9D,?TD"
    _, ev = LAYOUT.apply(parse_position(_pos(p0=p0, p1=p1, discard="5H,9C,KS")), 0, "S")
    seen |= {e["type"] for e in ev}  # reshuffled
    p0 = "?7H,2H,?5C,?KC,?9C,?6C,?QD,?8C,?KH,?3C"
    p1 = "?AS,?2S,?3S,4S,?5S,?6D,?7S,?8S,?9D,?TD"
    st, ev = LAYOUT.apply(parse_position(_pos(turn=1, p0=p0, p1=p1, stock="4H")), 1, "S")
    st, ev = LAYOUT.apply(st, 0, "D")  # 4H -> place 4 reveals KC: both seats pass, dead hand
    seen |= {e["type"] for e in ev}
    return seen


def test_every_emitted_event_has_a_duration_and_every_key_is_emitted() -> None:
    seen = emitted_types()
    assert {"passed", "hand_dead", "reshuffled", "trade", "fold", "wild_displaced"} <= seen
    assert seen - set(DURATIONS) == set(), "emitted but not paced"
    assert set(DURATIONS) - seen == set(), "paced but never emitted"


@pytest.mark.parametrize(("event", "normal"), [
    ({"type": "move", "path": [1, 2, 3, 4, 5]}, 0.1 + 5 * 0.14),  # a step per hole
    ({"type": "deal", "counts": [5, 5, 5, 5]}, 0.2 + 20 * 0.06),  # a card per card dealt
    ({"type": "dealt", "sizes": [10, 10]}, 0.4 + 20 * 0.05),
    ({"type": "hand_won"}, 1.5),
    ({"type": "turn", "seat": 1}, 0.0),
    ({"type": "no_such_event"}, 0.25),  # a test double's event: the default
])
def test_durations_at_normal_and_scaled_by_the_speed(event: dict[str, Any], normal: float
                                                     ) -> None:
    assert event_duration(event) == pytest.approx(normal)
    for sp in SPEEDS.values():
        assert event_duration(event, sp.name) == pytest.approx(normal * sp.scale)


def test_a_speed_change_mid_deal_rescales_the_rest_of_the_opening_animation() -> None:
    from game.table import Table
    from game.table.cpu import SyncCpu

    class Clock:
        t = 500.0

        def __call__(self) -> float:
            return self.t

    clock = Clock()
    t = Table.create("track", {"rules": "tees", "seats": 4}, 8, clock=clock, cpu=SyncCpu())
    box = t.snapshot(None)
    assert box["phase"] == "lobby"
    t.start(t.host_token)
    (start,) = [m for m in t.drain(None) if m["type"] == "start"]
    deal = sum(event_duration(e) for e in start["events"])  # normal speed, by hand below
    dealt = next(e for e in start["events"] if e["type"] == "deal")
    assert deal == pytest.approx(0.2 + 0.06 * sum(dealt["counts"]))  # deal + a "turn" (0 s)
    assert t.next_due() == pytest.approx(500.0 + deal + 0.8)  # the first CPU waits for it
    clock.t = 500.0 + deal / 2  # half way through the deal...
    assert t.set_speed(t.host_token, "blitz").ok
    # ...the other half plays at blitz (x 0.3), then the blitz CPU wait (0.15 s)
    assert t.busy_for() == pytest.approx(deal / 2 * 0.3)
    assert t.next_due() == pytest.approx(clock.t + deal / 2 * 0.3 + 0.15)
    assert t.tick() == 0  # not yet
    clock.t = t.next_due() or 0.0
    assert t.tick() == 1  # now the first CPU plays
