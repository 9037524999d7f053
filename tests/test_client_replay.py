"""The replay viewer (issue 16, the client half): a record through a real table, the same
messages as a live game, steps back and forward landing on the engine's positions, no play
allowed, the hands a record may show, the review in the background and kept in the file,
the viewer's keys, and ``main.py --replay`` refusing a bad file before any window."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from concurrent.futures import Future
from typing import Any

import pygame
import pytest

from game.ai import review as rv
from game.ai.track import tricky
from game.client.replay import REPLAY_SPEEDS, ReplaySession, ReviewJob, ReviewRunner
from game.rules.layout import RULES as LAYOUT
from game.rules.record import (
    RecordError,
    RecordSeat,
    format_record,
    make_record,
    parse_record,
    rules_of,
    steps,
)
from game.rules.track import RULES as TRACK
from tests.client_app import close_app, table_app
from tests.client_testing import frames, key

ROOT = pathlib.Path(__file__).resolve().parents[1]


def cpu_game(game: str, config: dict[str, Any], seed: int, people: set[int],
             stop: int | None = None) -> str:
    """A record of a game played by a quick policy for every seat (``people`` marked people);
    ``stop``: only the first ``stop`` plays (a game in progress)."""
    rules = rules_of(game)
    s = rules.new_game(rules.normalize_config(config), seed)
    plays: list[tuple[int, str, str]] = []
    while (m := rules.to_move(s)) is not None and (stop is None or len(plays) < stop):
        legal = [str(t) for t in rules.legal_tokens(s)]
        tok = tricky(TRACK.view(s, m), legal, len(plays)) if game == "track" else \
            legal[(seed + len(plays)) % len(legal)]
        plays.append((m, tok, "person" if m in people else "cpu"))
        s, _ = rules.apply(s, m, tok)
    seats = [RecordSeat(i, "person", "person", f"P{i}") if i in people else
             RecordSeat(i, "cpu", "tricky", f"C{i}") for i in range(rules.seat_count(s))]
    return format_record(make_record(game, config, seed, seats, plays, date="2026-12-02",
                                     version="0.1.0"))


@pytest.fixture(scope="module")
def tees() -> str:
    return cpu_game("track", {"rules": "tees", "seats": 4}, 5, {0})


@pytest.fixture(scope="module")
def trash() -> str:
    return cpu_game("layout", {"seats": 2}, 3, {0})


def engine_states(text: str) -> list[Any]:
    """The engine's position after 0, 1, ... n plays (``rules.replay`` play by play)."""
    rec = parse_record(text)
    rules = rules_of(rec.game)
    out = [rules.new_game(rules.normalize_config(rec.config), rec.seed)]
    out += [st.after for st in steps(rec, events=False)]
    return out


def check_position(s: ReplaySession, state: Any) -> None:
    rules = rules_of(s.game)
    assert rules.format_position(s.table.state) == rules.format_position(state)
    assert s.view() == rules.view(state, s.seat)  # what the scene is shown: the seat's view
    assert s.public["to_move"] == rules.to_move(state)


@pytest.mark.parametrize("which", ["tees", "trash"])
def test_stepping_forward_then_back_over_a_whole_game_lands_on_the_engines_positions(
        which: str, request: pytest.FixtureRequest) -> None:
    text = request.getfixturevalue(which)
    want = engine_states(text)
    rec = parse_record(text)
    evs = [st.events for st in steps(rec)]
    rules = rules_of(rec.game)
    s = ReplaySession(text, clock=lambda: 0.0)
    try:
        first = s.poll()
        assert first[0]["type"] == "start"  # the opening deal, as at a live table
        check_position(s, want[0])
        for n in range(1, s.plays + 1):
            assert s.forward()
            msgs = [m for m in s.poll() if m["type"] == "play"]
            assert len(msgs) == 1  # a step forward is one live-game play message
            p, m = rec.plays[n - 1], msgs[0]
            assert (m["seat"], m["play"], m["by"]) == (p.seat, p.token, p.by)
            assert m["events"] == rules.filter_events(evs[n - 1], s.seat)
            assert s.n == n
            check_position(s, want[n])
        assert not s.forward() and s.public["phase"] == "over"
        for n in range(s.plays - 1, -1, -1):
            assert s.back()
            assert [m["type"] for m in s.poll()] == ["reset"]  # a step back is a jump
            check_position(s, want[n])
        assert not s.back()
        s.jump(len(want) // 2)
        check_position(s, want[len(want) // 2])
        s.jump(10**6)  # clamped: the end
        check_position(s, want[-1])
        # the rebuilt table knows who made each play, as the record says (its own record of
        # the game is then the same game)
        assert s.table.makers == [p.by for p in rec.plays]
        again = parse_record(s.table._finished_record() or "")
        assert [(p.seat, p.token, p.by) for p in again.plays] == \
            [(p.seat, p.token, p.by) for p in rec.plays]
    finally:
        s.close()


def test_nobody_plays_at_a_replay(tees: str) -> None:
    s = ReplaySession(tees, clock=lambda: 0.0)
    try:
        s.jump(3)
        before = s.table.state_no
        legal = [str(t) for t in TRACK.legal_tokens(s.table.state)]
        mover = s.public["to_move"]
        for r in (s.play(mover, legal[0]), s.sit(1, "X"), s.start(), s.ready(), s.undo(),
                  s.set_cpu(1, "easy"), s.hand_to_cpu(0), s.tap_in(0), s.leave(0),
                  s.remove(1), s.end_pause(), s.set_turn_clock(30.0)):
            assert not r.ok and r.code == "replay" and "replay" in r.message
        assert s.table.state_no == before and s.n == 3
        assert s.tokens == {} and s.can_play is False and not s.is_host
        assert s.result() is None  # a replay is never recorded as a new game
        first = parse_record(tees).plays[0]
        words = s.words(1)  # the review panel's words for a play, in its own position
        assert words != first.token and words.split(":")[0] in ("Ace", "King", "Joker")
    finally:
        s.close()


def test_a_finished_game_shows_every_hand_a_game_in_progress_only_its_peoples(
        tees: str) -> None:
    s = ReplaySession(tees, clock=lambda: 0.0)
    try:
        s.jump(20)
        state = engine_states(tees)[20]
        seen = set()
        for _ in range(4):
            seat = s.next_seat()
            assert seat is not None
            seen.add(seat)
            assert s.view()["hand"] == list(state.hands[seat])  # that seat's own hand
            assert s.n == 20
        assert seen == {0, 1, 2, 3}
    finally:
        s.close()
    part = cpu_game("track", {"rules": "tees", "seats": 4}, 5, {0, 2}, stop=30)
    assert parse_record(part).result == "*"
    s = ReplaySession(part, clock=lambda: 0.0)
    try:
        # two people on one screen: no hot-seat cover (the replay's viewer picks the hand)
        movers = set()
        for _ in range(8):
            s.forward()
            s.poll()
            movers.add(s.public["to_move"])
            assert s.public["cover"] is False and s.public["screen_owner"] is None
        assert movers & {0, 2}  # a person to move: a live table would cover the hand
        s.jump(0)
        assert s.seat == 0 and [s.next_seat() for _ in range(3)] == [2, 0, 2]
        state = engine_states(part)[0]
        assert s.view()["hand"] == list(state.hands[2])
        assert "hands" not in s.view()
    finally:
        s.close()
    with pytest.raises(ValueError, match="only what its people saw"):
        ReplaySession(part, seat=1)


def test_a_bad_record_is_refused_with_its_line(tees: str, tmp_path: pathlib.Path) -> None:
    lines = tees.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("5. "))
    n, seat, _tok = lines[i].split()[:3]
    lines[i] = f"{n} {seat} 9:x"  # not legal there
    bad = "\n".join(lines) + "\n"
    with pytest.raises(RecordError, match=f"^line {i + 1}:"):
        ReplaySession(bad)
    with pytest.raises(RecordError, match="cannot read"):
        ReplaySession(tmp_path / "nothing.ttr")


def test_playing_paces_the_plays_and_speeds_go_past_blitz(tees: str) -> None:
    now = [0.0]
    s = ReplaySession(tees, clock=lambda: now[0])
    try:
        s.play_on(True)
        s.poll()
        assert s.n == 1  # the first play at once
        s.poll()
        assert s.n == 1  # the next one waits for the first one's animation
        now[0] += 30.0
        s.poll()
        assert s.n == 2
        gap_normal = s._due - now[0]
        s.faster(10)
        assert s.speed is REPLAY_SPEEDS[-1] and s.speed.scale < REPLAY_SPEEDS[3].scale
        now[0] += 30.0
        s.poll()
        gap_fast = s._due - now[0]
        assert 0 < gap_fast < gap_normal / 5
        s.play_on(False)
        now[0] += 30.0
        s.poll()
        assert s.n == 3
        s.jump(s.plays)
        s.play_on(True)  # at the end: plays again from the start
        assert s.n == 0
    finally:
        s.close()


class PendingRunner(ReviewRunner):
    """Futures the test answers itself (a worker that has not answered yet)."""

    def __init__(self) -> None:
        super().__init__(processes=False)
        self.jobs: list[tuple[Future[Any], Any, tuple[Any, ...]]] = []

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        f: Future[Any] = Future()
        self.jobs.append((f, fn, args))
        return f


def test_the_review_comes_play_by_play_and_never_waits(tees: str) -> None:
    rec = parse_record(tees)
    runner = PendingRunner()
    job = ReviewJob(tees, rec, None, runner, 300, samples=2)
    people = [p.n for p in rec.plays if p.by == "person"]
    assert [a[2][3] for a in runner.jobs] == people  # one job per play of the person
    assert not job.poll() and job.notes == {} and not job.done
    f, fn, args = runner.jobs[1]
    f.set_result(fn(*args))  # the second answer comes first
    assert job.poll() and list(job.notes) == [people[1]] and not job.done
    assert job.last_note(people[1] + 1) is job.notes[people[1]]
    job.cancel()


def test_the_review_equals_the_cpus_and_is_kept_in_the_file(tmp_path: pathlib.Path) -> None:
    text = cpu_game("track", {"rules": "classic", "seats": 2, "mode": "h2h"}, 2, {0})
    path = tmp_path / "game.ttr"
    path.write_text(text, encoding="utf-8")
    s = ReplaySession(path, clock=lambda: 0.0, samples=2)
    job = s.start_review(ReviewRunner(processes=False), budget_ms=50)
    for _ in range(6000):
        if job.done:
            break
        s.poll()
        import time

        time.sleep(0.01)
    assert job.done and job.error is None and job.saved
    want_text, want = rv.review_cached(text, 0, 50, samples=2)
    assert job.annotations == want and len(want) == sum(p.by == "person"
                                                        for p in parse_record(text).plays)
    assert path.read_text(encoding="utf-8") == want_text  # cached in the record file
    s.close()

    class NoWorker(ReviewRunner):
        def submit(self, fn: Any, *args: Any) -> Future[Any]:
            raise AssertionError("a stored review needs no worker")

    again = ReplaySession(path, clock=lambda: 0.0)
    job2 = again.start_review(NoWorker())
    assert job2.done and job2.stored and job2.annotations == want  # instant
    summ = job2.summary()
    assert set(summ) == {0, 1} and all(a.seat == 0 for a in summ[0]) and summ[1] == []
    again.close()


def test_the_viewer_by_keyboard(trash: str, tmp_path: pathlib.Path) -> None:
    app = table_app(tmp_path)
    try:
        assert app.open_replay("[Format \"nonsense\"]\n") is not None  # refused, nothing open
        assert app.top is not None and app.top.name == "title"
        assert app.open_replay(trash) is None
        ov = app.top
        assert ov is not None and ov.name == "replay"
        s: ReplaySession = ov.session  # type: ignore[assignment]
        assert app.scenes[-2].session is s  # the real Trash table scene under the viewer
        frames(app, 3)
        key(app, pygame.K_RIGHT)
        key(app, pygame.K_RIGHT)
        assert s.n == 2
        frames(app, 200, 0.05)  # the two plays are told in the table's log
        table_log = app.scenes[-2].log  # type: ignore[attr-defined]
        assert table_log.entries[0].lines == ["Hand 1 dealt"]
        assert len([e for e in table_log.entries if e.seat is not None]) == 2
        key(app, pygame.K_LEFT)
        assert s.n == 1
        # the viewer's own jump is no "table went back": the log starts again from there,
        # saying where it landed
        frames(app, 3)
        assert [e.lines for e in table_log.entries] == [["Jumped here: 1 turn played"]]
        key(app, pygame.K_END)
        assert s.n == s.plays
        key(app, pygame.K_HOME)
        assert s.n == 0
        key(app, pygame.K_PAGEDOWN)
        deals = s.deal_starts()
        assert len(deals) > 1 and s.n == deals[1]
        key(app, pygame.K_PAGEUP)
        assert s.n == 0
        speed = s.speed_index
        key(app, pygame.K_UP)
        assert s.speed_index == speed + 1
        key(app, pygame.K_DOWN)
        assert s.speed_index == speed
        seat = s.seat
        key(app, pygame.K_TAB)
        assert s.seat != seat
        key(app, pygame.K_TAB, mod=pygame.KMOD_SHIFT)
        assert s.seat == seat
        key(app, pygame.K_TAB)
        key(app, pygame.K_SPACE)
        assert s.playing
        frames(app, 300, 0.05)  # 15 s of frames: the replay plays on by itself
        assert s.n > 3
        key(app, pygame.K_SPACE)
        assert not s.playing
        # the table scene offers nothing to play
        table = app.scenes[-2]
        assert not table.my_turn() and table.legal_plays() == []  # type: ignore[attr-defined]
        assert s.review_job is not None and s.review_job.runner is not None
        # the review thinks in the app's one hint worker (the CPU worker's process in the
        # app), never in a worker of its own
        assert s.review_job.runner._shared == app.hints().submit
        key(app, pygame.K_ESCAPE)
        assert app.top is not None and app.top.name == "title"  # the viewer and its table
        assert all(sc.session is not s for sc in app.scenes)
        assert s.review_job.done and s.review_job.runner._pool is None  # no worker of its own
        # closing the viewer cancelled its jobs, not the shared worker: a hint still comes
        assert app.hints().submit(pow, 2, 5).result(timeout=30) == 32
    finally:
        close_app(app)


def test_the_viewer_by_mouse(tees: str, tmp_path: pathlib.Path) -> None:
    app = table_app(tmp_path, virtual_time=True)

    def click(pos: tuple[int, int]) -> None:
        for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(t, pos=pos, button=1))
        frames(app)

    try:
        assert app.open_replay(tees) is None
        ov: Any = app.top
        s: ReplaySession = ov.session
        frames(app, 2)
        by = {b.label: b for b in ov.buttons}
        click(by["Play >"].rect.center)
        click(by["Play >"].rect.center)
        assert s.n == 2
        click(by["< Play"].rect.center)
        assert s.n == 1
        click(by["End"].rect.center)
        assert s.n == s.plays
        tr = ov.slider._track()
        click((tr.x + tr.w // 2, tr.centery))  # the middle of the slider: the middle play
        assert abs(s.n - s.plays // 2) <= 1
        click(by["Faster"].rect.center)
        assert s.speed_index == 2
        click(by["Review"].rect.center)
        assert not ov.show_review
        click(by["Close"].rect.center)
        assert app.top is not None and app.top.name == "title"
    finally:
        close_app(app)


def test_replay_on_the_command_line_refuses_a_bad_file_before_any_window(
        tees: str, tmp_path: pathlib.Path) -> None:
    lines = tees.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("3. "))
    del lines[i]
    bad = tmp_path / "bad.ttr"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "--data", str(tmp_path),
                        "--replay", str(bad)], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 2
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and "--replay" in err[0] and f"line {i + 1}:" in err[0]
    good = tmp_path / "good.ttr"
    good.write_text(tees, encoding="utf-8")
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "--data", str(tmp_path),
                        "--replay", str(good), "--frames", "5", "--size", "800x600"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr


def test_trash_records_replay_as_the_layout_engine(trash: str) -> None:
    s = ReplaySession(trash, clock=lambda: 0.0)
    try:
        assert s.game == "layout" and s.public["game"] == "layout"
        s.jump(s.plays)
        assert LAYOUT.format_position(s.table.state) == parse_record(trash).final
    finally:
        s.close()
