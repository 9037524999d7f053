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
from typing import Any, NoReturn, TextIO

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
    sub.add_parser("replay", help="check a game record and print it move by move").add_argument(
        "file")
    return p


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    out = sys.stdout
    if args.cmd == "replay":
        return replay_file(args.file, out)
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


def replay_file(path: str, out: TextIO) -> int:
    """``replay FILE``: check a game record (docs/record.md) by replaying it, then print it
    move by move in words (whose turn, the card, what moved)."""
    from game.rules.record import read_record, steps

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise RulesError(f"cannot read {path}: {err}") from None
    rec, _final = read_record(text)
    if rec.game != "track":
        raise RulesError(f"{path} is a record of the {rec.game} game: use "
                         f"python -m game.rules.{rec.game} replay")
    names = ("Red", "Blue", "Yellow", "Green", "Orange", "Sky", "Purple", "White")
    ranks = {0: "joker", 1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}

    def col(c: int) -> str:
        return names[c % len(names)]

    def where(v: Any) -> str:
        if v == "s":
            return "start"
        if isinstance(v, str):
            return f"home {v[1:]}"
        return f"hole {v}"

    def who(seat: int) -> str:
        s = rec.seats[seat]
        return f"{col(seat)} ({s.name or s.level})"

    conf = rec.config
    print(f"Track game, {conf['rules']} rules, {len(rec.seats)} seats ({conf['mode']}), "
          f"seed {rec.seed}{', ' + rec.date if rec.date else ''}", file=out)
    for st in steps(rec):
        bits: list[str] = []
        card = ""
        for e in st.events:
            t = e["type"]
            if t == "play":
                r = e["card"] >> 2
                card = "the joker" if r == 0 else \
                    f"{'an' if r in (1, 8) else 'a'} {ranks.get(r, str(r))}"
            elif t == "discard":
                bits.append("discards it (nothing can move)")
            elif t == "come_out":
                bits.append(f"brings a {col(e['colour'])} peg out to hole {e['to']}")
            elif t == "move":
                how = "jumps" if e["jump"] else "back" if e["backward"] else "forward"
                steps_ = "" if e["jump"] else f" {e['steps']}"
                bits.append(f"{col(e['colour'])} {where(e['from'])} -> {where(e['to'])} "
                            f"({how}{steps_})")
            elif t == "bump":
                bits.append(f"bumps {col(e['colour'])} from hole {e['from']} to "
                            f"{where(e['to'])}")
            elif t == "trade":
                bits.append(f"{col(e['colour'])} hole {e['from']} trades with "
                            f"{col(e['other_colour'])} on hole {e['to']}")
            elif t == "fold":
                bits.append(f"{col(e['seat'])} cannot play and folds")
            elif t == "reshuffle":
                bits.append("the discards are shuffled into a new pile")
            elif t == "game_over":
                won = ", ".join(who(w) for w in e["winners"])
                extra = f" in {e['turns']} turns" if "turns" in e else ""
                bits.append(f"game over: {won} win{extra}")
        by = "" if st.play.by == ("person" if rec.seats[st.play.seat].kind == "person"
                                  else "cpu") else f" [{st.play.by}]"
        print(f"{st.play.n}. {who(st.play.seat)}{by} plays {card} ({st.play.token}): "
              + "; ".join(bits), file=out)
    won = "unfinished" if rec.result == "*" else "won by " + ", ".join(
        who(int(w)) for w in rec.result.split(","))
    print(f"Result: {won} after {len(rec.plays)} plays", file=out)
    return 0


if __name__ == "__main__":
    run_cli(main)
