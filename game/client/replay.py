"""Replays: a game record played through a real table, so the scenes get the very messages of a
live game (``start``, ``play``, ``reset``), and the Nasty CPU's review of it in the background.

:class:`ReplaySession` implements :class:`game.client.session.Session` over a record (its text,
or a ``.ttr`` file): it is checked by replaying it (:func:`game.rules.record.read_record`; a bad
record raises :class:`~game.rules.record.RecordError` naming its line, and nothing is built),
then a local :class:`game.table.Table` of the same game, seed and seats is built and the
record's plays go through the table's own play path, one by one (a step forward: a ``play``
message with its events, animated like a live play) or all at once (a jump or a step back: the
table is rebuilt up to that play and the scene gets a ``reset``). No CPU thinks: every play
comes from the record. Nobody plays either: every intent is refused (``code == "replay"``),
the session holds no tokens, and ``can_play`` is False.

What is shown: a finished game has no secrets, so the viewer may look at any seat's hand
(:meth:`ReplaySession.next_seat`, the viewer's Tab); a game still in progress (a save exported
mid-game) shows only what the record's people saw on their screen (their seats' views). The
hot-seat cover never comes up (it guards a live screen, not a replay).

Pacing: playing (:meth:`ReplaySession.play_on`), the next play is due when the last one's
events have played at the replay speed plus the table speed's CPU gap (the table's own
pacing); :data:`REPLAY_SPEEDS` are the table speeds and two faster ones (``factor`` > 1 runs
the scene's clock that much faster too, see :class:`ReplayClock`).

The review (:class:`ReviewJob`): the record's stored review, at once; else one background job
per play a person made (:func:`game.ai.review.review_play` on that seat's own view, the very
call and seed :func:`game.ai.review.review` makes), in a worker process like the hints
(:class:`ReviewRunner`), shown as each comes; when all are in, the review is written into the
record (and into its file, :func:`game.table.recent.rewrite_record`), so a second viewing is
instant.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.ai import review as rv
from game.client.anim import TableClock
from game.client.hints import one_worker
from game.client.session import SessionBase
from game.rules.record import (
    Annotation,
    Record,
    RecordError,
    format_record,
    parse_record,
    read_record,
    steps,
)
from game.table import Result, SeatSpec, Table
from game.table.cpu import SyncCpu
from game.table.messages import TableMessage
from game.table.pacing import SPEEDS, event_duration
from game.table.results import GameResult

__all__ = ["REPLAY_SPEEDS", "REVIEW_BUDGET_MS", "ReplayClock", "ReplaySession", "ReplaySpeed",
           "ReviewJob", "ReviewRunner", "load_record_text"]

#: The review's budget per play (the CPU's normal budget, as ``bench/review.py`` measures).
REVIEW_BUDGET_MS = 300.0
#: The review's seed per play: exactly :func:`game.ai.review.review`'s.
_MASK = (1 << 62) - 1
_SEED_MIX = 0x9E3779B1


@dataclass(frozen=True)
class ReplaySpeed:
    """A replay speed: the table speed it runs at and how much faster still (``factor``)."""

    label: str
    table: str  # a name of game.table.SPEEDS
    factor: float = 1.0

    @property
    def scale(self) -> float:
        """Seconds of replay per normal-speed second (smaller is faster)."""
        return SPEEDS[self.table].scale / self.factor


#: The table's own speeds, then two faster than the fastest (a replay may hurry).
FASTEST = min(SPEEDS.values(), key=lambda s: s.scale).name
REPLAY_SPEEDS: tuple[ReplaySpeed, ...] = (
    *(ReplaySpeed(s.title, s.name) for s in SPEEDS.values()),
    ReplaySpeed("Fast", FASTEST, 2.5),
    ReplaySpeed("Fastest", FASTEST, 6.0),
)


class ReplayClock(TableClock):
    """The scene's table clock, ``factor`` times faster than the table speed it follows (the
    table speeds stop at blitz; a replay goes faster)."""

    factor = 1.0

    def tick(self, dt: float) -> float:
        return super().tick(dt * self.factor)


def load_record_text(source: str | os.PathLike[str]) -> tuple[str, Path | None]:
    """``(record text, its file or None)``: ``source`` is a path (a ``Path``, or a string that
    is no record text) or the text itself. An unreadable file is a :class:`RecordError`."""
    if isinstance(source, str) and source.lstrip().startswith("["):
        return source, None
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8"), path
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(0, f"cannot read the record {path}: {e}") from None


# ------------------------------------------------------------------------------ the review


def review_one(game: str, view: Mapping[str, Any], token: str, n: int, budget_ms: float,
               seed: int, samples: int | None = None) -> Annotation:
    """One play's review (runs in the worker): :func:`game.ai.review.review_play`."""
    return rv.review_play(game, view, token, n, budget_ms, seed, samples)


def solo_note(record_text: str, budget_ms: float, samples: int | None = None) -> Annotation:
    """The whole game's note of a finished solo game (play 0: the turn count against the
    Nasty CPU's own game on the same deal), in :func:`game.ai.review.review`'s words."""
    rec = parse_record(record_text)
    cpu = rv._solo_cpu_turns(rec, budget_ms, samples)
    mine = len(rec.plays)
    if mine == cpu:
        words = f"you took {mine} turns, as many as the Nasty CPU on the same deal"
    else:
        diff = f"{abs(mine - cpu)} {'fewer' if mine < cpu else 'more'}"
        words = f"you took {mine} turns, {diff} than the Nasty CPU's {cpu} on the same deal"
    return Annotation(0, 0, None, None, None, words, float(cpu), float(mine))


def _warm() -> bool:
    import game.ai.review  # noqa: F401

    return True


class ReviewRunner:
    """Where a review's jobs run: ``submit`` given (the app's hint worker, which is its one
    CPU worker: :func:`game.client.replay_scene.stage_runner`), or a worker of its own (a
    ``spawn`` process, else a thread: ``processes=False``). :meth:`close` stops only a
    worker of its own; a shared one goes on (the job cancels its own futures)."""

    def __init__(self, processes: bool = True,
                 submit: Callable[..., Future[Any]] | None = None) -> None:
        self.processes = processes
        self._shared = submit
        self._pool: Executor | None = None

    def _get(self) -> Executor:
        if self._pool is None:
            self._pool = one_worker(self.processes, "review")
        return self._pool

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        if self._shared is not None:
            return self._shared(fn, *args)
        try:
            return self._get().submit(fn, *args)
        except (RuntimeError, BrokenProcessPool, OSError):
            self.close()  # a dead worker: start a fresh one
            return self._get().submit(fn, *args)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class ReviewJob:
    """The review of a record for the viewer: stored (``done`` at once) or made in the
    background, a play at a time (:meth:`poll` each frame; never waits)."""

    def __init__(self, text: str, rec: Record, path: Path | None, runner: ReviewRunner | None,
                 budget_ms: float = REVIEW_BUDGET_MS, samples: int | None = None) -> None:
        self.rec = rec
        self.path = path
        self.text = text
        self.budget_ms = budget_ms
        self.samples = samples
        self.notes: dict[int, Annotation] = {}
        self.error: str | None = None
        self.saved = False
        self.sides = rv.sides(text)
        people = [s.index for s in rec.seats if s.kind == "person"]
        self.seat: int | None = people[0] if len(people) == 1 else None
        self._jobs: list[tuple[int, Future[Any]]] = []
        self.stored = bool(rec.review)
        self.runner: ReviewRunner | None = None
        if self.stored:  # a second viewing: the review in the record, at once
            self.notes = {a.n: a for a in rec.annotations}
            self.total = len(self.notes)
            return
        todo = self._todo()
        self.total = len(todo)
        if todo:
            self.runner = run = runner if runner is not None else ReviewRunner()
            for n, args in todo:
                fn = solo_note if n == 0 else review_one
                self._jobs.append((n, run.submit(fn, *args)))
        if not todo:
            self._finish()

    def _todo(self) -> list[tuple[int, tuple[Any, ...]]]:
        rules = rv.rules_of(self.rec.game)
        out: list[tuple[int, tuple[Any, ...]]] = []
        for st in steps(self.rec, events=False):
            p = st.play
            if p.by != "person" or (self.seat is not None and p.seat != self.seat):
                continue
            view = rules.view(st.before, p.seat)  # the seat's own view: nothing hidden
            out.append((p.n, (self.rec.game, view, p.token, p.n, self.budget_ms,
                              (self.rec.seed ^ (p.n * _SEED_MIX)) & _MASK, self.samples)))
        solo = self.rec.game == "track" and self.rec.config.get("mode") == "solo"
        if solo and self.rec.result != "*" and out:
            out.append((0, (self.text, self.budget_ms * (1 - rv.ROLLOUT_SHARE), self.samples)))
        return out

    @property
    def done(self) -> bool:
        return not self._jobs

    @property
    def annotations(self) -> list[Annotation]:
        """The notes in so far, in play order (the whole-game note first)."""
        return [self.notes[n] for n in sorted(self.notes)]

    def note(self, n: int) -> Annotation | None:
        return self.notes.get(n)

    def last_note(self, n: int) -> Annotation | None:
        """The review of the latest reviewed play at or before play ``n`` (None: none yet)."""
        ns = [k for k in self.notes if 0 < k <= n]
        return self.notes[max(ns)] if ns else None

    def summary(self) -> dict[int, list[Annotation]]:
        """For each side, the three plays that moved the estimate most (so far)."""
        return rv.summary(self.annotations, self.sides)

    def poll(self) -> bool:
        """Take the answers that came; True when something new came (never waits)."""
        new = False
        keep: list[tuple[int, Future[Any]]] = []
        for n, fut in self._jobs:
            if not fut.done():
                keep.append((n, fut))
                continue
            new = True
            try:
                a = fut.result()
            except Exception as e:  # a failed review is said, never fatal
                self.error = f"the review of play {n} failed ({type(e).__name__}: {e})"
                continue
            if a is not None:
                self.notes[a.n] = a
        self._jobs = keep
        if new and not keep:
            self._finish()
        return new

    def _finish(self) -> None:
        """Every note is in: the review goes into the record (and its file)."""
        if self.error is not None or self.stored:
            return
        key = rv.review_key(self.seat, self.budget_ms)
        text = format_record(self.rec.with_review(key, self.annotations))
        self.text = text
        # as stored (the estimates rounded as the record writes them): a second viewing shows
        # the very same numbers
        self.notes = {a.n: a for a in parse_record(text).annotations}
        if self.path is not None:
            from game.table.recent import rewrite_record

            try:
                rewrite_record(self.path, text)
                self.saved = True
            except (OSError, RecordError) as e:
                self.error = f"the review could not be kept in {self.path.name}: {e}"

    def cancel(self) -> None:
        for _, fut in self._jobs:
            fut.cancel()
        self._jobs = []


# ------------------------------------------------------------------------------ the session


def _refused(state_no: int) -> Result:
    return Result(False, "replay", "this is a replay: nobody plays here", state_no)


class ReplaySession(SessionBase):
    """A record played through a real table for the table scenes (see the module docstring)."""

    remote = False
    is_host = False
    #: Nobody plays at a replay: the scenes offer no input (the one-line Session addition).
    can_play = False
    replay = True

    def __init__(self, source: str | os.PathLike[str], *, seat: int | None = None,
                 speed: str = "Normal", clock: Callable[[], float] = time.monotonic,
                 review_runner: ReviewRunner | None = None, samples: int | None = None
                 ) -> None:
        text, path = load_record_text(source)
        rec, _ = read_record(text)  # checked by replaying: a RecordError names the line
        self.text, self.path, self.record = text, path, rec
        self.game = rec.game
        self.finished = rec.result != "*"
        self.people = [s.index for s in rec.seats if s.kind == "person"]
        if seat is not None and not (type(seat) is int and 0 <= seat < len(rec.seats)):
            raise ValueError(f"there is no seat {seat!r} in this record")
        if seat is None:
            seat = self.people[0] if self.people else (0 if self.finished else None)
        if seat is not None and not self.finished and seat not in self.people:
            raise ValueError(f"seat {seat} was not watched on this screen: a game in progress "
                             f"shows only what its people saw")
        self.seat: int | None = seat
        self._clock = clock
        self._runner = review_runner
        self._samples = samples
        self.speed_index = next((i for i, s in enumerate(REPLAY_SPEEDS)
                                 if s.label.lower() == speed.lower()), 1)
        self.playing = False
        self.n = 0  # plays shown
        self._due = 0.0
        self.tokens: dict[int, str] = {}
        self.public: dict[str, Any] = {}
        self.views: dict[int | None, dict[str, Any]] = {}
        self._pending: list[TableMessage] = []
        self.review_job: ReviewJob | None = None
        self._before: list[Any] | None = None  # the states plays were made in (for words)
        self.table = self._build(0)
        self._drain()  # the opening deal's start message, as at a live table

    # ------------------------------------------------------------------ the table
    @property
    def plays(self) -> int:
        """How many plays the record holds."""
        return len(self.record.plays)

    @property
    def speed(self) -> ReplaySpeed:
        return REPLAY_SPEEDS[self.speed_index]

    def _build(self, n: int) -> Table:
        """A fresh table of the record's game with its first ``n`` plays made (no messages for
        them); the viewing seat is subscribed before the game starts."""
        rec = self.record
        specs = [SeatSpec("person", s.name, local=True) if s.kind == "person" else
                 SeatSpec("cpu", s.name, s.level) for s in rec.seats]
        t = Table.create(rec.game, rec.config, rec.seed, specs, clock=self._clock,
                         speed=self.speed.table, cpu=SyncCpu(), turn_clock=None,
                         pause_limit=None)
        self.take(t.snapshot(self.seat), self.seat)
        t.start(t.host_token)
        for s in self.people:
            t.ready(t.token(s))
        t.ready(t.host_token)
        for p in rec.plays[:n]:
            # the table's own play path, its "replay" branch (a resume's): apply and count
            t._apply(p.seat, t._check_play(p.seat, p.token), "replay", t._now(), maker=p.by)
        return t

    def _step(self) -> None:
        """The next play through the table's play path: a ``play`` message, like a live one."""
        p = self.record.plays[self.n]
        t = self.table
        t._apply(p.seat, t._check_play(p.seat, p.token), p.by, t._now())
        self.n += 1
        self._drain()

    def take(self, msg: TableMessage, seat: int | None) -> None:
        """The one handler, with the hot-seat cover left out (a replay's screen is no live
        hot seat: the viewer chose whose hand to look at)."""
        super().take(msg, seat)
        self.public["cover"] = False
        self.public["screen_owner"] = None
        self.public["speed"] = self.speed.table

    def _drain(self) -> None:
        for m in self.table.drain(self.seat):
            self.take(m, self.seat)
            self._pending.append(m)

    def _jump(self, n: int) -> None:
        n = max(0, min(self.plays, n))
        self.table.close()
        self.table = self._build(n)
        self.table.drain(self.seat)  # what the rebuild said: the reset below says it all
        self.n = n
        reset: TableMessage = {"type": "reset", "snapshot": self.table.snapshot(self.seat)}
        self.take(reset, self.seat)
        self._pending.append(reset)
        self._due = self._clock()

    # ------------------------------------------------------------------ the viewer's intents
    def forward(self) -> bool:
        """One play on (animated); False at the end."""
        if self.n >= self.plays:
            self.playing = False
            return False
        self._step()
        self._due = self._next_due()
        return True

    def back(self) -> bool:
        """One play back (rebuilt to n - 1 and a ``reset``); False at the start."""
        if self.n <= 0:
            return False
        self._jump(self.n - 1)
        return True

    def jump(self, n: int) -> None:
        """Show the position after play ``n`` (0: the opening deal; clamped)."""
        self._jump(n)

    def play_on(self, on: bool | None = None) -> bool:
        """Play (True), pause (False) or toggle (None); returns whether it now plays."""
        on = (not self.playing) if on is None else on
        if on and self.n >= self.plays:
            self._jump(0)  # play again from the start
        self.playing = on
        self._due = self._clock()
        return on

    def faster(self, d: int) -> ReplaySpeed:
        self.speed_index = max(0, min(len(REPLAY_SPEEDS) - 1, self.speed_index + d))
        self.public["speed"] = self.speed.table
        return self.speed

    def seats_to_watch(self) -> list[int]:
        """The seats whose hands may be shown: any (a finished game), else its people's."""
        return list(range(len(self.record.seats))) if self.finished else list(self.people)

    def next_seat(self, d: int = 1) -> int | None:
        """Show the next seat's hand (the table jumps to the same play for that seat)."""
        choices = self.seats_to_watch()
        if not choices:
            return self.seat
        i = choices.index(self.seat) if self.seat in choices else -1
        self.seat = choices[(i + d) % len(choices)]
        self._jump(self.n)
        return self.seat

    def deal_starts(self) -> list[int]:
        """Play counts where a new deal (track) or hand (Trash) begins: 0 and every play
        after which the cards were dealt again; a rule set that never deals again (classic
        draws a card a play) is cut into rounds of turns, one play per seat (solo: five
        plays)."""
        out = [0]
        for i, st in enumerate(steps(self.record, events=True)):
            if any(e.get("type") in ("deal", "dealt") for e in st.events) and \
                    i + 1 < self.plays:
                out.append(i + 1)
        if len(out) == 1:
            seats = len(self.record.seats)
            out = list(range(0, self.plays, seats if seats > 1 else 5))
        return out

    def words(self, n: int, token: str | None = None) -> str:
        """Play ``n``'s token (or ``token``, another play in the same position) in words
        (:mod:`game.client.describe`: track's in the position it was made in, Trash's
        notation with its words); the bare token when it cannot be worded."""
        p = self.record.plays[n - 1]
        tok = p.token if token is None else token
        from game.client.describe import describe_token, trash_words
        if self.game == "layout":
            return trash_words(tok)
        if self.game != "track":
            return tok
        if self._before is None:
            self._before = [st.before for st in steps(self.record, events=False)]

        try:
            return describe_token(tok, rv.rules_of("track").view(self._before[n - 1], p.seat))
        except Exception:  # words are a nicety: the notation always stands
            return tok

    def _next_due(self) -> float:
        """When the next play is due: this one's events played at the replay speed, then the
        table speed's CPU gap (as the table paces its CPUs)."""
        msgs = [m for m in self._pending if m["type"] == "play"]
        events = msgs[-1]["events"] if msgs else []  # type: ignore[typeddict-item]
        sp = self.speed
        busy = sum(event_duration(e, "normal") for e in events) * sp.scale
        return self._clock() + busy + SPEEDS[sp.table].cpu_wait / sp.factor

    # ------------------------------------------------------------------ the review
    def start_review(self, runner: ReviewRunner | None = None,
                     budget_ms: float = REVIEW_BUDGET_MS) -> ReviewJob:
        """The review of this record (stored: at once; else started in the background)."""
        if self.review_job is None:
            self.review_job = ReviewJob(self.text, self.record, self.path,
                                        runner or self._runner, budget_ms, self._samples)
        return self.review_job

    # ------------------------------------------------------------------ Session: reading
    @property
    def speed_scale(self) -> float:
        return self.speed.scale

    @property
    def can_undo(self) -> bool:
        return False

    def screen_seat(self) -> int | None:
        return self.seat

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self.views.get(self.seat if seat is None else seat) or {}

    def poll(self) -> list[TableMessage]:
        """The next play when it is due (playing), the review's answers, the messages."""
        if self.playing and self._clock() >= self._due:
            self.forward()  # at the end it stops playing
        if self.review_job is not None:
            self.review_job.poll()
        out, self._pending = self._pending, []
        return self.delivered(out)

    def refresh(self) -> None:
        self._drain()

    def result(self) -> GameResult | None:
        """None: a replay is no new game for the records."""
        return None

    def game_record(self) -> str | None:
        """None: a replay keeps nothing (its record is kept already)."""
        return None

    # ------------------------------------------------------------------ Session: intents
    def sit(self, seat: int, name: str) -> Result:
        return _refused(self.public["state_no"])

    def rename(self, seat: int, name: str) -> Result:
        return _refused(self.public["state_no"])

    def leave(self, seat: int) -> Result:
        return _refused(self.public["state_no"])

    def set_cpu(self, seat: int, level: str) -> Result:
        return _refused(self.public["state_no"])

    def start(self) -> Result:
        return _refused(self.public["state_no"])

    def play(self, seat: int, token: str, state_no: int | None = None) -> Result:
        return _refused(self.public["state_no"])

    def ready(self) -> Result:
        return _refused(self.public["state_no"])

    def hand_to_cpu(self, seat: int, level: str = "tricky") -> Result:
        return _refused(self.public["state_no"])

    def tap_in(self, seat: int) -> Result:
        return _refused(self.public["state_no"])

    def remove(self, seat: int) -> Result:
        return _refused(self.public["state_no"])

    def end_pause(self) -> Result:
        return _refused(self.public["state_no"])

    def set_turn_clock(self, seconds: float | None) -> Result:
        return _refused(self.public["state_no"])

    def undo(self) -> Result:
        return _refused(self.public["state_no"])

    def pause(self) -> Result:
        """The table's Pause: the replay stops playing (it is no table pause)."""
        self.play_on(False)
        return Result(True, "ok", "the replay is paused", self.public["state_no"])

    def set_speed(self, name: str) -> Result:
        for i, s in enumerate(REPLAY_SPEEDS):
            if name.lower() == s.label.lower():  # each table speed's label is its name
                self.speed_index = i
                self.public["speed"] = s.table
                return Result(True, "ok", f"speed {s.label}", self.public["state_no"])
        return Result(False, "bad_speed", f"unknown speed {name!r}", self.public["state_no"])

    def close(self) -> None:
        """Stop the review's jobs and close the table (safe to call twice)."""
        if self.review_job is not None:
            self.review_job.cancel()
        runner = self._runner or (self.review_job.runner if self.review_job else None)
        if runner is not None:
            runner.close()
        self.table.close()


