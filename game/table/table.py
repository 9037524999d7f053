"""The authoritative table: intents, the one play path (check, apply, record, views).

``docs/table.md`` is the design (creating and resuming, intents and their refusal codes, pause,
speed, connections, hot seat, solo, driving, output, points, the save file). The ideas live in
their own modules beside this one: :mod:`~game.table.pacing` (speeds, event durations),
:mod:`~game.table.pause` (pause reasons), :mod:`~game.table.seats` (seats, tokens, names,
worth), :mod:`~game.table.savefile` (the save file's only writer and reader),
:mod:`~game.table.cpu` (CPU runners and scheduling), :mod:`~game.table.messages` (the
messages, typed once), :mod:`~game.table.results` (results and records).

This file is the table's intents and its one play path, which stay together so that every
intent's checks sit beside the state they guard (every other idea moved out): about 1,100
lines, over the ~600 guideline on purpose. Every play (a person's, a CPU's, one replayed from
a save) goes through :meth:`Table._apply`, the engine is called in :meth:`Table._step` (an
undo re-applies the kept plays there too), and the state number moves only in
:meth:`Table._bump`.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from game.rules.api import GameRules, RulesError
from game.table import savefile
from game.table.cpu import (
    CPU_TIMEOUT,
    HISTORY_MAX,
    CpuFailed,
    CpuJob,
    CpuRunner,
    SyncCpu,
    cpu_due,
    cpu_seed,
)
from game.table.errors import CorruptSave, SaveError, TableError
from game.table.messages import (
    Event,
    PauseReason,
    PlayMsg,
    Public,
    ResetMsg,
    SeatInfo,
    Snapshot,
    StartMsg,
    TableMessage,
    TableMsg,
)
from game.table.pacing import SPEEDS, Speed, event_duration
from game.table.pause import NO_PAUSE, pause_reasons
from game.table.registry import rules_for
from game.table.results import GameResult, game_result
from game.table.results import points as reckon_points
from game.table.seats import (
    CPU_LEVELS,
    NAME_MAX,
    STAND_IN_LEVEL,
    SYMBOLS,
    Seat,
    SeatSpec,
    clean_name,
    cpu_name,
    is_seat,
    new_token,
    same,
    seat_from_record,
    seat_from_spec,
)

log = logging.getLogger("game.table")

OUTBOX_MAX = 1000
#: Games whose views hide nothing from a seat that the seat's neighbours may see (no hand cover).
NO_HAND_COVER = {"layout"}
# Public fields that change with every play: a "play" message carries them, so a change of
# these alone sends no "table" message.
_PLAY_DRIVEN = frozenset({"state_no", "to_move", "turns", "screen_owner", "cover"})


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
    """The starting state and the opening deal's events, from ONE call of ``rules.start``.

    COMPATIBILITY PATH (until every ``GameRules`` declares ``start``): a rules object without
    ``start`` (a registered test double) starts from ``new_game`` with no events.
    """
    start = getattr(rules, "start", None)
    if start is None:
        return rules.new_game(config, seed), []
    state, events = start(config, seed)
    return state, list(events)


class Table:
    """One game at one table. Build it with :meth:`create` or :meth:`resume`."""

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

    # ------------------------------------------------------------------ construction

    @classmethod
    def create(
        cls,
        game: str | GameRules,
        config: Mapping[str, Any],
        seed: int,
        seats: Iterable[SeatSpec] | None = None,
        *,
        clock: Callable[[], float],
        speed: str = "normal",
        save_path: str | os.PathLike[str] | None = None,
        host_seat: int | None = None,
        cpu: CpuRunner | None = None,
        fsync: bool = True,
    ) -> Table:
        """A new table in the lobby. Raises :class:`TableError` (or ``RulesError`` for a bad
        config) without creating any file when an argument is wrong."""
        rules = game if not isinstance(game, str) else rules_for(game)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise TableError(f"seed must be an int in 0..2**64-1, not {seed!r}")
        if not isinstance(speed, str) or speed not in SPEEDS:
            raise TableError(f"unknown speed {speed!r} (expected one of {', '.join(SPEEDS)})")
        norm = rules.normalize_config(config)
        dealt = _opening(rules, norm, seed)  # the one deal of this table
        specs = list(seats) if seats is not None else [
            SeatSpec() for _ in range(rules.seat_count(dealt[0]))]  # default: Tricky CPUs
        # (the seat count is checked again in __init__, for resume's headers too)
        count = rules.seat_count(dealt[0])
        if len(specs) != count:
            raise TableError(f"this game has {count} seats, but {len(specs)} were given")
        built = [seat_from_spec(i, sp) for i, sp in enumerate(specs)]
        if host_seat is not None and not is_seat(host_seat, len(built)):
            raise TableError(f"host_seat {host_seat} is not a seat (0..{len(built) - 1})")
        if host_seat is not None and built[host_seat].kind != "person":
            raise TableError(f"host_seat {host_seat} is not a person's seat")
        table = cls(
            rules=rules, config=norm, seed=seed, seats=built, clock=clock, speed=speed,
            host_token=new_token(), host_seat=host_seat, table_id=secrets.token_hex(8), cpu=cpu,
            dealt=dealt,
        )
        if save_path is not None:
            table._save = savefile.SaveFile(Path(save_path), fsync=fsync, create=True)
            try:
                table._save.append(table._header())
            except OSError as e:
                table._save.close()
                raise SaveError(f"cannot write the save file {save_path}: {e}") from None
        now = float(clock())
        table._busy_until = table._turn_since = now
        table._refresh(now)
        return table

    def _header(self) -> dict[str, Any]:
        return savefile.header(self.game, self.config, self.seed, self.table_id,
                               self._host_token, self.host_seat, self.speed.name, self._seats)

    @classmethod
    def resume(
        cls,
        save_path: str | os.PathLike[str],
        *,
        clock: Callable[[], float],
        cpu: CpuRunner | None = None,
        fsync: bool = True,
    ) -> Table:
        """Rebuild a saved table by replay, with the same seats and tokens.

        Raises :class:`ForeignSave`, :class:`CorruptSave`, :class:`SaveVersionError`,
        :class:`SaveInUse` (another open table writes it) or :class:`SaveError`, each naming
        the file and the cause; the file is then left exactly as it was.
        """
        path = Path(save_path)
        save = savefile.SaveFile(path, fsync=fsync, create=False)  # locked from here on
        try:
            return cls._rebuild(path, save, clock=clock, cpu=cpu)
        except BaseException:
            save.close()
            raise

    @classmethod
    def _rebuild(
        cls, path: Path, save: savefile.SaveFile, *, clock: Callable[[], float],
        cpu: CpuRunner | None,
    ) -> Table:
        head, records, cut, warnings = savefile.read_save(path)
        seats = savefile.check_header(path, head)
        if head["speed"] not in SPEEDS:
            raise CorruptSave(f"{path}: the header's speed {head['speed']!r} is unknown")
        try:
            rules = rules_for(head["game"])
            config = rules.normalize_config(head["config"])
            table = cls(
                rules=rules, config=config, seed=head["seed"], seats=seats, clock=clock,
                speed=head["speed"], host_token=head["host_token"],
                host_seat=head["host_seat"], table_id=head["table_id"], cpu=cpu,
            )
        except Exception as e:  # any fault of a damaged header: named, never a traceback
            raise CorruptSave(
                f"{path}: the header cannot be used ({type(e).__name__}: {e})"
            ) from None
        table._replaying = True
        for rec in records:
            try:
                table._replay_record(rec)
            except SaveError:
                raise
            except Exception as e:  # any fault of a damaged record: named, never a traceback
                raise CorruptSave(
                    f"{path}: line {rec['_line']} does not replay ({type(e).__name__}: {e})"
                ) from None
        table._replaying = False
        now = float(clock())
        # Everyone comes back through Ready; remote people must rejoin (stand-ins play for
        # them after the grace period, counted from now).
        for s in table._seats:
            if s.kind == "person":
                s.connected = s.seen = s.local
                s.ready = False
                s.joining = False
                s.dropped_at = None if s.local else now
        table._busy_until = table._turn_since = now
        if cut is not None:
            save.truncate(cut)
        for w in warnings:
            log.warning(w)
        table.warnings.extend(warnings)
        table._save = save
        table._refresh(now)
        return table

    def _replay_record(self, rec: Mapping[str, Any]) -> None:
        """One save record, through the same path as the live intent that wrote it."""
        t = rec["t"]
        if t == "play":
            seat, token, n = rec["seat"], rec["play"], rec["n"]
            if type(seat) is not int or not isinstance(token, str) or type(n) is not int:
                raise ValueError(f"a damaged play record {dict(rec)!r}")
            if self.phase != "playing":
                raise ValueError("a play outside a game in progress")
            if self.rules.to_move(self._state) != seat:
                raise ValueError(f"seat {seat} is not to move")
            self._apply(seat, self._check_play(seat, token), "replay", 0.0)
            if n != self.state_no:
                raise ValueError(f"state number {n}, expected {self.state_no}")
        elif t == "seat":
            i = rec["seat"]
            if not is_seat(i, len(self._seats)):
                raise ValueError(f"there is no seat {i!r}")
            new = seat_from_record(rec, i)
            self._put_seat(new)
        elif t == "start":
            if self.phase != "lobby":
                raise ValueError("a second start")
            self._begin()
        elif t == "undo":
            if self.phase == "lobby" or not self._log:
                raise ValueError("an undo with nothing to undo")
            self._undo_last()
            if rec["n"] != self.state_no:
                raise ValueError(f"state number {rec['n']!r}, expected {self.state_no}")
        elif t == "speed":
            if rec["name"] not in SPEEDS:
                raise ValueError(f"unknown speed {rec['name']!r}")
            self.speed = SPEEDS[rec["name"]]
        else:
            raise ValueError(f"unknown record type {t!r}")

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
        if self._replaying:
            return
        public = self._public()
        key = {k: v for k, v in public.items() if k not in _PLAY_DRIVEN}
        if key != self._last_public or force:
            self._last_public = key
            msg: TableMsg = {"type": "table", **public}
            self._broadcast(lambda _seat: msg)

    # ------------------------------------------------------------------ seats

    def _put_seat(self, new: Seat) -> None:
        """``new`` takes its seat (keeping the seat's team and symbol) and is recorded; a
        seat's worth during play is the lowest it had."""
        i = new.index
        old = self._seats[i]
        new.team, new.symbol = old.team, old.symbol
        self._seats[i] = new
        if self.phase == "playing":
            self._worth[i] = min(self._worth[i], new.worth)
        else:
            self._worth[i] = new.worth
        self._record({"t": "seat", **new.to_record()})

    def sit(self, name: str, *, local: bool = False) -> Result:
        """Take the first CPU seat (lobby only)."""
        for s in self._seats:
            if s.kind == "cpu":
                return self.take_seat(s.index, name, local=local)
        return self._no("not_allowed", "every seat is taken")

    def take_seat(self, seat: int, name: str, *, local: bool = False) -> Result:
        """Sit a person in a CPU seat (lobby only). ``data`` carries the new secret token."""
        if self.phase != "lobby":
            return self._no("not_allowed", "seats can be taken only before the game starts")
        if not is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        clean = clean_name(name)
        if clean is None:
            return self._no("bad_request", f"a name must have 1 to {NAME_MAX} characters")
        old = self._seats[seat]
        if old.kind != "cpu":
            return self._no("not_allowed", f"seat {seat} is taken by {old.name}")
        new = Seat(seat, "person", clean, old.level, new_token(), bool(local), connected=True,
                   ready=bool(local), seen=True)
        self._put_seat(new)
        self._refresh(self._now())
        return self._ok(f"{clean} sits at seat {seat}", seat=seat, token=new.token)

    def rename(self, token: str, name: str) -> Result:
        """A person changes the name their seat shows (lobby only: a hot-seat table names
        each person at the screen)."""
        s = self._person_seat(token)
        if s is None:
            return self._no("bad_token", "bad token")
        if self.phase != "lobby":
            return self._no("not_allowed", "names can change only before the game starts")
        clean = clean_name(name)
        if clean is None:
            return self._no("bad_request", f"a name must have 1 to {NAME_MAX} characters")
        if clean != s.name:
            s.name = clean
            self._record({"t": "seat", **s.to_record()})
            self._refresh(self._now())
        return self._ok(f"seat {s.index} is {clean}", seat=s.index)

    def leave(self, token: str) -> Result:
        """A person leaves their seat before the game starts (it becomes a Tricky CPU)."""
        s = self._person_seat(token)
        if s is None:
            return self._no("bad_token", "bad token")
        if self.phase != "lobby":
            return self._no("not_allowed", "the game has started: hand your seat to a CPU")
        if s.index == self.host_seat:
            return self._no("not_allowed", "the host's seat cannot be left")
        self._replace_with_cpu(s.index, STAND_IN_LEVEL, left=None)
        self._refresh(self._now())
        return self._ok(f"seat {s.index} is free", seat=s.index)

    def _replace_with_cpu(
        self, i: int, level: str, *, left: str | None, token: str | None = None
    ) -> None:
        self._put_seat(Seat(i, "cpu", cpu_name(level), level, token or new_token(), False,
                            left=left))
        self._drop_cpu_request()

    def set_cpu(self, host_token: str, seat: int, level: str) -> Result:
        """The host sets a CPU seat's difficulty (lobby or during play)."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host sets CPU levels")
        if self.phase == "over":
            return self._no("game_over", "game over")
        if not is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        if not isinstance(level, str) or level not in CPU_LEVELS:
            return self._no("bad_request", f"unknown CPU level {level!r} ({', '.join(CPU_LEVELS)})")
        s = self._seats[seat]
        if s.kind != "cpu":
            return self._no("not_allowed", f"seat {seat} is {s.name}, not a CPU")
        self._replace_with_cpu(seat, level, left=s.left, token=s.token)  # keeps its token
        self._refresh(self._now())
        return self._ok(f"seat {seat} is now {cpu_name(level)}", seat=seat)

    def ready(self, token: str) -> Result:
        """A person (or the host) is ready. Play resumes once every connected person is."""
        if self.phase == "over":
            return self._no("game_over", "game over")
        s = self._person_seat(token)
        if s is None:
            if self._is_host(token):
                self._host_ready = True
                self._refresh(self._now())
                return self._ok("the host is ready")
            return self._no("bad_token", "bad token")
        group = [x for x in self._seats if x.kind == "person" and x.local] if s.local else [s]
        for x in group:
            x.ready = True
            x.joining = False
            if not x.connected:
                x.connected, x.dropped_at, x.seen = True, None, True
        if self.host_seat is not None and s.index == self.host_seat:
            self._host_ready = True
        self._refresh(self._now())
        return self._ok(f"{s.name} is ready", seat=s.index)

    # ------------------------------------------------------------------ start

    def start(self, host_token: str) -> Result:
        """The host starts the game; it plays once every connected person is ready."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host starts the game")
        if self.phase != "lobby":
            return self._no("not_allowed", "the game has already started")
        now = self._now()
        events = self._begin()
        self._record({"t": "start"})
        t = self._table_time(now)
        # the first CPU waits for the opening deal's animation too
        self._busy_until = t + sum(self.event_duration(e) for e in events)
        self._turn_since = t
        state, n, mover = self._state, self.state_no, self.to_move()

        def message(viewer: int | None) -> StartMsg:
            return {
                "type": "start", "state_no": n, "to_move": mover,
                "events": self.rules.filter_events(events, viewer),
                "view": self.rules.view(state, viewer),
            }

        self._broadcast(message)
        self._refresh(now)
        return self._ok("the game starts")

    def _begin(self) -> list[Event]:
        """Play begins from the state the opening deal made; returns the deal's events."""
        self.phase = "playing"
        self._worth = [s.worth for s in self._seats]
        if self.rules.outcome(self._state) is not None:
            self.phase = "over"
        return list(self._opening_events)

    # ------------------------------------------------------------------ play

    def submit(self, token: str, play: Any, state_no: int) -> Result:
        """A person's play. ``docs/table.md`` gives the order of the checks."""
        s = self._person_seat(token)
        if s is None:
            if isinstance(token, str) and self.seat_of(token) is not None:
                return self._no("bad_token", "bad token: that seat is played by a CPU")
            return self._no("bad_token", "bad token")
        if self.phase == "lobby":
            return self._no("not_started", "the game has not started")
        if self.phase == "over":
            return self._no("game_over", "game over")
        now = self._now()
        self._refresh(now)
        if self.paused():
            return self._no("paused", "paused")
        mover = self.rules.to_move(self._state)
        if mover != s.index:
            return self._no("not_your_turn", "not your turn")
        if isinstance(state_no, bool) or not isinstance(state_no, int) or state_no != self.state_no:
            return self._no(
                "stale_state", f"stale state: the play was for state {state_no!r}, "
                f"the table is at {self.state_no}"
            )
        if not isinstance(play, str):
            play = str(play)  # an engine play object: its token
        try:
            checked = self._check_play(s.index, play)
        except RulesError as e:
            return self._no("illegal_play", f"illegal play: {e}")
        except (ValueError, TypeError, KeyError, IndexError) as e:  # an engine's unexpected slip
            return self._no("illegal_play", f"illegal play: cannot read {play!r} ({e})")
        self._apply(s.index, checked, "person", now)
        return self._ok("played", play=str(checked))

    def _check_play(self, seat: int, token: str) -> Any:
        """The engine's checked play for ``token`` by ``seat`` (raises if it is not legal)."""
        return self.rules.check(self._state, seat, self.rules.parse_play(self._state, token))

    def _bump(self) -> int:
        """The one place the state number moves (a play, an undo; never backwards)."""
        self.state_no += 1
        return self.state_no

    def _step(self, seat: int, play: Any) -> list[Event]:
        """The engine applies ``play``; the log and the phase follow. Nothing else."""
        self._state, events = self.rules.apply(self._state, seat, play)
        self._log.append((seat, str(play)))
        if self.rules.outcome(self._state) is not None:
            self.phase = "over"
        return list(events)

    def _apply(self, seat: int, play: Any, by: str, now: float) -> None:
        """THE play path, after the checks: apply, bump, record, pace, send each seat its
        view. ``by == "replay"`` (a resume replaying its save) applies and bumps only."""
        events = self._step(seat, play)
        n = self._bump()
        token = str(play)
        if by == "replay":
            return
        rec: dict[str, Any] = {"t": "play", "seat": seat, "play": token, "n": n}
        if self.phase == "over":
            rec["over"] = True  # lets a save list tell a finished table (resume ignores it)
        self._record(rec)  # never raises: a failed save stops saving, the play stands
        t = self._table_time(now)
        start = max(t, self._busy_until)
        self._busy_until = start + sum(self.event_duration(e) for e in events)
        self._turn_since = t
        self._drop_cpu_request()
        state, outcome, mover = self._state, self.outcome(), self.to_move()
        turns, owner, cover = self.turns, self.screen_owner(), self.cover_needed()
        kind: Literal["person", "cpu", "standin"] = (
            "person" if by == "person" else "cpu" if by == "cpu" else "standin")

        def message(viewer: int | None) -> PlayMsg:
            return {
                "type": "play", "state_no": n, "seat": seat, "play": token, "by": kind,
                "events": self.rules.filter_events(events, viewer),
                "view": self.rules.view(state, viewer), "to_move": mover, "outcome": outcome,
                "turns": turns, "screen_owner": owner, "cover": cover,
            }

        self._broadcast(message)
        self._refresh(now)

    def _undo_last(self) -> tuple[int, str]:
        """Take back the last play: rewind to the dealt state and apply the rest again through
        :meth:`_step` (the deck order does not change); one new state number."""
        *kept, undone = self._log
        self._state, self._log = self._initial, []
        self.phase = "playing"
        for seat, token in kept:
            self._step(seat, self._check_play(seat, token))
        self._bump()
        return undone

    def undo(self, token: str) -> Result:
        """Solo only: take back the last play (replayed from the same seed without it)."""
        s = self._person_seat(token)
        if s is None:
            return self._no("bad_token", "bad token")
        if not self.is_solo():
            return self._no("not_allowed", "undo is only for solo games")
        if self.phase == "lobby":
            return self._no("not_started", "the game has not started")
        if self.phase == "over":
            return self._no("game_over", "game over")
        now = self._now()
        if self.paused():
            return self._no("paused", "paused")
        if not self._log:
            return self._no("not_allowed", "nothing to undo")
        undone = self._undo_last()
        self._record({"t": "undo", "n": self.state_no})
        self._busy_until = self._turn_since = self._table_time(now)
        self._drop_cpu_request()
        self._broadcast(lambda seat: self._reset(seat))
        self._refresh(now)
        return self._ok(f"took back {undone[1]}", play=undone[1])

    # ------------------------------------------------------------------ pause, speed

    def pause(self, token: str) -> Result:
        """Pause for everyone; every connected person must then tap Ready."""
        s = self._person_seat(token)
        is_host = self._is_host(token)
        if s is None and not is_host:
            return self._no("bad_token", "bad token")
        if self.phase == "lobby":
            return self._no("not_started", "the game has not started")
        if self.phase == "over":
            return self._no("game_over", "game over")
        for x in self._seats:
            if x.kind == "person":
                x.ready = False
        if s is not None:
            self._paused_by = s.index
            if self.host_seat is not None and s.index == self.host_seat:
                self._host_ready = True
        else:
            self._paused_by = None
            self._host_ready = False
        self._refresh(self._now())
        return self._ok("paused")

    def set_speed(self, host_token: str, name: str) -> Result:
        if not self._is_host(host_token):
            return self._no("not_host", "only the host sets the table speed")
        if not isinstance(name, str) or name not in SPEEDS:
            return self._no("bad_request", f"unknown speed {name!r} ({', '.join(SPEEDS)})")
        if name != self.speed.name:
            now = self._now()
            t = self._table_time(now)
            new = SPEEDS[name]
            # the animations still playing finish at the new speed too
            remaining = max(0.0, self._busy_until - t)
            self._busy_until = t + remaining * new.scale / self.speed.scale
            self.speed = new
            self._record({"t": "speed", "name": name})
            self._refresh(now)
        return self._ok(f"table speed {name}")

    # ------------------------------------------------------------------ connections

    def connect(self, token: str) -> Result:
        """A remote person connects to their seat (see the module docstring: joining)."""
        s = self._person_seat(token)
        if s is None:
            return self._no("bad_token", "bad token")
        if s.local:
            return self._no("not_allowed", "a local seat is always connected")
        back = s.seen and self.phase == "playing"
        s.connected = True
        s.dropped_at = None
        s.seen = True
        if back:
            # back after a drop: the game went on, they catch up (ready unless a pause is on)
            s.ready = self._paused_by == "-"
            s.joining = False
        else:
            s.ready = False
            s.joining = self.phase == "playing"
        self._drop_cpu_request()
        self._refresh(self._now())
        return self._ok(f"{s.name} is connected", seat=s.index)

    def disconnect(self, token: str) -> Result:
        s = self._person_seat(token)
        if s is None:
            return self._no("bad_token", "bad token")
        if s.local:
            return self._no("not_allowed", "a local seat is always connected")
        now = self._now()
        if s.connected:
            s.connected = False
            s.ready = False
            s.joining = False
            s.dropped_at = self._table_time(now)
        self._refresh(now)
        return self._ok(f"{s.name} dropped off", seat=s.index)

    def hand_to_cpu(self, token: str, seat: int, level: str = STAND_IN_LEVEL) -> Result:
        """A person hands their own seat to a CPU, or the host hands a missing person's seat."""
        if not is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        if not isinstance(level, str) or level not in CPU_LEVELS:
            return self._no("bad_request", f"unknown CPU level {level!r} ({', '.join(CPU_LEVELS)})")
        target = self._seats[seat]
        own = same(token, target.token)
        if not own and not self._is_host(token):
            return self._no("bad_token", "bad token")
        if target.kind != "person":
            return self._no("not_allowed", f"seat {seat} is already a CPU")
        if not own and target.connected:
            return self._no("not_allowed", f"{target.name} is still connected")
        if self.phase == "over":
            return self._no("game_over", "game over")
        if seat == self.host_seat:
            return self._no("not_allowed", "the host's seat cannot be handed to a CPU")
        self._replace_with_cpu(seat, level, left=target.name if self.phase == "playing" else None)
        self._refresh(self._now())
        return self._ok(f"seat {seat} is now {cpu_name(level)}", seat=seat)

    # ------------------------------------------------------------------ hot seat

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
        if self.game in NO_HAND_COVER or self.phase != "playing":
            return False
        local = self._local_people()
        if len(local) < 2:
            return False
        owner = self.screen_owner()
        return owner is not None and owner != self._screen_seat

    def tap_in(self, token: str) -> Result:
        s = self._person_seat(token)
        if s is None or not s.local:
            return self._no("bad_token", "bad token")
        owner = self.screen_owner()
        if owner is not None and owner != s.index:
            return self._no("not_allowed", f"the screen is for {self._seats[owner].name}")
        self._screen_seat = s.index
        self._refresh(self._now(), force=True)  # the screen and its cover changed hands
        return self._ok(f"{s.name} has the screen", seat=s.index)

    # ------------------------------------------------------------------ CPUs

    def _cpu_level(self, seat: int) -> tuple[str, str, float] | None:
        """(level, who, due table time) if a CPU or stand-in plays ``seat`` now."""
        s = self._seats[seat]
        sp = self.speed
        due = cpu_due(s.kind, s.connected, s.dropped_at, self._busy_until, self._turn_since,
                      sp.cpu_wait, sp.grace)
        if due is None:
            return None
        kind, at = due
        return (s.level if kind == "cpu" else STAND_IN_LEVEL), kind, at

    def _drop_cpu_request(self) -> None:
        if self._cpu_pending is not None:
            self.cpu.cancel(self._cpu_pending)
            self._cpu_pending = None

    def next_due(self) -> float | None:
        """The clock time at which :meth:`tick` next has something to do, if known.

        ``None`` while paused, over, or waiting for a person. (With an asynchronous runner the
        answer may come later than this: keep ticking.)
        """
        if self.phase != "playing" or self.paused():
            return None
        mover = self.rules.to_move(self._state)
        if mover is None:
            return None
        who = self._cpu_level(mover)
        if who is None:
            return None
        return who[2] + self._paused_total

    def tick(self) -> int:
        """Release a due CPU or stand-in play; returns how many plays were made (0 or 1)."""
        now = self._now()
        self._refresh(now)
        if self.phase != "playing" or self.paused():
            return 0
        mover = self.rules.to_move(self._state)
        if mover is None:
            return 0
        who = self._cpu_level(mover)
        if who is None:
            self._drop_cpu_request()
            return 0
        level, kind, due = who
        # compare on the wall clock exactly as next_due() reports it
        late = now >= due + self._paused_total
        key = (self.state_no, mover, level, kind)
        if kind == "standin" and not late:
            return 0  # the person may still come back: do not think yet
        if self._cpu_pending != key:
            self._drop_cpu_request()
            job = CpuJob(
                self.game, self.rules.view(self._state, mover), tuple(self._legal_tokens()),
                level, cpu_seed(self.seed, self.state_no, mover), self.speed.budget_ms,
                tuple({"seat": s, "play": p} for s, p in self._log[-HISTORY_MAX:]),
            )
            self._cpu_pending = key
            self.cpu.request(key, job)
        if not late:
            return 0
        try:
            answer = self.cpu.poll(key)
        except (CpuFailed, KeyError) as e:
            answer = self._fallback(f"the CPU for seat {mover} failed ({e})")
        if answer is None:
            limit = due + self._paused_total + CPU_TIMEOUT + self.speed.budget_ms / 1000
            if now < limit:
                return 0
            self.cpu.cancel(key)
            answer = self._fallback(
                f"the CPU for seat {mover} did not answer within {CPU_TIMEOUT:.0f} s"
            )
        self._cpu_pending = None
        try:
            play = self._check_play(mover, answer)
        except (RulesError, ValueError, TypeError) as e:
            play = self._check_play(mover, self._fallback(
                f"the CPU for seat {mover} chose {answer!r}, which is illegal ({e})"
            ))
        if kind == "cpu":
            self.cpu_plays += 1
        else:
            self.standin_plays += 1
        self._apply(mover, play, kind, now)
        return 1

    def _legal_tokens(self) -> list[str]:
        # COMPATIBILITY PATH: a rules object without ``legal_tokens`` (a test double)
        fast = getattr(self.rules, "legal_tokens", None)
        if fast is not None:
            return [str(p) for p in fast(self._state)]
        return [str(p) for p in self.rules.legal_plays(self._state)]

    def _fallback(self, why: str) -> str:
        msg = f"{why}; it plays the first legal play instead"
        log.warning(msg)
        self.warnings.append(msg)
        return self._legal_tokens()[0]

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
        }

    def _snapshot(self, seat: int | None) -> Snapshot:
        return {"type": "snapshot", **self._public(), "seat": seat,
                "view": self.rules.view(self._state, seat)}

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
