"""Speed of the Nasty CPU's review: a whole 4-seat classic game reviewed at the CPU's budget.

    nice python bench/review.py [--budget 300] [--seed 3] [--seat 0]

The game is played by the Tricky CPU at every seat (seat ``--seat`` marked a person), written
as a record, and every play of that person is reviewed as :func:`game.ai.review.review` does
(the seat's view, Nasty's choice, the rollouts of the chances), each play timed on the wall
clock. It prints the game's size, then one final line:

    review plays=<n> p50_ms=<a> p95_ms=<b> total_s=<c>

The target (issue 16): a whole game reviewed within a minute on this machine class at the
normal budget (300 ms).
"""

from __future__ import annotations

import argparse
import time

from game.ai.review import review_play
from game.ai.track import tricky
from game.rules.record import RecordSeat, format_record, make_record, parse_record, steps
from game.rules.track import RULES


def game_record(seed: int, seat: int) -> str:
    config = {"rules": "classic", "seats": 4}
    s = RULES.new_game(config, seed)
    plays = []
    while (m := RULES.to_move(s)) is not None:
        tok = tricky(RULES.view(s, m), RULES.legal_tokens(s), len(plays))
        plays.append((m, tok, "person" if m == seat else "cpu"))
        s, _ = RULES.apply(s, m, tok)
    seats = [RecordSeat(i, "person", "person", "You") if i == seat else
             RecordSeat(i, "cpu", "nasty", f"CPU {i}") for i in range(4)]
    return format_record(make_record("track", config, seed, seats, plays, date="",
                                     version="bench"))


def pct(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=300.0)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--seat", type=int, default=0)
    args = ap.parse_args()
    rec = parse_record(game_record(args.seed, args.seat))
    print(f"# classic 4 seats, seed {args.seed}: {len(rec.plays)} plays, seat {args.seat} "
          f"made {sum(p.seat == args.seat for p in rec.plays)}")
    times: list[float] = []
    differ = 0
    t0 = time.perf_counter()
    for st in steps(rec, events=False):
        if st.play.by != "person":
            continue
        view = RULES.view(st.before, st.play.seat)
        a = time.perf_counter()
        note = review_play("track", view, st.play.token, st.play.n, args.budget,
                           args.seed ^ st.play.n)
        times.append((time.perf_counter() - a) * 1000.0)
        differ += note.cpu is not None
    total = time.perf_counter() - t0
    print(f"# the CPU chose otherwise {differ} times")
    print(f"review plays={len(times)} p50_ms={pct(times, 0.5):.0f} "
          f"p95_ms={pct(times, 0.95):.0f} total_s={total:.1f}")


if __name__ == "__main__":
    main()
