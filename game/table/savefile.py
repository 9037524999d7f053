"""The save file: its only writer and its only reader (write, inspect, read for replay).

JSON lines, append-only. Line 1 is the header ``{"format": "tee-table-save", "version": 1,
"game", "config", "seed", "table_id", "host_token", "host_seat", "speed", "seats": [...]}``;
then one record per line: ``{"t": "play", "seat", "play", "n"}`` (plus ``"over": true`` on the
play that ends the game, ``"standin": true`` on a CPU's play for a person who dropped or ran out
of time, ``"timeout": true`` on the first play of a turn whose clock ran out),
``{"t": "seat", ...}`` (a seat changed hands or level), ``{"t": "start"}``,
``{"t": "undo", "n"}``, ``{"t": "speed", "name"}``. The table replays the records through its
own play path (``Table.resume``); this module reads and checks them.

* :class:`SaveFile` writes: each record is one ``os.write`` of a whole line (no buffer that a
  failed write could leave half-flushed), fsync'd unless ``fsync=False``; the file is locked
  (``flock`` on POSIX) while open, so a second table resuming it gets :class:`SaveInUse`.
* :func:`read_save` reads for resume: strict, every damage is a :class:`CorruptSave` naming the
  file and the cause; a torn last line (a crash mid-write) is reported so it can be cut off.
* :func:`check_header` checks the header against the game's seat count (a save whose seat list
  does not match its game is a :class:`CorruptSave`, never an ``IndexError``).
* :func:`inspect_save`, :func:`list_saves`, :func:`never_started`: the Reopen list's facts,
  tolerant of damage (a file that cannot be read is left out).
* :func:`new_save_path`, :func:`write_host_note`, :func:`read_host_note`, :func:`discard_save`:
  the hosted tables' files in the data folder (``<data>/saves/hosted-<date>-<time>-<xxxx>.jsonl``
  and beside it ``<same name>.host.json``, the code and port it was hosted on).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.table.errors import (
    CorruptSave,
    ForeignSave,
    SaveError,
    SaveExists,
    SaveInUse,
    SaveVersionError,
)
from game.table.seats import Seat, seat_from_record

try:  # POSIX: lock a save file while a table writes it
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None  # type: ignore[assignment]

SAVE_FORMAT = "tee-table-save"
SAVE_VERSION = 1
SAVES = "saves"
NOTE_SUFFIX = ".host.json"
_HEADER_KEYS = ("game", "config", "seed", "table_id", "host_token", "host_seat", "speed",
                "seats")


# ------------------------------------------------------------------------------ writing


class SaveFile:
    """An append-only JSON-lines file, each record written whole and fsync'd."""

    def __init__(self, path: Path, *, fsync: bool, create: bool) -> None:
        self.path = path
        self.fsync = fsync
        self._fd: int | None = None
        flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT | os.O_EXCL if create else 0)
        try:
            fd = os.open(path, flags, 0o644)
        except FileExistsError:
            raise SaveExists(f"{path} already exists; a save is never overwritten") from None
        except FileNotFoundError:
            if create:
                raise SaveError(f"cannot open the save file {path}: no such folder") from None
            raise SaveError(f"no save file at {path}") from None
        except OSError as e:
            raise SaveError(f"cannot open the save file {path}: {e}") from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise SaveInUse(
                    f"{path} is in use by another Tee Table (is that table still open?)"
                ) from None
        self._fd = fd

    @property
    def closed(self) -> bool:
        return self._fd is None

    def truncate(self, size: int) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, size)

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one record; ``OSError`` when it cannot (the file is then a replayable prefix:
        at worst its last line is torn, which a resume drops)."""
        if self._fd is None:
            raise ValueError(f"{self.path} is closed")
        data = (json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n").encode()
        view = memoryview(data)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]
        if self.fsync:
            os.fsync(self._fd)

    def __del__(self) -> None:  # a table dropped without close() still frees its lock
        self.close()

    def close(self) -> None:
        """Close the file (never raises: nothing is buffered, so nothing can be lost here)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def header(game: str, config: Mapping[str, Any], seed: int, table_id: str, host_token: str,
           host_seat: int | None, speed: str, seats: list[Seat]) -> dict[str, Any]:
    return {
        "format": SAVE_FORMAT, "version": SAVE_VERSION, "game": game, "config": dict(config),
        "seed": seed, "table_id": table_id, "host_token": host_token, "host_seat": host_seat,
        "speed": speed, "seats": [s.to_record() for s in seats],
    }


# ------------------------------------------------------------------------------ reading


def _lines(path: Path) -> tuple[list[bytes], bytes, int]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"no save file at {path}") from None
    except OSError as e:
        raise SaveError(f"cannot read {path}: {e}") from None
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    return lines, tail, len(raw)


def _header(path: Path, line: bytes) -> dict[str, Any]:
    try:
        head = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ForeignSave(f"{path} is not a Tee Table save (the first line is not JSON)") from None
    if not isinstance(head, dict) or head.get("format") != SAVE_FORMAT:
        raise ForeignSave(f"{path} is not a Tee Table save (no {SAVE_FORMAT!r} header)")
    version = head.get("version")
    if type(version) is not int or version < 1:
        raise CorruptSave(f"{path}: the header has no valid version")
    if version > SAVE_VERSION:
        raise SaveVersionError(
            f"{path} was saved by a newer Tee Table (save version {version}, "
            f"this program reads {SAVE_VERSION})"
        )
    return head


def read_save(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], int | None, list[str]]:
    """Header, records (each with its ``_line``), the byte length to cut a torn tail at (or
    None), warnings. Raises :class:`ForeignSave`, :class:`CorruptSave`,
    :class:`SaveVersionError` or :class:`SaveError`."""
    lines, tail, size = _lines(path)
    warnings: list[str] = []
    cut: int | None = None
    if tail:
        if not lines:
            raise ForeignSave(f"{path} is not a Tee Table save (no complete header line)")
        cut = size - len(tail)
        warnings.append(
            f"{path}: the last record was cut short (a crash mid-write?); it was dropped"
        )
    if not lines:
        raise ForeignSave(f"{path} is not a Tee Table save (it is empty)")
    head = _header(path, lines[0])
    records: list[dict[str, Any]] = []
    for i, line in enumerate(lines[1:], start=2):
        try:
            rec = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise CorruptSave(f"{path}: line {i} is damaged (not JSON)") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("t"), str):
            raise CorruptSave(f"{path}: line {i} is not a save record")
        rec["_line"] = i
        records.append(rec)
    return head, records, cut, warnings


def check_header(path: Path, head: Mapping[str, Any], seat_count: int | None = None
                 ) -> list[Seat]:
    """The header's seats, after checking every field the table uses; :class:`CorruptSave`
    naming ``path`` and the cause otherwise. ``seat_count``: the game's (from its config)."""
    for key in _HEADER_KEYS:
        if key not in head:
            raise CorruptSave(f"{path}: the header has no {key!r}")
    if not isinstance(head["game"], str):
        raise CorruptSave(f"{path}: the header's game {head['game']!r} is not a name")
    if not isinstance(head["config"], dict):
        raise CorruptSave(f"{path}: the header's config is not a mapping")
    seed = head["seed"]
    if type(seed) is not int or not 0 <= seed < 2**64:
        raise CorruptSave(f"{path}: the header's seed {seed!r} is not a 64-bit number")
    for key in ("table_id", "host_token", "speed"):
        if not isinstance(head[key], str) or not head[key]:
            raise CorruptSave(f"{path}: the header's {key} {head[key]!r} is not text")
    raw = head["seats"]
    if not isinstance(raw, list) or not raw:
        raise CorruptSave(f"{path}: the header's seats are not a list of seats")
    try:
        seats = [seat_from_record(r, i) for i, r in enumerate(raw)]
    except ValueError as e:
        raise CorruptSave(f"{path}: the header's {e}") from None
    if seat_count is not None and len(seats) != seat_count:
        raise CorruptSave(
            f"{path}: the header lists {len(seats)} seats but its game has {seat_count}"
        )
    hs = head["host_seat"]
    if hs is not None and not (
        type(hs) is int and 0 <= hs < len(seats) and seats[hs].kind == "person"
    ):
        raise CorruptSave(f"{path}: the header's host seat {hs!r} is not a person's seat")
    return seats


# ------------------------------------------------------------------------------ inspecting


@dataclass(frozen=True)
class SaveInfo:
    """What the Reopen screen lists about one save file."""

    path: Path
    game: str
    rules: str
    seats: int
    people: tuple[str, ...]
    plays: int
    modified: float
    code: str | None
    finished: bool = False  # the last play ended the game (saves from before this: False)

    def title(self) -> str:
        game = "Trash" if self.game == "layout" else f"Track, {self.rules}"
        return f"{game}, {self.seats} seats"

    def detail(self) -> str:
        when = time.strftime("%a %d %b %H:%M", time.localtime(self.modified))
        who = ", ".join(self.people) if self.people else "CPUs only"
        if self.finished:
            state = "finished"
        elif self.plays:
            state = f"{self.plays} play" + ("s" if self.plays != 1 else "")
        else:
            state = "not started"
        return f"{when} - {who} - {state}"


def _tolerant_records(lines: list[bytes]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in lines:
        try:
            rec = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue  # damage: the table refuses it on resume, the list skips it
        if isinstance(rec, dict):
            out.append(rec)
    return out


def inspect_save(path: Path) -> SaveInfo | None:
    """The facts of a save file for the Reopen list, or None when it is not a readable Tee
    Table save."""
    try:
        lines, _tail, _size = _lines(path)
        if not lines:
            return None
        head = _header(path, lines[0])
        raw = head.get("seats")
        if not isinstance(raw, list) or not raw:
            return None
        seats: list[dict[str, Any]] = [dict(x) for x in raw if isinstance(x, dict)]
        if len(seats) != len(raw):
            return None
        plays, over = 0, False
        for rec in _tolerant_records(lines[1:]):
            t = rec.get("t")
            if t == "play":
                plays += 1
                over = rec.get("over") is True
            elif t == "undo":
                plays = max(0, plays - 1)
                over = False
            elif t == "seat" and type(rec.get("seat")) is int and 0 <= rec["seat"] < len(seats):
                seats[rec["seat"]] = rec
        st = path.stat()
    except (SaveError, OSError):
        return None
    config = head.get("config") if isinstance(head.get("config"), dict) else {}
    assert isinstance(config, dict)
    game = str(head.get("game", "?"))
    people = tuple(str(s.get("name", "")) for s in seats if s.get("kind") == "person")
    return SaveInfo(path, game, str(config.get("rules", game)), len(seats), people, plays,
                    st.st_mtime, read_host_note(path).get("code"), over)


def saves_dir(folder: str | os.PathLike[str]) -> Path:
    return Path(folder) / SAVES


def list_saves(folder: str | os.PathLike[str], limit: int = 50) -> list[SaveInfo]:
    """Readable save files in ``<folder>/saves``, newest first."""
    d = saves_dir(folder)
    try:
        files = [(p.stat().st_mtime, p.name, p) for p in d.iterdir()
                 if p.suffix == ".jsonl" and p.is_file()]
    except OSError:
        return []
    files.sort(reverse=True)
    out: list[SaveInfo] = []
    for _, _, p in files:
        info = inspect_save(p)
        if info is not None:
            out.append(info)
        if len(out) >= limit:
            break
    return out


def never_started(save: str | os.PathLike[str]) -> bool:
    """True when the save holds no game yet (no ``start`` record): nothing to reopen."""
    try:
        lines, _tail, _size = _lines(Path(save))
    except SaveError:
        return False
    return not any(rec.get("t") == "start" for rec in _tolerant_records(lines[1:]))


# ------------------------------------------------------------------------------ the data folder


def new_save_path(folder: str | os.PathLike[str]) -> Path:
    """A fresh save file name for a new hosted table (the folder is created)."""
    d = saves_dir(folder)
    d.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return d / f"hosted-{stamp}-{secrets.token_hex(2)}.jsonl"


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` atomically (a temporary file, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, sort_keys=True))
    os.replace(tmp, path)


def read_json(path: Path) -> Any:
    """The JSON in ``path``, or None when it is missing or damaged."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def note_path(save: str | os.PathLike[str]) -> Path:
    p = Path(save)
    return p.with_name(p.name + NOTE_SUFFIX)


def write_host_note(save: str | os.PathLike[str], code: str, port: int) -> None:
    """Remember the code and port a saved table is hosted on."""
    write_json(note_path(save), {"code": code, "port": int(port)})


def read_host_note(save: str | os.PathLike[str]) -> dict[str, Any]:
    """``{"code", "port"}`` of a saved table, or ``{}`` when unknown."""
    data = read_json(note_path(save))
    if not isinstance(data, dict):
        return {}
    out: dict[str, Any] = {}
    if isinstance(data.get("code"), str):
        out["code"] = data["code"]
    if type(data.get("port")) is int and 0 < data["port"] < 65536:
        out["port"] = data["port"]
    return out


def discard_save(save: str | os.PathLike[str]) -> None:
    """Delete a save file and its note (a hosted table that never started, or never opened)."""
    for p in (Path(save), note_path(save)):
        with contextlib.suppress(OSError):
            p.unlink()
