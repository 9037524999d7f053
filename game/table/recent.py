""""Recent games": the last :data:`RECENT_MAX` game records, kept in the user data folder
(``<data>/records/game-<date>-<time>-<µs>-<xxxx>.ttr``, beside ``<data>/saves``, see
:mod:`game.table.savefile`), and saving a record elsewhere ("Save record...").

Every write is atomic (a temporary file, then rename), so a crash never leaves half a record;
adding a record prunes the oldest beyond the limit. The list is tolerant: a file that is not
a readable record is left out of it (and is never deleted by pruning unless it is one of ours
by name).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from game.rules.record import RecordError, parse_record

__all__ = ["RECENT", "RECENT_MAX", "RecentInfo", "add_recent", "export_record", "list_recent",
           "recent_dir", "rewrite_record"]

RECENT = "records"
RECENT_MAX = 50
SUFFIX = ".ttr"
_NAME = re.compile(r"^game-\d{8}-\d{6}-\d{6}-[0-9a-f]{4}\.ttr$")


def recent_dir(folder: str | os.PathLike[str]) -> Path:
    return Path(folder) / RECENT


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _ours(d: Path) -> list[Path]:
    try:
        files = [p for p in d.iterdir() if _NAME.match(p.name) and p.is_file()]
    except OSError:
        return []
    return sorted(files, key=lambda p: p.name)  # the name starts with the time: oldest first


def add_recent(folder: str | os.PathLike[str], text: str, *, limit: int = RECENT_MAX) -> Path:
    """Keep ``text`` (a record) among the recent games; the oldest beyond ``limit`` go.
    Raises :class:`RecordError` for text that is not a record (nothing is written) and
    ``OSError`` when the folder cannot be written."""
    parse_record(text)
    d = recent_dir(folder)
    ns = time.time_ns()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(ns // 10**9))
    path = d / f"game-{stamp}-{ns // 1000 % 10**6:06d}-{secrets.token_hex(2)}{SUFFIX}"
    _write(path, text)
    files = _ours(d)
    for old in files[:max(0, len(files) - limit)]:
        with contextlib.suppress(OSError):
            old.unlink()
    return path


def rewrite_record(path: str | os.PathLike[str], text: str) -> None:
    """Replace a kept record (its review was added): atomically, the text checked first."""
    parse_record(text)
    _write(Path(path), text)


def export_record(dest: str | os.PathLike[str], text: str, stem: str = "tee-table-game"
                  ) -> Path:
    """"Save record...": write ``text`` into the folder ``dest`` under a new name (an existing
    file is never overwritten: ``stem-2.ttr``, ``stem-3.ttr``...)."""
    parse_record(text)
    d = Path(dest)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.") or "tee-table-game"
    for k in range(1, 10000):
        path = d / (f"{safe}{SUFFIX}" if k == 1 else f"{safe}-{k}{SUFFIX}")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        try:
            os.write(fd, text.encode("utf-8"))
        finally:
            os.close(fd)
        return path
    raise OSError(f"no free file name for {safe}{SUFFIX} in {d}")


@dataclass(frozen=True)
class RecentInfo:
    """What the Records screen lists about one kept record."""

    path: Path
    game: str
    rules: str
    seats: int
    people: tuple[str, ...]
    result: str
    plays: int
    date: str
    reviewed: bool

    def title(self) -> str:
        game = "Trash" if self.game == "layout" else f"Track, {self.rules}"
        return f"{game}, {self.seats} seats"

    def detail(self) -> str:
        who = ", ".join(self.people) if self.people else "CPUs only"
        state = "unfinished" if self.result == "*" else "finished"
        return f"{self.date} - {who} - {self.plays} plays, {state}"


def list_recent(folder: str | os.PathLike[str]) -> list[RecentInfo]:
    """The kept records, newest first (unreadable ones left out)."""
    out: list[RecentInfo] = []
    for p in reversed(_ours(recent_dir(folder))):
        try:
            rec = parse_record(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, RecordError):
            continue
        rules = str(rec.config.get("rules", "trash")) if rec.game == "track" else "trash"
        people = tuple(s.name for s in rec.seats if s.kind == "person")
        out.append(RecentInfo(p, rec.game, rules, len(rec.seats), people, rec.result,
                              len(rec.plays), rec.date, bool(rec.review)))
    return out
