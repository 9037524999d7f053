"""The glue over loopback: an admin connection that comes back gets its welcome first, never
the frames the table queued while it was away (issue 15: up to 1,000 stale frames)."""

from __future__ import annotations

import time
from typing import Any

from game.cpu_worker import SyncCpu
from game.table import SeatSpec, Table
from net.client import Client
from net.host import HostThread
from tests.net_bots import fast_clock


def kind(msg: dict[str, Any]) -> str:
    return str(msg.get("t") or msg.get("type"))


def test_an_admin_that_reconnects_gets_no_stale_frames_before_its_welcome() -> None:
    table = Table.create("layout", {"seats": 2, "layout_size": 3}, 2024,
                         [SeatSpec("cpu", level="easy"), SeatSpec("cpu", level="easy")],
                         clock=fast_clock(50.0), speed="blitz", cpu=SyncCpu(), fsync=False)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=("127.0.0.1", 0),
                    tick_interval=0.005).start()
    try:
        link = ht.link.__class__("127.0.0.1", ht.port, ht.code)
        first = Client(link, "Admin", token=table.host_token).start()
        assert first.wait_for(lambda m: kind(m) == "snapshot", timeout=10) is not None
        assert first.send({"t": "start"})
        assert first.wait_for(lambda m: kind(m) == "start", timeout=10) is not None
        first.close()
        made = table.state_no
        deadline = time.monotonic() + 20
        while table.state_no < made + 20 and table.phase == "playing":  # the CPUs play on
            assert time.monotonic() < deadline, "the CPUs did not play"
            time.sleep(0.02)
        assert ht.host is not None
        accepted = ht.host.stats["accepted"]
        again = Client(link, "Admin", token=table.host_token).start()
        try:
            got: list[dict[str, Any]] = []
            deadline = time.monotonic() + 10
            while not any(kind(m) == "snapshot" for m in got):
                assert time.monotonic() < deadline, f"no snapshot: {[kind(m) for m in got]}"
                got += [m for m in again.poll() if kind(m) != "_conn"]
                time.sleep(0.01)
            assert [kind(m) for m in got[:2]] == ["welcome", "snapshot"]
            # in one go: a client sent stale frames before its welcome drops and tries again
            assert ht.host.stats["accepted"] == accepted + 1
        finally:
            again.close()
    finally:
        ht.stop()
        table.close()


def test_a_removed_guest_is_told_bye_and_comes_back_only_to_watch() -> None:
    """The host removes a connected guest over the wire: her connection gets ``bye``
    (``removed``) and closes, her seat is a CPU's, and her remembered seat now only lets her
    watch (no seat, no hand) until the host allows her back."""
    from tests.net_bots import host_bot, join, make_table, run_until

    table = make_table("track", {"rules": "classic", "seats": 4}, seats=4)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=("127.0.0.1", 0),
                    tick_interval=0.005).start()
    try:
        host = host_bot(ht)
        link = ht.link.__class__("127.0.0.1", ht.port, ht.code)
        bea = join(link, "Bea")
        run_until([host, bea], lambda: bea.seat is not None and bea.seats != [] and
                  host.c.status.state == "connected", what="Bea in, the host connected")
        seat = bea.seat
        assert seat is not None and table.seat_info(seat)["kind"] == "person"
        remembered = bea.c.credential
        assert host.c.send({"t": "remove", "seat": seat})
        run_until([host, bea], lambda: any(kind(m) == "bye" for m in bea.log),
                  what="Bea's bye")
        bye = next(m for m in bea.log if kind(m) == "bye")
        assert bye["reason"] == "removed"
        assert table.seat_info(seat)["kind"] == "cpu"
        # her program does not come back by itself: she chooses to (here, to watch)
        run_until([host, bea], lambda: bea.c.status.state == "failed", what="Bea's client stops")
        assert bea.c.status.reason == "removed"
        back = join(link, "Bea", token=remembered)
        run_until([host, back], lambda: back.snapshots > 0, what="Bea watching")
        assert back.seat is None  # a watcher: no seat
        assert back.view is not None and not back.view.get("hand")  # and no hand
        back.c.close()
        bea.c.close()
        host.c.close()
    finally:
        ht.stop()
        table.close()


def test_an_idle_host_sleeps_and_an_intent_wakes_it() -> None:
    """Issue 20: an empty lobby wakes the host's tick loop a few times a second, not fifty (an
    intent or a connection wakes it at once: ``Host.poke``)."""
    table = Table.create("layout", {"seats": 2, "layout_size": 3}, 5,
                         [SeatSpec("person", "Hostess"), SeatSpec("cpu", level="easy")],
                         clock=time.monotonic, host_seat=0, cpu=SyncCpu(), fsync=False)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None).start()
    try:
        assert ht.host is not None
        ticks: list[float] = []
        real = ht.host.glue.tick

        def counting() -> int:
            ticks.append(time.monotonic())
            return real()

        ht.call(lambda h: setattr(h.glue, "tick", counting))
        time.sleep(1.0)
        idle = len(ticks)
        assert 1 <= idle <= 6, idle  # 4 a second at most (it was 50)
    finally:
        ht.stop()
        table.close()
