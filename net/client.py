"""The joining side: one connection to a host, on its own thread, talking through queues.

The pygame loop never blocks on the network::

    c = Client("teetable://192.168.1.5:47800/KQXF", name="Ann")   # or Client("KQXF", ...)
    c.start()
    ...each frame:
    for msg in c.poll():          # host messages (welcome, snapshot, events, ...) and
        handle(msg)               # local {"t": "_conn", ...} connection-state notes
    c.play("5H:a+5", state_no)    # intents return at once (False while not connected)
    ...
    c.close()

The connection thread runs an asyncio loop. It finds the host (a code is looked up by UDP
broadcast, see :mod:`net.discovery`), says hello, and afterwards reconnects by itself with its
seat token whenever the connection drops (backoff 0.1 s doubling to 2 s; a code is looked up
again every few failures in case the host came back on another address). The host answers a
rejoin with a fresh snapshot, so the client catches up at once.

:attr:`Client.status` says where the connection stands: ``connecting``, ``connected``,
``dropped`` (since when), ``failed`` (with a reason code: ``wrong_code``, ``table_full``,
``version``, ``bad_token``, ``host_gone``, ``not_found``, ``unreachable``, ``replaced``,
``left``, ``busy``, ``wrong_host``, ``several_tables``), or ``closed``.

Version 2's handshake (``docs/protocol.md`` §2, :mod:`net.secure`): the seat's secret never
leaves this process; the client proves it holds it toward a host that proves the table key.
:attr:`Client.credential` (``FINGERPRINT:SECRET``, also the ``token`` of a delivered
``welcome``) is what to remember for a rejoin; :attr:`Client.token` is the bare secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import queue
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from net import protocol as P
from net import secure
from net.codes import Link, LinkError, parse_join_target
from net.discovery import Answer, DiscoveryError, SeveralTables, adiscover_all

CONNECTING = "connecting"
CONNECTED = "connected"
DROPPED = "dropped"
FAILED = "failed"
CLOSED = "closed"

# Host error codes after which retrying cannot help.
FATAL = frozenset({"version", "wrong_code", "table_full", "no_watchers", "removed", "handed",
                   "bad_token", "left", "replaced", "wrong_host", "several_tables"})

REASONS = {
    "wrong_code": "that table code is not this host's table",
    "table_full": "the table is full",
    "no_watchers": "the game has started and the host does not allow watchers",
    "version": "the host runs a different version of the game",
    "bad_token": "the host does not know this seat (a different table?)",
    "host_gone": "the host has stopped answering",
    "not_found": "no table with that code answered on the network",
    "unreachable": "could not connect to the host",
    "left": "you left the table",
    "replaced": "this seat was joined again from another window or machine",
    "wrong_host": "the host there does not hold this table's key (another table, or an "
                  "impostor): nothing of your seat was sent to it",
    "several_tables": "more than one table answered that code: choose one",
    "removed": "the host removed you from the table",
    "handed": "the host gave your seat to a CPU: join again to take it back",
}


class WrongHost(Exception):
    """The host did not prove the table key this client expects (or any key at all)."""


class _GiveUp(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True)
class Status:
    state: str
    since: float  # time.monotonic() when this state began
    reason: str | None = None  # short code (failed, dropped)
    message: str = ""  # readable text
    attempts: int = 0  # reconnect attempts so far in this drop

    def for_how_long(self, now: float | None = None) -> float:
        return (time.monotonic() if now is None else now) - self.since


class Client:
    """A connection to one host; see the module docstring."""

    def __init__(
        self,
        target: str | Link,
        name: str,
        token: str | None = None,
        *,
        discover_targets: Sequence[tuple[str, int]] | None = None,
        discover_bind: str = "0.0.0.0",
        connect_timeout: float = 5.0,
        give_up_after: float = 600.0,
        ping_interval: float = 2.0,
        host_silence: float = 8.0,
        backoff: tuple[float, float] = (0.1, 2.0),
        notify: Callable[[dict[str, Any]], None] | None = None,
        watch: bool = False,
    ) -> None:
        if isinstance(target, Link):
            self.link: Link | None = target
            self.code: str | None = target.code
        else:
            parsed = parse_join_target(target)  # LinkError for the caller to show
            if isinstance(parsed, Link):
                self.link, self.code = parsed, parsed.code
            else:
                self.link, self.code = None, parsed
        self.by_code = self.link is None
        self.name = name
        #: Join to watch (the hello's ``watch``), also from the lobby; a newcomer after the
        #: start watches anyway. The welcome says so (``watcher``, ``note``).
        self.watch = watch
        # A remembered token is "FINGERPRINT:SECRET" (pinned to the table key that issued it)
        # or a bare secret (the admin token, the host's own seat): see net.secure.
        pinned, secret = secure.split_credential(token) if token else (None, None)
        if pinned and self.link is not None and self.link.key and self.link.key != pinned:
            raise LinkError("this seat belongs to another table key than the link's: "
                            "join by the link without the remembered seat")
        #: The table key's fingerprint this client talks to (pinned once a host proved it).
        self.host_key: str | None = pinned or (self.link.key if self.link else None)
        self._secret: str | None = secret
        #: Every table that answered the last code look-up (for the Join screen's choice).
        self.answers: list[Answer] = []
        self._candidates: list[Link] = []
        self.seat: int | None = None
        self.table: dict[str, Any] = {}
        self.discover_targets = list(discover_targets) if discover_targets is not None else None
        self.discover_bind = discover_bind
        self.connect_timeout = connect_timeout
        self.give_up_after = give_up_after
        self.ping_interval = ping_interval
        self.host_silence = host_silence
        self.backoff = backoff
        #: A drop's rejoin waits until this is set (tests: :meth:`drop_connection`'s hold).
        self._hold: threading.Event | None = None
        self.notify = notify
        self.bytes_received = 0
        self.frames_received = 0
        self.connects = 0
        self._incoming: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._status = Status(CONNECTING, time.monotonic())
        self._loop: asyncio.AbstractEventLoop | None = None
        self._out: asyncio.Queue[dict[str, Any] | None] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._writer: asyncio.StreamWriter | None = None
        self._last_busy: str | None = None  # the host's message when it last said busy
        self._key = b""  # this connection's session key
        self._batch = threading.RLock()  # messages that poll() must see together

    # --- thread-safe surface for the pygame loop ------------------------------------------------

    @property
    def status(self) -> Status:
        with self._lock:
            return self._status

    @property
    def token(self) -> str | None:
        """This seat's secret (never sent: the client proves it holds it)."""
        return self._secret

    @property
    def credential(self) -> str | None:
        """What to remember for a rejoin: the secret pinned to the host's key fingerprint
        (``FINGERPRINT:SECRET``); a ``welcome`` delivered by :meth:`poll` carries it as
        ``token`` (and the fingerprint as ``key``)."""
        if self._secret is None:
            return None
        return secure.credential(self.host_key, self._secret) if self.host_key else self._secret

    def start(self) -> Client:
        self._thread = threading.Thread(target=self._run, name="net-client", daemon=True)
        self._thread.start()
        self._ready.wait(5)
        return self

    def poll(self, limit: int = 10_000) -> list[dict[str, Any]]:
        """Every message received since the last call (never blocks for long)."""
        out: list[dict[str, Any]] = []
        with self._batch:
            while len(out) < limit:
                try:
                    out.append(self._incoming.get_nowait())
                except queue.Empty:
                    break
        return out

    def wait_for(self, pred: Any, timeout: float = 5.0) -> dict[str, Any] | None:
        """Block (tests, tools) until a message satisfying ``pred`` arrives; others are dropped."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                msg = self._incoming.get(timeout=left)
            except queue.Empty:
                return None
            if pred(msg):
                return msg
        return None

    def send(self, msg: dict[str, Any]) -> bool:
        """Queue an intent for the host. Returns False (and sends nothing) unless connected."""
        P.validate_client(msg)  # a programming error here should be loud
        if self.status.state != CONNECTED or self._loop is None or self._out is None:
            return False
        out = self._out
        self._loop.call_soon_threadsafe(out.put_nowait, msg)
        return True

    def play(self, token: str, state_no: int, ref: int | None = None) -> bool:
        """Send a play made against ``state_no``. ``ref`` comes back in a refusal of it."""
        msg: dict[str, Any] = {"t": "play", "play": token, "state_no": state_no}
        if ref is not None:
            msg["ref"] = ref
        return self.send(msg)

    def sit(self, seat: int) -> bool:
        return self.send({"t": "sit", "seat": seat})

    def ready(self, ready: bool = True) -> bool:
        return self.send({"t": "ready", "ready": ready})

    def pause(self) -> bool:
        return self.send({"t": "pause"})

    def set_speed(self, name: str) -> bool:
        return self.send({"t": "speed", "name": name})

    def hand_to_cpu(self, seat: int, level: str) -> bool:
        return self.send({"t": "hand_to_cpu", "seat": seat, "level": level})

    def set_cpu(self, seat: int, level: str) -> bool:
        return self.send({"t": "set_cpu", "seat": seat, "level": level})

    def start_game(self) -> bool:
        return self.send({"t": "start"})

    def leave(self, to: int | None = None) -> bool:
        """Leave the seat (to the watcher numbered ``to``, if given; else to a CPU)."""
        return self.send({"t": "leave"} if to is None else {"t": "leave", "to": to})

    def ask_seat(self, seat: int) -> bool:
        """A watcher asks for a CPU seat (it changes hands at that seat's next turn)."""
        return self.send({"t": "ask_seat", "seat": seat})

    def accept_seat(self, seat: int) -> bool:
        return self.send({"t": "accept_seat", "seat": seat})

    def decline_seat(self, seat: int) -> bool:
        return self.send({"t": "decline_seat", "seat": seat})

    def hand_to_watcher(self, seat: int, watcher: int) -> bool:
        return self.send({"t": "hand_to_watcher", "seat": seat, "watcher": watcher})

    def remove_watcher(self, watcher: int) -> bool:
        return self.send({"t": "remove_watcher", "watcher": watcher})

    def allow_watchers(self, allowed: bool) -> bool:
        return self.send({"t": "watchers", "allowed": allowed})

    def auto_seat(self, on: bool) -> bool:
        return self.send({"t": "auto_seat", "on": on})

    def drop_connection(self, hold: threading.Event | None = None) -> None:
        """Cut the TCP connection abruptly (tests: simulate a network drop); it reconnects at
        once, or with ``hold`` once that is set (a drop that lasts until the test has seen
        what a lasting drop shows: the rejoin at once may beat the host's own notice of the
        cut, and then the seat is never shown dropped)."""
        self._hold = hold
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._abort)

    def close(self, timeout: float = 5.0) -> None:
        """Stop for good: say leave nothing, just disconnect and end the thread."""
        self._stop.set()
        if self._loop is not None and self._out is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._out.put_nowait, None)
                self._loop.call_soon_threadsafe(self._abort)
        if self._thread is not None:
            self._thread.join(timeout)
        self._set(CLOSED)

    # --- internals --------------------------------------------------------------------------

    def _abort(self) -> None:
        w = self._writer
        if w is not None and w.transport is not None:
            w.transport.abort()

    def _set(self, state: str, reason: str | None = None, message: str = "",
             attempts: int = 0, keep_since: bool = False) -> None:
        with self._lock:
            old = self._status
            if old.state == CLOSED:
                return
            since = old.since if keep_since and old.state == state else time.monotonic()
            self._status = Status(state, since, reason, message, attempts)
            changed = old.state != state or old.reason != reason
        if changed:
            self._deliver({"t": "_conn", "state": state, "reason": reason, "message": message})

    def _deliver(self, msg: dict[str, Any]) -> None:
        self._incoming.put(msg)
        if self.notify is not None:
            with contextlib.suppress(Exception):  # a broken callback must not kill us
                self.notify(msg)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        finally:
            loop.close()
            self._ready.set()

    async def _main(self) -> None:
        self._out = asyncio.Queue()
        self._ready.set()
        delay = self.backoff[0]
        failures = 0
        first_try_until = time.monotonic() + self.connect_timeout
        dropped_at: float | None = None
        while not self._stop.is_set():
            try:
                if self.by_code and (not self._candidates or (failures and failures % 3 == 0)):
                    await self._look_up()
                if self.by_code and self._candidates:
                    self.link = self._candidates[0]
                fatal = await self._session()
            except SeveralTables as e:
                self._set(FAILED, "several_tables", str(e))
                return
            except _GiveUp as e:
                self._set(FAILED, e.code, e.message)
                return
            except DiscoveryError as e:
                if self.token is None or self.link is None:
                    self._set(FAILED, "not_found", str(e))
                    return
                fatal = None
            except WrongHost as e:
                if not self.by_code:
                    self._set(FAILED, "wrong_host", f"{REASONS['wrong_host']} ({e})")
                    return
                if self._candidates:  # a spoofed answer: try the next one that claimed the key
                    self._candidates.pop(0)
                fatal = None
            except (OSError, asyncio.IncompleteReadError, TimeoutError, P.ProtocolError):
                fatal = None
            except LinkError as e:
                self._set(FAILED, "unreachable", str(e))
                return
            if self._stop.is_set():
                return
            if fatal is not None:
                code, message = fatal
                self._set(FAILED, code, message or REASONS.get(code, code))
                return
            now = time.monotonic()
            if self.token is None:
                # Never welcomed: keep trying only for connect_timeout.
                if now > first_try_until and self._last_busy is not None:
                    self._set(FAILED, "busy", self._last_busy)
                    return
                if now > first_try_until:
                    self._set(FAILED, "unreachable", f"{REASONS['unreachable']} at "
                              f"{self.link.address if self.link else '?'}")
                    return
            else:
                if self.status.state == CONNECTED or dropped_at is None:
                    dropped_at = now
                    failures = 0
                    delay = self.backoff[0]
                    self._set(DROPPED, "dropped", "connection lost; rejoining")
                    hold, self._hold = self._hold, None
                    while hold is not None and not hold.is_set() and not self._stop.is_set():
                        await asyncio.sleep(0.02)  # (a test's lasting drop)
                    continue  # the first try comes at once
                if now - dropped_at > self.give_up_after:
                    self._set(FAILED, "host_gone", REASONS["host_gone"])
                    return
                self._set(DROPPED, "dropped", "connection lost; rejoining",
                          attempts=failures, keep_since=True)
            failures += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff[1])

    async def _look_up(self) -> None:
        """Look the code up; keep the answers to try (those claiming the pinned key, if any)."""
        assert self.code is not None
        found = await adiscover_all(self.code, self.discover_targets, bind=self.discover_bind)
        self.answers = found
        if self.host_key is not None:
            mine = [a for a in found if a.key == self.host_key]
            if not mine and self.connects == 0:
                raise _GiveUp("wrong_host", f"a table answered code {self.code}, but not the "
                              f"one this seat belongs to (another table, or an impostor): "
                              f"join as a new player, or by the host's link")
            if not mine:  # the host may be restarting: keep looking
                raise DiscoveryError(f"no answer for code {self.code} with this table's key")
            found = mine
        same = [a for a in found if a.version in (None, P.VERSION)]
        if not same:
            v = found[0].version
            where = "host's" if (v or 0) < P.VERSION else "your"
            raise _GiveUp("version", f"the table {self.code} answered, but its host speaks "
                          f"protocol version {v} and this program version {P.VERSION}: "
                          f"update Tee Table on the {where} machine")
        if self.host_key is None and len({a.key for a in same}) > 1:
            raise SeveralTables(same)
        self._candidates = [a.link for a in same]

    def _error_answer(self, msg: dict[str, Any]) -> tuple[str, str] | None:
        """An ``error`` before welcome: (code, message) if fatal, None to try again."""
        code, message = msg["code"], msg["message"]
        if code in ("busy", "hello_timeout"):  # crowded or slow just now: try again
            self._deliver(msg)
            self._last_busy = message
            return None
        if code == "version":
            return (code, message if "update" in message else
                    f"{message} (update Tee Table on the machine with the older version)")
        if code in FATAL or self._secret is None:
            return (code, message)
        self._deliver(msg)  # a rejoin turned away for now: try again
        return None

    async def _session(self) -> tuple[str, str] | None:
        """One connection. Returns (code, message) for a fatal refusal, None to retry."""
        assert self.link is not None and self._out is not None
        if self.status.state != DROPPED:
            self._set(CONNECTING)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.link.host, self.link.port), self.connect_timeout)
        self._writer = writer
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            mine = secure.KeyPair()  # one use: this connection's half of the session key
            hello: dict[str, Any] = {"t": "hello", "v": P.VERSION, "name": self.name,
                                     "code": self.code, "dh": mine.public}
            if self.watch and self._secret is None:
                hello["watch"] = True
            writer.write(P.pack(hello))
            await writer.drain()
            first = await asyncio.wait_for(self._read(reader, P.validate_handshake),
                                           self.connect_timeout)
            if first["t"] == "error":
                return self._error_answer(first)
            host_pub = first["key"]
            fp = secure.fingerprint(host_pub)
            if self.host_key is not None and fp != self.host_key:
                raise WrongHost(f"it shows key {fp}, this seat's table has {self.host_key}")
            try:
                key = secure.session_key(mine.shared(host_pub), host_pub, mine.public,
                                         first["nonce"])
            except secure.HandshakeError as e:
                raise WrongHost(str(e)) from None
            if not hmac.compare_digest(secure.host_proof(key), first["mac"]):
                raise WrongHost("it could not prove it holds the key it shows")
            proof = secure.seat_proof(self._secret, key) if self._secret else None
            writer.write(P.pack({"t": "proof", "proof": proof}))
            await writer.drain()
            first = await asyncio.wait_for(self._read(reader), self.connect_timeout)
            if first.get("t") == "error":
                return self._error_answer(first)
            if first.get("t") != "welcome":
                raise P.ProtocolError("bad_hello", f"expected welcome, got {first.get('t')!r}")
            try:
                self._secret = secure.unseal(first["token"], key)
            except secure.HandshakeError as e:
                raise P.ProtocolError("bad_hello", str(e)) from None
            self.host_key = fp  # pinned: from now on only this key's holder gets a proof
            self._key = key
            first = {**first, "token": self.credential, "key": fp}
            self.seat = first["seat"]
            self.table = first["table"]
            self.connects += 1
            # The snapshot that follows at once goes out with the welcome, in one batch: a
            # poll() never sees a welcome (a seat) without the seats and view it belongs to.
            after = await asyncio.wait_for(self._read(reader), self.connect_timeout)
            snap: dict[str, Any] | None = after
            with self._batch:
                self._deliver(first)
                self._set(CONNECTED)
                if after["t"] == "snapshot":
                    self.seat = after["seat"]
                    self._deliver(after)
                    snap = None
            while not self._out.empty():  # intents queued before this connection are stale
                if self._out.get_nowait() is None:
                    return None  # close() was called meanwhile
            if self._stop.is_set():
                return None
            return await self._pump(reader, writer, snap)
        finally:
            self._writer = None
            writer.transport.abort()

    async def _read(self, reader: asyncio.StreamReader,
                    check: Callable[[Any], dict[str, Any]] = P.validate_host) -> dict[str, Any]:
        head = await reader.readexactly(P.HEADER.size)
        (n,) = P.HEADER.unpack(head)
        P.check_length(n)
        body = await reader.readexactly(n)
        self.bytes_received += n + P.HEADER.size
        self.frames_received += 1
        return check(P.unpack_body(body))

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    pending: dict[str, Any] | None = None) -> tuple[str, str] | None:
        assert self._out is not None
        out = self._out

        async def send_loop() -> None:
            n = 0
            while True:
                try:
                    msg = await asyncio.wait_for(out.get(), self.ping_interval)
                except TimeoutError:
                    n += 1
                    msg = {"t": "ping", "n": n}
                if msg is None:
                    return
                writer.write(P.pack(msg))
                await writer.drain()

        sender = asyncio.create_task(send_loop())
        try:
            while True:
                if pending is not None:  # a frame read before the pump started
                    reader_task = asyncio.get_running_loop().create_future()
                    reader_task.set_result(pending)
                    pending = None
                else:
                    reader_task = asyncio.ensure_future(self._read(reader))
                done, _ = await asyncio.wait({reader_task, sender}, timeout=self.host_silence,
                                             return_when=asyncio.FIRST_COMPLETED)
                if reader_task not in done:
                    reader_task.cancel()
                    with contextlib.suppress(BaseException):
                        await reader_task
                    if sender in done:
                        err = sender.exception()
                        if err is not None:
                            raise err
                        return None  # close() asked us to stop
                    raise TimeoutError("host silent")
                msg = reader_task.result()
                t = msg["t"]
                if t == "error":
                    if msg["code"] in FATAL:
                        return (msg["code"], msg["message"])
                    self._deliver(msg)
                    return None
                if t == "bye":
                    self._deliver(msg)
                    # never fight a newer window, nor a host who took the seat or no longer
                    # lets anyone watch: a person chooses to join again, never the program
                    if msg["reason"] in ("left", "replaced", "removed", "handed",
                                         "no_watchers"):
                        return (msg["reason"], REASONS[msg["reason"]])
                    return None
                if t == "pong":
                    continue
                if t == "welcome":  # moved to another seat: a new secret, sealed
                    try:
                        self._secret = secure.unseal(msg["token"], self._key)
                    except secure.HandshakeError as e:
                        raise P.ProtocolError("bad_welcome", str(e)) from None
                    self.seat, self.table = msg["seat"], msg["table"]
                    msg = {**msg, "token": self.credential, "key": self.host_key}
                elif t == "snapshot":
                    self.seat = msg["seat"]
                self._deliver(msg)
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
