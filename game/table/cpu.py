"""CPU runners and scheduling: how and when the table asks :func:`game.ai.choose_play` for a
CPU seat's play.

The table never blocks on a CPU. It calls ``runner.request(key, job)`` when a CPU (or a stand-in
for a missing person) is to move, and ``runner.poll(key)`` on later ticks until the answer is
there; then it checks the answer still belongs to the current state (the key carries the state
number) and submits it through the one play path like anyone else.

* :class:`SyncCpu` answers at once, in the calling thread (tests, benchmarks, tools).
* :class:`ProcessCpu` thinks in a worker process (``concurrent.futures`` with the ``spawn``
  start method, safe beside pygame and the network thread), so CPU thinking never stalls the
  client's frame. The pygame client and the LAN host use it. Call :meth:`ProcessCpu.close`
  when done (or use it as a context manager).
* :class:`CpuLease` is one table's runner on a *shared* :class:`ProcessCpu`
  (:meth:`ProcessCpu.lease`): the client keeps one worker process for every table it opens in
  a run (and its hints), each table holding a lease; closing a lease forgets that table's
  questions only, and the worker ends with the program (``ProcessCpu.close``).

A runner that fails (the CPU raised, the worker died) reports :class:`CpuFailed` from ``poll``;
the table then falls back to the first legal play so that a game never hangs.

Scheduling (:func:`cpu_due`, :func:`cpu_seed`): a CPU plays ``Speed.cpu_wait`` table seconds
after the animations end; a stand-in for a missing person after ``Speed.grace`` seconds counted
from the later of the drop, the turn and the animations' end. A CPU's seed comes from the table
seed, the state number and the seat, so a resumed table's CPUs choose as the original's would.
(``game.cpu_worker`` is the old name of this module and re-exports it.)
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.rules.cards import Rng

__all__ = [
    "CPU_TIMEOUT", "HISTORY_MAX", "CpuFailed", "CpuJob", "CpuLease", "CpuRunner", "ProcessCpu",
    "SyncCpu",
    "cpu_due", "cpu_seed", "run_job",
]

CPU_TIMEOUT = 60.0  # table seconds past its due time (and budget) before a CPU is given up on
HISTORY_MAX = 200  # the last plays passed to a CPU as ``history`` ({"seat", "play"} each)


class CpuFailed(Exception):
    """The CPU could not answer (it raised, or its worker process died)."""


@dataclass(frozen=True)
class CpuJob:
    """One question for a CPU: the arguments of :func:`game.ai.choose_play`.

    Everything is plain data (picklable, msgpack-friendly): the seat's own view, never the full
    state.
    """

    game: str
    view: Mapping[str, Any]
    legal: tuple[str, ...]
    level: str
    seed: int
    budget_ms: float
    history: tuple[Mapping[str, Any], ...] = field(default=())


def run_job(job: CpuJob) -> str:
    """Answer one job (runs in the worker process for :class:`ProcessCpu`)."""
    from game.ai import choose_play

    answer: str = choose_play(
        job.game, job.view, list(job.legal), job.level, job.seed, job.budget_ms, job.history
    )
    return answer


class CpuRunner(Protocol):
    """What the table needs from a CPU runner."""

    def request(self, key: Hashable, job: CpuJob) -> None:
        """Start thinking about ``job``; the answer is fetched later with ``poll(key)``."""
        ...

    def poll(self, key: Hashable) -> str | None:
        """The answer to ``key`` once ready (then forgotten), else ``None``.

        Raises :class:`CpuFailed` if the CPU could not answer, ``KeyError`` for an unknown key.
        """
        ...

    def cancel(self, key: Hashable) -> None:
        """Forget ``key`` (its answer, if it comes, is dropped). Unknown keys are ignored."""
        ...

    def close(self) -> None: ...


class SyncCpu:
    """Answers every request at once, in the caller's thread."""

    def __init__(self) -> None:
        self._answers: dict[Hashable, str | CpuFailed] = {}
        self.requests = 0  # how many jobs were asked (for tests and benchmarks)

    def request(self, key: Hashable, job: CpuJob) -> None:
        self.requests += 1
        try:
            self._answers[key] = run_job(job)
        except Exception as e:  # the CPU's own bug: reported, never fatal to the table
            self._answers[key] = CpuFailed(f"{type(e).__name__}: {e}")

    def poll(self, key: Hashable) -> str | None:
        answer = self._answers.pop(key)
        if isinstance(answer, CpuFailed):
            raise answer
        return answer

    def cancel(self, key: Hashable) -> None:
        self._answers.pop(key, None)

    def close(self) -> None:
        self._answers.clear()


class ProcessCpu:
    """Thinks in one worker process; never blocks the caller.

    ``workers`` processes are started lazily (or at once with :meth:`warm`), with the ``spawn``
    start method. A dead worker is replaced on the next request.
    """

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError("ProcessCpu needs at least one worker")
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._futures: dict[Hashable, Future[str]] = {}
        self.requests = 0
        self._warm: Future[bool] | None = None
        self._leases = itertools.count(1)

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self._workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_orphan_guard, initargs=(os.getpid(),),
            )
        return self._pool

    def warm(self) -> None:
        """Start the worker now (it imports the CPU code), so the first answer is quick (once
        per worker: a shared runner is warmed by every table that opens)."""
        if self._warm is None or self._pool is None:
            self._warm = self._get_pool().submit(_warm_up)

    @property
    def started(self) -> bool:
        """Whether the worker process has been started (and not closed since)."""
        return self._pool is not None

    def lease(self) -> CpuLease:
        """A runner for one more table on this worker (see :class:`CpuLease`)."""
        return CpuLease(self, next(self._leases))

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run ``fn(*args)`` in the worker (a picklable top-level function): the client's
        hints share the CPU's worker process. A dead worker is replaced first."""
        try:
            return self._get_pool().submit(fn, *args)
        except (BrokenProcessPool, RuntimeError):
            self._restart()
            return self._get_pool().submit(fn, *args)

    def request(self, key: Hashable, job: CpuJob) -> None:
        self.requests += 1
        old = self._futures.pop(key, None)
        if old is not None:
            old.cancel()
        try:
            self._futures[key] = self._get_pool().submit(run_job, job)
        except (BrokenProcessPool, RuntimeError):
            self._restart()
            self._futures[key] = self._get_pool().submit(run_job, job)

    def poll(self, key: Hashable) -> str | None:
        fut = self._futures[key]
        if not fut.done():
            return None
        del self._futures[key]
        try:
            return fut.result()
        except BrokenProcessPool as e:
            self._restart()
            raise CpuFailed(f"the CPU worker process died: {e}") from None
        except Exception as e:
            raise CpuFailed(f"{type(e).__name__}: {e}") from None

    def pending(self) -> int:
        return len(self._futures)

    def cancel(self, key: Hashable) -> None:
        fut = self._futures.pop(key, None)
        if fut is not None:
            fut.cancel()

    def _restart(self) -> None:
        self._warm = None
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        for fut in self._futures.values():
            fut.cancel()
        self._futures.clear()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> ProcessCpu:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CpuLease:
    """One table's :class:`CpuRunner` on a shared :class:`ProcessCpu`.

    Its keys are its own (two tables may both ask about ``(state 12, seat 1)``), ``close``
    drops this table's questions and leaves the worker running for the other tables; the
    owner of the :class:`ProcessCpu` ends the worker.
    """

    def __init__(self, shared: ProcessCpu, tag: int) -> None:
        self.shared = shared
        self.tag = tag
        self._keys: set[Hashable] = set()
        self.requests = 0
        self.closed = False

    def warm(self) -> None:
        self.shared.warm()

    def request(self, key: Hashable, job: CpuJob) -> None:
        self.requests += 1
        self.closed = False
        self._keys.add(key)
        self.shared.request((self.tag, key), job)

    def poll(self, key: Hashable) -> str | None:
        if key not in self._keys:
            raise KeyError(key)
        try:
            answer = self.shared.poll((self.tag, key))
        except CpuFailed:
            self._keys.discard(key)
            raise
        if answer is not None:
            self._keys.discard(key)
        return answer

    def pending(self) -> int:
        return len(self._keys)

    def cancel(self, key: Hashable) -> None:
        if key in self._keys:
            self._keys.discard(key)
            self.shared.cancel((self.tag, key))

    def close(self) -> None:
        """Forget this table's questions (the shared worker keeps running)."""
        for key in list(self._keys):
            self.cancel(key)
        self.closed = True

    def __enter__(self) -> CpuLease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: How often a worker looks whether the process that started it is still there (seconds).
ORPHAN_CHECK = 0.5


def _orphan_guard(parent: int) -> None:
    """The worker's initializer: end this worker as soon as ``parent`` (the table's process)
    is gone, however it went (a SIGKILL runs no ``finally`` and no ``atexit`` in the parent).

    A daemon thread compares ``os.getppid()`` with ``parent``; once they differ the worker was
    orphaned and leaves with ``os._exit``. multiprocessing's resource tracker then ends by
    itself, since no living process holds its pipe any more.
    """
    if os.getppid() != parent:  # the parent died before this worker got going
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-guard", daemon=True).start()


def _warm_up() -> bool:
    import game.ai  # noqa: F401

    return True


# ------------------------------------------------------------------------------ scheduling


def cpu_seed(table_seed: int, state_no: int, seat: int) -> int:
    """The seed of a CPU's choice: the same table, state and seat always give the same one."""
    mix = (table_seed ^ (state_no * 0x9E3779B97F4A7C15) ^ (seat << 56)) & ((1 << 64) - 1)
    seed: int = Rng(mix).next_u64()
    return seed


def cpu_due(
    kind: str, connected: bool, dropped_at: float | None, busy_until: float, turn_since: float,
    cpu_wait: float, grace: float,
) -> tuple[str, float] | None:
    """``("cpu"|"standin", due table time)`` when a CPU plays this seat's turn, else None.

    ``kind``/``connected``/``dropped_at`` describe the seat; a person who never connected
    counts as dropped since their turn came.
    """
    if kind == "cpu":
        return "cpu", max(busy_until, turn_since) + cpu_wait
    if connected:
        return None
    since = turn_since if dropped_at is None else dropped_at
    return "standin", max(busy_until, turn_since, since) + grace
