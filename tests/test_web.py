"""The host's web server for phones: files, the QR code, and the WebSocket into the table.

The WebSocket is driven by :class:`WsConn`, a tiny hand-made RFC 6455 client over a plain
loopback socket (so the raw frames a phone receives are checked byte for byte), with the same
interface as ``tests.net_bots.RawConn`` so the scripted :class:`Bot` plays through it.
"""

from __future__ import annotations

import base64
import collections
import contextlib
import json
import os
import queue
import socket
import struct
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from game.table import Table
from net import protocol as P
from net import secure
from net.client import CONNECTED
from net.host import HostThread, Limits
from net.web import WebConfig, json_to_frame, qr_matrix, qr_png, to_json
from tests.net_bots import Bot, _Status, host_bot, make_table, run_until


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        got = sock.recv(n - len(out))
        if not got:
            raise ConnectionError("closed")
        out += got
    return out


class WsConn:
    """A phone without a browser: a WebSocket client speaking the JSON messages.

    ``texts`` keeps every text frame the host sent (the raw frames, for the privacy checks).
    """

    def __init__(self, port: int, name: str, code: str | None, token: str | None = None,
                 fp: str | None = None, handshake: bool = True) -> None:
        self.name = name
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += _recv_exact(self.sock, 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.lock = threading.Lock()
        self.q: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self.texts: list[str] = []
        self.times: list[float] = []  # when each text frame came (time.monotonic)
        self.alive = True
        self.closed_code: int | None = None
        self.token = token
        self.key = b""
        self.welcomed = False
        self.handshake: list[dict[str, Any]] = []
        if handshake:
            self._handshake(code, fp)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _handshake(self, code: str | None, fp: str | None) -> None:
        mine = secure.KeyPair()
        self.send({"t": "hello", "v": P.VERSION, "name": self.name, "code": code,
                   "dh": mine.public.hex()})
        ch = self.recv()
        self.handshake.append(ch)
        if ch.get("t") != "challenge":
            self.q.put(ch)
            return
        pub = bytes.fromhex(ch["key"])
        assert fp is None or secure.fingerprint(pub) == fp
        self.key = secure.session_key(mine.shared(pub), pub, mine.public,
                                      bytes.fromhex(ch["nonce"]))
        assert bytes.fromhex(ch["mac"]) == secure.host_proof(self.key)
        proof = secure.seat_proof(self.token, self.key).hex() if self.token else None
        self.send({"t": "proof", "proof": proof})

    # --- the WebSocket framing (client frames are masked) -------------------------------------

    def send_frame(self, payload: bytes, opcode: int = 1) -> None:
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        with self.lock:
            self.sock.sendall(head + mask + body)

    def _frame(self) -> tuple[int, bytes]:
        b0, b1 = _recv_exact(self.sock, 2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack(">H", _recv_exact(self.sock, 2))
        elif n == 127:
            (n,) = struct.unpack(">Q", _recv_exact(self.sock, 8))
        return b0 & 0x0F, _recv_exact(self.sock, n)

    def recv(self) -> dict[str, Any]:
        while True:
            op, data = self._frame()
            if op == 1:
                text = data.decode()
                self.times.append(time.monotonic())
                self.texts.append(text)
                msg: dict[str, Any] = json.loads(text)
                if msg.get("t") == "welcome":
                    self.token = secure.unseal(msg["token"], self.key)
                    self.welcomed = True
                return msg
            if op == 8:
                self.closed_code = struct.unpack(">H", data[:2])[0] if len(data) >= 2 else 0
                raise ConnectionError("closed by the host")
            if op == 9:
                self.send_frame(data, 10)

    def _read(self) -> None:
        self.sock.settimeout(None)
        with contextlib.suppress(OSError, ConnectionError, ValueError):
            while True:
                self.q.put(self.recv())
        self.alive = False

    # --- what Bot needs (as RawConn) ------------------------------------------------------------

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

    def send(self, msg: Any) -> bool:
        """Like the real client's: False (nothing sent) once the connection is gone."""
        try:
            self.send_frame(json.dumps(msg).encode())
        except OSError:  # closed (a dropped phone) or cut by the host
            self.alive = False
            return False
        return True

    def ready(self) -> bool:
        return self.send({"t": "ready", "ready": True})

    def play(self, token: str, state_no: int, ref: int | None = None) -> bool:
        return self.send({"t": "play", "play": token, "state_no": state_no, "ref": ref or 0})

    def frames(self) -> list[dict[str, Any]]:
        return [json.loads(t) for t in self.texts]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class PhoneBot(Bot):
    """A Bot that plays from the phone's ``legal_words`` (what the page offers)."""

    def _take(self, m: dict[str, Any]) -> None:
        super()._take(m)
        if "legal_words" in m:
            self.words = m["legal_words"]

    def legal(self) -> list[str]:
        words = getattr(self, "words", None)
        if words:
            return [tok for tok, _w in words]
        return super().legal()


def web_host(table: Table, **kw: Any) -> HostThread:
    from game.client.describe import describe_token

    return HostThread(table, bind="127.0.0.1", port=0, discovery=None, tick_interval=0.005,
                      web=WebConfig(port=0, describe=describe_token), **kw).start()


@pytest.fixture
def lan() -> Iterator[tuple[Table, HostThread]]:
    table = make_table("track", {"rules": "classic", "seats": 4}, scale=100, seed=77)
    ht = web_host(table)
    yield table, ht
    ht.stop()
    table.close()


def web_port(ht: HostThread) -> int:
    assert ht.host is not None and ht.host.web is not None
    return int(ht.host.web.port)


# --- pure helpers ------------------------------------------------------------------------------


def test_json_becomes_the_wire_frame_with_binary_fields_from_hex() -> None:
    dh = bytes(range(256))
    frame = json_to_frame(json.dumps({"t": "hello", "v": 2, "name": "Pia", "dh": dh.hex()}))
    (n,) = P.HEADER.unpack(frame[:4])
    assert n == len(frame) - 4
    assert P.validate_client(P.unpack_body(frame[4:]))["dh"] == dh
    # Not JSON: a body the host's decoder refuses (so it is a bad_message, counted as one).
    with pytest.raises(P.ProtocolError):
        P.unpack_body(json_to_frame("{not json")[4:])
    # Only the known binary fields turn into bytes; a play token that looks like hex stays text.
    msg = P.unpack_body(json_to_frame('{"t":"play","play":"abcd","state_no":1}')[4:])
    assert msg["play"] == "abcd"
    # Too big: the true length is kept, so the host refuses it before reading the body.
    big = json_to_frame(json.dumps({"t": "ping", "x": "a" * (P.MAX_FRAME + 10)}))
    assert P.HEADER.unpack(big[:4])[0] > P.MAX_FRAME
    assert to_json({"t": "challenge", "key": b"\x01\xff"}) == '{"t":"challenge","key":"01ff"}'


def test_qr_code_has_its_three_finder_patterns() -> None:
    url = "http://192.168.1.20:47801/#0123456789abcdef0123/KQXF"
    m = qr_matrix(url)
    n = len(m)
    assert n >= 25 and (n - 17) % 4 == 0 and all(len(r) == n for r in m)  # version 2+: 4v+17
    for r0, c0 in ((0, 0), (0, n - 7), (n - 7, 0)):  # a 7x7 dark ring around a 3x3 dark core
        ring = [m[r0 + i][c0 + j] for i in range(7) for j in range(7)
                if i in (0, 6) or j in (0, 6)]
        gap = [m[r0 + i][c0 + j] for i in range(1, 6) for j in range(1, 6)
               if i in (1, 5) or j in (1, 5)]
        core = [m[r0 + i][c0 + j] for i in range(2, 5) for j in range(2, 5)]
        assert all(ring) and not any(gap) and all(core)
    png = qr_png(url, 200)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


# --- over the loopback --------------------------------------------------------------------------


def test_the_page_its_files_and_the_qr_code_are_served(lan: tuple[Table, HostThread]) -> None:
    _table, ht = lan
    port = web_port(ht)
    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(base + "/", timeout=5) as r:
        page = r.read().decode()
        assert r.headers["Content-Type"].startswith("text/html")
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    assert 'src="app.js"' in page
    for name in ("app.js", "crypto.js", "board.js", "style.css"):
        with urllib.request.urlopen(f"{base}/{name}", timeout=5) as r:
            assert r.status == 200 and len(r.read()) > 500
    with urllib.request.urlopen(base + "/qr.svg", timeout=5) as r:
        svg = r.read().decode()
    assert svg.lstrip().startswith("<svg") and "path" in svg
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(base + "/../net/host.py", timeout=5)
    assert e.value.code == 404
    assert ht.host is not None and ht.host.web is not None
    url = ht.host.web.url
    assert ht.web_url == url
    assert url.endswith(f":{port}/#{ht.fingerprint}/{ht.code}") and url.startswith("http://")


def test_a_phone_joins_sits_and_plays_a_whole_game_with_words(
        lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    port = web_port(ht)
    hb = host_bot(ht)
    phone = PhoneBot(WsConn(port, "Pia", ht.code, fp=ht.fingerprint))  # type: ignore[arg-type]
    bots = [hb, phone]
    try:
        run_until(bots, lambda: phone.seat is not None and hb.seat == 0, what="seated")
        assert phone.seat == 1  # the first seat held by a CPU
        phone.c.send({"t": "sit", "seat": 3})
        run_until(bots, lambda: phone.seat == 3, what="moved to seat 3")
        hb.c.send({"t": "start"})
        run_until(bots, lambda: phone.phase == "playing", what="started")
        run_until(bots, lambda: hb.outcome is not None and phone.outcome is not None,
                  timeout=60, what="game over")
        assert table.phase == "over" and phone.outcome == table.outcome()
        mine = [p for s, p in table.log if s == 3]
        assert mine and mine == [p for _n, p in phone.plays_sent]
        conn: WsConn = phone.c  # type: ignore[assignment]
        words = [m["legal_words"] for m in conn.frames() if "legal_words" in m]
        assert words and all(w and w[0] and w[1] for ws in words for w in ws)
        # the desktop moves list's words, e.g. "Queen: a Green peg comes out"
        flat = [w for ws in words for _t, w in ws]
        assert any("Green" in w for w in flat) and not any(w == t for ws in words for t, w in ws)
    finally:
        phone.c.close()
        hb.c.close()


def test_no_phone_ever_receives_another_seats_hand(lan: tuple[Table, HostThread]) -> None:
    """tests/test_net_host.py's privacy check, on the phone's raw WebSocket frames."""
    from tests.test_net_host import _hands_over_time, _walk

    table, ht = lan
    port = web_port(ht)
    hb = host_bot(ht)
    phones = [PhoneBot(WsConn(port, n, ht.code)) for n in ("Ann", "Bob")]  # type: ignore[arg-type]
    bots: list[Bot] = [hb, *phones]
    try:
        run_until(bots, lambda: all(b.seat is not None for b in bots), what="seated")
        run_until(bots, lambda: sum(s["kind"] == "person" for s in hb.seats) == 3)
        hb.c.send({"t": "start"})
        run_until(bots, lambda: all(b.outcome is not None for b in bots), timeout=60,
                  what="game over")
        hands = _hands_over_time(table)
        for b in phones:
            conn: WsConn = b.c  # type: ignore[assignment]
            data = "\n".join(conn.texts)
            me = b.seat
            assert me is not None
            own = {state[me] for state in hands if len(state[me]) >= 3}
            others = {state[s] for state in hands for s in range(4)
                      if s != me and len(state[s]) >= 3} - own
            assert own and others
            seen_own = sum(json.dumps(list(h), separators=(",", ":")) in data for h in own)
            assert seen_own >= len(own) // 2, (seen_own, len(own))
            leaked = [h for h in others if json.dumps(list(h), separators=(",", ":")) in data]
            assert not leaked, f"seat {me} received other hands: {leaked[:3]}"
            for f in conn.frames():
                for h in _walk(f, "hand"):
                    if isinstance(h, list) and len(h) >= 3:  # a hand of cards: only ever its own
                        assert any(tuple(h) == st[me] for st in hands) \
                            or set(h) <= set(hands[0][me]), (me, h)
                    else:
                        assert h is None or isinstance(h, int | list)
                for v in _walk(f, "view"):
                    assert isinstance(v, dict) and v.get("seat") == me
    finally:
        for b in bots:
            b.c.close()


def test_a_dropped_phone_comes_back_to_its_seat(lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    port = web_port(ht)
    hb = host_bot(ht)
    phone = PhoneBot(WsConn(port, "Pia", ht.code))  # type: ignore[arg-type]
    bots = [hb, phone]
    try:
        run_until(bots, lambda: phone.seat is not None, what="seated")
        seat, secret = phone.seat, phone.c.token  # type: ignore[attr-defined]
        assert secret and len(secret) > 10
        # the secret never crossed the wire in the clear
        assert all(secret not in t for t in phone.c.texts)  # type: ignore[attr-defined]
        phone.c.close()
        run_until(bots, lambda: not any(s["connected"] for s in hb.seats if s["seat"] == seat),
                  what="seen gone")
        back = PhoneBot(WsConn(port, "Pia", ht.code, token=secret))  # type: ignore[arg-type]
        bots = [hb, back]  # type: ignore[list-item]
        run_until(bots, lambda: back.seat == seat and any(
            s["connected"] for s in hb.seats if s["seat"] == seat), what="back in the seat")
        assert seat is not None and table.seat_info(seat)["kind"] == "person"
        back.c.close()
    finally:
        hb.c.close()


def test_a_proof_for_no_seat_is_bad_token_and_closes(lan: tuple[Table, HostThread]) -> None:
    _table, ht = lan
    c = WsConn(web_port(ht), "Eve", ht.code, token="not-a-seat-secret")
    run_until([], lambda: not c.alive, timeout=5, what="closed")
    got = c.poll()
    assert got and got[-1]["t"] == "error" and got[-1]["code"] == "bad_token"
    assert not c.welcomed


def test_hostile_websocket_messages_are_refused_and_change_nothing() -> None:
    """The fuzz test's seated attacker (tests/test_net_fuzz.py), over the WebSocket."""
    table = make_table("layout", {"seats": 4, "layout_size": 4}, scale=15)
    limits = Limits(rate=5000, burst=10000, max_bad=10**6)
    ht = web_host(table, limits=limits)
    try:
        port = web_port(ht)
        hb = host_bot(ht)
        mal = Bot(WsConn(port, "Mallory", ht.code))  # type: ignore[arg-type]
        bots = [hb, mal]
        # both seated, as the host sees it (a start sent before the host's own player is
        # connected is not sent at all: start_game() says False)
        run_until(bots, lambda: mal.seat is not None and hb.seat == 0 and
                  sum(s["kind"] == "person" for s in hb.seats) == 2, what="seated")
        assert hb.c.start_game()
        run_until(bots, lambda: mal.phase == "playing", what="started")
        seats_before = [(s["kind"], s["level"]) for s in hb.seats]
        conn: WsConn = mal.c  # type: ignore[assignment]
        hostile: list[Any] = [
            {"t": "play", "play": "W77", "state_no": table.state_no},
            {"t": "play", "play": "S", "state_no": 10**9},
            {"t": "speed", "name": "warp"}, {"t": "set_cpu", "seat": 3, "level": "nasty"},
            {"t": "start"}, {"t": "hand_to_cpu", "seat": 0, "level": "easy"},
            {"t": "ready", "ready": False}, {"t": "hello", "v": 2, "name": "Again"},
            {"t": "teleport", "x": 1}, [1, 2, 3], {"t": "play", "play": 5, "state_no": "x"},
            {"t": "sit", "seat": 2**40}, {"t": "ping", "n": -1}, {"t": "ping", "n": 1.0},
            {"t": "ping", "n": True}, {"t": "proof", "proof": "zz"}, None, "text", 2**70,
        ]
        sent = 0
        for i in range(60):
            for msg in hostile:
                conn.send(msg)
                sent += 1
            conn.send_frame(b"{not json")
            conn.send_frame(b"\x93\x01\x02\x03", opcode=2)  # a binary frame
            sent += 2
            if i % 10 == 0:
                run_until(bots, lambda: True)
        refusals = lambda: [r for r in mal.refused if r.get("ref") is None]  # noqa: E731
        run_until(bots, lambda: len(refusals()) >= sent, timeout=30, what="all refusals")
        assert len(refusals()) == sent  # exactly one refusal per hostile message
        tally = collections.Counter(r["code"] for r in refusals())
        assert {"bad_message", "not_host", "not_allowed"} <= set(tally), tally
        assert conn.alive
        run_until(bots, lambda: all(b.outcome is not None for b in bots), timeout=60,
                  what="game over")
        assert [(s["kind"], s["level"]) for s in hb.seats] == seats_before
        assert table.speed.name == "blitz"
        replayed = table.rules.replay(table.config, table.seed, table.log)
        assert table.rules.outcome(replayed) == table.outcome()
        for b in bots:
            b.c.close()
    finally:
        ht.stop()
        table.close()


def test_websocket_limits_are_the_tcp_limits() -> None:
    """Too large, too many bad bodies, floods, a slow hello: the same errors as over TCP."""
    table = make_table("layout")
    ht = web_host(table, limits=Limits(rate=40, burst=80, flood_debt=200, max_bad=5,
                                       hello_timeout=1.0))
    try:
        port = web_port(ht)
        hb = host_bot(ht)
        run_until([hb], lambda: hb.seat is not None)

        def last_error(c: WsConn) -> dict[str, Any]:
            run_until([], lambda: not c.alive, timeout=8, what="closed")
            got = [m for m in c.poll() if m["t"] == "error"]
            assert got, c.texts
            return got[-1]

        big = WsConn(port, "Big", ht.code)
        big.send({"t": "ping", "n": 1, "pad": "x" * (P.MAX_FRAME + 100)})
        assert last_error(big)["code"] == "too_large"

        bad = WsConn(port, "Bad", ht.code)
        for _ in range(6):  # the sixth bad body is one too many (max_bad=5): closed with an
            bad.send_frame(b"[1,2")  # error; nothing more is sent, so no reset can overtake it
        assert last_error(bad)["code"] == "bad_message"

        flood = WsConn(port, "Flood", ht.code)
        for _ in range(600):
            try:
                flood.send({"t": "ping", "n": 1})
            except OSError:  # the host cut the flood before all 600 went: what is tested
                break
        # the host warns (refused: flood), then cuts the connection; its last error frame may be
        # lost to the reset when the flood is still arriving as it closes (TCP drops what the
        # closing side had not read, and an RST can overtake the frame): the cut is what counts
        run_until([], lambda: not flood.alive, timeout=8, what="the flood cut")
        errors = [m for m in flood.poll() if m["t"] == "error"]
        assert all(e["code"] == "flood" for e in errors)
        assert any(json.loads(t).get("code") == "flood" and json.loads(t)["t"] == "refused"
                   for t in flood.texts)

        slow = WsConn(port, "Slow", ht.code, handshake=False)
        t0 = time.monotonic()
        assert last_error(slow)["code"] == "hello_timeout"
        assert time.monotonic() - t0 < 3
        first = WsConn(port, "First", ht.code, handshake=False)
        first.send({"t": "ready"})
        assert last_error(first)["code"] == "hello_first"
        # the host's own TCP seat was never disturbed
        assert hb.c.status.state == CONNECTED
        hb.c.close()
    finally:
        ht.stop()
        table.close()
