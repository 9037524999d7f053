"""CPU players and hints, for both games.

The entry points (the table and the client call only these)::

    choose_play(game, view, legal, level, seed, budget_ms, history=()) -> str
    hint(game, view, legal, seed, budget_ms, history=()) -> tuple[str, str]

``game`` is ``"track"`` or ``"layout"``, ``view`` the seat's own view (never the full state:
hidden cards are only ever *sampled*, with ``RULES.determinize``), ``legal`` the legal play
tokens of that view, ``level`` one of :data:`LEVELS`, ``seed`` makes the choice deterministic,
``budget_ms`` is the thinking time allowed (only Nasty and the hint search; they use the budget
and stop before it runs out), ``history`` the public log (``{"seat", "play"}`` dicts; the
track Nasty's sampler reads it, see :mod:`game.ai.infer`). ``choose_play`` returns one token
of ``legal``; ``hint`` returns ``(token, reason)`` with a short sentence a person can read.

Both are module-level functions of plain, picklable arguments, so :mod:`game.cpu_worker` runs
them in a worker process and the window never waits for a CPU.

Determinism: Easy and Tricky depend only on (view, legal, seed). Nasty's sampled deals come in a
fixed order from the seed; with a wall-clock budget the number of samples it finishes depends on
the machine, so pass ``max_samples`` to the level functions for exact repeatability.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LEVELS = ("easy", "tricky", "nasty")
GAMES = ("track", "layout")


def _check(game: str, legal: Sequence[str], level: str | None = None) -> None:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (expected track or layout)")
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown CPU level {level!r} (expected one of {', '.join(LEVELS)})")
    if not legal:
        raise ValueError("the CPU needs at least one legal play")


def choose_play(
    game: str,
    view: Mapping[str, Any],
    legal: Sequence[str],
    level: str,
    seed: int,
    budget_ms: float = 300.0,
    history: Sequence[Mapping[str, Any]] = (),
) -> str:
    """One token of ``legal`` for the seat whose ``view`` this is, at ``level``."""
    _check(game, legal, level)
    legal = [str(t) for t in legal]
    if len(legal) == 1:
        return legal[0]
    if game == "track":
        from game.ai import track as mod
    else:
        from game.ai import layout as mod  # type: ignore[no-redef]
    if level == "easy":
        tok = mod.easy(view, legal, seed)
    elif level == "tricky":
        tok = mod.tricky(view, legal, seed)
    else:
        tok = mod.nasty(view, legal, seed, budget_ms, history=tuple(history))
    if tok not in legal:  # never hand the table an illegal play
        return legal[0]
    return tok


def hint(
    game: str,
    view: Mapping[str, Any],
    legal: Sequence[str],
    seed: int,
    budget_ms: float = 300.0,
    history: Sequence[Mapping[str, Any]] = (),
) -> tuple[str, str]:
    """The best play for this view (Nasty's search within ``budget_ms``) and why, in words."""
    _check(game, legal)
    legal = [str(t) for t in legal]
    if game == "track":
        from game.ai import track as mod
    else:
        from game.ai import layout as mod  # type: ignore[no-redef]
    tok, reason = mod.hint(view, legal, seed, budget_ms, history=tuple(history))
    if tok not in legal:
        tok = legal[0]
        reason = "the only sensible play left"
    return tok, reason


__all__ = ["GAMES", "LEVELS", "choose_play", "hint"]
