"""CPU strength: matches between two levels, run by hand (not a test).

    python -m bench.tournament --game track --rules tees --a tricky --b easy --games 400
    python -m bench.tournament --game layout --a tricky --b easy --games 2000 [--seats 4]

(Run it with ``-m`` from the checkout to measure: ``python bench/tournament.py`` also works but
imports ``game`` through the editable install, i.e. from wherever that points, and cannot load
``bench.layout_oracle``.)

Track games are teams of two against two (4 seats, team 0 = seats 0 and 2, team 1 = seats 1
and 3); layout games are two players, or ``--seats N`` with level A in one chair and level B
in the others. Games come in groups on one seed: level A plays team 0 / seat 0 in the first
game, team 1 / seat 1 in the second (layout: each chair in turn), so both levels get the same
deals from every chair. Seeds are fixed (``--seed`` + group number). Games run in ``--jobs``
processes (default 2). Every CPU decision is timed; ``think_p95_ms`` is the 95th percentile of
level A's decisions (only decisions with a choice: a single legal play is not timed). A game
that reaches ``--max-plays`` counts as half a win. Each CPU gets the public log as
``history`` (the last 200 plays, as the table passes it).

Bench-only levels: ``oracle`` (layout: sees the real state, ``bench/layout_oracle.py``),
``plain`` (Nasty without the public log), ``lite`` and ``first`` (track experiments),
``nasty-py`` (track: Nasty thinking on the pure-Python engine: the C core is switched off
around that seat's decision only, so the game itself is still applied by one engine and the
other seats think on the C core when it is built).

Last line::

    <game> <rules> <A> vs <B> games=<n> winrate=<x> ci95=[<lo>,<hi>] think_p95_ms=<t> \
        b_think_p95_ms=<u>

with ``winrate`` the share of games won by A and a Wilson 95% interval; ``think_p95_ms`` is
level A's 95th percentile, ``b_think_p95_ms`` level B's.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from typing import Any

from game.ai import choose_play


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


LEVEL_CHOICES = ("easy", "tricky", "nasty", "lite", "first", "oracle", "plain", "nasty-py")
HISTORY_MAX = 200  # as game.table passes to a CPU
SAMPLES = [0]  # --samples: Nasty (track) searches exactly this many samples, ignoring the clock


def _decide(game: str, view: Any, legal: list[str], lvl: str, seed: int, budget: float,
            state: Any = None, history: tuple[dict[str, Any], ...] = ()) -> str:
    if len(legal) == 1:
        return legal[0]
    if lvl == "oracle" and game == "layout":  # bench only: sees the real state (cheats)
        from bench.layout_oracle import oracle

        return oracle(state, view, legal, seed)
    if lvl == "lite" and game == "track":  # experiment: Tricky-lite greedy
        from game.ai import track

        st, plays = track._state_and_plays(view, legal, seed)
        return track.lite_choice(st, st.turn, plays).token
    if lvl == "first":  # experiment: the first legal play
        return legal[0]
    if lvl == "nasty-py" and game == "track":  # bench only: Nasty on the pure-Python engine
        from game.rules.track import engine

        prev = engine.set_fast(False)
        try:
            return _decide(game, view, legal, "nasty", seed, budget, state, history)
        finally:
            engine.set_fast(prev)
    if lvl == "plain":  # Nasty without the public log (track: no inference)
        lvl, history = "nasty", ()
    if lvl == "nasty" and SAMPLES[0]:  # experiment: a fixed sample count
        if game == "track":
            from game.ai import track

            return track.nasty(view, legal, seed, 1e9, max_samples=SAMPLES[0], history=history)
        from game.ai import layout

        return layout.nasty(view, legal, seed, 1e9, max_samples=SAMPLES[0])
    return choose_play(game, view, legal, lvl, seed, budget, history)


def _tweak() -> None:
    """Experiments: ``TT_AI_PARAMS="track.HIT_TAKE=0,layout.X=1"`` overrides module constants;
    ``track.SMART_PLIES.tees=3`` sets one entry of a per-rule-set dict."""
    import importlib
    import os

    SAMPLES[0] = int(os.environ.get("TT_SAMPLES", "0"))
    for item in filter(None, os.environ.get("TT_AI_PARAMS", "").split(",")):
        name, value = item.split("=")
        parts = name.split(".")
        mod = importlib.import_module(f"game.ai.{parts[0]}")
        if len(parts) == 3:
            getattr(mod, parts[1])[parts[2]] = float(value)
        else:
            setattr(mod, parts[1], float(value))


def play_one(job: tuple[str, str, str, str, int, int, float, int, int]) -> dict[str, Any]:
    game, rules, a, b, seed, a_side, budget, max_plays, seats = job
    _tweak()
    if game == "track":
        from game.rules.track import RULES

        state = RULES.new_game({"rules": rules, "seats": 4}, seed)
        nteams = len(RULES.teams(state))
        level_of = [a if s % nteams == a_side else b for s in range(4)]
    else:
        from game.rules.layout import RULES  # type: ignore[no-redef,assignment]

        state = RULES.new_game({"seats": seats}, seed)
        nteams = seats
        level_of = [a if s == a_side else b for s in range(seats)]
    times: dict[str, list[float]] = {a: [], b: []} if a != b else {a: []}
    a_times: list[float] = []
    b_times: list[float] = []
    log: list[tuple[int, str]] = []
    plays = 0
    while plays < max_plays:
        seat = RULES.to_move(state)
        if seat is None:
            break
        legal = [str(p) for p in RULES.legal_plays(state)]
        view = RULES.view(state, seat)
        lvl = level_of[seat]
        t0 = time.perf_counter()
        hist = tuple({"seat": s, "play": p} for s, p in log[-HISTORY_MAX:])
        tok = _decide(game, view, legal, lvl, seed * 100003 + plays, budget, state, hist)
        dt = (time.perf_counter() - t0) * 1000.0
        if len(legal) > 1:
            times[lvl].append(dt)
            if (seat % nteams if game == "track" else seat) == a_side:
                a_times.append(dt)
            else:
                b_times.append(dt)
        prev = state
        try:
            state, _ = RULES.apply(state, seat, tok)
            if game == "track" and max(state.pegs) > 205:  # HOME0 + 5: the deepest home hole
                raise RuntimeError(f"a peg went past home 5: {RULES.format_position(state)}")
        except Exception as e:  # an engine bug: report the position, do not count the game
            return {"seed": seed, "side": a_side, "score": None, "plays": plays, "a_times": [],
                    "error": f"{type(e).__name__}: {e} after {tok!r} in "
                             f"{RULES.format_position(prev)}"}
        log.append((seat, tok))
        plays += 1
    out = RULES.outcome(state)
    if out is None:
        score = 0.5
    else:
        winners = out["winners"]
        if game == "track":
            score = 1.0 if all(w % nteams == a_side for w in winners) else 0.0
        else:
            score = 1.0 if a_side in winners else 0.0
    return {"seed": seed, "side": a_side, "score": score, "plays": plays, "a_times": a_times,
            "b_times": b_times}


def _p95(times: list[float]) -> float:
    ts = sorted(times)
    return ts[min(len(ts) - 1, int(0.95 * len(ts)))] if ts else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--game", choices=("track", "layout"), default="track")
    ap.add_argument("--rules", choices=("tees", "classic", "team"), default="tees")
    ap.add_argument("--a", default="tricky", choices=LEVEL_CHOICES)
    ap.add_argument("--b", default="easy", choices=LEVEL_CHOICES)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--budget-ms", type=float, default=250.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max-plays", type=int, default=6000)
    ap.add_argument("--seats", type=int, default=2,
                    help="layout only: players (level A in one chair, level B in the others; "
                         "A's chair rotates over the games of a seed)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--every", type=int, default=10,
                    help="a progress line every this many games (with both think p95s)")
    ap.add_argument("--samples", type=int, default=0,
                    help="experiments: track Nasty searches exactly this many samples per "
                         "decision (repeatable; the budget is ignored)")
    args = ap.parse_args(argv)
    if args.samples:
        import os

        os.environ["TT_SAMPLES"] = str(args.samples)  # inherited by the spawned workers
    rules = args.rules if args.game == "track" else "trash"
    per = 2 if args.game == "track" else args.seats  # games per seed (A's chairs)
    if args.game == "layout" and not 2 <= args.seats <= 8:
        ap.error("--seats must be 2 to 8")
    if args.game == "layout" and args.seats != 2:
        rules = f"trash{args.seats}p"
    jobs = [
        (args.game, args.rules, args.a, args.b, args.seed + i // per, i % per, args.budget_ms,
         args.max_plays, args.seats)
        for i in range(args.games)
    ]
    wins = 0.0
    n = 0
    times: list[float] = []
    b_times: list[float] = []
    plays = 0
    errors = 0
    t0 = time.time()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.jobs) as pool:
        for res in pool.imap_unordered(play_one, jobs):
            if res["score"] is None:
                errors += 1
                print(f"  ERROR seed={res['seed']}: {res['error']}", flush=True)
                continue
            n += 1
            wins += res["score"]
            times.extend(res["a_times"])
            b_times.extend(res.get("b_times", []))
            plays += res["plays"]
            if not args.quiet and (n % max(1, args.every) == 0 or n == len(jobs)):
                lo, hi = wilson(wins, n)
                mean = sum(times) / len(times) if times else 0.0
                print(f"  {n}/{len(jobs)} winrate={wins / n:.3f} ci95=[{lo:.3f},{hi:.3f}] "
                      f"plays/game={plays / n:.0f} think_mean_ms={mean:.1f} "
                      f"think_p95_ms={_p95(times):.1f} b_think_p95_ms={_p95(b_times):.1f} "
                      f"elapsed={time.time() - t0:.0f}s", flush=True)
    p95 = _p95(times)
    b95 = _p95(b_times)
    lo, hi = wilson(wins, n)
    print(f"{args.game} {rules} {args.a} vs {args.b} games={n} winrate={wins / n:.3f} "
          f"ci95=[{lo:.3f},{hi:.3f}] think_p95_ms={p95:.1f} b_think_p95_ms={b95:.1f}"
          + (f" errors={errors}" if errors else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
