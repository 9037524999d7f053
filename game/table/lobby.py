"""The table's seat, pause, speed and connection intents (lobby, play, hot seat).

Each returns a :class:`~game.table.base.Result`; a refusal changes nothing. They change the
seats and the pause facts only, then :meth:`~game.table.base.TableBase._refresh` tells
everyone (the ``table`` message). The plays themselves go through ``game/table/table.py``.
See ``docs/table.md`` for each intent.
"""

from __future__ import annotations

from game.table.base import Result, TableBase
from game.table.pacing import SPEEDS
from game.table.seats import (
    CPU_LEVELS,
    NAME_MAX,
    STAND_IN_LEVEL,
    Seat,
    clean_name,
    cpu_name,
    is_seat,
    new_token,
    same,
)


class SeatIntents(TableBase):
    """Intents about who sits where, pause, speed and connections."""

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

