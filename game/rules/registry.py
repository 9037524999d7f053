"""The one list of the games: their names and where their rules live.

``GAMES`` maps a game's name to the module whose ``RULES`` implements it; ``rules_for(name)``
imports that module on first use (so naming a game costs nothing until it is played) and
returns its rules object, or raises :class:`UnknownGame` with the names it knows. The table,
the launcher, the CPU players and the client ask here; nothing else keeps a list of games.
"""

from __future__ import annotations

import importlib

from game.rules.api import GameRules, UnknownGame

GAMES: dict[str, str] = {
    "track": "game.rules.track",
    "layout": "game.rules.layout",
}

_LOADED: dict[str, GameRules] = {}


def names() -> tuple[str, ...]:
    """The game names, in the registry's order."""
    return tuple(GAMES)


def rules_for(name: str) -> GameRules:
    """The rules object of the game called ``name`` (``"track"``, ``"layout"``)."""
    rules = _LOADED.get(name) if isinstance(name, str) else None
    if rules is not None:
        return rules
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGame(
            f"unknown game {name!r} (the games are {', '.join(repr(n) for n in GAMES)})"
        )
    rules = importlib.import_module(GAMES[name]).RULES
    if not isinstance(rules, GameRules) or rules.name != name:
        raise UnknownGame(f"{GAMES[name]}.RULES is not the rules of {name!r}")
    _LOADED[name] = rules
    return rules


__all__ = ["GAMES", "UnknownGame", "names", "rules_for"]
