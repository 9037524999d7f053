"""Records and settings on disk, in the user's data folder.

Where
-----
The folder is, in order of preference: the ``path`` given to :class:`Store`, the environment
variable ``TEE_TABLE_DATA``, or ``platformdirs.user_data_dir("tee-table")`` (for example
``~/.local/share/tee-table`` on Linux). It is created on first write. Two files live there:

* ``settings.json``: the :class:`Settings` of this machine (a JSON object);
* ``records.sqlite3``: points per person name (and, for this machine's player, the random
  ``player_id`` of the settings: renaming moves the history along, see :meth:`Store.follow`;
  records of before the ids are claimed by name), games played and won, and the solo best count per
  rule set with the seed that dealt it.

Usage (the client's Settings and Records screens)::

    store = Store()                       # or Store(tmp_path) in tests
    s = store.settings()                  # defaults when the file is missing or unreadable
    if store.settings_problem:            # a message for people when it was unreadable
        show(store.settings_problem)
    store.save_settings(replace(s, volume=0.5))    # SettingsError on a bad value
    store.record_game(table.result())     # once per finished game; repeats are ignored
    for row in store.points():            # PointsRow(name, points, played, won), best first
        ...
    store.solo_best("classic")            # (turns, seed) or None
    store.record_solo("classic", 41, seed)  # True when it is a new best

Failures
--------
* A settings file that cannot be read never crashes anything and is never overwritten:
  :meth:`Store.settings` returns the defaults and sets :attr:`Store.settings_problem`; a later
  :meth:`Store.save_settings` first moves the unreadable file aside to ``settings.json.bad``
  (``.bad1``, ``.bad2``... if that exists) and then writes the new one. A single bad value in an
  otherwise good file falls back to that value's default (and is named in the problem text).
* A records database that is corrupt or belongs to another program raises
  :class:`RecordsError` (with the path in the message) from the records methods only; the file
  is left untouched, and settings keep working. Any other SQLite failure (disk full, locked)
  is a :class:`RecordsError` too.
* A folder that cannot be written: :meth:`Store.save_settings` raises :class:`StoreError`.
  Every error of this module is a :class:`StoreError`, so ``except StoreError`` covers all.
"""

from __future__ import annotations

import functools
import json
import math
import os
import secrets
import sqlite3
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import platformdirs

__all__ = [
    "ANIMATIONS",
    "DATA_ENV",
    "SPEEDS",
    "PointsRow",
    "RecordsError",
    "Settings",
    "SettingsError",
    "Store",
    "StoreError",
    "data_dir",
]

DATA_ENV = "TEE_TABLE_DATA"
APP_NAME = "tee-table"
SETTINGS_FILE = "settings.json"
RECORDS_FILE = "records.sqlite3"
_APPLICATION_ID = 0x54656554  # "TeeT": marks the SQLite file as ours
#: 1: people by name; 2: ``ids`` maps a player id to the name its records are under.
_SCHEMA_VERSION = 2

#: Local animation preference: ``full`` draws every flourish, ``reduced`` keeps motion simple
#: (the timing is the table speed either way: everyone watches the same game at the same pace).
ANIMATIONS = ("full", "reduced")
#: Table speed presets (the same names as ``game.table.SPEEDS``), for the host's default.
SPEEDS = ("relaxed", "normal", "brisk", "blitz")
NAME_MAX = 24


class StoreError(Exception):
    """Base class of the store's errors."""


class SettingsError(StoreError, ValueError):
    """A settings value that cannot be saved (wrong type or out of range)."""


class RecordsError(StoreError):
    """The records database is corrupt or foreign, or a record is malformed."""


def data_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """The data folder: ``path``, else ``$TEE_TABLE_DATA``, else the platform's user data dir."""
    if path is not None:
        return Path(path)
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir(APP_NAME))


@dataclass
class Settings:
    """This machine's preferences. Every field has a default, so a missing file is fine."""

    name: str = "Player"
    colour: str | None = None  # preferred seat colour ("red", "blue", ...), None: no preference
    sound: bool = True
    volume: float = 0.8  # 0.0 .. 1.0
    animation: str = "full"  # one of ANIMATIONS
    fullscreen: bool = False
    table_speed: str = "normal"  # the speed a table hosted here starts at; one of SPEEDS
    #: This machine's player: a random id kept across renames, so the records follow a person
    #: who changes their name ("" until the app gives it one: :func:`new_player_id`).
    player_id: str = ""
    #: High contrast for the tables (stronger outlines and colours; the table scenes read it).
    high_contrast: bool = False
    #: The New table screen's last choices: ``{"track": {...}, "layout": {...}, "solo":
    #: {...}, "last": {"local": "layout", ...}}`` (each a mapping of option -> JSON value).
    setup: dict[str, Any] = field(default_factory=dict)
    # Keys written by a newer version are kept and written back unchanged.
    extra: dict[str, Any] = field(default_factory=dict)

    def problems(self) -> list[str]:
        """What is wrong with these values (empty when they can be saved)."""
        out: list[str] = []
        if not isinstance(self.name, str) or not self.name.strip():
            out.append("name must be some text")
        elif len(self.name.strip()) > NAME_MAX:
            out.append(f"name must be at most {NAME_MAX} characters")
        elif any(unicodedata.category(ch).startswith("C") for ch in self.name):
            out.append("name must not hold control characters")
        if self.colour is not None and (not isinstance(self.colour, str) or not self.colour):
            out.append("colour must be a colour name or None")
        if not isinstance(self.sound, bool):
            out.append("sound must be true or false")
        if (
            isinstance(self.volume, bool)
            or not isinstance(self.volume, int | float)
            or not math.isfinite(self.volume)
            or not 0.0 <= self.volume <= 1.0
        ):
            out.append("volume must be a number from 0.0 to 1.0")
        if self.animation not in ANIMATIONS:
            out.append(f"animation must be one of {', '.join(ANIMATIONS)}")
        if not isinstance(self.fullscreen, bool):
            out.append("fullscreen must be true or false")
        if self.table_speed not in SPEEDS:
            out.append(f"table_speed must be one of {', '.join(SPEEDS)}")
        if not isinstance(self.player_id, str) or len(self.player_id) > 64:
            out.append("player_id must be a short text")
        if not isinstance(self.high_contrast, bool):
            out.append("high_contrast must be true or false")
        if not _setup_ok(self.setup):
            out.append("setup must map names to mappings of options to plain values")
        if not isinstance(self.extra, dict):
            out.append("extra must be a dict")
        return out

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        extra = d.pop("extra")
        d["name"] = d["name"].strip()
        return {**extra, **d}


_SETTING_NAMES = tuple(f.name for f in fields(Settings) if f.name != "extra")


def new_player_id() -> str:
    """A fresh random player id (16 hex digits)."""
    return secrets.token_hex(8)


def _setup_ok(setup: object) -> bool:
    """``setup`` is ``{name: {option: str | int | bool | None}}`` (JSON scalars only)."""
    if not isinstance(setup, dict):
        return False
    for k, v in setup.items():
        if not isinstance(k, str) or not isinstance(v, dict):
            return False
        for opt, val in v.items():
            if not isinstance(opt, str) or not (val is None or isinstance(val, str | int)):
                return False
    return True


class PointsRow(NamedTuple):
    name: str
    points: int
    played: int
    won: int


_F = TypeVar("_F", bound=Callable[..., Any])


def _records(method: _F) -> _F:
    """Turn SQLite's own errors (disk full, locked, unreadable) into :class:`RecordsError`."""

    @functools.wraps(method)
    def wrapper(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as e:
            raise RecordsError(f"the records database {self.records_path}: {e}") from None

    return wrapper  # type: ignore[return-value]


#: Player ids: whose records a name holds (a rename moves them; an old name-only row is
#: claimed by the first id that plays or looks under that name).
_IDS_TABLE = """
CREATE TABLE IF NOT EXISTS ids (
    pid TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
"""


class Store:
    """Settings and records in one data folder (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.folder = data_dir(path)
        self.settings_path = self.folder / SETTINGS_FILE
        self.records_path = self.folder / RECORDS_FILE
        #: Why the settings file could not be used (``None`` when it was fine or missing).
        self.settings_problem: str | None = None
        self._settings_unreadable = False
        self._db: sqlite3.Connection | None = None

    # ------------------------------------------------------------------ settings

    def settings(self) -> Settings:
        """The saved settings, or the defaults (never raises; see :attr:`settings_problem`)."""
        self.settings_problem = None
        self._settings_unreadable = False
        try:
            text = self.settings_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return Settings()
        except (OSError, UnicodeDecodeError) as e:
            return self._unreadable(f"cannot read {self.settings_path}: {e}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            return self._unreadable(f"{self.settings_path} is not valid JSON ({e}); using defaults")
        if not isinstance(data, dict):
            return self._unreadable(f"{self.settings_path} does not hold a JSON object")
        defaults = Settings()
        s = Settings(extra={k: v for k, v in data.items() if k not in _SETTING_NAMES})
        bad: list[str] = []
        for name in _SETTING_NAMES:
            if name not in data:
                continue
            trial = Settings(**{name: data[name]})
            if trial.problems():
                bad.append(name)
                setattr(s, name, getattr(defaults, name))
            else:
                setattr(s, name, data[name])
        if isinstance(s.volume, int):
            s.volume = float(s.volume)
        if bad:
            self.settings_problem = (
                f"{self.settings_path}: bad value for {', '.join(bad)}; using the default"
            )
        return s

    def _unreadable(self, message: str) -> Settings:
        self.settings_problem = message
        self._settings_unreadable = True
        return Settings()

    def save_settings(self, s: Settings) -> None:
        """Write ``s`` atomically. Raises :class:`SettingsError` (writing nothing) if invalid,
        :class:`StoreError` if the folder cannot be written.

        An unreadable settings file found by :meth:`settings` is moved aside first, never
        overwritten.
        """
        problems = s.problems()
        if problems:
            raise SettingsError("cannot save settings: " + "; ".join(problems))
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if self._settings_unreadable or self._file_is_unreadable():
                self._move_aside(self.settings_path)
                self._settings_unreadable = False
            tmp = self.settings_path.with_name(SETTINGS_FILE + ".tmp")
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(s.to_json(), f, indent=2, sort_keys=True)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.settings_path)
        except OSError as e:
            raise StoreError(f"cannot save the settings in {self.folder}: {e}") from None
        self.settings_problem = None

    def _file_is_unreadable(self) -> bool:
        try:
            data = json.loads(self.settings_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return False
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return True
        return not isinstance(data, dict)

    @staticmethod
    def _move_aside(path: Path) -> Path | None:
        if not path.exists():
            return None
        n = 0
        while True:
            target = path.with_name(path.name + (".bad" if n == 0 else f".bad{n}"))
            if not target.exists():
                os.replace(path, target)
                return target
            n += 1

    # ------------------------------------------------------------------ records

    def _conn(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        try:
            return self._open()
        except OSError as e:
            raise RecordsError(f"cannot open the records in {self.folder}: {e}") from None

    def _open(self) -> sqlite3.Connection:
        path = self.records_path
        existed = path.exists() and path.stat().st_size > 0
        if not existed:
            self.folder.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(path)
        except sqlite3.Error as e:
            raise RecordsError(f"cannot open the records database {path}: {e}") from None
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if existed:
                if app_id != _APPLICATION_ID:
                    raise RecordsError(
                        f"{path} is not a Tee Table records database; it was left untouched"
                    )
                if version > _SCHEMA_VERSION:
                    raise RecordsError(
                        f"{path} was written by a newer Tee Table (records version {version}); "
                        "it was left untouched"
                    )
                db.execute("PRAGMA quick_check").fetchone()
                if version < 2:  # a version 1 file: add the player ids (names stay as they are)
                    with db:
                        db.executescript(_IDS_TABLE + "PRAGMA user_version = 2;")
            else:
                with db:
                    db.executescript(
                        f"""
                        PRAGMA application_id = {_APPLICATION_ID};
                        PRAGMA user_version = {_SCHEMA_VERSION};
                        CREATE TABLE IF NOT EXISTS people (
                            name TEXT PRIMARY KEY,
                            points INTEGER NOT NULL DEFAULT 0,
                            played INTEGER NOT NULL DEFAULT 0,
                            won INTEGER NOT NULL DEFAULT 0
                        );
                        CREATE TABLE IF NOT EXISTS games (
                            table_id TEXT PRIMARY KEY,
                            game TEXT NOT NULL,
                            rules TEXT NOT NULL,
                            at REAL NOT NULL
                        );
                        CREATE TABLE IF NOT EXISTS solo (
                            rules TEXT PRIMARY KEY,
                            turns INTEGER NOT NULL,
                            seed TEXT NOT NULL,
                            at REAL NOT NULL
                        );
                        """ + _IDS_TABLE
                    )
        except sqlite3.DatabaseError as e:
            db.close()
            raise RecordsError(
                f"{path} is corrupt or not a records database ({e}); it was left untouched"
            ) from None
        except RecordsError:
            db.close()
            raise
        self._db = db
        return db

    @_records
    def record_game(self, result: Mapping[str, Any]) -> bool:
        """Add a finished game to the records; ``False`` if this ``table_id`` was recorded.

        ``result`` is :meth:`game.table.Table.result`: a mapping with ``table_id`` (str),
        ``game`` (str), ``rules`` (str) and ``people``: a list of mappings with ``name`` (str),
        ``points`` (int >= 0) and ``won`` (bool). A name on several seats counts one game played
        (won if any of its seats won) and the sum of the points. CPUs are never in ``people``.
        """
        try:
            table_id = str(result["table_id"])
            game = str(result["game"])
            rules = str(result["rules"])
            people = list(result["people"])
        except (KeyError, TypeError) as e:
            raise RecordsError(f"a game result needs table_id, game, rules, people ({e})") from None
        per_name: dict[str, list[int]] = {}
        ids: dict[str, str] = {}  # name -> player id, for the people who carry one
        for p in people:
            pid = p.get("pid") if isinstance(p, Mapping) else None
            if isinstance(pid, str) and pid and isinstance(p.get("name"), str):
                ids[str(p["name"]).strip()] = pid
            try:
                name = str(p["name"]).strip()
                points = p["points"]
                won = p["won"]
            except (KeyError, TypeError) as e:
                raise RecordsError(f"a person in a result needs name, points, won ({e})") from None
            if not name:
                raise RecordsError("a person in a result has an empty name")
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                raise RecordsError(f"points of {name!r} must be a whole number >= 0")
            acc = per_name.setdefault(name, [0, 0])
            acc[0] += points
            acc[1] = max(acc[1], 1 if won else 0)
        db = self._conn()
        with db:
            if db.execute("SELECT 1 FROM games WHERE table_id = ?", (table_id,)).fetchone():
                return False
            db.execute(
                "INSERT INTO games (table_id, game, rules, at) VALUES (?, ?, ?, ?)",
                (table_id, game, rules, time.time()),
            )
            renamed: dict[str, str] = {}
            for name, pid in ids.items():  # a renamed person's history follows them
                renamed[name] = self._follow(db, pid, name)
            for name0, (points, won) in per_name.items():
                name = renamed.get(name0, name0)
                db.execute(
                    "INSERT INTO people (name, points, played, won) VALUES (?, ?, 1, ?) "
                    "ON CONFLICT(name) DO UPDATE SET points = points + excluded.points, "
                    "played = played + 1, won = won + excluded.won",
                    (name, points, won),
                )
        return True

    def _follow(self, db: sqlite3.Connection, pid: str, name: str) -> str:
        """Put player ``pid``'s records under ``name`` (inside a transaction); returns the name
        they are kept under now. A new id claims the records already under ``name`` (the
        name-keyed records of before); a known id moves its row to the new name, adding it to
        an unclaimed row of that name. When ``name`` belongs to another id the records stay
        under the old name (two people, one name: neither loses their history)."""
        row = db.execute("SELECT name FROM ids WHERE pid = ?", (pid,)).fetchone()
        owner = db.execute("SELECT pid FROM ids WHERE name = ?", (name,)).fetchone()
        if row is None:
            if owner is not None:
                return name  # someone else's name: this id starts no claim on it
            db.execute("INSERT INTO ids (pid, name) VALUES (?, ?)", (pid, name))
            return name
        old = str(row[0])
        if old == name:
            return name
        if owner is not None and owner[0] != pid:
            return old
        mine = db.execute("SELECT points, played, won FROM people WHERE name = ?",
                          (old,)).fetchone()
        if mine is not None:
            if db.execute("SELECT 1 FROM people WHERE name = ?", (name,)).fetchone():
                db.execute("UPDATE people SET points = points + ?, played = played + ?, "
                           "won = won + ? WHERE name = ?", (*mine, name))
                db.execute("DELETE FROM people WHERE name = ?", (old,))
            else:
                db.execute("UPDATE people SET name = ? WHERE name = ?", (name, old))
        db.execute("UPDATE ids SET name = ? WHERE pid = ?", (name, pid))
        return name

    @_records
    def follow(self, pid: str, name: str) -> str:
        """Player ``pid`` is called ``name`` now (Settings, or the Records screen opening):
        their records move to that name, or an old name-only record is claimed. Returns the
        name the records are under."""
        clean = " ".join(str(name).split())
        if not isinstance(pid, str) or not pid or not clean:
            raise RecordsError("a player id and a name are needed")
        db = self._conn()
        with db:
            return self._follow(db, pid, clean)

    @_records
    def points(self) -> list[PointsRow]:
        """Every person's totals, most points first (then most wins, then by name)."""
        rows = self._conn().execute(
            "SELECT name, points, played, won FROM people ORDER BY points DESC, won DESC, name"
        )
        return [PointsRow(*r) for r in rows]

    @_records
    def person(self, name: str) -> PointsRow | None:
        row = self._conn().execute(
            "SELECT name, points, played, won FROM people WHERE name = ?", (name.strip(),)
        ).fetchone()
        return PointsRow(*row) if row else None

    @_records
    def solo_best(self, rules: str) -> tuple[int, int] | None:
        """``(turns, seed)`` of the best solo game of ``rules`` (``"classic"``...), or None."""
        row = self._conn().execute(
            "SELECT turns, seed FROM solo WHERE rules = ?", (rules,)
        ).fetchone()
        return (row[0], int(row[1])) if row else None

    @_records
    def solo_bests(self) -> dict[str, tuple[int, int]]:
        rows = self._conn().execute("SELECT rules, turns, seed FROM solo ORDER BY rules")
        return {r: (t, int(s)) for r, t, s in rows}

    @_records
    def record_solo(self, rules: str, turns: int, seed: int) -> bool:
        """Keep ``turns`` as the best of ``rules`` if it is fewer than the best so far.

        Returns True when it is a new best (a tie keeps the older record and returns False).
        """
        if not isinstance(rules, str) or not rules:
            raise RecordsError("solo rules must be a rule set name")
        if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
            raise RecordsError(f"solo turns must be a whole number >= 1, not {turns!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RecordsError(f"solo seed must be an int, not {seed!r}")
        db = self._conn()
        with db:
            row = db.execute("SELECT turns FROM solo WHERE rules = ?", (rules,)).fetchone()
            if row is not None and row[0] <= turns:
                return False
            db.execute(
                "INSERT INTO solo (rules, turns, seed, at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(rules) DO UPDATE SET turns = excluded.turns, seed = excluded.seed, "
                "at = excluded.at",
                (rules, turns, str(seed), time.time()),
            )
        return True

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
