"""game.store: settings and records on disk (always in a tmp folder)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from game.store import (
    DATA_ENV,
    PointsRow,
    RecordsError,
    Settings,
    SettingsError,
    Store,
    StoreError,
    data_dir,
)


def test_data_dir_prefers_argument_then_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "env"))
    assert data_dir(tmp_path / "arg") == tmp_path / "arg"
    assert data_dir() == tmp_path / "env"
    assert Store().folder == tmp_path / "env"
    monkeypatch.delenv(DATA_ENV)
    assert data_dir().name == "tee-table"


def test_settings_default_when_missing_and_round_trip(tmp_path: Path) -> None:
    store = Store(tmp_path / "d")
    s = store.settings()
    assert s == Settings()
    assert store.settings_problem is None
    assert not (tmp_path / "d").exists()  # reading never creates anything
    s2 = replace(s, name="Ada", colour="red", sound=False, volume=0.25, fullscreen=True,
                 animation="reduced", table_speed="blitz")
    store.save_settings(s2)
    assert Store(tmp_path / "d").settings() == s2
    on_disk = json.loads((tmp_path / "d" / "settings.json").read_text())
    assert on_disk["name"] == "Ada" and on_disk["volume"] == 0.25


@pytest.mark.parametrize(
    "change",
    [{"volume": 1.5}, {"volume": float("nan")}, {"name": "  "}, {"name": "x" * 25},
     {"name": "A\tb"}, {"sound": "yes"}, {"animation": "wild"}, {"table_speed": "ludicrous"},
     {"volume": True}],
)
def test_bad_settings_are_refused_and_nothing_written(tmp_path: Path, change: dict) -> None:
    store = Store(tmp_path)
    store.save_settings(Settings(name="Bo"))
    before = (tmp_path / "settings.json").read_bytes()
    with pytest.raises(SettingsError):
        store.save_settings(replace(Settings(), **change))
    assert (tmp_path / "settings.json").read_bytes() == before


def test_corrupt_settings_give_defaults_and_are_moved_aside_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    store = Store(tmp_path)
    s = store.settings()
    assert s == Settings()
    assert store.settings_problem and "settings.json" in store.settings_problem
    assert path.read_text() == "{not json"  # reading leaves it alone
    store.save_settings(replace(s, name="Cy"))
    assert (tmp_path / "settings.json.bad").read_text() == "{not json"
    assert Store(tmp_path).settings().name == "Cy"
    # a second unreadable file goes to .bad1, the first one is kept
    path.write_text("[1, 2]", encoding="utf-8")
    store2 = Store(tmp_path)
    assert store2.settings() == Settings() and store2.settings_problem
    store2.save_settings(Settings(name="Di"))
    assert (tmp_path / "settings.json.bad").read_text() == "{not json"
    assert (tmp_path / "settings.json.bad1").read_text() == "[1, 2]"


def test_one_bad_value_falls_back_alone_and_unknown_keys_survive(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(
        json.dumps({"name": "Ed", "volume": 7, "sound": False, "future_key": [1]}),
        encoding="utf-8",
    )
    store = Store(tmp_path)
    s = store.settings()
    assert (s.name, s.volume, s.sound) == ("Ed", Settings().volume, False)
    assert store.settings_problem and "volume" in store.settings_problem
    store.save_settings(s)
    data = json.loads((tmp_path / "settings.json").read_text())
    assert data["future_key"] == [1] and data["volume"] == Settings().volume


def _result(table_id: str, people: list[tuple[str, int, bool]]) -> dict:
    return {
        "table_id": table_id, "game": "track", "rules": "classic",
        "people": [{"name": n, "points": p, "won": w} for n, p, w in people],
    }


def test_points_played_won_and_repeats_ignored(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.points() == []
    assert store.record_game(_result("t1", [("Ann", 5, True), ("Bob", 0, False)]))
    assert not store.record_game(_result("t1", [("Ann", 5, True), ("Bob", 0, False)]))
    assert store.record_game(_result("t2", [("Bob", 3, True), ("Bob", 3, True), ("Cat", 0, False)]))
    store.close()
    again = Store(tmp_path)
    assert again.points() == [
        PointsRow("Bob", 6, 2, 1),  # two seats in t2: one game played, points summed
        PointsRow("Ann", 5, 1, 1),
        PointsRow("Cat", 0, 1, 0),
    ]
    assert again.person("Ann") == PointsRow("Ann", 5, 1, 1)
    assert again.person("Zed") is None


def test_malformed_result_is_refused_and_records_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    with pytest.raises(RecordsError):
        store.record_game({"table_id": "x", "game": "track", "rules": "classic",
                           "people": [{"name": "A", "points": -1, "won": True}]})
    with pytest.raises(RecordsError):
        store.record_game({"game": "track"})
    assert store.points() == []
    assert store.record_game(_result("x", [("A", 1, True)]))  # the id was not used up


def test_solo_best_keeps_the_fewest_turns_with_its_seed(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.solo_best("classic") is None
    big_seed = 2**64 - 1  # seeds are 64-bit unsigned; SQLite integers are signed
    assert store.record_solo("classic", 40, big_seed)
    assert not store.record_solo("classic", 40, 7)  # a tie keeps the first
    assert not store.record_solo("classic", 55, 8)
    assert store.record_solo("team", 60, 9)
    assert store.record_solo("classic", 33, 10)
    store.close()
    again = Store(tmp_path)
    assert again.solo_best("classic") == (33, 10)
    assert again.solo_best("team") == (60, 9)
    assert again.solo_bests() == {"classic": (33, 10), "team": (60, 9)}
    assert again.record_solo("tees", 12, big_seed)
    assert again.solo_best("tees") == (12, big_seed)
    with pytest.raises(RecordsError):
        again.record_solo("tees", 0, 1)


def test_corrupt_records_error_and_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    junk = b"this is not a database at all" * 100
    path.write_bytes(junk)
    store = Store(tmp_path)
    with pytest.raises(RecordsError, match=r"records\.sqlite3"):
        store.points()
    with pytest.raises(RecordsError):
        store.record_game(_result("t", [("A", 1, True)]))
    assert path.read_bytes() == junk
    # settings still work beside a broken database
    store.save_settings(Settings(name="Fay"))
    assert Store(tmp_path).settings().name == "Fay"


def test_foreign_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE other (x INTEGER)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(RecordsError, match="not a Tee Table"):
        Store(tmp_path).solo_best("classic")
    assert path.read_bytes() == before


def test_a_folder_that_cannot_be_written_gives_clear_errors(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be", encoding="utf-8")
    store = Store(blocker)
    assert store.settings() == Settings()  # reading never fails
    with pytest.raises(StoreError, match="cannot save the settings"):
        store.save_settings(Settings(name="Gil"))
    with pytest.raises(RecordsError):
        store.points()
    assert blocker.read_text(encoding="utf-8").startswith("a file")


def test_high_contrast_and_setup_round_trip_and_bad_ones_are_refused(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = replace(Settings(), high_contrast=True,
                setup={"track": {"rules": "classic", "seats": 6}, "last": {"local": "track"}})
    store.save_settings(s)
    back = Store(tmp_path).settings()
    assert back.high_contrast is True and back.setup == s.setup
    for bad in ({"high_contrast": "yes"}, {"setup": {"track": [1]}},
                {"setup": {"track": {"seats": 1.5}}}, {"setup": "x"}):
        with pytest.raises(SettingsError):
            store.save_settings(replace(Settings(), **bad))
    assert Store(tmp_path).settings() == back  # nothing written by the refused ones


def result(table_id: str, *people: tuple[str, int, bool, str | None]) -> dict:
    return {"table_id": table_id, "game": "track", "rules": "tees",
            "people": [{"name": n, "points": p, "won": w, **({"pid": i} if i else {})}
                       for n, p, w, i in people]}


def test_records_follow_a_player_id_across_a_rename(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.record_game(result("t1", ("Ada", 4, True, "id-a"), ("Bo", 0, False, None)))
    assert store.follow("id-a", "Ann") == "Ann"  # renamed in Settings
    store.record_game(result("t2", ("Ann", 2, True, "id-a")))
    rows = {r.name: r for r in store.points()}
    assert "Ada" not in rows and rows["Ann"] == PointsRow("Ann", 6, 2, 2)
    assert rows["Bo"] == PointsRow("Bo", 0, 1, 0)
    # a name another player's id holds is not taken over: the records stay apart
    store.record_game(result("t3", ("Cy", 3, True, "id-c")))
    assert store.follow("id-a", "Cy") == "Ann"
    assert {r.name: r.points for r in store.points()} == {"Ann": 6, "Cy": 3, "Bo": 0}


def test_records_kept_by_name_before_the_ids_are_claimed(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.record_game(result("t1", ("Ada", 4, True, None)))  # before there were ids
    store.close()
    store = Store(tmp_path)
    assert store.follow("id-a", "Ada") == "Ada"  # the Records screen (or a rename) claims it
    store.follow("id-a", "Ann")
    assert store.points() == [PointsRow("Ann", 4, 1, 1)]


def test_a_version_1_records_file_gains_the_ids(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "PRAGMA application_id = 1415931220; PRAGMA user_version = 1;"
        "CREATE TABLE people (name TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0,"
        " played INTEGER NOT NULL DEFAULT 0, won INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE games (table_id TEXT PRIMARY KEY, game TEXT NOT NULL, rules TEXT NOT NULL,"
        " at REAL NOT NULL);"
        "CREATE TABLE solo (rules TEXT PRIMARY KEY, turns INTEGER NOT NULL, seed TEXT NOT NULL,"
        " at REAL NOT NULL);"
        "INSERT INTO people VALUES ('Ada', 5, 2, 1);")
    db.close()
    store = Store(tmp_path)
    store.follow("id-a", "Ada")  # the old name-keyed row is claimed...
    store.follow("id-a", "Ann")  # ...and follows the rename
    assert store.points() == [PointsRow("Ann", 5, 2, 1)]
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    db.close()


def test_the_stores_speed_names_are_the_tables() -> None:
    """The store stands beside the layers and may not import the table, so it keeps the speed
    names it validates settings with; they must be exactly the table's one speed table's."""
    from game import store
    from game.table.pacing import SPEEDS

    assert tuple(SPEEDS) == store.SPEEDS
