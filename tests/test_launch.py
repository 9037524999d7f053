"""main.py: bad arguments fail fast with one clear line; the window opens and closes cleanly."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def run_main(*args: str, data: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--data", str(data), *args],
        capture_output=True, text=True, env=ENV, timeout=120,
    )


def test_window_opens_draws_and_closes(tmp_path: pathlib.Path) -> None:
    r = run_main("--frames", "5", "--size", "800x600", data=tmp_path)
    assert r.returncode == 0, r.stderr


def test_bad_size_is_refused_before_any_window(tmp_path: pathlib.Path) -> None:
    r = run_main("--size", "huge", data=tmp_path)
    assert r.returncode == 2
    assert "--size wants WIDTHxHEIGHT" in r.stderr.strip().splitlines()[-1]


def test_bad_join_link_is_refused(tmp_path: pathlib.Path) -> None:
    r = run_main("--join", "ftp://nowhere", data=tmp_path)
    assert r.returncode == 2
    assert "--join" in r.stderr.strip().splitlines()[-1]


def test_headless_needs_host(tmp_path: pathlib.Path) -> None:
    r = run_main("--headless", data=tmp_path)
    assert r.returncode == 2
    assert "--headless goes with --host" in r.stderr
