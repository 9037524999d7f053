"""The host: an asyncio TCP server around the one authoritative table.

Every person, the host's own player included, plays through a connection and the same path:
``hello`` -> ``welcome`` + ``snapshot``, then intents in and per-seat messages out (see
``docs/protocol.md``). The host sends each connection only what its own seat may know (the
table's own view of that seat and its filtered events).

Two ways to run it:

* :class:`Host` in the foreground of an asyncio program (the headless host, ``net.cli``)::

      host = Host(table, bind="0.0.0.0", port=47800)
      await host.start(); await host.serve_forever()

* :class:`HostThread` on its own thread beside the pygame loop; the local player then joins
  through :class:`net.client.Client` over loopback with :attr:`HostThread.host_token`::

      ht = HostThread(table).start()
      me = Client(ht.local_link, name, token=ht.host_token).start()

The table-facing calls are gathered in :class:`TableGlue` (one adapter over ``game.table``), so
the network code does not depend on the table's inner workings. The limits and the admission of
handshaking sockets are in :mod:`net.limits`, the handshake's cryptography in :mod:`net.secure`.
This file is about 670 lines because a connection's whole life (admission, handshake,
serving, output, deadlines) reads best in one place, beside the thread wrapper that runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from net import protocol as P
from net import secure
from net.codes import DEFAULT_PORT, DISCOVERY_PORT, Link, make_link, new_code, normalize_code
from net.discovery import DiscoveryResponder, lan_address
from net.glue import Refusal, TableGlue
from net.limits import Conn, Gate, Limits, TokenBucket

__all__ = ["Conn", "Host", "HostThread", "Limits", "TokenBucket"]

log = logging.getLogger("net.host")

#: The host's tick loop sleeps at most this long when nothing is due (seconds).
IDLE_TICK = 0.25


class Host:
    """See the module docstring. ``code`` defaults to a fresh one."""

    def __init__(
        self,
        table: Any,
        *,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        code: str | None = None,
        discovery: tuple[str, int] | None = ("0.0.0.0", DISCOVERY_PORT),
        advertise: str | None = None,
        tick_interval: float = 0.02,
        limits: Limits | None = None,
        on_change: Callable[[], None] | None = None,
        key_file: str | os.PathLike[str] | None = None,
        web: Any = None,
    ) -> None:
        """``web``: a :class:`net.web.WebConfig` to serve phones too (``docs/web.md``)."""
        self.glue = table if isinstance(table, TableGlue) else TableGlue(table)
        if key_file is None:
            save = getattr(self.glue.table, "save_path", None)
            key_file = secure.key_path_for(save) if save is not None else None
        self.key_file = key_file
        try:
            self.key = secure.load_or_create(key_file)
        except OSError as e:  # cannot write it (disk full...): this run's key only
            log.warning("cannot keep the table key in %s (%s): a key for this run only",
                        key_file, e)
            self.key = secure.KeyPair()
        self.bind = bind
        self.requested_port = port
        self.code = normalize_code(code) if code else new_code()
        self.discovery_bind = discovery
        self.advertise = advertise
        self.tick_interval = tick_interval
        #: The longest the tick loop sleeps when nothing is due (an intent or a connection
        #: wakes it at once): an empty lobby costs a few wake-ups a second, not fifty.
        self.idle_interval = max(tick_interval, IDLE_TICK)
        self._wake: asyncio.Event | None = None
        self._clock_ref: tuple[float, float] | None = None  # (wall, table clock) at first look
        self.limits = limits or Limits()
        self.on_change = on_change
        self.conns: set[Conn] = set()
        self.by_token: dict[str, Conn] = {}
        self.gate = Gate(self.limits)  # the connections still in their handshake
        self.server: asyncio.Server | None = None
        self.responder: DiscoveryResponder | None = None
        self.discovery_error: str | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._closing = False
        self.web_config = web
        self.web: Any = None  # the net.web.WebServer, once started
        self.stats = {"accepted": 0, "refused": 0, "errors": 0, "frames_in": 0, "evicted": 0,
                      "stalled": 0, "slow_cut": 0, "hello_busy": 0, "key_exchanges": 0}

    # --- lifecycle ----------------------------------------------------------------------------

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    @property
    def address(self) -> str:
        if self.advertise:
            return self.advertise
        if self.bind in ("0.0.0.0", "", "::"):
            return lan_address()
        return self.bind

    @property
    def fingerprint(self) -> str:
        """The table key's fingerprint: in the link and in every code look-up's answer."""
        return self.key.fingerprint

    @property
    def link(self) -> Link:
        return Link(self.address, self.port, self.code, self.fingerprint)

    def lookup_info(self) -> dict[str, Any]:
        """What a code look-up's answer tells about this table (besides its key and port)."""
        t = self.glue.table
        seats = [t.seat_info(i) for i in range(t.seat_count)]
        pub = t.public()
        return {"name": self.glue.table_name(), "seats": len(seats),
                "people": sum(s["kind"] == "person" for s in seats),
                "phase": str(getattr(t, "phase", "")),
                "watching": int(pub.get("watching") or 0),
                "watchable": bool(pub.get("allow_watchers", True))}

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._accept, self.bind, self.requested_port,
                                                 backlog=512)
        if self.discovery_bind is not None:
            try:
                self.responder = await DiscoveryResponder.start(
                    self.code, self.port, bind=self.discovery_bind, host=self.address,
                    name=self.glue.table_name(), key=self.fingerprint, info=self.lookup_info)
            except OSError as e:
                self.discovery_error = (
                    f"LAN discovery is off (UDP {self.discovery_bind[1]}: {e.strerror or e}); "
                    f"join by link or address instead")
                log.warning(self.discovery_error)
        self.glue.set_link(make_link(self.address, self.port, self.code, self.fingerprint),
                           self.code)
        self._ticker = asyncio.create_task(self._tick_loop())
        if self.web_config is not None:
            from net.web import WebServer

            web = WebServer(self, self.web_config)
            try:
                await web.start()
            except BaseException:  # no web port: close what is open, so nothing stays bound
                await self.stop()
                raise
            self.web = web

    async def serve_forever(self) -> None:
        assert self.server is not None
        with contextlib.suppress(asyncio.CancelledError):
            await self.server.serve_forever()

    async def stop(self, reason: str = "host_closing") -> None:
        self._closing = True
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(BaseException):
                await self._ticker
        if self.responder is not None:
            self.responder.close()
        if self.server is not None:
            self.server.close()
        for c in list(self.conns):
            self._send(c, {"t": "bye", "reason": reason})
            self._close(c)
        if self.web is not None:
            await self.web.stop()
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)

    def kill(self) -> None:
        """Stop abruptly, like a crash: no bye, connections just reset (tests)."""
        self._closing = True
        if self._ticker is not None:
            self._ticker.cancel()
        if self.responder is not None:
            self.responder.close()
        if self.server is not None:
            self.server.close()
        for c in list(self.conns):
            c.writer.transport.abort()

    # --- ticking ---------------------------------------------------------------------------

    def poke(self) -> None:
        """Something happened (an intent, a connection): the tick loop looks now."""
        if self._wake is not None:
            self._wake.set()

    def _next_sleep(self) -> float:
        """How long the tick loop may sleep: a tick's worth while a CPU or stand-in play is due
        (its answer comes from another process), else until it is due, at most
        :attr:`idle_interval` (the table's clock may run faster than the wall's in tests)."""
        table = self.glue.table
        due = table.next_due()
        if due is None:
            return self.idle_interval
        now = table.clock_now()
        left = due - now
        if left <= 0:
            return self.tick_interval
        return min(self.idle_interval, max(self.tick_interval, left / self._clock_rate(now)))

    def _clock_rate(self, now: float) -> float:
        """How fast the table's clock runs against the wall's, measured since the first tick:
        1 for a real table; a test's fast clock runs 50 or 100 times faster, and a play due in
        half a second of its time is due in a few milliseconds of the wall's (sleeping the
        table's seconds cost every CPU play a quarter of a second there). A clock that stands
        still (a test that moves it by hand) counts as 1."""
        wall = time.monotonic()
        if self._clock_ref is None:
            self._clock_ref = (wall, now)
            return 1.0
        wall0, now0 = self._clock_ref
        if wall - wall0 < 0.05:
            return 1.0
        return min(1000.0, max(1.0, (now - now0) / (wall - wall0)))

    async def _tick_loop(self) -> None:
        self._wake = asyncio.Event()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._next_sleep())
            self._wake.clear()
            try:
                self.glue.tick()
                self._flush()
                self._move_watchers()
            except Exception:  # the table must not take the server down
                log.exception("table tick failed")
            self._check_writes()

    def _check_writes(self) -> None:
        """The write deadline: output that has not drained for ``write_timeout`` is cut."""
        now = time.monotonic()
        for c in list(self.conns):
            if c.closed:
                continue
            if c.writer.transport.get_write_buffer_size() == 0:
                c.stuck_since = None
            elif c.stuck_since is None:
                c.stuck_since = now
            elif now - c.stuck_since > self.limits.write_timeout:
                self._cut(c, f"output not drained for {self.limits.write_timeout:g} s")

    def _cut(self, c: Conn, why: str) -> None:
        """Drop a reader that does not keep up; it rejoins and gets a fresh snapshot."""
        log.warning("cutting slow reader %s: %s", c.peer, why)
        self.stats["slow_cut"] += 1
        c.writer.transport.abort()
        c.closed = True

    # --- output ------------------------------------------------------------------------------

    def _send(self, c: Conn, msg: dict[str, Any]) -> None:
        self._send_bytes(c, P.pack(msg))

    def _send_bytes(self, c: Conn, data: bytes) -> None:
        if c.closed:
            return
        tr = c.writer.transport
        if tr.is_closing():
            return
        tr.write(data)
        c.sent_bytes += len(data)
        c.sent_frames += 1
        if tr.get_write_buffer_size() > self.limits.max_buffer:
            self._cut(c, f"more than {self.limits.max_buffer} bytes unsent")

    def _flush(self) -> None:
        """Send every connection what the table produced for its seat since the last flush."""
        by_seat: dict[int | None, list[Conn]] = {}
        for c in self.by_token.values():
            if not c.closed:
                by_seat.setdefault(c.seat, []).append(c)
        out = self.glue.collect(set(by_seat))
        for seat, msgs in out.items():
            datas = []
            for m in msgs:
                try:
                    datas.append(P.pack(m))
                except (P.ProtocolError, TypeError, ValueError) as e:
                    log.error("cannot send %s to seat %s: %s", m.get("t"), seat, e)
            for c in by_seat[seat]:
                for data in datas:
                    self._send_bytes(c, data)
        if out and self.on_change is not None:
            self.on_change()

    def _close(self, c: Conn) -> None:
        if not c.closed:
            c.closed = True
            tr = c.writer.transport
            if not tr.is_closing():
                tr.close()

    async def _fatal(self, c: Conn, code: str, message: str) -> None:
        self.stats["errors"] += 1
        self._unpend(c)  # finished: it no longer holds a handshake slot
        self._send(c, {"t": "error", "code": code, "message": message})
        with contextlib.suppress(Exception):
            await asyncio.wait_for(c.writer.drain(), 1)
        self._close(c)

    def _refuse(self, c: Conn, code: str, message: str, of: str | None,
                ref: int | None = None) -> None:
        self.stats["refused"] += 1
        msg: dict[str, Any] = {"t": "refused", "code": code, "message": message, "of": of}
        if ref is not None:
            msg["ref"] = ref
        self._send(c, msg)

    # --- a connection ------------------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with contextlib.suppress(OSError):  # bound the kernel's queue: the buffer check sees
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        addr = str(peer[0]) if peer else "?"
        c = Conn(writer, f"{peer[0]}:{peer[1]}" if peer else "?",
                 TokenBucket(self.limits.rate, self.limits.burst), addr=addr)
        if sum(o.joined for o in self.conns) >= self.limits.max_connections:
            await self._fatal(c, "busy", f"the host has too many connections "
                                         f"({self.limits.max_connections}); try again later")
            return
        victim = self.gate.make_room(addr)
        if victim is not None:
            self._evict(victim)
        self.conns.add(c)
        self.gate.enter(c)
        try:
            try:
                ok = await asyncio.wait_for(self._handshake(c, reader), self.limits.hello_timeout)
            except TimeoutError:
                ok = False
                if not c.closed:
                    await self._fatal(c, "hello_timeout", f"no hello within "
                                                          f"{self.limits.hello_timeout:g} s")
            finally:
                self._unpend(c)
            if ok:
                await self._serve(c, reader)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("connection %s failed", c.peer)
        finally:
            self.conns.discard(c)
            self._close(c)
            if c.token is not None and self.by_token.get(c.token) is c:
                del self.by_token[c.token]
                if not self._closing:
                    last = not any(o.seat == c.seat for o in self.by_token.values())
                    if c.seat is None:  # an admin or a watcher (each watcher is listed)
                        self.glue.connected(c.token, False, last=last)
                        if last:  # nobody left on seat None
                            self.glue.table.unsubscribe(None)
                    elif last:
                        self.glue.connected(c.token, False)
                    self._flush()

    def _unpend(self, c: Conn) -> None:
        self.gate.leave(c)

    def _evict(self, c: Conn) -> None:
        self.stats["evicted"] += 1
        self._unpend(c)
        if c.closed:
            return
        self._send(c, {"t": "error", "code": "busy",
                       "message": "too many connections from your address are still saying "
                                  "hello; this, the oldest, makes way"})
        self._close(c)

    async def _handshake(self, c: Conn, reader: asyncio.StreamReader) -> bool:
        try:
            first = await P.read_frame(reader)
            c.spoke = True
        except P.ProtocolError as e:
            await self._fatal(c, e.code if e.code in ("too_large", "empty") else "bad_message",
                              e.reason)
            return False
        if type(first) is not dict or first.get("t") != "hello":
            await self._fatal(c, "hello_first", "the first message must be hello")
            return False
        v = first.get("v")
        if "v" not in first:
            await self._fatal(c, "bad_message", "hello needs the protocol version 'v'")
            return False
        if v != P.VERSION or type(v) is not int:
            older = type(v) is int and v < P.VERSION
            await self._fatal(
                c, "version",
                f"this host speaks protocol version {P.VERSION}, your program speaks version "
                f"{v!r}: both machines need the same version of Tee Table"
                + (" (update Tee Table on your machine)" if older else
                   " (update Tee Table on the host's machine)"))
            return False
        try:
            hello = P.validate_client(first)
        except P.ProtocolError as e:
            await self._fatal(c, "bad_message", e.reason)
            return False
        code = hello.get("code")
        if code is not None:
            try:
                ok = normalize_code(code) == self.code
            except ValueError:
                ok = False
            if not ok:
                await self._fatal(c, "wrong_code",
                                  f"this host's table code is not {code!r}: check the code")
                return False
        if hello.get("token") is not None:
            await self._fatal(c, "bad_message", "a seat's secret never travels in version 2: "
                                                "answer the challenge with a proof instead")
            return False
        if "dh" not in hello:
            await self._fatal(c, "bad_message", "hello needs the field 'dh' (version 2)")
            return False
        if not self.gate.may_handshake(c.addr):
            self.stats["hello_busy"] += 1
            await self._fatal(c, "busy", "too many joins from your address just now; "
                                         "trying again in a moment")
            return False
        try:
            self.stats["key_exchanges"] += 1
            shared = self.key.shared(hello["dh"])
        except secure.HandshakeError as e:
            await self._fatal(c, "bad_message", f"hello field 'dh': {e}")
            return False
        nonce = secrets.token_bytes(secure.NONCE_BYTES)
        c.key = secure.session_key(shared, self.key.public, hello["dh"], nonce)
        self._send(c, {"t": "challenge", "v": P.VERSION, "key": self.key.public,
                       "nonce": nonce, "mac": secure.host_proof(c.key)})
        try:
            answer = P.validate_client(await P.read_frame(reader))
        except P.ProtocolError as e:
            await self._fatal(c, "bad_message", e.reason)
            return False
        if answer["t"] != "proof":
            await self._fatal(c, "hello_first", "after the challenge comes the proof")
            return False
        secret: str | None = None
        if answer["proof"] is not None:
            secret = secure.find_secret(answer["proof"], c.key, self._secrets())
            if secret is None:
                await self._fatal(c, "bad_token", "this table has no seat for that proof (a "
                                                  "different table, or the seat was handed "
                                                  "to a CPU)")
                return False
        try:
            token = self.glue.join(hello["name"], secret, watch=hello.get("watch") is True)
        except Refusal as r:
            await self._fatal(c, r.code, r.message)
            return False
        old = self.by_token.get(token)
        if old is not None:
            self._send(old, {"t": "bye", "reason": "replaced"})
            self._close(old)
        c.token, c.name = token, hello["name"]
        c.seat = self.glue.seat_of(token)
        # Others first: what happened before this connection came in. The new connection is
        # not registered yet, so nothing queued for its seat before now (an admin's seat-None
        # outbox, say) reaches it: its snapshot below covers all that (and drains it).
        self._flush()
        self.by_token[token] = c
        c.joined = True
        self.stats["accepted"] += 1
        self.glue.connected(token, True)
        self.poke()
        self._welcome(c)
        self._flush()
        return True

    def _secrets(self) -> list[str]:
        """Every secret a proof may be made with: the admin's, each person seat's, and each
        token the host took a seat from (it comes back to the seat, or watches)."""
        return self.glue.secrets()

    def _end_taken(self) -> None:
        """Close the connections whose seat the host removed or handed to a CPU, each with a
        ``bye`` saying why (the transport sends what is queued before it closes)."""
        for token, reason in self.glue.take_ended():
            gone = self.by_token.pop(token, None)
            if gone is not None:
                self._send(gone, {"t": "bye", "reason": reason})
                self._close(gone)

    def _move_watchers(self) -> None:
        """Give each watcher whose requested seat changed hands its seat: the connection gets
        the seat's token (a fresh ``welcome``, sealed) and the seat's snapshot from now on."""
        for watcher, seat, token in self.glue.take_moved():
            c = self.by_token.pop(watcher, None)
            if c is None or c.closed:
                continue  # gone meanwhile: the seat's stand-in rule covers it
            c.token, c.seat = token, seat
            self.by_token[token] = c
            self._welcome(c)
            if not any(o.seat is None for o in self.by_token.values()):
                self.glue.table.unsubscribe(None)  # the last spectator moved to a seat
        self._end_taken()

    def _welcome(self, c: Conn) -> None:
        """``welcome`` (the seat's secret sealed under the session key) and a snapshot."""
        assert c.token is not None
        self._send(c, {"t": "welcome", "v": P.VERSION, "token": secure.seal(c.token, c.key),
                       "seat": c.seat, "table": self.glue.summary(c.token),
                       **self.glue.welcome_extra(c.token)})
        self._send(c, self.glue.snapshot(c.token))

    async def _serve(self, c: Conn, reader: asyncio.StreamReader) -> None:
        assert c.token is not None
        while not c.closed:
            try:
                body = await P.read_body(reader, self.limits.idle_timeout,
                                         self.limits.frame_timeout)
            except TimeoutError:
                await self._fatal(c, "idle",
                                  f"nothing received for {self.limits.idle_timeout:g} s")
                return
            except P.ProtocolError as e:
                if e.code == "stalled":
                    self.stats["stalled"] += 1
                await self._fatal(c, e.code, e.reason)
                return
            self.stats["frames_in"] += 1
            level = c.bucket.take()
            if level < 0:
                if level < -self.limits.flood_debt:
                    await self._fatal(c, "flood", "far too many messages: disconnected")
                    return
                self._refuse(c, "flood", "too many messages: slow down", None)
                continue
            try:
                msg = P.validate_client(P.unpack_body(body))
            except P.ProtocolError as e:
                c.bad += 1
                if c.bad > self.limits.max_bad:
                    await self._fatal(c, "bad_message", f"too many bad messages ({e.reason})")
                    return
                self._refuse(c, "bad_message", e.reason, None)
                continue
            if self.by_token.get(c.token) is not c:
                return  # replaced by a newer connection of the same seat
            await self._dispatch(c, msg)

    async def _dispatch(self, c: Conn, msg: dict[str, Any]) -> None:
        self.poke()
        assert c.token is not None
        t = msg["t"]
        if t == "ping":
            self._send(c, {"t": "pong", "n": msg.get("n", 0)})
            return
        if t == "hello":
            self._refuse(c, "bad_message", "already joined: hello only comes first", t,
                         msg.get("ref"))
            return
        self._flush()  # whatever the table queued before this intent goes out first
        try:
            new_token = self.glue.intent(c.token, msg)
        except Refusal as r:
            self._refuse(c, r.code, r.message, t, msg.get("ref"))
            if r.code == "stale_state":
                self._send(c, self.glue.snapshot(c.token))
            self._flush()
            return
        if new_token is not None and new_token != c.token:  # moved to another seat
            del self.by_token[c.token]
            c.token, c.seat = new_token, self.glue.seat_of(new_token)
            old = self.by_token.get(new_token)
            if old is not None:
                self._close(old)
            self.by_token[new_token] = c
            self._flush()
            self._welcome(c)
        self._flush()
        self._move_watchers()  # a seat given in the lobby changes hands at once
        self._end_taken()
        if (self.glue.seat_of(c.token) is None and c.token != self.glue.table.host_token
                and not self.glue.is_watcher(c.token)):
            # left, or handed its own seat to a CPU: this token is finished
            self._send(c, {"t": "bye", "reason": "left"})
            with contextlib.suppress(Exception):
                await asyncio.wait_for(c.writer.drain(), 1)
            if self.by_token.get(c.token) is c:
                del self.by_token[c.token]
            self._close(c)


class HostThread:
    """A :class:`Host` on its own thread with its own event loop (beside the pygame loop).

    ``start()`` returns once the server listens; :attr:`port`, :attr:`code`, :attr:`link` are
    then set. :attr:`host_token` is the token of the host's own seat, for the local client.
    ``call(fn)`` runs ``fn(host)`` on the host thread and returns its result (thread-safe).
    """

    def __init__(self, table: Any, **host_kw: Any) -> None:
        self._table = table
        self._kw = host_kw
        self.host: Host | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None
        self._stop: asyncio.Event | None = None

    def start(self, timeout: float = 10.0) -> HostThread:
        self._thread = threading.Thread(target=self._run, name="net-host", daemon=True)
        self._thread.start()
        if not self._started.wait(timeout):
            raise RuntimeError("the host did not start in time")
        if self._error is not None:
            raise self._error
        return self

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        try:
            loop.run_until_complete(self._main())
        except BaseException as e:  # reported to start()
            self._error = e
        finally:
            self._started.set()
            loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        self.host = Host(self._table, **self._kw)
        try:
            await self.host.start()
        except BaseException as e:
            self._error = e
            self._started.set()
            return
        self._started.set()
        await self._stop.wait()
        await self.host.stop()

    @property
    def port(self) -> int:
        assert self.host is not None
        return self.host.port

    @property
    def code(self) -> str:
        assert self.host is not None
        return self.host.code

    @property
    def link(self) -> Link:
        assert self.host is not None
        return self.host.link

    @property
    def local_link(self) -> Link:
        """Where the host's own client connects (loopback unless bound elsewhere)."""
        assert self.host is not None
        bind = self.host.bind
        h = "127.0.0.1" if bind in ("0.0.0.0", "") else ("::1" if bind == "::" else bind)
        return Link(h, self.port, self.code, self.host.fingerprint)

    @property
    def fingerprint(self) -> str:
        assert self.host is not None
        return self.host.fingerprint

    @property
    def web_url(self) -> str | None:
        """The phones' link (``http://HOST:WEBPORT/#KEY/CODE``) when serving them, else None."""
        assert self.host is not None
        return None if self.host.web is None else str(self.host.web.url)

    @property
    def host_token(self) -> str:
        return self.call(lambda h: h.glue.host_token())

    def call(self, fn: Callable[[Host], Any], timeout: float = 5.0) -> Any:
        assert self.loop is not None and self.host is not None
        host = self.host

        async def run() -> Any:
            r = fn(host)
            host._flush()
            return r

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        if self.loop is not None and self._stop is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout)

    def kill(self, timeout: float = 5.0) -> None:
        """Crash-stop (tests): connections reset, no bye."""
        if self.loop is None or self.host is None or self.loop.is_closed():
            return
        host = self.host

        async def k() -> None:
            host.kill()
            await asyncio.sleep(0)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(k(), self.loop).result(timeout)
        self.stop(timeout)
