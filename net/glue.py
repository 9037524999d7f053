"""The host's adapter over :class:`game.table.Table`: intents in, the table's messages out.

Everything the network layer needs from the table goes through :class:`TableGlue`, which maps
protocol messages onto the table's intents (each returns a ``Result``; a refusal becomes a
:class:`Refusal` with the table's own code and message) and carries the table's per-seat
outbox (``drain(seat)``: ``start``, ``play``, ``table``, ``reset``) and its ``snapshot`` to the
wire one to one: the same dict, with ``t`` for ``type`` (:func:`game.table.messages.to_wire`).
Nothing is translated, merged or dropped. The table already filters what each seat may know;
the glue only ever asks it for the connection's own seat.

When the host takes a seat from a person (``hand_to_cpu`` on someone else's seat, ``remove``),
that person's token stops working. The glue notes it: :meth:`TableGlue.take_ended` gives the
host each such ``(token, reason)`` to end with a ``bye`` (``reason`` is ``"removed"`` or
``"handed"``), and until then the seat's outbox is not fed to the old connection (``collect``
skips it), so nobody watches a CPU's hand through a stale connection. A token the host
removed joins again as a watcher (no seat); a token the host handed to a CPU (or removed and
then allowed back) takes its seat back on joining.

Watchers (``docs/seats.md``): a newcomer after the start, or one whose ``hello`` says
``watch``, becomes a watcher of the table (``Table.watch``: the public view, seat ``None``). A
watcher may only ask for a seat (``ask_seat``) or leave; every other intent is refused
``watching``. When a requested seat changes hands (at the start of its next turn),
:meth:`TableGlue.take_moved` tells the host which connection now holds which seat.
"""

from __future__ import annotations

from typing import Any

from game.table.messages import to_wire
from net.protocol import VERSION


class Refusal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TableGlue:
    def __init__(self, table: Any) -> None:
        self.table = table
        self.code = ""
        self.link = ""
        self._ended: dict[str, str] = {}  # token -> why: the host must say bye and close it
        self._gone: set[int] = set()  # seats taken from a connected person: not fed until
        #                               someone subscribes them again (snapshot)
        self._notes: dict[str, str] = {}  # token -> why it watches (for its welcome)

    def take_ended(self) -> list[tuple[str, str]]:
        """The tokens whose connections the host must end now, each with the ``bye`` reason
        (``"removed"``: the host removed the person, or showed a watcher out; ``"handed"``: the
        host gave the seat to a CPU; ``"no_watchers"``: the host forbade watchers). Each is
        given once."""
        out = list(self._ended.items())
        self._ended.clear()
        out.extend(self.table.take_shown_out())
        return out

    def take_moved(self) -> list[tuple[str, int, str]]:
        """Each ``(watcher token, seat, seat token)`` of a watcher whose requested seat changed
        hands since the last call: the host gives its connection the seat's token (a fresh
        ``welcome``) and the seat's snapshot."""
        moved: list[tuple[str, int, str]] = self.table.take_moved()
        for _w, seat, _tok in moved:
            self._gone.discard(seat)
        return moved

    def is_watcher(self, token: str) -> bool:
        return self.table.watcher_of(token) is not None

    def welcome_extra(self, token: str) -> dict[str, Any]:
        """The welcome's watcher fields for the connection of ``token`` (none for a seat)."""
        number = self.table.watcher_of(token)
        if number is None:
            return {}
        note = self._notes.pop(token, "You are watching: ask the host for a CPU seat to play")
        return {"watcher": number, "note": note}

    # --- identity ----------------------------------------------------------------------------

    def set_link(self, link: str, code: str) -> None:
        self.link, self.code = link, code

    def table_name(self) -> str:
        t = self.table
        hs = t.host_seat
        who = t.seat_info(hs)["name"] if hs is not None else None
        return f"{who}'s table" if who else "Tee Table"

    def host_token(self) -> str:
        t = self.table
        return t.token(t.host_seat) if t.host_seat is not None else t.host_token

    def seat_of(self, token: str) -> int | None:
        if token == self.table.host_token:
            return self.table.host_seat
        return self.table.seat_of(token)

    def secrets(self) -> list[str]:
        """Every token :meth:`join` accepts: the admin's, each person seat's, and each token
        the host took a seat from (it comes back to the seat, or watches). A host that checks
        proofs of a secret instead of the token itself checks them against these."""
        t = self.table
        out = [t.host_token]
        for i in range(t.seat_count):
            if t.seat_info(i)["kind"] == "person":
                out.append(t.token(i))
            former = t.former_token(i)
            if former is not None:
                out.append(former)
        out.extend(t.watcher_tokens())
        return out

    def summary(self, token: str) -> dict[str, Any]:
        t = self.table
        return {
            "code": self.code, "link": self.link, "table_id": t.table_id, "game": t.game,
            "config": t.config, "seat_count": t.seat_count, "host_seat": t.host_seat,
            "is_host": t.is_host(token), "protocol": VERSION,
        }

    # --- joining -----------------------------------------------------------------------------

    def _watch(self, name: str, token: str | None, note: str) -> str:
        r = self.table.watch(name, token=token)
        if not r:
            code = "no_watchers" if not self.table.allow_watchers else r.code
            raise Refusal(code, r.message)
        tok = str(r.data["token"])
        self._notes[tok] = note
        return tok

    def join(self, name: str, token: str | None, *, watch: bool = False) -> str:
        """The token this connection will use; raises Refusal (sent as a fatal error).
        A newcomer after the start (or one who asks to, ``watch``) becomes a watcher."""
        t = self.table
        if token is None:
            if watch:
                return self._watch(name, None, "You are watching: ask the host for a CPU "
                                               "seat to play")
            if t.phase != "lobby":
                return self._watch(name, None, "The game has already started: you are "
                                               "watching. Ask the host for a CPU seat to play")
            r = t.sit(name)
            if not r:
                raise Refusal("table_full", f"the table is full ({r.message}): join to watch")
            return str(r.data["token"])
        if token == t.host_token:
            return token
        if t.is_banned(token):
            raise Refusal("removed", "the host asked you to stop watching this table")
        seat = t.seat_of(token)
        if seat is None:
            former = t.former_seat(token)
            if former is not None:
                info = t.seat_info(former)
                if info.get("removed") or t.phase == "over":
                    # removed by the host (or all over): they watch, under their old token
                    return self._watch(info.get("former_name") or name, token,
                                       "The host removed you from your seat: you are watching"
                                       if info.get("removed") else "The game is over")
                self._check(t.come_back(token))  # the host handed it, or let them back
                if t.watcher_of(token) is not None:
                    t.unwatch(token)  # they watched meanwhile: now they play again
                self._gone.discard(former)
                return token
        if seat is None and t.watcher_of(token) is not None:  # a watcher rejoins
            return self._watch(name, token, "You are watching again")
        if seat is None or t.seat_info(seat)["kind"] != "person":
            raise Refusal("bad_token", "this table has no seat for that token (a different "
                                       "table, or the seat was handed to a CPU)")
        return token

    def connected(self, token: str, up: bool, *, last: bool = True) -> None:
        """A connection of ``token`` came up or went down (``last``: no other seatless
        connection is left, so the spectators' outbox goes)."""
        t = self.table
        seat = self.seat_of(token)
        if seat is None:
            # the admin (host token, no seat) or a watcher: a seatless connection reads the
            # spectators' outbox (None). The host says "down" only when no other connection
            # of that seat is left, so the box goes with it: a later admin or watcher gets
            # its snapshot first, never the frames queued while nobody read them. (Any other
            # seatless token is the stale connection of a seat the host took: it read that
            # seat's box, not this one, which must stay.)
            if t.watcher_of(token) is not None:
                t.watcher_connected(token, up)
            if not up and last and (token == t.host_token or t.watcher_of(token) is not None):
                t.unsubscribe(None)
            return
        if up:
            t.connect(token)  # not_allowed for a local seat: it is always connected
        else:
            t.unsubscribe(seat)
            t.disconnect(token)

    # --- intents -----------------------------------------------------------------------------

    def _check(self, r: Any) -> Any:
        if not r:
            raise Refusal(r.code, r.message)
        return r

    def intent(self, token: str, msg: dict[str, Any]) -> str | None:
        """Apply one intent. Returns a new token if the connection's token changed (sit)."""
        t, kind = self.table, msg["t"]
        if t.watcher_of(token) is not None and t.former_seat(token) is None:
            self._watcher_intent(token, msg)
            return None
        if token != t.host_token and t.seat_of(token) is None:
            former = t.former_seat(token)
            if former is not None:  # the host took this seat (a watcher, or a stale connection)
                if t.seat_info(former).get("removed"):
                    raise Refusal("removed", "the host removed you from the table: you may "
                                             "watch, and play again if the host lets you back")
                raise Refusal("handed", f"the host handed your seat to a CPU: join again "
                                        f"to take seat {former} back")
        if kind == "play":
            self._check(t.submit(token, msg["play"], msg["state_no"]))
        elif kind == "ready":
            if msg.get("ready", True) is False:
                raise Refusal("not_allowed", "Ready cannot be taken back; pause instead")
            self._check(t.ready(token))
        elif kind == "pause":
            self._check(t.pause(token))
        elif kind == "speed":
            self._check(t.set_speed(token, msg["name"]))
        elif kind == "set_cpu":
            self._check(t.set_cpu(token, msg["seat"], msg["level"]))
        elif kind == "hand_to_cpu":
            self._take(token, msg["seat"], "handed",
                       lambda: t.hand_to_cpu(token, msg["seat"], msg["level"]))
        elif kind == "remove":
            self._take(token, msg["seat"], "removed", lambda: t.remove(token, msg["seat"]))
        elif kind == "allow":
            self._check(t.allow(token, msg["seat"]))
        elif kind == "turn_clock":
            self._check(t.set_turn_clock(token, msg["seconds"]))
        elif kind == "pause_limit":
            self._check(t.set_pause_limit(token, msg["seconds"]))
        elif kind == "end_pause":
            self._check(t.end_pause(token))
        elif kind == "start":
            self._check(t.start(token))
        elif kind == "leave":
            seat = self.seat_of(token)
            if seat is None:
                raise Refusal("not_allowed", "no seat to leave")
            if msg.get("to") is not None:  # to a waiting watcher
                self._check(t.hand_to_watcher(token, seat, msg["to"]))
            elif t.phase == "lobby":
                self._check(t.leave(token))
            else:
                self._check(t.hand_to_cpu(token, seat, "tricky"))
        elif kind == "hand_to_watcher":
            self._take(token, msg["seat"], "handed",
                       lambda: t.hand_to_watcher(token, msg["seat"], msg["watcher"]))
        elif kind == "ask_seat":
            raise Refusal("not_allowed", "you already have a seat")
        elif kind == "accept_seat":
            self._check(t.accept_seat(token, msg["seat"]))
        elif kind == "decline_seat":
            self._check(t.decline_seat(token, msg["seat"]))
        elif kind == "remove_watcher":
            self._check(t.remove_watcher(token, msg["watcher"]))
        elif kind == "watchers":
            self._check(t.set_allow_watchers(token, msg["allowed"]))
        elif kind == "auto_seat":
            self._check(t.set_auto_seat(token, msg["on"]))
        elif kind == "sit":
            return self._sit(token, msg["seat"])
        else:
            raise Refusal("bad_request", f"{kind!r} is not an intent")
        return None

    def _watcher_intent(self, token: str, msg: dict[str, Any]) -> None:
        """A watcher may ask for a seat or leave; anything else is refused, changing nothing."""
        t, kind = self.table, msg["t"]
        if kind == "ask_seat":
            self._check(t.ask_seat(token, msg["seat"]))
        elif kind == "leave":
            self._check(t.unwatch(token))
        else:
            raise Refusal("watching", "you are watching this table: ask for a CPU seat to "
                                      "play")

    def _take(self, token: str, seat: int, why: str, act: Any) -> None:
        """The host (or the person) gives ``seat`` to a CPU; a person it was taken from is
        noted for the host to end (:meth:`take_ended`)."""
        t = self.table
        old = t.token(seat) if isinstance(seat, int) and 0 <= seat < t.seat_count else None
        self._check(act())
        if old is not None and old != token and t.seat_of(old) is None:
            self._ended[old] = why
            self._gone.add(seat)

    def _sit(self, token: str, seat: int) -> str:
        t = self.table
        old = self.seat_of(token)
        if old == seat:
            raise Refusal("not_allowed", f"you already sit at seat {seat}")
        if old is not None and old == t.host_seat:
            raise Refusal("not_allowed", "the host's seat stays where it is")
        name = t.seat_info(old)["name"] if old is not None else "Guest"
        r = self._check(t.take_seat(seat, name))
        new = str(r.data["token"])
        if old is not None and token != t.host_token:
            t.leave(token)
            t.unsubscribe(old)
        return new

    # --- output ------------------------------------------------------------------------------

    def tick(self) -> int:
        made = 0
        for _ in range(64):  # a fast clock can make several plays due at once
            n = self.table.tick()
            if not n:
                break
            made += n
        return made

    def snapshot(self, token: str) -> dict[str, Any]:
        """The wire ``snapshot`` for the connection of ``token`` (it subscribes its seat)."""
        seat = self.seat_of(token)
        if seat is not None:
            self._gone.discard(seat)  # its own person subscribes it again
        snap = self.table.snapshot(seat)
        self.table.drain(seat)  # the snapshot covers everything queued so far
        return to_wire(snap)

    def collect(self, seats: set[int | None]) -> dict[int | None, list[dict[str, Any]]]:
        """The wire form of each of ``seats``' table messages since the last call."""
        out: dict[int | None, list[dict[str, Any]]] = {}
        for seat in seats:
            if seat in self._gone:  # a stale connection of a seat the host took away
                self.table.unsubscribe(seat)
                continue
            msgs = [to_wire(m) for m in self.table.drain(seat)]
            if msgs:
                out[seat] = msgs
        return out
