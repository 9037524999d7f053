"""A question over the scene below it: "Leave the game?", "Quit Tee Table?".

The stage shows it by name (``stage.show("confirm", question=..., detail=..., yes=...,
on_yes=...)``): the scene under it keeps ticking (its table goes on) and is drawn beneath.
Keys: Enter (or Space) presses the focused button, which is the main action (``yes``) when the
dialog opens; Left / Right, Up / Down and Tab move between the two; Esc goes back (``no``).
The dialog leaves the stack before its action runs, so the action may show or pop scenes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.widgets import Button

if TYPE_CHECKING:
    from game.client.stage import Stage


class ConfirmOverlay(Scene):
    """Two buttons: ``yes`` runs ``on_yes`` (the main action, Enter); ``no`` (Esc) goes back
    and runs ``on_no`` when given."""

    overlay = True
    name = "confirm"

    def __init__(self, stage: Stage, question: str, detail: str = "", yes: str = "Yes",
                 no: str = "Back", on_yes: Callable[[], object] | None = None,
                 on_no: Callable[[], object] | None = None, kind: str = "") -> None:
        super().__init__(stage)
        self.question = question
        self.detail = detail
        #: What the question is about (``quit``, ``leave``): the app finds its own with it.
        self.kind = kind
        self._on_yes = on_yes
        self._on_no = on_no
        self.yes_button = Button(yes, self.yes)
        self.no_button = Button(no, self.back)
        self.form.add(self.no_button)
        self.form.add(self.yes_button)
        self.form.focus(self.yes_button)
        self.box = pygame.Rect(0, 0, 0, 0)
        self._held: set[int] = set()

    def enter(self) -> None:
        super().enter()
        # a key still held from the press that opened the dialog is no answer to it
        try:
            held = pygame.key.get_pressed()
            self._held = {k for k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
                          if held[k]}
        except (pygame.error, IndexError):
            self._held = set()

    def yes(self) -> None:
        self._close()
        if self._on_yes is not None:
            self._on_yes()

    def back(self) -> None:
        self._close()
        if self._on_no is not None:
            self._on_no()

    def _close(self) -> None:
        if self.stage.top is self:
            self.stage.pop()

    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.KEYUP:
            self._held.discard(ev.key)
            return
        if ev.type == pygame.KEYDOWN:
            if ev.key in self._held:
                return  # the repeat of the key that asked the question
            if ev.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.form.move(1)
                return
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.form.focused is None:
                self.yes()
                return
        super().handle(ev)  # buttons, Tab, Up / Down; Esc goes back

    def layout(self, w: int, h: int) -> None:
        bw = min(self.px(700), int(w * 0.92))
        bh = self.px(250)
        self.box = pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)
        b = min(self.px(260), (bw - self.px(60)) // 2)
        y = self.box.bottom - self.px(86)
        self.no_button.rect = pygame.Rect(self.box.centerx - b - self.px(10), y, b, self.px(62))
        self.yes_button.rect = pygame.Rect(self.box.centerx + self.px(10), y, b, self.px(62))

    def draw(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 140))
        surf.blit(shade, (0, 0))
        pygame.draw.rect(surf, theme.BG, self.box, border_radius=14)  # opaque: nothing shows
        surf.blit(a.nine_slice("panel", self.box.size, 14), self.box)
        q = a.fit_text(self.question, self.px(44), theme.ACCENT, self.box.w - self.px(32))
        surf.blit(q, q.get_rect(midtop=(self.box.centerx, self.box.y + self.px(22))))
        size = self.px(24)
        for i, line in enumerate(a.wrap(self.detail, size, self.box.w - self.px(40))[:2]):
            t = a.text(line, size, theme.TEXT)
            surf.blit(t, t.get_rect(midtop=(self.box.centerx,
                                            self.box.y + self.px(84) + i * self.px(30))))
        self.form.draw(surf, a)
