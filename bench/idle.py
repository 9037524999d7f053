"""Idle cost of the real client in a real window (under Xvfb), by screen (run by hand).

    python bench/idle.py [--seconds 10] [--size 1280x720] [--env KEY=VALUE ...]

Each screen runs in a fresh client process (the real :meth:`game.client.app.App.run` loop, in
a window): the title, a local lobby (``Play``), a track table waiting for the person's move
(CPUs at the table, no card picked yet), an 8-seat table whose 40 pegs walk without end, and
``table_picked``: the waiting table with a card picked (its pegs pulse at
:data:`game.client.table_base.PULSE_FPS` frames a second for
:data:`game.client.app.PULSE_SECONDS`, then hold still). This process reads the child's CPU
time from ``/proc/PID/stat`` over ``--seconds`` (after a second of settling) and prints one
line per screen::

    idle screen=<title|lobby|table_waiting|table_animating|table_picked> cpu_pct=<a> \
        fps=<b> cpu_ms_per_frame=<c> rss_mb=<d>

``fps`` counts the frames the client really drew and flipped (``App.draws``). Then::

    startup first_frame_s=<c> rss_mb=<d>

(the best of three launches to the first frame, via the app's ``TEE_TABLE_STARTUP`` hook;
``rss_mb`` is the highest peak resident size, ``VmHWM``, of any client process above; the
CPU worker is a process of its own, shown as ``worker_rss_mb`` when one ran).

Without ``$DISPLAY`` it starts ``Xvfb`` on a free display itself and stops it at the end; it
installs nothing: when Xvfb is missing it says so (``apt-get install xvfb``) and stops.
``--env`` passes settings to the clients, e.g. ``--env SDL_FRAMEBUFFER_ACCELERATION=1`` to
measure SDL's texture path instead of the one the client picks.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.client.app import App

ROOT = Path(__file__).resolve().parent.parent
SCREENS = ("title", "lobby", "table_waiting", "table_animating", "table_picked")
TICK = os.sysconf("SC_CLK_TCK")

# classic, 4 seats: Red (the person) to play; three CPUs wait for Red
WAITING = ("classic 4 teams2 jokers=on seven=on a:s,s,0,12,40 b:s,s,s,s,36 c:s,s,s,s,45 "
           "d:s,s,s,s,s turn=a hand=JK,5S,6D,7C,KC,2D cards=6,5,5,5 pile=141 discards=0")


def child(screen: str, seconds: float, size: tuple[int, int]) -> int:
    """Run in the client process: open ``screen``, print ``ready``, run the real loop for
    ``seconds`` (a timer posts the bench's end event), then print ``draws=<n> elapsed=<s>``."""
    sys.path.insert(0, str(ROOT))
    import pygame

    from game.client.app import App
    from game.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        app = App(size, fullscreen=False, store=Store(tmp))
        app.sound = lambda name: None  # type: ignore[method-assign]
        if screen == "lobby":
            problem = app.start_table({"game": "track", "rules": "classic", "seats": 4},
                                      "local", "normal")
            assert problem is None, problem
        elif screen in ("table_waiting", "table_animating", "table_picked"):
            open_table(app, screen)
        # settle for a second (first draws, caches, the worker starting)
        settle = time.monotonic() + 1.0
        while time.monotonic() < settle:
            app.frame(1 / 60)
            time.sleep(1 / 60)
        # the end: not QUIT (closing the window over a game in progress asks first), an event
        # of the bench's own that ends the loop as the app's Quit does
        end = pygame.event.custom_type()
        plain_handle = app.handle

        def handle(ev: pygame.event.Event) -> None:
            if ev.type == end:
                app.quit()
            else:
                plain_handle(ev)

        app.handle = handle  # type: ignore[method-assign]
        pygame.time.set_timer(pygame.event.Event(end), int(seconds * 1000), loops=1)
        if screen == "table_picked":
            # the person picks a card (key 1): its pegs pulse; pressed after the settling
            # second, as the table ignores keys in its first instant
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0,
                                                 unicode="1", scancode=0))
        d0, t0 = drawn(app), time.monotonic()
        print("ready", flush=True)
        app.run()
        elapsed = time.monotonic() - t0
        print(f"draws={drawn(app) - d0} elapsed={elapsed:.3f}", flush=True)
        app.close()
    pygame.quit()
    return 0


def drawn(app: App) -> int:
    """Frames drawn and flipped (``App.draws``; older apps drew every frame)."""
    return int(getattr(app, "draws", getattr(app, "frames", 0)))


def open_table(app: App, screen: str) -> None:
    from game.client.anim import Group, PegWalk
    from game.client.board import ring
    from game.client.session import LocalSession
    from game.client.table_scene import TrackTableScene
    from game.rules.track import RULES as TRACK
    from tests.client_testing import FixedStart

    if screen in ("table_waiting", "table_picked"):
        session = LocalSession("track", {"rules": "classic", "seats": 4}, speed="normal",
                               seed=3, cpu=app.make_cpu(), clock=app.table_clock,
                               rules=FixedStart(TRACK, WAITING))
        session.sit(0, "Bench")
        session.start()
        app.open_table(session)
        return
    places = [f"{'abcdefgh'[c]}:" + ",".join(str(18 * c + 8 + 2 * k) for k in range(5))
              for c in range(8)]
    text = ("classic 8 ffa jokers=on seven=on " + " ".join(places) +
            " turn=a hand=2C,3C,4C,5C,6C,7C cards=6,5,5,5,5,5,5,5 pile=175 discards=0")
    session = LocalSession("track", {"rules": "classic", "seats": 8, "mode": "ffa"},
                           speed="normal", seed=7, cpu=app.make_cpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, text))
    session.sit(0, "Bench")
    session.start()
    scene = app.open_table(session)
    assert isinstance(scene, TrackTableScene)
    plain_update = scene.update

    def keep_walking(dt: float) -> None:  # the 40 pegs walk 12 holes, again and again
        if scene.timeline.idle:
            g = scene.geom
            assert g is not None
            walks = [PegWalk((c, i), [g.point(ring((int(loc) + k) % g.board.ring))
                                      for k in range(13)], 0.12)
                     for c, locs in enumerate(scene.view()["pegs"])
                     for i, loc in enumerate(locs)]
            scene.timeline.push(Group(walks))
        plain_update(dt)

    scene.update = keep_walking  # type: ignore[method-assign]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children_of(pid: int) -> list[int]:
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                ppid = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
                if ppid == pid:
                    out.append(int(p.name))
    return out


def measure(screen: str, seconds: float, size: str, env: dict[str, str]) -> dict[str, float]:
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--child", screen,
         "--seconds", str(seconds), "--size", size],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        _, err = proc.communicate(timeout=60)
        raise RuntimeError(f"the {screen} client did not start: {line}{err[-2000:]}")
    c0, t0 = cpu_seconds(proc.pid), time.monotonic()
    time.sleep(max(0.5, seconds - 0.3))
    c1, t1 = cpu_seconds(proc.pid), time.monotonic()
    rss = peak_mb(proc.pid)
    workers = [peak_mb(k) for k in children_of(proc.pid)]
    out, err = proc.communicate(timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"the {screen} client failed: {err[-2000:]}")
    stats = dict(kv.split("=") for kv in out.split()[-2:])
    fps = int(stats["draws"]) / float(stats["elapsed"])
    pct = 100 * (c1 - c0) / (t1 - t0)
    return {"cpu_pct": pct, "fps": fps, "rss_mb": rss,
            "worker_rss_mb": max(workers, default=0.0),
            "ms_per_frame": (10 * pct / fps) if fps > 0 else 0.0}


def startup(env: dict[str, str]) -> float:
    best = 99.0
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            e = {**env, "TEE_TABLE_STARTUP": repr(time.time()), "TEE_TABLE_DATA": tmp}
            out = subprocess.run(
                [sys.executable, "-c",
                 "import sys; from game.client.app import run; sys.exit(run(frames=1))"],
                cwd=ROOT, env=e, capture_output=True, text=True, check=True, timeout=60)
        line = next(ln for ln in out.stdout.splitlines() if ln.startswith("first_frame_s="))
        best = min(best, float(line.split("=")[1]))
    return best


def free_display() -> int:
    for n in range(99, 140):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RuntimeError("no free X display number between :99 and :139")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--screens", default=",".join(SCREENS))
    p.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--child", choices=SCREENS, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    w, h = (int(v) for v in args.size.split("x"))
    if args.child:
        return child(args.child, args.seconds, (w, h))
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER",)}
    env.update({"SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
                "TEE_TABLE_E2E": "off"})
    env["PYTHONPATH"] = str(ROOT)
    for kv in args.env:
        k, _, v = kv.partition("=")
        env[k] = v
    xvfb: subprocess.Popen[bytes] | None = None
    if not env.get("DISPLAY"):
        if shutil.which("Xvfb") is None:
            print("bench/idle.py needs a display: no $DISPLAY and no Xvfb "
                  "(install it: apt-get install xvfb)", file=sys.stderr)
            return 2
        n = free_display()
        xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", f"{max(w, 1280)}x"
                                 f"{max(h, 720)}x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        env["DISPLAY"] = f":{n}"
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{n}").exists():
                break
            time.sleep(0.05)
    try:
        peak = 0.0
        for screen in args.screens.split(","):
            r = measure(screen, args.seconds, args.size, env)
            peak = max(peak, r["rss_mb"])
            extra = f" worker_rss_mb={r['worker_rss_mb']:.0f}" if r["worker_rss_mb"] else ""
            print(f"idle screen={screen} cpu_pct={r['cpu_pct']:.1f} fps={r['fps']:.1f} "
                  f"cpu_ms_per_frame={r['ms_per_frame']:.2f} rss_mb={r['rss_mb']:.0f}{extra}",
                  flush=True)
        print(f"startup first_frame_s={startup(env):.3f} rss_mb={peak:.0f}", flush=True)
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
