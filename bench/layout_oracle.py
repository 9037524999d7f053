"""A bench-only Trash player that cheats: it sees the stock order and every face-down card.

Never reachable by the table (only ``bench/tournament.py --a oracle`` uses it): it measures how
much edge the game's two decisions (take the top discard or draw; where a wild card goes) can
give at all. For each legal play it copies the *real* state, plays the play, and plays the hand
out with the rollout policy of :mod:`game.ai.layout` for every seat. Against Tricky that
rollout is an exact forecast: Tricky's choices follow the same rules, the stock order and the
reshuffle generator are the real ones. It picks Tricky's own play unless that play loses the hand
and another wins it; so it is Tricky plus one ply of perfect foresight (a lower bound on the
ceiling: a deeper oracle could plan its later choices too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.ai import layout as ai


def oracle(state: Any, view: Any, legal: Sequence[str], seed: int) -> str:
    me = state.turn
    default = ai.tricky(view, legal, seed)
    outcome = {}
    for tok in legal:
        outcome[tok] = ai.play_out(state, tok, me)
    if outcome[default] >= 1.0:
        return default
    for tok in legal:
        if outcome[tok] >= 1.0:
            return tok
    return default
