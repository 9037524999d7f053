"""The opening deal plays card by card at the table speed (issue 14): the ``start`` message's
deal events are animated, and the whole opening lasts exactly what the table's pacing says."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.client.app import App
from game.client.layout_scene import LayoutTableScene
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.table import event_duration
from tests.client_app import close_app, table_app
from tests.client_testing import frames


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path)
    yield a
    close_app(a)


def open_started(app: App, game: str, config: dict[str, Any], speed: str = "normal"
                 ) -> tuple[Any, list[dict[str, Any]]]:
    """A started local table on screen, one frame of no time run (the start message read,
    nothing played yet); returns the scene and the start message's events as delivered."""
    session = LocalSession(game, config, speed=speed, seed=7, cpu=SyncCpu(),
                           clock=app.table_clock)
    assert session.sit(0, "Ada").ok and session.start().ok
    seen: list[dict[str, Any]] = []
    poll = session.poll

    def recording_poll() -> list[dict[str, Any]]:
        msgs = poll()
        seen.extend(m for m in msgs if m.get("type") == "start")
        return msgs

    session.poll = recording_poll  # type: ignore[method-assign]
    table = app.open_table(session)
    frames(app, 1, dt=0.0)
    assert len(seen) == 1, "the start message comes once"
    return table, seen[0]["events"]


def queued(table: Any) -> float:
    return sum(a.duration for a in table.timeline.queue)


def test_track_opening_deal_lasts_what_the_table_says_and_lands_card_by_card(app: App) -> None:
    table, events = open_started(app, "track", {"rules": "classic", "seats": 4})
    assert isinstance(table, TrackTableScene)
    assert [e["type"] for e in events] == ["deal", "turn", "draw"]
    # by hand: the deal 0.2 + 20 cards x 0.06, the turn 0, seat 0's draw 0.3
    assert sum(event_duration(e, "normal") for e in events) == pytest.approx(1.7)
    assert queued(table) == pytest.approx(1.7)
    assert table.hand_shown is None  # the shuffle has not started yet
    shown: list[int | None] = []
    n = 0
    while not table.timeline.idle and n < 400:
        app.frame(0.01)
        n += 1
        assert len(table.timeline.cards()) <= 1, "one card in the air at a time"
        if not shown or shown[-1] != table.hand_shown:
            shown.append(table.hand_shown)
    assert n == pytest.approx(170, abs=2)  # 1.7 s at normal
    # seat 0 sits left of the dealer (seat 3): its five cards land one by one; the sixth
    # (the draw) shows when it lands, with the whole hand (None: the animations are over)
    assert shown == [0, 1, 2, 3, 4, 5, None]


def test_the_deal_runs_at_the_table_speed(app: App) -> None:
    table, _events = open_started(app, "track", {"rules": "classic", "seats": 4}, "blitz")
    n = 0
    while not table.timeline.idle and n < 400:
        app.frame(0.01)
        n += 1
    assert n == pytest.approx(51, abs=2)  # 1.7 s x 0.3


def test_trash_layouts_are_dealt_card_by_card(app: App) -> None:
    table, events = open_started(app, "layout", {"seats": 3})
    assert isinstance(table, LayoutTableScene)
    assert [e["type"] for e in events] == ["dealt", "turn"]
    # by hand: 0.4 + 3 layouts x 10 cards x 0.05
    assert queued(table) == pytest.approx(1.9)
    assert queued(table) == pytest.approx(sum(event_duration(e, "normal") for e in events))
    totals: list[int] = []
    n = 0
    while not table.timeline.idle and n < 400:
        app.frame(0.01)
        n += 1
        t = sum(table.shown["sizes"])
        if not totals or totals[-1] != t:
            totals.append(t)
    assert n == pytest.approx(190, abs=2)
    # the view's layouts go (the shuffle), then 30 cards land one at a time
    assert totals[0] == 0 and totals[1:] == list(range(1, 31))
    assert table.shown["sizes"] == [10, 10, 10]
