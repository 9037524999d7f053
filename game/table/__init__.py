"""The authoritative table package: one owner per idea (see ``docs/table.md``).

``table`` (the :class:`Table`: intents and the one play path) · ``messages`` (the messages,
typed once) · ``pacing`` (speeds, event durations) · ``pause`` (pause reasons) · ``seats``
(seats, tokens, names, worth) · ``savefile`` (the save file's only writer and reader) · ``cpu``
(CPU runners and scheduling) · ``results`` (results and records, one function for every
machine) · ``registry`` (the games) · ``errors``.

Every name other code imported from the one-file ``game.table`` is re-exported here.

The names are loaded when first used (PEP 562): importing one small module of the package
(``game.table.pacing`` for the speed names, say) loads nothing else of it, not the table, the
save file or the CPU runner's ``multiprocessing``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.table.base import OUTBOX_MAX, Result
    from game.table.cpu import CPU_TIMEOUT, HISTORY_MAX
    from game.table.errors import (
        CorruptSave,
        ForeignSave,
        SaveError,
        SaveExists,
        SaveInUse,
        SaveVersionError,
        TableError,
    )
    from game.table.pacing import (
        CLOCK_MAX,
        CLOCK_MIN,
        DEFAULT_DURATION,
        DURATIONS,
        PAUSE_LIMIT_DEFAULT,
        SPEEDS,
        TURN_CLOCK_DEFAULT,
        Speed,
        event_duration,
    )
    from game.table.registry import register_rules, rules_for
    from game.table.results import game_result
    from game.table.savefile import SAVE_FORMAT, SAVE_VERSION
    from game.table.seats import CPU_LEVELS, NAME_MAX, STAND_IN_LEVEL, SYMBOLS, WORTH, SeatSpec
    from game.table.table import Table

#: Where each public name lives.
_WHERE: dict[str, str] = {
    "OUTBOX_MAX": "game.table.base",
    "Result": "game.table.base",
    "CPU_TIMEOUT": "game.table.cpu",
    "HISTORY_MAX": "game.table.cpu",
    "CorruptSave": "game.table.errors",
    "ForeignSave": "game.table.errors",
    "SaveError": "game.table.errors",
    "SaveExists": "game.table.errors",
    "SaveInUse": "game.table.errors",
    "SaveVersionError": "game.table.errors",
    "TableError": "game.table.errors",
    "CLOCK_MAX": "game.table.pacing",
    "CLOCK_MIN": "game.table.pacing",
    "DEFAULT_DURATION": "game.table.pacing",
    "DURATIONS": "game.table.pacing",
    "PAUSE_LIMIT_DEFAULT": "game.table.pacing",
    "SPEEDS": "game.table.pacing",
    "TURN_CLOCK_DEFAULT": "game.table.pacing",
    "Speed": "game.table.pacing",
    "event_duration": "game.table.pacing",
    "register_rules": "game.table.registry",
    "rules_for": "game.table.registry",
    "game_result": "game.table.results",
    "SAVE_FORMAT": "game.table.savefile",
    "SAVE_VERSION": "game.table.savefile",
    "CPU_LEVELS": "game.table.seats",
    "NAME_MAX": "game.table.seats",
    "STAND_IN_LEVEL": "game.table.seats",
    "SYMBOLS": "game.table.seats",
    "WORTH": "game.table.seats",
    "SeatSpec": "game.table.seats",
    "Table": "game.table.table",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'game.table' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


__all__ = [
    "CLOCK_MAX",
    "CLOCK_MIN",
    "CPU_LEVELS",
    "CPU_TIMEOUT",
    "DEFAULT_DURATION",
    "DURATIONS",
    "HISTORY_MAX",
    "NAME_MAX",
    "OUTBOX_MAX",
    "PAUSE_LIMIT_DEFAULT",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SPEEDS",
    "STAND_IN_LEVEL",
    "SYMBOLS",
    "TURN_CLOCK_DEFAULT",
    "WORTH",
    "CorruptSave",
    "ForeignSave",
    "Result",
    "SaveError",
    "SaveExists",
    "SaveInUse",
    "SaveVersionError",
    "SeatSpec",
    "Speed",
    "Table",
    "TableError",
    "event_duration",
    "game_result",
    "register_rules",
    "rules_for",
]
