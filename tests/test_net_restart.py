"""The headless host: killed mid-game (SIGKILL) and restarted from its save; everyone rejoins."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.table import Table
from net.client import CONNECTED
from tests.headless_host import ROOT, launch_headless
from tests.net_bots import Bot, join, run_until


def launch(args: list[str]) -> tuple[subprocess.Popen[str], dict[str, str]]:
    return launch_headless([sys.executable, "-m", "game.launch", "--host", "--headless", *args])


COMMON = ["--bind", "127.0.0.1", "--no-discovery", "--clock-scale", "30", "--sync-cpu",
          "--exit-when-over"]


def test_host_killed_and_restarted_from_save(tmp_path: Path) -> None:
    save = tmp_path / "table.jsonl"
    p1, info = launch(["--game", "layout", "--seats", "4", "--option", "layout_size=4",
                       "--speed", "blitz", "--cpu", "easy", "--port", "0", "--save", str(save),
                       "--autostart", "3", "--seed", "99", *COMMON])
    port, code = info["port"], info["code"]
    base, key, last = info["link"].rsplit("/", 2)
    assert base == f"teetable://127.0.0.1:{port}" and last == code
    assert len(key) == 20  # the table key's fingerprint
    bots: list[Bot] = []
    p2 = None
    try:
        for name in ("Ann", "Bob", "Cid"):
            bots.append(join(info["link"], name, give_up_after=60))
        run_until(bots, lambda: all(b.phase == "playing" for b in bots), what="autostart")
        table_id = bots[0].c.table["table_id"]
        tokens = [b.c.token for b in bots]
        run_until(bots, lambda: min(b.state_no for b in bots) >= 15, what="some plays")
        p1.kill()  # SIGKILL: no goodbye, nothing flushed but what the table fsync'd
        p1.wait(10)
        run_until(bots, lambda: all(b.c.status.state != CONNECTED for b in bots),
                  what="everyone dropped")
        at_kill = max(b.state_no for b in bots)

        p2, info2 = launch(["--resume", str(save), "--port", port, "--code", code, *COMMON])
        assert info2["code"] == code and info2["port"] == port
        assert info2["link"] == info["link"]  # the same table key: kept beside the save
        assert (tmp_path / "table.jsonl.hostkey").exists()
        run_until(bots, lambda: all(b.c.status.state == CONNECTED and b.c.connects == 2
                                    and b.snapshots == 2 for b in bots), timeout=30,
                  what="everyone rejoined")
        assert [b.c.token for b in bots] == tokens
        assert all(b.c.table["table_id"] == table_id for b in bots)
        # Caught up at once: the rejoin snapshot is at least where the old host had got to.
        for b in bots:
            snaps = [m for m in b.log if m["t"] == "snapshot"]
            assert snaps[-1]["state_no"] >= at_kill - 1
        run_until(bots, lambda: all(b.outcome is not None and b.phase == "over" for b in bots),
                  timeout=60, what="game over after restart")
        outcome = bots[0].outcome
        assert all(b.outcome == outcome for b in bots)
        p2.wait(20)
        assert p2.returncode == 0
        # The save file is the truth: replayed offline, it ends the same way.
        t = Table.resume(save, clock=time.monotonic)
        assert t.phase == "over" and t.outcome() == outcome
        assert t.state_no == bots[0].state_no
        t.close()
    finally:
        for b in bots:
            b.c.close()
        for p in (p1, p2):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(10)


def test_headless_refuses_bad_arguments_clearly(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "game.launch", "--host", "--headless", "--game",
                        "track", "--rules", "classic", "--seats", "99", "--port", "0",
                        "--bind", "127.0.0.1", "--no-discovery", "--save",
                        str(tmp_path / "x.jsonl"), "--sync-cpu"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "cannot host" in r.stderr and "seat" in r.stderr.lower()
    r = subprocess.run([sys.executable, "-m", "game.launch", "--host", "--headless", "--resume",
                        str(tmp_path / "missing.jsonl"), "--port", "0", "--bind", "127.0.0.1",
                        "--no-discovery", "--sync-cpu"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "cannot host" in r.stderr


def test_cli_argument_helpers() -> None:
    import argparse

    from game.launch import options as cli

    p = argparse.ArgumentParser()
    cli.add_arguments(p)
    a = p.parse_args(["--host", "--headless", "--game", "layout", "--seats", "3",
                      "--option", "layout_size=5", "--option", "wild=K"])
    assert cli.game_config(a) == {"seats": 3, "layout_size": 5, "wild": "K"}
    a = p.parse_args(["--game", "track", "--rules", "team", "--seats", "6"])
    assert cli.game_config(a) == {"seats": 6, "rules": "team"}
    with pytest.raises(cli.CliError, match="KEY=VALUE"):
        cli.game_config(p.parse_args(["--option", "oops"]))
    assert cli.check_join("teetable://10.0.0.2:47800/KQXF") is None
    assert "never use" in (cli.check_join("KQ0F") or "")


def test_sigterm_says_bye_and_exits_cleanly(tmp_path: Path) -> None:
    import signal

    p, info = launch(["--game", "layout", "--seats", "3", "--port", "0", "--autostart", "0",
                      "--save", str(tmp_path / "s.jsonl"), *COMMON])
    b = join(info["link"], "Ann")
    try:
        run_until([b], lambda: b.seat is not None, what="seated")
        p.send_signal(signal.SIGTERM)
        assert p.wait(20) == 0
        run_until([b], lambda: any(m["t"] == "bye" for m in b.log), what="bye")
        assert next(m for m in b.log if m["t"] == "bye")["reason"] == "host_closing"
        run_until([b], lambda: b.c.status.state == "dropped", what="client rejoining")
    finally:
        b.c.close()
        if p.poll() is None:
            p.kill()
            p.wait(10)
