"""The authoritative table: seats, CPUs, pacing, pause, speed, points, save and resume.

This is the one place that calls ``rules.apply()`` for real (architecture principles 5 and 6).
The pygame client (local play, hot seat, solo) and the LAN host (``net/host.py``) both drive a
:class:`Table`; neither re-implements any of it. The table is synchronous and single-threaded:
no threads, sockets or pygame inside. Time comes only from the injected ``clock`` (seconds, any
monotonic float), so tests run instantly and exactly with a fake clock.

Creating and resuming
---------------------
::

    table = Table.create("track", {"rules": "classic", "seats": 4}, seed,
                         [SeatSpec("person", "Ada", local=True), SeatSpec("cpu", level="nasty"),
                          SeatSpec(), SeatSpec()],
                         clock=time.monotonic, speed="normal", save_path=path, host_seat=0,
                         cpu=ProcessCpu())
    table = Table.resume(path, clock=time.monotonic, cpu=ProcessCpu())

``game`` is ``"track"`` or ``"layout"`` (or any rules object registered with
:func:`register_rules`). Seats default to Tricky CPUs. ``host_token`` is returned by
:attr:`Table.host_token`; the token of ``host_seat`` (if given) is a host token too. Every seat
has a secret ``token`` (see :meth:`Table.token`), saved in the save file so people can rejoin.

Intents: every one returns a :class:`Result`
--------------------------------------------
All intents take the caller's token and return a :class:`Result` (``ok``, ``code``, ``message``,
``state_no``, ``data``). A refusal changes nothing. Codes: ``ok``, ``bad_token``, ``not_host``,
``not_started``, ``game_over``, ``paused``, ``not_your_turn``, ``stale_state``,
``illegal_play``, ``bad_request``, ``not_allowed``.

* Lobby: ``sit(name, local=False)`` (first CPU seat) / ``take_seat(seat, name, local=False)``
  -> ``data={"seat", "token"}``; ``leave(token)``; ``set_cpu(host_token, seat, level)`` (also
  during play); ``ready(token)``; ``start(host_token)``.
* Play: ``submit(token, play, state_no)``: checks, in this order, the token, the game started
  and not over, not paused, the seat's turn, the state number, the play's legality; then
  applies it, bumps :attr:`Table.state_no`, appends it to the save file (flushed, fsync'd) and
  queues each subscribed seat's view and filtered events.
* Pause (a set of reasons, recomputed from facts): ``pause(token)`` by any seated person or the
  host; everyone then must tap ``ready(token)``; play resumes on its own once every connected
  person is ready. :meth:`Table.pause_reasons` lists ``{"reason": "lobby"}``,
  ``{"reason": "paused", "by": seat|None, "name": str}``, ``{"reason": "joining", "seats":
  [...]}`` (a person connected or reconnected and has not tapped Ready yet) and
  ``{"reason": "ready", "seats": [...]}`` (connected people not ready yet).
  Local (same-screen) people share one screen: ``ready`` by one of them readies them all.
* Speed: ``set_speed(host_token, name)`` any time; names in :data:`SPEEDS`. Animations still
  playing when the speed changes finish at the new speed (their remaining time is rescaled).
  :meth:`Table.event_duration` gives the client the same animation numbers the table paces by.
* Connections (remote people): ``connect(token)`` and ``disconnect(token)``. A person's first
  connection while the game is on (a new join, or the first rejoin after the table was resumed)
  pauses the table (reason ``joining``) until they tap Ready. A reconnection after a drop does
  not pause anyone: the game kept going and they catch up (seed 000: "You can switch apps
  anytime. The game keeps going and catches you up when you return"). When a disconnected
  person (or one who never connected) is to move, a stand-in CPU (:data:`STAND_IN_LEVEL`)
  plays for them after ``Speed.grace`` seconds of table time (counted from the later of the
  drop, the turn, the animations' end); they take over again on reconnect. Local seats are
  always connected.
* ``hand_to_cpu(token, seat, level)``: a person hands their own seat to a CPU for good, or the
  host hands a disconnected person's seat.
* Hot seat: ``screen_owner()``, ``cover_needed()``, ``tap_in(token)``.
* Solo (one seat): ``turns`` counts the plays; ``undo(token)`` takes back the last one by
  replaying the log without it from the same seed (the deck order does not change). State
  numbers never go back: an undo is a new state number.

Queries (no token needed; none of them reveals a hand or a token except ``token(seat)``, which
is for the host program only): ``state_no``, ``phase`` (``lobby``/``playing``/``over``),
``to_move()``, ``outcome()``, ``points()``, ``result()``, ``turns``, ``log``, ``public()``,
``seat_info(seat)``, ``seat_of(token)``, ``is_host(token)``, ``pause_reasons()``,
``paused_by()``, ``busy_for()``, ``next_due()``, ``save_path``, ``warnings``, ``speed``.

Driving
-------
Call :meth:`Table.tick` often (each frame, or each host loop turn). It releases CPU and stand-in
plays when they are due: the table is not paused, the animations of the events already emitted
are over at the current speed (the table keeps a "busy until" from :meth:`event_duration`), and
the CPU wait has elapsed. The CPU runner (``game.cpu_worker.SyncCpu`` by default, ``ProcessCpu``
for the client and host) is asked as soon as a CPU is to move and polled without blocking. A
CPU's seed comes from the table seed, the state number and the seat, so a resumed table's CPUs
choose as the original's would have (exactly so for CPUs whose choice depends only on the view
and the seed; a CPU that searches until a wall-clock budget runs out may differ). A CPU that
fails or answers an illegal play is replaced by the first legal play (noted in
:attr:`Table.warnings`), and so is one that has not answered :data:`CPU_TIMEOUT` table seconds
after its play was due, so a game never hangs. :meth:`Table.next_due` says when a tick next
matters (tests jump the fake clock there). All pacing runs on *table time*: the injected clock
with paused spans (and the lobby) cut out, so nothing moves while paused and the animations
resume where they stopped.

Output
------
``snapshot(seat)`` is everything ``seat`` may know now (``seat=None``: a spectator who sees no
hand); it also subscribes ``seat`` to the outbox. ``drain(seat)`` returns the messages queued
since the last drain: ``{"type": "start", ...}`` once when the game starts (the opening deal's
events, when the engine has ``start(config, seed)``, which the first CPU waits for too),
``{"type": "play", ...}`` after each play (the events filtered for that seat, its new view, the
state number), ``{"type": "table", ...}`` when seats, pause, speed or
connections change, and ``{"type": "reset", "snapshot": ...}`` when the client must jump (undo,
or an outbox that overflowed). Everything is plain dicts, lists, ints, floats, strs, bools and
None (msgpack-friendly). A seat is never given another seat's hand.

Points (people only)
--------------------
When the game is over, every winning person seat earns, for each beaten seat (a seat not among
the winners), its worth: 1 for an Easy CPU, 2 for Tricky, 3 for Nasty or a person. A seat's
worth is the *lowest* it had while play was on (a CPU's level raised near the end does not
inflate the win; a person who hands their seat to an Easy CPU makes it an Easy seat from then
on). A person who hands their seat to a CPU forfeits: :meth:`Table.result` lists them as a game
played, not won, with no points. CPUs (and stand-ins) never earn points. A solo game earns no
points; its turn count goes to the solo records instead.

Save file
---------
JSON lines, append-only. Line 1 is the header ``{"format": "tee-table-save", "version": 1,
"game", "config", "seed", "table_id", "host_token", "host_seat", "speed", "seats": [...]}``;
then one record per line: ``{"t": "play", "seat", "play", "n"}`` (plus ``"over": true`` on the
play that ends the game), ``{"t": "seat", ...}`` (a seat
changed hands or level), ``{"t": "start"}``, ``{"t": "undo", "n"}``, ``{"t": "speed", "name"}``.
Each record is flushed and fsync'd as it is written, so a crash loses nothing.
:meth:`Table.resume` rebuilds the exact state by replay with the same seats and tokens (remote
people start disconnected and rejoin with ``connect``; every person must tap Ready again).
``fsync=False`` (create/resume) skips the fsync, for tests and benchmarks only. If a record
cannot be written (disk full...), the game goes on unsaved: :attr:`Table.save_error` (also in
:meth:`Table.public`) says why, and the file stays a replayable prefix of the game. A file that
is not a Tee Table save raises :class:`ForeignSave`; one that is damaged raises
:class:`CorruptSave`; a newer format raises :class:`SaveVersionError`; none is ever written to.
A torn last line (a crash mid-write: no final newline) is dropped with a warning
(:attr:`Table.warnings`) and cut off before the next record is appended. :meth:`Table.create`
refuses an existing ``save_path`` (:class:`SaveExists`). While a table has its save open, the
file is locked (``flock`` on POSIX): a second table resuming it gets :class:`SaveInUse`.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import secrets
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.cpu_worker import CpuFailed, CpuJob, CpuRunner, SyncCpu
from game.rules.api import GameRules, RulesError
from game.rules.cards import Rng

try:  # POSIX: lock a save file while a table writes it
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "CPU_LEVELS",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SPEEDS",
    "STAND_IN_LEVEL",
    "CorruptSave",
    "ForeignSave",
    "Result",
    "SaveError",
    "SaveExists",
    "SaveInUse",
    "SaveVersionError",
    "SeatSpec",
    "Speed",
    "Table",
    "TableError",
    "event_duration",
    "register_rules",
    "rules_for",
]

log = logging.getLogger(__name__)

CPU_LEVELS = ("easy", "tricky", "nasty")
STAND_IN_LEVEL = "tricky"
SAVE_FORMAT = "tee-table-save"
SAVE_VERSION = 1
NAME_MAX = 24
OUTBOX_MAX = 1000
CPU_TIMEOUT = 60.0  # table seconds past its due time (and budget) before a CPU is given up on
HISTORY_MAX = 200  # the last plays passed to a CPU as ``history`` ({"seat", "play"} each)
SYMBOLS = ("circle", "square", "triangle", "diamond", "star", "hexagon", "cross", "moon")
WORTH = {"easy": 1, "tricky": 2, "nasty": 3, "person": 3}
#: Games whose views hide nothing from a seat that the seat's neighbours may see (no hand cover).
NO_HAND_COVER = {"layout"}
# Public fields that change with every play: a "play" message carries them, so a change of
# these alone sends no "table" message.
_PLAY_DRIVEN = frozenset({"state_no", "to_move", "turns", "screen_owner", "cover"})


# ---------------------------------------------------------------------------------- errors


class TableError(Exception):
    """Base class of the table's own errors (bad arguments to create/resume, save files)."""


class SaveError(TableError):
    """A save file problem. The file is never written to after one of these."""


class ForeignSave(SaveError):
    """The file is not a Tee Table save."""


class CorruptSave(SaveError):
    """The file is a Tee Table save but a record is damaged or does not replay."""


class SaveVersionError(SaveError):
    """The save was written by a newer version of the program."""


class SaveInUse(SaveError):
    """Another open table (in this or another program) is writing this save file."""


class SaveExists(SaveError):
    """``Table.create`` was given a save path that already exists (it is never overwritten)."""


# ---------------------------------------------------------------------------------- speed


@dataclass(frozen=True)
class Speed:
    """A table speed preset: every duration is in seconds of table time."""

    name: str
    scale: float  # multiplies every animation duration of the "normal" table
    cpu_wait: float  # a CPU waits this long after the animations before it plays
    grace: float  # a missing person's turn waits this long before a stand-in plays
    budget_ms: float  # thinking time allowed to a CPU

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "scale": self.scale, "cpu_wait": self.cpu_wait,
            "grace": self.grace, "budget_ms": self.budget_ms, "durations": dict(BASE_DURATIONS),
        }


SPEEDS: dict[str, Speed] = {
    s.name: s
    for s in (
        # A CPU thinks at most 300 ms (Nasty's strength is measured there, docs/ai.md; more
        # samples did not make it stronger); it thinks while the animations play.
        Speed("relaxed", 1.6, 1.4, 30.0, 300.0),
        Speed("normal", 1.0, 0.8, 20.0, 300.0),
        Speed("brisk", 0.6, 0.45, 12.0, 300.0),
        Speed("blitz", 0.3, 0.15, 6.0, 150.0),
    )
}

#: Seconds at "normal" speed: ``(fixed, per item)`` by event type. Items are the holes of a
#: path, the cards of a deal, and so on (see :func:`event_duration`). Unknown types get
#: ``DEFAULT_DURATION``.
BASE_DURATIONS: dict[str, tuple[float, float]] = {
    "move": (0.1, 0.14),  # a peg steps hole by hole
    "step": (0.0, 0.14),
    "bump": (0.6, 0.0),  # a bumped peg flies home to start
    "swap": (0.5, 0.0),  # a Jack trade
    "trade": (0.5, 0.0),
    "out": (0.4, 0.0),  # a peg comes out onto its come-out hole
    "come_out": (0.4, 0.0),
    "home": (0.2, 0.0),
    "play": (0.35, 0.0),  # a card flies from hand to pile
    "card": (0.35, 0.0),
    "discard": (0.35, 0.0),
    "draw": (0.3, 0.0),
    "take": (0.3, 0.0),
    "place": (0.4, 0.0),  # layout: a card goes to its place
    "reveal": (0.3, 0.0),
    "jack": (0.4, 0.0),
    "deal": (0.2, 0.06),
    "shuffle": (0.9, 0.0),
    "reshuffle": (0.9, 0.0),
    "fold": (0.3, 0.0),
    "skip": (0.2, 0.0),
    "pass": (0.2, 0.0),
    "hand_over": (1.2, 0.0),  # layout: a hand is won
    "win": (1.0, 0.0),
    "game_over": (1.0, 0.0),
    "turn": (0.0, 0.0),
    # the layout game (docs: game/rules/layout)
    "dealt": (0.4, 0.05),  # per card dealt (the sum of the layout sizes)
    "drawn": (0.35, 0.0),
    "placed": (0.4, 0.0),
    "revealed": (0.3, 0.0),
    "wild_placed": (0.4, 0.0),
    "wild_displaced": (0.3, 0.0),
    "discarded": (0.35, 0.0),
    "reshuffled": (0.9, 0.0),
    "passed": (0.3, 0.0),
    "hand_dead": (0.8, 0.0),
    "completed": (0.6, 0.0),
    "hand_won": (1.5, 0.0),
    "game_won": (1.0, 0.0),
}
DEFAULT_DURATION = (0.25, 0.0)


def _items(event: Mapping[str, Any]) -> int:
    for key in ("path", "holes", "steps", "cards"):
        v = event.get(key)
        if isinstance(v, list | tuple):
            return len(v)
        if isinstance(v, int) and not isinstance(v, bool):
            return abs(v)
    for key in ("counts", "sizes"):  # cards dealt to each seat (track) / layout sizes
        v = event.get(key)
        if isinstance(v, list | tuple) and all(isinstance(x, int) for x in v):
            return sum(v)
    v = event.get("count")
    if isinstance(v, int) and not isinstance(v, bool):
        return abs(v)
    return 1


def event_duration(event: Mapping[str, Any], speed: str | Speed = "normal") -> float:
    """Seconds the animation of ``event`` lasts at ``speed`` (the client uses the same)."""
    sp = speed if isinstance(speed, Speed) else SPEEDS[speed]
    kind = str(event.get("type", ""))
    fixed, per = BASE_DURATIONS.get(kind, DEFAULT_DURATION)
    return (fixed + per * _items(event)) * sp.scale


# ---------------------------------------------------------------------------------- rules

_REGISTRY: dict[str, GameRules] = {}
_BUILTIN = ("track", "layout")


def register_rules(rules: GameRules) -> None:
    """Make ``rules`` available by its ``name`` (tests register small doubles)."""
    _REGISTRY[rules.name] = rules


def rules_for(game: str) -> GameRules:
    """The rules object of ``game`` (``"track"``, ``"layout"`` or a registered name)."""
    if game in _REGISTRY:
        return _REGISTRY[game]
    if game not in _BUILTIN:
        raise TableError(f"unknown game {game!r} (expected one of {', '.join(_BUILTIN)})")
    rules = importlib.import_module(f"game.rules.{game}").RULES
    _REGISTRY[game] = rules
    return rules


# ---------------------------------------------------------------------------------- seats


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat when the table is created."""

    kind: str = "cpu"  # "person" | "cpu"
    name: str = ""
    level: str = "tricky"  # for a CPU
    local: bool = False  # a person on this screen (hot seat); always connected


@dataclass
class _Seat:
    index: int
    kind: str
    name: str
    level: str
    token: str
    local: bool
    team: int = 0
    symbol: str = ""
    connected: bool = False
    ready: bool = False
    joining: bool = False
    seen: bool = False  # connected at some point since this Table object was built
    dropped_at: float | None = None  # table time when a remote person dropped
    left: str | None = None  # the name of the person who handed this seat to a CPU

    def to_record(self) -> dict[str, Any]:
        return {
            "seat": self.index, "kind": self.kind, "name": self.name, "level": self.level,
            "token": self.token, "local": self.local, "left": self.left,
        }


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


def _cpu_name(level: str) -> str:
    return f"{level.title()} CPU"


def _same(token: object, secret: str) -> bool:
    """Constant-time token comparison that never raises (any text, any type)."""
    if not isinstance(token, str):
        return False
    return secrets.compare_digest(token.encode("utf-8", "replace"), secret.encode("utf-8"))


def _is_seat(seat: object, count: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < count


def _clean_name(name: object) -> str | None:
    """Whitespace collapsed; None unless 1..NAME_MAX printable characters."""
    if not isinstance(name, str):
        return None
    n = " ".join(name.split())
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in n):
        return None
    return n if 0 < len(n) <= NAME_MAX else None


# ---------------------------------------------------------------------------------- save file


class _SaveFile:
    """An append-only JSON-lines file, each record flushed and fsync'd.

    The file is locked (``flock``, where the platform has it) while open, so two programs never
    write one save: a second one gets :class:`SaveInUse`.
    """

    def __init__(self, path: Path, *, fsync: bool, create: bool) -> None:
        self.path = path
        self.fsync = fsync
        flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT | os.O_EXCL if create else 0)
        try:
            fd = os.open(path, flags, 0o644)
        except FileExistsError:
            raise SaveExists(f"{path} already exists; a save is never overwritten") from None
        except FileNotFoundError:
            if create:
                raise SaveError(f"cannot open the save file {path}: no such folder") from None
            raise SaveError(f"no save file at {path}") from None
        except OSError as e:
            raise SaveError(f"cannot open the save file {path}: {e}") from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise SaveInUse(
                    f"{path} is in use by another Tee Table (is that table still open?)"
                ) from None
        self._f = os.fdopen(fd, "a", encoding="utf-8", newline="\n")

    def truncate(self, size: int) -> None:
        self._f.flush()
        os.ftruncate(self._f.fileno(), size)

    def append(self, record: Mapping[str, Any]) -> None:
        self._f.write(json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n")
        self._f.flush()
        if self.fsync:
            os.fsync(self._f.fileno())

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()


def _read_save(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], int | None, list[str]]:
    """Header, records, the byte length to cut a torn tail at (or None), warnings."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"no save file at {path}") from None
    except OSError as e:
        raise SaveError(f"cannot read {path}: {e}") from None
    warnings: list[str] = []
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    cut: int | None = None
    if tail:
        if not lines:
            raise ForeignSave(f"{path} is not a Tee Table save (no complete header line)")
        cut = len(raw) - len(tail)
        warnings.append(
            f"{path}: the last record was cut short (a crash mid-write?); it was dropped"
        )
    if not lines:
        raise ForeignSave(f"{path} is not a Tee Table save (it is empty)")
    try:
        header = json.loads(lines[0].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ForeignSave(f"{path} is not a Tee Table save (the first line is not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != SAVE_FORMAT:
        raise ForeignSave(f"{path} is not a Tee Table save (no {SAVE_FORMAT!r} header)")
    version = header.get("version")
    if not isinstance(version, int) or version < 1:
        raise CorruptSave(f"{path}: the header has no valid version")
    if version > SAVE_VERSION:
        raise SaveVersionError(
            f"{path} was saved by a newer Tee Table (save version {version}, "
            f"this program reads {SAVE_VERSION})"
        )
    records: list[dict[str, Any]] = []
    for i, line in enumerate(lines[1:], start=2):
        try:
            rec = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise CorruptSave(f"{path}: line {i} is damaged (not JSON)") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("t"), str):
            raise CorruptSave(f"{path}: line {i} is not a save record")
        rec["_line"] = i
        records.append(rec)
    return header, records, cut, warnings


# ---------------------------------------------------------------------------------- the table


class Table:
    """One game at one table. Build it with :meth:`create` or :meth:`resume`."""

    def __init__(
        self,
        *,
        rules: GameRules,
        config: Mapping[str, Any],
        seed: int,
        seats: list[_Seat],
        clock: Callable[[], float],
        speed: str,
        host_token: str,
        host_seat: int | None,
        table_id: str,
        cpu: CpuRunner | None,
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
        self._state: Any = rules.new_game(self.config, seed)
        self._log: list[tuple[int, str]] = []
        self.state_no = 0
        self.phase = "lobby"  # "lobby" | "playing" | "over"
        self._seats = seats
        teams = rules.teams(self._state)
        for t, members in enumerate(teams):
            for s in members:
                self._seats[s].team = t
                self._seats[s].symbol = SYMBOLS[t % len(SYMBOLS)]
        self._worth: list[int] = [self._seat_worth(s) for s in self._seats]
        self._paused_by: int | str | None = "-"  # "-": no manual pause; None: by the host
        self._host_ready = True
        self._paused_at: float | None = None
        self._paused_total = 0.0
        self._busy_until = 0.0  # table time
        self._turn_since = 0.0  # table time
        self._cpu_pending: tuple[Any, ...] | None = None
        self._outboxes: dict[int | None, list[dict[str, Any]]] = {}
        self._last_public: dict[str, Any] | None = None
        self._screen_seat: int | None = None
        self._save: _SaveFile | None = None
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
        count = rules.seat_count(rules.new_game(norm, seed))
        specs = list(seats) if seats is not None else [SeatSpec() for _ in range(count)]
        if len(specs) != count:
            raise TableError(f"this game has {count} seats, but {len(specs)} were given")
        built: list[_Seat] = []
        for i, sp in enumerate(specs):
            built.append(cls._seat_from_spec(i, sp))
        if host_seat is not None and not _is_seat(host_seat, count):
            raise TableError(f"host_seat {host_seat} is not a seat (0..{count - 1})")
        if host_seat is not None and built[host_seat].kind != "person":
            raise TableError(f"host_seat {host_seat} is not a person's seat")
        table = cls(
            rules=rules, config=norm, seed=seed, seats=built, clock=clock, speed=speed,
            host_token=secrets.token_urlsafe(12), host_seat=host_seat,
            table_id=secrets.token_hex(8), cpu=cpu,
        )
        if save_path is not None:
            table._save = _SaveFile(Path(save_path), fsync=fsync, create=True)
            table._save.append(table._header())
        now = float(clock())
        table._busy_until = table._turn_since = now
        table._refresh(now)
        return table

    @staticmethod
    def _seat_from_spec(i: int, sp: SeatSpec) -> _Seat:
        if sp.kind not in ("person", "cpu"):
            raise TableError(f"seat {i}: kind must be 'person' or 'cpu', not {sp.kind!r}")
        if sp.level not in CPU_LEVELS:
            raise TableError(f"seat {i}: unknown CPU level {sp.level!r}")
        if sp.kind == "person":
            name = _clean_name(sp.name)
            if name is None:
                raise TableError(f"seat {i}: a person needs a name of 1..{NAME_MAX} characters")
            return _Seat(i, "person", name, sp.level, secrets.token_urlsafe(12), sp.local,
                         connected=sp.local, ready=sp.local, seen=sp.local)
        return _Seat(i, "cpu", _cpu_name(sp.level), sp.level, secrets.token_urlsafe(12), False)

    def _header(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "game": self.game,
            "config": self.config, "seed": self.seed, "table_id": self.table_id,
            "host_token": self._host_token, "host_seat": self.host_seat,
            "speed": self.speed.name, "seats": [s.to_record() for s in self._seats],
        }

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
        :class:`SaveInUse` (another open table writes it) or :class:`SaveError`; the file is then
        left exactly as it was.
        """
        path = Path(save_path)
        save = _SaveFile(path, fsync=fsync, create=False)  # locked from here on
        try:
            return cls._rebuild(path, save, clock=clock, cpu=cpu)
        except BaseException:
            save.close()
            raise

    @classmethod
    def _rebuild(
        cls, path: Path, save: _SaveFile, *, clock: Callable[[], float], cpu: CpuRunner | None
    ) -> Table:
        header, records, cut, warnings = _read_save(path)
        try:
            rules = rules_for(str(header["game"]))
            seed = int(header["seed"])
            speed = str(header["speed"])
            if speed not in SPEEDS:
                raise CorruptSave(f"{path}: unknown speed {speed!r}")
            seats = [cls._seat_from_record(r, i) for i, r in enumerate(header["seats"])]
            host_seat = header["host_seat"]
            table = cls(
                rules=rules, config=header["config"], seed=seed, seats=seats, clock=clock,
                speed=speed, host_token=str(header["host_token"]), host_seat=host_seat,
                table_id=str(header["table_id"]), cpu=cpu,
            )
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, RulesError, TableError) as e:
            raise CorruptSave(
                f"{path}: the header cannot be used ({type(e).__name__}: {e})"
            ) from None
        if len(seats) != rules.seat_count(table._state):
            raise CorruptSave(f"{path}: the header's seats do not match the game")
        if host_seat is not None and not (
            _is_seat(host_seat, len(seats)) and seats[host_seat].kind == "person"
        ):
            raise CorruptSave(f"{path}: the header's host seat {host_seat!r} is not a person")
        table._replaying = True
        for rec in records:
            try:
                table._replay_record(rec)
            except SaveError:
                raise
            except (KeyError, TypeError, ValueError, RulesError, TableError) as e:
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

    @staticmethod
    def _seat_from_record(r: Mapping[str, Any], i: int) -> _Seat:
        if r["seat"] != i or r["kind"] not in ("person", "cpu") or r["level"] not in CPU_LEVELS:
            raise ValueError(f"bad seat record {dict(r)!r}")
        return _Seat(i, r["kind"], str(r["name"]), r["level"], str(r["token"]), bool(r["local"]),
                     left=r.get("left"))

    def _replay_record(self, rec: Mapping[str, Any]) -> None:
        t = rec["t"]
        if t == "play":
            seat, token, n = int(rec["seat"]), str(rec["play"]), int(rec["n"])
            if self.phase != "playing":
                raise ValueError("a play outside a game in progress")
            if self.rules.to_move(self._state) != seat:
                raise ValueError(f"seat {seat} is not to move")
            play = self.rules.check(self._state, seat, self.rules.parse_play(self._state, token))
            self._state, _ = self.rules.apply(self._state, seat, play)
            self._log.append((seat, str(play)))
            self.state_no += 1
            if n != self.state_no:
                raise ValueError(f"state number {n}, expected {self.state_no}")
            if self.rules.outcome(self._state) is not None:
                self.phase = "over"
        elif t == "seat":
            i = int(rec["seat"])
            old = self._seats[i]
            new = self._seat_from_record(rec, i)
            new.team, new.symbol = old.team, old.symbol
            self._seats[i] = new
            if self.phase == "playing":
                self._worth[i] = min(self._worth[i], self._seat_worth(new))
            else:
                self._worth[i] = self._seat_worth(new)
        elif t == "start":
            if self.phase != "lobby":
                raise ValueError("a second start")
            self._begin()
        elif t == "undo":
            if not self._log:
                raise ValueError("an undo with nothing to undo")
            self._log.pop()
            self._state = self.rules.replay(self.config, self.seed, self._log)
            self.state_no = int(rec["n"])
            self.phase = "playing"
        elif t == "speed":
            if rec["name"] not in SPEEDS:
                raise ValueError(f"unknown speed {rec['name']!r}")
            self.speed = SPEEDS[rec["name"]]
        else:
            raise ValueError(f"unknown record type {t!r}")

    def _record(self, rec: dict[str, Any]) -> None:
        if self._save is None or self._replaying:
            return
        try:
            self._save.append(rec)
        except OSError as e:
            # Keep playing, but write nothing more: the file stays a replayable prefix (a torn
            # last line is dropped on resume), never a file with a gap in it.
            msg = f"saving stopped: cannot write {self._save.path} ({e}); the game goes on unsaved"
            log.error(msg)
            self.warnings.append(msg)
            self.save_error = msg
            self._save.close()
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
        """Where the table is saved (None: not saved)."""
        return self._save.path if self._save is not None else None

    def is_host(self, token: object) -> bool:
        """True for the host's admin token and for the token of ``host_seat``."""
        return self._is_host(token)

    def public(self) -> dict[str, Any]:
        """What everyone may know about the table (no view, no tokens): the ``table`` message."""
        return self._public()

    def seat_info(self, seat: int) -> dict[str, Any]:
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

    def seat_of(self, token: str) -> int | None:
        if not isinstance(token, str):
            return None
        for s in self._seats:
            if _same(token, s.token):
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

    @staticmethod
    def _seat_worth(s: _Seat) -> int:
        return WORTH["person"] if s.kind == "person" else WORTH[s.level]

    def _is_host(self, token: object) -> bool:
        if not isinstance(token, str):
            return False
        if _same(token, self._host_token):
            return True
        return self.host_seat is not None and _same(token, self._seats[self.host_seat].token)

    def _ok(self, message: str = "ok", **data: Any) -> Result:
        return Result(True, "ok", message, self.state_no, data)

    def _no(self, code: str, message: str) -> Result:
        return Result(False, code, message, self.state_no)

    def _person_seat(self, token: object) -> _Seat | None:
        if not isinstance(token, str):
            return None
        i = self.seat_of(token)
        if i is None or self._seats[i].kind != "person":
            return None
        return self._seats[i]

    # ------------------------------------------------------------------ pause

    def _connected_people(self) -> list[_Seat]:
        return [s for s in self._seats if s.kind == "person" and s.connected]

    def pause_reasons(self) -> list[dict[str, Any]]:
        """Why the table is paused now (empty: not paused). Recomputed from facts each call."""
        if self.phase == "over":
            return []
        out: list[dict[str, Any]] = []
        if self.phase == "lobby":
            out.append({"reason": "lobby"})
        people = self._connected_people()
        unready = [s.index for s in people if not s.ready and not s.joining]
        joining = [s.index for s in people if s.joining]
        if self._paused_by != "-" and (unready or joining or not self._host_ready):
            by = self._paused_by
            name = self._seats[by].name if isinstance(by, int) else "the host"
            out.append({"reason": "paused", "by": by, "name": name})
        if joining:
            out.append({"reason": "joining", "seats": joining})
        if unready:
            out.append({"reason": "ready", "seats": unready})
        return out

    def paused(self) -> bool:
        return bool(self.pause_reasons())

    def paused_by(self) -> int | None:
        """The seat that paused (``None``: no manual pause, or the host without a seat)."""
        return self._paused_by if isinstance(self._paused_by, int) else None

    def _refresh(self, now: float) -> None:
        """Recompute pause from facts; move the table clock; tell subscribers what changed."""
        reasons = self.pause_reasons()
        if self._paused_by != "-" and not any(r["reason"] == "paused" for r in reasons):
            self._paused_by = "-"  # everyone readied since the pause
            self._host_ready = True
        paused = bool(reasons) or self.phase == "over"
        if paused and self._paused_at is None:
            self._paused_at = now
        elif not paused and self._paused_at is not None:
            self._paused_total += now - self._paused_at
            self._paused_at = None
        public = self._public()
        key = {k: v for k, v in public.items() if k not in _PLAY_DRIVEN}
        if key != self._last_public:
            self._last_public = key
            self._broadcast(lambda _seat: {"type": "table", **public})

    # ------------------------------------------------------------------ lobby intents

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
        if not _is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        clean = _clean_name(name)
        if clean is None:
            return self._no("bad_request", f"a name must have 1 to {NAME_MAX} characters")
        old = self._seats[seat]
        if old.kind != "cpu":
            return self._no("not_allowed", f"seat {seat} is taken by {old.name}")
        new = _Seat(seat, "person", clean, old.level, secrets.token_urlsafe(12), bool(local),
                    team=old.team, symbol=old.symbol, connected=True, ready=bool(local),
                    seen=True)
        self._seats[seat] = new
        self._worth[seat] = self._seat_worth(new)
        self._record({"t": "seat", **new.to_record()})
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
        clean = _clean_name(name)
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
        old = self._seats[i]
        new = _Seat(i, "cpu", _cpu_name(level), level, token or secrets.token_urlsafe(12), False,
                    team=old.team, symbol=old.symbol, left=left)
        self._seats[i] = new
        if self.phase == "playing":
            self._worth[i] = min(self._worth[i], self._seat_worth(new))
        else:
            self._worth[i] = self._seat_worth(new)
        self._record({"t": "seat", **new.to_record()})
        self._drop_cpu_request()

    def set_cpu(self, host_token: str, seat: int, level: str) -> Result:
        """The host sets a CPU seat's difficulty (lobby or during play)."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host sets CPU levels")
        if self.phase == "over":
            return self._no("game_over", "game over")
        if not _is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        if not isinstance(level, str) or level not in CPU_LEVELS:
            return self._no("bad_request", f"unknown CPU level {level!r} ({', '.join(CPU_LEVELS)})")
        s = self._seats[seat]
        if s.kind != "cpu":
            return self._no("not_allowed", f"seat {seat} is {s.name}, not a CPU")
        self._replace_with_cpu(seat, level, left=s.left, token=s.token)  # keeps its token
        self._refresh(self._now())
        return self._ok(f"seat {seat} is now {_cpu_name(level)}", seat=seat)

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

    def start(self, host_token: str) -> Result:
        """The host starts the game; it plays once every connected person is ready."""
        if not self._is_host(host_token):
            return self._no("not_host", "only the host starts the game")
        if self.phase != "lobby":
            return self._no("not_allowed", "the game has already started")
        now = self._now()
        self._begin()
        self._record({"t": "start"})
        t = self._table_time(now)
        events = self._opening_events()
        total = sum(self.event_duration(e) for e in events)
        self._busy_until = t + total
        self._turn_since = t
        state = self._state
        self._broadcast(lambda viewer: {
            "type": "start", "state_no": self.state_no,
            "events": self.rules.filter_events(events, viewer), "duration": total,
            "view": self.rules.view(state, viewer), "to_move": self.to_move(),
        })
        self._refresh(now)
        return self._ok("the game starts")

    def _opening_events(self) -> list[dict[str, Any]]:
        """The opening deal's events, if the engine offers ``start(config, seed)``."""
        start = getattr(self.rules, "start", None)
        if start is None or self.state_no != 0:
            return []
        _state, events = start(self.config, self.seed)
        return list(events)

    def _begin(self) -> None:
        self.phase = "playing"
        self._worth = [self._seat_worth(s) for s in self._seats]
        if self.rules.outcome(self._state) is not None:
            self.phase = "over"

    # ------------------------------------------------------------------ play

    def submit(self, token: str, play: Any, state_no: int) -> Result:
        """A person's play. See the module docstring for the order of the checks."""
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
            parsed = self.rules.parse_play(self._state, play)
            checked = self.rules.check(self._state, s.index, parsed)
        except RulesError as e:
            return self._no("illegal_play", f"illegal play: {e}")
        except (ValueError, TypeError, KeyError, IndexError) as e:  # an engine's unexpected slip
            return self._no("illegal_play", f"illegal play: cannot read {play!r} ({e})")
        self._apply(s.index, checked, "person", now)
        return self._ok("played", play=str(checked))

    def _apply(self, seat: int, play: Any, by: str, now: float) -> None:
        new_state, events = self.rules.apply(self._state, seat, play)
        token = str(play)
        self._state = new_state
        self._log.append((seat, token))
        self.state_no += 1
        rec: dict[str, Any] = {"t": "play", "seat": seat, "play": token, "n": self.state_no}
        if self.rules.outcome(new_state) is not None:
            rec["over"] = True  # lets a save list tell a finished table (resume ignores it)
        self._record(rec)
        t = self._table_time(now)
        start = max(t, self._busy_until)
        total = sum(self.event_duration(e) for e in events)
        self._busy_until = start + total
        self._turn_since = t
        self._drop_cpu_request()
        if self.rules.outcome(new_state) is not None:
            self.phase = "over"
        n = self.state_no

        def message(viewer: int | None) -> dict[str, Any]:
            return {
                "type": "play", "state_no": n, "seat": seat, "play": token, "by": by,
                "events": self.rules.filter_events(events, viewer),
                "duration": total, "view": self.rules.view(new_state, viewer),
                "to_move": self.to_move(), "outcome": self.rules.outcome(new_state),
                "screen_owner": self.screen_owner(), "cover": self.cover_needed(),
            }

        self._broadcast(message)
        self._refresh(now)

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
        undone = self._log.pop()
        self._state = self.rules.replay(self.config, self.seed, self._log)
        self.state_no += 1
        self._record({"t": "undo", "n": self.state_no})
        self._busy_until = self._turn_since = self._table_time(now)
        self._drop_cpu_request()
        self._broadcast(lambda seat: {"type": "reset", "snapshot": self._snapshot(seat)})
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
        if not _is_seat(seat, len(self._seats)):
            return self._no("bad_request", f"there is no seat {seat!r}")
        if not isinstance(level, str) or level not in CPU_LEVELS:
            return self._no("bad_request", f"unknown CPU level {level!r} ({', '.join(CPU_LEVELS)})")
        target = self._seats[seat]
        own = _same(token, target.token)
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
        return self._ok(f"seat {seat} is now {_cpu_name(level)}", seat=seat)

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
        self._refresh(self._now())
        return self._ok(f"{s.name} has the screen", seat=s.index)

    # ------------------------------------------------------------------ CPUs

    def _cpu_level(self, seat: int, t: float) -> tuple[str, str, float] | None:
        """(level, who, due table time) if a CPU or stand-in plays ``seat`` now."""
        s = self._seats[seat]
        wait = self.speed.cpu_wait
        if s.kind == "cpu":
            return s.level, "cpu", max(self._busy_until, self._turn_since) + wait
        if s.connected:
            return None
        # a person who never connected counts as dropped since their turn came
        since = self._turn_since if s.dropped_at is None else s.dropped_at
        due = max(self._busy_until, self._turn_since, since) + self.speed.grace
        return STAND_IN_LEVEL, "standin", due

    def _cpu_seed(self, seat: int) -> int:
        mix = (self.seed ^ (self.state_no * 0x9E3779B97F4A7C15) ^ (seat << 56)) & ((1 << 64) - 1)
        return Rng(mix).next_u64()

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
        who = self._cpu_level(mover, self.table_time())
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
        t = self._table_time(now)
        who = self._cpu_level(mover, t)
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
            legal = tuple(self._legal_tokens())
            job = CpuJob(
                self.game, self.rules.view(self._state, mover), legal, level,
                self._cpu_seed(mover), self.speed.budget_ms,
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
            play = self.rules.check(self._state, mover, self.rules.parse_play(self._state, answer))
        except (RulesError, ValueError, TypeError) as e:
            play = self.rules.check(
                self._state, mover,
                self.rules.parse_play(self._state, self._fallback(
                    f"the CPU for seat {mover} chose {answer!r}, which is illegal ({e})"
                )),
            )
        if kind == "cpu":
            self.cpu_plays += 1
        else:
            self.standin_plays += 1
        self._apply(mover, play, kind, now)
        return 1

    def _legal_tokens(self) -> list[str]:
        fast = getattr(self.rules, "legal_tokens", None)
        if fast is not None:
            return list(fast(self._state))
        return [str(p) for p in self.rules.legal_plays(self._state)]

    def _fallback(self, why: str) -> str:
        msg = f"{why}; it plays the first legal play instead"
        log.warning(msg)
        self.warnings.append(msg)
        return self._legal_tokens()[0]

    # ------------------------------------------------------------------ output

    def _seat_public(self, s: _Seat) -> dict[str, Any]:
        return {
            "seat": s.index, "kind": s.kind, "name": s.name,
            "level": s.level if s.kind == "cpu" else None,
            "team": s.team, "symbol": s.symbol, "local": s.local,
            "connected": s.connected if s.kind == "person" else True,
            "ready": s.ready if s.kind == "person" else True,
            "standin": s.kind == "person" and not s.connected and self.phase == "playing",
            "host": s.index == self.host_seat, "left": s.left,
        }

    def _public(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id, "game": self.game, "config": self.config,
            "state_no": self.state_no, "phase": self.phase,
            "seats": [self._seat_public(s) for s in self._seats],
            "to_move": self.to_move(), "pause": self.pause_reasons(),
            "paused_by": self.paused_by(), "speed": self.speed.name,
            "screen_owner": self.screen_owner(), "cover": self.cover_needed(),
            "turns": self.turns, "outcome": self.outcome() if self.phase == "over" else None,
            "points": {str(k): v for k, v in self.points().items()},
            "save_error": self.save_error,
        }

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        snap = self._public()
        t = self.table_time()
        for info, s in zip(snap["seats"], self._seats, strict=True):
            dropped = s.kind == "person" and not s.connected and s.dropped_at is not None
            info["dropped_for"] = max(0.0, t - s.dropped_at) if dropped else None
        snap.update({
            "type": "snapshot", "you": seat, "view": self.rules.view(self._state, seat),
            "busy_for": self.busy_for(), "speed_info": self.speed.to_dict(),
        })
        return snap

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know now; also subscribes ``seat`` to :meth:`drain`.

        The net host calls it with the seat of the token it authenticated; ``None`` is a
        spectator (no hand).
        """
        if seat is not None and not _is_seat(seat, len(self._seats)):
            raise TableError(f"there is no seat {seat!r}")
        self._outboxes.setdefault(seat, [])
        return self._snapshot(seat)

    def drain(self, seat: int | None) -> list[dict[str, Any]]:
        """The messages for ``seat`` since the last drain (subscribes ``seat`` if needed)."""
        box = self._outboxes.setdefault(seat, [])
        out = list(box)
        box.clear()
        return out

    def unsubscribe(self, seat: int | None) -> None:
        self._outboxes.pop(seat, None)

    def _broadcast(self, make: Callable[[int | None], dict[str, Any]]) -> None:
        for viewer, box in self._outboxes.items():
            if len(box) >= OUTBOX_MAX:
                box[:] = [{"type": "reset", "snapshot": self._snapshot(viewer)}]
            else:
                box.append(make(viewer))

    # ------------------------------------------------------------------ points and result

    def points(self) -> dict[int, int]:
        """Points of each winning person seat (empty until the game is over, and for solo)."""
        out = self.outcome() if self.phase == "over" else None
        if out is None or self.is_solo():
            return {}
        winners = set(out["winners"])
        beaten = sum(self._worth[i] for i in range(len(self._seats)) if i not in winners)
        return {i: beaten for i in sorted(winners) if self._seats[i].kind == "person"}

    def result(self) -> dict[str, Any] | None:
        """The finished game for ``Store.record_game`` (None while it goes on).

        ``{"table_id", "game", "rules", "seed", "turns", "winners", "solo": bool, "people":
        [{"seat", "name", "points", "won"}]}``. People who handed their seat to a CPU are listed
        with no points, not won. A solo game lists no people (see ``Store.record_solo``).
        """
        out = self.outcome() if self.phase == "over" else None
        if out is None:
            return None
        winners = list(out["winners"])
        pts = self.points()
        people: list[dict[str, Any]] = []
        if not self.is_solo():
            for s in self._seats:
                if s.kind == "person":
                    people.append({"seat": s.index, "name": s.name,
                                   "points": pts.get(s.index, 0), "won": s.index in winners})
                elif s.left:
                    people.append({"seat": s.index, "name": s.left, "points": 0, "won": False})
        return {
            "table_id": self.table_id, "game": self.game,
            "rules": str(self.config.get("rules", self.game)), "seed": self.seed,
            "turns": self.turns, "winners": winners, "solo": self.is_solo(), "people": people,
        }
