"""The client app as the client tests set it up: CPUs think in-line, hints in a thread, and
(optionally) a virtual clock and loopback-only networking. Plus ``pump`` for real-time nets,
and a track table opened in a hand-written position."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pygame

from game.client import screens
from game.client.app import App
from game.client.lobby import LobbyScene
from game.client.net_session import NetSession
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from tests.client_testing import FixedStart, click, frames, key, make_app

LOOPBACK = {"bind": "127.0.0.1", "port": 0, "discovery": None}


def table_app(folder: Path, *, virtual_time: bool = True, loopback: bool = False) -> App:
    """An app on the title screen (one frame run) with synchronous CPUs and no hint
    processes; ``virtual_time`` freezes its clock at 0 (frames advance it), ``loopback`` keeps
    any hosting or joining on 127.0.0.1 with no discovery."""
    a = make_app(folder)
    a.make_cpu = SyncCpu  # type: ignore[method-assign]
    if virtual_time:
        a.virtual_time = 0.0
    a.hint_processes = False
    if loopback:
        a.net_options = dict(LOOPBACK)
    frames(a)
    return a


def close_app(app: App) -> None:
    """Close every open scene's session, then the app."""
    for s in app.scenes:
        if s.session is not None:
            s.session.close()
    app.close()


def pump(app: App, until: Callable[[], bool], seconds: float) -> bool:
    """Run frames (real time: the network is real) until ``until()`` or the timeout."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        app.frame(1 / 60)
        if until():
            return True
        time.sleep(0.005)
    return False


def host_from_title(app: App, rules: str | None = None, speed: str | None = None
                    ) -> tuple[LobbyScene, NetSession]:
    """From the title screen, Host a game (``rules`` and ``speed`` set on the New table
    screen, else its defaults) and wait until the lobby's session knows the host's seat 0."""
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)  # Host a game
    nt = app.top
    assert isinstance(nt, screens.NewTableScene) and nt.kind == "host"
    if rules is not None:
        nt.rules.set_options(nt.rules.options, rules)
        nt._changed(None)
    if speed is not None:
        nt.speed.set_options(nt.speed.options, speed)
    click(app, nt.start_button.rect.center)
    lobby = app.top
    assert isinstance(lobby, LobbyScene), nt.error
    session = lobby.session
    assert isinstance(session, NetSession)
    assert pump(app, lambda: bool(session.seats) and session.local_seats == [0], 10)
    return lobby, session


# classic, 4 seats: Red (the person) to play with 2C..7C, pegs on 12 and 20
SPLIT_POSITION = (
    "classic 4 teams2 jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,s c:s,s,s,s,s d:s,s,s,s,s "
    "turn=a hand=2C,3C,4C,5C,6C,7C cards=6,5,5,5 pile=141 discards=0"
)


def open_fixed_table(app: App, position: str = SPLIT_POSITION, name: str = "Player",
                     n_frames: int = 1) -> TrackTableScene:
    """A started local classic table in a hand-written position (the table's public API: a
    rules object whose new game is that position), ``name`` in seat 0, CPUs elsewhere;
    ``n_frames`` frames run after it opens."""
    session = LocalSession("track", {"rules": "classic", "seats": 4}, speed="blitz",
                           cpu=SyncCpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, position))
    assert session.sit(0, name).ok and session.start().ok
    table = app.open_table(session)
    assert isinstance(table, TrackTableScene)
    frames(app, n_frames)
    return table
