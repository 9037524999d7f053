"""LAN discovery over loopback, and discovery + TCP across two network namespaces."""

from __future__ import annotations

import asyncio
import socket
import sys
import tempfile
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest

from net.codes import DISCOVERY_PORT, Link
from net.discovery import MAGIC, DiscoveryError, DiscoveryResponder, discover
from net.protocol import VERSION
from tests import netns


class LoopThread:
    """An asyncio loop on a thread, for running a responder while a test blocks."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def call(self, coro: object, timeout: float = 5) -> object:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)  # type: ignore

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


@pytest.fixture
def responder() -> Iterator[DiscoveryResponder]:
    lt = LoopThread()
    r = lt.call(DiscoveryResponder.start("KQXF", 47999, bind=("127.0.0.1", 0), host="127.0.0.1"))
    assert isinstance(r, DiscoveryResponder)
    yield r
    lt.loop.call_soon_threadsafe(r.close)
    lt.stop()


def test_discover_finds_host_by_code(responder: DiscoveryResponder) -> None:
    link = discover("kq-xf", [("127.0.0.1", responder.port)], timeout=1, tries=2, bind="127.0.0.1")
    assert link == Link("127.0.0.1", 47999, "KQXF")
    assert responder.answered == 1


def test_wrong_code_gets_no_answer_and_a_clear_message(responder: DiscoveryResponder) -> None:
    with pytest.raises(DiscoveryError) as e:
        discover("ABCD", [("127.0.0.1", responder.port)], timeout=0.15, tries=2, bind="127.0.0.1")
    text = str(e.value)
    assert "ABCD" in text and "2 times" in text and "address" in text
    assert f"127.0.0.1:{responder.port}" in text
    assert responder.answered == 0


def test_no_host_at_all_falls_back_with_message() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound but never answers
        with pytest.raises(DiscoveryError, match="join by the host's address"):
            discover("KQXF", [("127.0.0.1", port)], timeout=0.1, tries=3, bind="127.0.0.1")


def test_responder_ignores_garbage_then_still_answers(responder: DiscoveryResponder) -> None:
    junk = [
        b"", b"hello", MAGIC, MAGIC + b"\xc1", MAGIC + msgpack.packb([1, 2]),
        MAGIC + msgpack.packb({"t": "who", "v": "2", "code": "KQXF", "n": 1}),
        MAGIC + msgpack.packb({"t": "who", "v": VERSION, "code": 5, "n": 1}),
        MAGIC + msgpack.packb({"t": "who", "v": VERSION, "code": "KQ0F", "n": 1}),
        MAGIC + msgpack.packb({"t": "who", "v": VERSION, "code": "KQXF", "n": "x"}),
        MAGIC + b"\x00" * 2000,
    ]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        for j in junk:
            s.sendto(j, ("127.0.0.1", responder.port))
        s.settimeout(0.3)
        with pytest.raises(TimeoutError):
            s.recvfrom(1000)
    assert responder.answered == 0
    assert discover("KQXF", [("127.0.0.1", responder.port)], bind="127.0.0.1").port == 47999


def test_an_older_query_is_answered_so_the_joiner_is_told_to_update(
        responder: DiscoveryResponder) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        s.sendto(MAGIC + msgpack.packb({"t": "who", "v": 1, "code": "KQXF", "n": 5}),
                 ("127.0.0.1", responder.port))
        s.settimeout(2)
        data, _ = s.recvfrom(1000)
    got = msgpack.unpackb(data[len(MAGIC):])
    # a version 1 joiner reads only t, n, code and port: it connects, and the host says update
    assert (got["t"], got["v"], got["n"], got["code"], got["port"]) == ("here", 2, 5, "KQXF",
                                                                        47999)


def test_ignores_answer_with_wrong_nonce() -> None:
    # A fake "host" that answers with a nonce it made up: the joiner must not believe it.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as fake:
        fake.bind(("127.0.0.1", 0))
        port = fake.getsockname()[1]

        def answer() -> None:
            _data, addr = fake.recvfrom(600)
            bad = {"t": "here", "v": VERSION, "code": "KQXF", "n": 12345, "port": 1234}
            fake.sendto(MAGIC + msgpack.packb(bad), addr)

        t = threading.Thread(target=answer, daemon=True)
        t.start()
        with pytest.raises(DiscoveryError):
            discover("KQXF", [("127.0.0.1", port)], timeout=0.3, tries=1, bind="127.0.0.1")
        t.join(2)


# --- across two namespaces -----------------------------------------------------------------------

HOST_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from net.discovery import DiscoveryResponder
    from net import protocol as P

    async def echo(reader, writer):
        try:
            while True:
                msg = await P.read_frame(reader)
                writer.write(P.pack({"t": "pong", "n": msg.get("n", 0)}))
                await writer.drain()
        except Exception:
            writer.close()

    async def main():
        server = await asyncio.start_server(echo, "0.0.0.0", 47800)
        r = await DiscoveryResponder.start("KQXF", 47800, host=sys.argv[1])
        print("READY", flush=True)
        await asyncio.sleep(60)

    asyncio.run(main())
    """
)

JOIN_SCRIPT = textwrap.dedent(
    """
    import socket, sys
    from net.discovery import discover, default_targets
    from net import protocol as P
    targets = None if sys.argv[1] == "default" else [(sys.argv[1], 47801)]
    print("TARGETS", default_targets() if targets is None else targets, flush=True)
    link = discover("KQXF", targets, timeout=1.0, tries=3)
    print("FOUND", link.host, link.port, link.code, flush=True)
    with socket.create_connection((link.host, link.port), timeout=5) as s:
        P.send_msg(s, {"t": "ping", "n": 41})
        print("ECHO", P.recv_msg(s), flush=True)
    """
)


def test_discovery_and_tcp_across_two_namespaces() -> None:
    reason = netns.unavailable()
    if reason:
        pytest.skip(f"cannot create network namespaces: {reason}")
    with netns.NetnsPair() as lan:
        assert lan.exists()
        host = lan.popen("a", [sys.executable, "-c", HOST_SCRIPT, lan.addr["a"]])
        assert host.stdout is not None
        line = host.stdout.readline()
        assert line.strip() == "READY", host.stderr.read() if host.stderr else line
        for target in (lan.broadcast, "default"):
            out = lan.run("b", [sys.executable, "-c", JOIN_SCRIPT, target], timeout=30)
            assert out.returncode == 0, out.stderr
            assert f"FOUND {lan.addr['a']} 47800 KQXF" in out.stdout
            assert "ECHO {'t': 'pong', 'n': 41}" in out.stdout
            if target == "default":  # found via the veth's own broadcast address
                assert f"('{lan.broadcast}', {DISCOVERY_PORT})" in out.stdout
    assert not lan.exists()


def test_namespaces_are_removed_even_when_the_body_fails() -> None:
    reason = netns.unavailable()
    if reason:
        pytest.skip(f"cannot create network namespaces: {reason}")
    lan = netns.NetnsPair()
    with pytest.raises(RuntimeError), lan:
        p = lan.popen("a", ["sleep", "30"])
        raise RuntimeError("boom")
    assert not lan.exists()
    assert p.poll() is not None


JOINER_GAME = textwrap.dedent(
    """
    import sys
    from tests.net_bots import join, run_until
    b = join(sys.argv[1], "Bea")  # a bare code: found by broadcast on the veth LAN
    run_until([b], lambda: b.outcome is not None and b.phase == "over", timeout=60,
              what="game over")
    print("LINK", b.c.link, flush=True)
    print("SEAT", b.seat, "PLAYS", len(b.plays_sent), "STATE", b.state_no, flush=True)
    print("OUTCOME", b.outcome, flush=True)
    b.c.close()
    """
)


def test_join_by_code_and_play_across_two_namespaces() -> None:
    """A headless host on machine a, a player on machine b joining by code: a whole game."""
    reason = netns.unavailable()
    if reason:
        pytest.skip(f"cannot create network namespaces: {reason}")
    root = str(Path(__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory() as tmp, netns.NetnsPair() as lan:
        save = str(Path(tmp) / "table.jsonl")
        host = lan.popen("a", [sys.executable, "-m", "game.launch", "--host", "--headless",
                               "--game", "layout", "--seats", "3", "--option", "layout_size=3",
                               "--speed", "blitz", "--cpu", "easy", "--sync-cpu",
                               "--clock-scale", "30", "--exit-when-over",
                               "--save", save],
                         cwd=root)
        assert host.stdout is not None
        info: dict[str, str] = {}
        for line in host.stdout:
            if line.strip() == "ready":
                break
            k, _, v = line.strip().partition(": ")
            info[k] = v
        base, key, last = info["link"].rsplit("/", 2)
        assert base == f"teetable://{lan.addr['a']}:47800" and last == info["code"]
        assert len(key) == 20  # the table key's fingerprint
        out = lan.run("b", [sys.executable, "-c", JOINER_GAME, info["code"]], cwd=root,
                      timeout=90)
        assert out.returncode == 0, out.stderr[-2000:]
        assert f"LINK {info['link']}" in out.stdout  # the look-up's answer carried the same key
        assert "OUTCOME {'winners'" in out.stdout
        rest, _ = host.communicate(timeout=30)
        assert host.returncode == 0
        assert "game over:" in rest


def test_lan_address_prefers_the_default_route(monkeypatch: pytest.MonkeyPatch) -> None:
    from net import discovery as D

    ifs = [("docker0", "172.17.0.1", "172.17.255.255"), ("wlan0", "192.168.1.5", "192.168.1.255"),
           ("eth1", "10.0.0.9", "10.0.0.255")]
    monkeypatch.setattr(D, "interfaces", lambda: ifs)
    monkeypatch.setattr(D, "_default_route_interface", lambda: "eth1")
    assert D.lan_address() == "10.0.0.9"
    monkeypatch.setattr(D, "_default_route_interface", lambda: None)
    assert D.lan_address() == "192.168.1.5"  # not the container bridge
    monkeypatch.setattr(D, "interfaces", lambda: [])
    assert D.lan_address() == "127.0.0.1"
    monkeypatch.setattr(D, "interfaces", lambda: ifs)
    assert D.default_targets(47801) == [("172.17.255.255", 47801), ("192.168.1.255", 47801),
                                        ("10.0.0.255", 47801), ("255.255.255.255", 47801)]
