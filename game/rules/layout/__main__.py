"""Command line: ``python -m game.rules.layout legal|apply|play ...``.

* ``legal "<position>"``: the legal play tokens, one per line (none once the game is over).
* ``apply "<position>" "<play>"``: the new full position, then one line per event.
* ``play --seats 4 [--seed 7] [--wild J|K] [--last-chance] [--upcard] [--size N]
  [--first SEAT]``: a random game (random legal plays), printed as its log.

Bad input prints one line ``error: ...`` on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn, TextIO

from game.rules.api import RulesError
from game.rules.cards import CardError, Rng, card_text
from game.rules.cli import run_cli
from game.rules.layout import RULES, format_position, parse_position


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def event_text(e: dict[str, Any]) -> str:
    parts = [e["type"]]
    for k, v in e.items():
        if k == "type":
            continue
        if k in ("card", "top", "upcard") and isinstance(v, int):
            v = card_text(v)
        elif isinstance(v, list):
            v = ",".join(map(str, v)) if v else "-"
        elif v is None:
            v = "-"
        elif isinstance(v, bool):
            v = int(v)
        parts.append(f"{k}={v}")
    return " ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = _Parser(prog="python -m game.rules.layout", description="The layout game (Trash).")
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    p_legal = sub.add_parser("legal", help="legal plays of a position")
    p_legal.add_argument("position")
    p_apply = sub.add_parser("apply", help="apply one play to a position")
    p_apply.add_argument("position")
    p_apply.add_argument("play")
    p_play = sub.add_parser("play", help="play a random game and print its log")
    p_play.add_argument("--seats", type=int, default=4)
    p_play.add_argument("--seed", type=int, default=0)
    p_play.add_argument("--wild", default="J")
    p_play.add_argument("--last-chance", action="store_true")
    p_play.add_argument("--upcard", action="store_true")
    p_play.add_argument("--size", type=int, default=10)
    p_play.add_argument("--first", type=int, default=None)
    p_play.add_argument("--events", action="store_true", help="print every event too")
    sub.add_parser("replay", help="check a game record, print it move by move").add_argument(
        "file")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "replay":
            return replay_file(args.file, sys.stdout)
        if args.cmd == "legal":
            st = parse_position(args.position)
            for p in RULES.legal_plays(st):
                print(p)
        elif args.cmd == "apply":
            st = parse_position(args.position)
            seat = RULES.to_move(st)
            # over (no seat to move): apply raises GameOver (or a notation error) for any seat
            new, events = RULES.apply(st, 0 if seat is None else seat, args.play)
            print(format_position(new))
            for e in events:
                print(event_text(e))
        else:
            cfg = {
                "seats": args.seats, "wild": args.wild, "last_chance": args.last_chance,
                "upcard": args.upcard, "layout_size": args.size, "first_leader": args.first,
            }
            st = RULES.new_game(cfg, args.seed)
            rng = Rng.from_seed(args.seed ^ 0x5EED)
            print(f"config {' '.join(f'{k}={v}' for k, v in RULES.normalize_config(cfg).items())}")
            print(f"seed {args.seed}")
            print(f"start {format_position(st)}")
            while (seat := RULES.to_move(st)) is not None:
                legal = RULES.legal_plays(st)
                play = legal[rng.below(len(legal))]
                st, events = RULES.apply(st, seat, play)
                print(f"play {seat} {play}")
                if args.events:
                    for e in events:
                        print(f"  {event_text(e)}")
            out = RULES.outcome(st)
            assert out is not None
            print(
                f"result winners={','.join(map(str, out['winners']))} hands={out['hands']} "
                f"plays={st.ply}"
            )
    except (RulesError, CardError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def replay_file(path: str, out: TextIO) -> int:
    """``replay FILE``: check a game record (docs/record.md) by replaying it, then print it
    move by move in words (whose turn, what was drawn and where it went)."""
    from game.rules.record import read_record, steps

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise RulesError(f"cannot read {path}: {err}") from None
    rec, _final = read_record(text)
    if rec.game != "layout":
        raise RulesError(f"{path} is a record of the {rec.game} game: use "
                         f"python -m game.rules.{rec.game} replay")

    def who(seat: int) -> str:
        s = rec.seats[seat]
        return f"seat {seat} ({s.name or s.level})"

    print(f"Trash, {len(rec.seats)} seats, seed {rec.seed}"
          f"{', ' + rec.date if rec.date else ''}", file=out)
    for st in steps(rec):
        bits: list[str] = []
        for e in st.events:
            t = e["type"]
            c = card_text(e["card"]) if isinstance(e.get("card"), int) else ""
            if t == "drawn":
                src = "the stock" if e["source"] == "stock" else "the discards"
                bits.append(f"takes {c} from {src}")
            elif t == "placed":
                bits.append(f"puts {c} on place {e['place']}")
            elif t == "revealed":
                bits.append(f"turns up {c}")
            elif t == "wild_displaced":
                bits.append(f"takes back the wild {c}")
            elif t == "wild_placed":
                bits.append(f"puts the wild {c} on place {e['place']}")
            elif t == "discarded":
                bits.append(f"discards {c} ({e['reason']})")
            elif t == "reshuffled":
                bits.append(f"the discards are shuffled into a new stock of {e['stock']}")
            elif t == "completed":
                bits.append("completes the layout")
            elif t == "passed":
                bits.append(f"{who(e['seat'])} passes")
            elif t == "hand_won":
                won = ", ".join(who(w) for w in e["winners"])
                bits.append(f"hand {e['hand']} won by {won}")
            elif t == "dealt":
                bits.append(f"hand {e['hand']} is dealt (sizes {e['sizes']})")
            elif t == "game_won":
                bits.append("game over: " + ", ".join(who(w) for w in e["winners"]) + " win")
        print(f"{st.play.n}. {who(st.play.seat)} ({st.play.token}): " + "; ".join(bits),
              file=out)
    won = "unfinished" if rec.result == "*" else "won by " + ", ".join(
        who(int(w)) for w in rec.result.split(","))
    print(f"Result: {won} after {len(rec.plays)} plays", file=out)
    return 0


if __name__ == "__main__":
    run_cli(main)
