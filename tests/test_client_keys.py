"""Keyboard and focus that never surprise (issue 19 point 5): overlays take Enter for their
main action and Esc to go back, the focus never lands on what an overlay hides, Enter never
changes a value, Enter in the lobby never stands you up. Real events through the real loop."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.client.lobby import LobbyScene
from game.client.table_scene import TrackTableScene
from tests.client_app import close_app, open_fixed_table, table_app
from tests.client_testing import click, frames, key


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def paused_table(app: App) -> TrackTableScene:
    table = open_fixed_table(app, n_frames=2)
    assert table.my_turn()
    key(app, pygame.K_ESCAPE)  # nothing chosen: Esc opens the pause overlay...
    assert table.show_pause() and table.ready_button.visible
    return table


@pytest.mark.parametrize("k", [pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_r,
                               pygame.K_p, pygame.K_ESCAPE])
def test_the_pause_overlay_takes_its_keys_for_ready(app: App, k: int) -> None:
    table = paused_table(app)
    key(app, k)
    assert not table.paused() and table.my_turn()


def test_p_pauses_and_p_again_plays_on(app: App) -> None:
    table = open_fixed_table(app, n_frames=2)
    key(app, pygame.K_p)
    assert table.paused()
    key(app, pygame.K_p)
    assert not table.paused()


def test_a_held_key_does_not_answer_the_pause_overlay(app: App) -> None:
    table = open_fixed_table(app, n_frames=2)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p",
                                         scancode=0))
    frames(app)
    assert table.paused()
    for _ in range(3):  # P held: its repeats are no Ready
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0,
                                             unicode="p", scancode=0))
        frames(app)
    assert table.paused()


def test_the_pause_overlay_says_how_to_play_on(app: App,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    paused_table(app)
    said: list[str] = []
    real = app.assets.fit_text

    def spy(text: str, *a: object, **kw: object) -> pygame.Surface:
        said.append(text)
        return real(text, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(app.assets, "fit_text", spy)
    frames(app)
    assert any("Esc" in t and "Ready" in t for t in said)


def test_tab_on_the_pause_overlay_stays_on_its_buttons(app: App) -> None:
    table = open_fixed_table(app, n_frames=2)
    key(app, pygame.K_TAB)
    assert table.form.focused is table.moves  # the moves list has the focus, then a pause
    click(app, table.pause_button.rect.center)
    assert table.show_pause()
    seen = []
    for _ in range(4):
        key(app, pygame.K_TAB)
        seen.append(table.form.focused)
    # never the Pause button the overlay hides, nor the moves list under it (a local table
    # with CPU seats also offers Sit here: issue 17)
    assert table.sit_button.visible
    assert seen == [table.ready_button, table.leave_button, table.sit_button,
                    table.ready_button]
    table.form.focus(table.ready_button)
    key(app, pygame.K_RETURN)  # Enter presses the focused overlay button
    assert not table.paused()
    frames(app)
    key(app, pygame.K_TAB)  # after the overlay: Tab reaches the moves list again
    seen = [table.form.focused]
    key(app, pygame.K_TAB)
    seen.append(table.form.focused)
    assert table.moves in seen and all(w is None or w.visible for w in seen)


def test_enter_on_a_setup_row_moves_on_and_never_changes_it(app: App) -> None:
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene) and nt.form.focused is nt.game
    key(app, pygame.K_RETURN)
    assert nt.game.value == "track" and nt.form.focused is nt.rules
    key(app, pygame.K_RETURN)
    assert nt.rules.value == "tees" and nt.form.focused is nt.mode
    key(app, pygame.K_RIGHT)  # Left / Right do change it
    assert nt.form.focused is nt.mode
    key(app, pygame.K_UP)
    key(app, pygame.K_RIGHT)
    assert nt.rules.value == "classic"


def test_enter_in_the_lobby_starts_and_never_stands_you_up(app: App) -> None:
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    nt.form.focus(nt.start_button)
    key(app, pygame.K_RETURN)
    lobby = app.top
    assert isinstance(lobby, LobbyScene) and lobby.session.local_seats == [0]
    session = lobby.session
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, TrackTableScene)  # Enter is Start
    assert session.local_seats == [0] and session.phase == "playing"


def test_space_in_the_lobby_sits_and_stands(app: App) -> None:
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    nt.form.focus(nt.start_button)
    key(app, pygame.K_RETURN)
    lobby = app.top
    assert isinstance(lobby, LobbyScene)
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_SPACE)  # a second person on this screen
    assert lobby.session.local_seats == [0, 1]
    key(app, pygame.K_RETURN)  # their name box has the focus: Enter keeps the name
    key(app, pygame.K_SPACE)
    assert lobby.session.local_seats == [0]
