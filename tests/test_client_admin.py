"""ADMIN, the host's overlay (issue 15): the turn clock, ending a pause, and for each other
person at the table: hand the seat to a CPU or remove them — each a button that works, by
mouse and by keyboard, and says what it did."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.client.app import App
from game.client.session import LocalSession
from game.client.table_base import AdminOverlay
from game.cpu_worker import SyncCpu
from tests.client_app import close_app, table_app
from tests.client_testing import click, frames, key


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path)
    yield a
    close_app(a)


def _table_with_a_guest(app: App) -> tuple[LocalSession, AdminOverlay]:
    """A table on this screen (Ada) with a person at seat 1 who is not on this screen (Bea,
    as a LAN guest would be), started; ADMIN opened."""
    session = LocalSession("layout", {"seats": 3}, speed="normal", seed=3, cpu=SyncCpu(),
                           clock=app.table_clock)
    assert session.sit(0, "Ada").ok
    assert session.table.take_seat(1, "Bea").ok  # not local: Bea plays from elsewhere
    assert session.start().ok
    table = app.open_table(session)
    frames(app, 2)
    table.admin()
    admin = app.top
    assert isinstance(admin, AdminOverlay)
    return session, admin


def test_admin_removes_a_connected_person_by_mouse(app: App) -> None:
    session, admin = _table_with_a_guest(app)
    labels = [b.label for _, b in admin.hand_buttons]
    assert labels == ["Hand Bea to a CPU", "Remove Bea from the table"]
    remove = admin.hand_buttons[1][1]
    click(app, remove.rect.center)
    info = session.table.seat_info(1)
    assert info["kind"] == "cpu"  # the seat plays on with a CPU
    assert admin.message and "Bea" in admin.message


def test_admin_sets_the_turn_clock_by_keyboard(app: App) -> None:
    session, admin = _table_with_a_guest(app)
    assert session.table.turn_clock == 90.0
    admin.form.focus(admin.turn_clock)
    key(app, pygame.K_LEFT)  # 90 s -> 45 s
    assert session.table.turn_clock == 45.0
    key(app, pygame.K_LEFT)  # 45 s -> Off
    assert session.table.turn_clock is None
    assert admin.message is None  # nothing went wrong


def test_admin_ends_a_pause(app: App) -> None:
    session, admin = _table_with_a_guest(app)
    key(app, pygame.K_ESCAPE)  # close ADMIN
    assert session.table.pause(session.table.token(1)).ok  # Bea pauses and walks away
    frames(app, 2)
    assert session.table.paused()
    app.top.admin()  # type: ignore[attr-defined]
    admin = app.top
    assert isinstance(admin, AdminOverlay) and admin.end_pause.visible
    click(app, admin.end_pause.rect.center)
    frames(app, 1)
    assert not any(r["reason"] == "paused" for r in session.table.pause_reasons())
