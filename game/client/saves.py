"""Joined seats, kept in the data folder so a table survives a crash of either side; and the
hosted tables' save files, whose reading and writing live in :mod:`game.table.savefile`.

* ``<data>/joined.json``: for each table this program joined, keyed by the host's code (and
  by ``addr:HOST:PORT`` for a join by address), the seat token, seat and link. A program that
  is closed and opened again with the same code or link passes the token and lands back in its
  own seat ("If your board ever looks stuck, close and reopen the program: it rejoins your
  seat").
* The save files (``<data>/saves/hosted-...jsonl`` and the ``.host.json`` note beside each) are
  :mod:`game.table.savefile`'s: this module re-exports its names (``new_save_path``,
  ``write_host_note``, ``read_host_note``, ``list_saves``, ``SaveInfo``...) for the scenes.

Every function that reads tolerates missing or damaged files (they are skipped or treated as
empty); writes are atomic (temporary file, then rename).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from game.table.savefile import (
    NOTE_SUFFIX,
    SAVES,
    SaveInfo,
    discard_save,
    inspect_save,
    list_saves,
    never_started,
    new_save_path,
    note_path,
    read_host_note,
    read_json,
    saves_dir,
    write_host_note,
    write_json,
)

__all__ = [
    "JOINED", "NOTE_SUFFIX", "SAVES", "SaveInfo", "discard_save", "forget_seat", "join_keys",
    "list_saves", "never_started", "new_save_path", "note_path", "read_host_note",
    "read_save_info", "remember_seat", "saves_dir", "seat_token", "write_host_note",
]

JOINED = "joined.json"

#: The old name of :func:`game.table.savefile.inspect_save`.
read_save_info = inspect_save


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
    data = read_json(Path(folder) / JOINED)
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
        write_json(Path(folder) / JOINED, data)


def forget_seat(folder: str | os.PathLike[str], target: Any) -> None:
    data = _joined(folder)
    changed = False
    for k in join_keys(target):
        if k in data:
            del data[k]
            changed = True
    if changed:
        with contextlib.suppress(OSError):
            write_json(Path(folder) / JOINED, data)
