"""game.cpu_worker: the worker-process runner reports failures and never blocks."""

from __future__ import annotations

import time

import pytest

from game.cpu_worker import CpuFailed, CpuJob, ProcessCpu, SyncCpu
from game.rules.layout import RULES as LAYOUT


def _real_job(level: str) -> CpuJob:
    state = LAYOUT.new_game({"seats": 2}, 3)
    seat = LAYOUT.to_move(state)
    return CpuJob("layout", LAYOUT.view(state, seat), tuple(LAYOUT.legal_tokens(state)), level,
                  1, 50.0)


def _wait(cpu: ProcessCpu, key: object) -> str:
    deadline = time.monotonic() + 60  # a guard against a hang, not a timing assertion
    while True:
        answer = cpu.poll(key)
        if answer is not None:
            return answer
        assert time.monotonic() < deadline, "the worker never answered"
        time.sleep(0.002)


def test_process_runner_answers_reports_failures_and_forgets_cancelled_jobs() -> None:
    good = _real_job("tricky")
    bad = _real_job("grandmaster")  # an unknown level: the CPU raises in the worker
    with ProcessCpu() as cpu:
        cpu.request("a", good)
        cpu.request("b", bad)
        cpu.request("c", good)
        cpu.cancel("c")
        assert _wait(cpu, "a") in good.legal
        with pytest.raises(CpuFailed, match="grandmaster"):
            _wait(cpu, "b")
        with pytest.raises(KeyError):
            cpu.poll("c")
        assert cpu.pending() == 0


def test_sync_runner_reports_failures_the_same_way() -> None:
    cpu = SyncCpu()
    cpu.request(1, CpuJob("track", {}, (), "easy", 1, 10.0))  # no legal play
    with pytest.raises(CpuFailed):
        cpu.poll(1)
    cpu.request(2, CpuJob("track", {}, ("AS",), "easy", 1, 10.0))
    assert cpu.poll(2) == "AS"
