"""The stage: what a scene may ask of the program around it (PursuedPyBear's scenes ask, the
stage acts).

A scene never imports the app or another scene: it holds a :class:`Stage` and asks it to push,
pop or replace scenes, to show a screen by name (``stage.show("title")``), to open a table or a
lobby for a session, to play a sound, to read and save settings, and so on. The app implements
the protocol (:class:`game.client.app.App`); :mod:`game.client.router` maps names and sessions
to scene classes. A scene module may import the scene *bases* (:mod:`game.client.scene`,
:mod:`game.client.table_base`) and the pygame-free helpers, never another scene module
(``tests/test_client_imports.py`` walks every import, lazy ones included).

Screen names for :meth:`Stage.show`: ``title``, ``new_table`` (``kind=`` ``local`` / ``host``
/ ``solo``), ``reopen``, ``join``, ``records``, ``settings``, ``rules``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pygame

    from game.client.assets import Assets
    from game.client.session import Session
    from game.store import Settings, Store


class SceneLike(Protocol):
    """What the stage needs of a scene (:class:`game.client.scene.Scene` is one; this module
    imports no scene module, so the client has no import cycle)."""

    overlay: bool
    name: str
    #: Draw at the next frame (the app clears it once the scene is drawn).
    dirty: bool

    @property
    def session(self) -> Session | None:
        """The table the scene shows (lobby and table scenes), closed with it; else None."""
        ...

    def enter(self) -> None: ...

    def join_failed(self, reason: str, detail: str = "",
                    choices: Sequence[tuple[str, str]] = ()) -> None: ...

    def leave(self) -> None: ...

    def relayout(self, size: tuple[int, int]) -> None: ...

    def handle(self, ev: pygame.event.Event) -> None: ...

    def background(self, dt: float) -> None: ...

    def update(self, dt: float) -> None: ...

    def draw(self, surf: pygame.Surface) -> None: ...

    # redrawing only when something changed (Scene's docstrings say what each means)
    def mark_dirty(self) -> None: ...

    def wants_frames(self) -> bool: ...

    def pulse_rate(self) -> float: ...

    def redraw_key(self) -> object: ...


class Stage(Protocol):
    """The program a scene lives in (the app). Scenes ask; the stage acts."""

    assets: Assets
    settings: Settings
    store: Store
    #: A problem to show on the title screen (settings that could not be read), or None.
    message: str | None
    fullscreen: bool

    @property
    def size(self) -> tuple[int, int]:
        """The window size in pixels."""
        ...

    @property
    def top(self) -> SceneLike | None:
        """The scene on top of the stack."""
        ...

    # the stack
    def push(self, scene: SceneLike) -> SceneLike: ...

    def pop(self) -> SceneLike | None: ...

    def replace(self, scene: SceneLike) -> SceneLike: ...

    def show(self, name: str, **options: Any) -> SceneLike:
        """Push the screen called ``name`` (see the module docstring for the names)."""
        ...

    def back_to(self, name: str) -> None:
        """Pop scenes until the one called ``name`` (a scene's ``name``) is on top."""
        ...

    def open_table(self, session: Any, replace: bool = False) -> SceneLike:
        """Show the table scene of ``session``'s game (replacing the top scene, a lobby, when
        ``replace``)."""
        ...

    def open_lobby(self, session: Any, kind: str) -> SceneLike:
        """Show the lobby of ``session`` (``kind``: local, host, join)."""
        ...

    def join_failed(self, reason: str, detail: str = "",
                    choices: Sequence[tuple[str, str]] = ()) -> None:
        """A join gave up: leave its lobby and say why on the Join screen (``choices``: the
        tables that answered a code, each as a line for people and its link)."""
        ...

    def quit(self) -> None: ...

    # tables
    def start_table(self, config: dict[str, Any], kind: str, speed: str,
                    seed: int | None = None) -> str | None:
        """Open a table from the New table screen (``seed``: that deal again); an error text
        or None."""
        ...

    def reopen_table(self, save: str | Path, **options: Any) -> str | None: ...

    def rematch(self, session: Any) -> str | None:
        """A new deal at a finished local table, same config and seats; an error or None."""
        ...

    def join_table(self, target: Any) -> str | None: ...

    def open_replay(self, source: str | Path) -> str | None:
        """Watch a game record (a ``.ttr`` file, or the record's text) in the replay viewer;
        an error text (the record's own line-numbered reason) or None."""
        ...

    def hints(self) -> Any:
        """The one hint worker (:class:`game.client.hints.HintRunner`)."""
        ...

    # look, sound, settings
    def sound(self, name: str) -> None: ...

    def backdrop(self) -> pygame.Surface: ...

    def save_settings(self, **changes: object) -> str | None: ...

    def set_fullscreen(self, on: bool, save: bool = True) -> None: ...
