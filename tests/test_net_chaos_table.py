"""Chaos at the table (issue 15): a whole LAN game over loopback goes on to its end while one
person pauses and walks away (connected, never Ready, never playing) and the host's disk fills
up mid-game. The pause ends after the host's limit, a stand-in plays the walker's turns when
the turn clock runs out, the save stops with one clear message on every screen, and every
machine ends on the same state. Bounded to about half a minute.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import pytest

from game.cpu_worker import SyncCpu
from game.table import SeatSpec, Table
from net.client import CONNECTED
from net.host import HostThread
from tests.net_bots import Bot, fast_clock, host_bot, join, run_until
from tests.test_table_savefile import tiny_tmpfs


class Walker(Bot):
    """A person who is connected and never taps Ready, never plays."""

    def must_ready(self) -> bool:
        return False


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="mounting needs root")
def test_pause_and_walk_away_and_a_full_disk_never_stop_the_table(tmp_path: Path) -> None:
    with tiny_tmpfs(tmp_path / "disk") as disk:
        save = disk / "t.jsonl"
        # Table time runs 50 times real time: the clocks' shortest settings (10 s of table
        # time) pass in a fifth of a second.
        table = Table.create("layout", {"seats": 4, "layout_size": 4}, 77,
                             [SeatSpec("person", "Hostess")] +
                             [SeatSpec("cpu", level="easy") for _ in range(3)],
                             clock=fast_clock(50.0), speed="blitz", save_path=save,
                             host_seat=0, cpu=SyncCpu(), fsync=False,
                             turn_clock=10.0, pause_limit=10.0)
        ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None,
                        tick_interval=0.005).start()
        bots: list[Any] = []
        try:
            host = host_bot(ht)
            ann = join(ht.link, "Ann")
            walker = Walker(join(ht.link, "Walt").c, auto_play=False)
            bots = [host, ann, walker]
            run_until(bots, lambda: walker.seat is not None and len(
                [s for s in walker.seats if s["kind"] == "person"]) == 3, what="three seated")
            # fill the disk: the save can still grow inside the page it has, then no more
            fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
            with contextlib.suppress(OSError):
                for _ in range(80):
                    os.write(fd, b"x" * 1024)
            os.close(fd)
            walker.c.ready()  # ready once, for the start
            run_until(bots, lambda: ann.phase == "lobby" and not any(
                r["reason"] == "ready" and walker.seat in r.get("seats", ())
                for r in ann.pause), what="Walt ready in the lobby")
            # (under a loaded machine the host's own link may be catching up: a person would
            # press Start once it is back; the table must not care)
            run_until(bots, lambda: host.c.status.state == CONNECTED, timeout=20,
                      what="the host connected")
            assert host.c.send({"t": "start"}), host.c.status
            run_until(bots, lambda: ann.phase == "playing" and not ann.pause, timeout=20,
                      what="the game under way")
            assert walker.c.pause()  # ... and walks away: never Ready again, never plays
            run_until(bots, lambda: any(r["reason"] == "paused" for r in ann.pause),
                      what="everyone sees the pause")
            t0 = time.monotonic()
            run_until(bots, lambda: ann.outcome is not None and host.outcome is not None,
                      timeout=40, what="the game to its end")
            assert time.monotonic() - t0 < 40
            run_until(bots, lambda: walker.outcome is not None, timeout=5,
                      what="the walker's screen at the end too")
            # the same end on every screen, and the save stopped with one message for all
            assert ann.state_no == host.state_no == walker.state_no == table.state_no
            assert table.save_error is not None and "No space left" in table.save_error
            last = [m for m in ann.log if m["t"] in ("table", "snapshot")][-1]
            assert last["save_error"] == table.save_error
            # the walker's turns were played for them, and the summary said so
            assert walker.seat is not None
            info = table.seat_info(walker.seat)
            assert info["kind"] == "person" and info["timeouts"] >= 1
            assert table.standin_plays >= 1
        finally:
            for b in bots:
                b.c.close()
            ht.stop()
            table.close()
        with contextlib.suppress(OSError):
            os.unlink(disk / "filler")
        again = Table.resume(save, clock=time.monotonic, cpu=SyncCpu())  # the last good play
        assert again.log and again.log == table.log[: len(again.log)]
        again.close()
