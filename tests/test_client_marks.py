"""Never colour alone (issue 19 point 11): each of the eight seat colours has its own mark on
its pegs, plates and home, told apart by shape alone (no hue) down to the smallest peg; a
high-contrast palette when Settings has a ``high_contrast`` switch."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from game.client.assets import Assets
from game.client.board import (
    HIGH_CONTRAST,
    IN_SPOT_OFFSET,
    MARKS,
    BoardGeometry,
    BoardLook,
    BoardRenderer,
    PegDraw,
    draw_peg,
    mark_ink,
    ring,
    seat_rgb,
)
from game.rules.track.board import HOME_SIZE
from tests.client_app import close_app, open_fixed_table, table_app

Mask = tuple[tuple[int, ...], ...]


@pytest.fixture(autouse=True)
def display() -> Any:
    pygame.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1280, 720))
    yield


def _ink_mask(surf: pygame.Surface, ink: tuple[int, int, int]) -> Mask:
    """Where the surface is the mark's ink (colour-blind: only the shape is kept)."""
    w, h = surf.get_size()
    return tuple(tuple(int(sum(abs(a - b) for a, b in zip(surf.get_at((x, y))[:3], ink,
                                                                strict=True)) < 60)
                       for x in range(w)) for y in range(h))


@pytest.mark.parametrize("d", [6, 8, 11, 16, 30])
@pytest.mark.parametrize("high_contrast", [False, True])
def test_eight_pegs_differ_by_shape_alone(d: int, high_contrast: bool) -> None:
    pygame.init()
    a = Assets()
    masks = []
    for c in range(8):
        s = pygame.Surface((d + 8, d + 8))
        s.fill((0, 0, 0))
        draw_peg(s, a, c, ((d + 8) // 2, (d + 8) // 2), d, high_contrast)
        mask = _ink_mask(s, mark_ink(seat_rgb(c, high_contrast)))
        assert sum(map(sum, mask)) >= 2, (MARKS[c], d)  # the mark is there
        masks.append(mask)
    for i in range(8):
        for j in range(i + 1, 8):
            assert masks[i] != masks[j], (MARKS[i], MARKS[j], d)


def test_every_home_carries_its_colours_mark() -> None:
    pygame.init()
    g = BoardGeometry(8, (0, 0, 512, 512))
    look = BoardLook(list(range(8)), [None] * 8)
    static = BoardRenderer(Assets()).static(g, look)
    for seat in range(8):
        side = g.board.side_of(seat)
        x, y = g.local(side, IN_SPOT_OFFSET, HOME_SIZE + 1.25)
        ink = mark_ink(seat_rgb(seat))
        k = max(3, int(g.u * 0.5))
        box = static.subsurface(pygame.Rect(round(x) - k, round(y) - k, 2 * k, 2 * k))
        assert sum(map(sum, _ink_mask(box, ink))) >= 2, seat


def test_high_contrast_pegs_use_the_palette() -> None:
    pygame.init()
    surf = pygame.Surface((600, 600))
    g = BoardGeometry(4, (0, 0, 600, 600))
    pegs = [PegDraw(c, 0, ring(10 + 5 * c)) for c in range(4)]
    r = BoardRenderer(Assets())
    r.draw(surf, g, BoardLook([0, 1, 2, 3], [None] * 4, high_contrast=True), pegs)
    for c in range(4):
        x, y = g.point(ring(10 + 5 * c))
        got = surf.get_at((round(x), round(y + g.peg_r * 0.7)))[:3]
        assert sum(abs(a - b) for a, b in zip(got, HIGH_CONTRAST[c], strict=True)) < 40, c


class _HighContrast:
    """The person's settings with a ``high_contrast`` switch on (the setting the Settings
    screen may add)."""

    def __init__(self, base: Any) -> None:
        self._base = base
        self.high_contrast = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def test_the_table_reads_the_high_contrast_setting(tmp_path: Path, display: Any) -> None:
    app = table_app(tmp_path)
    try:
        table = open_fixed_table(app)
        assert table.look().high_contrast is False  # no such setting yet: off
        app.settings = _HighContrast(app.settings)  # type: ignore[assignment]
        assert table.look().high_contrast is True
        app.frame(1 / 60)  # and it draws
    finally:
        close_app(app)
