"""Command-line options for hosting and joining, and the headless host.

``game/launch.py`` adds these options with :func:`add_arguments` and, for
``--host --headless``, calls :func:`run_headless`::

    python main.py --host --headless --game track --rules classic --seats 4 --speed blitz
    python main.py --host --headless --resume ~/.local/share/tee-table/saves/table.jsonl
    python main.py --join teetable://192.168.1.5:47800/KQXF

The headless host prints the table code, the link and the host's admin token, then serves until
interrupted (Ctrl+C) or, with ``--exit-when-over``, until the game is over. It starts the game
by itself once ``--autostart`` people have sat down (default 1) and keeps a save file, so
``--resume`` brings the same table back after a crash: everyone's program rejoins its seat.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from net.codes import DEFAULT_PORT, DISCOVERY_PORT, LinkError, normalize_code, parse_join_target
from net.host import Host

SPEED_NAMES = ("relaxed", "normal", "brisk", "blitz")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --host, --headless, --join and the table options to ``parser``."""
    g = parser.add_argument_group("LAN play")
    g.add_argument("--host", action="store_true", help="host a LAN table")
    g.add_argument("--headless", action="store_true",
                   help="with --host: no window, serve the table from the terminal")
    g.add_argument("--join", metavar="LINK",
                   help="join a table: a link (teetable://HOST:PORT/CODE), HOST:PORT, or a code")
    g.add_argument("--name", default=None, help="your name at the table")
    t = parser.add_argument_group("hosted table")
    t.add_argument("--game", choices=("track", "layout"), default="track")
    t.add_argument("--rules", choices=("tees", "classic", "team"), default="classic",
                   help="track game rule set (default classic)")
    t.add_argument("--seats", type=int, default=4, help="number of seats (default 4)")
    t.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="extra game option (VALUE read as JSON if it parses), repeatable")
    t.add_argument("--cpu", default="tricky", choices=("easy", "tricky", "nasty"),
                   help="level of the CPUs in the empty seats (default tricky)")
    t.add_argument("--speed", default="normal", choices=SPEED_NAMES, help="table speed")
    t.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    t.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"TCP port to serve on (default {DEFAULT_PORT}; 0: any free port)")
    t.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    t.add_argument("--advertise", default=None,
                   help="address to put in the link (default: this machine's LAN address)")
    t.add_argument("--code", default=None, help="table code to use (default: a fresh one)")
    t.add_argument("--discovery-port", type=int, default=DISCOVERY_PORT,
                   help=f"UDP port answering code look-ups (default {DISCOVERY_PORT})")
    t.add_argument("--no-discovery", action="store_true", help="do not answer code look-ups")
    t.add_argument("--save", default=None, metavar="PATH",
                   help="save file for the table (default: a new file in the data folder)")
    t.add_argument("--resume", default=None, metavar="PATH",
                   help="reopen a saved table (same seats, tokens, code with --code)")
    t.add_argument("--autostart", type=int, default=1, metavar="N",
                   help="start the game once N people have sat down (0: never by itself)")
    t.add_argument("--exit-when-over", action="store_true",
                   help="stop the headless host when the game is over")
    # For tests: a table clock that runs faster than real time, and CPUs in-process.
    t.add_argument("--clock-scale", type=float, default=1.0, help=argparse.SUPPRESS)
    t.add_argument("--sync-cpu", action="store_true", help=argparse.SUPPRESS)


class CliError(Exception):
    pass


def game_config(args: argparse.Namespace) -> dict[str, Any]:
    cfg: dict[str, Any] = {"seats": args.seats}
    if args.game == "track":
        cfg["rules"] = args.rules
    for item in args.option:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise CliError(f"--option wants KEY=VALUE, not {item!r}")
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        cfg[key.strip()] = value
    return cfg


def _default_save(data: str | None = None) -> Path:
    """A new save file in the data folder's ``saves`` (``data``: ``--data``; else
    ``$TEE_TABLE_DATA``, else the user data folder), where the window's Reopen lists it."""
    from game.client.saves import new_save_path
    from game.store import data_dir

    return new_save_path(data_dir(data))


def make_clock(scale: float) -> Callable[[], float]:
    if scale == 1.0:
        return time.monotonic
    t0 = time.monotonic()
    return lambda: t0 + (time.monotonic() - t0) * scale


def build_table(args: argparse.Namespace) -> Any:
    """The table to host, new or resumed. Raises CliError with a readable message."""
    from game.cpu_worker import ProcessCpu, SyncCpu
    from game.table import SeatSpec, Table, TableError

    clock = make_clock(args.clock_scale)
    cpu: Any = SyncCpu() if args.sync_cpu else ProcessCpu()
    try:
        if args.resume:
            return Table.resume(args.resume, clock=clock, cpu=cpu)
        cfg = game_config(args)
        seed = args.seed if args.seed is not None else secrets.randbits(63)
        save = Path(args.save) if args.save else _default_save(getattr(args, "data", None))
        seats = [SeatSpec("cpu", level=args.cpu) for _ in range(args.seats)]
        return Table.create(args.game, cfg, seed, seats, clock=clock, speed=args.speed,
                            save_path=save, cpu=cpu)
    except (TableError, OSError, ValueError) as e:
        raise CliError(str(e)) from None
    except Exception as e:  # RulesError/ConfigError from the game's config check
        raise CliError(f"{type(e).__name__}: {e}") from None


def _autostart(host: Host, n: int) -> None:
    t = host.glue.table
    if n <= 0 or t.phase != "lobby":
        return
    people = [s for s in t.public()["seats"] if s["kind"] == "person"]
    if len(people) >= n:
        t.start(t.host_token)


async def serve(args: argparse.Namespace, table: Any, out: Callable[[str], None]) -> int:
    code = normalize_code(args.code) if args.code else None
    discovery = None if args.no_discovery else ("0.0.0.0", args.discovery_port)
    host = Host(table, bind=args.bind, port=args.port, code=code, discovery=discovery,
                advertise=args.advertise)
    await host.start()
    out(f"hosting {table.game} table {table.table_id}")
    out(f"code: {host.code}")
    out(f"link: {host.link}")
    out(f"address: {host.link.address}")
    out(f"port: {host.port}")
    out(f"admin token: {table.host_token}")
    if table.save_path is not None:
        out(f"save: {table.save_path}")
        try:  # the window's Reopen lists this table with its code and port
            from game.client.saves import write_host_note

            write_host_note(table.save_path, host.code, host.port)
        except OSError as e:
            out(f"warning: could not note the code and port beside the save: {e}")
    if host.discovery_error:
        out(host.discovery_error)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    out("ready")
    announced_over = False
    save_error: str | None = None
    try:
        while not stop.is_set():
            _autostart(host, args.autostart)
            host._flush()
            if getattr(table, "save_error", None) and table.save_error != save_error:
                save_error = table.save_error
                out(f"warning: the table is no longer saved: {save_error}")
            if table.phase == "over" and not announced_over:
                announced_over = True
                out(f"game over: {json.dumps(table.outcome(), sort_keys=True)}")
                if args.exit_when_over:
                    await asyncio.sleep(0.5)  # let the last messages go out
                    break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.1)
    finally:
        await host.stop()
        table.close()
    return 0


def run_headless(args: argparse.Namespace) -> int:
    """Run a headless host in the foreground. Returns the process exit code."""
    def out(line: str) -> None:
        print(line, flush=True)

    if args.join:
        print("--join and --host cannot be used together", file=sys.stderr)
        return 2
    try:
        table = build_table(args)
    except CliError as e:
        print(f"cannot host: {e}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(serve(args, table, out))
    except OSError as e:
        print(f"cannot host on {args.bind}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def check_join(text: str) -> str | None:
    """The problem with a --join argument, or None (for launch.py to report early)."""
    try:
        parse_join_target(text)
    except LinkError as e:
        return str(e)
    return None


def main(argv: list[str] | None = None) -> int:
    """``python -m net.cli --host --headless ...`` (the same as main.py once wired)."""
    p = argparse.ArgumentParser(prog="python -m net.cli", description="Tee Table LAN host")
    add_arguments(p)
    args = p.parse_args(argv)
    if not (args.host and args.headless):
        p.error("only --host --headless is handled here; the window needs main.py")
    return run_headless(args)


if __name__ == "__main__":
    sys.exit(main())
