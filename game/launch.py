"""Command-line entry point: parses arguments, then opens the client or runs a headless host.

    python main.py                          the title screen
    python main.py --size 800x600 --fullscreen
    python main.py --join teetable://192.168.1.5:47800/KQXF   join from the command line
    python main.py --host --headless --game track --rules classic --seats 4

Bad arguments get a one-line error and exit status 2, before any window opens.
"""

from __future__ import annotations

import argparse
import os
import sys


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--size wants WIDTHxHEIGHT, not {text!r}") from None
    if not (320 <= w <= 10000 and 240 <= h <= 10000):
        raise argparse.ArgumentTypeError(f"--size {text} is out of range (320x240 and up)")
    return w, h


def build_parser() -> argparse.ArgumentParser:
    from net.cli import add_arguments

    p = argparse.ArgumentParser(prog="main.py", description="Tee Table: peg races and Trash.")
    p.add_argument("--size", default="1280x720", help="window size WxH (default 1280x720)")
    p.add_argument("--fullscreen", action="store_true", help="start fullscreen")
    p.add_argument("--data", default=None,
                   help="folder for settings, records and saves (default: your user data folder)")
    p.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    add_arguments(p)
    return p


def main(argv: list[str] | None = None) -> int:
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
        from net.cli import check_join

        problem = check_join(args.join)
        if problem:
            parser.error(f"--join: {problem}")
    if args.host and args.headless:
        from net.cli import run_headless

        return run_headless(args)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.client.app import run

    return run(size=size, fullscreen=True if args.fullscreen else None, frames=args.frames,
               data=args.data, join=args.join, host=args)


if __name__ == "__main__":
    sys.exit(main())
