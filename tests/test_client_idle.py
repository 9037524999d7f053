"""Quiet on a laptop (issue 20): a still screen draws nothing; input, a resize, a play from
the table or an animation make it draw again; the pulse of a picked card is slow and stops
without the focus; the run loop sleeps; one CPU worker for every table; bounded caches."""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from pathlib import Path

import pygame
import pytest

from game.client.anim import START_STEP, PegWalk, Timeline, Wait
from game.client.app import PULSE_SECONDS, App
from game.client.assets import Assets, SurfaceCache
from game.client.table_base import PULSE_FPS
from game.table.cpu import CpuJob, CpuLease, ProcessCpu
from tests.client_app import close_app, open_fixed_table, table_app

TICK = 1 / 60


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path)  # synchronous CPUs, hints in a thread, frame time as the clock
    yield a
    close_app(a)


def idle(app: App, seconds: float = 1.0) -> int:
    """Run ``seconds`` of idle ticks as the run loop does (no forced redraw); the frames drawn."""
    before = app.draws
    for _ in range(round(seconds / TICK)):
        app.frame(TICK, redraw=False)
    return app.draws - before


def flips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every ``pygame.display.flip`` from now on (the app's counter aside)."""
    seen: list[int] = []
    real = pygame.display.flip

    def counted() -> None:
        seen.append(1)
        real()

    monkeypatch.setattr(pygame.display, "flip", counted)
    return seen


def post_key(k: int) -> None:
    for t in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(t, key=k, mod=0, unicode="", scancode=0))


def settle(app: App) -> None:
    """Idle ticks until nothing moves (the table's opening messages played)."""
    for _ in range(600):
        app.frame(TICK, redraw=False)
        if not app.moving():
            break
    app.frame(TICK, redraw=False)


# ---------------------------------------------------------------------------- still screens
def test_the_title_draws_nothing_over_a_second_of_idle_ticks(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    assert app.top is not None and app.top.name == "title"
    seen = flips(monkeypatch)
    assert idle(app, 1.0) == 0
    assert seen == []  # not a single flip
    assert app.frames >= 60  # the loop did turn: it only drew nothing


def test_input_and_a_resize_make_the_title_draw_again(app: App) -> None:
    idle(app, 0.2)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1),
                                         buttons=(0, 0, 0)))
    assert idle(app, 1.0) == 1  # one frame for the move, then still again
    post_key(pygame.K_DOWN)  # the focus moves to the next button
    assert idle(app, 1.0) == 1
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=900, h=600, size=(900, 600)))
    assert idle(app, 1.0) == 1
    assert app.size == (900, 600)


def test_a_forced_frame_always_draws(app: App) -> None:
    before = app.draws
    app.frame(TICK)  # tests and benchmarks look at what a frame draws
    app.frame(TICK)
    assert app.draws == before + 2


def test_a_table_waiting_for_the_persons_move_draws_nothing(app: App) -> None:
    table = open_fixed_table(app)
    settle(app)
    assert table.my_turn() and table.timeline.idle
    assert table.choice.card is None  # nothing picked: nothing pulses
    assert idle(app, 1.0) == 0


def test_a_play_read_from_the_table_draws_and_animates_at_full_rate(app: App) -> None:
    table = open_fixed_table(app)
    settle(app)
    assert idle(app, 0.5) == 0
    legal = table.legal_plays()
    assert legal
    # the play reaches the table without input: only the session's next poll brings it
    assert table.session.play(0, str(legal[0])).ok
    drawn = idle(app, 0.25)
    assert drawn == 15  # every tick of the animation drew (60 a second)


def test_an_animation_draws_every_frame_then_stops(app: App) -> None:
    table = open_fixed_table(app)
    settle(app)
    g = table.geom
    assert g is not None
    table.timeline.push(Wait(0.5))  # half a normal second: 0.15 s at blitz
    table.timeline.push(PegWalk((1, 0), [(10.0, 10.0), (50.0, 50.0)], 0.3))
    assert app.moving()
    drawn = idle(app, 1.0)
    assert 10 < drawn < 60  # drew while it played (about 0.24 s), not after
    assert not app.moving()
    assert idle(app, 1.0) == 0


def test_a_picked_card_pulses_slowly_and_stops_without_the_focus(app: App) -> None:
    table = open_fixed_table(app)
    settle(app)
    post_key(pygame.K_1)  # pick the first card: its pegs pulse
    app.frame(TICK, redraw=False)
    assert table.choice.card is not None and table.pulsing()
    drawn = idle(app, 2.0)
    assert 2 * PULSE_FPS - 2 <= drawn <= 2 * PULSE_FPS + 1  # about 8 a second, not 60
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert idle(app, 1.0) <= 1  # the event's own frame, then nothing
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSGAINED))
    assert idle(app, 1.0) >= PULSE_FPS - 1
    # six seconds after the last change (the pick) the pulse holds still: nothing is drawn
    assert PULSE_SECONDS == 6.0
    idle(app, 2.2)
    assert idle(app, 1.0) == 0
    post_key(pygame.K_2)  # the next input (another card) starts it again
    assert idle(app, 1.0) >= PULSE_FPS - 1


def test_the_run_loop_sleeps_while_nothing_moves(app: App) -> None:
    app.virtual_time = None  # the real clock, as a person plays
    app.frame(TICK)
    before, t0, c0 = app.draws, time.monotonic(), time.process_time()
    app.run(max_frames=app.frames + 5)
    wall = time.monotonic() - t0
    assert app.draws == before  # five turns, nothing drawn
    assert wall >= 0.35  # it slept about IDLE_WAKE a turn instead of spinning at 60 a second
    assert time.process_time() - c0 < 0.5 * wall
    assert Timeline.start_step is None  # the run loop's start step goes with it


# ---------------------------------------------------------------------------- the timeline
def test_a_play_that_arrives_after_an_idle_sleep_starts_at_its_beginning() -> None:
    assert pytest.approx(1 / 60 / 0.3, rel=0.01) == START_STEP  # a 60 fps frame at blitz
    tl = Timeline(start_step=START_STEP)
    tl.update(0.3)  # idle
    tl.push(Wait(1.0))
    tl.update(0.3)  # the frame after a sleep brings 0.3 s, most of it from before the play
    assert tl.queue[0].elapsed == pytest.approx(START_STEP)
    tl.update(0.3)  # then time runs as usual
    assert tl.queue[0].elapsed == pytest.approx(START_STEP + 0.3)
    tl.finish()
    tl.update(0.1)
    tl.push(Wait(1.0))
    tl.update(1 / 60 / 0.3)  # a frame of a running loop at blitz is never cut
    assert tl.queue[0].elapsed == pytest.approx(1 / 60 / 0.3)
    plain = Timeline()  # without start_step: as before
    plain.push(Wait(1.0))
    plain.update(0.1)
    assert plain.queue[0].elapsed == pytest.approx(0.1)


# ---------------------------------------------------------------------------- one CPU worker
class FakeShared:
    """What a lease needs of the shared worker, answering in-line by the job's seed."""

    def __init__(self) -> None:
        self.asked: dict[Hashable, int] = {}
        self.cancelled: list[Hashable] = []
        self.warmed = 0

    def warm(self) -> None:
        self.warmed += 1

    def request(self, key: Hashable, job: CpuJob) -> None:
        self.asked[key] = job.seed

    def poll(self, key: Hashable) -> str | None:
        return f"seed{self.asked.pop(key)}"

    def cancel(self, key: Hashable) -> None:
        self.asked.pop(key, None)
        self.cancelled.append(key)


def job(seed: int) -> CpuJob:
    return CpuJob("track", {}, ("p",), "easy", seed, 10.0)


def test_two_tables_on_one_worker_keep_their_answers_apart() -> None:
    shared = FakeShared()
    a, b = CpuLease(shared, 1), CpuLease(shared, 2)  # type: ignore[arg-type]
    a.request((12, 1), job(111))
    b.request((12, 1), job(222))  # the same key at another table
    assert a.pending() == 1 and b.pending() == 1
    assert b.poll((12, 1)) == "seed222"
    assert a.poll((12, 1)) == "seed111"
    with pytest.raises(KeyError):
        a.poll((12, 1))  # answered: forgotten
    a.request((13, 2), job(3))
    b.request((13, 2), job(4))
    a.close()  # one table closes: only its question goes
    assert shared.cancelled == [(1, (13, 2))]
    assert b.poll((13, 2)) == "seed4"


def test_the_app_shares_one_worker_process_and_ends_it_with_itself(tmp_path: Path) -> None:
    from tests.client_testing import make_app

    app = make_app(tmp_path)
    try:
        assert app._cpu is None  # nothing started before a table opens
        first, second = App.make_cpu(app), App.make_cpu(app)
        assert isinstance(first, CpuLease) and isinstance(second, CpuLease)
        worker = first.shared
        assert isinstance(worker, ProcessCpu) and second.shared is worker
        assert worker.started  # warmed when the first table opened
        first.close()  # a table closing leaves the worker to the others
        assert worker.started
    finally:
        app.close()
    assert not worker.started  # ended with the app


# ---------------------------------------------------------------------------- bounded caches
def test_scaled_sprites_age_out_of_a_bounded_cache(app: App) -> None:
    a = Assets()
    a._scaled = SurfaceCache(max_bytes=30 * 30 * 4 * 3, max_items=100)  # three 30x30 pegs
    s30 = a.scaled("peg_0", (30, 30))
    assert SurfaceCache.size_of(s30) == 30 * 30 * 4
    a.scaled("peg_1", (30, 30))
    a.scaled("peg_2", (30, 30))
    assert a.scaled("peg_0", (30, 30)) is s30  # cached (and now the most recent)
    a.scaled("peg_3", (30, 30))  # over the bound: the least recent (peg_1) goes
    assert ("peg_1", 30, 30) not in a._scaled and ("peg_0", 30, 30) in a._scaled
    assert len(a._scaled) == 3 and a._scaled.bytes == 30 * 30 * 4 * 3
    own = a.image("peg_0")
    assert a.scaled("peg_0", own.get_size()) is own  # its own size: the sprite, no copy


def test_rendered_text_is_bounded_in_count(app: App) -> None:
    a = Assets()
    a._texts = SurfaceCache(max_bytes=1 << 30, max_items=5)
    for i in range(20):
        a.text(f"line {i}", 20, (255, 255, 255))
    assert len(a._texts) == 5
    with pytest.raises(ValueError):
        SurfaceCache(0, 1)
