"""Table benchmarks (run by hand): ``python bench/table_play.py``.

Prints, for whole CPU games of each engine on a fake clock:
* the table's cost per play (tick: view, legal plays, CPU job, checks, apply, outbox) against
  the bare engine (apply alone, replaying the same log);
* the cost of a save file with and without fsync per play, and of resuming a finished save;
* the round trip of the worker-process CPU runner (``ProcessCpu``) per play.
The CPUs are a seeded random legal play (the figures measure the table, not the CPU).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from game.cpu_worker import CpuJob, ProcessCpu
from game.rules.cards import Rng
from game.table import Table


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class _RandomCpu:
    def __init__(self) -> None:
        self._a: dict[Any, str] = {}

    def request(self, key: Any, job: CpuJob) -> None:
        self._a[key] = Rng(job.seed).choice(list(job.legal))

    def poll(self, key: Any) -> str | None:
        return self._a.pop(key)

    def cancel(self, key: Any) -> None:
        self._a.pop(key, None)

    def close(self) -> None:
        pass


def _run(game: str, config: dict[str, Any], seed: int, *, save: Path | None = None,
         fsync: bool = True, subscribe: bool = True) -> tuple[Table, float]:
    clock = _Clock()
    t = Table.create(game, config, seed, None, clock=clock, cpu=_RandomCpu(), save_path=save,
                     fsync=fsync)
    if subscribe:
        for s in [*range(t.seat_count), None]:
            t.snapshot(s)
    t.start(t.host_token)
    t0 = time.perf_counter()
    while t.phase == "playing":
        clock.t = t.next_due()  # type: ignore[assignment]
        t.tick()
        if subscribe:
            for s in [*range(t.seat_count), None]:
                t.drain(s)
    return t, time.perf_counter() - t0


def main() -> int:
    games = [
        ("track", {"rules": "classic", "seats": 4}),
        ("track", {"rules": "tees", "seats": 4}),
        ("track", {"rules": "team", "seats": 6}),
        ("layout", {"seats": 4}),
    ]
    print("per play, whole CPU games, all seats and a spectator subscribed:")
    for game, cfg in games:
        plays = 0
        table_s = engine_s = 0.0
        for seed in range(1, 6):
            t, dt = _run(game, cfg, seed)
            plays += t.state_no
            table_s += dt
            t0 = time.perf_counter()
            t.rules.replay(t.config, seed, t.log)
            engine_s += time.perf_counter() - t0
        print(f"  {game:6} {cfg!s:40} {plays:6} plays  table {1e3 * table_s / plays:6.3f} ms"
              f"  engine apply {1e3 * engine_s / plays:6.3f} ms")
    with tempfile.TemporaryDirectory() as d:
        for fsync in (False, True):
            path = Path(d) / f"bench-{fsync}.tee"
            t, dt = _run("track", {"rules": "classic", "seats": 4}, 3, save=path, fsync=fsync,
                         subscribe=False)
            t.close()
            size = path.stat().st_size
            print(f"save file, fsync={fsync!s:5}: {t.state_no} plays, "
                  f"{1e3 * dt / t.state_no:.3f} ms per play, {size / t.state_no:.0f} bytes/play")
            t0 = time.perf_counter()
            again = Table.resume(path, clock=_Clock())
            print(f"  resume by replay: {1e3 * (time.perf_counter() - t0):.1f} ms "
                  f"({again.state_no} plays)")
    clock = _Clock()
    with ProcessCpu() as cpu:
        t0 = time.perf_counter()
        cpu.warm()
        t = Table.create("layout", {"seats": 3}, 9, None, clock=clock, cpu=cpu, speed="blitz")
        t.start(t.host_token)
        waits = 0
        t1 = 0.0
        while t.phase == "playing" and t.state_no < 200:
            clock.t = t.next_due()  # type: ignore[assignment]
            while not t.tick():
                waits += 1
                time.sleep(0.0005)
            if t.state_no == 1:
                t1 = time.perf_counter()
        dt = time.perf_counter() - t1
        print(f"ProcessCpu: first answer {1e3 * (t1 - t0):.0f} ms after start (spawn + imports);"
              f" then {1e3 * dt / (t.state_no - 1):.2f} ms per play round trip (Tricky CPU, "
              f"{t.state_no - 1} plays), {waits} non-blocking ticks waited")
    return 0


if __name__ == "__main__":
    sys.exit(main())
