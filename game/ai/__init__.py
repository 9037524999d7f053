"""CPU players and hints.

The one entry point the table uses::

    choose_play(game, view, legal, level, seed, budget_ms, history=()) -> str

``game`` is ``"track"`` or ``"layout"``, ``view`` the seat's own view (never the full state),
``legal`` the legal play tokens of that view, ``level`` one of :data:`LEVELS`, ``seed`` makes
the choice deterministic, ``budget_ms`` is the thinking time allowed. It returns one token of
``legal``. (A first, simple implementation; the CPU-players issue replaces the insides.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LEVELS = ("easy", "tricky", "nasty")


def choose_play(
    game: str,
    view: Mapping[str, Any],
    legal: Sequence[str],
    level: str,
    seed: int,
    budget_ms: float = 300.0,
    history: Sequence[Mapping[str, Any]] = (),
) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown CPU level {level!r} (expected one of {', '.join(LEVELS)})")
    if not legal:
        raise ValueError("choose_play() needs at least one legal play")
    return legal[0]
