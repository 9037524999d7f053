"""Keeping finished games as records (issue 16's entry points): the end of a game writes its
record among "Recent games" (:mod:`game.table.recent`), and "Save record..." copies a record
into the user's documents folder.

A record is built from a :class:`~game.table.Table` (:func:`game.table.record.record_text`),
so only a table this program holds is kept: a local one (Play, Solo, hot seat) and a hosted
one. A guest has no Table and no seed until the end, and may have joined late (the plays
before it came are not in its messages): it keeps no record of its own (the host does).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs

from game.client.net_session import NetSession
from game.client.session import LocalSession
from game.rules.record import RecordError
from game.table import Table, TableError
from game.table.recent import add_recent, export_record, list_recent
from game.table.record import record_text

__all__ = ["documents_dir", "keep_finished", "save_record", "session_table"]


def session_table(session: Any) -> Table | None:
    """The Table behind ``session`` when this program holds it (local or hosted), else None
    (a guest, a replay). Not a :class:`~game.client.session.Session` member: it reads the
    two concrete sessions (a local one's table; a hosting one's authoritative table, which is
    quiet once the game is over)."""
    t: Table | None
    if isinstance(session, LocalSession):
        local: LocalSession = session
        t = local.table
    elif isinstance(session, NetSession):
        hosting: NetSession = session
        t = hosting._table
    else:
        return None
    return t if isinstance(t, Table) else None


def keep_finished(session: Any, data_folder: str | os.PathLike[str]) -> Path | None:
    """Write the record of ``session``'s game among the recent games; its path, or None when
    this program holds no table for it. The same record as the newest kept one (a finished
    table opened again) is not kept twice: that one's path. Raises ``OSError`` /
    :class:`RecordError` on failure."""
    table = session_table(session)
    if table is None:
        return None
    text = record_text(table)
    for info in list_recent(data_folder)[:1]:  # a finished table reopened: kept already
        try:
            if info.path.read_text(encoding="utf-8") == text:
                return info.path
        except (OSError, UnicodeDecodeError):
            pass
    return add_recent(data_folder, text)


def documents_dir() -> Path:
    """Where "Save record..." writes: the user's documents folder."""
    return Path(platformdirs.user_documents_dir())


def save_record(source: str | os.PathLike[str], *, from_save: bool = False) -> str:
    """"Save record...": copy the record file ``source`` (or, with ``from_save``, the record of
    the save file ``source``) into the documents folder; the words to show (where it went, or
    why not)."""
    try:
        text = record_text(source) if from_save else Path(source).read_text(encoding="utf-8")
        dest = documents_dir()
        dest.mkdir(parents=True, exist_ok=True)
        stem = Path(source).stem
        path = export_record(dest, text, stem if stem.startswith("tee-table") else
                             f"tee-table-{stem}")
    except (OSError, UnicodeDecodeError, RecordError, TableError) as e:
        return f"Could not save the record: {e}"
    return f"Record saved to {path}"
