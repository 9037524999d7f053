"""Frame-time benchmark of the client under SDL's dummy video driver (run by hand).

    python bench/render.py [--frames N] [--size WxH]

Prints one line per scene::

    render <scene> frame_p50_ms=<a> p95_ms=<b>

``track8_all_pegs`` is the 8-player track table with all 40 pegs walking at once (the issue's
target: p95 under 8 ms at 1280x720); ``layout8`` the 8-player Trash table with CPUs playing
(cards flying); ``track4`` a 4-player table in play with CPUs; ``track4_hint_thinking``
the person's turn with H asked again as soon as each hint arrives, frames paced at 60 a
second (the hint's search runs in its worker process: the frame must not wait for it);
``track4_waiting_idle_turn`` that table while nothing moves, as the run loop turns it
(``frame(redraw=False)``: the table ticked, nothing drawn; ``drawn`` counts frames drawn);
``title`` and ``rules`` menu screens. Then the start-up time: from a new Python process to the first
drawn frame of the client (``startup first_frame_s=<s>``; target under 1.5 s), and the whole
``python main.py --frames 1`` run for comparison.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from game.client import screens  # noqa: E402
from game.client.anim import Group, PegWalk  # noqa: E402
from game.client.app import App  # noqa: E402
from game.client.board import ring  # noqa: E402
from game.client.session import LocalSession  # noqa: E402
from game.client.table_scene import TrackTableScene  # noqa: E402
from game.cpu_worker import SyncCpu  # noqa: E402
from game.rules.track import RULES as TRACK  # noqa: E402
from game.store import Store  # noqa: E402
from tests.client_testing import FixedStart  # noqa: E402

CPU_P95: list[float] = []


def measure(app: App, frames: int, dt: float = 1 / 60, setup=None,
            redraw: bool = True) -> tuple[float, float]:
    """Wall-clock p50 and p95 of ``frames`` frames; the p95 of the process's own CPU time
    per frame (not inflated by other programs on a busy machine) goes to ``CPU_P95``."""
    times = []
    cpu = []
    for i in range(frames):
        if setup is not None:
            setup(i)
        t0 = time.perf_counter()
        c0 = time.process_time()
        app.frame(dt, redraw=redraw)
        cpu.append((time.process_time() - c0) * 1000)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    cpu.sort()
    CPU_P95.append(cpu[int(len(cpu) * 0.95) - 1])
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def eight_seat_table(app: App) -> TrackTableScene:
    # every peg on the track, spread round the ring
    places = []
    for c in range(8):
        holes = [str(18 * c + 8 + 2 * k) for k in range(5)]
        places.append(f"{'abcdefgh'[c]}:" + ",".join(holes))
    text = ("classic 8 ffa jokers=on seven=on " + " ".join(places) +
            " turn=a hand=2C,3C,4C,5C,6C,7C cards=6,5,5,5,5,5,5,5 pile=175 discards=0")
    session = LocalSession("track", {"rules": "classic", "seats": 8, "mode": "ffa"},
                           speed="normal", seed=7, cpu=SyncCpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, text))
    session.sit(0, "Bench")
    session.start()
    scene = TrackTableScene(app, session)
    app.push(scene)
    return scene


def all_pegs_walking(scene: TrackTableScene) -> None:
    g = scene.geom
    assert g is not None
    walks = []
    for c, locs in enumerate(scene.view()["pegs"]):
        for i, loc in enumerate(locs):
            path = [g.point(ring((int(loc) + k) % g.board.ring)) for k in range(0, 13)]
            walks.append(PegWalk((c, i), path, 0.12))
    scene.timeline.push(Group(walks))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=600)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--no-startup", action="store_true")
    args = p.parse_args(argv)
    w, h = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        app = App((w, h), fullscreen=False, store=Store(tmp))
        app.virtual_time = 0.0
        app.sound = lambda name: None  # type: ignore[method-assign]

        a, b = measure(app, args.frames)
        print(f"render title frame_p50_ms={a:.2f} p95_ms={b:.2f} "
              f"cpu_p95_ms={CPU_P95[-1]:.2f}")
        app.push(screens.RulesScene(app))
        a, b = measure(app, args.frames)
        print(f"render rules frame_p50_ms={a:.2f} p95_ms={b:.2f} "
              f"cpu_p95_ms={CPU_P95[-1]:.2f}")
        app.pop()

        scene = eight_seat_table(app)

        def keep_walking(_i: int) -> None:
            if scene.timeline.idle:
                all_pegs_walking(scene)

        measure(app, 30, setup=keep_walking)  # warm the caches
        a, b = measure(app, args.frames, setup=keep_walking)
        print(f"render track8_all_pegs frame_p50_ms={a:.2f} p95_ms={b:.2f} "
              f"cpu_p95_ms={CPU_P95[-1]:.2f}")
        scene.session.close()
        app.pop()

        from game.client.layout_scene import LayoutTableScene

        lsession = LocalSession("layout", {"seats": 8}, speed="blitz", seed=5, cpu=SyncCpu(),
                                clock=app.table_clock)
        lsession.start()  # eight CPUs playing Trash
        app.push(LayoutTableScene(app, lsession))
        a, b = measure(app, args.frames, dt=0.05)
        print(f"render layout8 frame_p50_ms={a:.2f} p95_ms={b:.2f} "
              f"cpu_p95_ms={CPU_P95[-1]:.2f}")
        lsession.close()
        app.pop()

        session = LocalSession("track", {"rules": "classic", "seats": 4}, speed="blitz",
                               seed=3, cpu=SyncCpu(), clock=app.table_clock)
        session.start()  # four CPUs
        app.push(TrackTableScene(app, session))
        a, b = measure(app, args.frames, dt=0.05)
        print(f"render track4 frame_p50_ms={a:.2f} p95_ms={b:.2f} "
              f"cpu_p95_ms={CPU_P95[-1]:.2f}")
        session.close()
        app.pop()

        # H while the person's turn waits: the hint thinks in its worker process; frames go on
        hint_pos = ("classic 4 teams2 jokers=on seven=on a:s,s,0,12,40 b:s,s,s,s,36 "
                    "c:s,s,s,s,45 d:s,s,s,s,s turn=a hand=JK,5S,6D,7C,KC,2D cards=6,5,5,5 "
                    "pile=141 discards=0")
        hs = LocalSession("track", {"rules": "classic", "seats": 4}, speed="blitz", seed=3,
                          cpu=SyncCpu(), clock=app.table_clock,
                          rules=FixedStart(TRACK, hint_pos))
        hs.sit(0, "Bench")
        hs.start()
        hscene = TrackTableScene(app, hs)
        app.push(hscene)
        # the person's turn with nothing moving: the run loop's idle turn (the table ticked,
        # the session read, nothing drawn)
        measure(app, 30, redraw=False)
        drawn = app.draws
        a, b = measure(app, args.frames, redraw=False)
        print(f"render track4_waiting_idle_turn frame_p50_ms={a:.2f} p95_ms={b:.2f} "
              f"cpu_p95_ms={CPU_P95[-1]:.2f} drawn={app.draws - drawn}")
        app.hints().warm()
        answered = [0]

        def ask_again(_i: int) -> None:
            time.sleep(0.012)  # about 60 frames a second, like the real loop
            if hscene.hint_status() != "thinking":
                if hscene.hint is not None:
                    answered[0] += 1
                hscene.cancel_hint()
                hscene.show_hint()

        measure(app, 30, setup=ask_again)
        answered[0] = 0
        t0 = time.perf_counter()
        a, b = measure(app, args.frames, setup=ask_again)
        print(f"render track4_hint_thinking frame_p50_ms={a:.2f} p95_ms={b:.2f} "
              f"cpu_p95_ms={CPU_P95[-1]:.2f} hints_answered={answered[0]} in "
              f"{time.perf_counter() - t0:.1f}s")
        hs.close()
        app.close()
    pygame.quit()
    if not args.no_startup:
        startup()
    return 0


def startup() -> None:
    env = dict(os.environ)
    runs = []
    for _ in range(3):
        env["TEE_TABLE_STARTUP"] = repr(time.time())
        with tempfile.TemporaryDirectory() as tmp:
            env["TEE_TABLE_DATA"] = tmp
            out = subprocess.run(
                [sys.executable, "-c",
                 "import sys; from game.client.app import run; sys.exit(run(frames=1))"],
                cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        line = next(ln for ln in out.stdout.splitlines() if ln.startswith("first_frame_s="))
        runs.append(float(line.split("=")[1]))
    print(f"startup first_frame_s={min(runs):.3f} (best of 3; worst {max(runs):.3f})")
    t0 = time.time()
    subprocess.run([sys.executable, "main.py", "--frames", "1"], cwd=ROOT, env=env,
                   capture_output=True, check=True)
    print(f"startup main_py_frames1_total_s={time.time() - t0:.3f} (whole process, "
          "launcher as it is now)")


if __name__ == "__main__":
    sys.exit(main())
