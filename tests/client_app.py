"""The client app as the client tests set it up: CPUs think in-line, hints in a thread, and
(optionally) a virtual clock and loopback-only networking. Plus ``pump`` for real-time nets."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from game.client.app import App
from game.client.testing import frames, make_app
from game.cpu_worker import SyncCpu

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
        if hasattr(s, "session"):
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
