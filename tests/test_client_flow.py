"""Nothing is lost (issue 19 point 3): every local table is saved after every play, Continue
and the Reopen list bring it back on this screen, and leaving or closing asks first. Driven
through the real loop with posted pygame events."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.client.dialog import ConfirmOverlay
from game.client.lobby import LobbyScene
from game.client.session import is_local_save
from game.client.table_scene import TrackTableScene
from game.table.savefile import list_saves
from tests.client_app import close_app, table_app
from tests.client_testing import click, frames, key


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def play_turns(app: App, table: TrackTableScene, n: int) -> None:
    """Let the person play ``n`` turns (the first legal play each time, by the moves list)."""
    start = int(table.public.get("turns") or 0)
    for _ in range(3000):
        if int(table.public.get("turns") or 0) >= start + n:
            return
        if table.my_turn() and table.legal_plays():
            table._move_chosen(0)
        app.frame(0.1)
    raise AssertionError("the game did not get on")


def open_solo(app: App) -> TrackTableScene:
    title = app.top
    assert isinstance(title, screens.TitleScene)
    solo = next(b for b in title.buttons if b.label == "Solo")
    click(app, solo.rect.center)
    nt = app.top
    assert isinstance(nt, screens.NewTableScene) and nt.kind == "solo"
    click(app, nt.start_button.rect.center)
    table = app.top
    assert isinstance(table, TrackTableScene), nt.error
    return table


def quit_event(app: App) -> None:
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    frames(app)


def test_a_solo_game_survives_closing_the_window_and_continue_brings_it_back(
        tmp_path: Path) -> None:
    app = table_app(tmp_path)
    table = open_solo(app)
    play_turns(app, table, 2)
    turns = int(table.public["turns"])
    seed = table.session.table.seed
    quit_event(app)  # closing the window with a game in progress asks first
    assert app.running and isinstance(app.top, ConfirmOverlay)
    assert "saved" in app.top.detail
    key(app, pygame.K_ESCAPE)  # Play on
    assert app.running and app.top is table
    quit_event(app)
    key(app, pygame.K_RETURN)  # Quit is the main action
    assert not app.running
    close_app(app)

    again = table_app(tmp_path)  # the program is opened again
    try:
        title = again.top
        assert isinstance(title, screens.TitleScene)
        assert title.continue_button.visible and title.form.focused is title.continue_button
        key(again, pygame.K_RETURN)  # Continue
        back = again.top
        assert isinstance(back, TrackTableScene)
        assert back.session.remote is False and back.session.local_seats == [0]
        assert back.session.table.seed == seed and int(back.public["turns"]) == turns
        assert back.show_pause() and back.i_must_ready()  # "Ready up" for the person
        key(again, pygame.K_RETURN)  # Enter on the pause overlay is Ready
        assert not back.paused()
        play_turns(again, back, 1)  # and it plays on
    finally:
        close_app(again)


def test_hot_seat_leave_table_asks_and_the_reopen_list_resumes_it_here(app: App) -> None:
    title = app.top
    assert isinstance(title, screens.TitleScene) and not title.continue_button.visible
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    click(app, nt.start_button.rect.center)
    lobby = app.top
    assert isinstance(lobby, LobbyScene)
    click(app, lobby.seat_rects[2].center)  # a second person on this screen
    key(app, pygame.K_RETURN)  # their name box: keep "Player 2"
    key(app, pygame.K_s)
    table = app.top
    assert isinstance(table, TrackTableScene)
    saved = table.session.save_path
    assert saved is not None and is_local_save(saved) and saved.exists()
    for _ in range(3000):  # a few plays go by (the CPUs', the people's)
        if table.session.table.state_no >= 4:
            break
        if table.public.get("cover"):
            table.session.tap_in(int(table.public["screen_owner"]))
        if table.my_turn() and table.legal_plays():
            table._move_chosen(0)
        app.frame(0.1)
    n = table.session.table.state_no
    assert n >= 4
    click(app, table.pause_button.rect.center)
    assert table.leave_button.visible
    click(app, table.leave_button.rect.center)  # Leave table asks first
    dialog = app.top
    assert isinstance(dialog, ConfirmOverlay) and dialog.question == "Leave the game?"
    click(app, dialog.yes_button.rect.center)
    title = app.top
    assert isinstance(title, screens.TitleScene)
    assert title.continue_button.visible  # Continue on the title...
    infos = list_saves(app.store.folder)
    assert [i.path for i in infos] == [saved] and infos[0].people == ("Player", "Player 2")
    # ... and in the Reopen list, marked as played here
    key(app, pygame.K_DOWN)  # Continue -> Play
    key(app, pygame.K_RETURN)
    nt = app.top
    assert isinstance(nt, screens.NewTableScene) and nt.reopen_button.visible
    click(app, nt.reopen_button.rect.center)
    reopen = app.top
    assert isinstance(reopen, screens.ReopenScene)
    assert reopen.table.rows[0][1].endswith("(here)")
    key(app, pygame.K_RETURN)
    back = app.top
    assert isinstance(back, TrackTableScene), reopen.error
    assert back.session.local_seats == [0, 2] and back.session.table.state_no == n
    assert [s["name"] for s in back.public["seats"]][0:3:2] == ["Player", "Player 2"]


def test_a_local_table_left_in_its_lobby_leaves_no_save(app: App) -> None:
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    click(app, nt.start_button.rect.center)
    lobby = app.top
    assert isinstance(lobby, LobbyScene) and lobby.session.save_path is not None
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, screens.NewTableScene)
    assert list(Path(app.store.folder, "saves").glob("*.jsonl")) == []


def test_esc_on_the_title_asks_before_quitting(app: App) -> None:
    key(app, pygame.K_ESCAPE)
    dialog = app.top
    assert app.running and isinstance(dialog, ConfirmOverlay)
    key(app, pygame.K_ESCAPE)  # Esc goes back: still here
    assert app.running and isinstance(app.top, screens.TitleScene)
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_RETURN)  # Enter: the main action, Quit
    assert not app.running


def test_closing_the_window_with_no_game_in_progress_quits_at_once(app: App) -> None:
    quit_event(app)
    assert not app.running
