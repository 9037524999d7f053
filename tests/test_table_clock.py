"""Nobody holds the table hostage (issue 15): the turn clock, the pause limit, the host's
hand-to-CPU and remove, and the glue's part (the admin's outbox, ended tokens, watchers).

Numbers are worked by hand from the race double (tests/test_table_support.py) at "normal": a
play with an empty deck animates "play" 0.35 s; the turn clock is 90 s at normal (x the speed's
scale: brisk 0.6 -> 54 s); the pause limit 120 s of clock time at any speed. Ann is the host's
own seat on this screen (local), Bob a remote person: a table with a remote person is a shared
table, so the clocks run for both of them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from test_table_support import FakeClock, FirstCpu, Race, RaceState

from game.table import SeatSpec, Table, TableError, register_rules
from net.glue import Refusal, TableGlue
from net.protocol import ProtocolError, validate_client, validate_host

ANN = SeatSpec("person", "Ann", local=True)
BOB = SeatSpec("person", "Bob")
HANDS = [["2C", "3C", "4C", "5C"], ["4D", "5D", "6D", "7D"]]


def table(clock: FakeClock, *, second: SeatSpec = BOB, speed: str = "normal",
          save: Path | None = None, **kw: object) -> Table:
    cfg = {"seats": 2, "target": 99, "hands": HANDS, "deck": []}
    return Table.create("race", cfg, 7, [ANN, second], clock=clock, speed=speed, host_seat=0,
                        cpu=FirstCpu(), save_path=save, fsync=False, **kw)  # type: ignore[arg-type]


def started(clock: FakeClock, **kw: object) -> Table:
    t = table(clock, **kw)  # type: ignore[arg-type]
    bob = t.token(1)
    assert t.connect(bob).ok and t.ready(bob).ok
    assert t.start(t.host_token).ok
    return t


# ------------------------------------------------------------------------------ turn clock


def test_a_connected_person_who_takes_too_long_gets_a_cpu_for_that_turn_and_keeps_the_seat(
) -> None:
    clock = FakeClock(1000.0)
    t = started(clock)
    ann, bob = t.token(0), t.token(1)
    assert t.public()["turn_clock"] == 90.0 and t.public()["turn_limit"] == 90.0
    assert t.turn_left() == pytest.approx(90.0)  # Ann's turn, playable since 1000
    clock.t = 1001.0
    t.drain(0)
    assert t.submit(ann, "2C", 0).ok  # animates until 1001.35: Bob's clock runs from there
    msgs = t.drain(0)
    assert [m["type"] for m in msgs] == ["play", "table"]  # the new deadline is sent
    assert msgs[1]["turn_left"] == pytest.approx(90.35)  # type: ignore[typeddict-item]
    assert t.next_due() == pytest.approx(1091.35)
    clock.t = 1091.3
    assert t.tick() == 0 and t.state_no == 1
    clock.t = 1091.35
    assert t.tick() == 1
    assert t.log[-1] == (1, "4D") and t.timeout_plays == 1 and t.standin_plays == 1
    seat = t.public()["seats"][1]
    assert (seat["kind"], seat["name"], seat["connected"], seat["timeouts"]) == (
        "person", "Bob", True, 1)
    assert t.token(1) == bob  # Bob keeps his seat and token
    notice = t.public()["notice"]
    assert notice is not None and notice["kind"] == "timed_out" and notice["seat"] == 1
    assert notice["text"] == "Bob took too long: a CPU played for them"
    plays = [m for m in t.drain(0) if m["type"] == "play"]
    assert plays[-1]["by"] == "standin"  # type: ignore[typeddict-item]
    # Ann's turn now: her clock runs from the end of the 4D's animation (1091.70)
    assert t.next_due() == pytest.approx(1091.70 + 90)
    clock.t = 1100.0
    assert t.submit(ann, "3C", 2).ok  # until 1100.35
    clock.t = 1150.0
    assert t.submit(bob, "5D", 3).ok  # Bob plays in time himself
    assert t.public()["seats"][1]["timeouts"] == 1


class Pairs(Race):
    """Race where a turn is two plays (like a Trash turn: draw, then place...)."""

    name = "pairs"

    def apply(self, state: RaceState, seat: int, play: Any) -> tuple[RaceState, list[dict]]:
        new, events = super().apply(state, seat, play)
        if new.winners is None and new.plays % 2 == 1 and new.hands[seat]:
            new = dataclasses.replace(new, turn=seat)  # the turn's second play is to come
        return new, events


register_rules(Pairs())


def test_when_the_clock_runs_out_the_stand_in_finishes_the_whole_turn(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    cfg = {"seats": 2, "target": 99, "hands": HANDS, "deck": []}
    path = tmp_path / "p.tee"
    t = Table.create("pairs", cfg, 7, [ANN, BOB], clock=clock, host_seat=0, cpu=FirstCpu(),
                     save_path=path, fsync=False)
    ann, bob = t.token(0), t.token(1)
    assert t.connect(bob).ok and t.ready(bob).ok and t.start(t.host_token).ok
    assert t.submit(ann, "2C", 0).ok and t.submit(ann, "3C", 1).ok  # until 1000.70
    assert t.next_due() == pytest.approx(1090.70)  # Bob's clock
    clock.t = 1090.70
    assert t.tick() == 1 and t.log[-1] == (1, "4D")  # the clock ran out: the stand-in plays
    assert t.turn_left() is None  # no new clock for the turn's second play:
    assert t.next_due() == pytest.approx(1090.70 + 0.35 + 0.8)  # the stand-in, at CPU pace
    clock.t = 1091.85
    assert t.tick() == 1 and t.log[-1] == (1, "5D") and t.to_move() == 0
    assert t.timeout_plays == 1 and t.public()["seats"][1]["timeouts"] == 1  # one turn
    assert t.turn_left() == pytest.approx(90.35)  # Ann's own clock runs from 1092.20
    clock.t = 1100.0
    assert t.submit(ann, "4C", 4).ok and t.submit(ann, "5C", 5).ok
    clock.t = 1200.0
    assert t.tick() == 1 and t.log[-1] == (1, "6D")  # Bob's clock ran out again ...
    clock.t = 1200.5
    assert t.submit(bob, "7D", 7).ok  # ... but he is back for the second play himself
    assert t.public()["seats"][1]["timeouts"] == 2
    t.close()
    again = Table.resume(path, clock=clock, fsync=False)
    assert again.public()["seats"][1]["timeouts"] == 2  # one per timed-out turn
    again.close()


def test_the_turn_clock_scales_with_the_speed_stops_while_paused_and_can_be_off() -> None:
    clock = FakeClock(1000.0)
    t = started(clock, speed="brisk")
    ann, bob = t.token(0), t.token(1)
    assert t.turn_limit() == pytest.approx(54.0)  # 90 x 0.6
    clock.t = 1010.0
    assert t.turn_left() == pytest.approx(44.0)
    assert t.pause(bob).ok  # the clock stands still while paused
    clock.t = 1500.0
    assert t.turn_left() == pytest.approx(44.0)
    assert t.public()["pause_left"] == 0.0  # the limit ran out, but nobody ticked yet
    assert t.ready(ann).ok and t.ready(bob).ok
    clock.t = 1510.0
    assert t.turn_left() == pytest.approx(34.0)
    assert t.set_turn_clock(t.host_token, None).ok
    assert t.turn_left() is None and t.public()["turn_limit"] is None
    assert t.next_due() is None  # Ann is to move and nothing runs her clock
    clock.t = 9000.0
    assert t.tick() == 0 and t.state_no == 0
    assert t.set_turn_clock(t.host_token, 30).ok  # 30 x 0.6 = 18 s, from the turn's start
    assert t.turn_limit() == pytest.approx(18.0)
    assert t.tick() == 1 and t.log == [(0, "2C")]  # long past: the stand-in plays Ann's turn


def test_bad_clock_settings_are_refused_and_change_nothing() -> None:
    clock = FakeClock(1000.0)
    t = started(clock)
    before = (t.public(), t.state_no)
    for bad in (5, 0, -30, 3601, True, "60", float("nan"), float("inf"), [60]):
        assert t.set_turn_clock(t.host_token, bad).code == "bad_request"  # type: ignore[arg-type]
        assert t.set_pause_limit(t.host_token, bad).code == "bad_request"  # type: ignore[arg-type]
    assert t.set_turn_clock(t.token(1), 60).code == "not_host"
    assert t.set_pause_limit(t.token(1), 60).code == "not_host"
    assert t.end_pause(t.token(1)).code == "not_host"
    assert t.end_pause(t.host_token).code == "not_allowed"  # not paused
    assert (t.public(), t.state_no) == before
    with pytest.raises(TableError, match="turn_clock"):
        table(clock, turn_clock=2)


def test_people_who_share_one_screen_have_no_clocks() -> None:
    clock = FakeClock(1000.0)
    t = table(clock, second=SeatSpec("person", "Cy", local=True))
    assert t.start(t.host_token).ok
    assert t.turn_limit() is None and t.turn_left() is None and t.next_due() is None
    assert t.pause(t.token(0)).ok
    clock.t = 5000.0
    assert t.tick() == 0 and t.paused() and t.public()["pause_left"] is None


# ------------------------------------------------------------------------------ pause limit


def test_a_pause_nobody_resumes_ends_after_the_limit_and_says_why() -> None:
    clock = FakeClock(1000.0)
    t = started(clock)
    bob = t.token(1)
    clock.t = 1005.0
    assert t.pause(bob).ok
    assert t.public()["pause_left"] == pytest.approx(120.0)
    assert t.next_due() == pytest.approx(1125.0)
    clock.t = 1124.9
    assert t.tick() == 0 and t.paused()
    assert t.public()["pause_left"] == pytest.approx(0.1)
    clock.t = 1125.0
    t.tick()
    assert not t.paused() and t.pause_reasons() == []
    seats = t.public()["seats"]
    assert seats[0]["ready"] and seats[1]["ready"]  # treated as ready: they are still here
    notice = t.public()["notice"]
    assert notice is not None and notice["kind"] == "pause_ended"
    assert notice["text"] == (
        "Nobody resumed play within 2 min: the game goes on (Ann, Bob not ready)")
    # the pause was cut out of table time: Ann's turn clock had 85 s left, it still has
    assert t.turn_left() == pytest.approx(85.0)
    # Bob cannot stall the table in 2-minute pieces: no new pause from him for 120 s of play
    # (table time: it stands still while paused), but others (and the host) may pause
    clock.t = 1130.0
    r = t.pause(bob)
    assert r.code == "not_allowed" and "115 s" in r.message
    assert not t.paused()
    clock.t = 1245.0  # 120 s of play since the pause ended at 1125
    assert t.pause(bob).ok
    assert t.end_pause(t.host_token).ok
    assert t.pause(bob).code == "not_allowed"  # the host had to end it: the same
    assert t.pause(t.token(0)).ok  # Ann (the host's seat) may


def test_a_person_who_never_taps_ready_after_joining_does_not_hold_the_table() -> None:
    clock = FakeClock(1000.0)
    t = table(clock)
    assert t.connect(t.token(1)).ok  # Bob joins and never taps Ready
    clock.t = 1030.0
    assert t.start(t.host_token).ok
    assert t.pause_reasons() == [{"reason": "ready", "seats": [1]}]
    assert t.next_due() == pytest.approx(1150.0)  # counted from the start, not the lobby
    clock.t = 1150.0
    t.tick()
    assert t.pause_reasons() == []
    assert t.public()["notice"]["text"].endswith("(Bob not ready)")  # type: ignore[index]


def test_the_host_ends_a_pause_and_an_off_limit_never_ends_one() -> None:
    clock = FakeClock(1000.0)
    t = started(clock, pause_limit=None)
    assert t.pause(t.token(1)).ok
    assert t.next_due() is None and t.public()["pause_left"] is None
    clock.t = 100000.0
    assert t.tick() == 0 and t.paused()
    assert t.end_pause(t.host_token).ok
    assert not t.paused()
    assert t.public()["notice"]["text"] == (  # type: ignore[index]
        "The host resumed play: the game goes on (Ann, Bob not ready)")


# ------------------------------------------------------------------------------ seats


def test_the_host_hands_a_connected_persons_seat_to_a_cpu_and_they_may_come_back() -> None:
    clock = FakeClock(1000.0)
    t = started(clock)
    bob = t.token(1)
    assert t.hand_to_cpu(t.host_token, 1, "easy").ok  # Bob is connected: allowed for the host
    seat = t.public()["seats"][1]
    assert (seat["kind"], seat["level"], seat["left"], seat["returnable"], seat["removed"]) == (
        "cpu", "easy", "Bob", True, False)
    assert t.submit(bob, "4D", 0).code == "bad_token"  # his token stopped working
    assert t.former_seat(bob) == 1
    assert t.public()["notice"]["text"] == "The host handed Bob's seat to a CPU (easy)"  # type: ignore[index]
    assert t.come_back(bob).ok
    assert t.seat_of(bob) == 1 and t.public()["seats"][1]["kind"] == "person"
    assert t.connect(bob).ok and t.pause_reasons() == [{"reason": "joining", "seats": [1]}]


def test_remove_bans_the_token_until_the_host_allows_and_the_save_keeps_it(tmp_path: Path
                                                                         ) -> None:
    clock = FakeClock(1000.0)
    path = tmp_path / "t.tee"
    t = started(clock, save=path)
    bob = t.token(1)
    assert t.remove(bob, 1).code == "not_host"
    assert t.remove(t.host_token, 0).code == "not_allowed"  # the host's own seat
    assert t.remove(t.host_token, 1).ok
    seat = t.public()["seats"][1]
    assert (seat["kind"], seat["removed"], seat["returnable"]) == ("cpu", True, False)
    assert t.come_back(bob).code == "not_allowed"
    assert t.remove(t.host_token, 1).code == "not_allowed"  # already a CPU
    t.close()
    again = Table.resume(path, clock=clock, fsync=False)
    assert again.former_seat(bob) == 1 and again.public()["seats"][1]["removed"] is True
    assert again.come_back(bob).code == "not_allowed"
    assert again.allow(again.host_token, 1).ok
    assert again.allow(again.host_token, 0).code == "not_allowed"  # nobody removed there
    assert again.come_back(bob).ok and again.token(1) == bob
    again.close()


def test_clock_settings_and_timeouts_are_saved_and_old_saves_keep_the_defaults(tmp_path: Path
                                                                              ) -> None:
    clock = FakeClock(1000.0)
    old = tmp_path / "old.tee"
    t = table(clock, save=old)  # the defaults write no record: the file is as before
    assert b"turn_clock" not in old.read_bytes()
    t.close()
    again = Table.resume(old, clock=clock, fsync=False)
    assert (again.turn_clock, again.pause_limit) == (90.0, 120.0)
    again.close()

    path = tmp_path / "t.tee"
    t = started(clock, save=path, turn_clock=None)
    assert t.set_turn_clock(t.host_token, 20).ok and t.set_pause_limit(t.host_token, None).ok
    clock.t = 1021.0
    assert t.tick() == 1  # Ann's 20 s ran out: the stand-in played her turn
    t.close()
    again = Table.resume(path, clock=clock, fsync=False)
    assert (again.turn_clock, again.pause_limit) == (20.0, None)
    assert again.public()["seats"][0]["timeouts"] == 1 and again.log == [(0, "2C")]
    again.close()


# ------------------------------------------------------------------------------ the glue


def test_the_admins_outbox_is_dropped_when_it_disconnects() -> None:
    clock = FakeClock(1000.0)
    cfg = {"seats": 2, "target": 99, "hands": HANDS, "deck": []}
    t = Table.create("race", cfg, 7, [SeatSpec("person", "Ann"), BOB], clock=clock,
                     cpu=FirstCpu())  # a headless host: the admin has no seat
    glue = TableGlue(t)
    admin = glue.join("Admin", t.host_token)
    glue.connected(admin, True)
    assert glue.snapshot(admin)["seat"] is None
    glue.connected(admin, False)  # the admin goes away ...
    for _ in range(30):  # ... while the table changes
        assert t.set_speed(admin, "brisk").ok and t.set_speed(admin, "normal").ok
    assert glue.collect({None}) == {}  # nothing was kept for it
    glue.connected(admin, True)
    assert glue.snapshot(admin)["t"] == "snapshot"
    assert glue.collect({None}) == {}  # the snapshot comes first, no stale frame before it


def test_the_glue_ends_a_removed_connection_and_lets_it_back_only_to_watch() -> None:
    clock = FakeClock(1000.0)
    t = started(clock)
    glue = TableGlue(t)
    bob = t.token(1)
    glue.snapshot(bob)
    host = t.host_token
    assert glue.intent(host, validate_client({"t": "remove", "seat": 1})) is None
    assert glue.take_ended() == [(bob, "removed")]
    assert bob in glue.secrets() and t.token(1) not in glue.secrets()  # a CPU's: no
    assert glue.take_ended() == []  # given once
    assert t.set_speed(host, "brisk").ok
    assert 1 not in glue.collect({0, 1})  # the stale connection is not fed the CPU's hand
    t.snapshot(None)  # someone reads the spectators' box (seat None) ...
    glue.connected(bob, False)  # ... and Bob's stale connection closing leaves it alone
    assert t.set_speed(host, "blitz").ok
    assert glue.collect({None})[None][-1]["speed"] == "blitz"
    with pytest.raises(Refusal) as no:  # its intents are refused in words
        glue.intent(bob, validate_client({"t": "pause"}))
    assert no.value.code == "removed" and "watch" in no.value.message
    assert glue.join("Bob", bob) == bob and glue.seat_of(bob) is None  # a watcher
    snap = glue.snapshot(bob)
    assert snap["seat"] is None and snap["seats"][1]["removed"] is True
    assert snap["notice"]["kind"] == "removed"
    validate_host(snap)  # the new fields pass the wire's own checks
    glue.connected(bob, False)  # the watcher leaves: the spectators' box goes with it
    assert t.set_speed(host, "normal").ok and t.set_speed(host, "blitz").ok
    assert glue.collect({None}) == {}
    glue.intent(host, validate_client({"t": "allow", "seat": 1}))
    assert glue.join("Bob", bob) == bob and glue.seat_of(bob) == 1  # back in his seat
    glue.connected(bob, True)
    assert glue.snapshot(bob)["seat"] == 1
    assert t.set_speed(host, "normal").ok
    assert glue.collect({1})[1][0]["speed"] == "normal"
    # handing his seat to a CPU again: ended as "handed"; he may take it back by joining
    glue.intent(host, validate_client({"t": "hand_to_cpu", "seat": 1, "level": "easy"}))
    assert glue.take_ended() == [(bob, "handed")]
    assert glue.join("Bob", bob) == bob and glue.seat_of(bob) == 1


def test_the_clock_intents_on_the_wire() -> None:
    clock = FakeClock(1000.0)
    t = started(clock)
    glue = TableGlue(t)
    host = t.host_token
    glue.intent(host, validate_client({"t": "turn_clock", "seconds": 45}))
    glue.intent(host, validate_client({"t": "pause_limit", "seconds": None}))
    assert (t.turn_clock, t.pause_limit) == (45.0, None)
    with pytest.raises(Refusal) as no:
        glue.intent(host, validate_client({"t": "turn_clock", "seconds": 1}))
    assert no.value.code == "bad_request" and t.turn_clock == 45.0
    with pytest.raises(Refusal) as no:
        glue.intent(t.token(1), validate_client({"t": "end_pause"}))
    assert no.value.code == "not_host"
    assert glue.intent(t.token(1), validate_client({"t": "pause"})) is None
    glue.intent(host, validate_client({"t": "end_pause"}))
    assert not t.paused()
    with pytest.raises(ProtocolError):
        validate_client({"t": "turn_clock", "seconds": "soon"})
    with pytest.raises(ProtocolError):
        validate_client({"t": "remove"})
