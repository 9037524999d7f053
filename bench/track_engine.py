"""Speed of the track-game engine: random games on one core.

    python bench/track_engine.py [--seconds 3] [--only classic:4] [--events] [--python]

For each configuration it plays complete games, each play chosen uniformly at random from the
legal list (``legal_plays`` then ``apply``, no events unless ``--events``), for about
``--seconds`` of CPU, then times legal-play generation on mid-game positions of that
configuration (plays 20%..80% of a game; the per-state cache is cleared before each call).
Rates are per CPU second (``time.process_time``: the figure that does not depend on how loaded
the machine is); the wall-clock rates follow in brackets. Only every tenth position of a game
is kept for the legal-play timing (keeping every position with its cached legal list made the
cyclic garbage collector walk a heap that grows through the game, up to half the time in
8-player team games). It prints one final line per configuration:

    track <rules> <seats>p games/s=<x> turns/s=<y> legal/s=<z> (wall: games/s=.. ..) engine=c

``engine=c`` when the optional C core (``game/rules/track/_fast.c``) ran, ``engine=python``
when it is not built or ``--python`` forced the pure-Python engine.
"""

from __future__ import annotations

import argparse
import time

from game.rules.cards import Rng
from game.rules.track import engine
from game.rules.track.engine import apply_play, gen_legal, new_game

CONFIGS = [("tees", 4), ("tees", 6), ("classic", 1), ("classic", 2), ("classic", 4),
           ("classic", 6), ("classic", 8), ("team", 4), ("team", 8)]


def bench(rules: str, seats: int, seconds: float, events: bool) -> str:
    conf = {"rules": rules, "seats": seats}
    games = turns = 0
    mid = []
    t0 = time.process_time()
    w0 = time.perf_counter()
    seed = 0
    while time.process_time() - t0 < seconds or games == 0:
        s = new_game(conf, seed)
        rng = Rng.from_seed(seed)
        kept = []  # every tenth position
        n = 0
        while s.turn >= 0:
            legal = gen_legal(s)
            s, _ = apply_play(s, s.turn, legal[rng.below(len(legal))], events)
            n += 1
            if n % 10 == 0:
                kept.append(s)
        if len(mid) < 400:
            mid.extend(st for st in kept[len(kept) // 5:(4 * len(kept)) // 5] if st.turn >= 0)
        turns += n
        games += 1
        seed += 1
    dt = time.process_time() - t0
    wt = time.perf_counter() - w0
    del mid[400:]
    # legal-play generation on mid-game positions
    reps = 0
    t1 = time.process_time()
    w1 = time.perf_counter()
    while time.process_time() - t1 < seconds / 3 or reps == 0:
        for st in mid:
            st._legal = None
            gen_legal(st)
        reps += len(mid)
    dl = time.process_time() - t1
    wl = time.perf_counter() - w1
    return (f"track {rules} {seats}p games/s={games / dt:.1f} turns/s={turns / dt:.0f} "
            f"legal/s={reps / dl:.0f} (wall: games/s={games / wt:.1f} turns/s={turns / wt:.0f} "
            f"legal/s={reps / wl:.0f}) engine={'c' if engine.FAST else 'python'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per configuration")
    ap.add_argument("--only", action="append", help="rules:seats, e.g. classic:4 (repeatable)")
    ap.add_argument("--events", action="store_true", help="build the events too")
    ap.add_argument("--python", action="store_true", help="force the pure-Python engine")
    args = ap.parse_args()
    if args.python:
        engine.set_fast(False)
    configs = CONFIGS
    if args.only:
        configs = [(o.split(":")[0], int(o.split(":")[1])) for o in args.only]
    for rules, seats in configs:
        print(bench(rules, seats, args.seconds, args.events), flush=True)


if __name__ == "__main__":
    main()
