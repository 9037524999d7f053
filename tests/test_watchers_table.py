"""Watchers and seats changing hands, on the table itself (issue 17; docs/seats.md).

Worked by hand on the race double (tests/test_table_support.py): three seats, two cards each,
no deck, so the game is six plays, one per turn, in seat order 0, 1, 2, 0, 1, 2; then every
hand is empty and the highest total wins. Ann (seat 0, the host's own seat, at this screen)
holds 2C 3C = 5; Bob (seat 1, remote) 4D 5D = 9; seat 2 (an Easy CPU) KH QH = 13 + 12 = 25, so
seat 2 wins. Its winner earns the worth of the two beaten seats.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_table_support import FakeClock, FirstCpu, Race, person_choice

from game.table import SeatSpec, Table, game_result, register_rules

register_rules(Race())

ANN = SeatSpec("person", "Ann", local=True)
BOB = SeatSpec("person", "Bob")
EASY = SeatSpec("cpu", level="easy")
HANDS = [["2C", "3C"], ["4D", "5D"], ["KH", "QH"]]


def table(clock: FakeClock, save: Path | None = None, **kw: Any) -> Table:
    cfg = {"seats": 3, "target": 99, "hands": HANDS, "deck": []}
    return Table.create("race", cfg, 7, [ANN, BOB, EASY], clock=clock, speed="normal",
                        host_seat=0, cpu=FirstCpu(), save_path=save, fsync=False, **kw)


def started(clock: FakeClock, save: Path | None = None) -> Table:
    t = table(clock, save)
    bob = t.token(1)
    assert t.connect(bob).ok and t.ready(bob).ok
    assert t.start(t.host_token).ok
    return t


def cpu_turn(t: Table, clock: FakeClock) -> None:
    due = t.next_due()
    assert due is not None
    clock.t = max(clock.t, due)
    assert t.tick() == 1


def no_hand(msgs: list[Any]) -> None:
    """Nothing a watcher got holds a hand or a drawn card."""
    for m in msgs:
        m = m.get("snapshot", m)
        if "view" in m:
            assert m["view"]["hand"] is None and m["view"]["legal"] == []
        for e in m.get("events", []):
            assert e.get("card") is None or e["type"] == "play"  # a played card is public


def test_a_watcher_sees_the_public_view_and_is_listed_by_name() -> None:
    clock = FakeClock()
    t = started(clock)
    r = t.watch("Cid")
    assert r.ok and r.data["watcher"] == 1
    cid = r.data["token"]
    snap = t.snapshot(None)
    assert snap["watchers"] == [{"watcher": 1, "name": "Cid"}] and snap["watching"] == 1
    assert snap["view"]["hand"] is None  # no hand of any seat
    assert cid not in json.dumps(snap)  # the secret is never in the summary
    # a watcher cannot play, pause or take the speed: they are not a seat
    before = t.public()
    assert t.submit(cid, "2C", t.state_no).code == "bad_token"
    assert t.pause(cid).code == "bad_token"
    assert t.set_speed(cid, "blitz").code == "not_host"
    assert t.ask_seat(cid, 1).code == "not_allowed"  # Bob's seat is a person's
    assert t.ask_seat(cid, 7).code == "bad_request"
    assert t.watch("").code == "bad_request"
    assert t.public() == before  # the refusals changed nothing
    # away (dropped connection): not listed; back with the same secret: the same number
    assert t.watcher_connected(cid, False).ok and t.public()["watching"] == 0
    assert t.watch("Cid", token=cid).data["watcher"] == 1
    assert t.public()["watching"] == 1
    assert t.unwatch(cid).ok and t.public()["watchers"] == []


def test_seats_change_hands_at_their_next_turn_and_the_points_follow_the_holder(
        tmp_path: Path) -> None:
    clock = FakeClock()
    save = tmp_path / "t.jsonl"
    t = started(clock, save)
    ann, bob = t.token(0), t.token(1)
    cid = t.watch("Cid").data["token"]
    dee = t.watch("Dee").data["token"]
    assert t.ask_seat(bob, 2).code == "not_allowed"  # Bob already has a seat
    assert t.ask_seat(cid, 2).ok
    assert t.ask_seat(dee, 2).code == "not_allowed"  # Cid asked first
    assert t.public()["asks"] == [{"seat": 2, "watcher": 1, "name": "Cid", "accepted": False}]
    assert t.accept_seat(bob, 2).code == "not_host"
    assert t.accept_seat(ann, 2).ok  # Ann's seat is the host's
    assert t.public()["asks"][0]["accepted"] is True
    assert t.seat_info(2)["kind"] == "cpu"  # not yet: at seat 2's next turn
    assert t.submit(ann, "2C", 0).ok  # play 1; Bob's turn
    assert t.seat_info(2)["kind"] == "cpu"
    # Bob leaves for good in the middle of his turn, to Dee: a CPU plays this turn
    assert t.hand_to_watcher(bob, 1, 2).ok
    assert t.seat_info(1)["kind"] == "cpu" and t.seat_info(1)["played"] == ["Bob"]
    assert t.submit(bob, "4D", 1).code == "bad_token"
    cpu_turn(t, clock)  # play 2 by the stand-in (tricky): the turn passes to seat 2
    moved = t.take_moved()
    assert [(w, s) for w, s, _tok in moved] == [(cid, 2)]
    cid_seat = moved[0][2]
    assert t.seat_info(2)["kind"] == "person" and t.seat_info(2)["name"] == "Cid"
    assert t.seat_of(cid_seat) == 2 and t.watcher_of(cid) is None
    assert t.public()["watchers"] == [{"watcher": 2, "name": "Dee"}]
    assert t.seat_info(1)["kind"] == "cpu"  # Dee waits for seat 1's next turn
    assert t.submit(cid_seat, "KH", 2).ok  # play 3
    assert t.submit(ann, "3C", 3).ok  # play 4: seat 1's next turn begins
    (moved,) = t.take_moved()
    assert moved[:2] == (dee, 1)
    assert t.seat_info(1)["name"] == "Dee" and t.seat_info(1)["played"] == ["Bob"]
    assert t.submit(moved[2], "5D", 4).ok  # play 5
    assert t.submit(cid_seat, "QH", 5).ok  # play 6: the end
    assert t.phase == "over" and t.outcome() == {"winners": [2], "totals": [5, 9, 25]}
    # seat 2's winner earns seat 0 (a person: 3) + seat 1 (its lowest: the tricky stand-in,
    # 2) = 5; seat 2's own worth (Easy: 1) matters only to others
    assert t.points() == {2: 5}
    res = game_result(t.public())
    assert res is not None
    assert res["people"] == [
        {"seat": 0, "name": "Ann", "points": 0, "won": False},
        {"seat": 1, "name": "Dee", "points": 0, "won": False},
        {"seat": 1, "name": "Bob", "points": 0, "won": False},
        {"seat": 2, "name": "Cid", "points": 5, "won": True},
    ]
    kinds = [json.loads(line)["t"] for line in save.read_text().splitlines()[1:]]
    assert kinds.count("handover") == 2
    t.close()
    back = Table.resume(save, clock=clock, cpu=FirstCpu())
    assert [back.seat_info(i)["name"] for i in range(3)] == ["Ann", "Dee", "Cid"]
    assert back.token(2) == cid_seat and back.points() == {2: 5}
    assert game_result(back.public()) == res
    back.close()


def test_a_request_never_takes_a_trash_turn_in_the_middle() -> None:
    clock = FakeClock()
    t = Table.create("layout", {"seats": 2, "layout_size": 3}, 11, [ANN, EASY], clock=clock,
                     speed="normal", host_seat=0, fsync=False)
    assert t.set_auto_seat(t.host_token, True).ok
    assert t.start(t.host_token).ok
    ann = t.token(0)
    cid = t.watch("Cid").data["token"]
    asked_at = None
    for _ in range(400):  # bounded: a Trash game is a few dozen plays
        if t.phase != "playing":
            break
        if t.to_move() == 0:
            assert t.submit(ann, person_choice(t, 0), t.state_no).ok
            continue
        if t.seat_info(1)["kind"] == "person":
            break
        cpu_turn(t, clock)
        if asked_at is None and t.to_move() == 1:  # seat 1 is in the middle of its turn
            asked_at = t.state_no
            assert t.ask_seat(cid, 1).ok and t.public()["asks"][0]["accepted"]
        elif asked_at is not None and t.to_move() == 1:
            assert t.seat_info(1)["kind"] == "cpu"  # the rest of that turn stays the CPU's
    assert asked_at is not None, "seat 1 never had a turn of several plays"
    assert t.seat_info(1)["kind"] == "person" and t.seat_info(1)["name"] == "Cid"
    assert t.to_move() == 1  # it changed hands exactly as seat 1's next turn began
    last = [s for s, _p in t.log]
    assert last[-1] == 0  # the play before was seat 0's


def test_hot_seat_a_second_person_at_the_screen_takes_a_cpu_seat_at_its_next_turn() -> None:
    clock = FakeClock()
    cfg = {"seats": 3, "target": 99, "hands": HANDS, "deck": []}
    t = Table.create("race", cfg, 7, [ANN, EASY, EASY], clock=clock, host_seat=0,
                     cpu=FirstCpu(), fsync=False)
    assert t.start(t.host_token).ok
    assert t.take_seat(1, "Bea").code == "not_allowed"  # not at this screen: watch instead
    r = t.take_seat(1, "Bea", local=True)
    assert r.ok and r.data["pending"] is True
    bea = r.data["token"]
    assert t.take_seat(2, "", local=True).code == "bad_request"
    assert t.submit(bea, "4D", 0).code == "bad_token"  # not hers until seat 1's turn
    assert t.submit(t.token(0), "2C", 0).ok
    info = t.seat_info(1)
    assert info["kind"] == "person" and info["local"] and info["name"] == "Bea"
    assert t.submit(bea, "4D", 1).ok


def test_the_host_settings_are_saved_and_the_host_shows_a_watcher_out(tmp_path: Path) -> None:
    clock = FakeClock()
    save = tmp_path / "t.jsonl"
    t = started(clock, save)
    host = t.host_token
    cid = t.watch("Cid").data["token"]
    assert t.remove_watcher(t.token(1), 1).code == "not_host"
    assert t.remove_watcher(host, 9).code == "bad_request"
    assert t.remove_watcher(host, 1).ok
    assert t.take_shown_out() == [(cid, "removed")]
    assert t.watch("Cid", token=cid).code == "not_allowed"  # shown out for good
    eve = t.watch("Eve").data["token"]
    assert t.set_auto_seat(host, "yes").code == "bad_request"  # type: ignore[arg-type]
    assert t.set_auto_seat(host, True).ok and t.set_allow_watchers(host, False).ok
    assert t.take_shown_out() == [(eve, "no_watchers")]
    assert t.watch("Fay").code == "not_allowed" and t.public()["watching"] == 0
    t.close()
    back = Table.resume(save, clock=clock, cpu=FirstCpu())
    assert back.allow_watchers is False and back.auto_seat is True
    back.close()


def test_a_damaged_handover_record_is_named(tmp_path: Path) -> None:
    from game.table import CorruptSave

    clock = FakeClock()
    save = tmp_path / "t.jsonl"
    t = started(clock, save)
    t.close()
    with save.open("a") as f:
        f.write(json.dumps({"t": "handover", "seat": 1, "name": "Cid", "token": "x",
                            "local": False, "n": 0}) + "\n")  # seat 1 is a person's
    with pytest.raises(CorruptSave, match="line"):
        Table.resume(save, clock=clock, cpu=FirstCpu())


def test_a_request_lapses_when_the_person_the_host_took_the_seat_from_comes_back() -> None:
    clock = FakeClock()
    t = started(clock)
    bob = t.token(1)
    assert t.hand_to_cpu(t.host_token, 1).ok  # the host hands Bob's seat to a CPU
    cid = t.watch("Cid").data["token"]
    assert t.ask_seat(cid, 1).ok and t.public()["asks"][0]["seat"] == 1
    assert t.come_back(bob).ok  # Bob takes it back before its turn
    assert t.public()["asks"] == [] and t.seat_info(1)["name"] == "Bob"
    assert t.submit(t.token(0), "2C", 0).ok  # seat 1's turn: still Bob's
    assert t.seat_info(1)["name"] == "Bob" and t.take_moved() == []
