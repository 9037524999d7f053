"""The games a table can seat: the rules' own registry (:mod:`game.rules.registry`, which
names the games), plus rules objects registered here by tests (small doubles)."""

from __future__ import annotations

from game.rules import registry
from game.rules.api import GameRules, UnknownGame
from game.table.errors import TableError

_REGISTRY: dict[str, GameRules] = {}


def register_rules(rules: GameRules) -> None:
    """Make ``rules`` available by its ``name`` (tests register small doubles)."""
    _REGISTRY[rules.name] = rules


def rules_for(game: str) -> GameRules:
    """The rules object of ``game`` (``"track"``, ``"layout"`` or a registered name)."""
    if isinstance(game, str) and game in _REGISTRY:
        return _REGISTRY[game]
    try:
        return registry.rules_for(game)
    except UnknownGame as e:
        raise TableError(str(e)) from None
