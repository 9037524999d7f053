"""Scenes: the client is a stack of them (architecture principle 8).

A scene handles events, updates with ``dt`` (seconds) and draws without changing anything. It
holds a :class:`~game.client.stage.Stage` (the app) and asks it for everything beyond itself:
other scenes by name, sound, settings, assets. The stage calls ``layout(w, h)`` when the scene
is shown and whenever the window changes size, so every scene lays itself out relative to the
window. ``overlay`` scenes draw over the scene below them (a pause overlay, a dialog).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.widgets import Form

if TYPE_CHECKING:
    from game.client.session import Session
    from game.client.stage import Stage


class Scene:
    """Base scene: a :class:`Form` of widgets, Esc goes back, a title and a background."""

    overlay = False
    title = ""
    name = "scene"
    #: A line shown across the scene for a while (the Trash table's "won hand 1"), or None.
    banner: str | None = None
    #: The table this scene shows (a lobby or a table scene), which the stage closes with it.
    session: Session | None = None

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.form = Form()
        self.form.on_sound = stage.sound
        self.size = stage.size
        self.u = theme.unit(stage.size)

    def join_failed(self, reason: str, detail: str = "",
                    choices: Sequence[tuple[str, str]] = ()) -> None:
        """A join this scene started gave up (the Join screen says why; others ignore it)."""

    # lifecycle ---------------------------------------------------------------
    def enter(self) -> None:
        """Called when the scene becomes the top of the stack (pushed or uncovered)."""
        self.relayout(self.stage.size)
        self.form.shown()

    def leave(self) -> None:
        """Called when the scene is popped or covered."""
        self.form.hidden()

    def background(self, dt: float) -> None:
        """Called every frame while another scene is on top of this one: a scene holding a
        table keeps its session read and ticking here (the game state keeps up)."""

    def relayout(self, size: tuple[int, int]) -> None:
        self.size = size
        self.u = theme.unit(size)
        self.layout(size[0], size[1])

    def layout(self, w: int, h: int) -> None:
        """Place the widgets for a ``w`` x ``h`` window."""

    # per frame ---------------------------------------------------------------
    def handle(self, ev: pygame.event.Event) -> None:
        if self.form.handle(ev):
            return
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.back()

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def draw(self, surf: pygame.Surface) -> None:
        self.draw_background(surf)
        if self.title:
            self.draw_title(surf, self.title)
        self.form.draw(surf, self.stage.assets)

    # helpers -----------------------------------------------------------------
    def back(self) -> None:
        self.stage.pop()

    def px(self, design_px: float) -> int:
        """A size given for 1280x720, scaled to this window."""
        return max(1, round(design_px * self.u))

    def draw_background(self, surf: pygame.Surface) -> None:
        surf.blit(self.stage.backdrop(), (0, 0))

    def draw_title(self, surf: pygame.Surface, text: str) -> None:
        a = self.stage.assets
        w, _ = surf.get_size()
        y = self.px(52)
        size = self.px(58)
        shadow = a.text(text, size, (0, 0, 0))
        t = a.text(text, size, theme.ACCENT)
        surf.blit(shadow, shadow.get_rect(center=(w // 2 + 3, y + 4)))
        surf.blit(t, t.get_rect(center=(w // 2, y)))

    def column(self, widgets: list, x: int, y: int, w: int, h: int, gap: int) -> int:
        """Stack ``widgets`` top to bottom from (x, y); returns the y below the last."""
        for wd in widgets:
            wd.rect = pygame.Rect(x, y, w, h)
            y += h + gap
        return y


def draw_backdrop(surf: pygame.Surface) -> None:
    """The arcade backdrop: a deep gradient with soft diagonal stripes (cheap: a few rects)."""
    w, h = surf.get_size()
    surf.fill(theme.BG)
    band = max(8, h // 12)
    for i in range(0, h, band):
        t = i / max(1, h)
        col = theme.mix(theme.BG, theme.BG2, t * 0.9)
        surf.fill(col, (0, i, w, band))
    stripe = max(40, w // 14)
    col = theme.mix(theme.BG2, (50, 70, 130), 0.25)
    for k in range(-2, w // stripe + 4):
        x = k * stripe * 2
        lift = h // 3
        pygame.draw.polygon(surf, col, [(x, h), (x + stripe, h), (x + stripe + lift, h - lift),
                                        (x + lift, h - lift)])
