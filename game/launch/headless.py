"""The headless host: the table, the LAN host and the save file, composed in one asyncio program.

:func:`game.launch.main` calls :func:`run_headless` for ``--host --headless``::

    python main.py --host --headless --game track --rules classic --seats 4 --speed blitz
    python main.py --host --headless --resume ~/.local/share/tee-table/saves/table.jsonl
    python main.py --join teetable://192.168.1.5:47800/KQXF

The headless host prints the table code, the link and the host's admin token, then serves until
interrupted (Ctrl+C, SIGTERM) or, with ``--exit-when-over``, until the game is over. It starts
the game by itself once ``--autostart`` people have sat down (default 1) and keeps a save file,
so ``--resume`` brings the same table back after a crash: everyone's program rejoins its seat.
``--resume`` without ``--code``/``--port`` reuses the code and port the host noted beside the
save (or says it is giving the table a new code when there is no note).

The loop here sleeps until something can have changed: the LAN host wakes it when it sends
anything (``Host(on_change=...)``), a signal wakes it, and otherwise it sleeps until the table's
:meth:`~game.table.Table.next_due` (at most :data:`IDLE_WAIT`), so an empty lobby costs nothing.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.launch.options import CliError, game_config
from net.codes import DEFAULT_PORT, DISCOVERY_PORT, LinkError, normalize_code
from net.host import Host

#: The longest the loop sleeps with nothing due (seconds): how late a game over is noticed
#: when nobody is connected to say so.
IDLE_WAIT = 2.0
#: How often the loop looks while a CPU's answer is overdue (it comes from another process).
OVERDUE_WAIT = 0.25


def _saves() -> Any:
    """The save folder's helpers (``new_save_path``, ``read_host_note``, ``write_host_note``):
    the table package's save-file module, imported when first needed (not at start-up)."""
    from game.table import savefile

    return savefile


@dataclass
class Address:
    """Where a table is served: its code (None: a fresh one), port, and what to say about it."""

    code: str | None
    port: int
    notice: str | None = None


def _default_save(data: str | None = None) -> Path:
    """A new save file in the data folder's ``saves`` (``data``: ``--data``; else
    ``$TEE_TABLE_DATA``, else the user data folder), where the window's Reopen lists it."""
    from game.store import data_dir

    return Path(_saves().new_save_path(data_dir(data)))


def make_clock(scale: float) -> Callable[[], float]:
    if scale == 1.0:
        return time.monotonic
    t0 = time.monotonic()
    return lambda: t0 + (time.monotonic() - t0) * scale


def _cause(path: str, e: BaseException) -> str:
    """``e`` in words without repeating ``path`` at its front."""
    text = str(e)
    for prefix in (f"{path}: ", f"{Path(path).resolve()}: "):
        if text.startswith(prefix):
            text = text[len(prefix):]
    return text


def build_table(args: argparse.Namespace, clock: Callable[[], float] | None = None) -> Any:
    """The table to host, new or resumed. Raises CliError with a readable message."""
    from game.cpu_worker import ProcessCpu, SyncCpu

    clock = clock or make_clock(args.clock_scale)
    cpu: Any = SyncCpu() if args.sync_cpu else ProcessCpu()
    try:
        return _new_or_resumed(args, clock, cpu)
    except BaseException:
        cpu.close()
        raise


def _clock_settings(table: Any, args: argparse.Namespace) -> None:
    """``--turn-clock`` and ``--pause-limit``, when given (a resumed table keeps its own
    otherwise); a value the table refuses closes it and says why."""
    from game.launch.options import OFF

    for given, intent in ((args.turn_clock, table.set_turn_clock),
                          (args.pause_limit, table.set_pause_limit)):
        if given is None:
            continue
        r = intent(table.host_token, None if given == OFF else float(given))
        if not r.ok:
            table.close()
            raise CliError(r.message)


def _new_or_resumed(args: argparse.Namespace, clock: Callable[[], float], cpu: Any) -> Any:
    from game.table import SaveError, SeatSpec, Table, TableError

    if args.resume:
        path = str(args.resume)
        try:
            resumed = Table.resume(path, clock=clock, cpu=cpu)
        except SaveError as e:
            text = _cause(path, e)
            if path in text:  # "no save file at PATH", "cannot open the save file PATH: ..."
                raise CliError(text) from None
            raise CliError(f"the save file {path} cannot be reopened: {text}") from None
        except Exception as e:  # a damaged save the table's checks missed
            raise CliError(f"the save file {path} is damaged and cannot be reopened: "
                           f"{type(e).__name__}: {_cause(path, e)}") from None
        _clock_settings(resumed, args)
        return resumed
    try:
        cfg = game_config(args)
        seed = args.seed if args.seed is not None else secrets.randbits(63)
        save = Path(args.save) if args.save else _default_save(getattr(args, "data", None))
        seats = [SeatSpec("cpu", level=args.cpu) for _ in range(args.seats)]
        table = Table.create(args.game, cfg, seed, seats, clock=clock, speed=args.speed,
                             save_path=save, cpu=cpu)
        _clock_settings(table, args)
        return table
    except (TableError, OSError, ValueError) as e:
        raise CliError(str(e)) from None
    except CliError:
        raise
    except Exception as e:  # RulesError/ConfigError from the game's config check
        raise CliError(f"{type(e).__name__}: {e}") from None


def serve_address(args: argparse.Namespace) -> Address:
    """The code and port to serve on: ``--code``/``--port``; with ``--resume``, the ones the
    host noted beside the save for whichever was not given (a new code when there is none)."""
    code = args.code
    port = args.port
    notice = None
    if args.resume and (code is None or port is None):
        saves = _saves()
        note = saves.read_host_note(args.resume)
        used = []
        noted = None
        with contextlib.suppress(LinkError):  # a damaged note counts as none
            noted = normalize_code(note["code"]) if note.get("code") else None
        if code is None and noted:
            code = noted
            used.append(f"code {code}")
        if port is None and note.get("port"):
            port = note["port"]
            used.append(f"port {port}")
        where = saves.note_path(args.resume)
        if used:
            notice = f"resuming with the {' and '.join(used)} noted in {where}"
        if code is None:
            notice = (f"warning: no code noted beside the save ({where} is missing or "
                      f"damaged): giving the table a new code; people who joined by code or "
                      f"link must join again with it")
    if code is not None:
        code = normalize_code(code)  # LinkError for a bad --code
    return Address(code, DEFAULT_PORT if port is None else int(port), notice)


def _autostart(host: Host, n: int) -> None:
    t = host.glue.table
    if n <= 0 or t.phase != "lobby":
        return
    people = [s for s in t.public()["seats"] if s["kind"] == "person"]
    if len(people) >= n:
        t.start(t.host_token)


def _wait_for(table: Any, clock: Callable[[], float], scale: float) -> float:
    """Seconds the loop may sleep: until the table's next due play, at most IDLE_WAIT."""
    due = table.next_due()
    if due is None:
        return IDLE_WAIT
    ahead = (float(due) - clock()) / (scale or 1.0)
    if ahead <= 0:
        return OVERDUE_WAIT
    return min(IDLE_WAIT, ahead + 0.01)


async def serve(args: argparse.Namespace, table: Any, out: Callable[[str], None],
                address: Address | None = None,
                clock: Callable[[], float] = time.monotonic) -> int:
    """Serve ``table`` until a signal (or the game's end with ``--exit-when-over``)."""
    address = address or serve_address(args)
    wake = asyncio.Event()
    disc_port = DISCOVERY_PORT if args.discovery_port is None else args.discovery_port
    discovery = None if args.no_discovery else ("0.0.0.0", disc_port)
    host = Host(table, bind=args.bind, port=address.port, code=address.code,
                discovery=discovery, advertise=args.advertise, on_change=wake.set)
    await host.start()
    out(f"hosting {table.game} table {table.table_id}")
    if address.notice:
        out(address.notice)
    out(f"code: {host.code}")
    out(f"link: {host.link}")
    out(f"address: {host.link.address}")
    out(f"port: {host.port}")
    out(f"admin token: {table.host_token}")
    if table.save_path is not None:
        out(f"save: {table.save_path}")
        try:  # the window's Reopen lists this table with its code and port
            _saves().write_host_note(table.save_path, host.code, host.port)
        except OSError as e:
            out(f"warning: could not note the code and port beside the save: {e}")
    if host.discovery_error:
        out(host.discovery_error)
    stop = asyncio.Event()

    def on_signal() -> None:
        stop.set()
        wake.set()

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, on_signal)
    out("ready")
    announced_over = False
    save_error: str | None = None
    try:
        while not stop.is_set():
            wake.clear()
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
                await asyncio.wait_for(wake.wait(), _wait_for(table, clock, args.clock_scale))
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
    clock = make_clock(args.clock_scale)
    try:
        address = serve_address(args)
        table = build_table(args, clock)
    except (CliError, LinkError) as e:
        print(f"cannot host: {e}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(serve(args, table, out, address, clock))
    except OSError as e:
        print(f"cannot host on {args.bind}:{address.port}: {e.strerror or e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
