"""The client's app loop: the window, the scene stack, global keys, settings and sound.

Each frame the top scene handles the events and updates; every scene under it gets
``background(dt)``, so a table covered by ADMIN (or any overlay) keeps reading its session and
ticking: the game state never waits for the overlay to close.

How the launcher starts it::

    from game.client.app import run
    sys.exit(run(size=(1280, 720), fullscreen=False))

``run`` opens the window on the title screen and returns the exit status (0) when the person
quits. Tests build an :class:`App` themselves, post events with ``pygame.event.post`` and call
:meth:`App.frame` (one turn of the real loop) or :meth:`App.run` with ``max_frames``.

Global keys: F11 toggles fullscreen (remembered in the settings); the window is resizable
(``VIDEORESIZE`` lays every scene out again). Closing the window quits, after asking when a
game is in progress (it is saved either way; Continue on the title brings it back).

(The module is a little over 600 lines: it is the stage's one implementation, and the ways a
table opens, new, hosted, reopened, resumed or dealt again, share its CPU runner, clock and
data folder.)
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# pygame imports setuptools' pkg_resources (pygame.pkgdata) only to find its data files inside
# zipped eggs: 0.14 s of a 0.26 s start. Without it, pkgdata opens the files beside pygame, as
# it does for an unzipped install anyway. So pygame is imported with pkg_resources held back
# (anything imported later that wants it still gets it).
_HOLD_BACK = "pkg_resources" not in sys.modules
if _HOLD_BACK:
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]
try:
    import pygame
finally:
    if _HOLD_BACK and sys.modules.get("pkg_resources", False) is None:
        del sys.modules["pkg_resources"]

from game.client import router, theme  # noqa: E402 (pygame first, above)
from game.client.assets import Assets  # noqa: E402 (pygame first, above)
from game.client.scene import draw_backdrop  # noqa: E402 (pygame first, above)
from game.client.stage import SceneLike  # noqa: E402 (pygame first, above)
from game.store import Settings, SettingsError, Store  # noqa: E402 (pygame first, above)

if TYPE_CHECKING:
    from game.client.e2e import E2EHook

MIN_SIZE = (480, 360)
FPS = 60
#: Seconds the loop sleeps at most while nothing moves: it then updates every scene (tables
#: tick, sessions are read) and draws only if something changed.
IDLE_WAKE = 0.1
#: Seconds after the last change on screen (the person's input, a play, a message) that idle
#: pulses (a picked card's pegs) keep going; then they hold still until the next change (each
#: pulse frame is a whole frame: 3.7 ms of CPU at 1280x720).
PULSE_SECONDS = 6.0
#: How long the idle loop sleeps before it looks for an event again (the most an event waits).
IDLE_STEP = 0.02
#: The longest step a frame passes to the scenes (a frame after a long stall or an idle sleep).
MAX_DT = 0.1
#: The person's input: each marks the top scene dirty (other events, such as an audio device
#: appearing when the mixer starts, reach the scene without a redraw; what they change shows
#: through its ``redraw_key``).
INPUT_EVENTS = frozenset((
    pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT, pygame.TEXTEDITING, pygame.MOUSEMOTION,
    pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL, pygame.FINGERDOWN,
    pygame.FINGERUP, pygame.FINGERMOTION, pygame.DROPFILE, pygame.DROPTEXT))
#: Window events after which the whole window is drawn again.
REDRAW_EVENTS = (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED,
                 pygame.WINDOWMAXIMIZED)


#: How the window reaches the screen (``bench/idle.py`` measured it under Xvfb at 1280x720):
#: SDL's plain window framebuffer (``SDL_FRAMEBUFFER_ACCELERATION=0``: the frame is copied to
#: the window by X11 shared memory) costs 2.6 ms of CPU a frame with 40 pegs walking and 60 MB,
#: SDL's default texture path through OpenGL 8.1 ms (it misses 60 fps) and 154 MB. The game
#: blits surfaces, so the plain framebuffer it is. Set only when unset: a user's own
#: environment wins (README, "Display").
DISPLAY_DEFAULTS = {"SDL_FRAMEBUFFER_ACCELERATION": "0"}


def choose_display_path() -> None:
    """Put :data:`DISPLAY_DEFAULTS` in the environment unless already set (before SDL makes
    the window)."""
    for name, value in DISPLAY_DEFAULTS.items():
        os.environ.setdefault(name, value)


def _live_timelines(on: bool) -> bool:
    """Set (or clear) the run loop's start step on every animation timeline, once
    :mod:`game.client.anim` is loaded; returns whether it was."""
    anim = sys.modules.get("game.client.anim")
    if anim is None:
        return False
    anim.Timeline.start_step = anim.START_STEP if on else None
    return True


class App:
    """The window and the stack of scenes."""

    def __init__(self, size: tuple[int, int] = (1280, 720), fullscreen: bool | None = None,
                 store: Store | None = None, assets: Assets | None = None,
                 title_screen: bool = True) -> None:
        choose_display_path()
        pygame.display.init()
        pygame.font.init()
        self.store = store if store is not None else Store()
        self.settings: Settings = self.store.settings()
        #: ``--name`` for this run only (the saved name is ``saved_name``), or None.
        self.run_name: str | None = None
        self.saved_name: str = self.settings.name
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
        if not self.settings.player_id:  # this machine's player: kept across renames
            from game.store import new_player_id

            pid = new_player_id()
            if self.save_settings(player_id=pid) is not None:
                self.settings = replace(self.settings, player_id=pid)  # this run at least
        self.scenes: list[SceneLike] = []
        self.running = True
        #: Turns of the loop run, and frames drawn and flipped (fewer: a still screen draws
        #: nothing).
        self.frames = 0
        self.draws = 0
        self.last_draw_at = 0.0
        self.last_change_at = 0.0
        self._next_frame_at = 0.0  # the 60 fps beat (pace)
        self._turn_at = 0.0
        #: False once the window lost the focus: idle pulses stop until it is back.
        self.focused = True
        self._keys: dict[int, object] = {}
        self.first_frame_at: float | None = None
        self._backdrop: pygame.Surface | None = None
        #: Tests set this to a number: tables then run on frame time (``dt`` per frame)
        #: instead of the wall clock, so a whole game plays in a few seconds.
        self.virtual_time: float | None = None
        #: Where a hosted table listens and answers discovery (tests use loopback only).
        self.net_options: dict[str, Any] = {}
        #: Extra arguments of ``net.client.Client`` when joining (tests: discovery targets).
        self.join_options: dict[str, Any] = {}
        #: The end-to-end test hook (``TEE_TABLE_E2E_DIR``; see :mod:`game.client.e2e`), loaded
        #: only when asked for (it reads every scene, so it imports them all).
        self.e2e: E2EHook | None = None
        if os.environ.get("TEE_TABLE_E2E_DIR"):
            from game.client.e2e import E2EHook

            self.e2e = E2EHook.from_env()
        #: Hints think in a worker process (tests set this False: a thread instead).
        self.hint_processes = True
        self._hints: Any = None
        self._cpu: Any = None  # the CPU worker process, started with the first table
        pygame.key.set_repeat(350, 40)
        if title_screen:
            self.show("title")

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
            stored = new
            if self.run_name is not None:
                if "name" in changes:  # a name typed in Settings replaces --name for good
                    self.run_name = None
                else:  # --name is for this run only: the saved name stays
                    stored = replace(new, name=self.saved_name)
            self.store.save_settings(stored)
        except (SettingsError, OSError, TypeError) as e:
            self.message = str(e)
            return str(e)
        self.settings = new
        self.apply_sound_settings()
        return None

    def use_name_for_this_run(self, name: str) -> str | None:
        """``--name``: play as ``name`` in this run without saving it; returns a problem text
        (the name is then not used) or None."""
        from game.table import NAME_MAX

        clean = " ".join(str(name).split())
        if not clean or not clean.isprintable() or len(clean) > NAME_MAX:
            return f"--name {name!r} cannot be used; playing as {self.settings.name}."
        self.saved_name = self.settings.name
        self.run_name = clean
        self.settings = replace(self.settings, name=clean)
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
    def top(self) -> SceneLike | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: SceneLike) -> SceneLike:
        if self.scenes:
            self.scenes[-1].leave()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def pop(self) -> SceneLike | None:
        if not self.scenes:
            return None
        s = self.scenes.pop()
        s.leave()
        if self.scenes:
            self.scenes[-1].enter()
        else:
            self.quit()
        return s

    def replace(self, scene: SceneLike) -> SceneLike:
        if self.scenes:
            self.scenes.pop().leave()
        self.scenes.append(scene)
        scene.enter()
        return scene

    # the stage: scenes ask by name (game.client.stage.Stage) -------------------
    def show(self, name: str, **options: Any) -> SceneLike:
        """Push the screen called ``name`` (:data:`game.client.router.SCREENS`)."""
        return self.push(router.screen(self, name, **options))

    def back_to(self, name: str) -> None:
        """Pop scenes until the one whose ``name`` is ``name`` is on top."""
        while len(self.scenes) > 1 and self.scenes[-1].name != name:
            self.scenes.pop().leave()
        if self.scenes:
            self.scenes[-1].enter()

    def open_table(self, session: Any, replace: bool = False) -> SceneLike:
        """Show the table scene of ``session``'s game (replacing the lobby when ``replace``)."""
        scene = router.table_scene(self, session)
        return self.replace(scene) if replace else self.push(scene)

    def open_lobby(self, session: Any, kind: str) -> SceneLike:
        return self.push(router.lobby_scene(self, session, kind))

    def join_failed(self, reason: str, detail: str = "",
                    choices: Sequence[tuple[str, str]] = ()) -> None:
        """A join gave up: pop its lobby and tell the Join screen under it why."""
        self.pop()
        router.join_failed(self.top, reason, detail, choices)

    # tables --------------------------------------------------------------------
    def make_cpu(self) -> Any:
        """The CPU runner of a new table: a lease on the app's one worker process (started
        with the first table, ended with the app), so thinking never stalls a frame and ten
        tables in a run cost one process (tests replace this with
        ``game.cpu_worker.SyncCpu``)."""
        return self.cpu_worker().lease()

    def cpu_worker(self) -> Any:
        """The app's one CPU worker (:class:`game.table.cpu.ProcessCpu`), started and warmed
        on first use (a table opening), shared by every table and the hints."""
        if self._cpu is None:
            from game.table.cpu import ProcessCpu

            self._cpu = ProcessCpu()
        self._cpu.warm()  # between screens, not during the first CPU turn
        return self._cpu

    def hints(self) -> Any:
        """The one hint worker of the app (:class:`game.client.hints.HintRunner`): it thinks
        in the CPU worker's process (or in a thread: ``hint_processes`` False)."""
        if self._hints is None:
            from game.client.hints import HintRunner

            submit = self.cpu_worker().submit if self.hint_processes else None
            self._hints = HintRunner(processes=self.hint_processes, submit=submit)
        return self._hints

    def start_table(self, config: dict[str, Any], kind: str, speed: str,
                    seed: int | None = None) -> str | None:
        """Open a table from the New table screen (``seed``: deal that seed again, None: a
        new one); returns an error text or None."""
        from game.client import saves
        from game.client.session import LocalSession, local_save_path
        from game.rules.api import RulesError
        from game.table import TableError

        game = str(config.get("game", "track"))
        if kind == "host":
            return self.host_new_table(game, config, speed)
        save: Path | None = None
        try:  # a local table is saved after every play, like a hosted one
            save = local_save_path(self.store.folder)
        except OSError as e:
            self.message = f"This table will not be saved ({e})."
        cpu = self.make_cpu()
        try:
            session = LocalSession(game, config, speed=speed, cpu=cpu, seed=seed,
                                   clock=self.table_clock, save_path=save)
        except (RulesError, TableError, ValueError) as e:
            cpu.close()
            if save is not None:
                saves.discard_save(save)
            return str(e)
        if kind == "solo":
            r = session.sit(0, self.settings.name)
            if r.ok:
                r = session.start()
            if not r.ok:
                session.close()
                return r.message
            self.open_table(session)
            return None
        self.open_lobby(session, kind)
        return None

    def host_new_table(self, game: str, config: dict[str, Any], speed: str,
                       **options: Any) -> str | None:
        """Host a new LAN table (saved in the data folder) and show its lobby; returns an
        error text or None. ``options``: more arguments of
        :func:`game.client.net_session.host_table` (cpu_level, seed, code, port, ...)."""
        from game.client import saves

        kw = {**self.net_options, **options}
        if kw.get("save_path") is None:
            try:
                kw["save_path"] = saves.new_save_path(self.store.folder)
            except OSError as e:
                self.message = f"This table will not be saved ({e})."
                kw["save_path"] = None
        return self._host(game, config, speed, kw, "host")

    def reopen_table(self, save: str | Path, **options: Any) -> str | None:
        """Reopen a hosted table from its save file, under the code and port it had, so every
        joined program rejoins its seat by itself; returns an error text or None."""
        from game.client import saves
        from game.client.session import is_local_save

        if is_local_save(save):
            return self.resume_local(save)
        note = saves.read_host_note(save)
        kw = {**self.net_options, **options, "resume": Path(save)}
        if note.get("code") and "code" not in options:
            kw["code"] = note["code"]
        if note.get("port") and "port" not in options:
            kw["port"] = note["port"]  # the same port: links already sent keep working
        return self._host("track", {}, "normal", kw, "host")

    def resume_local(self, save: str | Path) -> str | None:
        """Reopen a local table (Play, Solo, hot seat) from its save, on this screen, with its
        people back at it; returns an error text or None."""
        from game.client.session import LocalSession
        from game.table import TableError

        cpu = self.make_cpu()
        try:
            session = LocalSession.resume(save, cpu=cpu, clock=self.table_clock)
        except (TableError, ValueError, OSError) as e:
            cpu.close()
            return f"Could not reopen that table: {e}"
        if session.phase == "lobby":  # saved before its start: back to its lobby
            self.open_lobby(session, "solo" if len(session.seats) == 1 else "local")
        else:
            self.open_table(session)
        return None

    def rematch(self, session: Any) -> str | None:
        """Rematch at the end of a local game: a new table (saved like every local one) with
        the same config and seats (the same people on this screen, the same CPU levels) and a
        new deal, shown in place of the finished one; returns an error text or None."""
        from game.client import saves
        from game.client.session import LocalSession, local_save_path
        from game.rules.api import RulesError
        from game.table import TableError

        if session.remote:
            return "Rematch is for tables played on this screen."
        save: Path | None = None
        with contextlib.suppress(OSError):
            save = local_save_path(self.store.folder)
        cpu = self.make_cpu()
        try:
            new = LocalSession(session.game, session.config,
                               speed=str(session.public.get("speed") or "normal"), cpu=cpu,
                               clock=self.table_clock, save_path=save)
        except (RulesError, TableError, ValueError) as e:
            cpu.close()
            if save is not None:
                saves.discard_save(save)
            return f"Could not deal a rematch: {e}"
        problems = []
        for s in session.seats:
            i = int(s["seat"])
            if s["kind"] == "person" and i in session.tokens:
                r = new.sit(i, str(s["name"]))
            else:
                r = new.set_cpu(i, str(s.get("level") or "tricky"))
            if not r.ok:
                problems.append(r.message)
        r = new.start()
        if problems or not r.ok:
            new.close()
            if save is not None:
                saves.discard_save(save)
            return f"Could not deal a rematch: {(problems or [r.message])[0]}"
        session.close()
        self.open_table(new, replace=True)
        return None

    def tables_in_progress(self) -> list[Any]:
        """The sessions of the scenes whose game is being played (not over)."""
        out: list[Any] = []
        for s in self.scenes:
            session = router.session_of(s)
            if session is not None and session.public.get("phase") == "playing" and \
                    session not in out:
                out.append(session)
        return out

    def table_in_progress(self) -> bool:
        """True while a scene holds a table whose game is being played (not over)."""
        return bool(self.tables_in_progress())

    def ask_to_quit(self) -> None:
        """Closing the window with a game in progress asks first (a second close quits)."""
        top = self.top
        if top is not None and getattr(top, "kind", "") == "quit":
            self.quit()
            return
        playing = self.tables_in_progress()
        if not playing:
            self.quit()
            return
        if all(s.save_path is not None for s in playing):
            detail = "It is saved; Continue on the title brings it back."
        elif all(s.remote for s in playing):
            detail = "Join again with the same code to get your seat back."
        else:
            detail = "This table could not be saved: it ends here."
        self.show("confirm", question="Leave the game?", detail=detail,
                  yes="Quit", no="Play on", on_yes=self.quit, kind="quit")

    def _host(self, game: str, config: dict[str, Any], speed: str, kw: dict[str, Any],
              kind: str) -> str | None:
        from game.client import saves
        from game.client.net_session import host_table
        from game.rules.api import RulesError
        from game.table import TableError

        cpu = self.make_cpu()
        new_save = kw.get("save_path") if kw.get("resume") is None else None
        try:
            hosted = host_table(game, config, self.settings.name, speed, cpu, **kw)
        except (TableError, RulesError, ValueError, OSError, RuntimeError) as e:
            cpu.close()
            if new_save is not None:  # a table that never opened leaves no save behind
                saves.discard_save(new_save)
            if isinstance(e, TableError | RulesError | ValueError):
                return f"Could not open that table: {e}"
            return f"Could not open the table on the network: {e}"
        if hosted.save_path is not None and hosted.host_thread is not None:
            with contextlib.suppress(OSError):
                saves.write_host_note(hosted.save_path, hosted.code, hosted.host_thread.port)
        self.open_lobby(hosted, kind)
        return None

    def join_table(self, target: Any) -> str | None:
        """Join a LAN table (a code or a parsed link); the lobby shows the outcome. A seat this
        program had at that table before (its token is kept in the data folder) is rejoined."""
        from game.client import saves
        from game.client.net_session import NetSession
        from net.client import Client

        folder = self.store.folder
        token = saves.seat_token(folder, target)

        def fresh() -> Any:
            saves.forget_seat(folder, target)
            return Client(target, self.settings.name, **self.join_options).start()

        def keep(session: NetSession) -> None:
            keys = saves.join_keys(target)
            if session.code and session.code not in keys:
                keys.append(session.code)
            for seat, tok in session.tokens.items():
                saves.remember_seat(folder, keys, tok, seat, session.link)

        try:
            client = Client(target, self.settings.name, token=token,
                            **self.join_options).start()
        except (OSError, ValueError) as e:
            return str(e)
        self.open_lobby(NetSession(client, on_seat=keep,
                                   fresh_client=fresh if token else None), "join")
        return None

    def open_replay(self, source: str | Path) -> str | None:
        """The replay viewer of a record (a file or its text): its table scene and the viewer's
        overlay; an error text (nothing opened) or None."""
        from game.client.replay import ReplaySession
        from game.rules.record import RecordError

        try:
            session = ReplaySession(source, clock=self.table_clock)
        except (RecordError, ValueError) as e:
            return f"Cannot watch this record: {e}"
        table = self.open_table(session)
        self.push(router.replay_scene(self, session, table))
        return None

    def quit(self) -> None:
        self.running = False

    # the loop ------------------------------------------------------------------
    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.QUIT:
            self.ask_to_quit()
            return
        if ev.type == pygame.VIDEORESIZE:
            self.resize(ev.w, ev.h)
            return
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_F11:
            self.set_fullscreen(not self.fullscreen)
            return
        if ev.type in (pygame.WINDOWFOCUSLOST, pygame.WINDOWFOCUSGAINED):
            self.focused = ev.type == pygame.WINDOWFOCUSGAINED  # idle pulses stop without it
        if ev.type in REDRAW_EVENTS:  # the window's contents were lost or shown anew
            self.redraw_all()
        if self.top is not None:
            if ev.type in INPUT_EVENTS:
                self.top.mark_dirty()
            self.top.handle(ev)

    def redraw_all(self) -> None:
        """Draw every shown scene at the next frame."""
        for s in self.scenes:
            s.mark_dirty()

    def shown_scenes(self) -> list[SceneLike]:
        """The scenes drawn, bottom first: the top one and every overlay's scene below it."""
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].overlay:
            start -= 1
        return self.scenes[max(0, start):]

    def draw(self) -> None:
        for s in self.shown_scenes():
            s.draw(self.screen)
        if not self.scenes:
            self.screen.fill(theme.BG)

    def table_clock(self) -> float:
        """The clock tables run on: the wall clock, or frame time in tests."""
        return time.monotonic() if self.virtual_time is None else self.virtual_time

    def now(self) -> float:
        """The loop's own clock (pulses): the tables' clock."""
        return self.table_clock()

    def moving(self) -> bool:
        """Something on screen moves (an animation): the loop runs at :data:`FPS`."""
        return any(s.wants_frames() for s in self.shown_scenes())

    def pulse_rate(self) -> float:
        """The frame rate of the shown scenes' idle pulses: 0 without the focus or when the
        person has done nothing for :data:`PULSE_SECONDS`."""
        if not self.focused or self.now() - self.last_change_at > PULSE_SECONDS:
            return 0.0
        return max((s.pulse_rate() for s in self.shown_scenes()), default=0.0)

    def needs_draw(self, now: float) -> bool:
        """Whether this frame draws: a shown scene is dirty, moves, shows something new
        (its ``redraw_key`` changed since it was drawn) or its pulse is due."""
        need = not self.scenes
        for s in self.shown_scenes():
            key = s.redraw_key()
            if s.dirty or key != self._keys.get(id(s)):
                need = True
            self._keys[id(s)] = key
        if need:
            self.last_change_at = now
            return True
        if self.moving():
            return True
        rate = self.pulse_rate()
        return rate > 0 and now - self.last_draw_at >= 1.0 / rate - 0.002

    def frame(self, dt: float = 1 / FPS, redraw: bool = True) -> bool:
        """One turn of the loop: events, update, draw and flip. The run loop passes
        ``redraw=False``: it then draws only when something changed (:meth:`needs_draw`);
        tests and benchmarks that look at what a frame draws call it as it is. Returns whether
        it drew."""
        if self.virtual_time is not None:
            self.virtual_time += dt
        for ev in pygame.event.get():
            self.handle(ev)
            if not self.running:
                return False
        # every scene under the top keeps its table going (reading the host, ticking the
        # local table); only the top one takes input
        for s in self.scenes[:-1]:
            s.background(dt)
        if self.top is not None:
            self.top.update(dt)
        now = self.now()
        drew = self.needs_draw(now) or redraw
        if drew:
            self.draw()
            pygame.display.flip()
            self.draws += 1
            self.last_draw_at = now
            for s in self.shown_scenes():
                s.dirty = False
            live = {id(s) for s in self.scenes}
            if len(self._keys) > len(live):
                self._keys = {k: v for k, v in self._keys.items() if k in live}
        self.frames += 1
        if self.e2e is not None:
            self.e2e.after_frame(self)
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter()
        return drew

    def pace(self) -> None:
        """Wait for the next frame of the :data:`FPS` beat. The beat keeps absolute times, so a
        late wake-up (a busy machine) is made up by the frames after it, where
        ``Clock.tick`` would lose it for good (51 instead of 60 fps under load)."""
        period = 1.0 / FPS
        now = time.perf_counter()
        if self._next_frame_at < now - 4 * period:  # far behind (a stall): a new beat
            self._next_frame_at = now
        self._next_frame_at += period
        delay = self._next_frame_at - time.perf_counter()
        if delay > 0:
            time.sleep(delay)

    def idle_wait(self) -> None:
        """Sleep until the next event, the next pulse frame or :data:`IDLE_WAKE` (so tables
        are still ticked and sessions read while nothing moves), whichever comes first.

        It sleeps in steps of :data:`IDLE_STEP` and looks whether an event came: pygame's own
        ``event.wait(timeout)`` polls SDL every millisecond (1.8% of a core under Xvfb, against
        0.2% this way, ``bench/idle.py``), and an event waits at most a step."""
        timeout = IDLE_WAKE
        rate = self.pulse_rate()
        if rate > 0:
            timeout = min(timeout, max(0.0, self.last_draw_at + 1.0 / rate - self.now()))
        deadline = time.monotonic() + timeout
        while not pygame.event.peek():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(IDLE_STEP, left))

    def run(self, max_frames: int = 0) -> int:
        """Run until the person quits (or ``max_frames`` turns of the loop have run): 60 frames
        a second while something moves, else asleep until an event or the idle wake-up."""
        self._turn_at = time.perf_counter()
        live = False  # the timelines' start step is set (see anim.Timeline.start_step)
        try:
            dt = 1 / FPS
            while self.running:
                if not live:  # anim loads with the first table (the title does not need it)
                    live = _live_timelines(True)
                self.frame(min(dt, MAX_DT), redraw=False)
                if max_frames and self.frames >= max_frames:
                    break
                if self.moving() or pygame.event.peek():
                    self.pace()
                else:
                    self.idle_wait()
                    self._next_frame_at = 0.0  # the next moving frame starts a new beat
                now = time.perf_counter()
                dt, self._turn_at = now - self._turn_at, now
        finally:
            if live:
                _live_timelines(False)
        return 0

    def close(self) -> None:
        """Leave every scene and close open tables (CPU workers, host and client threads)."""
        closed: set[int] = set()
        for s in reversed(self.scenes):
            s.leave()
            session = router.session_of(s)
            if session is not None and id(session) not in closed:
                closed.add(id(session))
                with contextlib.suppress(Exception):  # closing twice is harmless
                    session.close()
        self.scenes.clear()
        if self._hints is not None:
            self._hints.close()
            self._hints = None
        if self._cpu is not None:  # the one CPU worker ends with the app
            self._cpu.close()
            self._cpu = None
        self.store.close()


@dataclass(frozen=True)
class HostRequest:
    """Open straight into hosting (``main.py --host``), as the launcher read it from the
    command line: a new table of ``game`` with ``config`` at ``speed``, or ``resume`` a save;
    ``options`` are :func:`~game.client.net_session.host_table`'s keyword arguments (``seed``,
    ``code``, ``port``, ``bind``, ``discovery``, ``advertise``, ``save_path``, ``cpu_level``).
    ``problem``: the launcher found the options unusable; it is shown on the title instead."""

    game: str = "track"
    config: dict[str, Any] = field(default_factory=dict)
    speed: str = "normal"
    options: dict[str, Any] = field(default_factory=dict)
    resume: Path | None = None
    problem: str | None = None


def start_hosting(app: App, request: HostRequest) -> str | None:
    """Open straight into hosting (``main.py --host``): a new table, or ``--resume SAVE``.
    Returns an error text (also shown on the title) or None."""
    if request.problem is not None:
        app.message = f"Cannot host: {request.problem}"
        return app.message
    opts = request.options
    if request.resume is not None:
        kept = ("bind", "discovery", "advertise", "web", "web_port")
        keep = {k: v for k, v in opts.items() if k in kept}
        if opts.get("code"):
            keep["code"] = opts["code"]
        if opts.get("port") is not None:
            keep["port"] = opts["port"]
        problem = app.reopen_table(request.resume, **keep)
    else:
        problem = app.host_new_table(request.game, request.config, request.speed, **opts)
    if problem:
        app.message = problem
    return problem


def run(size: tuple[int, int] = (1280, 720), fullscreen: bool | None = None,
        frames: int = 0, data: str | Path | None = None, join: str | None = None,
        host: HostRequest | None = None, name: str | None = None,
        replay: str | Path | None = None) -> int:
    """Open the window on the title screen and play until the person quits.

    ``size`` is the windowed size, ``fullscreen`` overrides the saved setting (None: use it),
    ``frames`` stops after that many frames (0: never; for smoke tests), ``data`` is the data
    folder for settings and records (None: ``$TEE_TABLE_DATA`` or the user data folder),
    ``join`` a code, link or address to join at once (``python main.py --join LINK``),
    ``host`` a :class:`HostRequest` (``main.py --host``): the window opens straight into hosting
    that table, with the lobby shown (``game.launch.window.host_request`` builds it from the
    command line). ``name`` (``--name``), when given, is the person's name for this run (not
    saved in the settings).
    """
    app = App(size, fullscreen, store=Store(data))
    if name:
        app.message = app.use_name_for_this_run(name)
    if host is not None:
        start_hosting(app, host)
    elif join:
        app.show("join", join=join)
    elif replay is not None:  # ``main.py --replay FILE``: the viewer over the title screen
        problem = app.open_replay(replay)
        if problem:
            app.message = problem
    if os.environ.get("TEE_TABLE_STARTUP"):  # measured by bench/render.py
        app.frame()
        started = float(os.environ["TEE_TABLE_STARTUP"])
        print(f"first_frame_s={time.time() - started:.3f}", flush=True)
    try:
        return app.run(frames)
    finally:
        app.close()
        pygame.quit()
