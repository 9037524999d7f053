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
    --bind --advertise --code --no-discovery --save`` (or ``--resume SAVE``). Options that
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
    return HostRequest(game=str(args.game), config=config, speed=str(args.speed), options=opts,
                       resume=Path(args.resume) if args.resume else None)
