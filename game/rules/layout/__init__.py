"""The layout game (Trash / Garbage): ``RULES`` implements :class:`game.rules.api.GameRules`.

See ``docs/notation.md`` ("The layout game") for positions and play tokens and
``docs/events_layout.md`` for the events ``apply`` returns.
"""

from game.rules.layout.engine import State
from game.rules.layout.notation import format_position, parse_position
from game.rules.layout.rules import (
    DEFAULTS,
    RULES,
    LayoutRules,
    Play,
    apply_in_place,
    determinize,
    legal_tokens,
    make_view,
    normalize_config,
)

__all__ = [
    "DEFAULTS",
    "RULES",
    "LayoutRules",
    "Play",
    "State",
    "apply_in_place",
    "determinize",
    "format_position",
    "legal_tokens",
    "make_view",
    "normalize_config",
    "parse_position",
]
