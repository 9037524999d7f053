"""The turn clock and the table's notices on screen (issue 15: "all of it shown on every
screen in words"): a person whose turn runs low sees the seconds left, and when a stand-in
plays for someone every screen says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.client.app import App
from game.client.session import LocalSession
from game.cpu_worker import SyncCpu
from tests.client_app import close_app, table_app
from tests.client_testing import frames


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path)
    yield a
    close_app(a)


def test_the_turn_clock_counts_down_and_a_timeout_is_told(app: App) -> None:
    """Ada plays here; Bea plays from elsewhere and never moves. At normal speed with a 45 s
    clock: with 30 s or less left, the screen counts down Bea's seconds; when they are out a
    stand-in plays and the screen says Bea took too long."""
    session = LocalSession("track", {"rules": "classic", "seats": 2}, speed="normal", seed=11,
                           cpu=SyncCpu(), clock=app.table_clock)
    assert session.sit(0, "Ada").ok
    assert session.table.take_seat(1, "Bea").ok
    assert session.table.set_turn_clock(session.table.host_token, 45.0).ok
    assert session.start().ok
    table = app.open_table(session)
    seen: list[str] = []
    for _ in range(6000):  # bounded: a few minutes of frame time
        frames(app, 1, dt=0.05)
        if session.public.get("to_move") == 0 and table.my_turn() and table.timeline.idle:
            legal = session.table.rules.legal_tokens(session.table.state)
            assert session.play(0, legal[0]).ok
        line = table.status_line()
        if line:
            seen.append(line)
        if any("took too long" in s for s in seen):
            break
    counts = [s for s in seen if s.startswith("Bea: ") and "left on the turn clock" in s]
    assert counts, seen[-5:]
    secs = [int(s.split()[1]) for s in counts]
    assert max(secs) <= 30 and min(secs) <= 2  # shown from 30 s down to the last seconds
    assert secs == sorted(secs, reverse=True) and len(set(secs)) > 20  # it counts down
    told = [s for s in seen if "took too long" in s]
    assert told and "Bea" in told[0]
    assert session.table.seat_info(1)["kind"] == "person"  # she keeps her seat
