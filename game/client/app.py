"""The client's app loop: the window, the scene stack, global keys, settings and sound.

How the launcher starts it::

    from game.client.app import run
    sys.exit(run(size=(1280, 720), fullscreen=False))

``run`` opens the window on the title screen and returns the exit status (0) when the person
quits. Tests build an :class:`App` themselves, post events with ``pygame.event.post`` and call
:meth:`App.frame` (one turn of the real loop) or :meth:`App.run` with ``max_frames``.

Global keys: F11 toggles fullscreen (remembered in the settings); the window is resizable
(``VIDEORESIZE`` lays every scene out again). Closing the window quits.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from game.client import theme
from game.client.assets import Assets
from game.client.scene import Scene, draw_backdrop
from game.store import Settings, SettingsError, Store

MIN_SIZE = (480, 360)
FPS = 60


class App:
    """The window and the stack of scenes."""

    def __init__(self, size: tuple[int, int] = (1280, 720), fullscreen: bool | None = None,
                 store: Store | None = None, assets: Assets | None = None,
                 title_screen: bool = True) -> None:
        pygame.display.init()
        pygame.font.init()
        self.store = store if store is not None else Store()
        self.settings: Settings = self.store.settings()
        self.message: str | None = self.store.settings_problem
        if fullscreen is None:
            fullscreen = self.settings.fullscreen
        self.windowed_size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        self.fullscreen = False
        self.screen = self._set_mode(self.windowed_size, fullscreen)
        pygame.display.set_caption("Tee Table")
        self.assets = assets if assets is not None else Assets()
        with contextlib.suppress(FileNotFoundError, pygame.error):
            pygame.display.set_icon(self.assets.image("icon"))
        self.apply_sound_settings()
        self.scenes: list[Scene] = []
        self.clock = pygame.time.Clock()
        self.running = True
        self.frames = 0
        self.first_frame_at: float | None = None
        self._backdrop: pygame.Surface | None = None
        #: Tests set this to a number: tables then run on frame time (``dt`` per frame)
        #: instead of the wall clock, so a whole game plays in a few seconds.
        self.virtual_time: float | None = None
        #: Where a hosted table listens and answers discovery (tests use loopback only).
        self.net_options: dict[str, Any] = {}
        #: Extra arguments of ``net.client.Client`` when joining (tests: discovery targets).
        self.join_options: dict[str, Any] = {}
        #: The end-to-end test hook (``TEE_TABLE_E2E_DIR``; see :mod:`game.client.e2e`).
        from game.client.e2e import E2EHook

        self.e2e: E2EHook | None = E2EHook.from_env()
        #: Hints think in a worker process (tests set this False: a thread instead).
        self.hint_processes = True
        self._hints: Any = None
        pygame.key.set_repeat(350, 40)
        if title_screen:
            from game.client.screens import TitleScene

            self.push(TitleScene(self))

    # window --------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    def _set_mode(self, size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
        if fullscreen:
            try:
                screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
                self.fullscreen = True
                return screen
            except pygame.error:
                pass
        self.fullscreen = False
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        if screen.get_size() != tuple(size):  # SDL keeps the fullscreen size on the first call
            screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        return screen

    def set_fullscreen(self, on: bool, save: bool = True) -> None:
        if on == self.fullscreen:
            return
        if not self.fullscreen:
            self.windowed_size = self.size
        self.screen = self._set_mode(self.windowed_size, on)
        # the mode change reports its own size; the stale report must not resize us again
        pygame.event.clear((pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED))
        self._relayout()
        if save:
            self.save_settings(fullscreen=self.fullscreen)

    def resize(self, w: int, h: int) -> None:
        if self.fullscreen:
            return
        w, h = max(MIN_SIZE[0], w), max(MIN_SIZE[1], h)
        if (w, h) != self.size:
            self.screen = pygame.display.set_mode((w, h), pygame.RESIZABLE)
        self.windowed_size = (w, h)
        self._relayout()

    def _relayout(self) -> None:
        self._backdrop = None
        for s in self.scenes:
            s.relayout(self.size)

    def backdrop(self) -> pygame.Surface:
        if self._backdrop is None or self._backdrop.get_size() != self.size:
            self._backdrop = pygame.Surface(self.size).convert()
            draw_backdrop(self._backdrop)
        return self._backdrop

    # settings and sound --------------------------------------------------------
    def save_settings(self, **changes: object) -> str | None:
        """Apply and save settings changes; returns an error text instead of raising."""
        try:
            new = replace(self.settings, **changes)  # type: ignore[arg-type]
            self.store.save_settings(new)
        except (SettingsError, OSError, TypeError) as e:
            self.message = str(e)
            return str(e)
        self.settings = new
        self.apply_sound_settings()
        return None

    def apply_sound_settings(self) -> None:
        self.assets.muted = not self.settings.sound
        self.assets.volume = float(self.settings.volume)

    def sound(self, name: str) -> None:
        # a missing sound never stops the game (the loader's check_all names it)
        with contextlib.suppress(FileNotFoundError):
            self.assets.play(name)

    # scene stack ---------------------------------------------------------------
    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> Scene:
        if self.scenes:
            self.scenes[-1].leave()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        s = self.scenes.pop()
        s.leave()
        if self.scenes:
            self.scenes[-1].enter()
        else:
            self.quit()
        return s

    def replace(self, scene: Scene) -> Scene:
        if self.scenes:
            self.scenes.pop().leave()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def pop_to(self, kind: type[Scene]) -> None:
        """Pop scenes until one of ``kind`` is on top."""
        while len(self.scenes) > 1 and not isinstance(self.scenes[-1], kind):
            self.scenes.pop().leave()
        if self.scenes:
            self.scenes[-1].enter()

    # tables --------------------------------------------------------------------
    def make_cpu(self) -> Any:
        """The CPU runner of a new table: a worker process, so thinking never stalls a frame
        (tests replace this with ``game.cpu_worker.SyncCpu``)."""
        from game.cpu_worker import ProcessCpu

        cpu = ProcessCpu()
        cpu.warm()  # start the worker now, between screens, not during the first CPU turn
        return cpu

    def hints(self) -> Any:
        """The one hint worker of the app (:class:`game.client.hints.HintRunner`)."""
        if self._hints is None:
            from game.client.hints import HintRunner

            self._hints = HintRunner(processes=self.hint_processes)
        return self._hints

    def start_table(self, config: dict[str, Any], kind: str, speed: str) -> str | None:
        """Open a table from the New table screen; returns an error text or None."""
        from game.client.lobby import LobbyScene
        from game.client.session import LocalSession
        from game.client.table_scene import open_table
        from game.rules.api import RulesError
        from game.table import TableError

        game = str(config.get("game", "track"))
        try:
            session = LocalSession(game, config, speed=speed, cpu=self.make_cpu(),
                                   clock=self.table_clock)
        except (RulesError, TableError, ValueError) as e:
            return str(e)
        if kind == "solo":
            r = session.sit(0, self.settings.name)
            if r.ok:
                r = session.start()
            if not r.ok:
                session.close()
                return r.message
            self.push(open_table(self, session))
            return None
        if kind == "host":
            session.close()
            from game.client.net_session import host_table

            try:
                hosted = host_table(game, config, self.settings.name, speed, self.make_cpu(),
                                    **self.net_options)
            except (OSError, RuntimeError) as e:
                return f"Could not open the table on the network: {e}"
            self.push(LobbyScene(self, hosted, kind))
            return None
        self.push(LobbyScene(self, session, kind))
        return None

    def join_table(self, target: Any) -> str | None:
        """Join a LAN table (a code or a parsed link); the lobby shows the outcome."""
        from game.client.lobby import LobbyScene
        from game.client.net_session import NetSession
        from net.client import Client

        try:
            client = Client(target, self.settings.name, **self.join_options).start()
        except (OSError, ValueError) as e:
            return str(e)
        self.push(LobbyScene(self, NetSession(client), "join"))
        return None

    def quit(self) -> None:
        self.running = False

    # the loop ------------------------------------------------------------------
    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.QUIT:
            self.quit()
            return
        if ev.type == pygame.VIDEORESIZE:
            self.resize(ev.w, ev.h)
            return
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_F11:
            self.set_fullscreen(not self.fullscreen)
            return
        if self.top is not None:
            self.top.handle(ev)

    def draw(self) -> None:
        # draw from the lowest scene that is not covered by overlays
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].overlay:
            start -= 1
        for s in self.scenes[max(0, start):]:
            s.draw(self.screen)
        if not self.scenes:
            self.screen.fill(theme.BG)

    def table_clock(self) -> float:
        """The clock tables run on: the wall clock, or frame time in tests."""
        return time.monotonic() if self.virtual_time is None else self.virtual_time

    def frame(self, dt: float = 1 / FPS) -> None:
        """One turn of the loop: events, update, draw, flip."""
        if self.virtual_time is not None:
            self.virtual_time += dt
        for ev in pygame.event.get():
            self.handle(ev)
            if not self.running:
                return
        if self.top is not None:
            self.top.update(dt)
        self.draw()
        pygame.display.flip()
        self.frames += 1
        if self.e2e is not None:
            self.e2e.after_frame(self)
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter()

    def run(self, max_frames: int = 0) -> int:
        """Run until the person quits (or ``max_frames`` frames have been drawn)."""
        dt = 1 / FPS
        while self.running:
            self.frame(min(dt, 0.1))
            if max_frames and self.frames >= max_frames:
                break
            dt = self.clock.tick(FPS) / 1000.0
        return 0

    def close(self) -> None:
        """Leave every scene and close open tables (CPU workers, host and client threads)."""
        closed: set[int] = set()
        for s in reversed(self.scenes):
            s.leave()
            session = getattr(s, "session", None)
            if session is not None and id(session) not in closed:
                closed.add(id(session))
                with contextlib.suppress(Exception):  # closing twice is harmless
                    session.close()
        self.scenes.clear()
        if self._hints is not None:
            self._hints.close()
            self._hints = None
        self.store.close()


def run(size: tuple[int, int] = (1280, 720), fullscreen: bool | None = None,
        frames: int = 0, data: str | Path | None = None, join: str | None = None) -> int:
    """Open the window on the title screen and play until the person quits.

    ``size`` is the windowed size, ``fullscreen`` overrides the saved setting (None: use it),
    ``frames`` stops after that many frames (0: never; for smoke tests), ``data`` is the data
    folder for settings and records (None: ``$TEE_TABLE_DATA`` or the user data folder),
    ``join`` a code, link or address to join at once (``python main.py --join LINK``).
    """
    app = App(size, fullscreen, store=Store(data))
    if join:
        from game.client.screens import JoinScene

        scene = JoinScene(app)
        app.push(scene)
        scene.entry.set_text(join)
        scene.submit()
    if os.environ.get("TEE_TABLE_STARTUP"):  # measured by bench/render.py
        app.frame()
        started = float(os.environ["TEE_TABLE_STARTUP"])
        print(f"first_frame_s={time.time() - started:.3f}", flush=True)
    try:
        return app.run(frames)
    finally:
        app.close()
        pygame.quit()
