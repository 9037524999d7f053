"""The window's share of the command line: ``main.py --host`` (without ``--headless``) opens
the window straight into hosting; this turns those options into the client's
:class:`~game.client.app.HostRequest`. Imported only on the window path, after parsing."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from game.client.app import HostRequest
from game.launch.options import CliError, game_config


def host_request(args: argparse.Namespace) -> HostRequest:
    """The table to host from ``--game --rules --seats --option --cpu --speed --seed --port
    --bind --advertise --code --no-discovery --save --no-web --web-port`` (or ``--resume
    SAVE``). Options that
    cannot be used give a request whose ``problem`` says why (shown on the title)."""
    try:
        config = game_config(args)
    except CliError as e:
        return HostRequest(problem=str(e))
    opts: dict[str, Any] = {"cpu_level": args.cpu}
    if args.seed is not None:
        opts["seed"] = int(args.seed)
    if args.code:
        opts["code"] = str(args.code)
    if args.advertise:
        opts["advertise"] = str(args.advertise)
    if args.bind:
        opts["bind"] = str(args.bind)
    from net.codes import DEFAULT_PORT

    # the usual port falls back to any free one when taken; a port asked for is kept to
    opts["port"] = None if args.port in (None, DEFAULT_PORT) else int(args.port)
    if args.no_discovery:
        opts["discovery"] = None
    elif args.discovery_port is not None:
        opts["discovery"] = ("0.0.0.0", int(args.discovery_port))
    if args.save:
        opts["save_path"] = Path(args.save)
    # a window's table serves phones (its lobby shows the QR code) unless --no-web
    opts["web"] = not args.no_web
    if args.web_port is not None:
        opts["web_port"] = int(args.web_port)
    return HostRequest(game=str(args.game), config=config, speed=str(args.speed), options=opts,
                       resume=Path(args.resume) if args.resume else None)


def watch_table(app: Any, target: str) -> str | None:
    """Table screen (``main.py --watch LINK``): join the table as a watcher (the hello's
    ``watch``) and show it with no hand at all, for a TV while the hands are on phones. The
    lobby shows the seats until the game starts (or at once the table, mid-game); a table that
    cannot be reached says why on the Join screen. An error text (nothing opened) or None."""
    from game.client.net_session import NetSession
    from net.client import Client
    from net.codes import LinkError

    try:
        client = Client(target, app.settings.name, watch=True, **app.join_options).start()
    except (LinkError, OSError, ValueError) as e:
        return str(e)
    session = NetSession(client)
    session.table_screen = True
    if not app.scenes:
        app.show("title")
    app.show("join")  # where a failure is told (the lobby pops back to it)
    app.open_lobby(session, "join")
    return None


def run_watch(target: str, size: tuple[int, int] = (1280, 720), fullscreen: bool | None = None,
              frames: int = 0, data: str | None = None, name: str | None = None) -> int:
    """The window of ``main.py --watch LINK`` (see :func:`watch_table`); the exit status."""
    import pygame

    from game.client.app import App
    from game.store import Store

    app = App(size, fullscreen, store=Store(data))
    if name:
        app.message = app.use_name_for_this_run(name)
    problem = watch_table(app, target)
    if problem:
        app.message = f"Cannot watch that table: {problem}"
    try:
        return app.run(frames)
    finally:
        app.close()
        pygame.quit()
