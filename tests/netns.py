"""Two network namespaces joined by a veth pair: two "machines" on a private LAN for tests.

    with NetnsPair() as lan:
        host = lan.popen("a", [sys.executable, "-c", HOST_CODE])
        out = lan.run("b", [sys.executable, "-c", JOIN_CODE], timeout=20)

Machine ``a`` has address ``10.213.7.1/24``, machine ``b`` ``10.213.7.2/24``; the subnet exists
only inside the two namespaces (there is no route out of them and nothing in the root namespace
is touched except the two namespace names), so no test traffic ever reaches a real network.
Everything is torn down on exit, also when the body fails: processes started with ``popen``
are killed, then both namespaces are deleted (which destroys the veth pair).

:func:`unavailable` returns the reason namespaces cannot be made here (not root, no ``ip``,
``ip netns add`` refused), or ``None``; tests skip with that reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import uuid
from collections.abc import Sequence
from typing import Any

SUBNET = "10.213.7"
PREFIX = 24


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=20)


_probe_result: str | bool | None = False


def unavailable() -> str | None:
    """Why this machine cannot create network namespaces, or None if it can."""
    global _probe_result
    if _probe_result is not False:
        return _probe_result  # type: ignore[return-value]
    reason: str | None = None
    if shutil.which("ip") is None:
        reason = "the 'ip' command (iproute2) is not installed"
    elif hasattr(os, "geteuid") and os.geteuid() != 0:
        reason = "network namespace tests need root (ip netns add)"
    else:
        name = f"ttprobe{uuid.uuid4().hex[:8]}"
        try:
            r = _ip("netns", "add", name, check=False)
            if r.returncode != 0:
                reason = f"'ip netns add' is not permitted here: {r.stderr.strip()}"
        finally:
            _ip("netns", "del", name, check=False)
    _probe_result = reason
    return reason


class NetnsPair:
    """Context manager: namespaces ``a`` and ``b`` joined by a veth pair."""

    def __init__(self, subnet: str = SUBNET) -> None:
        tag = uuid.uuid4().hex[:6]
        self.ns = {"a": f"tt{tag}a", "b": f"tt{tag}b"}
        self.dev = {"a": f"tt{tag}va", "b": f"tt{tag}vb"}
        self.addr = {"a": f"{subnet}.1", "b": f"{subnet}.2"}
        self.broadcast = f"{subnet}.255"
        self._procs: list[subprocess.Popen[Any]] = []
        self._made: list[str] = []

    # setup / teardown -----------------------------------------------------------------------

    def __enter__(self) -> NetnsPair:
        try:
            for key in ("a", "b"):
                _ip("netns", "add", self.ns[key])
                self._made.append(self.ns[key])
            # The veth ends are created straight inside the namespaces.
            _ip("link", "add", "name", self.dev["a"], "netns", self.ns["a"], "type", "veth",
                "peer", "name", self.dev["b"], "netns", self.ns["b"])
            for key in ("a", "b"):
                ns, dev = self.ns[key], self.dev[key]
                _ip("-n", ns, "link", "set", "lo", "up")
                _ip("-n", ns, "addr", "add", f"{self.addr[key]}/{PREFIX}", "brd", "+",
                    "dev", dev)
                _ip("-n", ns, "link", "set", dev, "up")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for p in self._procs:
            if p.poll() is None:
                p.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=10)
        self._procs.clear()
        for ns in reversed(self._made):
            _ip("netns", "del", ns, check=False)
        self._made.clear()

    # running commands -----------------------------------------------------------------------

    def _argv(self, key: str, argv: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", self.ns[key], *argv]

    def run(self, key: str, argv: Sequence[str], **kw: Any) -> subprocess.CompletedProcess[Any]:
        """Run ``argv`` inside machine ``key`` ("a" or "b") and wait for it."""
        kw.setdefault("capture_output", True)
        kw.setdefault("text", True)
        kw.setdefault("timeout", 60)
        return subprocess.run(self._argv(key, argv), **kw)

    def popen(self, key: str, argv: Sequence[str], **kw: Any) -> subprocess.Popen[Any]:
        """Start ``argv`` inside machine ``key``; it is killed when the pair is torn down."""
        kw.setdefault("stdout", subprocess.PIPE)
        kw.setdefault("stderr", subprocess.PIPE)
        kw.setdefault("text", True)
        p = subprocess.Popen(self._argv(key, argv), **kw)
        self._procs.append(p)
        return p

    def exists(self) -> bool:
        out = _ip("netns", "list", check=False).stdout
        return any(ns in out for ns in self.ns.values())
