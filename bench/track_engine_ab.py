"""Two checkouts' track engines, interleaved: the speed ratio of ``--new`` over ``--old``.

    python bench/track_engine_ab.py --old /tmp/old-checkout [--new .] [--rounds 3]
        [--seconds 1] [--only classic:4] [--c]

Runs ``bench/track_engine.py --python`` (``--c``: the C core instead) of each checkout in a
fresh process (``PYTHONPATH`` set to that checkout, so each runs its own ``game``), old and
new alternated per configuration and round, so a change in machine load hits both alike.
Each run's own driver is used (the same random games: the plays are chosen by the same
seeded :class:`Rng` from the same legal list). Rates are CPU-second rates. Per configuration
it prints the median turns/s and legal/s of each side over the rounds and the ratio new/old,
then the lowest ratio over every configuration.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

CONFIGS = ["tees:4", "tees:6", "classic:1", "classic:2", "classic:4", "classic:6",
           "classic:8", "team:4", "team:8"]


def run(checkout: str, only: str, seconds: float, c: bool) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(checkout))
    cmd = [sys.executable, os.path.join(checkout, "bench", "track_engine.py"),
           "--seconds", str(seconds), "--only", only]
    if not c:
        cmd.append("--python")
    out = subprocess.run(cmd, env=env, cwd=checkout, capture_output=True, text=True,
                         check=True, timeout=600).stdout
    m = re.search(r"turns/s=(\d+) legal/s=(\d+)", out)
    if m is None:
        raise RuntimeError(f"no rates in {out!r}")
    return float(m.group(1)), float(m.group(2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the checkout to compare against")
    ap.add_argument("--new", default=".", help="the checkout measured (default: this one)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run")
    ap.add_argument("--only", action="append", help="rules:seats (repeatable)")
    ap.add_argument("--c", action="store_true", help="the C core instead of --python")
    args = ap.parse_args()
    worst = None
    for only in args.only or CONFIGS:
        rates: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
        for k in range(max(1, args.rounds)):
            order = ("old", "new") if k % 2 == 0 else ("new", "old")
            for side in order:
                rates[side].append(run(getattr(args, side), only, args.seconds, args.c))
        to = statistics.median(t for t, _ in rates["old"])
        tn = statistics.median(t for t, _ in rates["new"])
        lo = statistics.median(x for _, x in rates["old"])
        ln = statistics.median(x for _, x in rates["new"])
        ratio = tn / to
        worst = ratio if worst is None else min(worst, ratio)
        print(f"{only:10} turns/s old={to:.0f} new={tn:.0f} ratio={ratio:.2f}  "
              f"legal/s old={lo:.0f} new={ln:.0f} ratio={ln / lo:.2f}", flush=True)
    print(f"lowest turns/s ratio {worst:.2f}")


if __name__ == "__main__":
    main()
