"""Board geometry on screen, hit-testing, the hole-by-hole walk and the renderer."""

from __future__ import annotations

import math

import pygame
import pytest

from game.client.assets import Assets
from game.client.board import (
    BoardGeometry,
    BoardLook,
    BoardRenderer,
    Highlight,
    PegDraw,
    home,
    home_pegs_layout,
    ring,
    start,
)


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1280, 720))
    yield


SIZES = [(1280, 720), (800, 600)]


def board_rect(w: int, h: int) -> pygame.Rect:
    side = min(w, h) - 20
    return pygame.Rect(10, 10, side, side)


@pytest.mark.parametrize("seats", range(1, 9))
@pytest.mark.parametrize("size", SIZES)
def test_holes_are_distinct_spaced_and_inside(seats: int, size: tuple[int, int]) -> None:
    g = BoardGeometry(seats, board_rect(*size))
    holes = g.all_holes()
    assert len(holes) == 18 * g.S + 10 * seats
    pts = [g.point(h) for h in holes]
    window = pygame.Rect(0, 0, *size)
    r = g.hole_r
    for (x, y) in pts:
        assert g.rect.inflate(2, 2).collidepoint(x, y)
        assert window.collidepoint(x - r, y - r) and window.collidepoint(x + r, y + r)
    # no two holes closer than 90% of one spacing: they never overlap
    min_d = min(math.dist(pts[i], pts[j]) for i in range(len(pts))
                for j in range(i + 1, len(pts)))
    assert min_d >= 0.9 * g.u
    assert 2 * g.hole_r < g.u and 2 * g.peg_r <= 1.05 * g.u


@pytest.mark.parametrize("seats", range(1, 9))
def test_ring_is_evenly_spaced_and_runs_clockwise(seats: int) -> None:
    g = BoardGeometry(seats, board_rect(1280, 720))
    n = 18 * g.S
    pts = [g.point(ring(i)) for i in range(n)]
    for i in range(n):
        assert math.dist(pts[i], pts[(i + 1) % n]) == pytest.approx(g.u, rel=1e-6)
    # shoelace sum in screen coordinates (y down) is positive for a clockwise loop
    area = sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1]
               for i in range(n))
    assert area > 0
    # (side, index) and the ring index agree
    for s in range(g.S):
        for k in (0, 3, 8, 17):
            assert g.side_point(s, k) == pytest.approx(g.point(ring(18 * s + k)))


def test_own_side_is_at_the_bottom_and_forward_runs_left_there() -> None:
    g = BoardGeometry(4, board_rect(1280, 720), bottom_side=0)
    ys = [g.point(ring(i))[1] for i in range(1, 18)]
    assert min(ys) == pytest.approx(max(ys))  # side 0 is horizontal...
    assert ys[0] > g.center[1]  # ...below the centre
    assert g.point(ring(9))[0] < g.point(ring(8))[0]  # clockwise along the bottom: leftward
    g2 = BoardGeometry(6, board_rect(1280, 720), bottom_side=4)
    assert g2.point(ring(18 * 4 + 9))[1] > g2.center[1] + 0.8 * g2.radius


@pytest.mark.parametrize("seats", [1, 2, 3, 4, 6, 8])
def test_start_and_home_sit_inward_by_their_seat(seats: int) -> None:
    g = BoardGeometry(seats, board_rect(1280, 720))
    c = g.center
    for seat in range(seats):
        in_spot = g.point(ring(g.board.in_spot(seat)))
        come_out = g.point(ring(g.board.come_out(seat)))
        homes = [g.point(home(seat, j)) for j in range(1, 6)]
        # home 1 is one spacing from the in-spot, each deeper hole one more, towards the centre
        for j, p in enumerate(homes, start=1):
            assert math.dist(p, in_spot) == pytest.approx(j * g.u, rel=1e-6)
            assert math.dist(p, c) < math.dist(in_spot, c)
        # every start hole is nearer this seat's come-out hole than any other seat's
        for i in range(5):
            p = g.point(start(seat, i))
            d_own = math.dist(p, come_out)
            assert d_own < 3.1 * g.u
            for other in range(seats):
                if other != seat:
                    assert d_own < math.dist(p, g.point(ring(g.board.come_out(other))))


def test_walk_goes_hole_by_hole() -> None:
    g = BoardGeometry(4, board_rect(1280, 720))
    # seat 0: in-spot 3, come-out 8, ring of 72
    assert g.walk(0, ring(8), ring(13)) == [ring(i) for i in (9, 10, 11, 12, 13)]
    assert g.walk(0, ring(70), home(0, 2)) == [ring(71), ring(0), ring(1), ring(2), ring(3),
                                                home(0, 1), home(0, 2)]
    assert g.walk(0, home(0, 1), home(0, 4)) == [home(0, 2), home(0, 3), home(0, 4)]
    assert g.walk(0, ring(8), ring(0), backward=True) == [ring(i) for i in range(7, -1, -1)]
    # tees: a 3 pulls home 1 back onto the track two holes before the in-spot
    assert g.walk(0, home(0, 1), ring(1), backward=True) == [ring(3), ring(2), ring(1)]
    assert g.walk(0, home(0, 4), home(0, 1), backward=True) == [home(0, 3), home(0, 2),
                                                                home(0, 1)]
    assert g.walk(1, start(1, 2), ring(26)) == [ring(26)]
    assert g.walk(2, ring(5), start(2, 0)) == [start(2, 0)]


@pytest.mark.parametrize("seats", [4, 8])
def test_hit_test_finds_every_hole_and_nothing_far_away(seats: int) -> None:
    g = BoardGeometry(seats, board_rect(800, 600))
    for h in g.all_holes():
        x, y = g.point(h)
        assert g.hit_test((x, y)) == h
        assert g.hit_test((x + g.hole_r * 0.9, y)) == h
    assert g.hit_test(g.center) is None
    assert g.hit_test((1, 1)) is None
    # limited to a set of holes
    x, y = g.point(ring(5))
    assert g.hit_test((x, y), holes=[ring(6), ring(7)]) is None


def _colour_near(surf: pygame.Surface, p: tuple[float, float], below: float = 0
                 ) -> tuple[int, int, int]:
    """Mean colour of a few pixels ``below`` px under ``p`` (off the white team symbol)."""
    x, y = round(p[0]), round(p[1] + below)
    pix = [surf.get_at((x + dx, y + dy)) for dx in (-2, 0, 2) for dy in (-1, 1)]
    return (sum(c.r for c in pix) // 6, sum(c.g for c in pix) // 6, sum(c.b for c in pix) // 6)


def test_renderer_draws_pegs_at_their_holes_and_overrides() -> None:
    surf = pygame.Surface((800, 600))
    g = BoardGeometry(4, board_rect(800, 600))
    look = BoardLook([0, 1, 2, 3], ["circle", "square", "circle", "square"])
    pegs = home_pegs_layout(4)
    pegs[1] = PegDraw(0, 1, ring(20))  # a red peg on the track
    r = BoardRenderer(Assets())
    r.draw(surf, g, look, pegs, highlights=[Highlight(ring(23), "+3")])
    red = _colour_near(surf, g.point(ring(20)), 0.7 * g.peg_r)
    assert red[0] > 150 and red[0] > red[1] + 60 and red[0] > red[2] + 60
    empty = _colour_near(surf, g.point(ring(30)))
    assert max(empty) < 90  # a dark, empty hole
    # the timeline moves the peg: drawn at the override, its hole is empty again
    where = g.point(ring(30))
    r.draw(surf, g, look, pegs, overrides={(0, 1): where})
    moved = _colour_near(surf, where, 0.7 * g.peg_r)
    assert moved[0] > 150 and moved[0] > moved[1] + 60
    assert _colour_near(surf, g.point(ring(20)), 0.7 * g.peg_r)[0] < 100  # no red there now
    # the static layer is cached for the same geometry and look
    s1 = r.static(g, look)
    assert r.static(g, look) is s1
    assert r.static(BoardGeometry(4, board_rect(1280, 720)), look) is not s1
