"""Regression fingerprint of the track-game engine: a hash over seeded random games.

    python bench/track_fingerprint.py [--quick] [--python]

Plays seeded random games across every rule set, mode and seat count (plays chosen by a
seeded :class:`Rng` from the legal list) and hashes, per turn, the position line, the legal
tokens in order, and the events of the play made (full events on half the games; the other
half use ``events=False`` and hash the state key instead); and per game the final position
and the outcome. Prints one line per configuration and the overall digest. Any change of a
rule, of legal-play order, of an event or of the shuffle changes the digest.

Recorded before the speed work (commit 9943f19) and unchanged through it:
``fingerprint 7e5f53d5de4fbb6e1fd7f1b1974bb1e1``
(``--quick``: ``4581dc0aa13a699b8c77f514cf31fa2e``). The C core (``game/rules/track/_fast.c``,
used when built) must give the same digests as the Python engine (``--python`` forces it);
the last line names the engine that ran. ``tests/test_track_fingerprint.py`` asserts the
``--quick`` digest with each engine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable

from game.rules.cards import Rng
from game.rules.track import engine
from game.rules.track.engine import apply_play, gen_legal, new_game, outcome
from game.rules.track.notation import format_position

# (config, games)
CONFIGS: list[tuple[dict, int]] = [
    ({"rules": "tees", "seats": 4}, 40),
    ({"rules": "tees", "seats": 6}, 30),
    ({"rules": "classic", "seats": 1}, 20),
    ({"rules": "classic", "seats": 2}, 30),
    ({"rules": "classic", "seats": 3}, 20),
    ({"rules": "classic", "seats": 4}, 40),
    ({"rules": "classic", "seats": 4, "mode": "ffa"}, 10),
    ({"rules": "classic", "seats": 4, "seven_to_partner": False}, 10),
    ({"rules": "classic", "seats": 4, "jokers": False}, 10),
    ({"rules": "classic", "seats": 5}, 10),
    ({"rules": "classic", "seats": 6}, 10),
    ({"rules": "classic", "seats": 6, "teams": 3}, 10),
    ({"rules": "classic", "seats": 7}, 6),
    ({"rules": "classic", "seats": 8}, 6),
    ({"rules": "classic", "seats": 8, "teams": 4}, 6),
    ({"rules": "team", "seats": 4}, 20),
    ({"rules": "team", "seats": 4, "jokers": False}, 6),
    ({"rules": "team", "seats": 6}, 6),
    ({"rules": "team", "seats": 6, "teams": 3}, 6),
    ({"rules": "team", "seats": 8}, 4),
    ({"rules": "team", "seats": 8, "teams": 4}, 4),
    ({"rules": "team", "seats": 3, "mode": "ffa"}, 6),
    ({"rules": "team", "seats": 2}, 10),
]


def game_digest(conf: dict, seed: int, h: hashlib._Hash, positions: bool) -> int:
    events = seed % 2 == 0
    ev0: list = []
    s = new_game(conf, seed, ev0 if events else None)
    h.update(json.dumps(ev0, sort_keys=True).encode())
    rng = Rng.from_seed(seed * 7919 + 1)
    turns = 0
    while s.turn >= 0:
        legal = gen_legal(s)
        if positions:
            h.update(format_position(s).encode())
        h.update("|".join(p.token for p in legal).encode())
        play = legal[rng.below(len(legal))]
        s, ev = apply_play(s, s.turn, play, events)
        if events:
            h.update(json.dumps(ev, sort_keys=True).encode())
        else:
            h.update(repr(s.key()).encode())
        turns += 1
    h.update(format_position(s).encode())
    h.update(json.dumps(outcome(s), sort_keys=True).encode())
    return turns


def fingerprint(quick: bool = False, out: Callable[[str], None] | None = None) -> str:
    """The digest (32 hex digits) of every configuration's games; ``out`` gets one line per
    configuration."""
    total = hashlib.sha256()
    for conf, games in CONFIGS:
        h = hashlib.sha256()
        turns = 0
        for seed in range(games // 5 if quick else games):
            turns += game_digest(conf, seed, h, positions=seed % 3 == 0)
        d = h.hexdigest()[:16]
        total.update(d.encode())
        if out is not None:
            out(f"{json.dumps(conf, sort_keys=True)} games={games} turns={turns} {d}")
    return total.hexdigest()[:32]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a fifth of the games")
    ap.add_argument("--python", action="store_true", help="force the pure-Python engine")
    args = ap.parse_args()
    if args.python:
        engine.set_fast(False)
    t0 = time.process_time()
    digest = fingerprint(args.quick, lambda line: print(line, flush=True))
    print(f"fingerprint {digest} cpu={time.process_time() - t0:.1f}s "
          f"engine={'c' if engine.FAST else 'python'}")


if __name__ == "__main__":
    main()
