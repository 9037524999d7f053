"""Keeping finished games as records (issue 16's entry points): the end of a game writes its
record among "Recent games" (:mod:`game.table.recent`), and "Save record..." copies a record
into the user's documents folder.

The record is the table's own (its ``record`` message at the end of the game, or the snapshot
of a finished table: :meth:`game.client.session.Session.game_record`), so every machine at
the table keeps the same record: a local table, the host, a guest and a watcher; a replay keeps
nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from game.client.session import Session
from game.rules.record import RecordError
from game.table import TableError
from game.table.recent import add_recent, export_record, list_recent
from game.table.record import record_text

__all__ = ["documents_dir", "keep_finished", "save_record"]


def keep_finished(session: Session, data_folder: str | os.PathLike[str]) -> Path | None:
    """Write the record of ``session``'s finished game among the recent games; its path, or
    None when there is none to keep (not over, or a replay). The same record as the newest
    kept one (a finished table opened again) is not kept twice: that one's path. Raises
    ``OSError`` / :class:`RecordError` on failure."""
    text = session.game_record()
    if not text:
        return None
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
