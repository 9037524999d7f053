"""The table's state and what every part of it reads: the summary, the outbox, the save record.

:class:`TableBase` holds the facts of one table (rules, seats, phase, state and state number,
pause facts, the table clock, the outboxes, the save file) and the queries and helpers that
the table's intents share (``game/table/table.py``: the one play path, the CPUs, building and
resuming; ``game/table/lobby.py``: the seat, pause, speed and connection intents). It changes
nothing by itself but through :meth:`TableBase._refresh` (pause recomputed, the ``table``
message) and :meth:`TableBase._record` (the save). See ``docs/table.md``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.rules.api import GameRules
from game.table import savefile
from game.table.cpu import CpuRunner, SyncCpu
from game.table.errors import TableError
from game.table.messages import (
    Event,
    Notice,
    NoticeKind,
    PauseReason,
    Public,
    ResetMsg,
    SeatInfo,
    Snapshot,
    TableMessage,
    TableMsg,
)
from game.table.pacing import PAUSE_LIMIT_DEFAULT, SPEEDS, TURN_CLOCK_DEFAULT, Speed, event_duration
from game.table.pause import NO_PAUSE, pause_reasons
from game.table.results import GameResult, game_result
from game.table.results import points as reckon_points
from game.table.seats import SYMBOLS, Ask, Seat, Watcher, is_seat, same

log = logging.getLogger("game.table")

OUTBOX_MAX = 1000
# Public fields that change with every play: a "play" message carries them, so a change of
# these alone sends no "table" message.
_PLAY_DRIVEN = frozenset({"state_no", "to_move", "turns", "screen_owner", "cover"})
# Public fields that run down with the clock: a change of these alone sends nothing; a change
# of the deadline they count down to does (see TableBase._refresh).
_COUNTDOWNS = frozenset({"turn_left", "pause_left"})


@dataclass(frozen=True)
class Result:
    """The answer to an intent. ``bool(result)`` is ``result.ok``."""

    ok: bool
    code: str
    message: str
    state_no: int
    data: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.ok

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok, "code": self.code, "message": self.message,
            "state_no": self.state_no, "data": dict(self.data),
        }


def _opening(rules: GameRules, config: Mapping[str, Any], seed: int) -> tuple[Any, list[Event]]:
    """The starting state and the opening deal's events, from ONE call of ``rules.start``."""
    state, events = rules.start(config, seed)
    return state, list(events)


class TableBase:
    """The facts of one table; :class:`game.table.Table` is the class to use."""

    def __init__(
        self,
        *,
        rules: GameRules,
        config: Mapping[str, Any],
        seed: int,
        seats: list[Seat],
        clock: Callable[[], float],
        speed: str,
        host_token: str,
        host_seat: int | None,
        table_id: str,
        cpu: CpuRunner | None,
        dealt: tuple[Any, list[Event]] | None = None,
    ) -> None:
        self.rules = rules
        self.game: str = rules.name
        self.config: dict[str, Any] = dict(config)
        self.seed = seed
        self.table_id = table_id
        self._record_made: str | None = None  # the finished game's record, once made
        self._clock = clock
        self.speed: Speed = SPEEDS[speed]
        self._host_token = host_token
        self.host_seat = host_seat
        self.cpu: CpuRunner = cpu if cpu is not None else SyncCpu()
        # One call deals the game: its state (the lobby shows it, play starts from it, an undo
        # rewinds to it) and the opening deal's events (sent when the game starts).
        self._state: Any
        self._state, self._opening_events = dealt or _opening(rules, self.config, seed)
        self._initial: Any = self._state
        self._log: list[tuple[int, str]] = []
        #: Who made each play of ``_log``: "person", "cpu" (a CPU seat, also a seat handed
        #: to a CPU) or "standin" (a CPU playing for a person who dropped or ran out of time).
        self._makers: list[str] = []
        self.state_no = 0
        self.phase = "lobby"  # "lobby" | "playing" | "over"
        count = rules.seat_count(self._state)
        if len(seats) != count:
            raise TableError(f"this game has {count} seats, but {len(seats)} were given")
        self._seats = seats
        for t, members in enumerate(rules.teams(self._state)):
            for s in members:
                self._seats[s].team = t
                self._seats[s].symbol = SYMBOLS[t % len(SYMBOLS)]
        self._worth: list[int] = [s.worth for s in self._seats]
        self._paused_by: int | str | None = NO_PAUSE  # None: paused by the host
        self._host_ready = True
        self._paused_at: float | None = None
        self._paused_total = 0.0
        self._busy_until = 0.0  # table time
        self._turn_since = 0.0  # table time
        self._cpu_pending: tuple[Any, ...] | None = None
        self._outboxes: dict[int | None, list[TableMessage]] = {}
        self._last_public: dict[str, Any] | None = None
        self._screen_seat: int | None = None
        self._save: savefile.SaveFile | None = None
        self._replaying = False
        self.warnings: list[str] = []
        #: Why saving stopped (the disk filled up...), or None while every play is saved.
        self.save_error: str | None = None
        self.cpu_plays = 0
        self.standin_plays = 0
        self.timeout_plays = 0  # stand-in plays made because a person's turn clock ran out
        #: The host's settings: a person's turn clock (seconds at normal speed) and the pause
        #: limit (clock seconds); None: off. Both apply only at a table with a remote person.
        self.turn_clock: float | None = TURN_CLOCK_DEFAULT
        self.pause_limit: float | None = PAUSE_LIMIT_DEFAULT
        self._held_since: float | None = None  # clock time a pause during play began
        # seat -> table time until which it may not pause again: its last pause had to be
        # ended for it (by the limit or the host), so one person cannot stall the table in
        # pause_limit-long pieces
        self._pause_block: dict[int, float] = {}
        self._notice: Notice | None = None
        # the seat whose turn ran out: the stand-in plays the rest of that turn (a Trash turn
        # is several plays) at CPU pace, unless the person plays first
        self._finishing: int | None = None
        # Watchers and seats changing hands (game/table/watchers.py, docs/seats.md)
        self._watchers: dict[str, Watcher] = {}  # token -> watcher
        self._watcher_no = 0  # the last watcher number given
        self._banned: set[str] = set()  # watcher tokens the host removed
        self._asks: dict[int, Ask] = {}  # seat -> the request for it
        self.allow_watchers = True  # the host's settings (saved)
        self.auto_seat = False
        # for the host program: (watcher token, seat, seat token) of each watcher who took a
        # seat, and (token, reason) of each watcher the host showed out
        self._moved: list[tuple[str, int, str]] = []
        self._shown_out: list[tuple[str, str]] = []


    def _record(self, rec: dict[str, Any]) -> None:
        """Append ``rec`` to the save. A failed write stops saving for good with one message
        (:attr:`save_error`, in the public summary); the play that wrote it stands."""
        if self._save is None or self._replaying:
            return
        try:
            self._save.append(rec)
        except (OSError, ValueError) as e:
            # Keep playing, but write nothing more: the file stays a replayable prefix (a torn
            # last line is dropped on resume), never a file with a gap in it.
            msg = f"saving stopped: cannot write {self._save.path} ({e}); the game goes on unsaved"
            log.error(msg)
            self.warnings.append(msg)
            self.save_error = msg
            self._save.close()  # never raises
            self._save = None

    def close(self) -> None:
        """Close the save file (the CPU runner belongs to the caller)."""
        if self._save is not None:
            self._save.close()

    # ------------------------------------------------------------------ small queries

    @property
    def host_token(self) -> str:
        return self._host_token

    @property
    def save_path(self) -> Path | None:
        """Where the table is saved (None: not saved, or saving stopped)."""
        return self._save.path if self._save is not None else None

    def is_host(self, token: object) -> bool:
        """True for the host's admin token and for the token of ``host_seat``."""
        return self._is_host(token)

    def public(self) -> Public:
        """What everyone may know about the table (no view, no tokens): the ``table`` message."""
        return self._public()

    def seat_info(self, seat: int) -> SeatInfo:
        """The public facts of one seat (kind, name, level, team, symbol, connected...)."""
        return self._seat_public(self._seats[seat])

    @property
    def state(self) -> Any:
        """The full engine state: for the host's own checks and tests, never for a seat."""
        return self._state

    @property
    def log(self) -> list[tuple[int, str]]:
        """The plays so far as ``(seat, token)`` pairs (a copy)."""
        return list(self._log)

    @property
    def makers(self) -> list[str]:
        """Who made each play of :attr:`log` ("person", "cpu", "standin"; a copy)."""
        return list(self._makers)

    @property
    def turns(self) -> int:
        """Plays made so far (the solo count: every turn counts, a forced discard too)."""
        return len(self._log)

    @property
    def seat_count(self) -> int:
        return len(self._seats)

    def token(self, seat: int) -> str:
        """The secret token of ``seat`` (the host hands it to whoever sits there)."""
        return self._seats[seat].token

    def seat_of(self, token: object) -> int | None:
        if not isinstance(token, str):
            return None
        for s in self._seats:
            if same(token, s.token):
                return s.index
        return None

    def to_move(self) -> int | None:
        return None if self.phase != "playing" else self.rules.to_move(self._state)

    def outcome(self) -> dict[str, Any] | None:
        return self.rules.outcome(self._state)

    def is_solo(self) -> bool:
        return len(self._seats) == 1

    def event_duration(self, event: Mapping[str, Any]) -> float:
        """Seconds ``event`` animates at the table's current speed."""
        return event_duration(event, self.speed)

    def clock_now(self) -> float:
        """The table's injected clock now (the units of :meth:`next_due`)."""
        return self._now()

    def _now(self) -> float:
        return float(self._clock())

    def _table_time(self, now: float) -> float:
        """The clock with every paused span (and the lobby) cut out."""
        base = self._paused_at if self._paused_at is not None else now
        return base - self._paused_total

    def table_time(self) -> float:
        return self._table_time(self._now())

    def busy_for(self) -> float:
        """Seconds of animation still to play at this speed (0 when idle)."""
        return max(0.0, self._busy_until - self.table_time())

    def _is_host(self, token: object) -> bool:
        if not isinstance(token, str):
            return False
        if same(token, self._host_token):
            return True
        return self.host_seat is not None and same(token, self._seats[self.host_seat].token)

    def _ok(self, message: str = "ok", **data: Any) -> Result:
        return Result(True, "ok", message, self.state_no, data)

    def _no(self, code: str, message: str) -> Result:
        return Result(False, code, message, self.state_no)

    def _person_seat(self, token: object) -> Seat | None:
        i = self.seat_of(token)
        if i is None or self._seats[i].kind != "person":
            return None
        return self._seats[i]

    # ------------------------------------------------------------------ the clocks

    def _shared(self) -> bool:
        """A table with a remote person (a LAN table): the turn clock and the pause limit
        apply. People who all share one screen (solo, hot seat) are never rushed."""
        return any(s.kind == "person" and not s.local for s in self._seats)

    def turn_limit(self) -> float | None:
        """A person's turn clock at the current speed (table seconds), None when off."""
        if self.turn_clock is None or not self._shared():
            return None
        return self.turn_clock * self.speed.scale

    def _turn_deadline(self) -> float | None:
        """The table time at which the running person's turn runs out (None: no clock runs:
        off, not playing, a CPU or a stand-in to move). It counts from when the turn became
        playable: the animations over; table time stands still while paused."""
        limit = self.turn_limit()
        if limit is None or self.phase != "playing":
            return None
        mover = self.rules.to_move(self._state)
        if mover is None:
            return None
        s = self._seats[mover]
        if s.kind != "person" or not s.connected or mover == self._finishing:
            return None
        return max(self._busy_until, self._turn_since) + limit

    def turn_left(self) -> float | None:
        """Table seconds left in the running person's turn (None: no turn clock runs)."""
        due = self._turn_deadline()
        return None if due is None else max(0.0, due - self.table_time())

    def _pause_deadline(self) -> float | None:
        """The clock time at which the running pause ends by itself (None: none runs)."""
        if self.pause_limit is None or self._held_since is None or not self._shared():
            return None
        return self._held_since + self.pause_limit

    def pause_left(self) -> float | None:
        """Clock seconds left before the running pause ends by itself (None: none runs)."""
        due = self._pause_deadline()
        return None if due is None else max(0.0, due - self._now())

    @property
    def notice(self) -> Notice | None:
        """The table's latest notice in words (it stays until the next one)."""
        return self._notice

    def _note(self, kind: NoticeKind, seat: int | None, text: str) -> None:
        n = self._notice["n"] + 1 if self._notice is not None else 1
        self._notice = {"n": n, "kind": kind, "seat": seat, "text": text}

    # ------------------------------------------------------------------ pause

    def pause_reasons(self) -> list[PauseReason]:
        """Why the table is paused now (empty: not paused). Recomputed from facts each call."""
        return pause_reasons(self.phase, self._seats, self._paused_by, self._host_ready)

    def paused(self) -> bool:
        return bool(self.pause_reasons())

    def paused_by(self) -> int | None:
        """The seat that paused (``None``: no manual pause, or the host without a seat)."""
        return self._paused_by if isinstance(self._paused_by, int) else None

    def _refresh(self, now: float, *, force: bool = False) -> None:
        """Recompute pause from facts; move the table clock; tell subscribers what changed
        (``force``: send the summary even if only a play-driven field changed)."""
        reasons = self.pause_reasons()
        if self._paused_by != NO_PAUSE and not any(r["reason"] == "paused" for r in reasons):
            self._paused_by = NO_PAUSE  # everyone readied since the pause
            self._host_ready = True
        paused = bool(reasons) or self.phase == "over"
        if paused and self._paused_at is None:
            self._paused_at = now
        elif not paused and self._paused_at is not None:
            self._paused_total += now - self._paused_at
            self._paused_at = None
        held = bool(reasons) and self.phase == "playing"  # a pause during play (not the lobby)
        if held and self._held_since is None:
            self._held_since = now
        elif not held:
            self._held_since = None
        if self._replaying:
            return
        public = self._public()
        key: dict[str, Any] = {
            k: v for k, v in public.items() if k not in _PLAY_DRIVEN and k not in _COUNTDOWNS}
        key["_deadlines"] = (self._turn_deadline(), self._pause_deadline())
        if key != self._last_public or force:
            self._last_public = key
            msg: TableMsg = {"type": "table", **public}
            self._broadcast(lambda _seat: msg)

    def _put_seat(self, new: Seat, *, record: bool = True) -> None:
        """``new`` takes its seat (keeping the seat's team and symbol) and is recorded (unless
        ``record`` is False: the caller writes its own record); a seat's worth during play is
        the lowest it had."""
        i = new.index
        old = self._seats[i]
        new.team, new.symbol = old.team, old.symbol
        self._seats[i] = new
        if self.phase == "playing":
            self._worth[i] = min(self._worth[i], new.worth)
        else:
            self._worth[i] = new.worth
        if record:
            self._record({"t": "seat", **new.to_record()})

    def _drop_cpu_request(self) -> None:
        if self._cpu_pending is not None:
            self.cpu.cancel(self._cpu_pending)
            self._cpu_pending = None


    # ------------------------------------------------------------------ hot seat (queries)

    def _local_people(self) -> list[int]:
        return [s.index for s in self._seats if s.kind == "person" and s.local]

    def screen_owner(self) -> int | None:
        """The local person whose hand this screen should show (None: one or no local person).

        It is the local person to move, else whoever last tapped in.
        """
        local = self._local_people()
        if len(local) < 2:
            return local[0] if local else None
        mover = self.to_move()
        return mover if mover in local else self._screen_seat

    def cover_needed(self) -> bool:
        """True while the screen must cover the hand until :meth:`screen_owner` taps in."""
        if not self.rules.hides_hands_from_neighbours or self.phase != "playing":
            return False
        local = self._local_people()
        if len(local) < 2:
            return False
        owner = self.screen_owner()
        return owner is not None and owner != self._screen_seat

    # ------------------------------------------------------------------ output

    def _seat_public(self, s: Seat) -> SeatInfo:
        return s.public(self.phase == "playing", s.index == self.host_seat)

    def _public(self) -> Public:
        return {
            "table_id": self.table_id, "game": self.game, "config": self.config,
            "state_no": self.state_no, "phase": self.phase,  # type: ignore[typeddict-item]
            "seats": [self._seat_public(s) for s in self._seats],
            "to_move": self.to_move(), "pause": self.pause_reasons(),
            "paused_by": self.paused_by(), "speed": self.speed.name,
            "screen_owner": self.screen_owner(), "cover": self.cover_needed(),
            "turns": self.turns, "outcome": self.outcome() if self.phase == "over" else None,
            "points": {str(k): v for k, v in self.points().items()},
            "save_error": self.save_error,
            "turn_clock": self.turn_clock, "turn_limit": self.turn_limit(),
            "turn_left": self.turn_left(), "pause_limit": self.pause_limit,
            "pause_left": self.pause_left(), "notice": self._notice,
            "watchers": [{"watcher": w.number, "name": w.name}
                         for w in self._watchers.values() if w.connected],
            "watching": sum(w.connected for w in self._watchers.values()),
            "allow_watchers": self.allow_watchers, "auto_seat": self.auto_seat,
            "asks": [{"seat": a.seat, "watcher": a.number, "name": a.name,
                      "accepted": a.accepted} for _, a in sorted(self._asks.items())],
        }

    def _snapshot(self, seat: int | None) -> Snapshot:
        # (mypy cannot see through ``**`` that the optional "record" is absent)
        snap: Snapshot = {"type": "snapshot", **self._public(),  # type: ignore[typeddict-item]
                          "seat": seat, "view": self.rules.view(self._state, seat)}
        text = self._finished_record() if self.phase == "over" else None
        if text:
            snap["record"] = text  # a finished game has no secrets: for every viewer
        return snap

    def _finished_record(self) -> str | None:
        """The finished game's record text (:class:`Table` makes it; None: none)."""
        return None

    def _reset(self, seat: int | None) -> ResetMsg:
        return {"type": "reset", "snapshot": self._snapshot(seat)}

    def snapshot(self, seat: int | None) -> Snapshot:
        """Everything ``seat`` may know now; also subscribes ``seat`` to :meth:`drain`.

        The net host calls it with the seat of the token it authenticated; ``None`` is a
        spectator (no hand).
        """
        if seat is not None and not is_seat(seat, len(self._seats)):
            raise TableError(f"there is no seat {seat!r}")
        self._outboxes.setdefault(seat, [])
        return self._snapshot(seat)

    def drain(self, seat: int | None) -> list[TableMessage]:
        """The messages for ``seat`` since the last drain (subscribes ``seat`` if needed)."""
        box = self._outboxes.setdefault(seat, [])
        out = list(box)
        box.clear()
        return out

    def unsubscribe(self, seat: int | None) -> None:
        self._outboxes.pop(seat, None)

    def _broadcast(self, make: Callable[[int | None], TableMessage]) -> None:
        if self._replaying:
            return
        for viewer, box in self._outboxes.items():
            if len(box) >= OUTBOX_MAX:
                box[:] = [self._reset(viewer)]
            else:
                box.append(make(viewer))

    # ------------------------------------------------------------------ points and result

    def points(self) -> dict[int, int]:
        """Points of each winning person seat (empty until the game is over, and for solo)."""
        out = self.outcome() if self.phase == "over" else None
        if out is None or self.is_solo():
            return {}
        people = [s.index for s in self._seats if s.kind == "person"]
        return reckon_points(out["winners"], self._worth, people)

    def result(self) -> GameResult | None:
        """The finished game for ``Store.record_game`` (None while it goes on): see
        :func:`game.table.results.game_result`, which every guest calls on the same data."""
        return game_result(self._public(), self.seed)

