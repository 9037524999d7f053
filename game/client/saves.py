"""Hosted tables' save files and joined seats, kept in the data folder so a table survives a
crash of either side.

* ``<data>/saves/hosted-<date>-<time>-<xxxx>.jsonl``: each table this program hosts (the
  table's own save format, written by :class:`game.table.Table`), and beside it
  ``<same name>.host.json``: the code and port it was hosted on, so "Reopen a saved table"
  brings it back under the same code and port and every joined program rejoins its seat by
  itself. :func:`list_saves` reads the headers (newest first) for the Reopen screen.
* ``<data>/joined.json``: for each table this program joined, keyed by the host's code (and
  by ``addr:HOST:PORT`` for a join by address), the seat token, seat and link. A program that
  is closed and opened again with the same code or link passes the token and lands back in its
  own seat ("If your board ever looks stuck, close and reopen the program: it rejoins your
  seat").

Every function that reads tolerates missing or damaged files (they are skipped or treated as
empty); writes are atomic (temporary file, then rename).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SAVES = "saves"
JOINED = "joined.json"
NOTE_SUFFIX = ".host.json"


def saves_dir(folder: str | os.PathLike[str]) -> Path:
    return Path(folder) / SAVES


def new_save_path(folder: str | os.PathLike[str]) -> Path:
    """A fresh save file name for a new hosted table (the folder is created)."""
    d = saves_dir(folder)
    d.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return d / f"hosted-{stamp}-{secrets.token_hex(2)}.jsonl"


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, sort_keys=True))
    os.replace(tmp, path)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def note_path(save: str | os.PathLike[str]) -> Path:
    p = Path(save)
    return p.with_name(p.name + NOTE_SUFFIX)


def write_host_note(save: str | os.PathLike[str], code: str, port: int) -> None:
    """Remember the code and port a saved table is hosted on."""
    _write_json(note_path(save), {"code": code, "port": int(port)})


def read_host_note(save: str | os.PathLike[str]) -> dict[str, Any]:
    """``{"code", "port"}`` of a saved table, or ``{}`` when unknown."""
    data = _read_json(note_path(save))
    if not isinstance(data, dict):
        return {}
    out: dict[str, Any] = {}
    if isinstance(data.get("code"), str):
        out["code"] = data["code"]
    if isinstance(data.get("port"), int) and 0 < data["port"] < 65536:
        out["port"] = data["port"]
    return out


def discard_save(save: str | os.PathLike[str]) -> None:
    """Delete a save file and its note (a hosted table that never started, or never opened)."""
    for p in (Path(save), note_path(save)):
        with contextlib.suppress(OSError):
            p.unlink()


def never_started(save: str | os.PathLike[str]) -> bool:
    """True when the save holds no game yet (no ``start`` record): nothing to reopen."""
    try:
        with open(save, encoding="utf-8") as f:
            f.readline()
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict) and rec.get("t") == "start":
                    return False
    except OSError:
        return False
    return True


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


def read_save_info(path: Path) -> SaveInfo | None:
    """The header facts of a save file, or None when it is not a readable Tee Table save."""
    try:
        with open(path, encoding="utf-8") as f:
            header = json.loads(f.readline())
            seats = header.get("seats") if isinstance(header, dict) else None
            seats = [dict(x) for x in seats if isinstance(x, dict)] if isinstance(seats,
                                                                                 list) else []
            plays = 0
            over = False
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue  # a torn last line: the table drops it on resume
                if not isinstance(rec, dict):
                    continue
                if rec.get("t") == "play":
                    plays += 1
                    over = rec.get("over") is True
                elif rec.get("t") == "undo":
                    plays = max(0, plays - 1)
                    over = False
                elif rec.get("t") == "seat" and isinstance(rec.get("seat"), int) and \
                        0 <= rec["seat"] < len(seats):
                    seats[rec["seat"]] = rec
        st = path.stat()
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(header, dict) or header.get("format") != "tee-table-save" or not seats:
        return None
    config = header.get("config") if isinstance(header.get("config"), dict) else {}
    game = str(header.get("game", "?"))
    people = tuple(str(s.get("name", "")) for s in seats
                   if isinstance(s, dict) and s.get("kind") == "person")
    return SaveInfo(path, game, str(config.get("rules", game)), len(seats), people, plays,
                    st.st_mtime, read_host_note(path).get("code"), over)


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
        info = read_save_info(p)
        if info is not None:
            out.append(info)
        if len(out) >= limit:
            break
    return out


# ---------------------------------------------------------------------------- joined seats
def join_keys(target: Any) -> list[str]:
    """The keys a join target is remembered under: its code, and its address if any."""
    keys: list[str] = []
    code = target if isinstance(target, str) else getattr(target, "code", None)
    if code:
        keys.append(str(code))
    address = getattr(target, "address", None)
    if address:
        keys.append(f"addr:{address}")
    return keys


def _joined(folder: str | os.PathLike[str]) -> dict[str, Any]:
    data = _read_json(Path(folder) / JOINED)
    return data if isinstance(data, dict) else {}


def seat_token(folder: str | os.PathLike[str], target: Any) -> str | None:
    """The seat token this program had at the table ``target`` points to, if any."""
    data = _joined(folder)
    for k in join_keys(target):
        entry = data.get(k)
        if isinstance(entry, dict) and isinstance(entry.get("token"), str):
            return str(entry["token"])
    return None


def remember_seat(folder: str | os.PathLike[str], keys: list[str], token: str, seat: int,
                  link: str = "") -> None:
    """Keep this program's seat token for the table known by ``keys``."""
    data = _joined(folder)
    entry = {"token": token, "seat": int(seat), "link": link, "time": time.time()}
    for k in keys:
        data[k] = entry
    # keep the file small: the 40 newest tables
    if len(data) > 80:
        newest = sorted(data.items(), key=lambda kv: -float(kv[1].get("time", 0))
                        if isinstance(kv[1], dict) else 0)[:80]
        data = dict(newest)
    with contextlib.suppress(OSError):
        _write_json(Path(folder) / JOINED, data)


def forget_seat(folder: str | os.PathLike[str], target: Any) -> None:
    data = _joined(folder)
    changed = False
    for k in join_keys(target):
        if k in data:
            del data[k]
            changed = True
    if changed:
        with contextlib.suppress(OSError):
            _write_json(Path(folder) / JOINED, data)
