"""The hot-seat cover: one gesture can never both finish one person's turn and uncover the
next person's hand (issue 19 point 1). Real pygame events, posted and run through the loop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.client.app import App
from game.client.choice import part
from game.client.session import LocalSession
from game.client.table_scene import COVER_ARM_SECONDS, TrackTableScene, hole_of
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from tests.client_app import SPLIT_POSITION, close_app, table_app
from tests.client_testing import FixedStart, frames


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path)
    yield a
    close_app(a)


def post(ev_type: int, **kw: object) -> None:
    pygame.event.post(pygame.event.Event(ev_type, **kw))


def board_play(table: TrackTableScene) -> Any:
    """A one-part play that moves a peg on the board (no discard), or None."""
    return next((p for p in table.legal_plays() if len(p.parts) == 1 and p.parts[0][0] != "x"),
                None)


def alice_to_move(app: App) -> TrackTableScene:
    """Classic, 4 seats, Alice (seat 0) and Bob (seat 1) on this screen, Alice to move in a
    hand-written position (2C..7C, pegs on 12 and 20); returns the table once her hand is
    shown (tapped in by a real click on the cover)."""
    session = LocalSession("track", {"rules": "classic", "seats": 4}, speed="blitz",
                           cpu=SyncCpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, SPLIT_POSITION))
    assert session.sit(0, "Alice").ok and session.sit(1, "Bob").ok and session.start().ok
    table = app.open_table(session)
    assert isinstance(table, TrackTableScene)
    frames(app)
    assert table.public["cover"] and table.public["screen_owner"] == 0
    app.frame(COVER_ARM_SECONDS)  # the cover takes a tap-in once it is armed
    c = table.hand_rect.center
    post(pygame.MOUSEBUTTONDOWN, pos=c, button=1)
    post(pygame.MOUSEBUTTONUP, pos=c, button=1)
    frames(app)
    assert not table.public["cover"]
    assert table.my_turn() and table.session.screen_seat() == 0 and board_play(table)
    return table


def bob_covered(table: TrackTableScene) -> None:
    assert table.public["screen_owner"] == 1, "Bob is next"
    assert table.public["cover"], "Bob's hand was uncovered by Alice's gesture"
    assert not table.my_turn()


def row_point(table: TrackTableScene, i: int = 0) -> tuple[int, int]:
    r = table.moves.rect
    return (r.x + r.w // 2, r.y + i * table.moves.row_h + table.moves.row_h // 2)


def test_a_click_on_the_moves_list_does_not_uncover_the_next_hand(app: App) -> None:
    table = alice_to_move(app)
    n = table.session.table.state_no
    p = row_point(table)
    post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=p, button=1)
    post(pygame.MOUSEBUTTONUP, pos=p, button=1)
    frames(app)
    assert table.session.table.state_no == n + 1, "Alice's play went in"
    bob_covered(table)


def test_a_double_click_on_the_moves_list_does_not_uncover_the_next_hand(app: App) -> None:
    table = alice_to_move(app)
    p = row_point(table)
    for _ in range(2):
        post(pygame.MOUSEBUTTONDOWN, pos=p, button=1)
        post(pygame.MOUSEBUTTONUP, pos=p, button=1)
    frames(app)
    bob_covered(table)


def test_a_click_on_a_hole_then_a_second_click_does_not_uncover(app: App) -> None:
    table = alice_to_move(app)
    # Alice plays on the board: card, peg, hole; then clicks the same hole again (double)
    whole = board_play(table)
    hand = table.view()["hand"]
    table.pick_card(next(i for i, c in enumerate(hand) if c >> 2 == whole.rank))
    p0 = part(whole, 0)
    assert table.choice.choose_peg(p0.peg)
    g = table.geom
    assert g is not None
    x, y = g.point(hole_of(*p0.target))
    p = (round(x), round(y))
    n = table.session.table.state_no
    for _ in range(2):
        post(pygame.MOUSEBUTTONDOWN, pos=p, button=1)
        post(pygame.MOUSEBUTTONUP, pos=p, button=1)
    frames(app)
    assert table.session.table.state_no == n + 1
    bob_covered(table)


def test_enter_held_on_the_moves_list_does_not_uncover(app: App) -> None:
    table = alice_to_move(app)
    table.form.focus(table.moves)
    n = table.session.table.state_no
    # Enter pressed, then key repeat (more KEYDOWNs with no KEYUP), then released
    for _ in range(4):
        post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    post(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    frames(app)
    assert table.session.table.state_no == n + 1
    bob_covered(table)


def test_space_on_the_board_cursor_then_release_does_not_uncover(app: App) -> None:
    table = alice_to_move(app)
    n = table.session.table.state_no
    # by keys alone: Tab to the list, Space plays, Space held repeats, then Space again up
    table.form.focus(table.moves)
    post(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)
    post(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)
    post(pygame.KEYUP, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)
    frames(app)
    assert table.session.table.state_no == n + 1
    bob_covered(table)


def test_bob_taps_in_with_a_full_click_on_the_cover_or_a_fresh_key(app: App) -> None:
    table = alice_to_move(app)
    table.submit(table.legal_plays()[0])
    frames(app)
    bob_covered(table)
    c = table.hand_rect.center
    # a whole click on the cover straight after it came (a double-click's second half)
    post(pygame.MOUSEBUTTONDOWN, pos=c, button=1)
    post(pygame.MOUSEBUTTONUP, pos=c, button=1)
    frames(app)
    bob_covered(table)
    app.frame(COVER_ARM_SECONDS)  # armed from here on
    # a press that starts off the cover and ends on it is not a tap-in
    post(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1)
    post(pygame.MOUSEBUTTONUP, pos=c, button=1)
    frames(app)
    bob_covered(table)
    # a press on the cover released elsewhere is not one either
    post(pygame.MOUSEBUTTONDOWN, pos=c, button=1)
    post(pygame.MOUSEBUTTONUP, pos=(5, 5), button=1)
    frames(app)
    bob_covered(table)
    # a lone key release (its press belonged to the turn before) does nothing
    post(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    frames(app)
    bob_covered(table)
    # a fresh Enter (down and up) taps in
    post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    post(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    frames(app)
    assert not table.public["cover"] and table.session.screen_seat() == 1


def test_a_key_held_from_alices_turn_does_not_tap_in_when_it_repeats(app: App) -> None:
    table = alice_to_move(app)
    post(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)  # held down
    frames(app)
    table.submit(table.legal_plays()[0])
    frames(app)
    app.frame(COVER_ARM_SECONDS)
    bob_covered(table)
    for _ in range(3):  # the key repeat, long after the cover is armed
        post(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)
    post(pygame.KEYUP, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)
    frames(app)
    bob_covered(table)
    # then a whole click on the cover taps in
    c = table.hand_rect.center
    post(pygame.MOUSEBUTTONDOWN, pos=c, button=1)
    post(pygame.MOUSEBUTTONUP, pos=c, button=1)
    frames(app)
    assert not table.public["cover"] and table.session.screen_seat() == 1


def test_enter_held_while_the_table_opens_does_not_tap_in(app: App,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Enter on the button that opened a hot-seat table, still held: its repeats reach the
    table as KEYDOWNs it never saw begin; they are no fresh press."""
    held = {pygame.K_RETURN}

    class Pressed:
        def __getitem__(self, k: int) -> bool:
            return k in held

    monkeypatch.setattr(pygame.key, "get_pressed", lambda: Pressed())
    session = LocalSession("track", {"rules": "classic", "seats": 4}, speed="blitz",
                           cpu=SyncCpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, SPLIT_POSITION))
    assert session.sit(0, "Alice").ok and session.sit(1, "Bob").ok and session.start().ok
    table = app.open_table(session)
    assert isinstance(table, TrackTableScene)
    app.frame(COVER_ARM_SECONDS)
    for _ in range(3):  # the repeats, after the cover is armed
        post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    post(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    held.clear()
    frames(app)
    assert table.public["cover"], "a held key's repeats tapped in"
    post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    post(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    frames(app)
    assert not table.public["cover"], "a fresh Enter taps in"
