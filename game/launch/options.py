"""The command line's options: one argparse parser for the window and the headless host.

Building and parsing imports nothing but the standard library's ``argparse`` and ``json``: the
window path (``python main.py``) must reach its first frame without loading networking,
asyncio, the host or the rules engines (issue 20). The LAN ports' defaults belong to
:mod:`net.codes`; here ``--port`` and ``--discovery-port`` default to ``None`` ("the usual
port", resolved by whoever serves) and ``--help`` looks the numbers up only when it is shown.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


class CliError(Exception):
    """A command-line option that cannot be used, with a message for people."""


class _NetDefault:
    """A number from :mod:`net.codes`, looked up when ``--help`` is formatted (not before)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        from net import codes

        return str(getattr(codes, self.name))


#: ``seconds_or_off("off")``: the setting is switched off (the table's ``None``).
OFF = "off"


def seconds_or_off(text: str) -> float | str:
    """``"90"`` -> ``90.0``; ``"off"`` -> ``"off"`` (the table checks the range)."""
    if text.strip().lower() == OFF:
        return OFF
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"wants a number of seconds or 'off', not {text!r}"
                                         ) from None


def parse_size(text: str) -> tuple[int, int]:
    """``"800x600"`` -> ``(800, 600)``; raises ``ArgumentTypeError`` with a readable message."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--size wants WIDTHxHEIGHT, not {text!r}") from None
    if not (320 <= w <= 10000 and 240 <= h <= 10000):
        raise argparse.ArgumentTypeError(f"--size {text} is out of range (320x240 and up)")
    return w, h


def add_lan_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --host, --headless, --join and the hosted table's options to ``parser``."""
    g = parser.add_argument_group("LAN play")
    g.add_argument("--host", action="store_true", help="host a LAN table")
    g.add_argument("--headless", action="store_true",
                   help="with --host: no window, serve the table from the terminal")
    g.add_argument("--join", metavar="LINK",
                   help="join a table: a link (teetable://HOST:PORT/CODE), HOST:PORT, or a code")
    g.add_argument("--watch", metavar="LINK",
                   help="table screen: watch a table with no hand (for a TV while everyone "
                        "plays on phones): its link, HOST:PORT, or its code")
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
    from game.table.pacing import SPEEDS  # the one speed table (a small module, no table)

    t.add_argument("--speed", default="normal", choices=tuple(SPEEDS), help="table speed")
    t.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    port = t.add_argument("--port", type=int, default=None,
                          help="TCP port to serve on (default %(usual)s; 0: any free port)")
    port.usual = _NetDefault("DEFAULT_PORT")  # type: ignore[attr-defined]
    t.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    t.add_argument("--advertise", default=None,
                   help="address to put in the link (default: this machine's LAN address)")
    t.add_argument("--code", default=None,
                   help="table code to use (default: a fresh one; with --resume, the code "
                        "noted beside the save)")
    disc = t.add_argument("--discovery-port", type=int, default=None,
                          help="UDP port answering code look-ups (default %(usual)s)")
    disc.usual = _NetDefault("DISCOVERY_PORT")  # type: ignore[attr-defined]
    t.add_argument("--no-discovery", action="store_true", help="do not answer code look-ups")
    t.add_argument("--web", action="store_true",
                   help="also serve the phone web client (docs/web.md); headless: off unless "
                        "given (a window's table serves phones unless --no-web)")
    t.add_argument("--no-web", action="store_true",
                   help="window: do not serve phones (no QR code in the lobby)")
    t.add_argument("--web-port", type=int, default=None, metavar="PORT",
                   help="web client's port (default: the TCP port + 1; 0: any free port)")
    t.add_argument("--save", default=None, metavar="PATH",
                   help="save file for the table (default: a new file in the data folder)")
    t.add_argument("--resume", default=None, metavar="PATH",
                   help="reopen a saved table (same seats and tokens; the code and port noted "
                        "beside the save unless --code/--port)")
    t.add_argument("--turn-clock", type=seconds_or_off, default=None, metavar="SECONDS|off",
                   help="how long a person's turn may last before a stand-in CPU plays it "
                        "(seconds at normal speed, scaled by the table speed; default 90; off: "
                        "no clock)")
    t.add_argument("--pause-limit", type=seconds_or_off, default=None, metavar="SECONDS|off",
                   help="how long a pause nobody resumes lasts before play goes on (default "
                        "120; off: until everyone is ready)")
    t.add_argument("--autostart", type=int, default=1, metavar="N",
                   help="start the game once N people have sat down (0: never by itself)")
    t.add_argument("--exit-when-over", action="store_true",
                   help="stop the headless host when the game is over")
    # For tests: a table clock that runs faster than real time, and CPUs in-process.
    t.add_argument("--clock-scale", type=float, default=1.0, help=argparse.SUPPRESS)
    t.add_argument("--sync-cpu", action="store_true", help=argparse.SUPPRESS)


# The name net/cli.py gave it (the window's host options and older callers use it).
add_arguments = add_lan_arguments


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The whole command line: window options, then LAN play and the hosted table.

    ``prog`` defaults to the program's own name (``main.py`` or ``tee-table``).
    """
    p = argparse.ArgumentParser(prog=prog, description="Tee Table: peg races and Trash.")
    p.add_argument("--size", default="1280x720", help="window size WxH (default 1280x720)")
    p.add_argument("--fullscreen", action="store_true", help="start fullscreen")
    p.add_argument("--data", default=None,
                   help="folder for settings, records and saves (default: your user data folder)")
    p.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--replay", metavar="FILE", default=None,
                   help="watch a game record (.ttr) in the replay viewer")
    add_lan_arguments(p)
    return p


def game_config(args: argparse.Namespace) -> dict[str, Any]:
    """The hosted game's config from ``--seats``, ``--rules`` and every ``--option``.

    Raises :class:`CliError` for an ``--option`` that is not ``KEY=VALUE``.
    """
    cfg: dict[str, Any] = {"seats": args.seats}
    if args.game == "track":
        cfg["rules"] = args.rules
    for item in args.option:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise CliError(f"--option wants KEY=VALUE, not {item!r}")
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        cfg[key.strip()] = value
    return cfg


def check_replay(path: str) -> str | None:
    """The problem with a ``--replay`` record (its own line-numbered reason), or None; the
    record is read and checked by replaying it before any window opens."""
    from game.rules.record import RecordError, read_record

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        return f"cannot read {path}: {e}"
    try:
        read_record(text)
    except RecordError as e:
        return " ".join(str(e).split())
    return None


def check_join(text: str) -> str | None:
    """The problem with a ``--join`` (or ``--watch``) argument, or None (reported before any
    window opens)."""
    from net.codes import LinkError, parse_join_target

    try:
        parse_join_target(text)
    except LinkError as e:
        return str(e)
    return None
