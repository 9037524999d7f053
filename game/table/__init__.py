"""The authoritative table package: one owner per idea (see ``docs/table.md``).

``table`` (the :class:`Table`: intents and the one play path) · ``messages`` (the messages,
typed once) · ``pacing`` (speeds, event durations) · ``pause`` (pause reasons) · ``seats``
(seats, tokens, names, worth) · ``savefile`` (the save file's only writer and reader) · ``cpu``
(CPU runners and scheduling) · ``results`` (results and records, one function for every
machine) · ``registry`` (the games) · ``errors``.

Every name other code imported from the one-file ``game.table`` is re-exported here.
"""

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
from game.table.pacing import DEFAULT_DURATION, DURATIONS, SPEEDS, Speed, event_duration
from game.table.registry import register_rules, rules_for
from game.table.results import game_result
from game.table.savefile import SAVE_FORMAT, SAVE_VERSION
from game.table.seats import CPU_LEVELS, NAME_MAX, STAND_IN_LEVEL, SYMBOLS, WORTH, SeatSpec
from game.table.table import Table

#: The old name of :data:`DURATIONS`.
BASE_DURATIONS = DURATIONS

__all__ = [
    "BASE_DURATIONS",
    "CPU_LEVELS",
    "CPU_TIMEOUT",
    "DEFAULT_DURATION",
    "DURATIONS",
    "HISTORY_MAX",
    "NAME_MAX",
    "OUTBOX_MAX",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SPEEDS",
    "STAND_IN_LEVEL",
    "SYMBOLS",
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
