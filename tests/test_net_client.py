"""The client's connection thread against a small scripted host (no table needed)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from net import protocol as P
from net import secure
from net.client import CONNECTED, DROPPED, FAILED, Client
from net.codes import Link


class FakeHost:
    """Accepts connections and speaks the version 2 handshake with a table key of its own;
    ``on_hello`` decides the answer to each hello (given with ``token``: the seat secret the
    client proved it holds, of :attr:`secrets`, or None). Records everything received."""

    def __init__(self, on_hello: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.on_hello = on_hello
        self.received: list[dict[str, Any]] = []
        self.hellos: list[dict[str, Any]] = []
        self.writers: list[asyncio.StreamWriter] = []
        self.silent = False
        self.key = secure.KeyPair()
        self.secrets = ["tok-1", "tok-9"]
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._conn, "127.0.0.1", 0), self.loop).result(5)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _conn(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.append(writer)
        try:
            hello = await P.read_frame(reader)
            nonce = b"n" * 32
            k = secure.session_key(self.key.shared(hello["dh"]), self.key.public, hello["dh"],
                                   nonce)
            writer.write(P.pack({"t": "challenge", "v": P.VERSION, "key": self.key.public,
                                 "nonce": nonce, "mac": secure.host_proof(k)}))
            proof = (await P.read_frame(reader))["proof"]
            token = secure.find_secret(proof, k, self.secrets) if proof else None
            hello = {**hello, "token": token}
            self.hellos.append(hello)
            answer = self.on_hello(hello)
            if answer["t"] == "welcome":
                answer = {**answer, "token": secure.seal(answer["token"], k)}
            writer.write(P.pack(answer))
            if answer["t"] == "error":
                await writer.drain()
                writer.close()
                return
            writer.write(P.pack({  # the table's own snapshot shape (game/table/messages.py)
                "t": "snapshot", "table_id": "t1", "game": "track", "config": {},
                "state_no": 7, "phase": "playing", "seats": [], "to_move": None,
                "pause": [], "paused_by": None, "speed": "normal", "screen_owner": None,
                "cover": False, "turns": 7, "outcome": None, "points": {},
                "save_error": None, "seat": answer["seat"], "view": {"hand": [1, 2]},
            }))
            while True:
                msg = await P.read_frame(reader)
                self.received.append(msg)
                if msg["t"] == "ping" and not self.silent:
                    writer.write(P.pack({"t": "pong", "n": msg.get("n", 0)}))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    def call(self, fn: Callable[[], Any]) -> None:
        self.loop.call_soon_threadsafe(fn)

    def drop_all(self) -> None:
        def go() -> None:
            for w in self.writers:
                w.transport.abort()
        self.call(go)

    def close(self) -> None:
        # on the loop's own thread: Server.close() from this thread raced the loop closing
        # the server when its last connection went (a TypeError in asyncio's _wakeup)
        self.call(self.server.close)
        self.drop_all()
        time.sleep(0.05)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def welcome(hello: dict[str, Any]) -> dict[str, Any]:
    return {"t": "welcome", "v": P.VERSION, "token": hello.get("token") or "tok-1", "seat": 2,
            "table": {"code": "KQXF"}}


@pytest.fixture
def fake() -> Iterator[FakeHost]:
    h = FakeHost(welcome)
    yield h
    h.close()


def wait(pred: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.01)
    return pred()


def test_connect_welcome_snapshot_and_intents(fake: FakeHost) -> None:
    c = Client(Link("127.0.0.1", fake.port, "KQXF"), "Ann").start()
    try:
        assert c.wait_for(lambda m: m["t"] == "snapshot") is not None
        assert c.status.state == CONNECTED
        assert c.token == "tok-1" and c.seat == 2
        sent = fake.hellos[0]
        assert {k: v for k, v in sent.items() if k != "dh"} == {
            "t": "hello", "v": P.VERSION, "name": "Ann", "token": None, "code": "KQXF"}
        assert len(sent["dh"]) == 256
        # The app is given the secret pinned to the key the host proved it holds.
        assert c.credential == f"{fake.key.fingerprint}:tok-1"
        assert c.play("5H", 7) and c.pause() and c.ready()
        assert wait(lambda: len(fake.received) >= 3)
        assert fake.received[:3] == [{"t": "play", "play": "5H", "state_no": 7},
                                     {"t": "pause"}, {"t": "ready", "ready": True}]
    finally:
        c.close()


def test_send_refuses_invalid_intent_loudly(fake: FakeHost) -> None:
    c = Client(f"127.0.0.1:{fake.port}", "Ann").start()
    try:
        with pytest.raises(P.ProtocolError):
            c.send({"t": "sit", "seat": "two"})
    finally:
        c.close()


def test_reconnects_with_token_after_drop(fake: FakeHost) -> None:
    c = Client(f"127.0.0.1:{fake.port}", "Ann").start()
    try:
        assert c.wait_for(lambda m: m["t"] == "snapshot")
        fake.drop_all()
        assert c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == DROPPED)
        assert not c.play("5H", 7)  # not connected: nothing queued
        assert c.wait_for(lambda m: m["t"] == "snapshot", timeout=5)
        assert c.status.state == CONNECTED
        assert len(fake.hellos) == 2
        assert fake.hellos[1]["token"] == "tok-1"  # rejoined its own seat
        assert c.connects == 2
    finally:
        c.close()


def test_silent_host_counts_as_drop(fake: FakeHost) -> None:
    fake.silent = True
    c = Client(f"127.0.0.1:{fake.port}", "Ann", ping_interval=0.1, host_silence=0.4).start()
    try:
        assert c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == DROPPED, timeout=5)
    finally:
        c.close()


@pytest.mark.parametrize(
    ("code", "reason"),
    [("version", "version"), ("wrong_code", "wrong_code"), ("table_full", "table_full"),
     ("bad_token", "bad_token")],
)
def test_fatal_refusals_fail_with_reason(code: str, reason: str) -> None:
    h = FakeHost(lambda hello: {"t": "error", "code": code, "message": f"no: {code}"})
    c = Client(f"127.0.0.1:{h.port}", "Ann").start()
    try:
        msg = c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == FAILED)
        assert msg is not None and msg["reason"] == reason
        assert msg["message"].startswith(f"no: {code}")
        if code == "version":  # whatever the host said, the person is told what to do
            assert "update Tee Table" in msg["message"]
        assert c.status.state == FAILED and c.status.reason == reason
        time.sleep(0.3)
        assert len(h.hellos) == 1  # no retry after a fatal refusal
    finally:
        c.close()
        h.close()


def test_unreachable_host_fails_after_connect_timeout() -> None:
    h = FakeHost(welcome)
    port = h.port
    h.close()  # nothing listens there now
    c = Client(f"127.0.0.1:{port}", "Ann", connect_timeout=0.5).start()
    try:
        msg = c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == FAILED, timeout=5)
        assert msg is not None and msg["reason"] == "unreachable"
        assert f"127.0.0.1:{port}" in msg["message"]
    finally:
        c.close()


def test_code_not_found_fails_clearly() -> None:
    c = Client("KQXF", "Ann", discover_targets=[("127.0.0.1", 9)], discover_bind="127.0.0.1")
    c.start()
    try:
        msg = c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == FAILED, timeout=10)
        assert msg is not None and msg["reason"] == "not_found"
        assert "KQXF" in msg["message"]
    finally:
        c.close()


def test_rejoin_turned_away_busy_tries_again() -> None:
    calls: list[int] = []

    def answer(hello: dict[str, Any]) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            return {"t": "error", "code": "busy", "message": "too many connections"}
        return welcome(hello)

    h = FakeHost(answer)
    c = Client(f"127.0.0.1:{h.port}", "Ann", token="tok-9").start()
    try:
        assert c.wait_for(lambda m: m["t"] == "snapshot", timeout=5) is not None
        assert c.status.state == CONNECTED and len(h.hellos) == 2
        assert all(x["token"] == "tok-9" for x in h.hellos)
    finally:
        c.close()
        h.close()
    # A newcomer (no token) turned away tries again for its connect_timeout, then is told.
    h = FakeHost(lambda hello: {"t": "error", "code": "busy", "message": "too many"})
    c = Client(f"127.0.0.1:{h.port}", "Bo", connect_timeout=1.0).start()
    try:
        msg = c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == FAILED)
        assert msg is not None and msg["reason"] == "busy" and msg["message"] == "too many"
        assert len(h.hellos) >= 3  # tried again, with the backoff, before giving up
    finally:
        c.close()
        h.close()
