"""A table on this machine: the client's side of ``game.table.Table`` (Play, Solo, hot seat).

The scenes never touch the table directly; they call a session's intents and read what it
collected. :class:`LocalSession` owns the :class:`~game.table.Table`, ticks it every frame (CPU
plays are released there; a :class:`~game.cpu_worker.ProcessCpu` thinks in another process so a
frame never waits), drains its outbox and keeps the newest public summary and the newest view
of every local seat.

::

    s = LocalSession("track", {"rules": "tees", "seats": 4}, speed="normal")
    s.sit(0, "Ada")           # a person on this screen takes seat 0 (lobby)
    s.set_cpu(1, "nasty")
    s.start()
    each frame: for msg in s.poll(): ...   # {"type": "play", "events": [...], ...} etc.
    s.play(seat, token)       # a person's complete play
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from game.cpu_worker import CpuRunner, SyncCpu
from game.table import Result, SeatSpec, Table


class SessionReads:
    """What every session reads the same way from its newest ``public`` summary and its
    ``tokens`` (seat -> token of this machine's people)."""

    public: dict[str, Any]
    tokens: dict[int, str]

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.public["seats"]

    @property
    def phase(self) -> str:
        return self.public["phase"]

    @property
    def local_seats(self) -> list[int]:
        return sorted(self.tokens)


class LocalSession(SessionReads):
    """One local table, its local people and their tokens."""

    is_host = True
    remote = False

    def __init__(self, game: str, config: Mapping[str, Any], speed: str = "normal",
                 seed: int | None = None, cpu: CpuRunner | None = None,
                 clock: Callable[[], float] = time.monotonic, rules: Any = None) -> None:
        cfg = {k: v for k, v in config.items() if k != "game"}
        self.game = game
        self.seed = secrets.randbits(63) if seed is None else seed
        self.cpu = cpu if cpu is not None else SyncCpu()
        # ``rules``: a GameRules object instead of the game's own (Table.create takes either;
        # tests pass game.client.testing.FixedStart to begin from a hand-written position)
        self.table = Table.create(rules if rules is not None else game, cfg, self.seed,
                                  clock=clock, speed=speed, cpu=self.cpu)
        self.tokens: dict[int, str] = {}
        self.public: dict[str, Any] = self.table.snapshot(None)
        self.views: dict[int | None, dict[str, Any]] = {None: self.public["view"]}
        self.event_seat: int | None = None  # whose filtered events drive the animations
        self.last: Result | None = None

    # ------------------------------------------------------------------ reading
    @property
    def config(self) -> dict[str, Any]:
        return self.public["config"]

    def screen_seat(self) -> int | None:
        """The seat whose hand this screen shows (the hot-seat owner, else the one person)."""
        owner = self.public.get("screen_owner")
        if owner is not None:
            return owner
        return self.local_seats[0] if self.local_seats else None

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The newest view of ``seat`` (default: the screen's seat)."""
        if seat is None:
            seat = self.screen_seat()
        return self.views.get(seat) or self.views[None]

    # ------------------------------------------------------------------ lobby
    def _result(self, r: Result) -> Result:
        self.last = r
        self.refresh()
        return r

    def sit(self, seat: int, name: str) -> Result:
        r = self.table.take_seat(seat, name, local=True)
        if r.ok:
            self.tokens[seat] = r.data["token"]
            self.views[seat] = self.table.snapshot(seat)["view"]
            if self.event_seat is None:
                self.event_seat = seat
        return self._result(r)

    def rename(self, seat: int, name: str) -> Result:
        tok = self.tokens.get(seat)
        if tok is None:
            return self._result(Result(False, "bad_token", f"seat {seat} is not yours", 0))
        return self._result(self.table.rename(tok, name))

    def leave(self, seat: int) -> Result:
        tok = self.tokens.get(seat)
        if tok is None:
            return self._result(Result(False, "bad_token", f"seat {seat} is not yours", 0))
        r = self.table.leave(tok)
        if r.ok:
            del self.tokens[seat]
            self.views.pop(seat, None)
            self.table.unsubscribe(seat)
            if self.event_seat == seat:
                self.event_seat = self.local_seats[0] if self.local_seats else None
        return self._result(r)

    def set_cpu(self, seat: int, level: str) -> Result:
        return self._result(self.table.set_cpu(self.table.host_token, seat, level))

    def start(self) -> Result:
        r = self.table.start(self.table.host_token)
        if r.ok:
            for tok in self.tokens.values():
                self.table.ready(tok)
        return self._result(r)

    # ------------------------------------------------------------------ play
    def play(self, seat: int, token: str) -> Result:
        tok = self.tokens.get(seat)
        if tok is None:
            return self._result(Result(False, "bad_token", f"seat {seat} is not played here",
                                       self.table.state_no))
        return self._result(self.table.submit(tok, token, self.table.state_no))

    def pause(self) -> Result:
        seat = self.screen_seat()
        tok = self.tokens.get(seat) if seat is not None else None
        return self._result(self.table.pause(tok or self.table.host_token))

    def ready(self) -> Result:
        r = Result(True, "ok", "ready", self.table.state_no)
        for tok in self.tokens.values():
            r = self.table.ready(tok)
        self.table.ready(self.table.host_token)
        return self._result(r)

    def set_speed(self, name: str) -> Result:
        return self._result(self.table.set_speed(self.table.host_token, name))

    def hand_to_cpu(self, seat: int, level: str = "tricky") -> Result:
        tok = self.tokens.get(seat, self.table.host_token)
        r = self.table.hand_to_cpu(tok, seat, level)
        if r.ok and seat in self.tokens:
            del self.tokens[seat]
        return self._result(r)

    def tap_in(self, seat: int) -> Result:
        tok = self.tokens.get(seat)
        if tok is None:
            return self._result(Result(False, "bad_token", "not a local seat", 0))
        return self._result(self.table.tap_in(tok))

    def undo(self) -> Result:
        seat = self.screen_seat()
        tok = self.tokens.get(seat) if seat is not None else None
        return self._result(self.table.undo(tok or ""))

    # ------------------------------------------------------------------ each frame
    def refresh(self) -> None:
        snap = self.table.snapshot(None)
        self.public = snap
        self.views[None] = snap["view"]

    def poll(self) -> list[dict[str, Any]]:
        """Tick the table and return the messages for the event seat (or the spectator)."""
        self.table.tick()
        out: list[dict[str, Any]] = []
        changed = False
        for seat in [None, *self.tokens]:
            msgs = self.table.drain(seat)
            changed = changed or bool(msgs)
            for m in msgs:
                if m.get("type") == "play":
                    self.views[seat] = m["view"]
                elif m.get("type") == "reset":
                    self.views[seat] = m["snapshot"]["view"]
            if seat == self.event_seat:
                out = msgs
        if changed:
            self.refresh()
        return out

    def result(self) -> dict[str, Any] | None:
        return self.table.result()

    def close(self) -> None:
        """Stop the CPU runner and close the table (safe to call twice)."""
        self.cpu.close()
        self.table.close()


def default_seats(n: int) -> list[SeatSpec]:
    return [SeatSpec() for _ in range(n)]
