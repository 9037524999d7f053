"""Whole games of the real engines (track and layout) at the table, with a fake clock."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from test_table_support import FakeClock, RandomCpu, person_choice, play_out

from game.cpu_worker import ProcessCpu
from game.rules.cards import Rng
from game.rules.layout import RULES as LAYOUT
from game.rules.track import RULES as TRACK
from game.store import Store
from game.table import (
    SPEEDS,
    CorruptSave,
    ForeignSave,
    SaveExists,
    SaveVersionError,
    SeatSpec,
    Table,
    event_duration,
)

GAMES = [
    ("track", {"rules": "classic", "seats": 4}, 11),
    ("track", {"rules": "tees", "seats": 4}, 12),
    ("track", {"rules": "team", "seats": 4}, 13),
    ("layout", {"seats": 3}, 14),
]
LEVELS = [SeatSpec("cpu", level=lv) for lv in ("easy", "tricky", "nasty", "tricky")]


@pytest.mark.parametrize("speed", list(SPEEDS))
@pytest.mark.parametrize(("game", "config", "seed"), GAMES)
def test_whole_cpu_game_at_every_speed_is_paced_by_its_events(
    speed: str, game: str, config: dict, seed: int
) -> None:
    clock = FakeClock(500.0)
    seats = LEVELS[: config["seats"]]
    cpu = RandomCpu()
    t = Table.create(game, config, seed, seats, clock=clock, speed=speed, cpu=cpu)
    watch = t.snapshot(None)
    assert watch["view"]["seat"] is None
    t.start(t.host_token)
    seen: list[dict] = t.drain(None)
    times = play_out(t, clock, after=lambda: seen.extend(t.drain(None)))
    assert t.phase == "over" and t.outcome() is not None
    assert cpu.levels == {s.level for s in seats}
    rules = t.rules
    # the log is the truth: replaying it rebuilds the final state
    again = rules.replay(t.config, seed, t.log)
    assert rules.format_position(again) == rules.format_position(t.state)
    assert rules.outcome(again) == t.outcome()
    # every play message reached the spectator, in order, and the CPUs waited for each
    # play's animations (at this speed) plus the CPU wait
    plays = [m for m in seen if m["type"] == "play"]
    assert [m["state_no"] for m in plays] == list(range(1, t.state_no + 1))
    sp = SPEEDS[speed]
    # the opening deal is animated first, and the first CPU waits for it
    (opening,) = [m for m in seen if m["type"] == "start"]
    assert opening["state_no"] == 0 and opening["events"]
    assert all("hands" not in e for e in opening["events"])  # nobody's hand for a spectator
    expected = 500.0 + sum(event_duration(e, speed) for e in opening["events"]) + sp.cpu_wait
    for (at, n), m in zip(times, plays, strict=True):
        assert m["state_no"] == n
        assert at == pytest.approx(expected)
        expected = at + sum(event_duration(e, speed) for e in m["events"]) + sp.cpu_wait
    assert t.points() == {} and t.result()["people"] == []


@pytest.mark.parametrize(("game", "config", "levels"), [
    ("track", {"rules": "classic", "seats": 4}, ["easy", "tricky", "easy", "tricky"]),
    ("track", {"rules": "tees", "seats": 4}, ["tricky", "easy", "tricky", "easy"]),
    ("track", {"rules": "team", "seats": 4}, ["tricky"] * 4),
    ("layout", {"seats": 3, "layout_size": 2}, ["easy", "tricky", "nasty"]),
])
def test_default_runner_plays_whole_games_with_the_real_cpus(
    game: str, config: dict, levels: list[str]
) -> None:
    clock = FakeClock()
    seats = [SeatSpec("cpu", level=lv) for lv in levels]
    t = Table.create(game, config, 5, seats, clock=clock, speed="blitz")
    t.start(t.host_token)
    play_out(t, clock, max_plays=5000)
    assert t.phase == "over"
    assert t.cpu_plays == t.state_no > 0
    assert t.warnings == []  # every CPU answer was legal


def test_people_and_cpus_hot_seat_track_game() -> None:
    clock = FakeClock()
    seats = [SeatSpec("person", "Ann", local=True), SeatSpec("cpu", level="nasty"),
             SeatSpec("person", "Bo", local=True), SeatSpec("cpu", level="easy")]
    t = Table.create("track", {"rules": "classic", "seats": 4}, 21, seats, clock=clock,
                     host_seat=0, cpu=RandomCpu())
    t.start(t.host_token)
    covered = 0
    while t.phase == "playing":
        mover = t.to_move()
        if mover in (0, 2):
            assert t.screen_owner() == mover
            if t.cover_needed():
                covered += 1
                other = 2 - mover
                assert t.tap_in(t.token(other)).code == "not_allowed"
                assert t.tap_in(t.token(mover)).ok
            assert not t.cover_needed()
            assert t.submit(t.token(mover), person_choice(t, mover), t.state_no).ok
        else:
            clock.t = t.next_due()
            assert t.tick() == 1
    assert covered > 2  # the screen changed hands between Ann and Bo
    # teams 0+2 against 1+3: the winners' people beat a Nasty (3) and an Easy (1) CPU
    assert t.outcome()["winners"] in ([0, 2], [1, 3])
    if t.outcome()["winners"] == [0, 2]:
        assert t.points() == {0: 4, 2: 4}
    else:
        assert t.points() == {}  # CPUs never earn points
    assert {p["name"]: p["won"] for p in t.result()["people"]} == {
        "Ann": t.outcome()["winners"] == [0, 2], "Bo": t.outcome()["winners"] == [0, 2]
    }


def test_views_and_outboxes_never_carry_another_seats_hand() -> None:
    clock = FakeClock()
    seats = [SeatSpec("person", "Ann", local=True), SeatSpec("person", "Bob"),
             SeatSpec("cpu"), SeatSpec("person", "Cy")]
    t = Table.create("track", {"rules": "classic", "seats": 4}, 31, seats, clock=clock,
                     host_seat=0, cpu=RandomCpu())
    secrets_ = {t.host_token, *(t.token(i) for i in range(4))}
    for tok in (t.token(1), t.token(3)):
        t.connect(tok)
        t.ready(tok)
    states = {0: t.state}
    for seat in (0, 1, 2, 3, None):
        t.snapshot(seat)
    t.start(t.host_token)
    boxes: dict[int | None, list[dict]] = {s: [] for s in (0, 1, 2, 3, None)}

    def after() -> None:
        states[t.state_no] = t.state
        for s, box in boxes.items():
            box.extend(t.drain(s))

    play_out(t, clock, after=after)
    assert t.phase == "over"
    for seat in (0, 1, 2, 3, None):
        msgs = boxes[seat]
        assert not any(s in repr(msgs) for s in secrets_)
        (opening,) = [m for m in msgs if m["type"] == "start"]
        assert opening["view"] == TRACK.view(states[0], seat)
        (deal,) = [e for e in opening["events"] if e["type"] == "deal"]
        assert "hands" not in deal
        if seat is not None:  # dealt five, then seat 0 draws its sixth
            drawn = [e["card"] for e in opening["events"]
                     if e["type"] == "draw" and e["seat"] == seat]
            assert sorted(deal["hand"] + drawn) == sorted(states[0].hands[seat])
            assert len(drawn) == (1 if seat == 0 else 0)
        else:
            assert "hand" not in deal
        for m in msgs:
            if m["type"] != "play":
                continue
            assert m["view"] == TRACK.view(states[m["state_no"]], seat)
            for e in m["events"]:
                if e["type"] == "draw" and e["seat"] != seat:
                    assert "card" not in e
                if e["type"] == "deal":
                    assert "hands" not in e
            if seat is not None:
                assert m["view"]["hand"] == list(states[m["state_no"]].hands[seat])
            else:
                assert m["view"]["hand"] == []
        snap = t.snapshot(seat)
        others = [list(h) for i, h in enumerate(t.state.hands) if i != seat and h]
        assert snap["view"] == TRACK.view(t.state, seat)
        assert not any(s in repr(snap) for s in secrets_)
        assert all(snap["view"]["hand"] != h for h in others if seat is not None)


def _mixed_table(clock: FakeClock, path: Path | None, seed: int = 41) -> Table:
    seats = [SeatSpec("person", "Ann", local=True), SeatSpec("cpu", level="nasty"),
             SeatSpec("person", "Bob"), SeatSpec("cpu", level="easy")]
    t = Table.create("track", {"rules": "classic", "seats": 4}, seed, seats, clock=clock,
                     host_seat=0, save_path=path, cpu=RandomCpu())
    return t


def _join_bob(t: Table) -> None:
    t.connect(t.token(2))
    t.ready(t.token(2))
    t.ready(t.token(0))


def _finish(t: Table, clock: FakeClock) -> None:
    play_out(t, clock)
    assert t.phase == "over"


def _started(clock: FakeClock, path: Path | None) -> Table:
    """The mixed table with Bob joined and ready, started by the host."""
    t = _mixed_table(clock, path)
    _join_bob(t)
    t.start(t.host_token)
    return t


def _whole_game() -> Table:
    """The mixed table played to the end without a stop, on its own clock."""
    clock = FakeClock()
    whole = _started(clock, None)
    _finish(whole, clock)
    return whole


def test_save_kill_resume_finishes_like_a_game_that_never_stopped(tmp_path: Path) -> None:
    whole = _whole_game()

    clock2 = FakeClock()
    path = tmp_path / "broken.tee"
    first = _mixed_table(clock2, path)
    tokens = [first.token(i) for i in range(4)]
    _join_bob(first)
    first.start(first.host_token)
    first.set_speed(first.host_token, "brisk")
    play_out(first, clock2, stop_at=whole.state_no // 2)
    half = first.state_no
    del first  # killed: no close, nothing else written

    from game.table.savefile import inspect_save

    info = inspect_save(path)
    assert info is not None and info.plays == half and not info.finished
    assert info.detail().endswith(f" - {half} plays")
    again = Table.resume(path, clock=clock2, cpu=RandomCpu(), fsync=False)
    assert again.state_no == half and again.phase == "playing"
    assert [again.token(i) for i in range(4)] == tokens and again.speed.name == "brisk"
    assert again.log == whole.log[:half]
    # everyone comes back through Ready; Bob (remote) must rejoin
    assert again.pause_reasons() == [{"reason": "ready", "seats": [0]}]
    _join_bob(again)
    assert again.pause_reasons() == []
    _finish(again, clock2)
    assert again.log == whole.log
    assert again.outcome() == whole.outcome()
    assert again.points() == whole.points()
    assert {**again.result(), "table_id": 0} == {**whole.result(), "table_id": 0}
    again.close()
    info = inspect_save(path)  # the Reopen list tells a finished table from one in progress
    assert info is not None and info.finished and info.plays == len(whole.log)
    assert info.detail().endswith(" - finished")
    # the finished save resumes to the same end again
    done = Table.resume(path, clock=FakeClock())
    assert done.phase == "over" and done.log == whole.log and done.points() == whole.points()


def test_torn_last_record_is_dropped_with_a_warning_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    whole = _whole_game()

    clock2 = FakeClock()
    path = tmp_path / "torn.tee"
    first = _started(clock2, path)
    play_out(first, clock2, stop_at=40)
    first.close()
    data = path.read_bytes()
    path.write_bytes(data[:-9])  # a crash in the middle of writing play 40
    again = Table.resume(path, clock=clock2, cpu=RandomCpu(), fsync=False)
    assert again.state_no == 39 and len(again.warnings) == 1
    assert "cut short" in again.warnings[0]
    assert path.read_bytes() == data[: data.rindex(b"\n", 0, len(data) - 1) + 1]
    _join_bob(again)
    _finish(again, clock2)
    assert again.log == whole.log and again.points() == whole.points()
    again.close()
    assert Table.resume(path, clock=clock2).log == whole.log  # no torn bytes left behind


def test_corrupt_foreign_and_newer_saves_error_and_are_never_written(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "game.tee"
    t = _started(clock, path)
    play_out(t, clock, stop_at=12)
    t.close()
    good = path.read_bytes()
    lines = good.split(b"\n")

    def attempt(content: bytes, error: type[Exception]) -> None:
        path.write_bytes(content)
        with pytest.raises(error):
            Table.resume(path, clock=clock)
        assert path.read_bytes() == content

    attempt(b"\x89PNG\r\n\x1a\n" + bytes(range(256)), ForeignSave)
    attempt(b'{"format": "something-else"}\n', ForeignSave)
    attempt(b"", ForeignSave)
    damaged = [*lines[:5], lines[5][:10] + b"#" + lines[5][11:], *lines[6:]]
    attempt(b"\n".join(damaged), CorruptSave)
    # a well-formed record whose play is not legal in its position
    bad_play = lines[8].replace(b'"play":"', b'"play":"x')
    attempt(b"\n".join([*lines[:8], bad_play, *lines[9:]]), CorruptSave)
    newer = lines[0].replace(b'"version":1', b'"version":99')
    attempt(b"\n".join([newer, *lines[1:]]), SaveVersionError)
    # a new table never overwrites an existing file
    path.write_bytes(good)
    with pytest.raises(SaveExists):
        _mixed_table(clock, path)
    assert path.read_bytes() == good
    assert Table.resume(path, clock=clock).state_no == 12


def test_points_as_the_seed_defines_them_and_records(tmp_path: Path) -> None:
    # seed 000: "1 for each Easy CPU you beat, 2 for Tricky, 3 for Nasty or a person"
    results = []
    for seed in range(51, 57):
        clock = FakeClock()
        seats = [SeatSpec("person", "Ann", local=True), SeatSpec("cpu", level="easy"),
                 SeatSpec("cpu", level="tricky"), SeatSpec("person", "Bob")]
        t = Table.create("track", {"rules": "tees", "seats": 4}, seed, seats, clock=clock,
                         host_seat=0, cpu=RandomCpu())
        _join_bob_seat3(t)
        t.start(t.host_token)
        _finish(t, clock)
        winners = t.outcome()["winners"]
        if winners == [0, 2]:  # Ann and her Tricky partner beat an Easy CPU and Bob
            assert t.points() == {0: 1 + 3}
        else:  # Bob and his Easy partner beat Ann and a Tricky CPU
            assert winners == [1, 3]
            assert t.points() == {3: 3 + 2}
        results.append(t.result())
    store = Store(tmp_path)
    for r in results:
        assert store.record_game(r)
        assert not store.record_game(r)
    ann_wins = sum(1 for r in results if r["winners"] == [0, 2])
    rows = {row.name: row for row in store.points()}
    assert rows["Ann"] == ("Ann", 4 * ann_wins, 6, ann_wins)
    assert rows["Bob"] == ("Bob", 5 * (6 - ann_wins), 6, 6 - ann_wins)
    assert set(rows) == {"Ann", "Bob"}


def _join_bob_seat3(t: Table) -> None:
    t.connect(t.token(3))
    t.ready(t.token(3))


def test_solo_counts_turns_undo_cannot_fish_and_the_best_is_kept(tmp_path: Path) -> None:
    clock = FakeClock()
    t = Table.create("track", {"rules": "classic", "seats": 1}, 61,
                     [SeatSpec("person", "Ann", local=True)], clock=clock, host_seat=0)
    me = t.token(0)
    t.start(me)
    undos = 0
    rng = Rng(5)
    while t.phase == "playing":
        legal = [str(p) for p in TRACK.legal_plays(t.state)]
        if len(legal) >= 2 and t.turns >= 1 and rng.below(4) == 0:
            # play one thing, see the card drawn after it, take it back, play another thing:
            # the same card comes next (the deck order does not change)
            t.drain(0)
            assert t.submit(me, legal[0], t.state_no).ok
            drawn = [e["card"] for m in t.drain(0) if m["type"] == "play"
                     for e in m["events"] if e["type"] == "draw"]
            if t.phase == "over":
                break
            before = t.turns
            assert t.undo(me).ok
            undos += 1
            assert t.turns == before - 1
            assert t.submit(me, legal[1], t.state_no).ok
            drawn2 = [e["card"] for m in t.drain(0) if m["type"] in ("play",)
                      for e in m["events"] if e["type"] == "draw"]
            assert drawn2 == drawn
        else:
            assert t.submit(me, person_choice(t, 0), t.state_no).ok
    assert undos >= 3
    out = t.outcome()
    assert out["turns"] == t.turns == len(t.log)
    assert t.state_no == t.turns + 2 * undos  # an undo is a new state, never an old number
    res = t.result()
    assert res["solo"] and res["turns"] == t.turns and res["people"] == []
    store = Store(tmp_path)
    assert store.record_solo(res["rules"], res["turns"], res["seed"])
    assert store.solo_best("classic") == (t.turns, 61)
    assert not store.record_solo("classic", t.turns + 1, 62)


def test_worker_process_runner_completes_a_game() -> None:
    clock = FakeClock()
    with ProcessCpu() as cpu:
        t = Table.create("layout", {"seats": 2, "layout_size": 2}, 71, None, clock=clock,
                         speed="blitz", cpu=cpu)
        t.start(t.host_token)
        waited = 0
        deadline = time.monotonic() + 60
        while t.phase == "playing":
            assert time.monotonic() < deadline, "the worker never answered"
            due = t.next_due()
            assert due is not None
            clock.t = max(clock.t, due)
            if t.tick() == 0:
                waited += 1  # the answer is not in yet: tick returned at once
                time.sleep(0.002)
        assert t.phase == "over" and t.cpu_plays == t.state_no
        assert waited > 0 and cpu.requests >= t.state_no
        again = LAYOUT.replay(t.config, 71, t.log)
        assert LAYOUT.outcome(again) == t.outcome()
