"""The authoritative table: the one play path (check, apply, record, views), CPUs, building.

``docs/table.md`` is the design (creating and resuming, intents and their refusal codes, pause,
speed, connections, hot seat, solo, driving, output, points, the save file). :class:`Table` is
made of :class:`~game.table.base.TableBase` (the facts and what reads them: the summary, the
outbox, the save record) and :class:`~game.table.lobby.SeatIntents` (seats, pause, speed,
connections, hot seat); this file adds building and resuming, the start, the plays, undo and
the CPUs. The other ideas live beside it: :mod:`~game.table.pacing`, :mod:`~game.table.pause`,
:mod:`~game.table.seats`, :mod:`~game.table.savefile`, :mod:`~game.table.cpu`,
:mod:`~game.table.messages`, :mod:`~game.table.results`.

Every play (a person's, a CPU's, one replayed from a save) goes through :meth:`Table._apply`;
the engine is called in :meth:`Table._step` (an undo re-applies the kept plays there too), and
the state number moves only in :meth:`Table._bump`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from game.rules.api import GameRules, RulesError
from game.table import savefile
from game.table.base import OUTBOX_MAX, Result, TableBase, _opening, log
from game.table.cpu import CPU_TIMEOUT, HISTORY_MAX, CpuFailed, CpuJob, CpuRunner, cpu_due, cpu_seed
from game.table.errors import CorruptSave, SaveError, TableError
from game.table.lobby import _clock_setting
from game.table.messages import Event, PlayMsg, RecordMsg, StartMsg
from game.table.pacing import (
    CLOCK_MAX,
    CLOCK_MIN,
    PAUSE_LIMIT_DEFAULT,
    SPEEDS,
    TURN_CLOCK_DEFAULT,
)
from game.table.registry import rules_for
from game.table.seats import (
    STAND_IN_LEVEL,
    SeatSpec,
    is_seat,
    new_token,
    seat_from_record,
    seat_from_spec,
)
from game.table.watchers import WatcherIntents

__all__ = ["OUTBOX_MAX", "Result", "Table"]


class Table(WatcherIntents, TableBase):
    """One game at one table. Build it with :meth:`create` or :meth:`resume`."""

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
        turn_clock: float | None = TURN_CLOCK_DEFAULT,
        pause_limit: float | None = PAUSE_LIMIT_DEFAULT,
    ) -> Table:
        """A new table in the lobby. Raises :class:`TableError` (or ``RulesError`` for a bad
        config) without creating any file when an argument is wrong. ``turn_clock`` and
        ``pause_limit`` are the host's clock settings (None: off; see ``set_turn_clock``)."""
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
        raw = {"turn_clock": turn_clock, "pause_limit": pause_limit}
        clocks = {k: _clock_setting(v) for k, v in raw.items()}
        for what, value in clocks.items():
            if value is False:
                raise TableError(f"{what} must be None (off) or {CLOCK_MIN:g}..{CLOCK_MAX:g} "
                                 f"seconds, not {raw[what]!r}")
        table = cls(
            rules=rules, config=norm, seed=seed, seats=built, clock=clock, speed=speed,
            host_token=new_token(), host_seat=host_seat, table_id=secrets.token_hex(8), cpu=cpu,
            dealt=dealt,
        )
        if save_path is not None:
            table._save = savefile.SaveFile(Path(save_path), fsync=fsync, create=True)
            try:
                table._save.append(table._header())
            except OSError as e:  # this file was made just now (O_EXCL): take it away again
                table._save.close()
                with contextlib.suppress(OSError):
                    os.unlink(save_path)
                raise SaveError(f"cannot write the save file {save_path}: {e}") from None
        # a setting other than the default is a record right after the header, as if the host
        # had set it in the lobby (the header keeps its old fields: old saves still resume)
        table.turn_clock = clocks["turn_clock"]  # checked above: never False here
        table.pause_limit = clocks["pause_limit"]
        if table.turn_clock != TURN_CLOCK_DEFAULT:
            table._record({"t": "turn_clock", "seconds": table.turn_clock})
        if table.pause_limit != PAUSE_LIMIT_DEFAULT:
            table._record({"t": "pause_limit", "seconds": table.pause_limit})
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
            if rec.get("timeout") is True and self._seats[seat].kind == "person":
                self._seats[seat].timeouts += 1  # the plate's count survives a resume
            # who made it: marked when a stand-in did (saves before the mark: the seat's kind)
            maker = "standin" if rec.get("standin") is True else \
                "person" if self._seats[seat].kind == "person" else "cpu"
            self._apply(seat, self._check_play(seat, token), "replay", 0.0, maker=maker)
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
        elif t == "handover":
            self._replay_handover(dict(rec))
        elif t == "watchers":
            if type(rec.get("allowed")) is not bool:
                raise ValueError(f"a damaged watchers record {dict(rec)!r}")
            self.allow_watchers = rec["allowed"]
        elif t == "auto_seat":
            if type(rec.get("on")) is not bool:
                raise ValueError(f"a damaged auto_seat record {dict(rec)!r}")
            self.auto_seat = rec["on"]
        elif t in ("turn_clock", "pause_limit"):
            value = _clock_setting(rec.get("seconds", False))
            if value is False:
                raise ValueError(f"a damaged {t} record {dict(rec)!r}")
            setattr(self, t, value)
        else:
            raise ValueError(f"unknown record type {t!r}")

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
        self._turn_starts(mover)  # a seat asked for in the lobby and accepted since
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

    def _step(self, seat: int, play: Any, maker: str) -> list[Event]:
        """The engine applies ``play``; the log (and who made it) and the phase follow.
        Nothing else."""
        self._state, events = self.rules.apply(self._state, seat, play)
        self._log.append((seat, str(play)))
        self._makers.append(maker)
        if self.rules.outcome(self._state) is not None:
            self.phase = "over"
        return list(events)

    def _apply(self, seat: int, play: Any, by: str, now: float, *,
               timed_out: bool = False, maker: str = "") -> None:
        """THE play path, after the checks: apply, bump, record, pace, send each seat its
        view. ``by``: "person", "cpu", "standin", "timeout" (a stand-in whose person ran out
        of time), or "replay" (a resume replaying its save, with its ``maker``: applies and
        bumps only). ``timed_out``: the first stand-in play of a turn whose clock ran out
        (recorded)."""
        kind: Literal["person", "cpu", "standin"] = (
            "person" if by == "person" else "cpu" if by == "cpu" else "standin")  # timeout too
        if by == "replay" and maker not in ("person", "cpu", "standin"):
            raise ValueError(f"a replayed play needs who made it, not {maker!r}")
        events = self._step(seat, play, maker if by == "replay" else kind)
        n = self._bump()
        token = str(play)
        if by != "timeout" or self.to_move() != seat:
            self._finishing = None  # the person played, or the timed-out turn is over
        if by == "replay":
            return
        rec: dict[str, Any] = {"t": "play", "seat": seat, "play": token, "n": n}
        if kind == "standin":
            rec["standin"] = True  # a CPU played for the person: their record says so
        if timed_out:
            rec["timeout"] = True  # the turn clock ran out (resume counts it on the plate)
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
        def message(viewer: int | None) -> PlayMsg:
            return {
                "type": "play", "state_no": n, "seat": seat, "play": token, "by": kind,
                "events": self.rules.filter_events(events, viewer),
                "view": self.rules.view(state, viewer), "to_move": mover, "outcome": outcome,
                "turns": turns, "screen_owner": owner, "cover": cover,
            }

        self._broadcast(message)
        if self.phase == "over":
            self._asks.clear()  # nothing left to take
            text = self._finished_record()
            if text:  # every machine keeps the game: the same record for every viewer
                record: RecordMsg = {"type": "record", "text": text}
                self._broadcast(lambda viewer: record)
        elif mover != seat:
            self._turn_starts(mover)  # the turn passed: a seat asked for changes hands now
        self._refresh(now)

    def _finished_record(self) -> str | None:
        """The finished game's record (docs/record.md), made once: sent to every viewer at the
        end and in the snapshots of a finished table. Never raises: a record that cannot be
        made is logged and left out (the game stands)."""
        if self.phase != "over":
            return None
        if self._record_made is None:
            from game.table.record import record_text  # record.py builds on this module

            try:
                self._record_made = record_text(self)
            except Exception as e:  # the play path never fails for it
                log.warning("no record of table %s: %s", self.table_id, e)
                self._record_made = ""
        return self._record_made or None

    def _undo_last(self) -> tuple[int, str]:
        """Take back the last play: rewind to the dealt state and apply the rest again through
        :meth:`_step` (the deck order does not change); one new state number."""
        *kept, undone = self._log
        makers = self._makers[:-1]
        self._state, self._log, self._makers = self._initial, [], []
        self.phase = "playing"
        for (seat, token), maker in zip(kept, makers, strict=True):
            self._step(seat, self._check_play(seat, token), maker)
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

    # ------------------------------------------------------------------ CPUs

    def _cpu_level(self, seat: int) -> tuple[str, str, float] | None:
        """(level, who, due table time) if a CPU or stand-in plays ``seat`` now."""
        s = self._seats[seat]
        sp = self.speed
        due = cpu_due(s.kind, s.connected, s.dropped_at, self._busy_until, self._turn_since,
                      sp.cpu_wait, sp.grace)
        if due is None:  # a connected person: their turn clock
            if seat == self._finishing:  # it ran out: the stand-in finishes the turn
                return STAND_IN_LEVEL, "timeout", max(self._busy_until, self._turn_since) + \
                    sp.cpu_wait
            deadline = self._turn_deadline()
            return None if deadline is None else (STAND_IN_LEVEL, "timeout", deadline)
        kind, at = due
        return (s.level if kind == "cpu" else STAND_IN_LEVEL), kind, at

    def next_due(self) -> float | None:
        """The clock time at which :meth:`tick` next has something to do, if known.

        ``None`` while over, or waiting for a person with no turn clock; while paused, when the
        pause ends by itself (None if it does not). (With an asynchronous runner the answer
        may come later than this: keep ticking.)
        """
        if self.phase == "playing" and self.paused():
            return self._pause_deadline()
        if self.phase != "playing":
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
        pause_due = self._pause_deadline()
        if pause_due is not None and now >= pause_due:
            self._end_pause(now, f"Nobody resumed play within {_words(self.pause_limit)}")
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
        if kind != "cpu" and not late:
            return 0  # the person may still come back (or play): do not think yet
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
        first = kind == "timeout" and mover != self._finishing
        if first:  # the turn's first stand-in play: counted once per turn
            self.timeout_plays += 1
            s = self._seats[mover]
            s.timeouts += 1
            self._note("timed_out", mover, f"{s.name} took too long: a CPU played for them")
        if kind == "timeout":
            self._finishing = mover
        self._apply(mover, play, kind, now, timed_out=first)
        return 1

    def _legal_tokens(self) -> list[str]:
        return [str(p) for p in self.rules.legal_tokens(self._state)]

    def _fallback(self, why: str) -> str:
        msg = f"{why}; it plays the first legal play instead"
        log.warning(msg)
        self.warnings.append(msg)
        return self._legal_tokens()[0]



def _words(seconds: float | None) -> str:
    """``120`` -> ``"2 min"``, ``90`` -> ``"90 s"`` (for the notices)."""
    if seconds is None:
        return "the limit"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"
