"""Trash: what Nasty's search gains per decision, exactly (run by hand; a low-noise proxy).

    python -m bench.layout_gain --games 30 --samples 256 [--param layout.SEARCH_Z=2]

(The search is off in play, ``SEARCH_WILD = SEARCH_SOURCE = 0``; this script turns both on.)

Plays Tricky-against-Tricky games (two players, seeds from ``--seed``). At every decision with a
choice it asks Nasty (fixed ``--samples``) and the count rule (Nasty's default); where they
differ it plays both out on the *real* state with the rollout policy for every seat (an exact
forecast of the hand when everyone then plays like Tricky, see ``bench/layout_oracle.py``) and
adds up the difference: hands won per deviation, by kind of decision (``W`` wild placement,
``D`` dead top discard, ``L`` live top discard). Last line:
``gain decisions=<n> deviations=<k> gain=<sum> per100hands=<x> se=<s>``.
"""

from __future__ import annotations

import argparse
import math
import sys

from game.ai import layout as ai
from game.rules.layout import RULES


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--samples", type=int, default=256)
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--param", action="append", default=[],
                    help="module constant override, e.g. layout.SEARCH_Z=2")
    args = ap.parse_args(argv)
    ai.SEARCH_WILD = ai.SEARCH_SOURCE = 1.0  # the search is off in play: turn it on here
    for item in args.param:
        name, value = item.split("=")
        setattr(ai, name.split(".")[1], float(value))
    kinds: dict[str, list[float]] = {}
    diffs: list[float] = []
    decisions = 0
    hands = 0
    for g in range(args.games):
        st = RULES.new_game({"seats": args.seats}, args.seed + g)
        k = 0
        while RULES.to_move(st) is not None and k < 5000:
            seat = RULES.to_move(st)
            assert seat is not None
            legal = [str(p) for p in RULES.legal_plays(st)]
            view = RULES.view(st, seat)
            tok = legal[0]
            if len(legal) > 1:
                decisions += 1
                d = ai.count_choice(view, legal)
                pick = ai.nasty(view, legal, k, 1e9, max_samples=args.samples)
                if pick != d:
                    gain = ai.play_out(st, pick, seat) - ai.play_out(st, d, seat)
                    kind = "W" if legal[0][0] == "W" else (
                        "L" if ai.live_for(view, seat, view["discard"][-1]) else "D")
                    kinds.setdefault(kind, []).append(gain)
                    diffs.append(gain)
                tok = ai.tricky(view, legal, k)
            h = st.hand
            st, _ = RULES.apply(st, seat, tok)
            hands += st.hand != h or st.phase == 2
            k += 1
        if (g + 1) % 10 == 0:
            print(f"  {g + 1}/{args.games} deviations={len(diffs)} gain={sum(diffs):+.0f} "
                  + " ".join(f"{kk}:{len(v)}/{sum(v):+.0f}" for kk, v in sorted(kinds.items())),
                  flush=True)
    nd = len(diffs)
    mean = sum(diffs) / nd if nd else 0.0
    var = sum((x - mean) ** 2 for x in diffs) / max(1, nd - 1)
    se = math.sqrt(var * nd) * 100 / max(1, hands)
    print(f"gain decisions={decisions} deviations={nd} gain={sum(diffs):+.0f} hands={hands} "
          f"per100hands={sum(diffs) * 100 / max(1, hands):+.2f} se={se:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
