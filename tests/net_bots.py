"""Test helpers for the net tests: scripted players driving real clients, and table set-up."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.cpu_worker import SyncCpu
from game.table import SeatSpec, Table
from net import protocol as P
from net import secure
from net.client import CONNECTED, Client
from net.codes import Link
from net.host import HostThread


def fast_clock(scale: float = 50.0) -> Callable[[], float]:
    t0 = time.monotonic()
    return lambda: t0 + (time.monotonic() - t0) * scale


def make_table(game: str = "layout", config: dict[str, Any] | None = None, *, seats: int = 4,
               speed: str = "blitz", save: Path | None = None, scale: float = 50.0,
               seed: int = 2024) -> Table:
    if config is None:
        config = {"seats": seats, "layout_size": 3} if game == "layout" else \
            {"rules": "classic", "seats": seats}
    specs = [SeatSpec("person", "Hostess")] + [SeatSpec("cpu", level="easy")
                                                for _ in range(seats - 1)]
    # no turn clock, no pause limit: on a clock 50x fast they would be under a second of real
    # time, and a loaded machine would see stand-ins play for the bots (tests/test_table_clock.py
    # tests the clocks on a fake clock)
    return Table.create(game, config, seed, specs, clock=fast_clock(scale), speed=speed,
                        save_path=save, host_seat=0, cpu=SyncCpu(), fsync=False,
                        turn_clock=None, pause_limit=None)


class Bot:
    """A scripted person: readies when asked, plays the first legal play on its turn."""

    def __init__(self, client: Client, *, auto_play: bool = True) -> None:
        self.c = client
        self.auto_play = auto_play
        self.seat: int | None = None
        self.state_no = -1
        self.view: dict[str, Any] | None = None
        self.to_move: int | None = None
        self.phase = "?"
        self.pause: list[dict[str, Any]] = []
        self.speed = ""
        self.outcome: dict[str, Any] | None = None
        self.seats: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.event_states: list[int] = []
        self.refused: list[dict[str, Any]] = []
        self.plays_sent: list[tuple[int, str]] = []
        self._ready_for: Any = None
        self._played_at = -1
        self._ref = 0
        self._refs: dict[int, int] = {}
        self.snapshots = 0

    @property
    def name(self) -> str:
        return self.c.name

    def step(self) -> None:
        for m in self.c.poll():
            self.log.append(m)
            self._take(m)
        self._act()

    def _take(self, m: dict[str, Any]) -> None:
        t = m["t"]
        if t == "welcome":
            self.seat = m["seat"]
        elif t in ("snapshot", "reset"):
            snap = m if t == "snapshot" else m["snapshot"]
            self.snapshots += 1
            self.seat = snap["seat"]
            self.state_no, self.view, self.phase = snap["state_no"], snap["view"], snap["phase"]
            self.pause, self.speed, self.seats = snap["pause"], snap["speed"], snap["seats"]
            self.outcome = snap["outcome"]
            self.to_move = snap["to_move"]
            self._ready_for = None
            self._played_at = -1  # a fresh start (rejoin): nothing of ours is in flight
        elif t in ("play", "start"):
            self.event_states.append(m["state_no"])
            self.state_no, self.view = m["state_no"], m["view"]
            self.to_move = m["to_move"]
            if t == "play":
                self.outcome = m["outcome"]
        elif t == "table":
            self.state_no, self.phase = m["state_no"], m["phase"]
            self.to_move, self.outcome = m["to_move"], m["outcome"]
            self.pause, self.speed, self.seats = m["pause"], m["speed"], m["seats"]
        elif t == "refused":
            self.refused.append(m)
            ref = m.get("ref")
            if m.get("of") == "play" and ref is not None:
                # One of our own plays was refused: it never happened.
                self.plays_sent = [p for p in self.plays_sent if self._refs.get(id(p)) != ref]
                if ref == self._ref:
                    self._played_at = -1  # try again when allowed

    def must_ready(self) -> bool:
        for r in self.pause:
            if r["reason"] in ("ready", "joining") and self.seat in r.get("seats", ()):
                return True
        return False

    def _act(self) -> None:
        if self.c.status.state != CONNECTED:
            return
        if self.must_ready():
            key = (self.state_no, repr(self.pause))
            if self._ready_for != key and self.c.ready():
                self._ready_for = key
            return
        if (self.auto_play and self.phase == "playing" and not self.pause
                and self.to_move == self.seat and self.view is not None
                and self._played_at != self.state_no and self.outcome is None):
            legal = self.legal()
            self._ref += 1
            if legal and self.c.play(legal[0], self.state_no, self._ref):
                self._played_at = self.state_no
                entry = (self.state_no, legal[0])
                self.plays_sent.append(entry)
                self._refs[id(entry)] = self._ref

    def legal(self) -> list[str]:
        assert self.view is not None
        if "legal" in self.view:
            return list(self.view["legal"])
        from game.table import rules_for

        rules = rules_for(self.view.get("game", "track"))
        st = rules.determinize(self.view, 1)
        return [str(p) for p in rules.legal_plays(st)]


def run_until(bots: Iterable[Bot], pred: Callable[[], bool], timeout: float = 30.0,
              what: str = "condition") -> None:
    bots = list(bots)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for b in bots:
            b.step()
        try:
            if pred():
                return
        except (IndexError, KeyError):
            pass  # a bot whose snapshot has not come yet (its seats are still []): not yet
        time.sleep(0.002)
    states = [(b.name, b.c.status.state, b.state_no, b.phase, b.pause) for b in bots]
    raise AssertionError(f"timed out waiting for {what}: {states}")


def join(link: Link | str, name: str, token: str | None = None, **kw: Any) -> Bot:
    return Bot(Client(link, name, token, **kw).start())


def host_bot(ht: HostThread, name: str = "Hostess") -> Bot:
    return Bot(Client(ht.local_link, name, token=ht.host_token).start())


@dataclass
class _Status:
    state: str


class RawConn:
    """A hand-made connection (no net.client): speaks frames over a plain socket.

    ``welcomed`` once the host's welcome came; ``token`` is then the seat's secret.
    ``stop_reading()`` makes it a slow reader (nothing more is read from the socket)."""

    def __init__(self, port: int, name: str, code: str | None, token: str | None = None,
                 rcvbuf: int | None = None, *, host: str = "127.0.0.1",
                 watch: bool = False) -> None:
        self.name = name
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect((host, port))
        self.lock = threading.Lock()
        self.q: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self.alive = True
        self.welcomed = False
        self.token = secure.split_credential(token)[1] if token else None
        self.raw_bytes = bytearray()
        self._reading = threading.Event()
        self._reading.set()
        self.key = b""
        self.host_key: str | None = None
        self.handshake: list[dict[str, Any]] = []  # the host's challenge (or error)
        mine = secure.KeyPair()
        hello = {"t": "hello", "v": P.VERSION, "name": name, "code": code, "dh": mine.public}
        if watch:
            hello["watch"] = True
        self.send(hello)
        try:
            ch = P.recv_msg(self.sock)
        except (OSError, P.ProtocolError):
            ch = {"t": "error", "code": "closed", "message": "closed during the handshake"}
        self.handshake.append(ch)
        if ch.get("t") == "challenge":
            self.host_key = secure.fingerprint(ch["key"])
            self.key = secure.session_key(mine.shared(ch["key"]), ch["key"], mine.public,
                                          ch["nonce"])
            assert ch["mac"] == secure.host_proof(self.key)
            proof = secure.seat_proof(self.token, self.key) if self.token else None
            with contextlib.suppress(OSError):
                self.send({"t": "proof", "proof": proof})
        else:
            self.raw_bytes += P.pack(ch)
            self.q.put(ch)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        dec = P.FrameDecoder()
        self.sock.settimeout(None)
        try:
            while True:
                self._reading.wait()
                data = self.sock.recv(65536)
                if not data:
                    break
                self.raw_bytes += data
                for m in dec.feed(data):
                    if m.get("t") == "welcome":
                        self.token = secure.unseal(m["token"], self.key)
                        self.welcomed = True
                    self.q.put(m)
        except OSError:
            pass
        self.alive = False

    def stop_reading(self) -> None:
        self._reading.clear()

    def frames(self) -> list[dict[str, Any]]:
        """Every frame received so far (from the raw bytes; ``poll`` is not affected)."""
        return list(P.FrameDecoder().feed(bytes(self.raw_bytes)))

    @property
    def status(self) -> _Status:
        return _Status(CONNECTED if self.alive else "dropped")

    def poll(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(self.q.get_nowait())
            except queue.Empty:
                return out

    def send_raw(self, data: bytes) -> None:
        with self.lock:
            self.sock.sendall(data)

    def send(self, msg: dict[str, Any]) -> bool:
        self.send_raw(P.pack(msg))
        return True

    def ready(self) -> bool:
        return self.send({"t": "ready", "ready": True})

    def play(self, token: str, state_no: int, ref: int | None = None) -> bool:
        return self.send({"t": "play", "play": token, "state_no": state_no, "ref": ref or 0})

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self._reading.set()
