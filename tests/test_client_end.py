"""An end-of-game screen worth reading (issue 19 point 6): standings with pegs home per seat,
turns, points gained per person ("+1 point", singular), Rematch (same seats, new deal) and
Back, by keyboard; driven through the real loop."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.client.dialog import ConfirmOverlay
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from tests.client_app import close_app, table_app
from tests.client_testing import FixedStart, click, frames, key

# classic head to head: Red has four pegs home and one on its come-out hole; the 4 (third
# card) takes it +4 into the last home hole, which wins (hand: 2C 3C 4C 5C 6C)
LAST_PLAY = ("classic 2 h2h jokers=on seven=on a:h2,h3,h4,h5,0 b:s,s,s,s,s turn=a "
             "hand=2C,3C,4C,5C,6C cards=5,5 pile=142 discards=10")


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def finished_table(app: App) -> TrackTableScene:
    session = LocalSession("track", {"rules": "classic", "mode": "h2h", "seats": 2},
                           speed="blitz", cpu=SyncCpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, LAST_PLAY))
    assert session.sit(0, "Ada").ok and session.set_cpu(1, "easy").ok
    assert session.start().ok
    table = app.open_table(session)
    assert isinstance(table, TrackTableScene)
    frames(app, 2)
    assert table.my_turn()
    key(app, pygame.K_TAB)  # the moves list
    assert table.form.focused is table.moves
    win = [str(p) for p in table.legal].index("4:a0+4h")
    for _ in range(win):
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    for _ in range(300):
        if table.done_button.visible:
            break
        app.frame(0.1)
    assert table.public["phase"] == "over" and table.done_button.visible
    return table


def test_the_end_screen_shows_standings_turns_and_points(app: App) -> None:
    table = finished_table(app)
    rows = table.standings()
    # Ada won with all five pegs home; the Easy CPU (worth 1) was beaten: +1 point, singular
    assert rows[0] == (0, "Ada (won)", "5 of 5 pegs home", "+1 point")
    assert rows[1] == (1, "Blue CPU", "0 of 5 pegs home", "")
    assert table.rematch_button.visible and table.form.focused is table.rematch_button
    assert table.public["turns"] == 1


def test_rematch_by_enter_deals_anew_with_the_same_seats(app: App) -> None:
    table = finished_table(app)
    old = table.session
    key(app, pygame.K_RETURN)  # Enter: Rematch, the focused main action
    new = app.top
    assert isinstance(new, TrackTableScene) and new is not table
    s = new.session
    assert s is not old and s.phase == "playing" and s.local_seats == [0]
    assert [(x["kind"], x["name"], x["level"]) for x in s.seats] == \
        [("person", "Ada", None), ("cpu", "Easy CPU", "easy")]
    assert s.config == old.config
    assert s.save_path is not None and s.save_path.exists()  # saved like every local table
    assert [sc.name for sc in app.scenes] == ["title", "track_table"]  # none finished below
    assert not isinstance(app.top, ConfirmOverlay)


def test_back_and_esc_leave_a_finished_game_without_asking(app: App) -> None:
    finished_table(app)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, screens.TitleScene)


def test_back_by_mouse(app: App) -> None:
    table = finished_table(app)
    click(app, table.done_button.rect.center)
    assert isinstance(app.top, screens.TitleScene)
