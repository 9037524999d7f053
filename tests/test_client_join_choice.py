"""Joining by code when two tables answer (issue 15): the Join screen says so, lists each
table with its host's name and seats, and joins the one the person chooses. Loopback only: two
real hosts under the same code, each with its own look-up responder."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.client.lobby import LobbyScene
from game.cpu_worker import SyncCpu
from game.table import SeatSpec, Table
from net.host import HostThread
from tests import client_app
from tests.client_app import close_app, table_app
from tests.client_testing import key, type_text


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path, virtual_time=False, loopback=True)
    yield a
    close_app(a)


def _host(name: str, seats: int) -> tuple[Table, HostThread]:
    t = Table.create("track", {"rules": "classic", "seats": seats}, 5,
                     [SeatSpec("person", name)] + [SeatSpec() for _ in range(seats - 1)],
                     clock=time.monotonic, host_seat=0, cpu=SyncCpu())
    ht = HostThread(t, bind="127.0.0.1", port=0, discovery=("127.0.0.1", 0),
                    code="KQXF").start()
    return t, ht


def test_two_tables_answer_the_code_and_the_person_chooses(app: App) -> None:
    (ta, a), (tb, b) = _host("Ann", 4), _host("Bea", 6)
    try:
        assert a.host is not None and a.host.responder is not None
        assert b.host is not None and b.host.responder is not None
        app.join_options = {"discover_targets": [("127.0.0.1", a.host.responder.port),
                                                 ("127.0.0.1", b.host.responder.port)],
                            "discover_bind": "127.0.0.1"}
        app.show("join")
        join = app.top
        assert isinstance(join, screens.JoinScene)
        type_text(app, "KQXF")
        key(app, pygame.K_RETURN)
        assert client_app.pump(app, lambda: isinstance(app.top, screens.JoinScene)
                               and bool(join.choices), 15)
        assert join.error == screens.JOIN_MESSAGES["several_tables"]
        rows = [r[0] for r in join.tables.rows]
        assert len(rows) == 2 and join.tables.visible
        assert any("Ann's table" in r and "4 seats" in r for r in rows), rows
        assert any("Bea's table" in r and "6 seats" in r for r in rows), rows
        # choose Bea's table by keyboard: the list has the focus
        bea = next(i for i, r in enumerate(rows) if "Bea" in r)
        for _ in range(bea):
            key(app, pygame.K_DOWN)
        key(app, pygame.K_RETURN)
        lobby = app.top
        assert isinstance(lobby, LobbyScene)
        assert client_app.pump(app, lambda: bool(lobby.session.local_seats), 15)
        assert len(lobby.session.seats) == 6 and lobby.session.seats[0]["name"] == "Bea"
    finally:
        a.stop()
        b.stop()
        ta.close()
        tb.close()
