"""Targets a finger or a mouse can hit (issue 19 point 7): +N tags that never overlap, never
sit under the focus ring and stay on screen; an enlarged view around the chosen peg at 6-8
seats whose clicks land on what it shows; the hand and its key numbers whole at 800x600."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.client.app import App
from game.client.board import place_tags, ring
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from tests.client_app import SPLIT_POSITION, close_app
from tests.client_testing import FixedStart, click, frames, key, make_app

# classic, 8 seats each for themselves: Red (the person) to move with 2C..7C, pegs on 12, 20
EIGHT = ("classic 8 ffa jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,s c:s,s,s,s,s d:s,s,s,s,s "
         "e:s,s,s,s,s f:s,s,s,s,s g:s,s,s,s,s h:s,s,s,s,s turn=a hand=2C,3C,4C,5C,6C,7C "
         "cards=6,5,5,5,5,5,5,5 pile=175 discards=0")


def _circle_hits(r: pygame.Rect, centre: tuple[float, float], radius: float) -> bool:
    nx = min(max(centre[0], r.left), r.right)
    ny = min(max(centre[1], r.top), r.bottom)
    return (nx - centre[0]) ** 2 + (ny - centre[1]) ** 2 < radius * radius


def test_tags_of_neighbouring_holes_never_overlap_or_cover_the_ring() -> None:
    # seven holes 11 px apart in a row (an 8-seat board at 800x600), tags 16x11 px: placed
    # above each hole they would overlap; the focus ring sits on the third hole
    pts = [(100.0 + 11 * k, 300.0) for k in range(7)]
    ring_c, ring_r = pts[2], 13.0
    avoid = [(ring_c, ring_r), *((p, 6.0) for p in pts)]
    boxes = place_tags(pts, [(16, 11)] * 7, pygame.Rect(0, 0, 400, 400), avoid, (150, 150),
                       11.0)
    assert len(boxes) == 7
    for i, a in enumerate(boxes):
        assert pygame.Rect(0, 0, 400, 400).contains(a)
        assert not _circle_hits(a, ring_c, ring_r), a
        for b in boxes[i + 1:]:
            assert not a.colliderect(b), (a, b)
        # each tag stays near its hole (within four spacings)
        assert math.dist(a.center, pts[i]) < 4 * 11 + 16


def test_tags_stay_inside_the_window() -> None:
    # a hole at the window's left edge: its tag goes where it can be read
    boxes = place_tags([(3.0, 200.0)], [(20, 12)], pygame.Rect(0, 0, 300, 300), [],
                       (150, 150), 10.0)
    assert pygame.Rect(0, 0, 300, 300).contains(boxes[0])


@pytest.fixture
def small(tmp_path: Path) -> Iterator[App]:
    a = make_app(tmp_path, (800, 600))
    a.make_cpu = SyncCpu  # type: ignore[method-assign]
    a.virtual_time = 0.0
    frames(a)
    yield a
    close_app(a)


def _open(app: App, position: str, seats: int, mode: str) -> TrackTableScene:
    s = LocalSession("track", {"rules": "classic", "seats": seats, "mode": mode},
                     speed="blitz", cpu=SyncCpu(), clock=app.table_clock,
                     rules=FixedStart(TRACK, position))
    assert s.sit(0, "Ada").ok and s.start().ok
    table = app.open_table(s)
    assert isinstance(table, TrackTableScene)
    frames(app, 2)
    assert table.my_turn()
    return table


def test_the_lens_at_eight_seats_takes_a_click_on_what_it_shows(small: App) -> None:
    table = _open(small, EIGHT, 8, "ffa")
    g = table.geom
    assert g is not None
    assert table.lens() is None  # nothing chosen: no lens
    key(small, pygame.K_5)  # the 6
    key(small, pygame.K_RIGHT)
    assert table.lens() is None  # a card but no peg yet
    click(small, g.point(ring(12)))  # the peg on 12 (its hole is small: 8 seats at 800x600)
    assert table.choice.peg == (0, 12)
    got = table.lens()
    assert got is not None
    (cx, cy), radius, (fx, fy), zoom = got
    assert zoom >= 2.0 and radius * 2 >= 4 * g.u * 2  # the holes are at least twice as big
    # a click in the lens where it shows the +6 hole (18) plays the 6 to it
    tx, ty = g.point(ring(18))
    at = (round(cx + (tx - fx) * zoom), round(cy + (ty - fy) * zoom))
    assert (at[0] - cx) ** 2 + (at[1] - cy) ** 2 < radius ** 2
    assert table.from_lens(at) is not None
    n = table.session.table.state_no
    click(small, at)
    assert table.session.table.log[-1] == (0, "6:a12+6")
    assert table.session.table.state_no == n + 1


def test_no_lens_at_four_seats(small: App) -> None:
    table = _open(small, SPLIT_POSITION, 4, "teams")
    g = table.geom
    assert g is not None
    key(small, pygame.K_5)
    click(small, g.point(ring(12)))
    assert table.choice.peg == (0, 12) and table.lens() is None


@pytest.mark.parametrize("position,seats,mode", [(SPLIT_POSITION, 4, "teams"),
                                                 (EIGHT, 8, "ffa")])
def test_nothing_clipped_at_800x600(small: App, position: str, seats: int, mode: str) -> None:
    table = _open(small, position, seats, mode)
    screen = pygame.Rect(0, 0, 800, 600)
    num_h = table.stage.assets.text("6", table.px(18), (255, 255, 255)).get_height()
    for r in table.card_rects:
        # the card, its focus ring (3 px out) and its key number below it
        assert screen.contains(r.inflate(6, 6)), r
        assert r.bottom + 1 + num_h <= 600, (r, num_h)
    assert table.moves.rect.bottom <= table.card_rects[0].y - table.px(14)  # a lifted card
    assert table.log_rect.bottom <= table.moves.rect.y
    # pick the 7 and its peg: every tag on screen, none overlapping another
    g = table.geom
    assert g is not None
    key(small, pygame.K_6)
    click(small, g.point(ring(12)))
    frames(small)
    tags = table.renderer.tag_rects
    assert len(tags) == 7
    for i, a in enumerate(tags):
        assert screen.contains(a)
        assert all(not a.colliderect(b) for b in tags[i + 1:])
