"""Start a headless host in a subprocess and read its ``key: value`` lines up to ``ready``."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def launch_headless(cmd: list[str], env: dict[str, str] | None = None
                    ) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """Run ``cmd`` (a headless host) in the repo root; return it and what it printed before
    ``ready`` (``port``, ``code``, ``link``, ``save``...). Fails if it ends or takes 30 s."""
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    info: dict[str, str] = {}
    assert p.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            err = p.stderr.read() if p.stderr else ""
            raise AssertionError(f"headless host ended early: {err}")
        line = line.strip()
        if line == "ready":
            return p, info
        k, _, v = line.partition(": ")
        info[k] = v
    p.kill()
    raise AssertionError("headless host did not get ready")
