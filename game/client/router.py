"""The app's map from names and sessions to scene classes (the only client module, with the
app, that imports scene modules).

Scenes ask the :class:`~game.client.stage.Stage` for ``show("title")`` or
``open_table(session)``; the app answers through these functions, so no scene module imports
another (or the app).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from game.client.scene import Scene
from game.client.stage import SceneLike, Stage

#: The screens :meth:`Stage.show` opens by name: ``module:Class`` in ``game.client``, imported
#: when first shown (the first frame loads the title and nothing it does not draw).
SCREENS: dict[str, str] = {
    "title": "screens:TitleScene",
    "new_table": "screens:NewTableScene",
    "reopen": "screens:ReopenScene",
    "join": "screens:JoinScene",
    "records": "screens:RecordsScene",
    "settings": "screens:SettingsScene",
    "rules": "screens:RulesScene",
    "confirm": "dialog:ConfirmOverlay",
}


def _class(where: str) -> Any:
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(f"game.client.{module}"), name)


def screen(stage: Stage, name: str, **options: Any) -> Scene:
    """A new screen called ``name`` (``options`` go to its constructor, e.g. ``kind``)."""
    where = SCREENS.get(name)
    if where is None:
        raise ValueError(f"no screen called {name!r} (one of {', '.join(SCREENS)})")
    scene: Scene = _class(where)(stage, **options)
    return scene


def table_scene(stage: Stage, session: Any) -> Scene:
    """The table scene for the session's game: Trash (``layout``) or the track game."""
    where = "layout_scene:LayoutTableScene" if session.game == "layout" else \
        "table_scene:TrackTableScene"
    scene: Scene = _class(where)(stage, session)
    return scene


def replay_scene(stage: Stage, session: Any, table: Any) -> Scene:
    """The replay viewer's overlay (controls, review) over ``table``, the session's table
    scene (``session``: a :class:`game.client.replay.ReplaySession`)."""
    scene: Scene = _class("replay_scene:ReplayOverlay")(stage, session, table)
    return scene


def lobby_scene(stage: Stage, session: Any, kind: str) -> Scene:
    """The lobby of a new or joined table (``kind``: local, host, join, solo)."""
    scene: Scene = _class("lobby:LobbyScene")(stage, session, kind)
    return scene


def session_of(scene: SceneLike) -> Any:
    """The session a table or lobby scene holds (None for the other screens)."""
    return scene.session


def join_failed(scene: SceneLike | None, reason: str, detail: str = "",
                choices: Sequence[tuple[str, str]] = ()) -> None:
    """Tell the Join screen (when it is ``scene``) why a join gave up."""
    if scene is not None:
        scene.join_failed(reason, detail, choices)
