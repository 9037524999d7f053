"""The screen follows the animation (issue 19 point 2): whose turn, the hand, the moves list
and input belong to the state the animation has reached, not the newest message; an early
Enter never plays; F hurries this screen's animations without touching the table's pace."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.client.app import App
from game.client.layout_scene import LayoutTableScene
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from tests.client_app import close_app, open_fixed_table, table_app
from tests.client_testing import frames, key

# classic, 4 seats: Green (a CPU, seat 3) moves first with 2C..7C, then Red (the person)
GREEN_FIRST = (
    "classic 4 teams2 jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,s c:s,s,s,s,s "
    "d:s,s,s,s,30 turn=d hand=2C,3C,4C,5C,6C,7C cards=5,5,5,6 pile=141 discards=0"
)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path)
    yield a
    close_app(a)


def _green_has_played(app: App, table: TrackTableScene) -> int:
    """Frames until Green's play reaches the scene; returns the table's state number."""
    start = table.session.table.state_no
    for _ in range(400):
        if table.session.table.state_no > start:
            return table.session.table.state_no
        app.frame(1 / 60)
    raise AssertionError("Green never played")


def test_turn_hand_and_input_wait_for_the_animation(app: App) -> None:
    table = open_fixed_table(app, GREEN_FIRST)
    n = _green_has_played(app, table)
    # the newest message says it is Red's turn; the screen still shows Green's play
    assert table.session.public["to_move"] == 0
    assert not table.caught_up()
    assert table.view()["turn"] == 3
    assert not table.my_turn() and table.legal_plays() == [] and table.moves.rows == []
    # an early card key, Tab to the moves list and Enter: nothing is played
    key(app, pygame.K_1)
    key(app, pygame.K_TAB)
    key(app, pygame.K_RETURN)
    assert table.choice.card is None
    assert table.session.table.state_no == n, "an early Enter played a card"
    assert table.view()["turn"] == 3 or table.caught_up()
    for _ in range(400):
        if table.my_turn():
            break
        app.frame(1 / 60)
    assert table.caught_up() and table.view()["turn"] == 0 and table.moves.rows
    # now the same keys play
    if table.form.focused is not table.moves:
        key(app, pygame.K_TAB)
    key(app, pygame.K_RETURN)
    assert table.session.table.state_no == n + 1


def _frames_to_catch_up(app: App, hurry: bool) -> int:
    table = open_fixed_table(app, GREEN_FIRST)
    _green_has_played(app, table)
    speed, scale = table.public["speed"], table.clock.scale
    if hurry:
        key(app, pygame.K_f)
    n = 0
    while not table.caught_up() and n < 1000:
        app.frame(1 / 60)
        n += 1
    assert table.my_turn()
    # the table's own pace is untouched
    assert table.public["speed"] == speed == "blitz" and table.clock.scale == scale
    app.back_to("title")
    table.session.close()
    return n


def test_f_hurries_this_screen_only(app: App) -> None:
    plain = _frames_to_catch_up(app, hurry=False)
    fast = _frames_to_catch_up(app, hurry=True)
    assert plain >= 6, plain  # the move animates for a while at blitz
    assert fast * 3 <= plain, (fast, plain)


def test_a_click_on_the_board_hurries(app: App) -> None:
    table = open_fixed_table(app, GREEN_FIRST)
    _green_has_played(app, table)
    assert not table.timeline.idle
    from tests.client_testing import click

    click(app, table.board_rect.center)
    assert table.hurrying or table.timeline.idle
    frames(app, 6)
    assert table.caught_up() and table.my_turn()


def test_trash_input_waits_for_the_animation(app: App) -> None:
    s = LocalSession("layout", {"seats": 3}, speed="blitz", seed=2, cpu=SyncCpu(),
                     clock=app.table_clock)
    assert s.sit(0, "Ada").ok and s.start().ok
    table = app.open_table(s)
    assert isinstance(table, LayoutTableScene)
    frames(app)
    for _ in range(3000):
        if s.public["to_move"] == 0 and not table.caught_up():
            break  # the newest message gives me the turn while the screen still animates
        if table.my_turn():
            key(app, pygame.K_s)
        app.frame(1 / 60)
    else:
        raise AssertionError("never saw the turn arrive during an animation")
    n = s.table.state_no
    assert not table.my_turn() and table.legal_plays() == []
    key(app, pygame.K_s)
    assert s.table.state_no == n, "S played from a state the screen had not shown"
    for _ in range(600):
        if table.my_turn():
            break
        app.frame(1 / 60)
    assert table.my_turn() and table.legal_plays()
