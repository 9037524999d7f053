"""Helpers for the track-game tests: build positions in the notation of docs/notation.md."""

from __future__ import annotations

from game.rules.track import RULES

DECK = {("tees", False): 52, ("classic", True): 162, ("classic", False): 156,
        ("team", True): 216, ("team", False): 208}
DECK_BIG = {("classic", True): 216, ("classic", False): 208}


def pos(rules: str, pegs: dict[str, str], hand: str, *, seats: int = 4, mode: str | None = None,
        turn: str = "a", counts: dict[str, int] | None = None, jokers: bool | None = None,
        seven: bool = True, discards: int = 0, dealer: str | None = None, rnd: int = 1,
        turns: int = 0) -> str:
    """A position line. Colours not in ``pegs`` have every peg in start; other hands hold
    ``counts`` cards (default 0); the pile holds the rest of the pack."""
    if mode is None:
        mode = {1: "solo", 2: "h2h"}.get(seats, "teams2" if seats in (4, 6, 8) else "ffa")
        if rules == "tees" and seats == 6:
            mode = "teams3"
    if jokers is None:
        jokers = rules != "tees" and mode != "solo"
    n_hand = 0 if hand in ("-", "") else len(hand.split(","))
    counts = counts or {}
    letters = "abcdefgh"[:seats]
    cnt = [n_hand if c == turn else counts.get(c, 0) for c in letters]
    size = DECK[(rules, jokers)] if not (rules == "classic" and seats >= 7) else DECK_BIG[
        (rules, jokers)]
    pile = size - sum(cnt) - discards
    fields = [rules, str(seats), mode, f"jokers={'on' if jokers else 'off'}",
              f"seven={'on' if seven else 'off'}"]
    for c in letters:
        fields.append(f"{c}:{pegs.get(c, 's,s,s,s,s')}")
    fields += [f"turn={turn}", f"hand={hand or '-'}", "cards=" + ",".join(map(str, cnt)),
               f"pile={pile}", f"discards={discards}"]
    if rules == "tees":
        fields += [f"dealer={dealer or letters[-1]}", f"round={rnd}"]
    if mode == "solo":
        fields.append(f"turns={turns}")
    return " ".join(fields)


def legal(text: str) -> list[str]:
    return RULES.legal_tokens(RULES.parse_position(text))


def after(text: str, token: str) -> tuple[str, list[dict]]:
    s = RULES.parse_position(text)
    s2, ev = RULES.apply(s, s.turn, token)
    return RULES.format_position(s2), ev


def pegs_of(position: str, colour: str) -> str:
    for f in position.split():
        if f.startswith(colour + ":"):
            return f[2:]
    raise AssertionError(f"no colour {colour} in {position}")
