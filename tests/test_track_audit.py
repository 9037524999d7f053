"""An independent rules audit of the track game (issue 2), from spec track.md and seeds 000/001.

Every expected value below is worked out by hand in the comment beside it, from the spec and
the seeds only (never copied from the engine's output). Positions are written in the notation
of docs/notation.md by this file's own builder (``P``).

Geometry used throughout (spec section 1): a seat on side s has corner 18s, in-spot 18s+3,
come-out 18s+8; the ring has 18*S holes (S = 4 for 1..4 seats, else S = seats).

    4 seats (R = 72):  a 0/3/8    b 18/21/26    c 36/39/44    d 54/57/62   (corner/in/out)
    6 seats (R = 108): ... e 72/75/80   f 90/93/98
    8 seats (R = 144): ... g 108/111/116   h 126/129/134
    2 seats: a side 0, b side 2 (36/39/44).   3 seats: sides 0, 1, 2.

Teams alternate: teams2 at 4 seats = {a, c} vs {b, d}; 6 seats teams2 = {a, c, e} vs
{b, d, f}; teams3 = {a, d}, {b, e}, {c, f}; 8 seats teams4 = {a, e}, {b, f}, {c, g}, {d, h}.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from game.rules.api import IllegalPlay, NotYourTurn
from game.rules.track import RULES

LETTERS = "abcdefgh"


# ------------------------------------------------------------------------------------------
# helpers (this file's own, so the audit does not lean on the engine author's test helpers)


def deck_size(rules: str, seats: int, jokers: bool) -> int:
    # spec 3/4/5: tees one 52-card deck; classic 3 decks up to 6 seats, 4 for 7-8; team 4.
    if rules == "tees":
        return 52
    decks = 4 if rules == "team" or seats >= 7 else 3
    return decks * (52 + (2 if jokers else 0))


def P(rules: str, pegs: dict[str, str], hand: str, *, seats: int = 4, mode: str | None = None,
      turn: str = "a", counts: dict[str, int] | None = None, jokers: bool | None = None,
      seven: bool = True, discards: int = 0, pile: int | None = None, dealer: str = "",
      rnd: int = 1, turns: int = 0) -> str:
    """A position line. Colours missing from ``pegs`` have all five pegs in start; hands of
    other seats hold ``counts`` cards (default 0); the pile holds the rest of the pack."""
    if mode is None:
        if rules == "tees":
            mode = "teams2" if seats == 4 else "teams3"
        else:
            mode = {1: "solo", 2: "h2h", 4: "teams2", 6: "teams2", 8: "teams2"}.get(seats, "ffa")
    if jokers is None:
        jokers = rules != "tees" and mode != "solo"
    cols = LETTERS[:seats]
    mine = [x for x in hand.split(",") if x] if hand not in ("", "-") else []
    cnt = [len(mine) if c == turn else (counts or {}).get(c, 0) for c in cols]
    if pile is None:
        pile = deck_size(rules, seats, jokers) - sum(cnt) - discards
    f = [rules, str(seats), mode, f"jokers={'on' if jokers else 'off'}",
         f"seven={'on' if seven else 'off'}"]
    f += [f"{c}:{pegs.get(c, 's,s,s,s,s')}" for c in cols]
    f += [f"turn={turn}", f"hand={','.join(mine) or '-'}", "cards=" + ",".join(map(str, cnt)),
          f"pile={pile}", f"discards={discards}"]
    if rules == "tees":
        f += [f"dealer={dealer or cols[-1]}", f"round={rnd}"]
    if mode == "solo":
        f.append(f"turns={turns}")
    return " ".join(f)


def legal(position: str) -> list[str]:
    return RULES.legal_tokens(RULES.parse_position(position))


def same(got: list[str], want: list[str]) -> None:
    """The exact set of legal plays (no duplicates), order aside."""
    assert len(got) == len(set(got)), f"duplicates in {got}"
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    assert not missing and not extra, f"missing {missing}, unexpected {extra}"
    assert len(got) == len(want)


def play(position: str, token: str) -> tuple[str, list[dict[str, Any]]]:
    s = RULES.parse_position(position)
    s2, ev = RULES.apply(s, s.turn, token)
    return RULES.format_position(s2), ev


def pegs(position: str, colour: str) -> str:
    for fld in position.split():
        if fld.startswith(colour + ":"):
            return fld[2:]
    raise AssertionError(f"no colour {colour} in {position!r}")


def field(position: str, key: str) -> str:
    for fld in position.split():
        if fld.startswith(key + "="):
            return fld[len(key) + 1:]
    raise AssertionError(f"no {key}= in {position!r}")


def bumps(events: list[dict[str, Any]]) -> list[tuple[int, Any, Any]]:
    return [(e["colour"], e["from"], e["to"]) for e in events if e["type"] == "bump"]


def illegal(position: str, token: str) -> None:
    s = RULES.parse_position(position)
    before = RULES.format_position(s)
    with pytest.raises(IllegalPlay):
        RULES.apply(s, s.turn, token)
    assert RULES.format_position(s) == before  # bad input changes nothing


# ==========================================================================================
# 1. Geometry (spec 1; seed 001: "a peg that has just come out is eight holes past the corner:
#    an 8 takes it back to the corner, three short of its in-spot, and from there a 4 to 8
#    takes it straight home")


# (seats, colour of the last seat, its side): 1 seat side 0; 2 seats b on side 2; 3 seats c
# on side 2; 4+ seats seat i on side i.
LAST_SEAT_SIDE = [(1, "a", 0), (2, "b", 2), (3, "c", 2), (4, "d", 3), (5, "e", 4), (6, "f", 5),
                  (7, "g", 6), (8, "h", 7)]


@pytest.mark.parametrize(("seats", "col", "side"), LAST_SEAT_SIDE)
def test_classic_just_out_eight_back_to_corner_then_four_to_seven_home(
        seats: int, col: str, side: int) -> None:
    corner, out = 18 * side, 18 * side + 8
    # just out on the come-out hole: the classic 8 goes back 8 holes, exactly to the corner
    p = P("classic", {col: f"s,s,s,s,{out}"}, "8C", seats=seats, turn=col)
    assert legal(p) == [f"8:{col}{out}-8"]
    p2, ev = play(p, f"8:{col}{out}-8")
    assert pegs(p2, col) == f"s,s,s,s,{corner}"
    mv = next(e for e in ev if e["type"] == "move")
    assert mv["path"] == [out - k for k in range(1, 9)] and mv["backward"]
    # from the corner (3 short of the in-spot) n forward turns into home n-3, or (turning in
    # is optional in classic) stays on the ring at corner+n
    q = P("classic", {col: f"s,s,s,s,{corner}"}, "4C,5C,6C,7C", seats=seats, turn=col)
    want = []
    for n in (4, 5, 6, 7):
        want += [f"{n}:{col}{corner}+{n}", f"{n}:{col}{corner}+{n}h"]
    assert legal(q) == want
    for n in (4, 5, 6, 7):
        q2, ev = play(q, f"{n}:{col}{corner}+{n}h")
        assert pegs(q2, col) == f"s,s,s,s,h{n - 3}"
        mv = next(e for e in ev if e["type"] == "move")
        # path: corner+1, corner+2, the in-spot corner+3, then h1..h(n-3)
        assert mv["path"] == [corner + 1, corner + 2, corner + 3] + [
            f"h{k}" for k in range(1, n - 2)]


def test_tees_six_seats_corner_four_to_eight_into_home_one_to_five() -> None:
    # tees 6 seats (R=108): d on side 3, corner 54, in-spot 57. From the corner n forward
    # (n = 4..8; the tees 8 goes forward) = 3 to the in-spot then home n-3. 9 would be h6,
    # T h7, Q h9: too big, and a tees peg never goes round again past its in-spot.
    p = P("tees", {"d": "s,s,s,s,54"}, "4C,5C,6C,8C", seats=6, turn="d")
    assert legal(p) == ["4:d54+4h", "5:d54+5h", "6:d54+6h", "8:d54+8h"]
    assert pegs(play(p, "8:d54+8h")[0], "d") == "s,s,s,s,h5"
    assert pegs(play(p, "4:d54+4h")[0], "d") == "s,s,s,s,h1"
    p = P("tees", {"d": "s,s,s,s,54"}, "7C,9C,TC,QC", seats=6, turn="d")
    assert legal(p) == ["7:d54+7h"]


def test_tees_lap_is_eighteen_s_minus_five_from_the_come_out_hole() -> None:
    # 6 seats: f side 5, corner 90, in-spot 93, come-out 98; lap = 108 - 5 = 103.
    # f81: 12 to the in-spot: a Q lands exactly on it (ring). f98 (just out): Q -> 110-108 = 2.
    p = P("tees", {"f": "s,s,s,81,98"}, "QC", seats=6, turn="f")
    assert legal(p) == ["Q:f81+12", "Q:f98+12"]
    # f82: 11 to the in-spot, so a Q is 11 + home 1.
    p = P("tees", {"f": "s,s,s,82,98"}, "QC", seats=6, turn="f")
    assert legal(p) == ["Q:f82+12h", "Q:f98+12"]
    # 4 seats (R=72): a71 is 4 short of its in-spot 3 (71 -> 0, 1, 2, 3).
    # 2 -> 1; 4 -> the in-spot itself (stays on the ring); 5 -> h1; 9 -> h5; T -> h6: no.
    p = P("tees", {"a": "s,s,s,s,71"}, "2C,4C,5C,9C,TC")
    assert legal(p) == ["2:a71+2", "4:a71+4", "5:a71+5h", "9:a71+9h"]
    p2, _ = play(p, "4:a71+4")
    assert pegs(p2, "a") == "s,s,s,s,3"


def test_head_to_head_b_sits_on_side_two_and_three_seats_use_sides_zero_one_two() -> None:
    # 2 seats: b on side 2: come-out 44, corner 36 (in-spot 39).
    p = P("classic", {}, "KC", seats=2, turn="b")
    assert legal(p) == ["K:bs"]
    assert pegs(play(p, "K:bs")[0], "b") == "s,s,s,s,44"
    # 3 seats ffa: b on side 1 (come-out 26), c on side 2 (come-out 44); side 3 (54..71) is
    # open track: a peg of a at 50 moves 5 to 55 like anywhere else.
    p = P("classic", {}, "AC", seats=3, turn="b")
    assert pegs(play(p, "A:bs")[0], "b") == "s,s,s,s,26"
    p = P("classic", {}, "AC", seats=3, turn="c")
    assert pegs(play(p, "A:cs")[0], "c") == "s,s,s,s,44"
    p = P("classic", {"a": "s,s,s,s,50"}, "5C", seats=3)
    assert legal(p) == ["5:a50+5"]
