"""Wire protocol: length-prefixed msgpack frames, the message set, strict validation.

A frame is a 4-byte big-endian unsigned length followed by that many bytes of msgpack. The
body must decode to a map whose ``"t"`` names a known message type, with exactly the fields of
that type (optional fields may be left out) and values of the right types. Anything else raises
:class:`ProtocolError` with a short ``code`` and a readable reason. A length above
:data:`MAX_FRAME` is refused before the body is read. See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from collections.abc import Mapping
from typing import Any

import msgpack

VERSION = 2  # 2: the key handshake (challenge, proof, sealed secrets)
MAX_FRAME = 256 * 1024
HEADER = struct.Struct(">I")

MAX_NAME = 24
MAX_TOKEN = 64
MAX_CODE = 16
MAX_SEATS = 16
MAX_TEXT = 64
MAX_INT = 2**53

Message = dict[str, Any]


class ProtocolError(Exception):
    """A frame or message that breaks the protocol. ``code`` is a short machine-readable tag."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


# ---------------------------------------------------------------------------------------------
# Field kinds. Each checker returns None when the value is acceptable, else a reason.


def _int(lo: int, hi: int) -> Any:
    def check(v: Any) -> str | None:
        if type(v) is not int:
            return f"must be an integer, not {type(v).__name__}"
        if not lo <= v <= hi:
            return f"must be between {lo} and {hi}, not {v}"
        return None

    check.kind = f"int {lo}..{hi}"  # type: ignore[attr-defined]
    return check


def _str(maxlen: int, nonempty: bool = True) -> Any:
    def check(v: Any) -> str | None:
        if type(v) is not str:
            return f"must be a string, not {type(v).__name__}"
        if len(v) > maxlen:
            return f"must be at most {maxlen} characters, not {len(v)}"
        if nonempty and not v.strip():
            return "must not be empty"
        if any(ord(c) < 32 or ord(c) == 127 for c in v):
            return "must not contain control characters"
        return None

    check.kind = f"str<={maxlen}"  # type: ignore[attr-defined]
    return check


def _opt(inner: Any) -> Any:
    def check(v: Any) -> str | None:
        return None if v is None else inner(v)

    check.kind = f"{inner.kind} or nil"  # type: ignore[attr-defined]
    return check


def _typed(*types: type, name: str) -> Any:
    def check(v: Any) -> str | None:
        if type(v) not in types:
            return f"must be {name}, not {type(v).__name__}"
        return None

    check.kind = name  # type: ignore[attr-defined]
    return check


def _bool(v: Any) -> str | None:
    return None if type(v) is bool else f"must be true or false, not {type(v).__name__}"


_bool.kind = "bool"  # type: ignore[attr-defined]

SEAT = _int(0, MAX_SEATS - 1)
STATE_NO = _int(0, MAX_INT)
NONNEG = _int(0, MAX_INT)
NAME = _str(MAX_NAME)
TOKEN = _str(MAX_TOKEN)
CODE = _str(MAX_CODE)
TEXT = _str(MAX_TEXT)
ANY_STR = _str(4096, nonempty=False)
MAP = _typed(dict, name="a map")
LIST = _typed(list, name="a list")
BOOL = _bool
NUMBER = _typed(int, float, name="a number")


def _bin(n: int) -> Any:
    def check(v: Any) -> str | None:
        if type(v) is not bytes:
            return f"must be {n} bytes (bin), not {type(v).__name__}"
        if len(v) != n:
            return f"must be {n} bytes, not {len(v)}"
        return None

    check.kind = f"bin {n}"  # type: ignore[attr-defined]
    return check


PUBLIC = _bin(256)  # a Diffie-Hellman public value (net.secure)
NONCE = _bin(32)
MAC = _bin(32)


def ANY(v: Any) -> str | None:
    return None


ANY.kind = "any"  # type: ignore[attr-defined]

# message type -> {field: (checker, required)}
CLIENT_MESSAGES: dict[str, dict[str, tuple[Any, bool]]] = {
    "hello": {
        "v": (_int(0, MAX_INT), True),
        "name": (NAME, True),
        "token": (_opt(TOKEN), False),  # version 1 only: a version 2 host refuses it
        "code": (_opt(CODE), False),
        "dh": (PUBLIC, False),  # the client's one-use public value (required by the host)
    },
    "proof": {"proof": (_opt(MAC), True)},  # HMAC of the session with the seat's secret
    "sit": {"seat": (SEAT, True)},
    "ready": {"ready": (BOOL, False)},
    "play": {"play": (TEXT, True), "state_no": (STATE_NO, True)},
    "pause": {},
    "speed": {"name": (TEXT, True)},
    "hand_to_cpu": {"seat": (SEAT, True), "level": (TEXT, True)},
    "set_cpu": {"seat": (SEAT, True), "level": (TEXT, True)},
    "start": {},
    "leave": {},
    "ping": {"n": (NONNEG, False)},
}

HOST_MESSAGES: dict[str, dict[str, tuple[Any, bool]]] = {
    "welcome": {
        "v": (_int(0, MAX_INT), True),
        "token": (TOKEN, True),
        "seat": (_opt(SEAT), True),
        "table": (MAP, True),
    },
    "snapshot": {
        "state_no": (STATE_NO, True),
        "seat": (_opt(SEAT), True),
        "view": (_opt(MAP), True),
        "seats": (LIST, True),
        "paused": (LIST, True),
        "speed": (TEXT, True),
        "phase": (TEXT, True),
        "outcome": (_opt(MAP), False),
        "table": (MAP, False),
    },
    "events": {
        "state_no": (STATE_NO, True),
        "seat": (SEAT, True),
        "play": (TEXT, True),
        "by": (TEXT, True),
        "events": (LIST, True),
        "duration": (NUMBER, False),
        "view": (_opt(MAP), False),
        "to_move": (_opt(SEAT), False),
        "outcome": (_opt(MAP), False),
    },
    "table": {
        "state_no": (STATE_NO, True),
        "phase": (TEXT, True),
        "*": (ANY, False),  # and every other field of the table's public summary
    },
    "seats": {"seats": (LIST, True)},
    "paused": {"reasons": (LIST, True)},
    "resumed": {},
    "speed": {"name": (TEXT, True), "info": (MAP, False)},
    "refused": {
        "code": (TEXT, True),
        "message": (ANY_STR, True),
        "of": (_opt(TEXT), False),
        "ref": (_opt(NONNEG), False),
    },
    "error": {"code": (TEXT, True), "message": (ANY_STR, True)},
    "pong": {"n": (NONNEG, False)},
    "bye": {"reason": (ANY_STR, True)},
}


# The host's side of the handshake (before welcome): see net/secure.py, docs/protocol.md §2.
HANDSHAKE_MESSAGES: dict[str, dict[str, tuple[Any, bool]]] = {
    "challenge": {
        "v": (_int(0, MAX_INT), True),
        "key": (PUBLIC, True),  # the table key's public value
        "nonce": (NONCE, True),
        "mac": (MAC, True),  # proves the host holds the table key
    },
}


def validate(msg: Any, schema: Mapping[str, Mapping[str, tuple[Any, bool]]]) -> Message:
    """Check one decoded message against ``schema``; return it, or raise ProtocolError."""
    if type(msg) is not dict:
        raise ProtocolError("not_a_map", f"a message must be a map, not {type(msg).__name__}")
    t = msg.get("t")
    if type(t) is not str:
        raise ProtocolError("no_type", "a message needs a string field 't' naming its type")
    fields = schema.get(t)
    if fields is None:
        shown = t if len(t) <= 32 else t[:32] + "..."
        raise ProtocolError("unknown_type", f"unknown message type {shown!r}")
    open_ended = "*" in fields  # host messages that carry the table's summary as it grows
    for key in msg:
        if open_ended and type(key) is str:
            continue
        if key != "t" and key not in fields and not (key == "ref" and schema is CLIENT_MESSAGES):
            shown = repr(key)[:40]
            raise ProtocolError("unknown_field", f"message {t!r} has no field {shown}")
    if "ref" in msg and schema is CLIENT_MESSAGES:
        why = NONNEG(msg["ref"])
        if why is not None:
            raise ProtocolError("bad_field", f"message {t!r} field 'ref' {why}")
    for key, (check, required) in fields.items():
        if key == "*":
            continue
        if key not in msg:
            if required:
                raise ProtocolError("missing_field", f"message {t!r} needs field {key!r}")
            continue
        why = check(msg[key])
        if why is not None:
            raise ProtocolError("bad_field", f"message {t!r} field {key!r} {why}")
    return msg


def validate_client(msg: Any) -> Message:
    return validate(msg, CLIENT_MESSAGES)


def validate_host(msg: Any) -> Message:
    return validate(msg, HOST_MESSAGES)


def validate_handshake(msg: Any) -> Message:
    """A frame the host sends before ``welcome``: a ``challenge``, or an ``error``."""
    if type(msg) is dict and msg.get("t") == "error":
        return validate(msg, HOST_MESSAGES)
    return validate(msg, HANDSHAKE_MESSAGES)


# ---------------------------------------------------------------------------------------------
# Frames


def pack(msg: Mapping[str, Any]) -> bytes:
    """Encode one message as a complete frame (header + body)."""
    body = msgpack.packb(msg, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise ProtocolError("too_large", f"frame of {len(body)} bytes exceeds {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


def check_length(n: int) -> None:
    if n > MAX_FRAME:
        raise ProtocolError("too_large", f"frame length {n} exceeds the limit of {MAX_FRAME}")
    if n == 0:
        raise ProtocolError("empty", "frame length 0: a frame must hold one message")


def unpack_body(body: bytes) -> Any:
    """Decode a frame body into a Python value (not yet validated)."""
    try:
        return msgpack.unpackb(
            body, raw=False, strict_map_key=True, use_list=True
        )
    except Exception as e:  # msgpack raises several unrelated classes on bad input
        raise ProtocolError("bad_msgpack", f"frame body is not valid msgpack ({e})") from None


class FrameDecoder:
    """Incremental decoder for a byte stream: feed bytes, get decoded bodies out."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        self._buf += data
        out: list[Any] = []
        while len(self._buf) >= HEADER.size:
            (n,) = HEADER.unpack_from(self._buf)
            check_length(n)
            if len(self._buf) < HEADER.size + n:
                break
            body = bytes(self._buf[HEADER.size : HEADER.size + n])
            del self._buf[: HEADER.size + n]
            out.append(unpack_body(body))
        return out


async def read_frame(reader: asyncio.StreamReader) -> Any:
    """Read one frame; raise ProtocolError on a bad length or body, EOF errors as usual."""
    head = await reader.readexactly(HEADER.size)
    (n,) = HEADER.unpack(head)
    check_length(n)
    body = await reader.readexactly(n)
    return unpack_body(body)


async def read_body(reader: asyncio.StreamReader, wait: float, finish: float) -> bytes:
    """One frame's body under two deadlines: its first byte within ``wait`` seconds (else
    ``TimeoutError``: the peer is idle), and the whole frame within ``finish`` seconds of that
    first byte (else ``ProtocolError`` ``stalled``: a peer that stops mid-frame, or trickles,
    is found out in ``finish`` seconds however slowly it sends). A bad length raises
    ``ProtocolError`` at once; EOF raises ``IncompleteReadError`` as usual."""
    first = await asyncio.wait_for(reader.readexactly(1), wait)

    async def rest() -> bytes:
        (n,) = HEADER.unpack(first + await reader.readexactly(HEADER.size - 1))
        check_length(n)
        return await reader.readexactly(n)

    try:
        return await asyncio.wait_for(rest(), finish)
    except TimeoutError:
        raise ProtocolError("stalled", f"a frame was not finished within {finish:g} s "
                                       f"of its first byte") from None


# Blocking helpers (tests, tools).


def send_msg(sock: socket.socket, msg: Mapping[str, Any]) -> None:
    sock.sendall(pack(msg))


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("connection closed")
        buf += chunk
    return bytes(buf)


def recv_msg(sock: socket.socket) -> Any:
    (n,) = HEADER.unpack(_recv_exact(sock, HEADER.size))
    check_length(n)
    return unpack_body(_recv_exact(sock, n))
