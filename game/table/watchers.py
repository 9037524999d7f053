"""Watchers, and seats changing hands during play (part of :class:`~game.table.Table`).

A watcher sees the public view only (the table's ``None`` viewer: no hand of any seat, no
face-down card, no stock order) with the same pacing, pause and speed as everyone; the public
summary lists who is watching. A watcher (or a person at the host's screen) asks for a CPU
seat; once the host accepts (or the table accepts on its own: ``auto_seat``) the seat changes
hands **at the start of that seat's next turn**, never in the middle of one (a Trash turn is
several plays). The rules (points, the plate, who is listed as played) are in
``docs/seats.md``; the intents and records in ``docs/table.md``.

Each intent returns a :class:`~game.table.base.Result`; a refusal changes nothing.
"""

from __future__ import annotations

from typing import Any

from game.table.base import Result
from game.table.lobby import SeatIntents
from game.table.seats import (
    NAME_MAX,
    STAND_IN_LEVEL,
    WATCHER_RECORDS_MAX,
    WATCHERS_MAX,
    Ask,
    Seat,
    Watcher,
    clean_name,
    is_seat,
    new_token,
    same,
)


class WatcherIntents(SeatIntents):
    """Watching, asking for a seat, and the change of hands at the seat's next turn."""

    # ------------------------------------------------------------------ watching

    def watch(self, name: str, *, token: str | None = None) -> Result:
        """Start (or, with a watcher's ``token``, resume) watching. ``data`` carries the
        watcher's ``token`` (its secret, for a rejoin) and public ``watcher`` number."""
        if not self.allow_watchers:
            return self._no("not_allowed", "the host does not allow watchers at this table")
        clean = clean_name(name)
        if clean is None:
            return self._no("bad_request", f"a name must have 1 to {NAME_MAX} characters")
        w = self._watcher(token)
        if token is not None and self.is_banned(token):
            return self._no("not_allowed", "the host asked you to stop watching this table")
        crowded = sum(x.connected for x in self._watchers.values()) >= WATCHERS_MAX
        if (w is None or not w.connected) and crowded:
            return self._no("not_allowed", f"this table already has {WATCHERS_MAX} watchers")
        if w is None:
            self._watcher_no += 1
            w = Watcher(self._watcher_no, clean, token or new_token())
            self._watchers[w.token] = w
            self._prune_watchers()
        w.connected = True
        self._refresh(self._now())
        return self._ok(f"{w.name} is watching", watcher=w.number, token=w.token)

    def _watcher(self, token: object) -> Watcher | None:
        if not isinstance(token, str):
            return None
        for w in self._watchers.values():
            if same(token, w.token):
                return w
        return None

    def _by_number(self, number: object) -> Watcher | None:
        for w in self._watchers.values():
            if type(number) is int and w.number == number:
                return w
        return None

    def _prune_watchers(self) -> None:
        """Forget the oldest disconnected watchers beyond :data:`WATCHER_RECORDS_MAX`."""
        gone = [t for t, w in self._watchers.items() if not w.connected]
        while len(self._watchers) > WATCHER_RECORDS_MAX and gone:
            del self._watchers[gone.pop(0)]

    def watcher_of(self, token: object) -> int | None:
        """The watcher number of ``token`` (None: not a watcher)."""
        w = self._watcher(token)
        return None if w is None else w.number

    def watcher_tokens(self) -> list[str]:
        """Every watcher's secret, and those the host showed out (for the host program's proof
        check, like ``token``: a shown-out watcher is then told why, not "unknown")."""
        return [w.token for w in self._watchers.values()] + sorted(self._banned)

    def is_banned(self, token: object) -> bool:
        """The host showed this watcher out (it may not watch again)."""
        return isinstance(token, str) and any(same(token, b) for b in self._banned)

    def watcher_connected(self, token: str, up: bool) -> Result:
        """A watcher's connection came up or went down (down: their request lapses)."""
        w = self._watcher(token)
        if w is None:
            return self._no("bad_token", "bad token")
        if w.connected != up:
            w.connected = up
            if not up:
                self._lapse(w.token, f"{w.name} stopped watching")
            self._refresh(self._now())
        return self._ok(f"{w.name} is {'watching' if up else 'away'}")

    def unwatch(self, token: str) -> Result:
        """A watcher leaves for good."""
        w = self._watcher(token)
        if w is None:
            return self._no("bad_token", "bad token")
        del self._watchers[w.token]
        self._lapse(w.token, f"{w.name} stopped watching")
        self._refresh(self._now())
        return self._ok(f"{w.name} left")

    def remove_watcher(self, host_token: str, number: int) -> Result:
        """The host shows a watcher out (their token may not watch again)."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host removes a watcher")
        w = self._by_number(number)
        if w is None:
            return self._no("bad_request", f"there is no watcher {number!r}")
        del self._watchers[w.token]
        self._banned.add(w.token)
        self._shown_out.append((w.token, "removed"))
        self._lapse(w.token, f"The host asked {w.name} to stop watching")
        self._refresh(self._now())
        return self._ok(f"{w.name} no longer watches", watcher=number)

    def set_allow_watchers(self, host_token: str, allowed: bool) -> Result:
        """The host allows or forbids watchers (forbidding shows the present ones out)."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host allows or forbids watchers")
        if type(allowed) is not bool:
            return self._no("bad_request", f"allowed must be true or false, not {allowed!r}")
        if allowed != self.allow_watchers:
            self.allow_watchers = allowed
            if not allowed:
                for w in list(self._watchers.values()):
                    self._shown_out.append((w.token, "no_watchers"))
                    self._lapse(w.token, "The host does not allow watchers any more")
                self._watchers.clear()
            self._record({"t": "watchers", "allowed": allowed})
            self._refresh(self._now())
        return self._ok("watchers allowed" if allowed else "watchers forbidden")

    def set_auto_seat(self, host_token: str, on: bool) -> Result:
        """The host lets the table give a CPU seat to whoever asks, without asking the host."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host sets how seats are given")
        if type(on) is not bool:
            return self._no("bad_request", f"on must be true or false, not {on!r}")
        if on != self.auto_seat:
            self.auto_seat = on
            self._record({"t": "auto_seat", "on": on})
            for a in self._asks.values():
                a.accepted = a.accepted or on
            self._refresh(self._now())
            self._lobby_handovers()
        return self._ok("seats are given on request" if on else "the host accepts each seat")

    # ------------------------------------------------------------------ asking for a seat

    def ask_seat(self, token: str, seat: int) -> Result:
        """A watcher asks for a CPU seat (one request per watcher: a new one replaces it)."""
        w = self._watcher(token)
        if w is None or not w.connected:
            if self._person_seat(token) is not None:
                return self._no("not_allowed", "you already have a seat")
            return self._no("bad_token", "bad token")
        if self.phase == "over":
            return self._no("game_over", "game over")
        why = self._askable(seat, w.token)
        if why is not None:
            return why
        self._lapse(w.token, None)
        ask = Ask(seat, w.name, new_token(), w.token, w.number, accepted=self.auto_seat)
        self._asks[seat] = ask
        if ask.accepted:
            self._note("ask", seat, f"{w.name} takes seat {seat} at its next turn")
        else:
            self._note("ask", seat, f"{w.name} asks for seat {seat}")
        self._refresh(self._now())
        self._lobby_handovers()
        return self._ok(f"{w.name} asked for seat {seat}", seat=seat, accepted=ask.accepted)

    def _askable(self, seat: object, watcher: str | None) -> Result | None:
        """A refusal when ``seat`` cannot be asked for now (None: it can)."""
        if not is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        assert isinstance(seat, int)
        s = self._seats[seat]
        if s.kind != "cpu":
            return self._no("not_allowed", f"seat {seat} is {s.name}'s: only a CPU seat can "
                                           f"be asked for")
        other = self._asks.get(seat)
        if other is not None and (watcher is None or other.watcher is None
                                  or not same(watcher, other.watcher)):
            return self._no("not_allowed", f"{other.name} asked for seat {seat} first")
        return None

    def accept_seat(self, host_token: str, seat: int) -> Result:
        """The host says yes: the seat changes hands at the start of its next turn."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host accepts a request for a seat")
        ask = self._asks.get(seat) if is_seat(seat, len(self._seats)) else None
        if ask is None:
            return self._no("not_allowed", f"nobody asked for seat {seat!r}")
        if not ask.accepted:
            ask.accepted = True
            self._note("ask", seat, f"{ask.name} takes seat {seat} at its next turn")
            self._refresh(self._now())
            self._lobby_handovers()
        return self._ok(f"{ask.name} takes seat {seat} at its next turn", seat=seat)

    def decline_seat(self, host_token: str, seat: int) -> Result:
        """The host says no (the watcher goes on watching)."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host declines a request for a seat")
        ask = self._asks.get(seat) if is_seat(seat, len(self._seats)) else None
        if ask is None:
            return self._no("not_allowed", f"nobody asked for seat {seat!r}")
        del self._asks[seat]
        self._note("declined", seat, f"The host declined {ask.name}'s request for seat {seat}")
        self._refresh(self._now())
        return self._ok(f"declined {ask.name}", seat=seat)

    def hand_to_watcher(self, token: str, seat: int, watcher: int) -> Result:
        """A person hands their own seat to a waiting watcher (a CPU plays it until the seat's
        next turn, when it changes hands); the host hands a CPU seat to a watcher."""
        if not is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        w = self._by_number(watcher)
        if w is None or not w.connected:
            return self._no("bad_request", f"there is no watcher {watcher!r} watching now")
        if self.phase == "over":
            return self._no("game_over", "game over")
        target = self._seats[seat]
        if target.kind == "person":
            if not same(token, target.token):
                if self._is_host(token):
                    return self._no("not_allowed", f"seat {seat} is {target.name}'s: hand it "
                                                   f"to a CPU first")
                return self._no("bad_token", "bad token")
            if seat == self.host_seat:
                return self._no("not_allowed", "the host's seat cannot be handed over")
            if target.local:
                return self._no("not_allowed", "a seat at this screen is handed over by "
                                               "someone at the screen taking it")
            other = self._asks.get(seat)
            if other is not None and not same(w.token, other.watcher or ""):
                return self._no("not_allowed", f"{other.name} asked for seat {seat} first")
            if self.phase == "lobby":
                r = self.leave(token)
            else:
                r = self.hand_to_cpu(token, seat, STAND_IN_LEVEL)
            if not r:
                return r
        elif not self._is_host(token):
            return self._no("not_host", "only the host gives a CPU seat to a watcher")
        else:
            why = self._askable(seat, w.token)
            if why is not None:
                return why
        self._lapse(w.token, None)
        self._asks[seat] = Ask(seat, w.name, new_token(), w.token, w.number, accepted=True)
        self._note("ask", seat, f"{w.name} takes seat {seat} at its next turn")
        self._refresh(self._now())
        self._lobby_handovers()
        return self._ok(f"{w.name} takes seat {seat} at its next turn", seat=seat)

    def take_seat(self, seat: int, name: str, *, local: bool = False) -> Result:
        """As in the lobby; during play, a person at this screen (``local``) takes a CPU seat
        at its next turn (hot seat): ``data`` carries the seat's token, valid from then on."""
        if self.phase != "playing" or not local:
            return super().take_seat(seat, name, local=local)
        if not self._local_people():
            return self._no("not_allowed", "nobody plays at this screen: watch and ask "
                                           "for a seat instead")
        clean = clean_name(name)
        if clean is None:
            return self._no("bad_request", f"a name must have 1 to {NAME_MAX} characters")
        why = self._askable(seat, None)
        if why is not None:
            return why
        ask = Ask(seat, clean, new_token(), None, None, local=True, accepted=True)
        self._asks[seat] = ask
        self._note("ask", seat, f"{clean} takes seat {seat} at its next turn")
        self._refresh(self._now())
        return self._ok(f"{clean} takes seat {seat} at its next turn", seat=seat,
                        token=ask.token, pending=True)

    def come_back(self, token: str) -> Result:
        """As in :class:`SeatIntents`; a request for that seat lapses (it is a person's)."""
        r = super().come_back(token)
        seat = r.data.get("seat") if r else None
        if isinstance(seat, int) and self._asks.pop(seat, None) is not None:
            self._refresh(self._now())
        return r

    def _lapse(self, watcher: str, why: str | None) -> None:
        """Drop the request of ``watcher`` (with a notice ``why``, if given)."""
        for i, a in list(self._asks.items()):
            if a.watcher is not None and same(watcher, a.watcher):
                del self._asks[i]
                if why is not None:
                    self._note("lapsed", i, f"{why}: seat {i} stays a CPU")

    # ------------------------------------------------------------------ the change of hands

    def _lobby_handovers(self) -> None:
        """In the lobby there are no turns: an accepted request is met at once."""
        if self.phase == "lobby":
            for i in [i for i, a in self._asks.items() if a.accepted]:
                self._hand_over(i)

    def _turn_starts(self, seat: int | None) -> None:
        """``seat``'s turn begins (the table calls it when the turn passes to it): an
        accepted request for it is met now, before anyone is asked for its play."""
        if seat is None:
            return
        ask = self._asks.get(seat)
        if ask is not None and ask.accepted:
            self._hand_over(seat)

    def _hand_over(self, i: int) -> None:
        ask = self._asks.pop(i)
        old = self._seats[i]
        if old.kind != "cpu":
            return
        if ask.watcher is not None:
            w = self._watchers.get(ask.watcher)
            if w is None or not w.connected:
                return
            del self._watchers[ask.watcher]  # a player now, no longer a watcher
            self._moved.append((ask.watcher, i, ask.token))
        self._install(i, ask.name, ask.token, ask.local)
        self._record({"t": "handover", "seat": i, "name": ask.name, "token": ask.token,
                      "local": ask.local, "n": self.state_no})
        self._note("seat_taken", i, f"{ask.name} now plays seat {i}")
        self._refresh(self._now())

    def _install(self, i: int, name: str, token: str, local: bool) -> None:
        """The person takes CPU seat ``i`` (also when a resume replays a ``handover``)."""
        old = self._seats[i]
        played = [p for p in old.played if p != name]  # back in a seat they left: not "left"
        playing = self.phase == "playing"
        # They watched (or sat at this screen) until now: connected and caught up, so no
        # "joining" pause; in the lobby everyone taps Ready as usual.
        new = Seat(i, "person", name, old.level, token, local, connected=True,
                   ready=playing or local, seen=True, played=played)
        self._put_seat(new, record=False)
        self._drop_cpu_request()

    def _replay_handover(self, rec: dict[str, Any]) -> None:
        """A ``handover`` record of a save, rebuilt exactly (``ValueError`` if damaged)."""
        i, name, token, n = rec.get("seat"), rec.get("name"), rec.get("token"), rec.get("n")
        if not is_seat(i, len(self._seats)) or not isinstance(name, str) or not name \
                or not isinstance(token, str) or not token or type(n) is not int:
            raise ValueError(f"a damaged handover record {rec!r}")
        assert isinstance(i, int)
        if self._seats[i].kind != "cpu":
            raise ValueError(f"seat {i} is not a CPU seat to hand over")
        if n != self.state_no:
            raise ValueError(f"state number {n}, expected {self.state_no}")
        self._install(i, name, token, rec.get("local") is True)

    def take_moved(self) -> list[tuple[str, int, str]]:
        """For the host program: each ``(watcher token, seat, seat token)`` of a watcher who
        took a seat since the last call (its connection gets the seat's token and snapshot)."""
        out, self._moved = self._moved, []
        return out

    def take_shown_out(self) -> list[tuple[str, str]]:
        """For the host program: each ``(watcher token, reason)`` to end with a ``bye``."""
        out, self._shown_out = self._shown_out, []
        return out
