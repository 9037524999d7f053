"""Exporting tables and save files to records (game/table/record.py) and the "Recent games"
store (game/table/recent.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_table_support import FakeClock, RandomCpu, person_choice

from game.rules.record import RecordError, format_record, read_record
from game.rules.track import RULES as TRACK
from game.table import SeatSpec, Table
from game.table import recent as rc
from game.table.record import program_version, record_from_save, record_from_table, record_text


def _table(clock: FakeClock, path: Path | None, game: str = "track") -> Table:
    seats = [SeatSpec("person", "Ann", local=True), SeatSpec("cpu", level="nasty"),
             SeatSpec("person", "Bo", local=True), SeatSpec("cpu", level="easy")]
    config = {"rules": "classic", "seats": 4} if game == "track" else {"seats": 4,
                                                                       "layout_size": 2}
    t = Table.create(game, config, 41, seats, clock=clock, host_seat=0, save_path=path,
                     cpu=RandomCpu(), fsync=False)
    t.start(t.host_token)
    return t


def _play(t: Table, clock: FakeClock, plays: int | None = None, hand_over_at: int | None = None
          ) -> None:
    k = 0
    while t.phase == "playing" and (plays is None or k < plays):
        if hand_over_at is not None and k == hand_over_at:
            assert t.hand_to_cpu(t.token(2), 2, "tricky").ok
        mover = t.to_move()
        assert mover is not None
        if t.seat_info(mover)["kind"] == "person":
            if t.cover_needed():
                assert t.tap_in(t.token(mover)).ok
            assert t.submit(t.token(mover), person_choice(t, mover), t.state_no).ok
        else:
            clock.t = t.next_due() or clock.t
            assert t.tick() == 1
        k += 1


def test_a_finished_table_exports_a_record_that_replays_to_its_state(tmp_path: Path) -> None:
    clock = FakeClock()
    t = _table(clock, tmp_path / "g.jsonl")
    _play(t, clock)
    assert t.phase == "over"
    text = record_text(t, date="2026-12-02", version="0.1.0")
    rec, state = read_record(text)
    assert TRACK.format_position(state) == TRACK.format_position(t.state)
    assert [(p.seat, p.token) for p in rec.plays] == t.log
    assert [(s.kind, s.level, s.name) for s in rec.seats] == [
        ("person", "person", "Ann"), ("cpu", "nasty", t.seat_info(1)["name"]),
        ("person", "person", "Bo"), ("cpu", "easy", t.seat_info(3)["name"])]
    assert rec.result == ",".join(map(str, t.outcome()["winners"]))
    # the people's points as the table reckoned them (game_result on the public summary)
    res = t.result()
    assert rec.points == " ".join(f"{p['seat']}={p['points']}" for p in res["people"])
    assert rec.date == "2026-12-02" and rec.version == "0.1.0"
    assert {p.by for p in rec.plays if p.seat in (0, 2)} == {"person"}
    assert {p.by for p in rec.plays if p.seat in (1, 3)} == {"cpu"}
    t.close()


def test_a_save_in_use_exports_without_its_lock_and_is_never_written(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "g.jsonl"
    t = _table(clock, path)
    _play(t, clock, plays=57)
    before = path.read_bytes()
    rec = record_from_save(path, date="2026-12-01", version="0.1.0")  # t still holds the lock
    assert path.read_bytes() == before
    live = record_from_table(t, date="2026-12-01", version="0.1.0")
    assert format_record(rec) == format_record(live)
    assert rec.result == "*" and len(rec.plays) == 57
    _play(t, clock, plays=1)  # the live table goes on saving: its lock was never taken
    assert path.read_bytes() != before
    t.close()


def test_a_seat_handed_to_a_cpu_keeps_its_person_and_marks_the_cpu_plays(tmp_path: Path
                                                                          ) -> None:
    clock = FakeClock()
    path = tmp_path / "g.jsonl"
    t = _table(clock, path)
    _play(t, clock, plays=40, hand_over_at=21)
    t.close()
    for rec in (record_from_save(path, version="x"), ):
        assert rec.seats[2].kind == "person" and rec.seats[2].name == "Bo"
        bo = [p for p in rec.plays if p.seat == 2]
        assert [p.by for p in bo] == ["person"] * 5 + ["cpu"] * (len(bo) - 5)  # plays 3..19
        assert rec.date  # the save file's date
    live = Table.resume(path, clock=clock, cpu=RandomCpu(), fsync=False)
    try:
        plain = record_from_table(live, version="x")  # no save facts passed: seat kinds now
        assert plain.seats[2].name == "Bo" and plain.seats[2].kind == "person"
    finally:
        live.close()


def test_a_trash_table_exports_too(tmp_path: Path) -> None:
    clock = FakeClock()
    t = _table(clock, None, game="layout")
    _play(t, clock)
    rec, state = read_record(record_text(t, version="0.1.0"))
    assert state == t.state
    assert rec.game == "layout" and rec.result == ",".join(map(str, t.outcome()["winners"]))


def test_the_version_is_the_installed_programs() -> None:
    import importlib.metadata

    assert program_version() == importlib.metadata.version("tee-table")


# ------------------------------------------------------------------------------ recent


def _small_record() -> str:
    clock = FakeClock()
    t = _table(clock, None, game="layout")
    _play(t, clock, plays=6)
    return record_text(t, date="2026-12-02", version="0.1.0")


def test_recent_games_keep_the_last_50_newest_first(tmp_path: Path) -> None:
    text = _small_record()
    paths = [rc.add_recent(tmp_path, text.replace("2026-12-02", f"day {i}")) for i in range(55)]
    kept = rc.list_recent(tmp_path)
    assert len(kept) == rc.RECENT_MAX == 50
    assert [k.path for k in kept] == list(reversed(paths[5:]))
    assert kept[0].date == "day 54" and kept[-1].date == "day 5"
    assert all(not p.exists() for p in paths[:5])
    info = kept[0]
    assert info.title() == "Trash, 4 seats"
    assert info.detail() == "day 54 - Ann, Bo - 6 plays, unfinished"
    assert not info.reviewed


def test_recent_refuses_what_is_not_a_record_and_lists_around_damage(tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        rc.add_recent(tmp_path, "not a record")
    assert not rc.recent_dir(tmp_path).exists() or not any(rc.recent_dir(tmp_path).iterdir())
    p = rc.add_recent(tmp_path, _small_record())
    broken = p.with_name("game-20000101-000000-000000-abcd.ttr")
    broken.write_text("[Format \"tee-table-record 1\"]\n[Game \"chess\"]\n")
    (rc.recent_dir(tmp_path) / "notes.txt").write_text("mine")
    assert [i.path for i in rc.list_recent(tmp_path)] == [p]
    rc.add_recent(tmp_path, _small_record(), limit=1)  # pruning takes only its own names
    assert (rc.recent_dir(tmp_path) / "notes.txt").exists()


def test_save_record_never_overwrites(tmp_path: Path) -> None:
    text = _small_record()
    a = rc.export_record(tmp_path, text, "Ann vs Bo")
    b = rc.export_record(tmp_path, text, "Ann vs Bo")
    assert (a.name, b.name) == ("Ann-vs-Bo.ttr", "Ann-vs-Bo-2.ttr")
    assert a.read_text() == b.read_text() == text
    rc.rewrite_record(a, text.replace("2026-12-02", "2026-12-03"))
    assert "2026-12-03" in a.read_text()
    with pytest.raises(RecordError):
        rc.rewrite_record(a, "garbage")
    assert "2026-12-03" in a.read_text()


def test_a_stand_ins_plays_are_marked_in_the_save_the_record_and_a_resume(tmp_path: Path
                                                                          ) -> None:
    """Bo (on the LAN) drops for a while: the CPU that plays for him is a stand-in, and every
    record of the game says so (the live table's, the save's and a resumed table's), so his
    review never judges plays he did not make."""
    clock = FakeClock(1000.0)
    path = tmp_path / "g.jsonl"
    seats = [SeatSpec("person", "Ann", local=True), SeatSpec("cpu", level="easy"),
             SeatSpec("person", "Bo"), SeatSpec("cpu", level="easy")]
    t = Table.create("track", {"rules": "classic", "seats": 4}, 41, seats, clock=clock,
                     host_seat=0, save_path=path, cpu=RandomCpu(), fsync=False)
    bo = t.token(2)
    assert t.connect(bo).ok and t.ready(bo).ok
    assert t.start(t.host_token).ok
    made: list[str] = []  # who made each play, as this test drove it
    away = False
    for k in range(60):
        if k == 12:
            assert t.disconnect(bo).ok
            away = True
        if k == 40:
            assert t.connect(bo).ok
            away = False
        if t.pause_reasons():
            assert t.ready(bo).ok
        mover = t.to_move()
        assert mover is not None and t.phase == "playing"
        if mover == 0 or (mover == 2 and not away):
            tok = t.token(mover)
            assert t.submit(tok, person_choice(t, mover), t.state_no).ok
            made.append("person")
        else:
            clock.t = max(clock.t, t.next_due() or clock.t)
            assert t.tick() == 1
            made.append("standin" if mover == 2 else "cpu")
    assert made.count("standin") >= 4 and t.standin_plays == made.count("standin")
    assert t.makers == made
    live = record_from_table(t, version="x")
    assert [p.by for p in live.plays] == made
    t.close()
    saved = record_from_save(path, version="x")
    assert [p.by for p in saved.plays] == made
    _rec, _state = read_record(format_record(saved))  # the marks read back and replay
    assert [p.by for p in _rec.plays] == made
    records = [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines()[1:]]
    marked = [r.get("standin") is True for r in records if r["t"] == "play"]
    assert marked == [m == "standin" for m in made]
    again = Table.resume(path, clock=clock, cpu=RandomCpu(), fsync=False)
    try:
        assert again.makers == made  # rebuilt from the save's marks
    finally:
        again.close()
