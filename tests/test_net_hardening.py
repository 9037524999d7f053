"""The transport's limits against hostile or broken peers: deadlines on every read and write,
per-address limits on handshaking sockets, the admin's outbox (issue 15, the network parts)."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from game.cpu_worker import SyncCpu
from game.table import SeatSpec, Table
from net import protocol as P
from net import secure
from net.client import CONNECTED, Client
from net.discovery import DiscoveryResponder, discover_all
from net.host import HostThread, Limits
from tests.net_bots import Bot, RawConn, fast_clock, host_bot, join, make_table, run_until


@pytest.fixture
def lan() -> Iterator[tuple[Table, HostThread]]:
    table = make_table("layout", {"seats": 4, "layout_size": 3})
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None).start()
    yield table, ht
    ht.stop()
    table.close()


def _seat_named(table: Table, name: str) -> int:
    return next(i for i in range(table.seat_count) if table.seat_info(i)["name"] == name)


def _wait(pred: object, timeout: float) -> float:
    """Seconds until ``pred()`` holds (AssertionError after ``timeout``)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if pred():  # type: ignore[operator]
            return time.monotonic() - t0
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout} s")


def _errors(r: RawConn) -> list[dict[str, object]]:
    return [m for m in P.FrameDecoder().feed(bytes(r.raw_bytes)) if m["t"] == "error"]


# --- 1. every read and write has a deadline ------------------------------------------------


def test_a_connection_that_stops_mid_frame_is_closed_and_its_seat_dropped(
        lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    r = RawConn(ht.port, "Stella", ht.code)
    _wait(lambda: r.welcomed, 5)
    seat = _seat_named(table, "Stella")
    assert table.seat_info(seat)["connected"]
    t0 = time.monotonic()
    r.send_raw(P.HEADER.pack(100) + b"\x82\xa1t")  # promises 100 bytes, sends 3, then nothing
    r.thread.join(10)
    took = time.monotonic() - t0
    assert not r.alive
    assert 2.5 < took < 5.5  # the default frame deadline is 3 s (plus the 1 s error drain)
    assert _errors(r)[-1]["code"] == "stalled"
    _wait(lambda: not ht.call(lambda h: table.seat_info(seat)["connected"]), 2)
    assert ht.host is not None and ht.host.stats["stalled"] == 1


def test_a_trickle_of_one_byte_every_two_seconds_is_closed(
        lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    r = RawConn(ht.port, "Trixie", ht.code)
    _wait(lambda: r.welcomed, 5)
    seat = _seat_named(table, "Trixie")
    frame = P.pack({"t": "ping", "n": 7})
    t0 = time.monotonic()
    with contextlib.suppress(OSError):
        for b in frame:  # each byte is "activity", but the frame never finishes in time
            r.send_raw(bytes([b]))
            if not r.alive:
                break
            time.sleep(2.0)
    r.thread.join(10)
    assert not r.alive and time.monotonic() - t0 < 6.5
    assert _errors(r)[-1]["code"] == "stalled"
    _wait(lambda: not ht.call(lambda h: table.seat_info(seat)["connected"]), 2)


def test_a_slow_reader_is_cut_and_rejoins_with_a_fresh_snapshot() -> None:
    table = make_table("layout")
    # A generous rate so that one connection can ask for a lot of output quickly.
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None,
                    limits=Limits(rate=1e6, burst=1e6)).start()
    try:
        lazy = RawConn(ht.port, "Lazy", ht.code, rcvbuf=4096)
        _wait(lambda: lazy.welcomed, 5)
        seat = _seat_named(table, "Lazy")
        lazy.stop_reading()
        hello_again = P.pack({"t": "hello", "v": P.VERSION, "name": "Again"})
        with contextlib.suppress(OSError):  # each one is refused (~100 bytes) and never read
            for _ in range(12):
                lazy.send_raw(hello_again * 1000)
        assert ht.host is not None
        _wait(lambda: ht.host is not None and ht.host.stats["slow_cut"] == 1, 10)
        _wait(lambda: not ht.call(lambda h: table.seat_info(seat)["connected"]), 2)
        # Its person comes back with the seat's secret: a fresh snapshot, the seat connected.
        back = join(f"127.0.0.1:{ht.port}", "Lazy", token=lazy.token)
        run_until([back], lambda: back.snapshots == 1 and back.seat == seat, what="rejoin")
        assert ht.call(lambda h: table.seat_info(seat)["connected"])
        back.c.close()
        lazy.close()
    finally:
        ht.stop()
        table.close()


# --- 2. a real player always gets in ------------------------------------------------------


class IdleCrowd:
    """``n`` sockets that connect and say nothing, spread over ``sources``; each one the host
    closes is opened again at once, for as long as the crowd runs."""

    def __init__(self, port: int, n: int, sources: list[str]) -> None:
        self.port, self.n, self.sources = port, n, sources
        self.socks: list[socket.socket] = []
        self.opened = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, i: int) -> socket.socket:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((self.sources[i % len(self.sources)], 0))
        s.connect(("127.0.0.1", self.port))
        self.opened += 1
        return s

    def start(self) -> IdleCrowd:
        self.socks = [self._open(i) for i in range(self.n)]
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self.stop.is_set():
            ready, _, _ = select.select(self.socks, [], [], 0.05)
            for s in ready:
                with contextlib.suppress(OSError):
                    if s.recv(4096):
                        continue  # the host's error frame; the close follows
                i = self.socks.index(s)
                s.close()
                with contextlib.suppress(OSError):
                    self.socks[i] = self._open(i)
            time.sleep(0.001)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for s in self.socks:
            s.close()


@pytest.mark.parametrize("sources", [["127.0.0.1"], [f"127.0.0.{i}" for i in range(2, 10)]],
                         ids=["one address", "eight addresses"])
def test_a_hundred_idle_sockets_never_keep_a_person_out(sources: list[str]) -> None:
    table = make_table("layout")
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None).start()
    crowd: IdleCrowd | None = None
    bots: list[Bot] = []
    try:
        hb = host_bot(ht)
        ann = join(f"127.0.0.1:{ht.port}", "Ann")
        bots = [hb, ann]
        run_until(bots, lambda: ann.seat is not None and hb.seat == 0, what="seated")
        ann_token, ann_seat = ann.c.token, ann.seat
        ann.c.close()  # Ann's program closes; she comes back below with her seat's secret
        crowd = IdleCrowd(ht.port, 100, sources).start()
        time.sleep(0.5)  # the crowd is in place and churning
        # A newcomer in the lobby, and Ann with her seat token: both in within 2 s.
        t0 = time.monotonic()
        bea = join(f"127.0.0.1:{ht.port}", "Bea")
        ann2 = join(f"127.0.0.1:{ht.port}", "Ann", token=ann_token)
        bots = [hb, bea, ann2]
        run_until(bots, lambda: bea.c.status.state == CONNECTED and bea.snapshots == 1
                  and ann2.c.status.state == CONNECTED and ann2.snapshots == 1,
                  timeout=2.0, what="both joined within 2 s")
        assert time.monotonic() - t0 < 2.0
        assert ann2.seat == ann_seat and bea.seat not in (None, 0, ann_seat)
        assert crowd.opened > 100  # the crowd did reopen what the host closed
        assert ht.host is not None and ht.host.stats["evicted"] > 0
        # The host's own player was never disturbed.
        assert hb.c.status.state == CONNECTED and hb.c.connects == 1
    finally:
        if crowd is not None:
            crowd.close()
        for b in bots:
            b.c.close()
        ht.stop()
        table.close()


def test_a_flood_of_hellos_costs_the_host_little_and_the_game_goes_on() -> None:
    """Each hello costs the host a key exchange: past 10 a second per address they are turned
    away before it, so a flood cannot starve the table."""
    table = make_table("layout")
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None).start()
    stop = threading.Event()
    hello = P.pack({"t": "hello", "v": P.VERSION, "name": "Eve", "code": ht.code,
                    "dh": secure.KeyPair().public})
    sent = [0]

    def flood() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError), socket.socket() as s:
                s.bind(("127.0.0.2", 0))
                s.connect(("127.0.0.1", ht.port))
                s.sendall(hello)
                s.settimeout(2)
                s.recv(1024)  # the challenge, or busy: then the next one
                sent[0] += 1

    flooders = [threading.Thread(target=flood, daemon=True) for _ in range(3)]
    try:
        hb = host_bot(ht)
        run_until([hb], lambda: hb.seat == 0, what="host player in")
        t0 = time.monotonic()
        for f in flooders:
            f.start()
        for name in ("brisk", "blitz", "normal", "blitz"):  # round trips during the flood
            assert hb.c.set_speed(name)
            run_until([hb], lambda n=name: hb.speed == n, timeout=2, what=f"speed {name}")
        ann = join(f"127.0.0.1:{ht.port}", "Ann")  # another address than the flood's
        run_until([hb, ann], lambda: ann.snapshots == 1, timeout=2, what="Ann in")
        time.sleep(max(0.0, 1.5 - (time.monotonic() - t0)))
        took = time.monotonic() - t0
        stop.set()
        for f in flooders:
            f.join(5)
        assert ht.host is not None
        stats = ht.host.stats
        assert sent[0] > 100 and stats["hello_busy"] > 50, repr(stats)
        # the burst (20) plus 10 a second for the flood's address, and Ann's and Hostess's
        assert stats["key_exchanges"] <= 20 + 10 * (took + 1) + 2
        hb.c.close()
        ann.c.close()
    finally:
        stop.set()
        ht.stop()
        table.close()


# --- 5. the admin's outbox ------------------------------------------------------------------


def test_an_admin_rejoining_gets_welcome_first_not_stale_frames() -> None:
    specs = [SeatSpec("cpu", level="easy") for _ in range(4)]
    table = Table.create("layout", {"seats": 4, "layout_size": 3}, 5, specs,
                         clock=fast_clock(50), speed="blitz", host_seat=None, cpu=SyncCpu())
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None,
                    tick_interval=0.005).start()
    try:
        admin_token = ht.host_token
        a1 = RawConn(ht.port, "Admin", ht.code, token=admin_token)
        _wait(lambda: a1.welcomed, 5)
        a1.send({"t": "start"})
        _wait(lambda: ht.call(lambda h: table.state_no) >= 5, 10)
        a1.close()
        at_close = ht.call(lambda h: table.state_no)
        _wait(lambda: ht.call(lambda h: table.state_no) >= at_close + 30, 20)
        a2 = RawConn(ht.port, "Admin", ht.code, token=admin_token)
        _wait(lambda: a2.welcomed and len(a2.frames()) >= 2, 5)
        first = a2.frames()[:2]
        assert [m["t"] for m in first] == ["welcome", "snapshot"]
        assert first[1]["state_no"] >= at_close + 30  # caught up by the snapshot alone
        a2.close()
    finally:
        ht.stop()
        table.close()


# --- 3. a seat's secret never crosses the wire, and is never given to a stranger ------------


class Tap:
    """A relay on loopback that records every byte both ways (a sniffer on the LAN)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.lsock = socket.create_server(("127.0.0.1", 0))
        self.port = self.lsock.getsockname()[1]
        self.up = bytearray()  # client -> host
        self.down = bytearray()  # host -> client
        self.sessions: list[bytes] = []  # each connection's client -> host bytes
        self.stop = threading.Event()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.lsock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                a, _ = self.lsock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            b = socket.create_connection(("127.0.0.1", self.target))
            self.pairs.append((a, b))
            threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        mine = bytearray()
        socks = [a, b]
        try:
            while not self.stop.is_set():
                ready, _, _ = select.select(socks, [], [], 0.1)
                for s in ready:
                    data = s.recv(65536)
                    if not data:
                        return
                    if s is a:
                        self.up += data
                        mine += data
                        b.sendall(data)
                    else:
                        self.down += data
                        a.sendall(data)
        except OSError:
            pass
        finally:
            self.sessions.append(bytes(mine))
            for s in socks:
                s.close()

    def cut(self) -> None:
        for a, b in self.pairs:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.stop.set()
        self.lsock.close()
        self.cut()


def _forms(secret: str) -> list[bytes]:
    import base64

    raw = secret.encode()
    return [raw, raw.hex().encode(), base64.b64encode(raw), base64.urlsafe_b64encode(raw),
            raw[:8]]


def test_a_sniffer_of_a_join_and_a_rejoin_finds_no_secret_and_cannot_rejoin(
        lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    tap = Tap(ht.port)
    try:
        ann = join(f"127.0.0.1:{tap.port}", "Ann")
        run_until([ann], lambda: ann.snapshots == 1, what="join through the tap")
        seat = ann.seat
        assert seat is not None
        secret = ht.call(lambda h: table.token(seat))
        assert ann.c.token == secret  # the client holds it...
        tap.cut()  # ...and rejoins through the tap
        run_until([ann], lambda: ann.snapshots == 2 and ann.c.status.state == CONNECTED,
                  what="rejoin through the tap")
        ann.c.close()
        # every connection through the tap has ended and been noted: the join and the rejoin
        # (a busy machine may make the client try a connection again: each is one more)
        try:
            _wait(lambda: len(tap.sessions) == len(tap.pairs) >= 2, 15)
        except AssertionError as e:
            raise AssertionError(f"{e}: {len(tap.pairs)} connections through the tap, "
                                 f"{len(tap.sessions)} ended") from None
        seen = bytes(tap.up) + bytes(tap.down)
        for form in _forms(secret) + _forms(ht.host_token):
            assert form not in seen  # in no form, in neither direction
        # Replaying what the client sent: the rejoin's proof answered another challenge, so it
        # fails; the first join's bytes are a newcomer's (no proof) and get at most a fresh
        # seat, never Ann's. A sealed secret seen in a welcome is worth nothing as a token.
        proofs = 0
        for recorded in tap.sessions:
            sent = P.FrameDecoder().feed(recorded)
            if len(sent) < 2:  # a try that ended before the client answered the challenge
                continue
            with socket.create_connection(("127.0.0.1", ht.port), timeout=5) as s:
                s.sendall(recorded)
                s.shutdown(socket.SHUT_WR)
                got = []
                dec = P.FrameDecoder()
                while data := s.recv(65536):
                    got += dec.feed(data)
            assert got[0]["t"] == "challenge"
            if sent[1]["proof"] is not None:
                proofs += 1
                assert [m["t"] for m in got] == ["challenge", "error"]
                assert got[-1]["code"] == "bad_token"
            else:
                assert got[1]["t"] == "welcome" and got[1]["seat"] != seat
        assert proofs >= 1  # the rejoin's (one more for each try again)
        welcomes = [m for m in P.FrameDecoder().feed(bytes(tap.down)) if m.get("t") == "welcome"]
        assert len(welcomes) >= 2 and all(w["token"].startswith("s2.") for w in welcomes)
        thief = RawConn(ht.port, "Mallory", ht.code, token=welcomes[0]["token"])
        _wait(lambda: not thief.alive, 5)
        assert not thief.welcomed and _errors(thief)[-1]["code"] == "bad_token"
        assert ht.call(lambda h: table.seat_info(seat)["name"]) == "Ann"
    finally:
        tap.close()


class Impostor:
    """A fake host on loopback: shows ``show_key`` (anyone's public value: it is public) and
    makes up the rest; records every byte it is sent."""

    def __init__(self, show_key: bytes) -> None:
        self.show_key = show_key
        self.lsock = socket.create_server(("127.0.0.1", 0))
        self.port = self.lsock.getsockname()[1]
        self.got = bytearray()
        self.frames: list[dict[str, object]] = []
        self.stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        self.lsock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                s, _ = self.lsock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with s:
                s.settimeout(1.0)
                dec = P.FrameDecoder()
                with contextlib.suppress(OSError, P.ProtocolError):
                    first = s.recv(65536)
                    self.got += first
                    self.frames += dec.feed(first)
                    s.sendall(P.pack({"t": "challenge", "v": P.VERSION, "key": self.show_key,
                                      "nonce": b"\x01" * 32, "mac": b"\x02" * 32}))
                    while data := s.recv(65536):
                        self.got += data
                        self.frames += dec.feed(data)

    def close(self) -> None:
        self.stop.set()
        self.lsock.close()


def _fake_lookup(code: str, port: int, key: str, name: str) -> tuple[object, object]:
    from tests.test_net_discovery import LoopThread

    lt = LoopThread()
    r = lt.call(DiscoveryResponder.start(code, port, bind=("127.0.0.1", 0), host="127.0.0.1",
                                         name=name, key=key))
    return lt, r


def test_a_fake_look_up_answer_never_gets_a_remembered_seat_or_a_usable_proof() -> None:
    table = make_table("layout")
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=("127.0.0.1", 0)).start()
    assert ht.host is not None and ht.host.responder is not None
    real_port = ht.host.responder.port
    real_pub = ht.host.key.public
    fakes = []
    try:
        hb = host_bot(ht)
        ann = join(f"127.0.0.1:{ht.port}", "Ann")
        run_until([hb, ann], lambda: ann.seat is not None, what="Ann seated")
        remembered = ann.c.credential  # what the app keeps: the secret pinned to the key
        assert remembered == f"{ht.fingerprint}:{ann.c.token}"
        ann.c.close()
        # Two impostors answer the code first: one claims the real key (and shows the real
        # public value, which anyone can copy), one shows a key of its own.
        copy = Impostor(real_pub)
        own = Impostor(secure.KeyPair().public)
        for imp, key in ((copy, ht.fingerprint), (own, "0" * 20)):
            fakes.append((imp, *_fake_lookup(ht.code, imp.port, key, "Hostess's table")))
        targets = [("127.0.0.1", lt_r[2].port) for lt_r in fakes] + [("127.0.0.1", real_port)]
        answers = discover_all(ht.code, targets, bind="127.0.0.1", timeout=1.0)
        assert len(answers) == 3 and {a.key for a in answers} == {ht.fingerprint, "0" * 20}
        assert {a.link.port for a in answers} == {copy.port, own.port, ht.port}
        real = next(a for a in answers if a.link.port == ht.port)
        assert real.seats == 4 and real.people == 1 + 1 and real.name == "Hostess's table"
        # Only the impostor claiming the real key answers: Ann's program tries it, and it
        # cannot prove the key, so it gets a hello and nothing more (again and again).
        lone = join(ht.code, "Ann", token=remembered, discover_targets=targets[:1],
                    discover_bind="127.0.0.1")
        _wait(lambda: sum(f.get("t") == "hello" for f in copy.frames) >= 2, 10)
        assert lone.c.status.state != CONNECTED
        lone.c.close()
        assert {f.get("t") for f in copy.frames} == {"hello"}
        # With every answer: she lands on the real table.
        back = join(ht.code, "Ann", token=remembered, discover_targets=targets,
                    discover_bind="127.0.0.1")
        run_until([hb, back], lambda: back.snapshots == 1, timeout=10, what="Ann back")
        assert back.seat == ann.seat and back.c.link is not None
        assert back.c.link.port == ht.port
        # Neither impostor got a proof or anything of the secret.
        for imp in (copy, own):
            assert not [f for f in imp.frames if f.get("t") == "proof"]
            for form in _forms(back.c.token or ""):
                assert form not in bytes(imp.got)
        # A newcomer asking the same code is told two tables answer (and may choose).
        new = join(ht.code, "Cid", discover_targets=targets, discover_bind="127.0.0.1")
        msg = new.c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == "failed", 10)
        assert msg is not None and msg["reason"] == "several_tables"
        assert "3 tables answered" in msg["message"] and "Hostess's table" in msg["message"]
        for b in (hb, back, new):
            b.c.close()
    finally:
        for imp, lt, r in fakes:
            imp.close()
            lt.loop.call_soon_threadsafe(r.close)  # type: ignore[attr-defined]
            lt.stop()  # type: ignore[attr-defined]
        ht.stop()
        table.close()


def test_a_client_pinned_to_a_key_refuses_a_host_with_another_key_sending_nothing() -> None:
    imp = Impostor(secure.KeyPair().public)
    try:
        c = join(f"127.0.0.1:{imp.port}/{'1' * 20}", "Ann", token=f"{'1' * 20}:s3cret-s3cret")
        msg = c.c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == "failed", 5)
        assert msg is not None and msg["reason"] == "wrong_host"
        assert not [f for f in imp.frames if f.get("t") == "proof"]
        assert b"s3cret" not in bytes(imp.got)
        c.c.close()
    finally:
        imp.close()


def test_a_remembered_seat_is_never_taken_to_a_table_with_another_key() -> None:
    imp = Impostor(secure.KeyPair().public)
    lt, fake = _fake_lookup("KQXF", imp.port, "2" * 20, "Mallory's table")
    try:
        c = Client("KQXF", "Ann", token=f"{'1' * 20}:s3cret-s3cret",
                   discover_targets=[("127.0.0.1", fake.port)],  # type: ignore[attr-defined]
                   discover_bind="127.0.0.1").start()
        msg = c.wait_for(lambda m: m["t"] == "_conn" and m["state"] == "failed", 5)
        assert msg is not None and msg["reason"] == "wrong_host", msg
        assert "not the one this seat belongs to" in msg["message"]
        assert imp.got == b""  # not even a connection
        assert [a.name for a in c.answers] == ["Mallory's table"]
        c.close()
    finally:
        imp.close()
        lt.loop.call_soon_threadsafe(fake.close)  # type: ignore[attr-defined]
        lt.stop()  # type: ignore[attr-defined]


def test_the_table_key_is_kept_beside_the_save(tmp_path: object) -> None:
    from pathlib import Path

    save = Path(str(tmp_path)) / "t.jsonl"
    t1 = make_table("layout", save=save)
    ht = HostThread(t1, bind="127.0.0.1", port=0, discovery=None).start()
    fp = ht.fingerprint
    ht.stop()
    t1.close()
    keyfile = save.with_name("t.jsonl.hostkey")
    assert keyfile.exists() and keyfile.stat().st_mode & 0o077 == 0  # owner only
    t2 = Table.resume(save, clock=fast_clock(50), cpu=SyncCpu())
    ht2 = HostThread(t2, bind="127.0.0.1", port=0, discovery=None).start()
    try:
        assert ht2.fingerprint == fp and str(ht2.link).endswith(f"/{fp}/{ht2.code}")
    finally:
        ht2.stop()
        t2.close()
    keyfile.write_text("{broken")
    t3 = Table.resume(save, clock=fast_clock(50), cpu=SyncCpu())
    try:
        with pytest.raises(ValueError, match=r"t\.jsonl\.hostkey is damaged"):
            HostThread(t3, bind="127.0.0.1", port=0, discovery=None).start()
    finally:
        t3.close()


# --- 4. versions ----------------------------------------------------------------------------


def test_an_old_client_is_told_to_update(lan: tuple[Table, HostThread]) -> None:
    _table, ht = lan
    with socket.create_connection(("127.0.0.1", ht.port), timeout=5) as s:
        P.send_msg(s, {"t": "hello", "v": 1, "name": "Old", "token": "abc", "code": ht.code})
        got = P.recv_msg(s)
    assert got["t"] == "error" and got["code"] == "version"
    assert "version 2" in got["message"] and "version 1" in got["message"]
    assert "update Tee Table on your machine" in got["message"]
