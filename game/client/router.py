"""The app's map from names and sessions to scene classes (the only client module, with the
app, that imports scene modules).

Scenes ask the :class:`~game.client.stage.Stage` for ``show("title")`` or
``open_table(session)``; the app answers through these functions, so no scene module imports
another (or the app).
"""

from __future__ import annotations

from typing import Any

from game.client.layout_scene import LayoutTableScene
from game.client.lobby import LobbyScene
from game.client.scene import Scene
from game.client.screens import (
    JoinScene,
    NewTableScene,
    RecordsScene,
    ReopenScene,
    RulesScene,
    SettingsScene,
    TitleScene,
)
from game.client.stage import Stage
from game.client.table_base import TableScene
from game.client.table_scene import TrackTableScene

#: The screens :meth:`Stage.show` opens by name.
SCREENS: dict[str, type[Scene]] = {
    "title": TitleScene,
    "new_table": NewTableScene,
    "reopen": ReopenScene,
    "join": JoinScene,
    "records": RecordsScene,
    "settings": SettingsScene,
    "rules": RulesScene,
}


def screen(stage: Stage, name: str, **options: Any) -> Scene:
    """A new screen called ``name`` (``options`` go to its constructor, e.g. ``kind``)."""
    cls = SCREENS.get(name)
    if cls is None:
        raise ValueError(f"no screen called {name!r} (one of {', '.join(SCREENS)})")
    return cls(stage, **options)


def table_scene(stage: Stage, session: Any) -> Scene:
    """The table scene for the session's game: Trash (``layout``) or the track game."""
    if session.game == "layout":
        return LayoutTableScene(stage, session)
    return TrackTableScene(stage, session)


def lobby_scene(stage: Stage, session: Any, kind: str) -> Scene:
    """The lobby of a new or joined table (``kind``: local, host, join, solo)."""
    return LobbyScene(stage, session, kind)


def session_of(scene: object) -> Any:
    """The session a table or lobby scene holds (None for the other screens)."""
    if isinstance(scene, TableScene | LobbyScene):
        return scene.session
    return None


def join_failed(scene: object, reason: str, detail: str = "") -> None:
    """Tell the Join screen (when it is ``scene``) why a join gave up."""
    if isinstance(scene, JoinScene):
        scene.fail(reason, detail)
