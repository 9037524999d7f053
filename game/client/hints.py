"""Hints off the render loop: the H key asks, the scene shows "thinking..." until the answer.

:class:`HintRunner` runs :func:`compute_hint` (the CPU players' :func:`game.ai.hint`: the play
and a sentence saying why) in a worker process, so the search never competes with the frame
for the interpreter: the app's CPU worker (``submit``: the app passes
:meth:`game.table.cpu.ProcessCpu.submit`, one process for the CPUs and the hints), or one of
its own (``spawn``, started on the first question or ``warm``); in a thread when
``processes=False`` (tests) or when a worker process cannot be started. ``ask`` returns a
:class:`concurrent.futures.Future` at once; the scene polls ``done()`` each frame and never
waits on it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

HINT_BUDGET_MS = 300.0


def compute_hint(game: str, view: Mapping[str, Any], legal: Sequence[str], seed: int,
                 budget_ms: float = HINT_BUDGET_MS) -> tuple[str, str]:
    """``(token, reason)``: the hint for this view (pure; runs in the worker)."""
    import game.ai as ai

    tok, reason = ai.hint(game, view, [str(t) for t in legal], seed, budget_ms)
    return str(tok), str(reason)


def _warm() -> bool:
    import game.ai  # noqa: F401

    return True


def one_worker(processes: bool, name: str) -> Executor:
    """One worker: a ``spawn`` process (safe beside pygame and the network thread), or a
    thread when ``processes`` is off or no process can be started."""
    if processes:
        try:
            return ProcessPoolExecutor(max_workers=1,
                                       mp_context=multiprocessing.get_context("spawn"))
        except (OSError, ValueError):
            pass
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)


class HintRunner:
    """One hint worker shared by every table of the app (see the module docstring)."""

    def __init__(self, processes: bool = True,
                 submit: Callable[..., Future[Any]] | None = None) -> None:
        self.processes = processes
        self._submit = submit if processes else None
        self._pool: Executor | None = None
        self.asked = 0

    def _get(self) -> Executor:
        if self._pool is None:
            self._pool = one_worker(self.processes, "hint")
        return self._pool

    def warm(self) -> None:
        """Start the worker now (between screens), so the first hint comes quickly."""
        with contextlib.suppress(RuntimeError, BrokenProcessPool, OSError):
            if self._submit is not None:
                self._submit(_warm)
            else:
                self._get().submit(_warm)

    def ask(self, game: str, view: Mapping[str, Any], legal: Sequence[str], seed: int,
            budget_ms: float = HINT_BUDGET_MS) -> Future[tuple[str, str]]:
        self.asked += 1
        args = (game, dict(view), [str(t) for t in legal], int(seed), float(budget_ms))
        return self.submit(compute_hint, *args)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run ``fn(*args)`` (a picklable top-level function) in the hint worker: the app's
        CPU worker when it was given, else this runner's own. The replay's review thinks
        here too, so an app has one worker process in all."""
        if self._submit is not None:
            try:
                return self._submit(fn, *args)
            except (RuntimeError, BrokenProcessPool, OSError):
                self._submit = None  # the shared worker cannot take it: a worker of our own
        try:
            return self._get().submit(fn, *args)
        except (RuntimeError, BrokenProcessPool, OSError):
            self.close()  # a dead worker: start a fresh one
            return self._get().submit(fn, *args)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
