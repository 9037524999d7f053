"""The games a table can seat: ``"track"``, ``"layout"`` and any registered rules object."""

from __future__ import annotations

import importlib

from game.rules.api import GameRules
from game.table.errors import TableError

_REGISTRY: dict[str, GameRules] = {}
_BUILTIN = ("track", "layout")


def register_rules(rules: GameRules) -> None:
    """Make ``rules`` available by its ``name`` (tests register small doubles)."""
    _REGISTRY[rules.name] = rules


def rules_for(game: str) -> GameRules:
    """The rules object of ``game`` (``"track"``, ``"layout"`` or a registered name)."""
    if game in _REGISTRY:
        return _REGISTRY[game]
    if game not in _BUILTIN:
        raise TableError(f"unknown game {game!r} (expected one of {', '.join(_BUILTIN)})")
    rules: GameRules = importlib.import_module(f"game.rules.{game}").RULES
    _REGISTRY[game] = rules
    return rules
