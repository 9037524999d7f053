"""Command line over the track-game notation (docs/notation.md).

    python -m game.rules.track legal "<position>"
    python -m game.rules.track apply "<position>" "<play>"
    python -m game.rules.track play --rules classic --seats 4 [--mode teams] [--teams 2]
                                    [--seed 7] [--no-jokers] [--no-seven] [--events]

Bad input: one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from game.rules.api import RulesError
from game.rules.cards import Rng
from game.rules.cli import run_cli
from game.rules.track import RULES


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> _Parser:
    p = _Parser(prog="python -m game.rules.track", description="track-game notation tools")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    lg = sub.add_parser("legal", help="print every legal play of a position, one a line")
    lg.add_argument("position")
    ap = sub.add_parser("apply", help="apply a play: print the new position and the events")
    ap.add_argument("position")
    ap.add_argument("play")
    pl = sub.add_parser("play", help="play a random game and print its log")
    pl.add_argument("--rules", default="classic", choices=("tees", "classic", "team"))
    pl.add_argument("--seats", type=int, default=4)
    pl.add_argument("--mode", choices=("teams", "h2h", "ffa", "solo"))
    pl.add_argument("--teams", type=int)
    pl.add_argument("--seed", default="7", help="game seed (an integer or any text)")
    pl.add_argument("--no-jokers", action="store_true")
    pl.add_argument("--no-seven", action="store_true", help="seven_to_partner off")
    pl.add_argument("--events", action="store_true", help="also print each play's events")
    pl.add_argument("--positions", action="store_true", help="also print each position")
    return p


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    out = sys.stdout
    if args.cmd == "legal":
        s = RULES.parse_position(args.position)
        for tok in RULES.legal_tokens(s):
            print(tok, file=out)
        return 0
    if args.cmd == "apply":
        s = RULES.parse_position(args.position)
        seat = RULES.to_move(s)
        if seat is None:
            raise RulesError("the game in this position is over")
        s2, events = RULES.apply(s, seat, args.play)
        print(RULES.format_position(s2), file=out)
        for e in events:
            print(json.dumps(e, separators=(",", ":")), file=out)
        return 0
    config: dict[str, Any] = {"rules": args.rules, "seats": args.seats}
    if args.mode:
        config["mode"] = args.mode
    if args.teams is not None:
        config["teams"] = args.teams
    if args.no_jokers:
        config["jokers"] = False
    if args.no_seven:
        config["seven_to_partner"] = False
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    conf = RULES.normalize_config(config)
    s = RULES.new_game(conf, seed)
    chooser = Rng.from_seed(f"cli-play-{seed}")
    print(f"# config {json.dumps(conf, sort_keys=True)} seed {seed!r}", file=out)
    turns = 0
    while True:
        seat = RULES.to_move(s)
        if seat is None:
            break
        if args.positions:
            print(f"# {RULES.format_position(s)}", file=out)
        legal = RULES.legal_plays(s)
        play = legal[chooser.below(len(legal))]
        print(f"{seat} {play}", file=out)
        s, events = RULES.apply(s, seat, play, events=args.events)
        if args.events:
            for e in events:
                print("#   " + json.dumps(e, separators=(",", ":")), file=out)
        turns += 1
    print(f"# outcome {json.dumps(RULES.outcome(s), sort_keys=True)} plays {turns}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    except RulesError as e:
        msg = " ".join(str(e).split())
        print(f"error: {type(e).__name__}: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    run_cli(main)
