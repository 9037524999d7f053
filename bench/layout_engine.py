"""Layout-game (Trash) engine speed: complete games (every hand until a game winner).

Run by hand: ``python bench/layout_engine.py [--seconds 3] [--api]``. The policy always takes a
live top discard, else draws from the stock, and puts each wild card on its lowest face-down
place. The main figures use the engine's fast path (in-place, no events); ``--api`` also times
the public ``RULES.apply`` (copies the state, builds events). Last line per configuration:
``layout <players>p games/s=<x> turns/s=<y>``.
"""

from __future__ import annotations

import argparse
import time

from game.rules.layout import RULES, engine
from game.rules.layout.engine import OVER, SOURCE, UP
from game.rules.layout.rules import new_state, normalize_config


def fast_game(cfg: dict, seed: int) -> int:
    """One complete game on the fast path; returns the number of turns (source decisions)."""
    st = new_state(cfg, seed)
    take, place_wild, is_live = engine.take, engine.place_wild, engine.is_live
    turns = 0
    while st.phase != OVER:
        if st.phase == SOURCE:
            turns += 1
            disc = st.disc
            live = bool(disc) and is_live(st, st.turn, disc[-1])
            take(st, not live and engine.can_draw_stock(st), None)
        else:
            lay = st.lay[st.turn]
            place_wild(st, next(i for i, v in enumerate(lay) if v < UP) + 1, None)
        st.ply += 1
    return turns


def api_game(cfg: dict, seed: int) -> int:
    st = RULES.new_game(cfg, seed)
    turns = 0
    while (seat := RULES.to_move(st)) is not None:
        if st.phase == SOURCE:
            turns += 1
            disc = st.disc
            play = "D" if disc and engine.is_live(st, seat, disc[-1]) else "S"
        else:
            play = str(RULES.legal_plays(st)[0])
        st, _ = RULES.apply(st, seat, play)
    return turns


def run(fn, cfg: dict, seconds: float) -> tuple[float, float, int, float]:
    """(games/s, turns/s, games, cpu share) over about ``seconds`` of wall-clock time."""
    games = turns = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    while True:
        turns += fn(cfg, games)
        games += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return games / dt, turns / dt, games, (time.process_time() - c0) / dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--players", default="2,3,4,6,8")
    ap.add_argument("--size", type=int, default=10)
    ap.add_argument("--api", action="store_true")
    args = ap.parse_args()
    for n in map(int, args.players.split(",")):
        cfg = normalize_config({"seats": n, "layout_size": args.size})
        if args.api:
            g, t, k, cpu = run(api_game, cfg, args.seconds)
            print(f"  api path: {k} games, {t / g:.0f} turns/game, games/s={g:.1f} "
                  f"turns/s={t:.0f} (cpu share {cpu:.2f})")
        g, t, k, cpu = run(fast_game, cfg, args.seconds)
        extra = f" size={args.size}" if args.size != 10 else ""
        print(f"  fast path: {k} games, {t / g:.0f} turns/game{extra}, cpu share {cpu:.2f} "
              f"(per cpu-second: games/s={g / cpu:.1f})")
        print(f"layout {n}p games/s={g:.1f} turns/s={t:.0f}")


if __name__ == "__main__":
    main()
