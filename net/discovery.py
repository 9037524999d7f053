"""LAN discovery: "who has table code X?" by UDP broadcast, answered by the host.

The host runs a :class:`DiscoveryResponder` on UDP port :data:`~net.codes.DISCOVERY_PORT`
(bound to all addresses so that it hears broadcasts). A joiner calls :func:`discover`, which
sends a query to each target address (by default the limited broadcast 255.255.255.255 and the
directed broadcast address of every up, non-loopback IPv4 interface), waits briefly for an
answer, retries a few times and raises :class:`DiscoveryError` with advice if nobody answers.

Both ends take their addresses as arguments, so tests run on loopback (unicast to 127.0.0.1)
or inside network namespaces (the veth subnet's broadcast address) and never touch a real LAN.

Datagrams are msgpack maps after the 4-byte magic ``b"TTD1"``::

    query:  {"t": "who",  "v": VERSION, "code": "KQXF", "n": nonce}
    answer: {"t": "here", "v": VERSION, "code": "KQXF", "n": nonce, "port": 47800,
             "host": "192.168.1.5" or nil, "name": "Ann's table",
             "key": "3f09c2a1d4e5b6a7980f", "seats": 4, "people": 2, "phase": "lobby"}

The joiner connects to the address the answer came from (``host`` is informational), on the
TCP ``port`` of the answer. Anything else (wrong magic, bad msgpack, wrong code) is ignored.

Anyone on the network can answer a look-up, so an answer proves nothing: ``key`` is only the
fingerprint the host must then prove it holds in the TCP handshake (``net.secure``). Two
tables can answer the same code (by chance, or a spoofer): :func:`discover_all` returns every
answer (:class:`Answer`: host name, seats, fingerprint) so the Join screen can let the person
choose; :func:`discover` with ``key`` only returns answers that claim that key, and without it
raises :class:`SeveralTables` when answers with different keys came.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import struct
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgpack

from net.codes import DISCOVERY_PORT, Link, normalize_code
from net.protocol import VERSION
from net.secure import is_fingerprint

MAGIC = b"TTD1"
MAX_DATAGRAM = 512


class DiscoveryError(Exception):
    """Nobody answered for that code (or discovery could not run); the message gives advice."""


@dataclass(frozen=True)
class Answer:
    """One table that answered a code look-up (claims only, until its host proves its key)."""

    link: Link  # where to connect, with the claimed key
    name: str = ""  # "Ann's table"
    seats: int | None = None  # seats at the table
    people: int | None = None  # of which people (the rest are CPUs)
    phase: str = ""  # lobby, playing, over
    version: int | None = None  # the protocol version it speaks

    @property
    def key(self) -> str | None:
        return self.link.key

    def describe(self) -> str:
        """One line for the Join screen: "Ann's table, 2 people at 4 seats, lobby (key 3f09...)"."""
        people = self.people or 0
        who = f"{people} {'person' if people == 1 else 'people'}"
        seats = "" if self.seats is None else f", {who} at {self.seats} seats"
        phase = f", {self.phase}" if self.phase else ""
        key = f" (key {self.key[:8]}...)" if self.key else ""
        return f"{self.name or 'a table'} at {self.link.address}{seats}{phase}{key}"


class SeveralTables(DiscoveryError):
    """More than one table (different keys) answered the code: the person has to choose."""

    def __init__(self, answers: list[Answer]) -> None:
        self.answers = answers
        listed = "; ".join(a.describe() for a in answers)
        super().__init__(f"{len(answers)} tables answered this code: {listed}. Choose one "
                         f"(join by its link or address)")




def _encode(msg: dict[str, Any]) -> bytes:
    return MAGIC + msgpack.packb(msg, use_bin_type=True)


def _decode(data: bytes) -> dict[str, Any] | None:
    if len(data) > MAX_DATAGRAM or not data.startswith(MAGIC):
        return None
    try:
        msg = msgpack.unpackb(data[len(MAGIC) :], raw=False, strict_map_key=True)
    except Exception:
        return None
    if type(msg) is not dict or type(msg.get("t")) is not str:
        return None
    return msg


# ---------------------------------------------------------------------------------------------
# Interfaces (Linux ioctl; elsewhere only the limited broadcast is used)


def interfaces() -> list[tuple[str, str, str | None]]:
    """Up, non-loopback IPv4 interfaces as (name, address, broadcast address or None)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    out: list[tuple[str, str, str | None]] = []
    siocgifflags, siocgifaddr, siocgifbrdaddr = 0x8913, 0x8915, 0x8919
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _idx, name in socket.if_nameindex():
            req = struct.pack("256s", name.encode()[:15])
            try:
                flags = struct.unpack_from("H", fcntl.ioctl(s.fileno(), siocgifflags, req), 16)[0]
                if not flags & 0x1 or flags & 0x8:  # IFF_UP, IFF_LOOPBACK
                    continue
                addr = socket.inet_ntoa(fcntl.ioctl(s.fileno(), siocgifaddr, req)[20:24])
                brd: str | None = None
                if flags & 0x2:  # IFF_BROADCAST
                    brd = socket.inet_ntoa(fcntl.ioctl(s.fileno(), siocgifbrdaddr, req)[20:24])
                    if brd == "0.0.0.0":
                        brd = None
            except OSError:
                continue
            out.append((name, addr, brd))
    return out


_VIRTUAL = ("docker", "br-", "veth", "virbr", "lxc", "vmnet", "vboxnet", "cni", "flannel")


def _default_route_interface() -> str | None:
    """The interface of the IPv4 default route (Linux ``/proc/net/route``), if any."""
    try:
        with open("/proc/net/route", encoding="ascii") as f:
            next(f, None)
            for line in f:
                parts = line.split()
                if len(parts) > 2 and parts[1] == "00000000":
                    return parts[0]
    except OSError:
        pass
    return None


def lan_address() -> str:
    """This machine's LAN IPv4 address for the link (no packet is sent to find it).

    The address of the default route's interface if there is one, else the first up interface
    that does not look like a container or VM bridge, else any, else 127.0.0.1.
    """
    found = [(n, a) for n, a, _b in interfaces() if not a.startswith("169.254.")]
    default = _default_route_interface()
    for name, addr in found:
        if name == default:
            return addr
    for name, addr in found:
        if not name.startswith(_VIRTUAL):
            return addr
    return found[0][1] if found else "127.0.0.1"


def default_targets(port: int = DISCOVERY_PORT) -> list[tuple[str, int]]:
    seen: list[tuple[str, int]] = []
    for _name, _addr, brd in interfaces():
        if brd and (brd, port) not in seen:
            seen.append((brd, port))
    seen.append(("255.255.255.255", port))
    return seen


# ---------------------------------------------------------------------------------------------
# Host side


class DiscoveryResponder(asyncio.DatagramProtocol):
    """Answers queries for one code. Start it with :meth:`start` on the host's event loop."""

    def __init__(self, code: str, tcp_port: int, host: str | None = None, name: str = "",
                 key: str | None = None,
                 info: Callable[[], dict[str, Any]] | None = None) -> None:
        self.code = normalize_code(code)
        self.tcp_port = tcp_port
        self.host = host
        self.name = name[:40]
        self.key = key
        self.info = info  # name, seats, people, phase, asked afresh for each answer
        self.transport: asyncio.DatagramTransport | None = None
        self.answered = 0

    @classmethod
    async def start(
        cls,
        code: str,
        tcp_port: int,
        *,
        bind: tuple[str, int] = ("0.0.0.0", DISCOVERY_PORT),
        host: str | None = None,
        name: str = "",
        key: str | None = None,
        info: Callable[[], dict[str, Any]] | None = None,
    ) -> DiscoveryResponder:
        """Bind the UDP socket and start answering. Raises OSError if the port is taken."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            sock.bind(bind)
        except OSError:
            sock.close()
            raise
        loop = asyncio.get_running_loop()
        proto = cls(code, tcp_port, host, name, key, info)
        await loop.create_datagram_endpoint(lambda: proto, sock=sock)
        return proto

    @property
    def port(self) -> int:
        assert self.transport is not None
        return int(self.transport.get_extra_info("sockname")[1])

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        msg = _decode(data)
        # Any version's query is answered (with this host's version): an older joiner then
        # connects and is told to update, instead of finding nothing.
        if msg is None or msg.get("t") != "who" or type(msg.get("v")) is not int:
            return
        code, nonce = msg.get("code"), msg.get("n")
        if type(code) is not str or type(nonce) is not int:
            return
        try:
            if normalize_code(code) != self.code:
                return
        except ValueError:
            return
        reply: dict[str, Any] = {
            "t": "here", "v": VERSION, "code": self.code, "n": nonce,
            "port": self.tcp_port, "host": self.host, "name": self.name, "key": self.key,
        }
        if self.info is not None:
            try:
                extra = self.info()
            except Exception:  # the table must not break the responder
                extra = {}
            for k in ("name", "seats", "people", "phase"):
                if k in extra:
                    reply[k] = str(extra[k])[:40] if k in ("name", "phase") else extra[k]
        if self.transport is not None:
            self.answered += 1
            self.transport.sendto(_encode(reply), addr)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


# ---------------------------------------------------------------------------------------------
# Joiner side


def discover_all(
    code: str,
    targets: Sequence[tuple[str, int]] | None = None,
    *,
    timeout: float = 0.7,
    tries: int = 3,
    bind: str = "0.0.0.0",
    linger: float = 0.3,
    key: str | None = None,
) -> list[Answer]:
    """Every table that answers ``code``: broadcast, and once a first answer came, listen
    ``linger`` seconds more for others (else retry after ``timeout``, ``tries`` times).

    With ``key``, only answers claiming that key count (several may: a spoofer can claim any
    key; the handshake tells them apart). One answer per (address, port, key). Raises
    :class:`DiscoveryError` (what was tried and what to do instead) if nobody answered.
    This is what the Join screen calls to let the person choose when :func:`discover`
    raises :class:`SeveralTables`.
    """
    code = normalize_code(code)
    dests = list(targets) if targets is not None else default_targets()
    nonce = secrets.randbits(48)
    query = _encode({"t": "who", "v": VERSION, "code": code, "n": nonce})
    errors: list[str] = []
    found: list[Answer] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        s.bind((bind, 0))
        for _attempt in range(max(1, tries)):
            sent = 0
            for dest in dests:
                try:
                    s.sendto(query, dest)
                    sent += 1
                except OSError as e:
                    msg = f"{dest[0]}:{dest[1]}: {e.strerror or e}"
                    if msg not in errors:
                        errors.append(msg)
            if not sent:
                break
            deadline = time.monotonic() + timeout
            while (left := deadline - time.monotonic()) > 0:
                s.settimeout(left)
                try:
                    data, addr = s.recvfrom(MAX_DATAGRAM + 1)
                except TimeoutError:
                    break
                except OSError:
                    continue
                ans = _answer(data, addr, code, nonce)
                if ans is None or (key is not None and ans.key != key):
                    continue
                if all((a.link, a.key) != (ans.link, ans.key) for a in found):
                    found.append(ans)
                    deadline = min(deadline, time.monotonic() + linger)
            if found:
                return found
    where = ", ".join(f"{h}:{p}" for h, p in dests) or "nowhere"
    detail = f" (errors: {'; '.join(errors)})" if errors else ""
    which = " with this table's key" if key is not None else ""
    raise DiscoveryError(
        f"no table with code {code} answered{which} on this network (asked {where}, "
        f"{max(1, tries)} times){detail}. Check the code, or join by the host's address "
        f"instead (the host shows it, e.g. 192.168.1.5:47800): the network may block broadcast."
    )


def discover(
    code: str,
    targets: Sequence[tuple[str, int]] | None = None,
    *,
    timeout: float = 0.7,
    tries: int = 3,
    bind: str = "0.0.0.0",
    key: str | None = None,
) -> Link:
    """Find the host of ``code`` (see :func:`discover_all`); returns its :class:`Link`.

    With ``key``: the first answer claiming it. Without: the one table that answered, or
    :class:`SeveralTables` (with every answer) when tables with different keys answered.
    """
    found = discover_all(code, targets, timeout=timeout, tries=tries, bind=bind, key=key)
    if len({a.key for a in found}) > 1:
        raise SeveralTables(found)
    return found[0].link


def _answer(data: bytes, addr: tuple[str, int], code: str, nonce: int) -> Answer | None:
    msg = _decode(data)
    if msg is None or msg.get("t") != "here" or msg.get("n") != nonce:
        return None
    if msg.get("code") != code:
        return None
    port = msg.get("port")
    if type(port) is not int or not 1 <= port <= 65535:
        return None
    key = msg.get("key")
    key = key if is_fingerprint(key) else None

    def num(k: str) -> int | None:
        v = msg.get(k)
        return v if type(v) is int and 0 <= v <= 64 else None

    def text(k: str) -> str:
        v = msg.get(k)
        return v[:40] if type(v) is str and v.isprintable() else ""

    v = msg.get("v")
    return Answer(Link(addr[0], port, code, key), name=text("name"), seats=num("seats"),
                  people=num("people"), phase=text("phase"),
                  version=v if type(v) is int else None)


async def adiscover(code: str, targets: Iterable[tuple[str, int]] | None = None,
                    **kw: Any) -> Link:
    """:func:`discover` without blocking the event loop."""
    tlist = list(targets) if targets is not None else None
    return await asyncio.to_thread(discover, code, tlist, **kw)


async def adiscover_all(code: str, targets: Iterable[tuple[str, int]] | None = None,
                        **kw: Any) -> list[Answer]:
    """:func:`discover_all` without blocking the event loop."""
    tlist = list(targets) if targets is not None else None
    return await asyncio.to_thread(discover_all, code, tlist, **kw)
