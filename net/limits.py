"""The host's limits, and the bookkeeping that keeps hostile sockets from crowding anyone out.

:class:`Limits` holds every number (``docs/lan.md`` lists them for people, ``docs/protocol.md``
§5 for programs). :class:`Gate` tracks the connections still in their handshake, per address:
when an address already has its share, or all addresses together have, the oldest one that
has said nothing yet (else the oldest) makes way for the newcomer. So no number of idle or
half-open sockets, from one address or many, keeps a real person out: each new connection
pushes the oldest waiting one out instead of being turned away.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field


@dataclass
class Limits:
    """The host's limits (``docs/lan.md`` lists them for people, ``docs/protocol.md`` §5)."""

    hello_timeout: float = 2.0  # from the connection's opening to its welcome (whole handshake)
    idle_timeout: float = 20.0  # nothing at all received for this long: closed
    frame_timeout: float = 3.0  # a frame's bytes must all come within this of its first byte
    write_timeout: float = 10.0  # unsent output that has not drained for this long: cut
    rate: float = 40.0  # messages per second
    burst: float = 80.0
    flood_debt: float = 200.0  # close when this far over the bucket
    max_bad: int = 20  # bad bodies tolerated per connection
    max_buffer: int = 384 * 1024  # unsent bytes (beyond the kernel's queue) before a cut
    send_buffer: int = 64 * 1024  # SO_SNDBUF asked for each connection: bounds the kernel queue
    max_connections: int = 64  # joined connections before new ones are turned away (busy)
    max_pending: int = 32  # connections still in their handshake, from all addresses
    max_pending_per_address: int = 4  # ... from one address; the oldest is dropped first
    # Each hello costs the host a 2048-bit modular exponentiation (~7 ms of its one thread):
    # hellos beyond these rates are turned away (busy, the client tries again) before that work.
    hello_rate: float = 10.0  # hellos per second from one address (bursts of hello_burst)
    hello_burst: float = 20.0
    hello_rate_all: float = 80.0  # from all addresses together (bursts of twice that)


class TokenBucket:
    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.t = time.monotonic()

    def take(self) -> float:
        """Spend one token; return the level after (negative: over the limit)."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.t) * self.rate)
        self.t = now
        self.level -= 1
        return self.level

    def refund(self) -> None:
        self.level += 1


@dataclass(eq=False)
class Conn:
    writer: asyncio.StreamWriter
    peer: str
    bucket: TokenBucket
    token: str | None = None
    seat: int | None = None
    name: str = ""
    bad: int = 0
    closed: bool = False
    sent_bytes: int = 0
    sent_frames: int = 0
    addr: str = "?"
    opened: float = field(default_factory=time.monotonic)
    joined: bool = False
    spoke: bool = False  # its first frame has come (handshaking, not just holding a socket)
    stuck_since: float | None = None  # since when its output has not drained
    key: bytes = b""  # the session key (net.secure), once the handshake has made it


class Gate:
    """The handshaking connections, by address, oldest first."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.pending: dict[str, list[Conn]] = {}
        self._hellos: dict[str, TokenBucket] = {}
        self._all = TokenBucket(limits.hello_rate_all, 2 * limits.hello_rate_all)

    def may_handshake(self, addr: str) -> bool:
        """Whether a hello from ``addr`` may cost the host its key exchange now."""
        if len(self._hellos) > 4096:  # many addresses: forget the full buckets
            self._hellos = {a: b for a, b in self._hellos.items() if b.level < b.burst}
        mine = self._hellos.get(addr)
        if mine is None:
            mine = self._hellos[addr] = TokenBucket(self.limits.hello_rate,
                                                    self.limits.hello_burst)
        if mine.take() < 0:
            mine.refund()
            return False
        if self._all.take() < 0:
            self._all.refund()
            mine.refund()
            return False
        return True

    def count(self) -> int:
        return sum(len(v) for v in self.pending.values())

    def enter(self, c: Conn) -> None:
        self.pending.setdefault(c.addr, []).append(c)

    def leave(self, c: Conn) -> None:
        lst = self.pending.get(c.addr)
        if lst is not None and c in lst:
            lst.remove(c)
            if not lst:
                del self.pending[c.addr]

    def make_room(self, addr: str) -> Conn | None:
        """The connection that must go before a new one from ``addr`` starts its handshake."""
        lim = self.limits
        mine = self.pending.get(addr, [])
        if len(mine) >= lim.max_pending_per_address:
            return self._victim(mine)
        if self.count() >= lim.max_pending:
            return self._victim(max(self.pending.values(), key=len))
        return None

    @staticmethod
    def _victim(conns: list[Conn]) -> Conn:
        """The oldest that has said nothing yet, else the oldest."""
        return next((c for c in conns if not c.spoke), conns[0])
