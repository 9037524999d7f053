"""The table with the "race" double: the one play path, pacing, pause, seats, points, undo.

Every number here is worked by hand from the race rules (tests/test_table_support.py) and the
speed table in game/table.py: at "normal", a race play animates "play" 0.35 s + "draw" 0.3 s,
a CPU waits 0.8 s after the animations, a stand-in waits a 20 s grace.
"""

from __future__ import annotations

import pytest
from test_table_support import FakeClock, FirstCpu

from game.cpu_worker import CpuFailed, CpuJob
from game.rules.cards import parse_card
from game.table import SPEEDS, SeatSpec, Table, TableError, event_duration

ANN = SeatSpec("person", "Ann", local=True)


def two_seat(clock: FakeClock, hands: list[list[str]], deck: list[str], target: int = 10,
             second: SeatSpec | None = None, speed: str = "normal") -> Table:
    cfg = {"seats": 2, "target": target, "hands": hands, "deck": deck}
    return Table.create("race", cfg, 7, [ANN, second or SeatSpec("cpu", level="easy")],
                        clock=clock, speed=speed, host_seat=0, cpu=FirstCpu())


def test_speed_table_and_event_durations() -> None:
    assert list(SPEEDS) == ["relaxed", "normal", "brisk", "blitz"]
    play = {"type": "play", "seat": 0, "card": 8}
    assert event_duration(play) == pytest.approx(0.35)
    assert event_duration(play, "blitz") == pytest.approx(0.35 * 0.3)
    # a peg stepping through 5 holes: 0.1 fixed + 5 * 0.14
    assert event_duration({"type": "move", "path": [1, 2, 3, 4, 5]}) == pytest.approx(0.8)
    assert event_duration({"type": "something new"}) == pytest.approx(0.25)
    # a layout deal of two 10-card layouts: 0.4 + 20 * 0.05
    assert event_duration({"type": "dealt", "sizes": [10, 10]}, "relaxed") == pytest.approx(2.24)


def test_cpu_play_released_only_after_animations_and_wait() -> None:
    clock = FakeClock(1000.0)
    t = two_seat(clock, [["2C", "3C"], ["4D", "5D"]], ["6H", "7H"])
    ann = t.token(0)
    assert t.pause_reasons() == [{"reason": "lobby"}]
    assert not t.submit(ann, "2C", 0)  # not started
    assert t.start(t.host_token)
    assert t.pause_reasons() == []
    clock.t = 1001.0
    r = t.submit(ann, "2C", 0)
    assert r.ok and r.state_no == 1
    assert t.busy_for() == pytest.approx(0.65)
    assert t.next_due() == pytest.approx(1001.0 + 0.65 + 0.8)
    clock.t = 1002.44
    assert t.tick() == 0 and t.state_no == 1
    clock.t = t.next_due()
    assert t.tick() == 1
    assert t.log == [(0, "2C"), (1, "4D")]  # the stub CPU plays its first legal play
    assert t.next_due() is None  # Ann's turn: nothing to do until she plays


def test_refusals_change_nothing() -> None:
    clock = FakeClock()
    bob = SeatSpec("person", "Bob")
    t = two_seat(clock, [["2C", "3C"], ["4D", "5D"]], ["6H"], second=bob)
    bob_token = t.token(1)
    assert t.connect(bob_token)
    assert t.ready(bob_token)
    assert t.start(t.host_token)
    ann = t.token(0)
    before = (t.state_no, t.log, t.state)
    cases = [
        (t.submit("not a token", "2C", 0), "bad_token"),
        (t.submit(bob_token, "4D", 0), "not_your_turn"),  # a play for another seat
        (t.submit(ann, "2C", 5), "stale_state"),
        (t.submit(ann, "4D", 0), "illegal_play"),  # not in Ann's hand
        (t.submit(ann, "XX", 0), "illegal_play"),  # cannot be read
    ]
    for result, code in cases:
        assert not result.ok and result.code == code, (result, code)
        assert (t.state_no, t.log, t.state) == before
    assert cases[0][0].message == "bad token"
    assert cases[1][0].message == "not your turn"
    assert cases[2][0].message.startswith("stale state")
    assert cases[3][0].message.startswith("illegal play: ")
    assert t.submit(ann, "2C", 0).ok
    assert t.submit(ann, "3C", 1).code == "not_your_turn"
    assert t.submit(bob_token, "4D", 0).code == "stale_state"
    assert t.submit(bob_token, "4D", 1).ok


def test_cpu_seat_token_is_not_a_person() -> None:
    clock = FakeClock()
    t = two_seat(clock, [["2C"], ["4D"]], [])
    t.start(t.host_token)
    r = t.submit(t.token(1), "4D", 0)
    assert r.code == "bad_token" and "CPU" in r.message


def test_pause_from_any_seat_blocks_every_play_until_all_ready() -> None:
    clock = FakeClock(1000.0)
    bob = SeatSpec("person", "Bob")
    cfg = {"seats": 4, "target": 99, "teams": True,
           "hands": [["2C", "3C"], ["4D", "5D"], ["6H", "7H"], ["8S", "9S"]], "deck": []}
    t = Table.create("race", cfg, 1, [ANN, SeatSpec("cpu"), SeatSpec("cpu"), bob],
                     clock=clock, host_seat=0, cpu=FirstCpu())
    ann, bobt = t.token(0), t.token(3)
    t.connect(bobt)
    t.start(t.host_token)
    assert t.pause_reasons() == [{"reason": "ready", "seats": [3]}]
    assert t.submit(ann, "2C", 0).code == "paused"
    t.ready(bobt)
    assert t.pause_reasons() == []
    clock.t = 1001.0
    assert t.submit(ann, "2C", 0).ok  # busy until 1001.0 + 0.35 (no deck: no draw)
    clock.t = 1001.2
    assert t.pause(bobt).ok  # Bob (not to move) pauses for everyone
    assert t.paused_by() == 3
    assert t.pause_reasons() == [
        {"reason": "paused", "by": 3, "name": "Bob"},
        {"reason": "ready", "seats": [0, 3]},
    ]
    for dt in (1.0, 10.0, 100.0):
        clock.t = 1001.2 + dt
        assert t.tick() == 0
        assert t.next_due() == pytest.approx(1001.2 + 120)  # the pause limit
    assert t.state_no == 1
    assert t.ready(ann).ok
    assert t.pause_reasons()[0]["by"] == 3  # still waiting for Bob
    clock.t = 1200.0
    t.ready(bobt)
    assert t.pause_reasons() == [] and t.paused_by() is None
    # remaining animation 0.15 s + CPU wait 0.8 s, counted from the end of the pause
    assert t.next_due() == pytest.approx(1200.0 + 0.15 + 0.8)
    clock.t = t.next_due()
    assert t.tick() == 1 and t.log[-1] == (1, "4D")
    # the seat to move is also refused while paused; the host (no seat) can pause and resume
    clock.t += 5
    assert t.tick() == 1  # seat 2 (CPU) plays 6H
    assert t.to_move() == 3
    t.pause(t.host_token)
    assert t.pause_reasons()[0] == {"reason": "paused", "by": None, "name": "the host"}
    assert t.submit(bobt, "8S", 3).code == "paused"
    t.ready(ann)
    t.ready(bobt)
    assert t.pause_reasons() == []
    assert t.submit(bobt, "8S", 3).ok


def test_host_without_a_seat_pauses_until_it_readies() -> None:
    clock = FakeClock()
    cfg = {"seats": 2, "target": 99}
    t = Table.create("race", cfg, 3, None, clock=clock, cpu=FirstCpu())  # two CPUs, a headless host
    t.start(t.host_token)
    assert t.pause(t.host_token).ok
    assert t.pause_reasons() == [{"reason": "paused", "by": None, "name": "the host"}]
    clock.advance(100)
    assert t.tick() == 0
    assert t.ready(t.host_token).ok
    assert t.pause_reasons() == []
    clock.advance(100)
    assert t.tick() == 1


def test_lobby_sit_take_leave_set_cpu_and_start_permissions() -> None:
    clock = FakeClock()
    t = Table.create("race", {"seats": 4, "teams": True}, 5, None, clock=clock, cpu=FirstCpu())
    r = t.sit("  Cy   Lee ")
    assert r.ok and r.data["seat"] == 0
    cy = r.data["token"]
    assert t.seat_of(cy) == 0 and t.snapshot(None)["seats"][0]["name"] == "Cy Lee"
    assert t.take_seat(0, "Di").code == "not_allowed"
    assert t.take_seat(9, "Di").code == "bad_request"
    assert t.take_seat(2, "").code == "bad_request"
    assert t.take_seat(2, "Al\x00ice").code == "bad_request"  # no control characters
    assert t.take_seat(2, "x" * 25).code == "bad_request"
    di = t.take_seat(2, "Di").data["token"]
    assert t.snapshot(None)["seats"][2]["symbol"] == t.snapshot(None)["seats"][0]["symbol"]
    assert t.snapshot(None)["seats"][1]["symbol"] != t.snapshot(None)["seats"][0]["symbol"]
    assert t.set_cpu(cy, 1, "nasty").code == "not_host"
    assert t.set_cpu(t.host_token, 0, "nasty").code == "not_allowed"  # a person
    assert t.set_cpu(t.host_token, 1, "wild").code == "bad_request"
    assert t.set_cpu(t.host_token, 1, "nasty").ok
    assert t.snapshot(None)["seats"][1]["level"] == "nasty"
    assert t.leave(di).ok
    assert t.seat_of(di) is None  # the old token is dead
    assert t.snapshot(None)["seats"][2]["kind"] == "cpu"
    assert t.start(cy).code == "not_host"
    assert t.start(t.host_token).ok
    assert t.start(t.host_token).code == "not_allowed"
    assert t.take_seat(3, "Ed").code == "not_allowed"  # the game is on
    assert t.pause_reasons() == [{"reason": "ready", "seats": [0]}]
    t.ready(cy)
    assert t.pause_reasons() == []


def test_rename_in_the_lobby_only_by_the_seat_itself_and_saved(tmp_path) -> None:
    clock = FakeClock()
    path = tmp_path / "t.jsonl"
    t = Table.create("race", {"seats": 4}, 5, None, clock=clock, cpu=FirstCpu(),
                     save_path=path, fsync=False)
    cy = t.sit("Cy").data["token"]
    di = t.take_seat(2, "Player 2", local=True).data["token"]
    assert t.rename(di, "  Di   Ann ").ok
    assert t.snapshot(None)["seats"][2]["name"] == "Di Ann"
    assert t.snapshot(None)["seats"][0]["name"] == "Cy"  # only the token's own seat
    assert t.rename("nobody", "Zed").code == "bad_token"
    assert t.rename(t.token(1), "Zed").code == "bad_token"  # a CPU seat's token
    assert t.rename(cy, "").code == "bad_request"
    assert t.rename(cy, "x" * 25).code == "bad_request"
    assert t.snapshot(None)["seats"][0]["name"] == "Cy"
    t.start(t.host_token)
    assert t.rename(cy, "Cyril").code == "not_allowed"
    assert t.snapshot(None)["seats"][0]["name"] == "Cy"
    t.close()
    again = Table.resume(path, clock=FakeClock(), cpu=FirstCpu())
    assert [s["name"] for s in again.snapshot(None)["seats"]][::2] == ["Cy", "Di Ann"]
    again.close()


def test_create_refuses_bad_arguments() -> None:
    clock = FakeClock()
    with pytest.raises(TableError):
        Table.create("chess", {}, 1, None, clock=clock)
    with pytest.raises(TableError):
        Table.create("race", {"seats": 2}, 1, [SeatSpec()], clock=clock)
    with pytest.raises(TableError):
        Table.create("race", {"seats": 2}, -1, None, clock=clock)
    with pytest.raises(TableError):
        Table.create("race", {"seats": 2}, 1, None, clock=clock, speed="warp")
    with pytest.raises(TableError):
        Table.create("race", {"seats": 2}, 1, [SeatSpec("person", ""), SeatSpec()], clock=clock)
    with pytest.raises(TableError):
        Table.create("race", {"seats": 2}, 1, None, clock=clock, host_seat=1)  # a CPU seat


def test_stand_in_after_grace_then_person_takes_over() -> None:
    clock = FakeClock(1000.0)
    bob = SeatSpec("person", "Bob")
    t = two_seat(clock, [["2C", "3C", "4C"], ["4D", "5D", "6D"]], [], target=99, second=bob)
    ann, bobt = t.token(0), t.token(1)
    t.connect(bobt)
    t.ready(bobt)
    t.start(t.host_token)
    clock.t = 1010.0
    assert t.disconnect(bobt).ok
    assert t.snapshot(0)["seats"][1]["connected"] is False
    assert t.pause_reasons() == []  # a missing person does not stop the game
    clock.t = 1011.0
    assert t.submit(ann, "2C", 0).ok  # animations until 1011.35
    # the stand-in waits the 20 s grace after the animations
    assert t.next_due() == pytest.approx(1031.35)
    clock.t = 1031.3
    assert t.tick() == 0
    clock.t = 1031.35
    assert t.tick() == 1
    assert t.log[-1] == (1, "4D") and t.standin_plays == 1
    assert t.snapshot(0)["seats"][1]["standin"] is True
    assert t.submit(ann, "3C", 2).ok
    # Bob comes back before the next grace runs out: no pause, he just catches up and plays
    clock.t = 1040.0
    assert t.connect(bobt).ok
    assert t.pause_reasons() == []
    assert t.snapshot(0)["seats"][1]["standin"] is False
    # Bob is here: no stand-in, only his turn clock (90 s at normal from the animations' end:
    # the stand-in's 4D ran to 1031.70, Ann's 3C from there to 1032.05)
    assert t.next_due() == pytest.approx(1032.05 + 90)
    clock.t = 1122.0
    assert t.tick() == 0
    assert t.submit(bobt, "6D", 3).ok
    assert t.standin_plays == 1


def test_a_first_connection_mid_game_waits_for_ready_but_a_return_during_a_pause_must_ready(
) -> None:
    clock = FakeClock(1000.0)
    bob = SeatSpec("person", "Bob")
    t = two_seat(clock, [["2C", "3C", "4C"], ["4D", "5D", "6D"]], [], target=99, second=bob)
    ann, bobt = t.token(0), t.token(1)
    t.start(t.host_token)  # Bob has not shown up: the game goes on without him
    assert t.pause_reasons() == []
    assert t.connect(bobt).ok  # his first connection: everyone waits for his Ready
    assert t.pause_reasons() == [{"reason": "joining", "seats": [1]}]
    assert t.submit(ann, "2C", 0).code == "paused"
    assert t.ready(bobt).ok
    assert t.submit(ann, "2C", 0).ok
    # Bob drops; Ann pauses; Bob returns while the pause is on: he must tap Ready too
    t.disconnect(bobt)
    t.pause(ann)
    t.ready(ann)
    assert t.pause_reasons() == []  # only connected people count
    t.pause(ann)
    t.connect(bobt)
    assert t.pause_reasons() == [
        {"reason": "paused", "by": 0, "name": "Ann"}, {"reason": "ready", "seats": [0, 1]},
    ]
    t.ready(ann)
    t.ready(bobt)
    assert t.pause_reasons() == []


def test_grace_counts_from_the_drop_and_stops_while_paused() -> None:
    clock = FakeClock(1000.0)
    bob = SeatSpec("person", "Bob")
    t = two_seat(clock, [["2C", "3C"], ["4D", "5D"]], [], target=99, second=bob,
                 speed="blitz")
    ann, bobt = t.token(0), t.token(1)
    t.connect(bobt)
    t.ready(bobt)
    t.start(t.host_token)
    clock.t = 1001.0
    t.submit(ann, "2C", 0)  # blitz: 0.35 * 0.3 = 0.105 s of animation
    clock.t = 1003.0
    t.disconnect(bobt)  # Bob drops on his own turn: grace (6 s at blitz) from now
    assert t.next_due() == pytest.approx(1009.0)
    clock.t = 1004.0
    t.pause(ann)
    clock.t = 1050.0
    t.ready(ann)  # 46 s paused do not count
    assert t.next_due() == pytest.approx(1055.0)
    clock.t = 1054.9
    assert t.tick() == 0
    clock.t = 1055.0
    assert t.tick() == 1 and t.standin_plays == 1


def test_hand_to_cpu_by_self_and_by_host_and_points() -> None:
    clock = FakeClock()
    cfg = {"seats": 4, "target": 30, "teams": True,
           "hands": [["KS", "QS"], ["2C", "3C"], ["KH", "QH"], ["2D", "3D"]], "deck": []}
    seats = [ANN, SeatSpec("cpu", level="easy"), SeatSpec("cpu", level="nasty"),
             SeatSpec("person", "Bob")]
    t = Table.create("race", cfg, 2, seats, clock=clock, host_seat=0, cpu=FirstCpu())
    ann, bobt = t.token(0), t.token(3)
    t.connect(bobt)
    t.ready(bobt)
    t.start(t.host_token)
    assert t.hand_to_cpu(t.token(1), 3, "easy").code == "bad_token"  # a CPU's token: no host
    assert t.hand_to_cpu("nope", 3, "easy").code == "bad_token"
    assert t.hand_to_cpu(t.host_token, 1, "easy").code == "not_allowed"  # already a CPU
    assert t.submit(ann, "KS", 0).ok
    # raising a CPU's level near the end does not raise what beating it is worth
    assert t.set_cpu(t.host_token, 1, "nasty").ok
    clock.advance(10)
    assert t.tick() == 1  # seat 1 plays 2C
    clock.advance(10)
    assert t.tick() == 1  # seat 2 plays QH (first legal): team 0+2 has 25
    assert t.to_move() == 3
    assert t.submit(bobt, "2D", 3).ok
    assert t.submit(ann, "QS", 4).ok  # 37: team 0+2 wins
    assert t.phase == "over"
    assert t.outcome()["winners"] == [0, 2]
    # Ann beat seat 1 (Easy for part of the game: 1) and Bob (a person: 3); the CPU partner
    # earns nothing
    assert t.points() == {0: 4}
    res = t.result()
    assert res["people"] == [
        {"seat": 0, "name": "Ann", "points": 4, "won": True},
        {"seat": 3, "name": "Bob", "points": 0, "won": False},
    ]
    assert res["rules"] == "race" and res["solo"] is False


def test_a_person_who_hands_over_forfeits_and_the_seat_is_worth_its_cpu() -> None:
    clock = FakeClock()
    cfg = {"seats": 4, "target": 30, "teams": True,
           "hands": [["2D", "3D"], ["KS", "QS"], ["2C", "3C"], ["KH", "QH"]], "deck": []}
    seats = [SeatSpec("person", "Bob"), ANN, SeatSpec("cpu", level="tricky"),
             SeatSpec("cpu", level="tricky")]
    t = Table.create("race", cfg, 2, seats, clock=clock, host_seat=1, cpu=FirstCpu())
    bobt = t.token(0)
    t.connect(bobt)
    t.ready(bobt)
    t.start(t.host_token)
    assert t.hand_to_cpu(bobt, 0, "easy").ok  # Bob leaves for good
    assert t.seat_of(bobt) is None
    assert t.submit(bobt, "2D", 0).code == "bad_token"
    plays = 0
    while t.phase == "playing":
        clock.advance(5)
        if t.to_move() == 1:
            legal = t.snapshot(1)["view"]["legal"]
            assert t.submit(t.token(1), legal[-1], t.state_no).ok
        else:
            plays += t.tick()
    # seat 0 (Easy CPU) 2D, Ann KS 13, seat 2 2C, seat 3 QH 12 -> 25, seat 0 3D,
    # Ann QS 12 -> 37: team 1+3 wins
    assert t.log == [(0, "2D"), (1, "KS"), (2, "2C"), (3, "QH"), (0, "3D"), (1, "QS")]
    assert t.outcome()["winners"] == [1, 3]
    assert t.points() == {1: 1 + 2}  # the Easy CPU that replaced Bob, and a Tricky CPU
    people = t.result()["people"]
    assert people == [
        {"seat": 0, "name": "Bob", "points": 0, "won": False},
        {"seat": 1, "name": "Ann", "points": 3, "won": True},
    ]


def test_free_for_all_points_and_cpu_only_table_has_no_people() -> None:
    clock = FakeClock()
    cfg = {"seats": 3, "target": 10, "hands": [["KS"], ["2C"], ["2D"]], "deck": []}
    seats = [ANN, SeatSpec("cpu", level="easy"), SeatSpec("person", "Bob", local=True)]
    t = Table.create("race", cfg, 2, seats, clock=clock, host_seat=0, cpu=FirstCpu())
    t.start(t.host_token)
    t.submit(t.token(0), "KS", 0)
    assert t.points() == {0: 1 + 3}
    t2 = Table.create("race", cfg, 2, None, clock=clock, cpu=FirstCpu())
    t2.start(t2.host_token)
    while t2.phase != "over":
        clock.advance(3)
        t2.tick()
    assert t2.points() == {} and t2.result()["people"] == []


def test_solo_counts_turns_and_undo_keeps_the_deck_order() -> None:
    clock = FakeClock()
    cfg = {"seats": 1, "target": 12, "hands": [["2C", "3C"]], "deck": ["4H", "5H", "6H"]}
    t = Table.create("race", cfg, 9, [ANN], clock=clock, host_seat=0, cpu=FirstCpu())
    me = t.token(0)
    assert t.undo(me).code == "not_started"
    t.start(me)
    assert t.undo(me).code == "not_allowed"  # nothing to undo
    assert t.submit(me, "2C", 0).ok  # draws 4H
    assert t.turns == 1
    assert t.snapshot(0)["view"]["hand"] == [parse_card("3C"), parse_card("4H")]
    r = t.undo(me)
    assert r.ok and r.data["play"] == "2C"
    assert t.turns == 0 and t.state_no == 2  # state numbers never go back
    assert t.snapshot(0)["view"]["hand"] == [parse_card("2C"), parse_card("3C")]
    assert t.submit(me, "3C", 2).ok
    assert t.snapshot(0)["view"]["hand"] == [parse_card("2C"), parse_card("4H")]  # same 4H
    assert t.submit(me, "4H", 3).ok  # draws 5H: total 7
    assert t.submit(me, "5H", 4).ok  # 12: done in 3 turns
    assert t.phase == "over" and t.turns == 3
    assert t.undo(me).code == "game_over"
    res = t.result()
    assert res["solo"] is True and res["turns"] == 3 and res["people"] == []
    assert t.points() == {}


def test_undo_only_in_solo() -> None:
    clock = FakeClock()
    t = two_seat(clock, [["2C"], ["4D"]], [], target=99)
    t.start(t.host_token)
    t.submit(t.token(0), "2C", 0)
    assert t.undo(t.token(0)).code == "not_allowed"


def test_outboxes_filter_hands_and_carry_state_numbers() -> None:
    clock = FakeClock()
    bob = SeatSpec("person", "Bob")
    cfg = {"seats": 2, "target": 99, "hands": [["2C", "3C"], ["4D", "5D"]],
           "deck": ["6H", "7H", "8H", "9H"]}
    t = Table.create("race", cfg, 1, [ANN, bob], clock=clock, host_seat=0, cpu=FirstCpu())
    ann, bobt = t.token(0), t.token(1)
    snap0, snap1 = t.snapshot(0), t.snapshot(1)
    assert snap0["view"]["hand"] == [parse_card("2C"), parse_card("3C")]
    assert snap1["view"]["hand"] == [parse_card("4D"), parse_card("5D")]
    t.snapshot(None)
    for s in (snap0, snap1):
        assert not any(k in str(s) for k in (ann, bobt, t.host_token))  # no secrets
    t.connect(bobt)
    t.ready(bobt)
    t.start(t.host_token)
    t.submit(ann, "2C", 0)  # Ann draws 6H
    t.submit(bobt, "4D", 1)  # Bob draws 7H
    box0 = [m for m in t.drain(0) if m["type"] == "play"]
    box1 = [m for m in t.drain(1) if m["type"] == "play"]
    spect = [m for m in t.drain(None) if m["type"] == "play"]
    assert [m["state_no"] for m in box0] == [1, 2] == [m["state_no"] for m in box1]
    draws0 = [e["card"] for m in box0 for e in m["events"] if e["type"] == "draw"]
    draws1 = [e["card"] for m in box1 for e in m["events"] if e["type"] == "draw"]
    drawsn = [e["card"] for m in spect for e in m["events"] if e["type"] == "draw"]
    assert draws0 == [parse_card("6H"), None]
    assert draws1 == [None, parse_card("7H")]
    assert drawsn == [None, None]
    assert box0[-1]["view"]["hand"] == [parse_card("3C"), parse_card("6H")]
    assert box1[-1]["view"]["hand"] == [parse_card("5D"), parse_card("7H")]
    assert spect[-1]["view"]["hand"] is None
    assert t.drain(0) == []  # drained


def test_table_messages_on_pause_and_speed() -> None:
    clock = FakeClock()
    t = two_seat(clock, [["2C"], ["4D"]], [], target=99)
    t.start(t.host_token)
    t.drain(0)
    assert t.set_speed(t.token(1), "blitz").code == "not_host"
    assert t.set_speed(t.host_token, "warp").code == "bad_request"
    assert t.set_speed(t.token(0), "blitz").ok  # the host's seat token is a host token
    t.pause(t.token(0))
    msgs = t.drain(0)
    assert [m["type"] for m in msgs] == ["table", "table"]
    assert msgs[0]["speed"] == "blitz"
    assert msgs[1]["pause"][0] == {"reason": "paused", "by": 0, "name": "Ann"}


def test_hot_seat_cover_and_tap_in() -> None:
    clock = FakeClock()
    cfg = {"seats": 3, "target": 99, "hands": [["2C"], ["3C"], ["4C"]], "deck": []}
    seats = [ANN, SeatSpec("cpu"), SeatSpec("person", "Bo", local=True)]
    t = Table.create("race", cfg, 1, seats, clock=clock, host_seat=0, cpu=FirstCpu())
    t.start(t.host_token)
    assert t.screen_owner() == 0 and t.cover_needed()
    assert t.tap_in(t.token(2)).code == "not_allowed"  # not Bo's turn
    assert t.tap_in(t.token(0)).ok
    assert not t.cover_needed()
    t.submit(t.token(0), "2C", 0)
    assert t.screen_owner() == 0 and not t.cover_needed()  # the CPU is to move
    clock.advance(5)
    t.tick()
    assert t.screen_owner() == 2 and t.cover_needed()
    t.tap_in(t.token(2))
    assert not t.cover_needed()
    # one local person never needs a cover
    t1 = two_seat(clock, [["2C"], ["4D"]], [])
    t1.start(t1.host_token)
    assert t1.screen_owner() == 0 and not t1.cover_needed()


class FlakyCpu:
    """A runner whose CPU answers something illegal, then fails."""

    def __init__(self) -> None:
        self.calls = 0

    def request(self, key: object, job: CpuJob) -> None:
        self.calls += 1

    def poll(self, key: object) -> str | None:
        if self.calls == 1:
            return "KS"  # not in its hand
        raise CpuFailed("worker died")

    def cancel(self, key: object) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_broken_cpu_falls_back_to_the_first_legal_play() -> None:
    clock = FakeClock()
    cfg = {"seats": 2, "target": 99, "hands": [["2C", "3C"], ["4D", "5D"]], "deck": []}
    t = Table.create("race", cfg, 1, None, clock=clock, cpu=FlakyCpu())
    t.start(t.host_token)
    clock.advance(5)
    assert t.tick() == 1 and t.log == [(0, "2C")]
    clock.advance(5)
    assert t.tick() == 1 and t.log == [(0, "2C"), (1, "4D")]
    assert len(t.warnings) == 2 and "illegal" in t.warnings[0] and "failed" in t.warnings[1]


def test_a_person_who_never_connects_gets_a_stand_in() -> None:
    clock = FakeClock(1000.0)
    t = two_seat(clock, [["2C", "3C"], ["4D", "5D"]], [], target=99,
                 second=SeatSpec("person", "Bob"))
    t.start(t.host_token)
    assert t.snapshot(None)["seats"][1]["standin"] is True
    clock.t = 1001.0
    t.submit(t.token(0), "2C", 0)  # animations to 1001.35, then the 20 s grace
    assert t.next_due() == pytest.approx(1021.35)
    clock.t = t.next_due()
    assert t.tick() == 1 and t.standin_plays == 1 and t.log[-1] == (1, "4D")


def test_speed_change_rescales_the_animations_still_playing() -> None:
    clock = FakeClock(1000.0)
    t = two_seat(clock, [["2C", "3C"], ["4D", "5D"]], ["6H", "7H"])
    t.start(t.host_token)
    t.submit(t.token(0), "2C", 0)  # 0.65 s of animation at normal
    clock.t = 1000.15
    assert t.set_speed(t.host_token, "blitz").ok
    # 0.5 s left at normal is 0.5 * 0.3 = 0.15 s at blitz, then the blitz CPU wait 0.15 s
    assert t.busy_for() == pytest.approx(0.15)
    assert t.next_due() == pytest.approx(1000.15 + 0.15 + 0.15)
    assert t.event_duration({"type": "bump"}) == pytest.approx(0.6 * 0.3)


def test_seat_changes_and_points_survive_a_resume(tmp_path) -> None:
    clock = FakeClock()
    cfg = {"seats": 4, "target": 30, "teams": True,
           "hands": [["2D", "3D"], ["KS", "QS"], ["2C", "3C"], ["KH", "QH"]], "deck": []}
    seats = [SeatSpec("person", "Bob"), ANN, SeatSpec("cpu", level="nasty"),
             SeatSpec("cpu", level="tricky")]
    path = tmp_path / "t.tee"
    t = Table.create("race", cfg, 2, seats, clock=clock, host_seat=1, save_path=path,
                     cpu=FirstCpu())
    t.connect(t.token(0))
    t.ready(t.token(0))
    t.start(t.host_token)
    assert t.hand_to_cpu(t.token(0), 0, "easy").ok
    assert t.set_cpu(t.host_token, 2, "easy").ok  # worth 1 from now on
    assert t.set_cpu(t.host_token, 2, "nasty").ok  # but never more than its lowest
    del t
    again = Table.resume(path, clock=clock, cpu=FirstCpu())
    assert again.seat_info(0)["kind"] == "cpu" and again.seat_info(0)["left"] == "Bob"
    assert again.seat_info(2)["level"] == "nasty"
    again.ready(again.token(1))
    while again.phase == "playing":
        clock.advance(5)
        if again.to_move() == 1:
            legal = again.snapshot(1)["view"]["legal"]
            assert again.submit(again.token(1), legal[-1], again.state_no).ok
        else:
            again.tick()
    # the same game as test_a_person_who_hands_over_forfeits...: team 1+3 wins, beating
    # seat 0 (an Easy CPU since Bob left) and seat 2 (Easy for a while): 1 + 1
    assert again.outcome()["winners"] == [1, 3]
    assert again.points() == {1: 2}
    assert again.result()["people"] == [
        {"seat": 0, "name": "Bob", "points": 0, "won": False},
        {"seat": 1, "name": "Ann", "points": 2, "won": True},
    ]


def test_an_outbox_nobody_drains_collapses_into_one_reset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("game.table.base.OUTBOX_MAX", 20)
    clock = FakeClock()
    t = Table.create("race", {"seats": 2, "target": 10**6}, 1, None, clock=clock, cpu=FirstCpu())
    t.snapshot(0)
    t.start(t.host_token)
    while t.state_no < 25:
        clock.t = t.next_due()
        t.tick()
    box = t.drain(0)
    assert box[0]["type"] == "reset" and len(box) < 10
    assert box[0]["snapshot"]["seat"] == 0
    assert box[0]["snapshot"]["view"]["hand"] is not None
    assert [m["state_no"] for m in box[1:] if m["type"] == "play"] == list(
        range(box[0]["snapshot"]["state_no"] + 1, t.state_no + 1))


class SilentCpu(FirstCpu):
    """A runner whose CPU never answers."""

    def poll(self, key: object) -> str | None:
        return None


def test_a_cpu_that_never_answers_is_given_up_on_after_the_timeout() -> None:
    from game.table import CPU_TIMEOUT

    clock = FakeClock(1000.0)
    cfg = {"seats": 2, "target": 99, "hands": [["2C", "3C"], ["4D", "5D"]], "deck": []}
    t = Table.create("race", cfg, 1, None, clock=clock, cpu=SilentCpu())
    t.start(t.host_token)
    due = 1000.0 + SPEEDS["normal"].cpu_wait
    limit = due + CPU_TIMEOUT + SPEEDS["normal"].budget_ms / 1000
    clock.t = due
    assert t.tick() == 0
    clock.t = limit - 0.01
    assert t.tick() == 0 and t.warnings == []
    clock.t = limit
    assert t.tick() == 1 and t.log == [(0, "2C")]
    assert "did not answer" in t.warnings[0]


def test_a_save_that_cannot_be_written_stops_saving_and_the_game_goes_on(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.table import savefile as table_mod

    clock = FakeClock()
    cfg = {"seats": 2, "target": 99, "hands": [["2C", "3C"], ["4D", "5D"]], "deck": []}
    path = tmp_path / "t.tee"
    t = Table.create("race", cfg, 1, [ANN, SeatSpec("person", "Bo", local=True)], clock=clock,
                     host_seat=0, save_path=path, cpu=FirstCpu())
    t.start(t.host_token)
    assert t.submit(t.token(0), "2C", 0).ok
    real_append = table_mod.SaveFile.append

    def disk_full(self: object, record: dict) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(table_mod.SaveFile, "append", disk_full)
    assert t.submit(t.token(1), "4D", 1).ok  # the play stands; saving stops
    assert t.save_error and "No space left" in t.save_error
    assert t.public()["save_error"] == t.save_error and t.save_path is None
    monkeypatch.setattr(table_mod.SaveFile, "append", real_append)
    assert t.submit(t.token(0), "3C", 2).ok
    # the file is what was saved before the failure, and nothing after it
    again = Table.resume(path, clock=clock, cpu=FirstCpu())
    assert again.log == [(0, "2C")]
    with pytest.raises(TableError, match="cannot open the save file"):
        Table.create("race", cfg, 1, None, clock=clock, save_path=tmp_path / "no" / "dir.tee")


def test_an_open_save_cannot_be_resumed_by_a_second_table(tmp_path) -> None:
    from game.table import SaveError, SaveInUse

    clock = FakeClock()
    path = tmp_path / "t.tee"
    cfg = {"seats": 2, "target": 99, "hands": [["2C", "3C"], ["4D", "5D"]], "deck": []}
    t = Table.create("race", cfg, 1, [ANN, SeatSpec("person", "Bo", local=True)], clock=clock,
                     host_seat=0, save_path=path, cpu=FirstCpu())
    t.start(t.host_token)
    t.submit(t.token(0), "2C", 0)
    before = path.read_bytes()
    with pytest.raises(SaveInUse, match="in use"):
        Table.resume(path, clock=clock)
    assert path.read_bytes() == before
    t.close()
    again = Table.resume(path, clock=clock, cpu=FirstCpu())
    assert again.log == [(0, "2C")]
    with pytest.raises(SaveError, match="no save file"):
        Table.resume(tmp_path / "missing.tee", clock=clock)
    assert not (tmp_path / "missing.tee").exists()
