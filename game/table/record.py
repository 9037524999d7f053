"""Export a table to a game record (docs/record.md): from a live or finished :class:`Table`, or
from a save file.

* :func:`record_from_table` reads the table's own facts: config, seed, seats, log, result
  (:func:`game.table.results.game_result`, the same function every machine calls).
* :func:`record_from_save` rebuilds the table from its save file by the table's own resume
  path (the same replay, every seat change and undo included), but with a read-only stand-in
  for the save: no lock is taken and nothing is ever written, so a save that another table has
  open, or a torn one, exports all the same.

Who made each play (``person``, ``cpu``, ``standin``) is the table's own :attr:`Table.makers`,
kept by its one play path and rebuilt by a resume from the save (which marks a stand-in's
plays; in a save written before that mark, a stand-in's play counts as the person's).
"""

from __future__ import annotations

import importlib.metadata
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from game.rules.record import (
    Record,
    RecordSeat,
    format_record,
    make_record,
)
from game.table import savefile
from game.table.cpu import SyncCpu
from game.table.errors import SaveError
from game.table.results import game_result
from game.table.seats import Seat, seat_from_record
from game.table.table import Table

__all__ = ["program_version", "record_from_save", "record_from_table", "record_text"]


def program_version() -> str:
    """This program's version (the installed ``tee-table`` package), or ``"unknown"``."""
    try:
        return importlib.metadata.version("tee-table")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _today() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


def _rec_seat(s: Seat) -> RecordSeat:
    person = s.kind == "person"
    return RecordSeat(s.index, "person" if person else "cpu",
                      "person" if person else s.level, s.name)


def _points(table: Table) -> str:
    res = game_result(table.public(), table.seed)
    if res is None:
        return ""
    return " ".join(f"{p['seat']}={p['points']}" for p in res.get("people", []))


def record_from_table(table: Table, *, date: str | None = None, version: str | None = None,
                      first_seats: Sequence[Seat] | None = None) -> Record:
    """The record of ``table``'s game so far (finished or not).

    ``first_seats`` (the seats as the game began) come from the save when there is one;
    without them, the seats as they are now (a person who handed their seat to a CPU is then
    the seat's first name). Who made each play: the table's :attr:`~Table.makers`.
    """
    if first_seats is None:
        seats = [_first_seat(table, i) for i in range(table.seat_count)]
    else:
        seats = [_rec_seat(s) for s in first_seats]
    plays = [(seat, tok, by) for (seat, tok), by in zip(table.log, table.makers, strict=True)]
    return make_record(table.game, table.config, table.seed, seats, plays,
                       date=date or _today(), version=version or program_version(),
                       points=_points(table))


def _first_seat(table: Table, i: int) -> RecordSeat:
    """Seat ``i`` from its public facts; a seat handed to a CPU, as its person played it."""
    info = table.seat_info(i)
    if info["kind"] == "person":
        return RecordSeat(i, "person", "person", info["name"])
    if info.get("left"):
        return RecordSeat(i, "person", "person", str(info["left"]))
    return RecordSeat(i, "cpu", str(info["level"]), info["name"])


class _ReadOnlySave(savefile.SaveFile):
    """Stands in for the open save while a table is rebuilt for export: no lock, no writes."""

    def __init__(self, path: Path) -> None:  # opens nothing
        self.path = path
        self.fsync = False
        self._fd = None

    def truncate(self, size: int) -> None:  # a torn tail is left for the real resume
        pass

    def append(self, record: Mapping[str, Any]) -> None:
        raise OSError("a table rebuilt for export writes nothing")


def _first_seats(path: Path) -> list[Seat]:
    """The seats as the game began, from the save's records."""
    head, records, _cut, _warn = savefile.read_save(path)
    seats = savefile.check_header(path, head)
    now = list(seats)
    for rec in records:
        t = rec.get("t")
        if t == "start":
            return now
        if t == "seat" and type(rec.get("seat")) is int and 0 <= rec["seat"] < len(now):
            now[rec["seat"]] = seat_from_record(rec, rec["seat"])
    return now


def record_from_save(path: str | os.PathLike[str], *, date: str | None = None,
                     version: str | None = None) -> Record:
    """The record of a saved table's game (finished or not), replayed through the table's own
    resume path. Raises the save errors (:class:`~game.table.errors.SaveError` and its kinds)
    naming the file."""
    p = Path(path)
    table = Table._rebuild(p, _ReadOnlySave(p), clock=lambda: 0.0, cpu=SyncCpu())
    try:
        first = _first_seats(p)
        if date is None:
            try:
                date = time.strftime("%Y-%m-%d", time.gmtime(p.stat().st_mtime))
            except OSError as e:
                raise SaveError(f"cannot read {p}: {e}") from None
        return record_from_table(table, date=date, version=version, first_seats=first)
    finally:
        table.close()


def record_text(source: Table | str | os.PathLike[str], **kw: Any) -> str:
    """The record of a table or a save file, as text."""
    rec = record_from_table(source, **kw) if isinstance(source, Table) else \
        record_from_save(source, **kw)
    return format_record(rec)
