"""Wire protocol: length-prefixed msgpack frames, the message set, strict validation.

A frame is a 4-byte big-endian unsigned length followed by that many bytes of msgpack. The
body must decode to a map whose ``"t"`` names a known message type, with exactly the fields of
that type (optional fields may be left out) and values of the right types. The host's messages
are the table's own (``game/table/messages.py``): their schemas are derived from those types.
Anything else raises :class:`ProtocolError` with a short ``code`` and a readable reason. A
length above :data:`MAX_FRAME` is refused before the body is read. See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import types
import typing
from collections.abc import Mapping
from typing import Any

import msgpack

from game.table import messages as M

#: 2: the table's messages one to one, and the key handshake (challenge, proof, sealed secrets)
VERSION = 2
MAX_FRAME = 256 * 1024
HEADER = struct.Struct(">I")

MAX_NAME = 24
MAX_TOKEN = 64
MAX_CODE = 16
MAX_SEATS = 16
MAX_TEXT = 64
MAX_RECORD = 200_000  # a game record's text (a long 8-seat game is about 60,000)
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

def _lines(maxlen: int) -> Any:
    """A text of lines (a game record): like :func:`_str`, with newlines allowed."""
    def check(v: Any) -> str | None:
        if type(v) is not str:
            return f"must be a string, not {type(v).__name__}"
        if len(v) > maxlen:
            return f"must be at most {maxlen} characters, not {len(v)}"
        if any((ord(c) < 32 and c != "\n") or ord(c) == 127 for c in v):
            return "must not contain control characters but newlines"
        return None

    check.kind = f"lines<={maxlen}"  # type: ignore[attr-defined]
    return check


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
INT = _int(-MAX_INT, MAX_INT)


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
        "watch": (BOOL, False),  # join to watch (also from the lobby)
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
    "leave": {"to": (_opt(NONNEG), False)},  # to: a watcher's number, who takes the seat
    "ping": {"n": (NONNEG, False)},
    # the host's table controls (docs/table.md): hand any seat to a CPU (above), remove a
    # person and let them back, the turn clock and the pause limit (seconds, nil: off),
    # end a pause now
    "remove": {"seat": (SEAT, True)},
    "allow": {"seat": (SEAT, True)},
    "turn_clock": {"seconds": (_opt(NUMBER), True)},
    "pause_limit": {"seconds": (_opt(NUMBER), True)},
    "end_pause": {},
    # watchers and seats changing hands (docs/seats.md): a watcher asks for a CPU seat; the
    # host accepts or declines, hands a seat to a watcher, removes a watcher, and sets whether
    # anyone may watch and whether a seat asked for is given at once
    "ask_seat": {"seat": (SEAT, True)},
    "accept_seat": {"seat": (SEAT, True)},
    "decline_seat": {"seat": (SEAT, True)},
    "hand_to_watcher": {"seat": (SEAT, True), "watcher": (NONNEG, True)},
    "remove_watcher": {"watcher": (NONNEG, True)},
    "watchers": {"allowed": (BOOL, True)},
    "auto_seat": {"on": (BOOL, True)},
}

# ---------------------------------------------------------------------------------------------
# Host messages: derived from the table's own message types (game/table/messages.py), never
# written down a second time. A table message travels with ``t`` for its ``type``.

_TAGS: dict[str, Any] = {
    "seat": SEAT, "state_no": STATE_NO, "token": TOKEN, "text": TEXT, "count": NONNEG,
    "record": _lines(MAX_RECORD),
}


def _checker(tp: Any) -> Any:
    """A field checker for the type annotation ``tp`` (of a message TypedDict)."""
    origin = typing.get_origin(tp)
    if origin in (typing.NotRequired, typing.Required):
        return _checker(typing.get_args(tp)[0])
    if origin is typing.Annotated:
        base, *tags = typing.get_args(tp)
        for tag in tags:
            if tag in _TAGS:
                return _TAGS[tag]
        return _checker(base)
    if tp is Any:
        return ANY
    if tp is type(None):
        return _typed(type(None), name="nil")
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if type(None) in args:
            rest = [a for a in args if a is not type(None)]
            inner = [_checker(a) for a in rest]
            return _opt(inner[0] if len(inner) == 1 else _any_of(inner))
        return _any_of([_checker(a) for a in args])
    if origin is typing.Literal:
        return _one_of(typing.get_args(tp))
    if tp is bool:
        return BOOL
    if tp is int:
        return INT
    if tp is float:
        return NUMBER
    if tp is str:
        return ANY_STR
    if origin is list:
        (item,) = typing.get_args(tp) or (Any,)
        return _list_of(_checker(item))
    if origin is dict or tp is dict:
        return MAP
    if typing.is_typeddict(tp):
        return _map_of(tp.__name__, _fields(tp))
    raise TypeError(f"no wire checker for {tp!r}")


def _fields(td: Any, skip: str = "") -> dict[str, tuple[Any, bool]]:
    hints = typing.get_type_hints(td, include_extras=True)
    required = td.__required_keys__
    return {k: (_checker(v), k in required) for k, v in hints.items() if k != skip}


def _any_of(checks: list[Any]) -> Any:
    def check(v: Any) -> str | None:
        reasons = [c(v) for c in checks]
        return None if None in reasons else reasons[0]

    check.kind = " or ".join(c.kind for c in checks)  # type: ignore[attr-defined]
    return check


def _one_of(values: tuple[Any, ...]) -> Any:
    def check(v: Any) -> str | None:
        if type(v) in (str, int, bool) and v in values and type(v) is type(values[0]):
            return None
        return f"must be one of {', '.join(map(repr, values))}, not {v!r}"[:120]

    check.kind = "|".join(map(str, values))  # type: ignore[attr-defined]
    return check


def _list_of(item: Any) -> Any:
    def check(v: Any) -> str | None:
        if type(v) is not list:
            return f"must be a list, not {type(v).__name__}"
        if item is ANY:
            return None
        for i, x in enumerate(v):
            why = item(x)
            if why is not None:
                return f"item {i} {why}"
        return None

    check.kind = f"list of {item.kind}"  # type: ignore[attr-defined]
    return check


def _map_of(name: str, fields: dict[str, tuple[Any, bool]]) -> Any:
    def check(v: Any) -> str | None:
        if type(v) is not dict:
            return f"must be a map ({name}), not {type(v).__name__}"
        for key in v:
            if key not in fields:
                return f"has no field {repr(key)[:40]}"
        for key, (inner, required) in fields.items():
            if key not in v:
                if required:
                    return f"needs field {key!r}"
                continue
            why = inner(v[key])
            if why is not None:
                return f"field {key!r} {why}"
        return None

    check.kind = name  # type: ignore[attr-defined]
    return check


HOST_MESSAGES: dict[str, dict[str, tuple[Any, bool]]] = {
    **{name: _fields(td, "type") for name, td in M.TABLE_MESSAGES.items()},
    **{name: _fields(td, "t") for name, td in M.WIRE_ONLY.items()},
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
    for key in msg:
        if key != "t" and key not in fields and not (key == "ref" and schema is CLIENT_MESSAGES):
            shown = repr(key)[:40]
            raise ProtocolError("unknown_field", f"message {t!r} has no field {shown}")
    if "ref" in msg and schema is CLIENT_MESSAGES:
        why = NONNEG(msg["ref"])
        if why is not None:
            raise ProtocolError("bad_field", f"message {t!r} field 'ref' {why}")
    for key, (check, required) in fields.items():
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
