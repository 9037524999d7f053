"""The table's messages, typed once: the outbox, the wire and the client's scenes speak these.

Every message is a plain dict (msgpack-friendly: dicts, lists, ints, floats, strs, bools,
None). A table message has a ``type``; on the wire the same dict travels with ``t`` in place of
``type`` and nothing else changed (``net.glue`` renames the one key, ``net.protocol`` derives
its schema of host messages from the classes here, so no message is written down twice).

Table messages (:data:`TABLE_MESSAGES`), as :meth:`game.table.Table.drain` queues them:

* ``start`` once when the game starts: the opening deal's events (filtered for the viewer),
  the viewer's view, the state number and who moves first.
* ``play`` after each play: the play's events (filtered), the new view, the state number, the
  seat that played, the play's token, who made it (``person``/``cpu``/``standin``), who moves
  next, the outcome (None until the game is over), the turn count and the hot-seat screen.
* ``table`` when the public summary changes (seats, pause, speed, connections, phase, the
  clocks' deadlines, the latest :class:`Notice`...): every field of :class:`Public`.
* ``reset`` when the client must jump (an undo, an outbox that overflowed): a full snapshot.
* ``snapshot`` (not queued: the answer of :meth:`Table.snapshot`, sent on joining): the public
  summary plus the viewer's seat and view (and, once the game is over, its ``record``).
* ``record`` once, right after the play that ends the game: the game's record (docs/record.md),
  the same text for every seat and watcher (a finished game has no secrets), so every machine
  can keep it among its recent games and watch it again, a guest's and a phone's too.

Wire-only host messages (:data:`WIRE_ONLY`): ``welcome``, ``refused``, ``error``, ``pong``,
``bye`` (see ``docs/protocol.md``).

Durations are not carried: the client derives each event's from
:func:`game.table.pacing.event_duration` at normal speed and runs its clock at the table speed's
``scale`` (``SPEEDS[public["speed"]].scale``), exactly as the table paces its CPUs.

Field types that the wire checks more tightly are tagged with ``Annotated`` (:data:`Seat`,
:data:`StateNo`, :data:`Token`, :data:`Text`, :data:`Count`): ``net.protocol`` maps each tag
to a checker.
"""

# No ``from __future__ import annotations``: TypedDict must see NotRequired at class creation.
from typing import Annotated, Any, Literal, NotRequired, TypedDict

Seat = Annotated[int, "seat"]
StateNo = Annotated[int, "state_no"]
Token = Annotated[str, "token"]
Text = Annotated[str, "text"]
RecordText = Annotated[str, "record"]  # a game record's text (lines: newlines allowed)
Count = Annotated[int, "count"]  # a whole number >= 0
Event = dict[str, Any]
View = dict[str, Any]


class PauseReason(TypedDict):
    """One reason the table is paused (see ``game.table.pause``)."""

    reason: Literal["lobby", "paused", "joining", "ready"]
    by: NotRequired[Seat | None]  # "paused": the seat that paused (None: the host)
    name: NotRequired[str]  # "paused": who paused, in words
    seats: NotRequired[list[Seat]]  # "joining"/"ready": the seats the table waits for


class SeatInfo(TypedDict):
    """The public facts of one seat."""

    seat: Seat
    kind: Literal["person", "cpu"]
    name: str
    level: str | None  # a CPU's level
    team: Count
    symbol: str
    local: bool
    connected: bool
    ready: bool
    standin: bool  # a CPU plays for a missing person now
    host: bool
    left: str | None  # the person who handed this seat to a CPU
    # The host took this seat from a person: ``removed`` (their token stopped working; they may
    # only watch until the host allows them back), ``returnable`` (they may come back to it).
    removed: NotRequired[bool]
    returnable: NotRequired[bool]
    timeouts: NotRequired[Count]  # turns a CPU played for this person: their turn clock ran out
    # everyone who held this seat during play and left it (handed it to a CPU or a watcher):
    # the result lists them as played, not won (docs/seats.md)
    played: NotRequired[list[str]]


NoticeKind = Literal["timed_out", "pause_ended", "handed", "removed", "allowed", "back",
                     "watching", "ask", "seat_taken", "declined", "lapsed"]


class Notice(TypedDict):
    """The table's latest notice, in words every screen can show (a new ``n`` is a new one)."""

    n: Count  # 1, 2, ... per table object
    kind: NoticeKind
    seat: Seat | None  # the seat it is about (None: the whole table)
    text: str


class WatcherInfo(TypedDict):
    """One person watching the table (public: a number and a name, never a token)."""

    watcher: Count  # the watcher's number at this table (1, 2, ...): the intents name it
    name: str


class SeatAsk(TypedDict):
    """A request to take a CPU seat, waiting for the host or for that seat's next turn."""

    seat: Seat
    watcher: Count | None  # the watcher who asked (None: a person at the host's screen)
    name: str
    accepted: bool  # the host (or the table's auto-accept) said yes: it changes hands at the
    #                 start of that seat's next turn


class Public(TypedDict):
    """What everyone may know about the table (no view, no tokens)."""

    table_id: str
    game: str
    config: dict[str, Any]
    state_no: StateNo
    phase: Literal["lobby", "playing", "over"]
    seats: list[SeatInfo]
    to_move: Seat | None
    pause: list[PauseReason]
    paused_by: Seat | None
    speed: str
    screen_owner: Seat | None
    cover: bool
    turns: Count
    outcome: dict[str, Any] | None
    points: dict[str, int]
    save_error: str | None
    # The clocks (NotRequired: a summary from an older host has none of them).
    turn_clock: NotRequired[float | None]  # the host's setting, seconds at normal speed; None: off
    turn_limit: NotRequired[float | None]  # the same at this speed (x the speed's scale)
    turn_left: NotRequired[float | None]  # table seconds left in the running person's turn
    pause_limit: NotRequired[float | None]  # seconds after which a pause nobody resumes ends
    pause_left: NotRequired[float | None]  # seconds left before the running pause ends
    notice: NotRequired[Notice | None]
    # Watchers and seats changing hands (docs/seats.md); NotRequired: older hosts have none.
    watchers: NotRequired[list[WatcherInfo]]  # who is watching now (connected)
    watching: NotRequired[Count]  # how many
    allow_watchers: NotRequired[bool]  # the host's setting: may anyone watch
    auto_seat: NotRequired[bool]  # the host's setting: a seat asked for is given at once
    asks: NotRequired[list[SeatAsk]]


class TableMsg(Public):
    type: Literal["table"]


class Snapshot(Public):
    type: Literal["snapshot"]
    seat: Seat | None  # the viewer (None: a spectator, who sees no hand)
    view: View
    record: NotRequired[RecordText]  # the game's record, once it is over


class RecordMsg(TypedDict):
    type: Literal["record"]
    text: RecordText


class ResetMsg(TypedDict):
    type: Literal["reset"]
    snapshot: Snapshot


class StartMsg(TypedDict):
    type: Literal["start"]
    state_no: StateNo
    events: list[Event]
    view: View
    to_move: Seat | None


class PlayMsg(TypedDict):
    type: Literal["play"]
    state_no: StateNo
    seat: Seat
    play: Text
    by: Literal["person", "cpu", "standin"]
    events: list[Event]
    view: View
    to_move: Seat | None
    outcome: dict[str, Any] | None
    turns: Count
    screen_owner: Seat | None
    cover: bool


#: What :meth:`game.table.Table.drain` returns.
TableMessage = StartMsg | PlayMsg | TableMsg | ResetMsg | Snapshot | RecordMsg

TABLE_MESSAGES: dict[str, type[Any]] = {
    "start": StartMsg, "play": PlayMsg, "table": TableMsg, "reset": ResetMsg,
    "snapshot": Snapshot, "record": RecordMsg,
}

# ----------------------------------------------------------------------- wire-only (host)


class Welcome(TypedDict):
    t: Literal["welcome"]
    v: Count
    token: Token
    seat: Seat | None
    table: dict[str, Any]
    watcher: NotRequired[Count | None]  # this connection watches: its watcher number
    note: NotRequired[str]  # why (in words): "The game has already started: you are watching"


class Refused(TypedDict):
    t: Literal["refused"]
    code: Text
    message: str
    of: NotRequired[Text | None]
    ref: NotRequired[Count | None]


class Error(TypedDict):
    t: Literal["error"]
    code: Text
    message: str


class Pong(TypedDict):
    t: Literal["pong"]
    n: NotRequired[Count]


class Bye(TypedDict):
    t: Literal["bye"]
    reason: str


WIRE_ONLY: dict[str, type[Any]] = {
    "welcome": Welcome, "refused": Refused, "error": Error, "pong": Pong, "bye": Bye,
}


def to_wire(msg: TableMessage) -> dict[str, Any]:
    """The wire form of a table message: the same dict with ``t`` for ``type``."""
    out: dict[str, Any] = {"t": msg["type"]}
    out.update((k, v) for k, v in msg.items() if k != "type")
    return out


def from_wire(msg: dict[str, Any]) -> TableMessage:
    """The table message a wire message carries (the inverse of :func:`to_wire`)."""
    out: dict[str, Any] = {"type": msg["t"]}
    out.update((k, v) for k, v in msg.items() if k != "t")
    return out  # type: ignore[return-value]
