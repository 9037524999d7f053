"""Every refusal says why (issue 19 point 9), in a player's words, from the rules' own reasons:
a picked card that cannot move names what stands in the way; D says why there is no discard.
The expected words are worked out by hand from the positions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.client.app import App
from game.client.describe import why_card_cannot, why_no_discard
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from tests.client_app import close_app, open_fixed_table, table_app
from tests.client_testing import FixedStart, frames, key, resize

# tees, 4 seats: Red (me) on 12, my partner Yellow on 14; I hold 2, 3, 4, 6, King
TEES = ("tees 4 teams2 jokers=off seven=on a:s,s,s,s,12 b:s,s,s,s,s c:s,s,s,s,14 d:s,s,s,s,s "
        "turn=a hand=2D,3C,4S,6D,KC cards=5,5,5,5 pile=32 discards=0 dealer=d round=1")


def _view(position: str) -> dict:
    return TRACK.view(TRACK.parse_position(position), 0)


def test_a_card_blocked_by_a_partner_says_so() -> None:
    v = _view(TEES)
    legal = TRACK.legal_tokens(TRACK.parse_position(TEES))
    assert "4:a12+4" not in legal and "6:a12+6" not in legal  # tees: no passing a partner
    # 12 +4 passes Yellow on 14
    assert why_card_cannot(4, v) == ("That 4 cannot move a peg now: your peg is blocked by "
                                     "your partner's peg (Yellow).")
    # 12 +2 lands on Yellow: tees allows that only as the last resort (3 back and the King
    # are open)
    assert why_card_cannot(2, v) == (
        "That 2 cannot move a peg now: your peg would land on your partner's peg, which is "
        "allowed only when no other play is left.")


def test_discarding_says_why_not() -> None:
    v = _view(TEES)
    assert why_no_discard(v, TRACK.legal_plays(TRACK.parse_position(TEES))) == \
        "Tees has no discards: a seat whose cards cannot move folds by itself."
    classic = ("classic 4 teams2 jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,s c:s,s,s,s,s "
               "d:s,s,s,s,s turn=a hand=2C,3C,4C,5C,6C,7C cards=6,5,5,5 pile=141 discards=0")
    s = TRACK.parse_position(classic)
    assert why_no_discard(TRACK.view(s, 0), TRACK.legal_plays(s)) == \
        "No discarding now: you can move a peg (with a 2, a 3, a 4)."


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path)
    yield a
    close_app(a)


def tees_table(app: App) -> TrackTableScene:
    """The table in the TEES position, Ada (Red) to play."""
    s = LocalSession("track", {"rules": "tees", "seats": 4}, speed="blitz", cpu=SyncCpu(),
                     clock=app.table_clock, rules=FixedStart(TRACK, TEES))
    assert s.sit(0, "Ada").ok and s.start().ok
    table = app.open_table(s)
    assert isinstance(table, TrackTableScene)
    frames(app, 2)
    return table


def test_the_table_says_why_a_picked_card_cannot_move(app: App) -> None:
    table = tees_table(app)
    assert table.my_turn()
    hand = table.view()["hand"]
    i = next(k for k, c in enumerate(hand) if c >> 2 == 4)
    three = next(k for k, c in enumerate(hand) if c >> 2 == 3)
    key(app, pygame.K_1 + three)
    assert table.choice.card == three and table.message is None
    key(app, pygame.K_1 + i)
    assert table.message == ("That 4 cannot move a peg now: your peg is blocked by your "
                             "partner's peg (Yellow).")
    assert table.choice.card == three, "the refused 4 is not picked; the 3 stays picked"
    key(app, pygame.K_d)
    assert table.message == "Tees has no discards: a seat whose cards cannot move folds by " \
        "itself."


def test_d_without_a_legal_discard_says_why(app: App) -> None:
    table = open_fixed_table(app)
    frames(app)
    n = table.session.table.state_no
    key(app, pygame.K_d)
    assert table.message == "No discarding now: you can move a peg (with a 2, a 3, a 4)."
    key(app, pygame.K_1)
    key(app, pygame.K_d)
    assert table.message == "No discarding now: you can move a peg (with a 2, a 3, a 4)."
    assert table.session.table.state_no == n  # nothing was played


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_a_refusal_is_readable_at_any_window(app: App, size: tuple[int, int]) -> None:
    """At 800x600 the refusal's one line was shrunk to fit the side panel: 8-pixel text. It
    wraps now, onto a second line the panel keeps room for, at 13 pixels or more, above the
    seat plates."""
    resize(app, *size)
    table = tees_table(app)
    four = next(k for k, c in enumerate(table.view()["hand"]) if c >> 2 == 4)
    key(app, pygame.K_1 + four)
    words = table.message
    assert words is not None and words.startswith("That 4 cannot move")
    drawn: list[tuple[str, int, pygame.Rect]] = []
    real = app.assets.fit_text

    def spy(text: str, px: int, *args: Any, **kw: Any) -> pygame.Surface:
        out = real(text, px, *args, **kw)
        drawn.append((text, out.get_height(), out.get_rect()))
        return out

    app.assets.fit_text = spy  # type: ignore[method-assign]
    try:
        app.draw()
    finally:
        del app.assets.fit_text
    lines = [(t, hgt) for t, hgt, _ in drawn if t and t in words]
    assert " ".join(t for t, _ in lines) == words, lines  # every word, in order
    small = app.assets.text("x", 13, (255, 255, 255)).get_height()
    assert all(hgt >= small for _, hgt in lines), (lines, small)
    # the lines end above the first seat plate
    bottom = table.pause_button.rect.bottom + table.px(63) + len(lines) * table.status_line_h()
    assert bottom <= table.plate_rects[0].y + table.px(4)
