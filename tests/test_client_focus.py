"""Keyboard focus, text input, covered tables and messages, driven through the real loop.

Bugs the end-to-end run found: a button hidden after a click kept the keys (Ready, Pause,
ADMIN), text input stayed off after a failed join, a table under ADMIN stopped reading its
session, and a message hid the speed line for good.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.client.lobby import LobbyScene
from game.client.table_scene import MESSAGE_SECONDS, AdminOverlay, TrackTableScene
from game.cpu_worker import SyncCpu
from game.table import SeatSpec, Table
from net.host import HostThread
from tests.client_app import close_app, open_fixed_table, table_app
from tests.client_testing import click, frames, key


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path, loopback=True)
    yield a
    close_app(a)


def fixed_table(app: App) -> TrackTableScene:
    table = open_fixed_table(app, n_frames=2)
    assert table.my_turn()
    return table


def play_seven_by_keys(app: App, table: TrackTableScene) -> None:
    """6 picks the 7; Enter takes the first peg (a12), Enter its first hole (+1: a split),
    Enter the remainder on the other peg (a20 +6)."""
    n = table.session.table.state_no
    key(app, pygame.K_6)
    assert table.choice.card == 5
    key(app, pygame.K_RETURN)
    assert table.choice.peg == (0, 12), "Enter did not reach the board"
    key(app, pygame.K_RETURN)
    assert table.choice.first == ((0, 12), 13)
    key(app, pygame.K_RETURN)
    assert table.session.table.log[-1] == (0, "7:a12+1,a20+6")
    assert table.session.table.state_no == n + 1


def test_after_pause_and_ready_by_mouse_enter_plays_on_the_board(app: App) -> None:
    table = fixed_table(app)
    click(app, table.pause_button.rect.center)
    assert table.paused() and table.ready_button.visible
    click(app, table.ready_button.rect.center)
    frames(app)
    assert not table.paused() and not table.ready_button.visible
    assert table.form.focused is None  # neither Pause nor the hidden Ready keeps the keys
    play_seven_by_keys(app, table)
    assert not table.paused()  # Enter never pressed Pause again


def test_a_hidden_focused_button_never_takes_keys(app: App) -> None:
    table = fixed_table(app)
    key(app, pygame.K_ESCAPE)  # pause by key
    assert table.paused() and table.ready_button.visible
    key(app, pygame.K_TAB)
    key(app, pygame.K_TAB)
    while table.form.focused is not table.ready_button:
        key(app, pygame.K_TAB)
    key(app, pygame.K_RETURN)  # Ready by keyboard: the overlay closes, the button hides
    frames(app)
    assert not table.paused() and not table.ready_button.visible
    play_seven_by_keys(app, table)


def test_after_admin_closes_enter_goes_to_the_board_not_admin(app: App) -> None:
    table = fixed_table(app)
    assert table.admin_button.visible
    click(app, table.admin_button.rect.center)
    assert isinstance(app.top, AdminOverlay)
    key(app, pygame.K_ESCAPE)
    assert app.top is table
    play_seven_by_keys(app, table)
    assert app.top is table  # Enter did not reopen ADMIN


def test_the_table_under_admin_keeps_playing(app: App) -> None:
    table = fixed_table(app)
    play_seven_by_keys(app, table)  # now the three CPUs play
    n = table.session.table.state_no
    click(app, table.admin_button.rect.center)
    admin = app.top
    assert isinstance(admin, AdminOverlay)
    for _ in range(200):
        if table.session.table.state_no >= n + 3:
            break
        app.frame(0.1)
    assert app.top is admin
    assert table.session.table.state_no >= n + 3, "the covered table stopped ticking"
    # the scene followed: its own view shows the CPUs' plays and it is my turn again
    assert table.public["state_no"] == table.session.table.state_no
    assert table.my_turn()


def drawn_texts(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the next frame draws through the one loader."""
    out: list[str] = []
    a = app.assets
    text, fit = a.text, a.fit_text

    def rec_text(s: str, *args: Any, **kw: Any) -> Any:
        out.append(s)
        return text(s, *args, **kw)

    def rec_fit(s: str, *args: Any, **kw: Any) -> Any:
        out.append(s)
        return fit(s, *args, **kw)

    monkeypatch.setattr(a, "text", rec_text)
    monkeypatch.setattr(a, "fit_text", rec_fit)
    frames(app)
    monkeypatch.setattr(a, "text", text)
    monkeypatch.setattr(a, "fit_text", fit)
    return out


def test_a_message_keeps_the_speed_line_and_goes_after_a_few_seconds(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    table = fixed_table(app)
    key(app, pygame.K_d)  # D with no card picked
    msg = table.message
    assert msg is not None and msg.startswith("Pick the card to discard first")
    shown = drawn_texts(app, monkeypatch)
    assert msg in shown and "Speed: blitz" in shown
    # still there a moment later, gone after MESSAGE_SECONDS of table time
    app.frame(MESSAGE_SECONDS / 2)
    assert table.message == msg
    app.frame(MESSAGE_SECONDS / 2 + 0.1)
    assert table.message is None
    assert msg not in drawn_texts(app, monkeypatch)


def test_a_message_goes_at_the_next_play(app: App) -> None:
    table = fixed_table(app)
    play_seven_by_keys(app, table)  # the CPUs' turns now (after the seven's animation)
    n = table.session.table.state_no
    key(app, pygame.K_d)  # D out of turn: the message (the pause overlay would take the key)
    assert table.session.table.state_no == n  # the seven still moves: no CPU played yet
    msg = table.message
    assert msg is not None and msg.startswith("Pick the card to discard first")
    said_at = table.t
    while table.session.table.state_no == n and table.t - said_at < MESSAGE_SECONDS / 2:
        app.frame(1 / 60)
    assert table.session.table.state_no > n  # a CPU played, within the message's seconds
    frames(app)
    assert table.t - said_at < MESSAGE_SECONDS
    assert table.message is None


def test_typing_works_after_a_failed_join(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """SDL only sends typed text while text input is on; the fake here does the same."""
    on = {"text": False}
    monkeypatch.setattr(pygame.key, "start_text_input", lambda: on.update(text=True))
    monkeypatch.setattr(pygame.key, "stop_text_input", lambda: on.update(text=False))

    def type_(text: str) -> None:
        for ch in text:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=ch,
                                                 scancode=0))
            if on["text"]:
                pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        frames(app)

    t = Table.create("track", {"rules": "classic", "seats": 4}, 5,
                     [SeatSpec("person", "Host")] + [SeatSpec() for _ in range(3)],
                     clock=time.monotonic, host_seat=0, cpu=SyncCpu())
    ht = HostThread(t, bind="127.0.0.1", port=0, discovery=None, code="KQXF").start()
    try:
        click(app, app.top.buttons[2].rect.center)  # type: ignore[union-attr]  # Join a game
        join = app.top
        assert isinstance(join, screens.JoinScene)
        assert join.form.focused is join.entry and on["text"]
        type_(f"127.0.0.1:{ht.port}/ABCD")
        assert join.entry.text == f"127.0.0.1:{ht.port}/ABCD"
        key(app, pygame.K_RETURN)
        assert isinstance(app.top, LobbyScene)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (app.top is join and join.error):
            app.frame(1 / 60)
            time.sleep(0.005)
        assert app.top is join and join.error == screens.JOIN_MESSAGES["wrong_code"]
        assert join.form.focused is join.entry
        for _ in range(4):
            key(app, pygame.K_BACKSPACE)
        type_("KQXF")  # no click on the box first
        assert join.entry.text == f"127.0.0.1:{ht.port}/KQXF"
    finally:
        ht.stop()
        t.close()


def test_text_input_follows_the_focus_and_the_top_scene(app: App,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    on = {"text": False}
    monkeypatch.setattr(pygame.key, "start_text_input", lambda: on.update(text=True))
    monkeypatch.setattr(pygame.key, "stop_text_input", lambda: on.update(text=False))
    click(app, app.top.buttons[5].rect.center)  # type: ignore[union-attr]  # Settings
    settings = app.top
    assert isinstance(settings, screens.SettingsScene)
    assert settings.form.focused is settings.name_input and on["text"]
    key(app, pygame.K_DOWN)  # to the colour choice: no text box has the focus
    assert not on["text"]
    key(app, pygame.K_UP)
    assert on["text"]
    key(app, pygame.K_ESCAPE)  # back to the title: no text box
    assert isinstance(app.top, screens.TitleScene) and not on["text"]
