"""Trash: how much each view-only decision rule is worth, exactly (run by hand).

    python -m bench.layout_levers --seats 2 --games 120

Plays Tricky-against-Tricky games (seeds from ``--seed``). At every decision with a choice it
plays each option out on the *real* state with the rollout policy for every seat (an exact
forecast of the hand when everyone then plays like Tricky, see ``bench/layout_oracle.py``):

* draw decisions (``S`` or ``D``), bucketed by what the seat can see: is the top discard live
  for it and for the next seat, and the share of the unseen cards that would be live for it
  and for the next seat (tenths, 4 = 0.4 or more). Printed: hands won by ``D`` minus by ``S``
  (mean, +- two standard errors) per bucket with 30+ decisions;
* wild placements: the mean share of hands won by each placement rule (the count, Tricky's
  glance, the most unseen copies, the lowest and the highest face-down place, the average
  over all places, and the best place in hindsight).
"""

from __future__ import annotations

import argparse
import sys

from game.ai import layout as ai
from game.rules.layout import RULES


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--seed", type=int, default=8000)
    ap.add_argument("--seats", type=int, default=2)
    args = ap.parse_args(argv)
    n = args.seats
    buckets: dict[tuple[int, int, int, int], list[float]] = {}
    wild: dict[str, float] = {}
    nwild = 0
    for g in range(args.games):
        st = RULES.new_game({"seats": n}, args.seed + g)
        k = 0
        while RULES.to_move(st) is not None and k < 5000:
            seat = RULES.to_move(st)
            assert seat is not None
            legal = [str(p) for p in RULES.legal_plays(st)]
            view = RULES.view(st, seat)
            if legal == ["S", "D"]:
                top = view["discard"][-1]
                unseen = ai.unseen_by_rank(view)
                nxt = (seat + 1) % n
                key = (int(ai.live_for(view, seat, top)), int(ai.live_for(view, nxt, top)),
                       min(4, int(ai._live_share(view, seat, unseen) * 10)),
                       min(4, int(ai._live_share(view, nxt, unseen) * 10)))
                buckets.setdefault(key, []).append(
                    ai.play_out(st, "D", seat) - ai.play_out(st, "S", seat))
            elif len(legal) > 1:
                val = {t: ai.play_out(st, t, seat) for t in legal}
                unseen = ai.unseen_by_rank(view)
                rules = {
                    "count": ai._wild_by(unseen, legal, most=False),
                    "glance": ai._wild_by(ai.glance_counts(view), legal, most=True),
                    "most_unseen": ai._wild_by(unseen, legal, most=True),
                    "lowest": legal[0], "highest": legal[-1],
                    "best_in_hindsight": max(legal, key=lambda t: val[t]),
                }
                avg = sum(val.values()) / len(val)
                wild["average_place"] = wild.get("average_place", 0.0) + avg
                for name, tok in rules.items():
                    wild[name] = wild.get(name, 0.0) + val[tok]
                nwild += 1
            tok = ai.tricky(view, legal, k) if len(legal) > 1 else legal[0]
            st, _ = RULES.apply(st, seat, tok)
            k += 1
    print("draw: D minus S in hands won, by (top live for me, for next, my live share, next's)")
    for key in sorted(buckets):
        xs = buckets[key]
        if len(xs) < 30:
            continue
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
        print(f"  live={key[0]} next_live={key[1]} me={key[2]} next={key[3]} n={len(xs)} "
              f"D-S={m:+.3f} +-{2 * (var / len(xs)) ** 0.5:.3f}")
    print(f"wild placements n={nwild}: " + " ".join(
        f"{name}={v / max(1, nwild):.4f}" for name, v in wild.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
