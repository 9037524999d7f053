"""The track game: card-driven peg races in rule sets ``tees``, ``classic`` and ``team``.

``RULES`` implements :class:`game.rules.api.GameRules`; see ``docs/notation.md`` for the
position and play notation and ``docs/events.md`` for the events ``apply`` returns.
"""

from game.rules.track.engine import Play, TrackState
from game.rules.track.notation import format_position, parse_position
from game.rules.track.rules import RULES, TrackRules

__all__ = ["RULES", "Play", "TrackRules", "TrackState", "format_position", "parse_position"]
