"""The table's seat, pause, speed and connection intents (lobby, play, hot seat).

Each returns a :class:`~game.table.base.Result`; a refusal changes nothing. They change the
seats and the pause facts only, then :meth:`~game.table.base.TableBase._refresh` tells
everyone (the ``table`` message). The plays themselves go through ``game/table/table.py``.
See ``docs/table.md`` for each intent.
"""

from __future__ import annotations

import math
from typing import Literal

from game.table.base import Result, TableBase
from game.table.pacing import CLOCK_MAX, CLOCK_MIN, SPEEDS
from game.table.pause import NO_PAUSE
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
        self, i: int, level: str, *, left: str | None, token: str | None = None,
        former: str | None = None, former_name: str | None = None, allowed: bool = False,
    ) -> None:
        played = list(self._seats[i].played)
        if left is not None and self._seats[i].kind == "person":  # a person leaves during play
            played.append(left)
        self._put_seat(Seat(i, "cpu", cpu_name(level), level, token or new_token(), False,
                            left=left, former=former, former_name=former_name,
                            allowed=allowed, played=played))
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
        self._replace_with_cpu(seat, level, left=s.left, token=s.token,  # keeps its token
                               former=s.former, former_name=s.former_name, allowed=s.allowed)
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
        now = self._now()
        if s is not None and not is_host:
            until = self._pause_block.get(s.index)
            if until is not None and self._table_time(now) < until:
                return self._no("not_allowed", f"{s.name}'s last pause had to be ended for "
                                               f"everyone: play on for "
                                               f"{until - self._table_time(now):.0f} s first")
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

    def end_pause(self, host_token: str) -> Result:
        """The host resumes play now: whoever is not ready yet is treated as ready."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host ends a pause for everyone")
        if self.phase != "playing":
            return self._no("not_allowed", "no game is being played")
        if not self.paused():
            return self._no("not_allowed", "the table is not paused")
        self._end_pause(self._now(), "The host resumed play")
        return self._ok("play resumes")

    def _end_pause(self, now: float, why: str) -> None:
        """End every pause reason of a game in play: the connected people who are not ready
        are treated as ready (they are still there; the turn clock covers them), the notice
        says why and who was not ready."""
        waiting = [s for s in self._seats
                   if s.kind == "person" and s.connected and (not s.ready or s.joining)]
        for s in waiting:
            s.ready = True
            s.joining = False
        if isinstance(self._paused_by, int) and self.pause_limit is not None:
            # the pauser did not resume it: no new pause from them for a while of play
            self._pause_block[self._paused_by] = self._table_time(now) + self.pause_limit
        self._paused_by = NO_PAUSE
        self._host_ready = True
        names = ", ".join(s.name for s in waiting)
        text = f"{why}: the game goes on" + (f" ({names} not ready)" if names else "")
        self._note("pause_ended", None, text)
        self._refresh(now)

    def set_turn_clock(self, host_token: str, seconds: float | None) -> Result:
        """The host sets a person's turn clock (seconds at normal speed, scaled by the speed;
        None: off). It applies to the running turn too, counted from its start."""
        return self._set_clock(host_token, seconds, "turn_clock")

    def set_pause_limit(self, host_token: str, seconds: float | None) -> Result:
        """The host sets how long (clock seconds, any speed) a pause nobody resumes lasts;
        None: off. A pause already running counts from its start."""
        return self._set_clock(host_token, seconds, "pause_limit")

    def _set_clock(self, host_token: str, seconds: float | None,
                   which: Literal["turn_clock", "pause_limit"]) -> Result:
        """Either clock setting: the attribute and the save record share the name ``which``."""
        words = which.replace("_", " ")  # "turn clock", "pause limit"
        if not self._is_host(host_token):
            return self._no("not_host", f"only the host sets the {words}")
        value = _clock_setting(seconds)
        if value is False:
            return self._no("bad_request", f"a {words} is off (None) or {CLOCK_MIN:g} to "
                                           f"{CLOCK_MAX:g} seconds, not {seconds!r}")
        if value != getattr(self, which):
            setattr(self, which, value)
            self._record({"t": which, "seconds": value})
            self._refresh(self._now())
        return self._ok(f"{words} off" if value is None else f"{words} {value:g} s")

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
        """A person hands their own seat to a CPU for good; the host hands anyone's seat,
        connected or not (that person's token stops working, and they may come back to the
        seat by rejoining with it: :meth:`come_back`)."""
        return self._take_seat_from(token, seat, level, remove=False)

    def remove(self, host_token: str, seat: int, level: str = STAND_IN_LEVEL) -> Result:
        """The host removes a person from the table: a CPU takes the seat, the person's token
        stops working and they may only watch until the host :meth:`allow` s them back."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host removes a person")
        return self._take_seat_from(host_token, seat, level, remove=True)

    def _take_seat_from(self, token: str, seat: int, level: str, *, remove: bool) -> Result:
        if not is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        if not isinstance(level, str) or level not in CPU_LEVELS:
            return self._no("bad_request", f"unknown CPU level {level!r} ({', '.join(CPU_LEVELS)})")
        target = self._seats[seat]
        own = same(token, target.token) and not remove
        if not own and not self._is_host(token):
            return self._no("bad_token", "bad token")
        if target.kind != "person":
            return self._no("not_allowed", f"seat {seat} is already a CPU")
        if self.phase == "over":
            return self._no("game_over", "game over")
        if seat == self.host_seat:
            return self._no("not_allowed", "the host's seat cannot be handed to a CPU")
        if target.local and not own:
            return self._no("not_allowed", f"{target.name} plays on this screen")
        left = target.name if self.phase == "playing" else None
        if own:
            self._replace_with_cpu(seat, level, left=left)
        else:
            self._replace_with_cpu(seat, level, left=left, former=target.token,
                                   former_name=target.name, allowed=not remove)
            if remove:
                self._note("removed", seat, f"The host removed {target.name} from the table: "
                                            f"a CPU ({level}) plays seat {seat}")
            else:
                self._note("handed", seat, f"The host handed {target.name}'s seat to a CPU "
                                           f"({level})")
        self._refresh(self._now())
        return self._ok(f"seat {seat} is now {cpu_name(level)}", seat=seat)

    def allow(self, host_token: str, seat: int) -> Result:
        """The host lets the person removed from ``seat`` come back to it (:meth:`come_back`)."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host lets a person back")
        if not is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        s = self._seats[seat]
        if s.former is None:
            return self._no("not_allowed", f"nobody was removed from seat {seat}")
        if not s.allowed:
            s.allowed = True
            self._record({"t": "seat", **s.to_record()})
            self._note("allowed", seat, f"{s.former_name} may come back to seat {seat}")
            self._refresh(self._now())
        return self._ok(f"{s.former_name} may come back to seat {seat}", seat=seat)

    def former_seat(self, token: object) -> int | None:
        """The seat the host took from the person with ``token`` (None: none)."""
        if not isinstance(token, str):
            return None
        for s in self._seats:
            if s.former is not None and same(token, s.former):
                return s.index
        return None

    def former_token(self, seat: int) -> str | None:
        """The token of the person the host took ``seat`` from (for the host program only,
        like :meth:`token`: it checks a rejoin's proof against it)."""
        return self._seats[seat].former

    def come_back(self, token: str) -> Result:
        """A person the host took a seat from takes it back (handed, or removed and then
        allowed): the seat is theirs again with the same token; connect as usual."""
        i = self.former_seat(token)
        if i is None:
            return self._no("bad_token", "bad token")
        s = self._seats[i]
        if not s.allowed:
            return self._no("not_allowed", f"the host removed {s.former_name} from the table")
        if self.phase == "over":
            return self._no("game_over", "game over")
        name = s.former_name or "Guest"
        played = list(s.played)
        if name in played:  # back in the seat the host took: they hold it again
            del played[len(played) - 1 - played[::-1].index(name)]
        self._put_seat(Seat(i, "person", name, s.level, token, False, played=played))
        self._drop_cpu_request()
        self._note("back", i, f"{name} is back at seat {i}")
        self._refresh(self._now())
        return self._ok(f"{name} is back at seat {i}", seat=i, token=token)

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



def _clock_setting(seconds: object) -> float | bool | None:
    """A clock setting checked: None (off), a float in CLOCK_MIN..CLOCK_MAX, or False (bad)."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return False
    v = float(seconds)
    if not math.isfinite(v) or not CLOCK_MIN <= v <= CLOCK_MAX:
        return False
    return v
