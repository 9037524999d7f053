"""Helpers for driving the real client loop with synthetic events (tests, screenshots, bench).
They live with the tests, not in the shipped package (``tools/`` and ``bench/`` import them
with the repository root on ``sys.path``).

Everything goes through ``pygame.event.post`` and :meth:`App.frame`, exactly like a person's
input would: nothing calls a widget directly.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from game.client.app import App
from game.store import Store


def make_app(data: str | Path, size: tuple[int, int] = (1280, 720)) -> App:
    """An app on the title screen with its settings and records in ``data``."""
    app = App(size, fullscreen=False, store=Store(data))
    app.hint_processes = False  # hints think in a thread here: no worker process to start
    pygame.event.clear()
    return app


def frames(app: App, n: int = 1, dt: float = 1 / 60) -> None:
    for _ in range(n):
        app.frame(dt)


def key(app: App, k: int, mod: int = 0, unicode: str = "", n: int = 1) -> None:
    """Press (and release) key ``k``; one frame runs after it."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode,
                                         scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=unicode,
                                         scancode=0))
    frames(app, n)


def type_text(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    frames(app)


def move(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0,
                                                                                      0, 0)))
    frames(app)


def click(app: App, pos: tuple[int, int] | tuple[float, float], button: int = 1) -> None:
    """Move to ``pos``, press and release there; one frame after the move, one after the
    click."""
    p = (int(pos[0]), int(pos[1]))
    move(app, p)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=button))
    frames(app)


def resize(app: App, w: int, h: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=w, h=h, size=(w, h)))
    frames(app)


class FixedStart:
    """A game's rules whose new game is a hand-written position (``rules.parse_position``),
    with no opening deal: ``LocalSession(game, config, rules=FixedStart(RULES, text))`` puts a
    table in that position through the table's public API (``Table.create`` takes a rules
    object), so tests never reach into the table's state. Everything else is ``base``'s."""

    def __init__(self, base: Any, position: str) -> None:
        self.base = base
        self.position = position
        self.name = base.name

    def new_game(self, config: Any, seed: Any) -> Any:
        return self.base.parse_position(self.position)

    def start(self, config: Any, seed: Any) -> tuple[Any, list[Any]]:
        return self.new_game(config, seed), []

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.base, attr)


def drawn_texts(app: App, method: str = "text") -> list[str]:
    """Draw one frame and return the words drawn: the first argument of every call of
    ``app.assets.<method>`` (``text``, ``fit_text``, ``wrap``) during it."""
    got: list[str] = []
    assets = app.assets
    real = getattr(assets, method)

    def spy(t: str, *args: Any, **kw: Any) -> Any:
        got.append(t)
        return real(t, *args, **kw)

    setattr(assets, method, spy)
    try:
        app.draw()
    finally:
        delattr(assets, method)  # the class's own method again
    return got
