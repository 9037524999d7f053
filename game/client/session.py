"""Sessions: the scenes' one typed interface to a table, local or across the LAN.

:class:`Session` (a ``typing.Protocol``) is every attribute and intent the scenes use. Both
:class:`LocalSession` (a table on this machine: Play, Solo, hot seat) and
:class:`game.client.net_session.NetSession` (a table across the LAN, or hosted here) implement
it on :class:`SessionBase`, which holds the ONE handler for the table's messages
(:meth:`SessionBase.take`, boardgame.io's ``receiveTransportData`` switch): a local session
feeds it the table's outbox, a network session the same messages off the wire
(:func:`game.table.messages.from_wire`). Either way ``public`` (the table's public summary) and
``views`` (seat -> newest view) change only there, and ``poll()`` yields the same typed
messages (:data:`game.table.messages.TableMessage`) to the scenes: ``start`` (the opening deal:
``events``, ``view``, ``state_no``, ``to_move``), ``play`` (``events``, ``view``,
``state_no``...), ``table``, ``reset`` (jump: ``snapshot``) and ``snapshot`` (joined).

A play is submitted with the state number of the last message the session delivered to the
scene (:attr:`SessionBase.shown_state_no`), so a play chosen on a stale screen is refused with
``stale_state``, locally as on the LAN.

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
from pathlib import Path
from typing import Any, Protocol

from game.table import Result, SeatSpec, Table
from game.table.cpu import CpuRunner, SyncCpu
from game.table.messages import TableMessage
from game.table.pacing import SPEEDS
from game.table.results import GameResult, game_result


class Session(Protocol):
    """What the scenes may use of a session (local or remote)."""

    remote: bool  # a table across the LAN (this program may still host it)
    is_host: bool  # this program may start, set CPUs and the speed
    game: str
    public: dict[str, Any]  # the table's public summary (game.table.messages.Public)
    views: dict[int | None, dict[str, Any]]
    tokens: dict[int, str]  # seat -> token of this machine's people
    code: str
    link: str
    status: str  # the link to the host: "connected" for a local table
    failure: tuple[str, str] | None
    #: When a join by code found several tables: each as (a line for people, its link).
    choices: list[tuple[str, str]]
    refusal: str | None
    save_path: Path | None
    host_thread: Any
    #: Table screen (issue 18): this screen shows the table with no hand (a TV, ``--watch``,
    #: or a host with no seat whose people all play on phones); set by ``host_table`` and
    #: ``game.launch.window.watch_table``.
    table_screen: bool
    shown_state_no: int
    undos: int  # plays taken back (solo): such a game sets no best
    watcher: int | None  # this connection watches: its watcher number (None: not watching)
    watch_note: str  # the host's words why it watches ("...: you are watching")
    #: A recorded game shown again (the replay viewer): its ``reset`` is the viewer's own
    #: jump, not the table going back.
    replay: bool

    @property
    def seats(self) -> list[dict[str, Any]]: ...
    @property
    def phase(self) -> str: ...
    @property
    def local_seats(self) -> list[int]: ...
    @property
    def config(self) -> dict[str, Any]: ...
    @property
    def can_undo(self) -> bool: ...
    @property
    def speed_scale(self) -> float: ...

    def screen_seat(self) -> int | None: ...
    def view(self, seat: int | None = None) -> dict[str, Any]: ...
    def poll(self) -> list[TableMessage]: ...
    def sit(self, seat: int, name: str) -> Result: ...
    def rename(self, seat: int, name: str) -> Result: ...
    def leave(self, seat: int) -> Result: ...
    def set_cpu(self, seat: int, level: str) -> Result: ...
    def start(self) -> Result: ...
    def play(self, seat: int, token: str, state_no: int | None = None) -> Result: ...
    def pause(self) -> Result: ...
    def ready(self) -> Result: ...
    def set_speed(self, name: str) -> Result: ...
    def hand_to_cpu(self, seat: int, level: str = "tricky") -> Result: ...
    def remove(self, seat: int) -> Result: ...  # the host: off the table, back only to watch
    def end_pause(self) -> Result: ...  # the host: play on now
    def set_turn_clock(self, seconds: float | None) -> Result: ...  # the host; None: off
    def tap_in(self, seat: int) -> Result: ...
    def undo(self) -> Result: ...
    # watchers and seats changing hands (docs/seats.md)
    def watchers(self) -> list[dict[str, Any]]: ...  # [{"watcher", "name"}]
    def ask_seat(self, seat: int) -> Result: ...  # a watcher asks for a CPU seat
    def accept_seat(self, seat: int) -> Result: ...  # the host
    def decline_seat(self, seat: int) -> Result: ...  # the host
    def hand_to_watcher(self, seat: int, watcher: int) -> Result: ...
    def remove_watcher(self, watcher: int) -> Result: ...  # the host: show them out
    def allow_watchers(self, allowed: bool) -> Result: ...  # the host
    def auto_seat(self, on: bool) -> Result: ...  # the host: seat watchers by themselves
    def take_seat(self, seat: int, name: str) -> Result: ...  # hot seat: at its next turn
    def refresh(self) -> None: ...
    def result(self) -> GameResult | None: ...
    def game_record(self) -> str | None:
        """The finished game's record text to keep among the recent games (the table's
        ``record`` message); None until then, and for a replay."""
        ...
    def close(self) -> None: ...


class SessionBase:
    """What every session does the same way: the one message handler and the reads."""

    remote = False
    is_host = False
    replay = False
    game = "track"
    code = ""
    link = ""
    status = "connected"
    failure: tuple[str, str] | None = None
    choices: list[tuple[str, str]] = []  # noqa: RUF012 - never changed in place: replaced
    refusal: str | None = None
    save_path: Path | None = None
    host_thread: Any = None
    table_screen = False

    public: dict[str, Any]
    views: dict[int | None, dict[str, Any]]
    tokens: dict[int, str]
    #: The state number of the last message delivered to the scene: plays are made for it.
    shown_state_no: int = 0
    #: Plays taken back at this table (solo undo): a solo game with undo sets no best.
    undos: int = 0
    #: This connection watches (its watcher number) and why, in words; a local table: never.
    watcher: int | None = None
    watch_note: str = ""

    # ------------------------------------------------------------------ the one handler
    def take(self, msg: TableMessage, seat: int | None) -> None:
        """Fold one table message (for ``seat``'s outbox) into ``public`` and ``views``."""
        pub = self.public
        if msg["type"] == "start":
            self.views[seat] = msg["view"]
            pub.update(state_no=msg["state_no"], to_move=msg["to_move"])
        elif msg["type"] == "play":
            self.views[seat] = msg["view"]
            pub.update(state_no=msg["state_no"], to_move=msg["to_move"], turns=msg["turns"],
                       outcome=msg["outcome"], screen_owner=msg["screen_owner"],
                       cover=msg["cover"])
            if msg["outcome"] is not None:
                pub["phase"] = "over"
        elif msg["type"] == "table":
            pub.update((k, v) for k, v in msg.items() if k != "type")
        elif msg["type"] == "record":
            self._record = msg["text"]
        elif msg["type"] in ("snapshot", "reset"):
            snap = msg["snapshot"] if msg["type"] == "reset" else msg  # type: ignore[typeddict-item]
            self.public = {k: v for k, v in snap.items()
                           if k not in ("type", "seat", "view", "record")}
            self.views[snap["seat"]] = snap["view"]
            if "record" in snap:
                self._record = snap["record"]
        self.game = self.public.get("game", self.game)

    def delivered(self, msgs: list[TableMessage]) -> list[TableMessage]:
        """Note what the scene is given (its newest state number) and give it."""
        for m in msgs:
            snap: Any = m["snapshot"] if m["type"] == "reset" else m  # type: ignore[typeddict-item]
            if "state_no" in snap:
                self.shown_state_no = int(snap["state_no"])
        return msgs

    # ------------------------------------------------------------------ reading
    @property
    def seats(self) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self.public["seats"]
        return seats

    @property
    def phase(self) -> str:
        return str(self.public["phase"])

    @property
    def local_seats(self) -> list[int]:
        return sorted(self.tokens)

    @property
    def config(self) -> dict[str, Any]:
        return dict(self.public.get("config") or {})

    @property
    def can_undo(self) -> bool:
        """True where undo is allowed: a solo game on this machine."""
        return not self.remote and len(self.public.get("seats") or []) == 1

    @property
    def speed_scale(self) -> float:
        """The table speed's ``scale``: animations queued in normal-speed seconds (from
        :func:`game.table.pacing.event_duration`) run ``1 / scale`` times as fast."""
        sp = SPEEDS.get(str(self.public.get("speed", "normal")), SPEEDS["normal"])
        return sp.scale

    def screen_seat(self) -> int | None:
        return self.local_seats[0] if self.local_seats else None

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The newest view of ``seat`` (default: the screen's seat)."""
        if seat is None:
            seat = self.screen_seat()
        return self.views.get(seat) or self.views.get(None) or {}

    def watchers(self) -> list[dict[str, Any]]:
        """Who is watching (``[{"watcher", "name"}]``, from the public summary)."""
        return list(self.public.get("watchers") or [])

    def result(self) -> GameResult | None:
        """The finished game for the records: the same function and data on every machine."""
        return game_result(self.public)

    _record: str | None = None

    def game_record(self) -> str | None:
        return self._record if self.public.get("phase") == "over" else None

    # ------------------------------------------------------------------ watchers
    # (refused here: a session that has watchers or a hot seat gives its own; a replay has
    # neither)
    def _no_watchers(self) -> Result:
        return Result(False, "not_allowed", "nobody watches or takes a seat here",
                      int(self.public.get("state_no") or 0))

    def ask_seat(self, seat: int) -> Result:
        return self._no_watchers()

    def accept_seat(self, seat: int) -> Result:
        return self._no_watchers()

    def decline_seat(self, seat: int) -> Result:
        return self._no_watchers()

    def hand_to_watcher(self, seat: int, watcher: int) -> Result:
        return self._no_watchers()

    def remove_watcher(self, watcher: int) -> Result:
        return self._no_watchers()

    def allow_watchers(self, allowed: bool) -> Result:
        return self._no_watchers()

    def auto_seat(self, on: bool) -> Result:
        return self._no_watchers()

    def take_seat(self, seat: int, name: str) -> Result:
        return self._no_watchers()


class LocalSession(SessionBase):
    """One local table, its local people and their tokens."""

    is_host = True
    remote = False

    def __init__(self, game: str, config: Mapping[str, Any], speed: str = "normal",
                 seed: int | None = None, cpu: CpuRunner | None = None,
                 clock: Callable[[], float] = time.monotonic, rules: Any = None,
                 save_path: str | Path | None = None, table: Table | None = None) -> None:
        """A new local table of ``game`` with ``config`` (``save_path``: its save file, written
        after every play; None: not saved), or, with ``table``, a table already built (see
        :meth:`resume`)."""
        cfg = {k: v for k, v in config.items() if k != "game"}
        self.game = game
        self.seed = secrets.randbits(63) if seed is None else seed
        self.cpu: CpuRunner = cpu if cpu is not None else SyncCpu()
        # ``rules``: a GameRules object instead of the game's own (Table.create takes either;
        # tests pass game.client.testing.FixedStart to begin from a hand-written position)
        if table is None:
            table = Table.create(rules if rules is not None else game, cfg, self.seed,
                                 clock=clock, speed=speed, cpu=self.cpu, save_path=save_path)
        else:
            self.game = table.game
            self.seed = table.seed
        self.table = table
        self.save_path = table.save_path
        self.tokens: dict[int, str] = {}
        self.public: dict[str, Any] = {}
        self.views: dict[int | None, dict[str, Any]] = {}
        self.take(self.table.snapshot(None), None)
        self.shown_state_no = self.table.state_no
        self.event_seat: int | None = None  # whose filtered events drive the animations
        self.last: Result | None = None
        self._pending: list[TableMessage] = []  # drained after an intent, for the next poll
        #: Hot seat during play: seat -> the token a person at this screen gets at its next turn.
        self._taking: dict[int, str] = {}

    @classmethod
    def resume(cls, save: str | Path, cpu: CpuRunner | None = None,
               clock: Callable[[], float] = time.monotonic) -> LocalSession:
        """Reopen a local table (Play, Solo, hot seat) from its save file: the same seats, with
        the people who sat at this screen back at it (they tap Ready to play on). Raises the
        table's :class:`~game.table.TableError` (``SaveError``, ``CorruptSave``...) when the
        file cannot be used; nothing is left open then."""
        runner: CpuRunner = cpu if cpu is not None else SyncCpu()
        try:
            table = Table.resume(save, clock=clock, cpu=runner)
        except BaseException:
            runner.close()
            raise
        session = cls(table.game, {}, cpu=runner, clock=clock, table=table)
        for s in table.public()["seats"]:
            if s["kind"] == "person" and s["local"]:
                i = int(s["seat"])
                session.tokens[i] = table.token(i)
                session.take(table.snapshot(i), i)
                if session.event_seat is None:
                    session.event_seat = i
        session._drain()
        session._pending.clear()  # the snapshots above are the state the scene starts from
        from game.table.savefile import read_save

        try:  # the undos before the save was closed count too (no best from a peeked game)
            session.undos = sum(1 for r in read_save(Path(save))[1] if r.get("t") == "undo")
        except Exception:  # the table read it just now; a failure here only loses the count
            session.undos = 0
        return session

    # ------------------------------------------------------------------ reading
    def screen_seat(self) -> int | None:
        """The seat whose hand this screen shows (the hot-seat owner, else the one person)."""
        owner = self.public.get("screen_owner")
        if owner is not None and int(owner) in self.tokens:
            return int(owner)
        return self.local_seats[0] if self.local_seats else None

    # ------------------------------------------------------------------ lobby
    def _result(self, r: Result) -> Result:
        self.last = r
        self._drain()
        return r

    def _mine(self, seat: int) -> Result | None:
        if seat in self.tokens:
            return None
        return self._result(Result(False, "bad_token", f"seat {seat} is not played here",
                                   self.table.state_no))

    def sit(self, seat: int, name: str) -> Result:
        r = self.table.take_seat(seat, name, local=True)
        if r.ok:
            self._drain()  # the others' boxes first: the new seat's starts from its snapshot
            self.tokens[seat] = r.data["token"]
            self.take(self.table.snapshot(seat), seat)
            if self.event_seat is None:
                self.event_seat = seat
        return self._result(r)

    def rename(self, seat: int, name: str) -> Result:
        return self._mine(seat) or self._result(self.table.rename(self.tokens[seat], name))

    def leave(self, seat: int) -> Result:
        no = self._mine(seat)
        if no is not None:
            return no
        r = self.table.leave(self.tokens[seat])
        if r.ok:
            self._gone(seat)
        return self._result(r)

    def _gone(self, seat: int) -> None:
        """``seat`` is no longer played at this screen (left, or handed to a CPU): the scene's
        messages come from the next person here, else the spectator's box (the table goes on
        being told: the move log never stops at the seat that went)."""
        self._drain()  # what the seat's box holds up to now still reaches the scene
        self.tokens.pop(seat, None)
        self.views.pop(seat, None)
        self.table.unsubscribe(seat)
        if self.event_seat == seat:
            self.event_seat = self.local_seats[0] if self.local_seats else None
            # the new box's view: the scene's next message is read against it
            self.take(self.table.snapshot(self.event_seat), self.event_seat)

    def set_cpu(self, seat: int, level: str) -> Result:
        return self._result(self.table.set_cpu(self.table.host_token, seat, level))

    def start(self) -> Result:
        r = self.table.start(self.table.host_token)
        if r.ok:
            for tok in self.tokens.values():
                self.table.ready(tok)
        return self._result(r)

    # ------------------------------------------------------------------ play
    def play(self, seat: int, token: str, state_no: int | None = None) -> Result:
        """``seat`` plays ``token`` for ``state_no`` (default: the state the scene was last
        shown), so a play chosen on a stale screen is refused like a LAN one."""
        no = self._mine(seat)
        if no is not None:
            return no
        n = self.shown_state_no if state_no is None else state_no
        return self._result(self.table.submit(self.tokens[seat], token, n))

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
            self._gone(seat)
        return self._result(r)

    def remove(self, seat: int) -> Result:
        return self._result(self.table.remove(self.table.host_token, seat))

    def end_pause(self) -> Result:
        return self._result(self.table.end_pause(self.table.host_token))

    def set_turn_clock(self, seconds: float | None) -> Result:
        return self._result(self.table.set_turn_clock(self.table.host_token, seconds))

    def tap_in(self, seat: int) -> Result:
        no = self._mine(seat)
        return no or self._result(self.table.tap_in(self.tokens[seat]))

    def undo(self) -> Result:
        """Solo: take back the last play, said in words ("Took back the Ace: a Red peg comes
        out"); the game then counts for no best (:attr:`undos`)."""
        seat = self.screen_seat()
        tok = self.tokens.get(seat) if seat is not None else None
        r = self.table.undo(tok or "")
        if r.ok:
            self.undos += 1
            words = took_back(str(r.data.get("play", "")), self.table.game,
                              self.table.snapshot(seat)["view"], seat)
            r = Result(r.ok, r.code, words, r.state_no, dict(r.data))
        return self._result(r)

    # ------------------------------------------------------------------ watchers, hot seat
    def take_seat(self, seat: int, name: str) -> Result:
        """Hot seat: a person at this screen takes CPU seat ``seat`` (in the lobby at once,
        during play at the start of its next turn; the cover then works for them too)."""
        if self.public.get("phase") == "lobby":
            return self.sit(seat, name)
        r = self.table.take_seat(seat, name, local=True)
        if r.ok:
            self._taking[seat] = str(r.data["token"])
        return self._result(r)

    def ask_seat(self, seat: int) -> Result:
        return Result(False, "not_allowed", "nobody watches at this screen: use Sit here",
                      self.table.state_no)

    def accept_seat(self, seat: int) -> Result:
        return self._result(self.table.accept_seat(self.table.host_token, seat))

    def decline_seat(self, seat: int) -> Result:
        return self._result(self.table.decline_seat(self.table.host_token, seat))

    def hand_to_watcher(self, seat: int, watcher: int) -> Result:
        tok = self.tokens.get(seat, self.table.host_token)
        return self._result(self.table.hand_to_watcher(tok, seat, watcher))

    def remove_watcher(self, watcher: int) -> Result:
        return self._result(self.table.remove_watcher(self.table.host_token, watcher))

    def allow_watchers(self, allowed: bool) -> Result:
        return self._result(self.table.set_allow_watchers(self.table.host_token, allowed))

    def auto_seat(self, on: bool) -> Result:
        return self._result(self.table.set_auto_seat(self.table.host_token, on))

    def _took_seats(self) -> None:
        """A hot seat taken during play is ours once the seat is a local person's."""
        seats = self.public.get("seats") or []
        for seat, tok in list(self._taking.items()):
            s = seats[seat] if seat < len(seats) else None
            if s is None or s["kind"] != "person":
                if self.public.get("phase") == "over":
                    del self._taking[seat]
                continue
            del self._taking[seat]
            if self.table.token(seat) != tok:
                continue  # someone else holds it (never expected at a local table)
            self.tokens[seat] = tok
            self.take(self.table.snapshot(seat), seat)
            if self.event_seat is None:
                self.event_seat = seat

    # ------------------------------------------------------------------ each frame
    def _drain(self) -> None:
        """Take every box's messages through the one handler; keep the event seat's (the
        spectator's when no one sits here) for the scene."""
        shown = self.event_seat
        for seat in [None, *self.tokens]:
            for m in self.table.drain(seat):
                self.take(m, seat)
                if seat == shown:
                    self._pending.append(m)
        if self._taking:
            self._took_seats()

    def refresh(self) -> None:
        self._drain()

    def poll(self) -> list[TableMessage]:
        """Tick the table and return the messages for the event seat (or the spectator)."""
        self.table.tick()
        self._drain()
        out, self._pending = self._pending, []
        return self.delivered(out)

    def result(self) -> GameResult | None:
        return self.table.result()

    def close(self) -> None:
        """Stop the CPU runner and close the table (safe to call twice)."""
        self.cpu.close()
        self.table.close()


def took_back(token: str, game: str, view: Mapping[str, Any], me: int | None = None) -> str:
    """The message of an undo in words, for the position the play was made in (``me``'s
    pegs are "your"): ``A:as`` -> ``Took back the Ace: one of your pegs comes out. A game
    with undo sets no best.``"""
    tail = " A game with undo sets no best."
    if game != "track" or not token:
        return "Took back the last play." + tail
    try:
        from game.client.describe import describe_token

        words = describe_token(token, dict(view), me)
    except Exception:  # a play the describer cannot read is still taken back
        return "Took back the last play." + tail
    card, _, rest = words.partition(": ")
    return f"Took back the {card}" + (f": {rest}." if rest else ".") + tail


#: Local tables' save files are named ``local-...`` beside the hosted ones (``hosted-...``).
LOCAL_PREFIX = "local-"


def local_save_path(folder: str | Path) -> Path:
    """A fresh save file name for a new local table in the data folder's saves."""
    from game.table.savefile import new_save_path

    p = new_save_path(folder)
    return p.with_name(LOCAL_PREFIX + p.name.removeprefix("hosted-"))


def is_local_save(path: str | Path) -> bool:
    """True for the save of a local table (resumed on this screen, not hosted on the LAN)."""
    return Path(path).name.startswith(LOCAL_PREFIX)


def default_seats(n: int) -> list[SeatSpec]:
    return [SeatSpec() for _ in range(n)]
