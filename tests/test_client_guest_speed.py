"""On a guest's screen too, a speed change rescales what is still animating (issue 14).

The host's table is real; a guest's :class:`NetSession` reads it through a bridge standing for
the wire (each poll carries the guest seat's queued messages as wire frames would, through
``to_wire``), and the guest's table scene animates on the app's frame clock. The host changes
the speed half way through a long move: the guest's remaining half plays at the new speed,
exactly as the host's own busy time is rescaled.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.client.app import App
from game.client.net_session import NetSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from game.table import SeatSpec, Table
from game.table.messages import to_wire
from tests.client_app import SPLIT_POSITION, close_app, table_app
from tests.client_testing import FixedStart, frames


class _Bridge:
    """The guest's end of the wire: the welcome and snapshot first, then whatever the table
    queued for the guest's seat since the last poll."""

    token: str | None = None

    def __init__(self, table: Table, seat: int, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        welcome = {"t": "welcome", "v": 2, "token": token, "seat": seat,
                   "table": {"code": "KQXF", "link": "", "game": "track",
                             "config": table.config, "is_host": False}}
        self.first: list[dict[str, Any]] = [welcome, to_wire(table.snapshot(seat))]

    def poll(self) -> list[dict[str, Any]]:
        out, self.first = self.first, []
        return out + [to_wire(m) for m in self.table.drain(self.seat)]

    def close(self, timeout: float = 0.0) -> None:
        pass


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def test_a_speed_change_rescales_the_guests_move_still_playing(app: App) -> None:
    """A 10-hole move queued at normal (0.1 + 10 x 0.14 = 1.5 s of normal time): 0.75 s in,
    the host switches to blitz (scale 0.3), so the other 0.75 s take 0.225 s on the guest."""
    host = Table.create(FixedStart(TRACK, SPLIT_POSITION), {"rules": "classic", "seats": 4}, 5,
                        [SeatSpec("person", "Host")] + [SeatSpec() for _ in range(3)],
                        clock=app.table_clock, host_seat=0, cpu=SyncCpu(), speed="normal")
    r = host.sit("Bea")
    seat, token = r.data["seat"], r.data["token"]
    guest = NetSession(_Bridge(host, seat, token))
    for _ in range(3):
        guest.poll()
    assert guest.local_seats == [seat]
    table = app.open_table(guest)
    assert isinstance(table, TrackTableScene)
    frames(app)
    assert table.clock.speed_name == "normal"
    table.animate([{"type": "move", "colour": 0, "peg": 3, "from": 12, "to": 22,
                    "path": list(range(13, 23))}])
    for _ in range(75):  # 0.75 s at normal: half way
        app.frame(0.01)
    assert not table.timeline.idle
    assert host.set_speed(host.host_token, "blitz").ok  # on the host: the guest hears of it
    n = 0
    while not table.timeline.idle and n < 200:
        app.frame(0.01)
        n += 1
    assert table.clock.speed_name == "blitz"
    assert 22 <= n <= 25  # 0.225 s of 10 ms frames (75 more frames had the speed stayed)
    host.close()


@pytest.mark.parametrize("game,config", [("track", {"rules": "classic", "seats": 4}),
                                         ("layout", {"seats": 3})])
def test_the_guest_sees_the_opening_deal_card_by_card(app: App, game: str,
                                                      config: dict[str, Any]) -> None:
    """The host starts; the guest's screen queues the real deal events of the start message
    that came over the (bridged) wire, as long as the table's pacing says, and no fake wait."""
    from game.table import event_duration

    host = Table.create(game, config, 7,
                        [SeatSpec("person", "Host")] + [SeatSpec() for _ in
                                                        range(config["seats"] - 1)],
                        clock=app.table_clock, host_seat=0, cpu=SyncCpu(), speed="normal")
    r = host.sit("Bea")
    seat, token = r.data["seat"], r.data["token"]
    guest = NetSession(_Bridge(host, seat, token))
    for _ in range(3):
        guest.poll()
    table = app.open_table(guest)
    frames(app, 1, dt=0.0)
    assert table.timeline.idle  # the lobby: nothing to animate yet
    seen: list[dict[str, Any]] = []
    poll = guest.poll

    def recording_poll() -> list[Any]:
        msgs = poll()
        seen.extend(m for m in msgs if m["type"] == "start")
        return msgs

    guest.poll = recording_poll  # type: ignore[method-assign]
    assert host.start(host.host_token).ok
    frames(app, 1, dt=0.0)
    assert len(seen) == 1, "the start message reaches the guest once"
    events = seen[0]["events"]
    total = sum(event_duration(e, "normal") for e in events)
    assert total > 0.5
    assert sum(a.duration for a in table.timeline.queue) == pytest.approx(total)
    host.close()
