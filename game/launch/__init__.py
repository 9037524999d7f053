"""The applications: parse the command line, then open the window or run a headless host.

    python main.py                          the title screen (or the ``tee-table`` command)
    python main.py --size 800x600 --fullscreen
    python main.py --join teetable://192.168.1.5:47800/KQXF   join from the command line
    python main.py --host --headless --game track --rules classic --seats 4
    python main.py --replay game.ttr        watch a game record in the replay viewer
    python main.py --watch LINK             table screen: a table with no hand (for a TV)

Bad arguments get a one-line error and exit status 2, before any window opens.

Modules: :mod:`game.launch.options` (the parser; standard library only, so the window path
loads nothing it does not draw with) and :mod:`game.launch.headless` (the headless host: the
table, the LAN host and the save file composed in an asyncio program). This package sits on
top of every other: it may import the client, the table and ``net``; nothing imports it.
"""

from __future__ import annotations

import argparse
import os
import sys

from game.launch.options import build_parser, parse_size

__all__ = ["build_parser", "main", "parse_size"]


def main(argv: list[str] | None = None) -> int:
    """Run Tee Table with ``argv`` (default: the process's arguments); the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        size = parse_size(args.size)
    except argparse.ArgumentTypeError as e:
        parser.error(str(e))
    if args.data:
        os.environ["TEE_TABLE_DATA"] = args.data
    if args.headless and not args.host:
        parser.error("--headless goes with --host")
    if args.join:
        from game.launch.options import check_join

        problem = check_join(args.join)
        if problem:
            parser.error(f"--join: {problem}")
    if args.web and args.no_web:
        parser.error("--web and --no-web cannot go together")
    if args.watch is not None:
        others = [o for o, on in (("--host", args.host), ("--join", args.join),
                                  ("--replay", args.replay)) if on]
        if others:
            parser.error(f"--watch cannot go with {others[0]}")
        from game.launch.options import check_join

        problem = check_join(args.watch)
        if problem:
            parser.error(f"--watch: {problem}")
    if args.replay:
        from game.launch.options import check_replay

        problem = check_replay(args.replay)
        if problem:
            print(f"{parser.prog}: error: --replay {args.replay}: {problem}", file=sys.stderr)
            return 2
    if args.host and args.headless:
        from game.launch.headless import run_headless

        return run_headless(args)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.watch is not None:
        from game.launch.window import run_watch

        return run_watch(args.watch, size=size, fullscreen=True if args.fullscreen else None,
                         frames=args.frames, data=args.data, name=args.name)
    from game.client.app import run

    host = None
    if args.host:
        from game.launch.window import host_request

        host = host_request(args)
    return run(size=size, fullscreen=True if args.fullscreen else None, frames=args.frames,
               data=args.data, join=args.join, host=host, name=args.name, replay=args.replay)


if __name__ == "__main__":  # pragma: no cover - ``python -m game.launch`` uses __main__.py
    sys.exit(main())
