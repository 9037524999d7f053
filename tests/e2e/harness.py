"""The end-to-end harness: virtual screens, the real game in a network namespace, input by
xdotool, and screenshots of the X screens.

* :func:`ensure_tools` makes sure Xvfb, xdotool and ip are there (``apt-get install`` when one
  is missing) and fails the test with a clear message when they cannot be had.
* :class:`Xvfb` starts a virtual X screen (a free display number chosen by the server itself,
  ``-displayfd``); :func:`screenshot` grabs the whole screen through libX11 (``XGetImage`` by
  ctypes: what the person would see) and writes a PNG with pygame.
* :class:`Machine` is one "computer": a display plus the real ``python main.py`` running
  inside a network namespace. Its window is driven only through X input (``xdotool
  key``/``type``/``click``); its state is read from the client's own end-to-end hook
  (``TEE_TABLE_E2E_DIR``: ``status.json``, see :mod:`game.client.e2e`), written every 20 ms
  here (``TEE_TABLE_E2E_INTERVAL``).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAIN = ROOT / "main.py"
SCREEN = (1280, 720)
TOOLS = {"Xvfb": "xvfb", "xdotool": "xdotool", "ip": "iproute2"}


class StepFailed(AssertionError):
    """A step of the scenario did not happen in time (the message names the step)."""


# ------------------------------------------------------------------------------ tools
def missing_tools() -> list[str]:
    return [cmd for cmd in TOOLS if shutil.which(cmd) is None]


def ensure_tools() -> None:
    """Install Xvfb, xdotool and iproute2 with apt-get when missing; fail clearly otherwise."""
    missing = missing_tools()
    if not missing:
        return
    packages = sorted({TOOLS[c] for c in missing})
    log = ""
    if shutil.which("apt-get") is None:
        log = "apt-get is not available on this machine"
    elif hasattr(os, "geteuid") and os.geteuid() != 0:
        log = "installing needs root (apt-get install)"
    else:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in (["apt-get", "install", "-y", "--no-install-recommends", *packages],
                    ["apt-get", "update"],
                    ["apt-get", "install", "-y", "--no-install-recommends", *packages]):
            if not missing_tools():
                break
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
            log = (r.stdout + r.stderr)[-800:]
    still = missing_tools()
    if still:
        pytest.fail(f"end-to-end test: needs {', '.join(still)} (packages "
                    f"{', '.join(sorted({TOOLS[c] for c in still}))}) and could not install "
                    f"them: {log.strip()}", pytrace=False)


# ------------------------------------------------------------------------------ X screens
class Xvfb:
    """A virtual X screen of :data:`SCREEN` size; ``display`` is like ``":91"``."""

    def __init__(self, size: tuple[int, int] = SCREEN) -> None:
        self.size = size
        self.proc: subprocess.Popen[bytes] | None = None
        self.display = ""

    def start(self, timeout: float = 15.0) -> Xvfb:
        r, w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                ["Xvfb", "-displayfd", str(w), "-screen", "0",
                 f"{self.size[0]}x{self.size[1]}x24", "-nolisten", "tcp", "-noreset"],
                pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        finally:
            os.close(w)
        deadline = time.monotonic() + timeout
        buf = b""
        os.set_blocking(r, False)
        try:
            while time.monotonic() < deadline and not buf.endswith(b"\n"):
                if self.proc.poll() is not None:
                    err = self.proc.stderr.read().decode(errors="replace") if \
                        self.proc.stderr else ""
                    raise StepFailed(f"Xvfb could not start a virtual screen: {err[-500:]}")
                try:
                    chunk = os.read(r, 64)
                except BlockingIOError:
                    time.sleep(0.02)
                    continue
                if not chunk:
                    time.sleep(0.02)
                buf += chunk
        finally:
            os.close(r)
        if not buf.strip().isdigit():
            self.stop()
            raise StepFailed(f"Xvfb did not report its display within {timeout:.0f} s")
        self.display = f":{int(buf.strip())}"
        sock = Path(f"/tmp/.X11-unix/X{int(buf.strip())}")
        if not sock.exists():
            self.stop()
            raise StepFailed(f"Xvfb {self.display} has no unix socket at {sock}: the game in a "
                             "network namespace reaches the screen only through it")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()
        self.proc = None


class _XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.POINTER(ctypes.c_ubyte)),
                ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
                ("bits_per_pixel", ctypes.c_int), ("red_mask", ctypes.c_ulong),
                ("green_mask", ctypes.c_ulong), ("blue_mask", ctypes.c_ulong)]


_X11: Any = None


def _libx11() -> Any:
    global _X11
    if _X11 is None:
        name = ctypes.util.find_library("X11") or "libX11.so.6"
        lib = ctypes.CDLL(name)
        lib.XOpenDisplay.restype = ctypes.c_void_p
        lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        lib.XDefaultRootWindow.restype = ctypes.c_ulong
        lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        lib.XGetImage.restype = ctypes.POINTER(_XImage)
        lib.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                  ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        lib.XDestroyImage.argtypes = [ctypes.POINTER(_XImage)]
        lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
        _X11 = lib
    return _X11


def screenshot(display: str, path: Path, size: tuple[int, int] = SCREEN) -> Path:
    """Save the whole X screen ``display`` as a PNG at ``path`` (what a person would see)."""
    import pygame

    x = _libx11()
    dpy = x.XOpenDisplay(display.encode())
    if not dpy:
        raise StepFailed(f"cannot open X display {display} for a screenshot")
    try:
        root = x.XDefaultRootWindow(dpy)
        img = x.XGetImage(dpy, root, 0, 0, size[0], size[1], 0xFFFFFFFF, 2)  # ZPixmap
        if not img:
            raise StepFailed(f"XGetImage failed on {display}")
        try:
            im = img.contents
            if im.bits_per_pixel != 32:
                raise StepFailed(f"unexpected {im.bits_per_pixel} bits per pixel on {display}")
            raw = ctypes.string_at(im.data, im.bytes_per_line * im.height)
            w, h, stride = im.width, im.height, im.bytes_per_line
        finally:
            x.XDestroyImage(img)
    finally:
        x.XCloseDisplay(dpy)
    if stride != w * 4:
        raw = b"".join(raw[i * stride:i * stride + w * 4] for i in range(h))
    surf = pygame.image.frombuffer(raw, (w, h), "BGRA")
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))
    return path


# ------------------------------------------------------------------------------ one machine
class Machine:
    """One "computer": an X screen and the real game running in network namespace ``ns``."""

    def __init__(self, label: str, lan: Any, key: str, xvfb: Xvfb, workdir: Path,
                 shots: Path) -> None:
        self.label = label  # "A" or "B" (for messages and file names)
        self.lan = lan
        self.ns_key = key  # "a" or "b" in the NetnsPair
        self.xvfb = xvfb
        self.data = workdir / f"data_{label}"
        self.obs = workdir / f"obs_{label}"
        self.shots = shots
        self.proc: subprocess.Popen[str] | None = None
        self.window: str | None = None
        self._focused: str | None = None
        self.logs: list[Path] = []
        self.launches = 0
        self.data.mkdir(parents=True, exist_ok=True)
        self.obs.mkdir(parents=True, exist_ok=True)

    @property
    def display(self) -> str:
        return self.xvfb.display

    def env(self) -> dict[str, str]:
        return {"DISPLAY": self.display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy",
                "PYGAME_HIDE_SUPPORT_PROMPT": "1", "TEE_TABLE_E2E_DIR": str(self.obs),
                "TEE_TABLE_E2E_INTERVAL": "0.02",
                "PYTHONUNBUFFERED": "1", "HOME": str(self.data),
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
                "PYTHONPATH": str(ROOT)}

    def launch(self, *args: str) -> None:
        """Start ``main.py --data DIR ARGS`` in this machine's namespace, and wait for its
        window."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        for name in ("status.json",):
            with contextlib.suppress(FileNotFoundError):
                (self.obs / name).unlink()
        self.launches += 1
        log = self.obs / f"game_{self.launches}.log"
        self.logs.append(log)
        env_args = [f"{k}={v}" for k, v in self.env().items()]
        argv = ["env", "-i", *env_args, sys.executable, str(MAIN), "--data", str(self.data),
                *args]
        fh = open(log, "w")  # noqa: SIM115 - closed when the process is reaped
        self.proc = self.lan.popen(self.ns_key, argv, stdout=fh, stderr=subprocess.STDOUT,
                                   cwd=str(ROOT), start_new_session=True)
        fh.close()
        self.window = None
        self.wait(lambda s: bool(s.get("scenes")), 30, "the game window opens and draws")
        self.window = self.find_window()

    def find_window(self, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            # the only top-level window on this screen is the game's (no window manager;
            # SDL sets the title as _NET_WM_NAME, which ``--name`` does not always match)
            r = self.xdo("search", "--onlyvisible", "--class", ".", check=False)
            ids = r.stdout.split()
            if ids:
                return ids[-1]
            time.sleep(0.1)
        raise StepFailed(f"machine {self.label}: no game window on {self.display}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Kill the game process outright (SIGKILL, like pulling the plug)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        self.window = None

    def log_tail(self, n: int = 1500) -> str:
        if not self.logs:
            return ""
        with contextlib.suppress(OSError):
            return self.logs[-1].read_text(errors="replace")[-n:]
        return ""

    # ---------------------------------------------------------------- state
    def state(self) -> dict[str, Any]:
        """The client's ``status.json`` with ``scenes`` holding each scene's details (its
        ``stack``: buttons, widgets, session ...); the scene names are in ``scene_names``."""
        h = self.hook()
        if not h or "stack" not in h:
            return {}
        return {**h, "scene_names": h.get("scenes"), "scenes": h["stack"]}

    def hook(self) -> dict[str, Any]:
        """The client's own end-to-end report (``game/client/e2e.py``: ``status.json``) as
        written."""
        try:
            return json.loads((self.obs / "status.json").read_text())
        except (OSError, ValueError):
            return {}

    def wait_hook(self, pred: Callable[[dict[str, Any]], Any], timeout: float,
                  what: str) -> dict[str, Any]:
        """Like :meth:`wait`, on the client's own ``status.json``."""
        return self.wait(pred, timeout, f"{what} (the client's own status.json)",
                         read=self.hook)

    def wait(self, pred: Callable[[dict[str, Any]], Any], timeout: float, what: str,
             poll: float = 0.02, read: Callable[[], dict[str, Any]] | None = None
             ) -> dict[str, Any]:
        """Poll the state until ``pred(state)`` is true; fail naming ``what`` after
        ``timeout`` seconds (or at once when the game process has died)."""
        deadline = time.monotonic() + timeout
        s: dict[str, Any] = {}
        while True:
            s = (read or self.state)()
            if s:
                try:
                    if pred(s):
                        return s
                except (KeyError, IndexError, TypeError):
                    pass
            if self.proc is not None and self.proc.poll() is not None:
                raise StepFailed(f"machine {self.label}: the game exited (status "
                                 f"{self.proc.returncode}) while waiting for: {what}\n"
                                 f"{self.log_tail()}")
            if time.monotonic() > deadline:
                shown = summary(s) if read is None else json.dumps(s)[:1500]
                raise StepFailed(f"machine {self.label}: timed out after {timeout:.0f} s "
                                 f"waiting for: {what}\nlast state: {shown}\n"
                                 f"log: {self.log_tail(600)}")
            time.sleep(poll)

    # ---------------------------------------------------------------- input (X events)
    def xdo(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        r = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=20,
                           env={**os.environ, "DISPLAY": self.display})
        if check and r.returncode != 0:
            raise StepFailed(f"machine {self.label}: xdotool {' '.join(args)} failed: "
                             f"{r.stderr.strip()}")
        return r

    def _focus(self) -> None:
        """Give the game's window the keyboard focus (once per window: with no window manager
        nothing else takes it away)."""
        if self.window is None:
            self.window = self.find_window()
            self._focused = None
        if self._focused != self.window:
            self.xdo("windowfocus", "--sync", self.window, check=False)
            self._focused = self.window

    def key(self, *keys: str) -> None:
        """Press keys (xdotool key names: ``h``, ``Return``, ``Right``, ``Escape``)."""
        self._focus()
        self.xdo("key", "--delay", "30", *keys)

    def type(self, text: str) -> None:
        self._focus()
        self.xdo("type", "--delay", "40", text)

    def click(self, x: int, y: int) -> None:
        """A left click at window coordinates (x, y)."""
        self._focus()
        assert self.window is not None
        self.xdo("mousemove", "--window", self.window, str(x), str(y), "click", "1")

    def click_rect(self, rect: Sequence[int]) -> None:
        x, y, w, h = rect
        self.click(x + w // 2, y + h // 2)

    # ---------------------------------------------------------------- screenshots
    def shot(self, name: str) -> Path:
        """Screenshot of this machine's whole X screen: ``<shots>/<name>_<label>.png``."""
        return screenshot(self.display, self.shots / f"{name}_{self.label}.png")


# ------------------------------------------------------------------------------ reading state
RANK_TEXT = "?A23456789TJQK"


def rank_text(card: int) -> str:
    """A card's rank as play tokens write it (``JK``, ``A``, ``2``.. ``T``, ``J``, ``Q``,
    ``K``): cards are ``rank * 4 + suit``, the joker 0."""
    return "JK" if card == 0 else RANK_TEXT[card >> 2]


def top(s: dict[str, Any]) -> dict[str, Any]:
    return s["scenes"][-1] if s.get("scenes") else {}


def table_scene(s: dict[str, Any]) -> dict[str, Any]:
    """The scene holding the session (the table under an ADMIN overlay, or the lobby)."""
    for sc in reversed(s.get("scenes", [])):
        if "session" in sc and sc["name"] != "admin":
            return sc
    return {}


def session(s: dict[str, Any]) -> dict[str, Any]:
    return table_scene(s).get("session", {})


def public(s: dict[str, Any]) -> dict[str, Any]:
    return session(s).get("public", {})


def summary(s: dict[str, Any]) -> str:
    """A short text of a state for failure messages."""
    if not s:
        return "(no state reported yet)"
    names = [sc.get("name") for sc in s.get("scenes", [])]
    pub = public(s)
    ses = session(s)
    bits = [f"scenes={names}"]
    if pub:
        bits.append(f"phase={pub.get('phase')} state_no={pub.get('state_no')} "
                    f"speed={pub.get('speed')} pause={pub.get('pause')}")
        bits.append("seats=" + ", ".join(
            f"{x.get('seat')}:{x.get('kind')}:{x.get('name')}:"
            f"{'up' if x.get('connected') else 'down'}" for x in pub.get("seats") or []))
        bits.append(f"status={ses.get('status')} my_seats={ses.get('my_seats')} "
                    f"turn={ses.get('view', {}).get('turn')}")
    sc = top(s)
    for k in ("error", "message", "status"):
        if sc.get(k):
            bits.append(f"{k}={sc[k]!r}")
    return "; ".join(bits)
