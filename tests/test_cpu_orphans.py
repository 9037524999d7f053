"""A headless host killed with SIGKILL leaves no process behind (issue 15).

The host thinks for its CPUs in a worker process (``game.cpu_worker.ProcessCpu``: a
``ProcessPoolExecutor`` with the ``spawn`` start method, which also starts multiprocessing's
resource tracker). A host that is killed outright runs no ``finally`` and no ``atexit``, so
those children must notice by themselves that their parent is gone.

The CPU runner (``game/table/cpu.py``) gives each worker an initializer whose daemon
thread watches ``os.getppid()`` and ends the worker once the host is gone; the resource tracker
then ends by itself, since no living process holds its pipe.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.headless_host import ROOT, launch_headless

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _stat(pid: int) -> tuple[int, str, int] | None:
    """``(ppid, state, start time)`` of ``pid``, or None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw.rsplit(")", 1)[1].split()
    return int(fields[1]), fields[0], int(fields[19])


def descendants(pid: int) -> dict[int, int]:
    """Every living descendant of ``pid``: pid -> start time (to tell a reused pid)."""
    table = {}
    for d in os.listdir("/proc"):
        if d.isdigit() and (s := _stat(int(d))) is not None:
            table[int(d)] = s
    out: dict[int, int] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, _state, start) in table.items():
            if ppid == parent and child not in out:
                out[child] = start
                todo.append(child)
    return out


def alive(procs: dict[int, int]) -> list[int]:
    """Which of ``procs`` still run (the same process, not a zombie)."""
    out = []
    for pid, start in procs.items():
        s = _stat(pid)
        if s is not None and s[2] == start and s[1] != "Z":
            out.append(pid)
    return out


def test_sigkilled_host_leaves_no_child_running(tmp_path: Path) -> None:
    from tests.net_bots import join, run_until

    p, info = launch_headless([
        sys.executable, str(ROOT / "main.py"), "--host", "--headless", "--bind", "127.0.0.1",
        "--port", "0", "--no-discovery", "--game", "layout", "--seats", "3", "--option",
        "layout_size=4", "--cpu", "easy", "--speed", "blitz", "--autostart", "1",
        "--clock-scale", "20", "--data", str(tmp_path), "--save", str(tmp_path / "t.jsonl"),
    ])
    bot = join(info["link"], "Ann", give_up_after=30)
    children: dict[int, int] = {}
    try:
        # CPUs playing: the table has asked its worker process for plays.
        run_until([bot], lambda: bot.phase == "playing" and bot.state_no >= 4, timeout=60,
                  what="CPUs playing")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not children:
            children = descendants(p.pid)
            time.sleep(0.1)
        assert children, "the host started no CPU worker process"
        os.kill(p.pid, signal.SIGKILL)
        p.wait(10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and alive(children):
            time.sleep(0.1)
        assert alive(children) == [], f"still running after the host died: {alive(children)}"
    finally:
        bot.c.close()
        if p.poll() is None:
            p.kill()
            p.wait(10)
        for pid in alive(children):  # never leave the orphans this test is about
            os.kill(pid, signal.SIGKILL)
