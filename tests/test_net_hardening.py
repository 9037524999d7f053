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
from net.client import CONNECTED
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
