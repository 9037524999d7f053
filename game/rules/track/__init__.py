"""The track game: card-driven peg races in rule sets ``tees``, ``classic`` and ``team``.

``RULES`` implements :class:`game.rules.api.GameRules`; see ``docs/notation.md`` for the
position and play notation (and the rulings) and ``docs/events.md`` for the events and views.

Library use::

    from game.rules.track import RULES
    state, events = RULES.start({"rules": "classic", "seats": 4}, seed=7)  # or new_game()
    seat = RULES.to_move(state)                 # None once over
    plays = RULES.legal_plays(state)            # Play objects; str(play) is the token
    RULES.legal_tokens(state)                   # the tokens, fast (a Play never == a str)
    plays[0].parts[0].kind, plays[0].bumps      # named: Part(kind, peg, frm, to, n), Bump
    state, events = RULES.apply(state, seat, "5:a12+5")   # a token or a Play
    RULES.view(state, seat); RULES.filter_events(events, seat)
    RULES.determinize(view, seed); RULES.outcome(state)
    RULES.replay(config, seed, [(seat, token), ...])
    RULES.format_position(state); RULES.parse_position(text)

Fast paths for simulations (CPU search): ``engine.gen_legal(state)`` (the cached legal list,
do not mutate it) and ``engine.apply_play(state, seat, play, events=False)`` for a play taken
from that list (no legality check). Where one play or a count is wanted, ``count_legal``,
``has_legal``, ``first_legal``, ``nth_legal``, ``iter_legal`` and ``find_legal`` make no play
object for the others (the Python engine's list builds a :class:`Play` only when one is read).
``engine_kind()`` says which engine runs: ``"C core"`` or ``"Python"``.
"""

from game.rules.track.engine import Bump, Part, Play, TrackState, engine_kind
from game.rules.track.notation import format_position, parse_position
from game.rules.track.rules import RULES, TrackRules

__all__ = [
    "RULES",
    "Bump",
    "Part",
    "Play",
    "TrackRules",
    "TrackState",
    "engine_kind",
    "format_position",
    "parse_position",
]
