"""Framing, message validation, table codes and links (net.protocol, net.codes)."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net import protocol as P
from net.codes import (
    ALPHABET,
    CODE_LENGTH,
    DEFAULT_PORT,
    Link,
    LinkError,
    make_link,
    new_code,
    normalize_code,
    parse_join_target,
    parse_link,
)


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


# --- frames ------------------------------------------------------------------------------------


def test_pack_is_length_prefixed_msgpack() -> None:
    data = P.pack({"t": "ping", "n": 7})
    body = msgpack.packb({"t": "ping", "n": 7})
    assert data == struct.pack(">I", len(body)) + body
    assert data[:4] == len(body).to_bytes(4, "big")


def test_decoder_handles_split_and_joined_frames() -> None:
    a, b = P.pack({"t": "ping", "n": 1}), P.pack({"t": "pause"})
    stream = a + b
    dec = P.FrameDecoder()
    got: list[object] = []
    for i in range(len(stream)):  # one byte at a time
        got += dec.feed(stream[i : i + 1])
    assert got == [{"t": "ping", "n": 1}, {"t": "pause"}]
    assert P.FrameDecoder().feed(stream) == got


def test_oversized_length_refused_before_body() -> None:
    dec = P.FrameDecoder()
    with pytest.raises(P.ProtocolError) as e:
        dec.feed(struct.pack(">I", P.MAX_FRAME + 1))  # header only, no body yet
    assert e.value.code == "too_large"
    assert str(P.MAX_FRAME) in e.value.reason


def test_read_frame_refuses_oversized_without_waiting_for_body() -> None:
    async def go() -> None:
        r = asyncio.StreamReader()
        r.feed_data(struct.pack(">I", 0xFFFFFFFF))  # no body ever comes
        with pytest.raises(P.ProtocolError) as e:
            await asyncio.wait_for(P.read_frame(r), 2)
        assert e.value.code == "too_large"

    asyncio.run(go())


def test_exactly_max_frame_is_allowed_in_length() -> None:
    P.check_length(P.MAX_FRAME)
    with pytest.raises(P.ProtocolError):
        P.check_length(P.MAX_FRAME + 1)
    with pytest.raises(P.ProtocolError) as e:
        P.check_length(0)
    assert e.value.code == "empty"


def test_pack_refuses_oversized_message() -> None:
    with pytest.raises(P.ProtocolError) as e:
        P.pack({"t": "bye", "reason": "x" * (P.MAX_FRAME + 10)})
    assert e.value.code == "too_large"


@pytest.mark.parametrize(
    "body",
    [b"\xc1", b"\x92\x01", b"\xdc\xff", b"\x81\x01\x02", b"\xd9\x05ab"],
    ids=["reserved-byte", "truncated-array", "truncated-array16", "int-key", "short-str"],
)
def test_bad_msgpack_is_protocol_error(body: bytes) -> None:
    with pytest.raises(P.ProtocolError) as e:
        P.FrameDecoder().feed(frame(body))
    assert e.value.code == "bad_msgpack"


# --- validation ---------------------------------------------------------------------------------


GOOD_CLIENT = [
    {"t": "hello", "v": 1, "name": "Ann", "token": None, "code": "KQXF"},
    {"t": "hello", "v": 1, "name": "Ann"},
    {"t": "sit", "seat": 3},
    {"t": "ready"},
    {"t": "ready", "ready": False},
    {"t": "play", "play": "5H:a+5", "state_no": 12},
    {"t": "pause"},
    {"t": "speed", "name": "fast"},
    {"t": "hand_to_cpu", "seat": 1, "level": "nasty"},
    {"t": "set_cpu", "seat": 2, "level": "easy"},
    {"t": "start"},
    {"t": "leave"},
    {"t": "ping", "n": 5},
    {"t": "ping"},
]


@pytest.mark.parametrize("msg", GOOD_CLIENT, ids=lambda m: m["t"])
def test_good_client_messages_pass(msg: dict[str, object]) -> None:
    assert P.validate_client(msg) is msg


@pytest.mark.parametrize(
    ("msg", "code", "words"),
    [
        ([1, 2], "not_a_map", "map"),
        ("hello", "not_a_map", "map"),
        ({"v": 1}, "no_type", "'t'"),
        ({"t": 5}, "no_type", "'t'"),
        ({"t": "teleport"}, "unknown_type", "teleport"),
        ({"t": "welcome", "v": 1, "token": "x", "seat": 0, "table": {}}, "unknown_type", "welcome"),
        ({"t": "sit"}, "missing_field", "seat"),
        ({"t": "sit", "seat": "2"}, "bad_field", "integer"),
        ({"t": "sit", "seat": True}, "bad_field", "integer"),
        ({"t": "sit", "seat": 2.0}, "bad_field", "integer"),
        ({"t": "sit", "seat": -1}, "bad_field", "between"),
        ({"t": "sit", "seat": 99}, "bad_field", "between"),
        ({"t": "sit", "seat": 1, "extra": 1}, "unknown_field", "extra"),
        ({"t": "play", "play": "5H", "state_no": -3}, "bad_field", "state_no"),
        ({"t": "play", "play": b"5H", "state_no": 1}, "bad_field", "string"),
        ({"t": "play", "play": "x" * 65, "state_no": 1}, "bad_field", "at most 64"),
        ({"t": "play", "play": "", "state_no": 1}, "bad_field", "empty"),
        ({"t": "hello", "v": 1, "name": "A\x00nn"}, "bad_field", "control"),
        ({"t": "hello", "v": 1, "name": "N" * 25}, "bad_field", "at most 24"),
        ({"t": "hello", "v": 1, "name": "Ann", "token": 5}, "bad_field", "token"),
        ({"t": "ready", "ready": 1}, "bad_field", "true or false"),
    ],
)
def test_bad_client_messages_are_refused_with_reason(msg: object, code: str, words: str) -> None:
    with pytest.raises(P.ProtocolError) as e:
        P.validate_client(msg)
    assert e.value.code == code
    assert words in e.value.reason


def test_host_messages_validate() -> None:
    P.validate_host({"t": "welcome", "v": 2, "token": "abc", "seat": None, "table": {}})
    P.validate_host({"t": "refused", "code": "stale", "message": "old state", "of": "play"})
    with pytest.raises(P.ProtocolError):
        P.validate_host({"t": "snapshot", "state_no": 3})
    with pytest.raises(P.ProtocolError):
        P.validate_host({"t": "ping"})  # a client message is not a host message
    with pytest.raises(P.ProtocolError, match="between 0 and"):
        P.validate_host({"t": "refused", "code": "x", "message": "y", "ref": -1})


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bodies_never_escape_as_other_errors(body: bytes) -> None:
    try:
        for m in P.FrameDecoder().feed(frame(body) if body else b""):
            P.validate_client(m)
    except P.ProtocolError as e:
        assert e.code and e.reason


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.binary(max_size=8),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(P.CLIENT_MESSAGES)), st.dictionaries(st.text(max_size=8), values))
def test_random_maps_validate_or_raise_protocol_error(t: str, extra: dict[str, object]) -> None:
    msg = {**extra, "t": t}
    try:
        out = P.validate_client(msg)
    except P.ProtocolError:
        return
    # Accepted: then every field is known and has the right type.
    fields = P.CLIENT_MESSAGES[t]
    assert set(out) - {"t"} <= set(fields)
    for k, (check, _req) in fields.items():
        if k in out:
            assert check(out[k]) is None


# --- codes and links ------------------------------------------------------------------------------


def test_alphabet_has_no_lookalikes() -> None:
    assert not set("0O1IL") & set(ALPHABET)
    assert len(set(ALPHABET)) == len(ALPHABET) == 23


def test_new_code_shape() -> None:
    codes = {new_code() for _ in range(200)}
    assert all(len(c) == CODE_LENGTH and set(c) <= set(ALPHABET) for c in codes)
    assert len(codes) > 150  # 23**4 = 279841 possibilities


def test_normalize_code() -> None:
    assert normalize_code(" kq-xf ") == "KQXF"
    with pytest.raises(LinkError, match="never use 0, O, 1, I or L"):
        normalize_code("KQ0F")
    with pytest.raises(LinkError, match="4 letters"):
        normalize_code("KQX")
    with pytest.raises(LinkError, match="empty"):
        normalize_code("  ")


@pytest.mark.parametrize(
    ("text", "link"),
    [
        ("teetable://192.168.1.5:47800/KQXF", Link("192.168.1.5", 47800, "KQXF")),
        ("teetable://192.168.1.5:47800/kqxf/", Link("192.168.1.5", 47800, "KQXF")),
        ("TEETABLE://10.0.0.7:5000/KQXF", Link("10.0.0.7", 5000, "KQXF")),
        ("http://10.0.0.7:5000/KQXF", Link("10.0.0.7", 5000, "KQXF")),
        ("https://10.0.0.7:5000/KQXF?x=1", Link("10.0.0.7", 5000, "KQXF")),
        ("10.0.0.7:5000", Link("10.0.0.7", 5000, None)),
        ("10.0.0.7", Link("10.0.0.7", DEFAULT_PORT, None)),
        ("  my-laptop.local:47800/KQXF ", Link("my-laptop.local", 47800, "KQXF")),
        ("teetable://[fd00::5]:47800/KQXF", Link("fd00::5", 47800, "KQXF")),
    ],
)
def test_parse_link(text: str, link: Link) -> None:
    assert parse_link(text) == link


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("ftp://10.0.0.7:5000/KQXF", "unknown link type"),
        ("teetable://10.0.0.7:0/KQXF", "out of range"),
        ("teetable://10.0.0.7:70000/KQXF", "out of range"),
        ("teetable://10.0.0.7:port/KQXF", "not a number"),
        ("teetable://10.0.0.7:/KQXF", "port after ':' is missing"),
        ("teetable://:47800/KQXF", "no host"),
        ("teetable://10.0.0.7:47800/KQ0F", "never use"),
        ("teetable://fd00::5:47800/KQXF", "brackets"),
        ("teetable://[fd00::5:47800/KQXF", "']'"),
        ("teetable://999.1.1.1:47800/KQXF", "not an IP address"),
        ("teetable://bad_host!:47800", "not an IP address"),
    ],
)
def test_parse_link_errors_say_why(text: str, words: str) -> None:
    with pytest.raises(LinkError, match=words.replace("(", r"\(")):
        parse_link(text)


def test_make_link_round_trips() -> None:
    for host in ("192.168.1.5", "fd00::5", "box.lan"):
        for code in ("KQXF", None):
            s = make_link(host, 47800, code)
            assert s.startswith("teetable://")
            assert parse_link(s) == Link(host, 47800, code)
    assert str(Link("192.168.1.5", 47800, "KQXF")) == "teetable://192.168.1.5:47800/KQXF"
    assert Link("fd00::5", 1).address == "[fd00::5]:1"


def test_parse_join_target_code_or_link() -> None:
    assert parse_join_target("kqxf") == "KQXF"
    assert parse_join_target("KQ XF") == "KQXF"
    assert parse_join_target("10.0.0.7:5000") == Link("10.0.0.7", 5000, None)
    assert parse_join_target("localhost") == Link("localhost", DEFAULT_PORT, None)
    with pytest.raises(LinkError, match="never use"):
        parse_join_target("KQ0F")


def _table_messages() -> list[dict]:
    """Every kind of message a real table queues, in its wire form."""
    from game.table import SeatSpec, Table
    from game.table.cpu import SyncCpu
    from game.table.messages import to_wire

    t = Table.create("layout", {"seats": 2, "layout_size": 3}, 11,
                     [SeatSpec("person", "Ann", local=True), SeatSpec("person", "Bo", local=True)],
                     clock=lambda: 0.0, host_seat=0, cpu=SyncCpu())
    snap = t.snapshot(0)
    t.snapshot(None)
    t.start(t.host_token)
    legal = t.rules.legal_tokens(t.state)
    mover = t.to_move()
    assert mover is not None and t.submit(t.token(mover), legal[0], t.state_no).ok
    msgs = [snap, *t.drain(0), *t.drain(None), {"type": "reset", "snapshot": t.snapshot(0)}]
    return [to_wire(m) for m in msgs]


def test_every_table_message_travels_one_to_one_and_validates() -> None:
    from game.table.messages import TABLE_MESSAGES, from_wire

    wire = _table_messages()
    assert {m["t"] for m in wire} == {"snapshot", "start", "play", "table", "reset"}
    for m in wire:
        got = P.validate_host(P.unpack_body(P.pack(m)[4:]))
        assert got == m  # nothing renamed, merged or dropped
        table_msg = from_wire(got)
        assert table_msg["type"] == m["t"] and "t" not in table_msg
        # the schema is the table's own type: exactly its fields, none written twice
        fields = set(TABLE_MESSAGES[m["t"]].__annotations__) - {"type"}
        assert set(P.HOST_MESSAGES[m["t"]]) == fields
    # The old translated messages are gone from the wire.
    for old in ("events", "seats", "paused", "resumed", "speed"):
        with pytest.raises(P.ProtocolError, match="unknown message type"):
            P.validate_host({"t": old})


def test_derived_host_schemas_check_nested_fields() -> None:
    wire = {m["t"]: m for m in _table_messages()}
    table = dict(wire["table"])
    with pytest.raises(P.ProtocolError, match="no field"):
        P.validate_host({**table, "some_new_field": [1]})  # a closed, typed message
    with pytest.raises(P.ProtocolError, match="state_no"):
        P.validate_host({k: v for k, v in table.items() if k != "state_no"})
    bad_seat = [dict(s) for s in table["seats"]]
    bad_seat[1]["seat"] = 99
    with pytest.raises(P.ProtocolError, match="item 1 field 'seat'"):
        P.validate_host({**table, "seats": bad_seat})
    with pytest.raises(P.ProtocolError, match="phase"):
        P.validate_host({**table, "phase": "napping"})
    snap = dict(wire["reset"]["snapshot"])
    snap.pop("view")
    with pytest.raises(P.ProtocolError, match="needs field 'view'"):
        P.validate_host({"t": "reset", "snapshot": snap})
    with pytest.raises(P.ProtocolError, match="'by'"):
        P.validate_host({**wire["play"], "by": "ghost"})


def test_client_ref_field() -> None:
    # 'ref' is allowed on client messages only.
    P.validate_client({"t": "pause", "ref": 3})
    with pytest.raises(P.ProtocolError, match="ref"):
        P.validate_client({"t": "pause", "ref": -1})
    with pytest.raises(P.ProtocolError):
        P.validate_host({"t": "pong", "ref": 3})
