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


# ==========================================================================================
# 2. tees (spec 3, seed 000). 4 seats: a, c partners against b, d.


def test_tees_rich_position_every_card_counted_by_hand() -> None:
    # a: start x2, 10, 30, h3 (h4, h5 empty). b (opp): 13, 34. c (partner): 32. d (opp): 8,
    # on a's come-out hole. Hand A 2 3 4 J.
    # A: come out onto d8 (opponent: bumped) -> A:as; 1 forward: a10->11, a30->31, ah3->h4.
    # 2: a10->12 free; a30->32 lands on partner c = last resort (other plays exist: not
    #    legal); ah3->h5 (h4, h5 empty).
    # 3: a10: 10-8 = 2 < 3, would go behind the come-out hole: no. a30->27 (29, 28 free).
    #    ah3: not snug (h4 empty); steps h2, h1, in-spot 3: all free -> lands on 3.
    # 4: a10->14 passes 11,12,13 (b13 is an opponent: may pass). a30->34 passes c32: no.
    #    ah3+4 = h7: no.
    # J: a's ring pegs 10, 30 trade with every other ring peg not a's: 8, 13, 32, 34.
    #    (never a's h3, never start pegs.)
    p = P("tees", {"a": "s,s,10,30,h3", "b": "s,s,s,13,34", "c": "s,s,s,s,32",
                   "d": "s,s,s,s,8"}, "AC,2C,3C,4C,JC", counts={"b": 5, "c": 5, "d": 5})
    want = ["A:as", "A:a10+1", "A:a30+1", "A:ah3+1", "2:a10+2", "2:ah3+2", "3:a30-3",
            "3:ah3-3", "4:a10+4", "J:a10x8", "J:a10x13", "J:a10x32", "J:a10x34", "J:a30x8",
            "J:a30x13", "J:a30x32", "J:a30x34"]
    same(legal(p), want)
    illegal(p, "2:a30+2")  # the last-resort landing is not allowed while others exist
    illegal(p, "3:a10-3")
    illegal(p, "4:a30+4")
    # coming out onto the opponent on the come-out hole sends it back to start
    p2, ev = play(p, "A:as")
    assert pegs(p2, "a") == "s,8,10,30,h3" and pegs(p2, "d") == "s,s,s,s,s"
    assert bumps(ev) == [(3, 8, "s")]


def test_tees_passing_own_and_partner_blocks_opponent_does_not() -> None:
    # a10, a14; b12 opponent; c20 partner. Hand 4 5 6 7 8.
    # 4: a10->14 lands on own: no. a14->18 (15,16,17 free).
    # 5: a10->15 passes a14: no. a14->19.
    # 6: a10 passes 14: no. a14->20 = partner: last resort, not legal here.
    # 7, 8: a14 would pass the partner on 20: no; a10 passes a14: no.
    p = P("tees", {"a": "s,s,s,10,14", "b": "s,s,s,s,12", "c": "s,s,s,s,20"},
          "4C,5C,6C,7C,8C")
    assert legal(p) == ["4:a14+4", "5:a14+5"]
    # a10 + 2 would land on its own a12: never, not even as a last resort; a12 + 2 lands on
    # the partner c14, the only play: legal.
    p = P("tees", {"a": "s,s,s,10,12", "c": "s,s,s,s,14"}, "2C")
    assert legal(p) == ["2:a12+2"]
    # a10+2 passes nothing and lands on the opponent b12: it is bumped (passing b is free).
    p = P("tees", {"a": "s,s,s,10,14", "b": "s,s,s,s,12", "c": "s,s,s,s,20"}, "2C")
    assert legal(p) == ["2:a10+2", "2:a14+2"]
    p2, ev = play(p, "2:a10+2")
    assert pegs(p2, "b") == "s,s,s,s,s" and bumps(ev) == [(1, 12, "s")]


def test_tees_last_resort_partner_landing() -> None:
    # a10; c (partner) on 8 (a's come-out hole) and 12. Hand 2 3 5 K.
    # 2: a10->12 = partner: last resort. 3: 10-8 = 2 < 3: no. 5: a10 passes c12: no.
    # K: come out onto c8 = partner: last resort. Nothing else exists, so both are legal.
    p = P("tees", {"a": "s,s,s,s,10", "c": "s,s,s,8,12"}, "2C,3C,5C,KC")
    same(legal(p), ["2:a10+2", "K:as"])
    p2, ev = play(p, "K:as")
    assert pegs(p2, "a") == "s,s,s,8,10" and pegs(p2, "c") == "s,s,s,s,12"
    assert bumps(ev) == [(2, 8, "s")]  # tees: the partner's peg goes back to start
    p2, ev = play(p, "2:a10+2")
    assert pegs(p2, "a") == "s,s,s,s,12" and pegs(p2, "c") == "s,s,s,s,8"
    # With a Jack in hand the trades with the partner (always legal, not a landing) exist,
    # so the landings are no longer legal.
    p = P("tees", {"a": "s,s,s,s,10", "c": "s,s,s,8,12"}, "2C,3C,JC,KC")
    assert legal(p) == ["J:a10x8", "J:a10x12"]
    illegal(p, "K:as")
    illegal(p, "2:a10+2")
    # A 3 back onto the partner is a last resort too: a13 (13-8 = 5 >= 3) -> 10 = c.
    p = P("tees", {"a": "s,s,s,s,13", "c": "s,s,s,s,10"}, "3C")
    assert legal(p) == ["3:a13-3"]
    assert pegs(play(p, "3:a13-3")[0], "c") == "s,s,s,s,s"


def test_tees_jack_trades_never_start_or_home_pegs() -> None:
    # a: 10 and h2; b: 30 and h1; c: 50. J: a10 with b30 or c50 (partner: always legal).
    # 2: a10->12; ah2->h4.
    p = P("tees", {"a": "s,s,s,10,h2", "b": "s,s,s,30,h1", "c": "s,s,s,s,50"}, "2C,JC")
    assert legal(p) == ["2:a10+2", "2:ah2+2", "J:a10x30", "J:a10x50"]
    p2, ev = play(p, "J:a10x30")
    assert pegs(p2, "a") == "s,s,s,30,h2" and pegs(p2, "b") == "s,s,s,10,h1"
    tr = next(e for e in ev if e["type"] == "trade")
    assert (tr["colour"], tr["from"], tr["to"], tr["other_colour"]) == (0, 10, 30, 1)
    # No own peg on the track: the Jack cannot trade (home pegs never trade); K comes out.
    p = P("tees", {"a": "s,s,s,s,h1", "b": "s,s,s,s,30"}, "JC,KC")
    assert legal(p) == ["K:as"]
    # A trade ignores passing: a10 trades across its own a12 and partner c11 with b40.
    p = P("tees", {"a": "s,s,s,10,12", "b": "s,s,s,s,40", "c": "s,s,s,s,11"}, "JC")
    assert legal(p) == ["J:a10x11", "J:a10x40", "J:a12x11", "J:a12x40"]


def test_tees_three_backward_on_the_track() -> None:
    # a11: 11-8 = 3, exactly back to the come-out hole; passing the opponent d9 is fine.
    p = P("tees", {"a": "s,s,s,s,11", "d": "s,s,s,s,9"}, "3C")
    assert legal(p) == ["3:a11-3"]
    p2, ev = play(p, "3:a11-3")
    assert pegs(p2, "a") == "s,s,s,s,8" and pegs(p2, "d") == "s,s,s,s,9"
    assert next(e for e in ev if e["type"] == "move")["path"] == [10, 9, 8]
    # passing the partner c9 is not allowed
    p = P("tees", {"a": "s,s,s,s,11", "c": "s,s,s,s,9"}, "2C,3C")
    assert legal(p) == ["2:a11+2"]
    illegal(p, "3:a11-3")
    # landing on an opponent on 8 bumps it
    p = P("tees", {"a": "s,s,s,s,11", "d": "s,s,s,s,8"}, "3C")
    p2, ev = play(p, "3:a11-3")
    assert pegs(p2, "d") == "s,s,s,s,s" and bumps(ev) == [(3, 8, "s")]
    # landing on an own peg: no; a8 itself cannot go back (0 past its come-out hole)
    p = P("tees", {"a": "s,s,s,8,11"}, "2C,3C")
    assert legal(p) == ["2:a8+2", "2:a11+2"]
    # a9 (1 past the come-out hole) and a10 (2 past): never behind the come-out hole
    p = P("tees", {"a": "s,s,s,9,30"}, "3C")
    assert legal(p) == ["3:a30-3"]
    p = P("tees", {"a": "s,s,s,10,30"}, "3C")
    assert legal(p) == ["3:a30-3"]


def test_tees_three_pulls_a_non_snug_home_peg_back() -> None:
    # a: h2, h4, h5. h4, h5 are snug (every deeper hole full); h2 is not (h3 empty).
    # 3 on h2: steps h1 (free), the in-spot 3 (b, an opponent: passing is fine), lands on 2
    # (d, an opponent: bumped). A: come out to 8; ah2+1 -> h3; ah4+1 lands on own h5: no.
    p = P("tees", {"a": "s,s,h2,h4,h5", "b": "s,s,s,s,3", "d": "s,s,s,s,2"}, "3C,AC")
    assert legal(p) == ["A:as", "A:ah2+1", "3:ah2-3"]
    p2, ev = play(p, "3:ah2-3")
    assert pegs(p2, "a") == "s,s,2,h4,h5" and pegs(p2, "d") == "s,s,s,s,s"
    mv = next(e for e in ev if e["type"] == "move")
    assert mv["path"] == ["h1", 3, 2] and mv["backward"]
    # the same with the partner c on the in-spot: passing the partner is not allowed
    p = P("tees", {"a": "s,s,h2,h4,h5", "c": "s,s,s,s,3"}, "3C,AC")
    assert legal(p) == ["A:as", "A:ah2+1"]
    # a: h1, h2. h2 would pass own h1: no. h1 goes back to two before the in-spot: 1.
    p = P("tees", {"a": "s,s,s,h1,h2"}, "3C")
    assert legal(p) == ["3:ah1-3"]
    assert pegs(play(p, "3:ah1-3")[0], "a") == "s,s,s,1,h2"
    # a: h2, h4 (h5 empty): h4 -> h1 would pass own h2: no; h2 -> 2.
    p = P("tees", {"a": "s,s,s,h2,h4"}, "3C")
    assert legal(p) == ["3:ah2-3"]
    # a: h3, h4 (h5 empty): h4 -> h1 would pass own h3: no; h3 -> h2, h1, the in-spot 3.
    p = P("tees", {"a": "s,s,s,h3,h4"}, "3C")
    assert legal(p) == ["3:ah3-3"]
    # a: h4 alone (h5 empty: not snug): home 4 back to home 1.
    p = P("tees", {"a": "s,s,s,s,h4"}, "3C")
    assert legal(p) == ["3:ah4-3"]
    p2, ev = play(p, "3:ah4-3")
    assert pegs(p2, "a") == "s,s,s,s,h1"
    assert next(e for e in ev if e["type"] == "move")["path"] == ["h3", "h2", "h1"]


def test_tees_snug_pegs_never_move() -> None:
    # a: 20, h3, h4, h5: h3, h4, h5 snug. 3: only a20 -> 17. 2: a20 -> 22 only (h3+2 = h5 is
    # own, and snug pegs cannot move anyway).
    p = P("tees", {"a": "s,20,h3,h4,h5"}, "2C,3C")
    assert legal(p) == ["2:a20+2", "3:a20-3"]
    # a: 20, h1, h2, h3, h4 with h5 empty: none of them is snug.
    # A: a20 -> 21; ah4 -> h5 (the others would land on own pegs). (no start peg: no come out)
    # 3: a20 -> 17; ah1 -> 1 (in-spot 3 and 2 free); h2, h3 pass own; h4 -> h1 is own.
    p = P("tees", {"a": "20,h1,h2,h3,h4"}, "AC,3C")
    assert legal(p) == ["A:a20+1", "A:ah4+1", "3:a20-3", "3:ah1-3"]


def test_tees_three_pulling_home_peg_onto_partner_is_a_last_resort() -> None:
    # a h3 (not snug) -> the in-spot 3, where the partner c stands: the only play, so legal;
    # c goes back to start.
    p = P("tees", {"a": "s,s,s,s,h3", "c": "s,s,s,s,3"}, "3C")
    assert legal(p) == ["3:ah3-3"]
    p2, ev = play(p, "3:ah3-3")
    assert pegs(p2, "a") == "s,s,s,s,3" and pegs(p2, "c") == "s,s,s,s,s"
    assert bumps(ev) == [(2, 3, "s")]
    # with another play available (K comes out to 8) it is not legal
    p = P("tees", {"a": "s,s,s,s,h3", "c": "s,s,s,s,3"}, "3C,KC")
    assert legal(p) == ["K:as"]


def test_tees_exact_count_into_home_and_inside_home() -> None:
    # a0 (corner): 9 would reach h6, T h7: no. a h1: 4 -> h5 (h2..h5 free), 9: no.
    p = P("tees", {"a": "s,s,s,0,h1"}, "4C,9C,TC")
    # 4: a0+4 -> h1 is own: no; ah1+4 -> h5.
    assert legal(p) == ["4:ah1+4"]
    # a home peg moves by exact count inside the five holes: h2 + 4 would be h6.
    p = P("tees", {"a": "s,s,s,20,h2"}, "4C")
    assert legal(p) == ["4:a20+4"]
    # home pegs land on no own peg: a h1, h3.
    p = P("tees", {"a": "s,s,s,h1,h3"}, "2C,3C")
    # 2: ah1 -> h3 own: no; ah3 -> h5. 3 (backward in tees): h1 is not snug (h2 empty):
    # steps 3, 2, lands on 1; h3 steps h2, h1 (own: no passing).
    assert legal(p) == ["2:ah3+2", "3:ah1-3"]


def test_tees_finished_seat_moves_partner_pegs_with_partner_blocking_rules() -> None:
    # a is home; it moves c (c10, c14; b12 opponent). c comes out on 44 with the K.
    # 4: c10 -> 14 own: no; c14 -> 18. 3: c10 -> 7 (10-44 mod 72 = 38 >= 3; 9, 8 free);
    # c14 -> 11 (passes b12: fine).
    p = P("tees", {"a": "h1,h2,h3,h4,h5", "b": "s,s,s,s,12", "c": "s,s,s,10,14"},
          "3C,4C,KC")
    assert legal(p) == ["3:c10-3", "3:c14-3", "4:c14+4", "K:cs"]
    assert RULES.controlled(RULES.parse_position(p), 0) == [2]


def test_tees_six_seats_partner_is_straight_across() -> None:
    # 6 seats teams3: a's partner is d (side 3), b and c are opponents.
    # a10; d12 (partner); b11 (opponent). A: come out onto 8; a10 -> 11 bumps b.
    # 2: a10 -> 12 = partner: last resort (other plays exist). 5: passes the partner: no.
    # K: come out.
    p = P("tees", {"a": "s,s,s,s,10", "b": "s,s,s,s,11", "d": "s,s,s,s,12"}, "AC,2C,5C,KC",
          seats=6)
    assert legal(p) == ["A:as", "A:a10+1", "K:as"]
    # with only the 2 and the 5 left, the landing on d is the one play: d goes to start
    p = P("tees", {"a": "s,s,s,s,10", "b": "s,s,s,s,11", "d": "s,s,s,s,12"}, "2C,5C", seats=6)
    assert legal(p) == ["2:a10+2"]
    p2, ev = play(p, "2:a10+2")
    assert pegs(p2, "d") == "s,s,s,s,s" and bumps(ev) == [(3, 12, "s")]
    # c is an opponent at 6 seats: passing it is free, landing bumps it
    p = P("tees", {"a": "s,s,s,s,10", "c": "s,s,s,12,15"}, "5C", seats=6)
    assert legal(p) == ["5:a10+5"]
    assert bumps(play(p, "5:a10+5")[1]) == [(2, 15, "s")]


def test_tees_finished_seat_jack_trades_partner_pegs_only() -> None:
    # a home; it moves c. J: c10 with b30 (a's home pegs are never traded; c's own pegs
    # never trade with each other).
    p = P("tees", {"a": "h1,h2,h3,h4,h5", "b": "s,s,s,s,30", "c": "s,s,s,10,20"}, "JC")
    assert legal(p) == ["J:c10x30", "J:c20x30"]


def test_tees_team_wins_when_partner_pegs_are_home() -> None:
    # a done; c's last peg on 38 is 1 short of its in-spot 39: a 2 -> h1. The team (a, c)
    # has every peg home: the game is over and seats 0 and 2 win.
    p = P("tees", {"a": "h1,h2,h3,h4,h5", "c": "38,h2,h3,h4,h5"}, "2C")
    assert legal(p) == ["2:c38+2h"]
    p2, ev = play(p, "2:c38+2h")
    assert field(p2, "turn") == "-"
    assert ev[-1]["type"] == "game_over" and sorted(ev[-1]["winners"]) == [0, 2]
    assert sorted(RULES.outcome(RULES.parse_position(p2))["winners"]) == [0, 2]


def test_tees_folds_then_next_round_then_left_of_dealer_leads() -> None:
    # Round 1 of 4 seats, dealer d, each seat down to one card; 16 cards played, pile 32.
    # The filler (notation.md): pack minus a's 5C, sorted: the 16 discards are the A, 2, 3,
    # 4s; then b gets 5D (21), c 5H (22), d 5S (23).
    # a plays 5: a20 -> 25. b, c, d have every peg in start and only a 5: each folds. No
    # hand holds a card: round 2 is dealt (4 each) by the same dealer d; a (left of d) leads.
    p = P("tees", {"a": "s,s,s,s,20"}, "5C", counts={"b": 1, "c": 1, "d": 1}, discards=16,
          dealer="d", rnd=1)
    assert field(p, "pile") == "32"
    p2, ev = play(p, "5:a20+5")
    folds = [(e["seat"], e["cards"]) for e in ev if e["type"] == "fold"]
    assert folds == [(1, [21]), (2, [22]), (3, [23])]
    deal = next(e for e in ev if e["type"] == "deal")
    assert (deal["dealer"], deal["round"], deal["counts"]) == (3, 2, [4, 4, 4, 4])
    after_deal = ev[ev.index(deal) + 1:]
    assert after_deal[0]["type"] in ("turn", "fold") and after_deal[0]["seat"] == 0
    # 16 + 1 + 3 discards; the pile lost 16
    assert field(p2, "pile") == "16" and field(p2, "discards") == "20"
    assert field(p2, "round") == "2"


def test_tees_deck_used_up_passes_to_next_dealer_and_is_reshuffled() -> None:
    # Round 3 (the last of a 4-seat deck), dealer d, pile empty; a plays its last card.
    # Every hand is empty and the deck is used up: it passes to a (next clockwise), all 52
    # cards are reshuffled, a deals 5 each, and b (left of a) leads.
    p = P("tees", {"a": "s,s,s,s,20"}, "5C", discards=51, dealer="d", rnd=3)
    assert field(p, "pile") == "0"
    p2, ev = play(p, "5:a20+5")
    rs = next(e for e in ev if e["type"] == "reshuffle")
    assert rs["count"] == 52 and rs["dealer"] == 0
    deal = next(e for e in ev if e["type"] == "deal")
    assert (deal["dealer"], deal["round"], deal["counts"]) == (0, 1, [5, 5, 5, 5])
    first = next(e for e in ev[ev.index(deal) + 1:] if e["type"] in ("turn", "fold"))
    assert first["seat"] == 1
    assert field(p2, "pile") == "32" and field(p2, "dealer") == "a"


def _tees_deals(seats: int, seed: int, until: int) -> list[tuple[str, Any, Any, int]]:
    """Play first-legal plays; record (event, dealer, counts/count, pile after) per deal."""
    s, ev = RULES.start({"rules": "tees", "seats": seats}, seed)
    seen: list[tuple[str, Any, Any, int]] = []
    leads: list[tuple[int, int]] = []

    def note(evs: list[dict[str, Any]], pile: int) -> None:
        for i, e in enumerate(evs):
            if e["type"] == "deal":
                seen.append(("deal", e["dealer"], e["counts"], pile))
                nxt = next(x for x in evs[i + 1:] if x["type"] in ("turn", "fold"))
                leads.append((e["dealer"], nxt["seat"]))
            elif e["type"] == "reshuffle":
                seen.append(("reshuffle", e["dealer"], e["count"], -1))

    note(ev, len(s.pile))
    n = 0
    while sum(1 for x in seen if x[0] == "deal") < until and s.turn is not None and n < 400:
        if RULES.to_move(s) is None:
            break
        s, ev = RULES.apply(s, s.turn, RULES.legal_plays(s)[0])
        note(ev, len(s.pile))
        n += 1
    for dealer, first in leads:  # the player left of the dealer leads every round
        assert first == (dealer + 1) % seats
    return seen


def test_tees_four_seat_deal_is_five_four_four_then_next_dealer() -> None:
    seen = _tees_deals(4, 5, 4)
    # 52 = 4*5 + 4*4 + 4*4: piles 32, 16, 0; then the deck passes from d (3) to a (0).
    assert seen[:5] == [("deal", 3, [5] * 4, 32), ("deal", 3, [4] * 4, 16),
                        ("deal", 3, [4] * 4, 0), ("reshuffle", 0, 52, -1),
                        ("deal", 0, [5] * 4, 32)]


def test_tees_six_seat_deal_is_four_then_four_leaving_four_unused() -> None:
    seen = _tees_deals(6, 7, 3)
    # 6*4 = 24 twice = 48: piles 28 then 4 (the 4 left over stay unused); then all 52 are
    # reshuffled by the next dealer (f=5 -> a=0).
    assert seen[:4] == [("deal", 5, [4] * 6, 28), ("deal", 5, [4] * 6, 4),
                        ("reshuffle", 0, 52, -1), ("deal", 0, [4] * 6, 28)]


# ==========================================================================================
# 3. classic (spec 4, seed 001). 4 seats teams2: a, c partners against b, d.


def test_classic_rich_position_counted_by_hand() -> None:
    # a10, a14; b12 (opponent); c20 (partner). Hand 2 4 5 6 7 8.
    # 2: a10->12 lands on b (bumped); a14->16.
    # 4: a10->14 own: no. a14->18.
    # 5: a10 passes own 14: no. a14->19.
    # 6: a10 passes 14: no. a14->20 = partner c: c goes to its in-spot 39 (empty): legal.
    # 7 whole: a10 passes 14: no; a14->21 (passing the partner is free in classic).
    # 7 split, a10 first by k then a14 by 7-k: a10+k must stay below 14: k = 1, 2 (b12
    #   bumped), 3; then a14 + 6/5/4 -> 20 (c to 39)/19/18: 3 plays.
    # 7 split, a14 first by k (-> 14+k; k=6 is c20, to 39), then a10 + (7-k) -> 17-k must
    #   stay below 14+k: 17-k < 14+k <=> k >= 2; lands on 15, 14 (just left), 13, 12 (b), 11:
    #   5 plays. (k = 1: a10+6 -> 16 passes a15: no.)
    # 8 (backward): a10 -> 2 (9..2 free); a14 -> 6 passes own 10: no.
    p = P("classic", {"a": "s,s,s,10,14", "b": "s,s,s,s,12", "c": "s,s,s,s,20"},
          "2C,4C,5C,6C,7C,8C", counts={"b": 5, "c": 5, "d": 5})
    want = ["2:a10+2", "2:a14+2", "4:a14+4", "5:a14+5", "6:a14+6", "7:a14+7",
            "7:a10+1,a14+6", "7:a10+2,a14+5", "7:a10+3,a14+4",
            "7:a14+2,a10+5", "7:a14+3,a10+4", "7:a14+4,a10+3", "7:a14+5,a10+2",
            "7:a14+6,a10+1", "8:a10-8"]
    same(legal(p), want)
    # the documented order: card rank, then pegs in place order, singles before splits,
    # splits by first peg then first part's count
    assert legal(p) == want
    p2, ev = play(p, "6:a14+6")
    assert pegs(p2, "a") == "s,s,s,10,20" and pegs(p2, "c") == "s,s,s,s,39"
    assert bumps(ev) == [(2, 20, 39)]
    # a split whose first part bumps: b12 goes to start before a14 moves on
    p2, ev = play(p, "7:a10+2,a14+5")
    assert pegs(p2, "a") == "s,s,s,12,19" and pegs(p2, "b") == "s,s,s,s,s"


def test_classic_turning_in_optional_exact_count_and_own_home_pegs_block() -> None:
    # a0 (corner, 3 short of the in-spot 3) and a h1. Hand A 3 4 5.
    # A: come out onto 8; a0 -> 1; ah1 -> h2.
    # 3: a0 -> 3 (the in-spot, on the ring: 3 is not more than the 3 to the in-spot, so no
    #    home); ah1 -> h4.
    # 4: a0 -> 4 on the ring; a0 -> h1 is own: no; ah1 -> h5.
    # 5: a0 -> 5; a0 -> h2 passes own h1: no; ah1 + 5 = h6: no.
    p = P("classic", {"a": "s,s,s,0,h1"}, "AC,3C,4C,5C")
    assert legal(p) == ["A:as", "A:a0+1", "A:ah1+1", "3:a0+3", "3:ah1+3", "4:a0+4",
                        "4:ah1+4", "5:a0+5"]
    # a1 at the in-spot distance 2: a 6 may turn in (h4) or go round again (to 7).
    p = P("classic", {"a": "s,s,s,s,1"}, "6C,9C")
    # 9: 9 - 2 = 7 > 5: ring only.
    assert legal(p) == ["6:a1+6", "6:a1+6h", "9:a1+9"]
    # a peg standing on its in-spot turns in with 1..5, or stays on the ring
    p = P("classic", {"a": "s,s,s,s,3"}, "5C")
    assert legal(p) == ["5:a3+5", "5:a3+5h"]
    assert pegs(play(p, "5:a3+5h")[0], "a") == "s,s,s,s,h5"


def test_classic_and_team_home_has_five_holes_exact_count() -> None:
    # a3 stands on its in-spot: 6, 9, T would be home 6, 9, 10: ring only.
    p = P("classic", {"a": "s,s,s,s,3"}, "6C,9C,TC")
    assert legal(p) == ["6:a3+6", "9:a3+9", "T:a3+10"]
    # a2 is 1 short of the in-spot: 6 = 1 + h5 (or the ring); 7 = 1 + h6: ring only.
    p = P("classic", {"a": "s,s,s,s,2"}, "6C,7C")
    assert legal(p) == ["6:a2+6", "6:a2+6h", "7:a2+7"]
    # team: a0 (3 short) with a 9: 3 + h6 is too far: ring only; splits 8 + 1 reach h5.
    p = P("team", {"a": "s,s,s,s,0"}, "9C")
    assert legal(p) == ["9:a0+9"]
    p = P("team", {"a": "s,s,s,s,3", "c": "h1,h2,h3,h4,h5"}, "6C,9C,TC,QC")
    # c is home: only a moves; from the in-spot 6/9/10 stay on the ring; Q: a comes out (8).
    assert legal(p) == ["6:a3+6", "9:a3+9", "T:a3+10", "Q:as", "Q:a3+10"]
    # a 7 split from the in-spot: a3 and a20, nothing else out.
    # whole: a3 -> 10 (7 > 5: no home); a20 -> 27.
    # a3 first by k: ring 3+k (k = 1..6) and home k (k = 1..5; h6 does not exist), then
    #   a20 + (7-k): 11. a20 first by k: then a3 + (7-k) on the ring (6) or into home 7-k
    #   for 7-k <= 5, k = 2..6 (5): 11. Total 24.
    p = P("classic", {"a": "s,s,s,3,20"}, "7C")
    want = ["7:a3+7", "7:a20+7"]
    want += [f"7:a3+{k},a20+{7 - k}" for k in range(1, 7)]
    want += [f"7:a3+{k}h,a20+{7 - k}" for k in range(1, 6)]
    want += [f"7:a20+{k},a3+{7 - k}" for k in range(1, 7)]
    want += [f"7:a20+{k},a3+{7 - k}h" for k in range(2, 7)]
    same(legal(p), want)


def test_classic_passing_other_colours_is_free_landing_bumps() -> None:
    # a10 with a 9 passes b12, c13, d15 and lands on b19: b19 goes to start.
    p = P("classic", {"a": "s,s,s,s,10", "b": "s,s,s,12,19", "c": "s,s,s,s,13",
                      "d": "s,s,s,s,15"}, "9C")
    assert legal(p) == ["9:a10+9"]
    p2, ev = play(p, "9:a10+9")
    assert pegs(p2, "b") == "s,s,s,s,12" and bumps(ev) == [(1, 19, "s")]
    mv = next(e for e in ev if e["type"] == "move")
    assert mv["path"] == list(range(11, 20)) and mv["steps"] == 9


def test_classic_eight_backward() -> None:
    # a20 back 8 -> 12, passing b15 (free), landing on partner c12: c to its in-spot 39.
    p = P("classic", {"a": "s,s,s,s,20", "b": "s,s,s,s,15", "c": "s,s,s,s,12"}, "8C")
    assert legal(p) == ["8:a20-8"]
    p2, ev = play(p, "8:a20-8")
    assert pegs(p2, "a") == "s,s,s,s,12" and pegs(p2, "c") == "s,s,s,s,39"
    assert pegs(p2, "b") == "s,s,s,s,15"
    assert bumps(ev) == [(2, 12, 39)]
    # a5 back 8 -> 69 (round the corner, past its own in-spot: backward never turns in);
    # home and start pegs never move backward.
    p = P("classic", {"a": "s,s,s,5,h1"}, "8C")
    assert legal(p) == ["8:a5-8"]
    # own pegs block backward too: a20 -> 12 passes a14: no; a14 -> 6.
    p = P("classic", {"a": "s,s,s,14,20"}, "8C")
    assert legal(p) == ["8:a14-8"]
    # an opponent on the landing hole is bumped
    p = P("classic", {"a": "s,s,s,s,20", "d": "s,s,s,s,12"}, "8C")
    assert bumps(play(p, "8:a20-8")[1]) == [(3, 12, "s")]


def test_classic_face_cards_and_come_out() -> None:
    # A, J, Q, K come out; J, Q, K also 10 forward; A 1 forward; T 10 forward.
    # a20, a's come-out 8 holds the opponent b: coming out bumps it.
    p = P("classic", {"a": "s,s,s,s,20", "b": "s,s,s,s,8"}, "AC,TC,JC,QC,KC")
    assert legal(p) == ["A:as", "A:a20+1", "T:a20+10", "J:as", "J:a20+10", "Q:as",
                        "Q:a20+10", "K:as", "K:a20+10"]
    p2, ev = play(p, "Q:as")
    assert pegs(p2, "a") == "s,s,s,8,20" and pegs(p2, "b") == "s,s,s,s,s"
    ce = next(e for e in ev if e["type"] == "come_out")
    assert ce["to"] == 8
    # own peg on the come-out hole: no coming out; 7 never brings a peg out
    p = P("classic", {"a": "s,s,s,s,8"}, "AC,7C")
    assert legal(p) == ["A:a8+1", "7:a8+7"]


def test_classic_partner_chain_into_the_hole_the_mover_left() -> None:
    # a39 (on c's in-spot) moves 5 onto c44: c goes to 39, which a has just left: legal.
    p = P("classic", {"a": "s,s,s,s,39", "c": "s,s,s,s,44"}, "5C")
    assert legal(p) == ["5:a39+5"]
    p2, ev = play(p, "5:a39+5")
    assert pegs(p2, "a") == "s,s,s,s,44" and pegs(p2, "c") == "s,s,s,s,39"
    assert bumps(ev) == [(2, 44, 39)]


def test_classic_partner_on_its_own_in_spot_cannot_be_landed_on() -> None:
    # a34 + 5 -> 39 = c on its in-spot: c would go to 39, where c already has a peg: illegal.
    p = P("classic", {"a": "s,s,s,s,34", "c": "s,s,s,s,39"}, "2C,5C")
    assert legal(p) == ["2:a34+2"]
    illegal(p, "5:a34+5")
    # ... and when the partner's in-spot holds another peg of the partner's colour
    p = P("classic", {"a": "s,s,s,s,10", "c": "s,s,s,15,39"}, "5C")
    assert legal(p) == ["5:x"]


def test_classic_partner_chain_opponent_on_in_spot_goes_to_start() -> None:
    # a lands on c15; c's in-spot 39 holds d (an opponent of c): d goes to start, chain ends.
    p = P("classic", {"a": "s,s,s,s,10", "c": "s,s,s,s,15", "d": "s,s,s,s,39"}, "5C")
    p2, ev = play(p, "5:a10+5")
    assert pegs(p2, "c") == "s,s,s,s,39" and pegs(p2, "d") == "s,s,s,s,s"
    assert bumps(ev) == [(2, 15, 39), (3, 39, "s")]


def test_classic_six_seat_long_partner_chain() -> None:
    # 6 seats teams2: a, c, e against b, d, f. R=108; in-spots a 3, c 39, e 75.
    # a10 + 5 lands on c15 -> c to 39, holding e (partner of c) -> e to 75, holding a (partner
    # of e) -> a to 3, holding b (opponent of a) -> b to start. Holes 15, 39, 75, 3: no loop.
    # a75 + 5 -> 80 (e's come-out hole, empty) is the other 5.
    p = P("classic", {"a": "s,s,s,10,75", "b": "s,s,s,s,3", "c": "s,s,s,s,15",
                      "e": "s,s,s,s,39"}, "5C", seats=6)
    assert legal(p) == ["5:a10+5", "5:a75+5"]
    p2, ev = play(p, "5:a10+5")
    assert pegs(p2, "a") == "s,s,s,3,15"
    assert pegs(p2, "b") == "s,s,s,s,s"
    assert pegs(p2, "c") == "s,s,s,s,39"
    assert pegs(p2, "e") == "s,s,s,s,75"
    assert bumps(ev) == [(2, 15, 39), (4, 39, 75), (0, 75, 3), (1, 3, "s")]


def test_classic_six_seat_chain_loop_and_same_colour_are_illegal() -> None:
    # loop: a10 -> c15 -> c to 39 (e) -> e to 75 (a) -> a to 3 (c, partner of a) -> c to 39:
    # already visited: illegal. a75 + 5 -> 80 stays legal.
    p = P("classic", {"a": "s,s,s,10,75", "c": "s,s,s,3,15", "e": "s,s,s,s,39"}, "5C",
          seats=6)
    assert legal(p) == ["5:a75+5"]
    # same colour: a10 -> c15 -> c to 39 (e) -> e to 75, which holds another e: illegal.
    p = P("classic", {"a": "s,s,s,s,10", "c": "s,s,s,s,15", "e": "s,s,s,39,75"}, "2C,5C",
          seats=6)
    assert legal(p) == ["2:a10+2"]


def test_classic_three_teams_and_four_teams_chains() -> None:
    # 6 seats teams3: a+d, b+e, c+f. a lands on d15 -> d to its in-spot 57, holding f (team
    # c/f: an opponent of d) -> f to start.
    p = P("classic", {"a": "s,s,s,s,10", "d": "s,s,s,s,15", "f": "s,s,s,s,57"}, "5C", seats=6,
          mode="teams3")
    p2, ev = play(p, "5:a10+5")
    assert bumps(ev) == [(3, 15, 57), (5, 57, "s")]
    # 8 seats teams4: a+e. R=144; e on side 4: in-spot 75. a lands on e15 -> e to 75, which
    # holds c (an opponent of e) -> c to start. (b15 would be an opponent: start.)
    p = P("classic", {"a": "s,s,s,s,10", "e": "s,s,s,s,15", "c": "s,s,s,s,75"}, "5C",
          seats=8, mode="teams4")
    p2, ev = play(p, "5:a10+5")
    assert pegs(p2, "e") == "s,s,s,s,75" and pegs(p2, "c") == "s,s,s,s,s"
    assert bumps(ev) == [(4, 15, 75), (2, 75, "s")]
    # 8 seats teams2 (a, c, e, g): c is a's partner; c's in-spot 39.
    p = P("classic", {"a": "s,s,s,s,10", "c": "s,s,s,s,15"}, "5C", seats=8)
    assert bumps(play(p, "5:a10+5")[1]) == [(2, 15, 39)]


def test_classic_free_for_all_has_no_partners() -> None:
    # 3 seats ffa: landing on c sends it to start (no in-spot forward).
    p = P("classic", {"a": "s,s,s,s,10", "c": "s,s,s,s,15"}, "5C", seats=3)
    p2, ev = play(p, "5:a10+5")
    assert pegs(p2, "c") == "s,s,s,s,s" and bumps(ev) == [(2, 15, "s")]
    # 4 seats ffa too (c is not a partner here)
    p = P("classic", {"a": "s,s,s,s,10", "c": "s,s,s,s,15"}, "5C", mode="ffa")
    assert bumps(play(p, "5:a10+5")[1]) == [(2, 15, "s")]


def test_classic_joker_targets_counted_by_hand() -> None:
    # a: start, 10, h2. b14, c50 (partner), d39 (opponent, on c's in-spot). Hand JK, 8.
    # 8: a10 -> 2 (9..2 free); home pegs never move backward.
    # JK sources: a start peg, a10 (never the home peg). Targets: every main-track hole with
    # another colour's peg: 14 (b: to start), 39 (d: to start), 50 (c: to its in-spot 39,
    # where d stands, an opponent of c: d to start). 2 sources x 3 targets = 6.
    # (Something else moves, so there are no discards; the joker is optional.)
    p = P("classic", {"a": "s,s,s,10,h2", "b": "s,s,s,s,14", "c": "s,s,s,s,50",
                      "d": "s,s,s,s,39"}, "JK,8C")
    same(legal(p), ["8:a10-8", "JK:as>14", "JK:as>39", "JK:as>50", "JK:a10>14", "JK:a10>39",
                    "JK:a10>50"])
    p2, ev = play(p, "JK:as>50")
    assert pegs(p2, "a") == "s,s,10,50,h2"
    assert pegs(p2, "c") == "s,s,s,s,39" and pegs(p2, "d") == "s,s,s,s,s"
    assert bumps(ev) == [(2, 50, 39), (3, 39, "s")]
    mv = next(e for e in ev if e["type"] == "move")
    assert mv["jump"] and mv["to"] == 50


def test_classic_joker_ignores_passing_but_never_lands_on_own_colour() -> None:
    # a10, a12, b14: a10 jumps over its own a12 onto b14. Own a12 is never a target.
    # 5: a10 -> 15 passes own 12: no; a12 -> 17 (passes b14: free).
    p = P("classic", {"a": "s,s,s,10,12", "b": "s,s,s,s,14"}, "JK,5C")
    same(legal(p), ["5:a12+5", "JK:as>14", "JK:a10>14", "JK:a12>14"])


def test_classic_joker_onto_partner_follows_the_chain_rules() -> None:
    # c50 and c39 (c on its own in-spot): JK onto c50 would send it to 39 = c: illegal;
    # JK onto c39 would send c39 to 39 (its own in-spot, already holding that c): illegal.
    # b20 is a fine target. Nothing else moves (every a peg in start, no come-out card):
    # the joker is never forced, so discards are legal too (one per rank).
    p = P("classic", {"b": "s,s,s,s,20", "c": "s,s,s,39,50"}, "JK,2C,2D")
    same(legal(p), ["JK:as>20", "JK:x", "2:x"])


def test_classic_joker_only_hand_and_forced_discards() -> None:
    # Nothing on the track but the opponent b20; hand JK JK 3 5 9 T: only jokers can move,
    # and they are never forced: the joker move or any discard (one per rank, joker included).
    p = P("classic", {"b": "s,s,s,s,20"}, "JK,JK,3C,5C,9C,TC")
    same(legal(p), ["JK:as>20", "JK:x", "3:x", "5:x", "9:x", "T:x"])
    # no peg anywhere: a joker has no target: discards only
    p = P("classic", {}, "JK,2C,2D,3C,9C,TC")
    same(legal(p), ["JK:x", "2:x", "3:x", "9:x", "T:x"])
    # a discard ends the turn with five in hand; the next seat draws to six
    p = P("classic", {}, "2C,2D,3C,5C,9C,TC", counts={"b": 5, "c": 5, "d": 5})
    same(legal(p), ["2:x", "3:x", "5:x", "9:x", "T:x"])
    p2, ev = play(p, "2:x")
    assert field(p2, "turn") == "b" and field(p2, "cards") == "5,6,5,5"
    assert [e["type"] for e in ev] == ["play", "discard", "turn", "draw"]
    assert ev[0]["discard"] is True


def test_classic_must_play_a_moving_card() -> None:
    # a30 can move with the 5: discarding is not allowed, and the joker stays optional.
    p = P("classic", {"a": "s,s,s,s,30", "b": "s,s,s,s,20"}, "JK,5C")
    same(legal(p), ["5:a30+5", "JK:as>20", "JK:a30>20"])
    illegal(p, "5:x")
    illegal(p, "JK:x")


def test_classic_seven_split_counted_by_hand_with_home_entries() -> None:
    # a0 (corner) and a60; nothing else on the board. Hand 7.
    # whole 7: a0 -> 7 or -> h4 (3 to the in-spot, then 4); a60 -> 67 (its in-spot is 15
    #   away: no home).
    # a0 first by k = 1..6: ring k (6 plays), home k-3 for k = 4, 5, 6 (3 plays); then
    #   a60 + (7-k), always free: 9 plays.
    # a60 first by k = 1..6 -> 60+k; then a0 + (7-k): ring (6) and home when 7-k >= 4,
    #   k = 1, 2, 3 (3): 9 plays.  Total 3 + 9 + 9 = 21.
    p = P("classic", {"a": "s,s,s,0,60"}, "7C")
    want = ["7:a0+7", "7:a0+7h", "7:a60+7"]
    want += [f"7:a0+{k},a60+{7 - k}" for k in range(1, 7)]
    want += [f"7:a0+{k}h,a60+{7 - k}" for k in (4, 5, 6)]
    want += [f"7:a60+{k},a0+{7 - k}" for k in range(1, 7)]
    want += [f"7:a60+{k},a0+{7 - k}h" for k in (1, 2, 3)]
    same(legal(p), want)
    p2, ev = play(p, "7:a60+2,a0+5h")
    assert pegs(p2, "a") == "s,s,s,62,h2"
    assert [e["type"] for e in ev][:4] == ["play", "move", "move", "home"]


def test_classic_seven_first_part_needs_a_legal_remainder() -> None:
    # a10 and a h4 (h5 empty). Whole: a10 -> 17. Splits: the home peg can only take 1 (h5),
    # so the only split is 6 + 1, in either order. a10 + 1..5 then h4 + 6..2: no remainder.
    p = P("classic", {"a": "s,s,s,10,h4"}, "7C")
    assert legal(p) == ["7:a10+7", "7:a10+6,ah4+1", "7:ah4+1,a10+6"]
    # a single peg on the track and the rest in start: a 7 cannot bring a peg out, so no
    # split exists.
    p = P("classic", {"a": "s,s,s,s,20"}, "7C")
    assert legal(p) == ["7:a20+7"]
    # a10, a11: a10 first always hits a11; a11 + k then a10 + 7-k needs 10+7-k < 11+k, k >= 4.
    p = P("classic", {"a": "s,s,s,10,11"}, "7C")
    assert legal(p) == ["7:a11+7", "7:a11+4,a10+3", "7:a11+5,a10+2", "7:a11+6,a10+1"]


def test_classic_seven_second_part_sees_the_home_left_by_the_first() -> None:
    # a3 on its in-spot and a h1. whole: a3 -> 10 (7 > 5: no home); h1 + 7: no.
    # a3 first by k: into home always passes or lands on own h1: ring only, 3+k; then
    #   ah1 + (7-k) needs 1+7-k <= 5: k = 3..6 -> h5, h4, h3, h2: 4 plays.
    # ah1 first by j = 1..4 -> h(1+j); then a3 + (7-j) on the ring (4 plays), or into home
    #   7-j past h1 (now empty) and short of h(1+j): 7-j < 1+j, j = 4: a3 + 3 -> h3 (1).
    # total 1 + 4 + 5 = 10.
    p = P("classic", {"a": "s,s,s,3,h1"}, "7C")
    want = ["7:a3+7"] + [f"7:a3+{k},ah1+{7 - k}" for k in (3, 4, 5, 6)]
    want += [f"7:ah1+{j},a3+{7 - j}" for j in (1, 2, 3, 4)] + ["7:ah1+4,a3+3h"]
    same(legal(p), want)


def test_classic_seven_second_part_sees_the_bumps_of_the_first() -> None:
    # a10, a37; partner c15. whole: a10 -> 17 (passing c is free); a37 -> 44.
    # a10 first by k -> 10+k; k = 5 lands on c15: c to 39. Then a37 + (7-k) -> 44-k; for
    #   k = 5 that is 39, now holding c on its own in-spot: c would go to 39 again: illegal.
    #   So k = 1, 2, 3, 4, 6: 5 plays.
    # a37 first by j -> 37+j (j = 2: 39, empty now); then a10 + (7-j) -> 17-j; for j = 2 it
    #   lands on c15: c to 39, where a stands (c's partner): a goes on to a's in-spot 3:
    #   legal. 6 plays. Total 2 + 5 + 6 = 13.
    p = P("classic", {"a": "s,s,s,10,37", "c": "s,s,s,s,15"}, "7C")
    want = ["7:a10+7", "7:a37+7"] + [f"7:a10+{k},a37+{7 - k}" for k in (1, 2, 3, 4, 6)]
    want += [f"7:a37+{j},a10+{7 - j}" for j in range(1, 7)]
    same(legal(p), want)
    p2, ev = play(p, "7:a37+2,a10+5")
    assert pegs(p2, "a") == "s,s,s,3,15" and pegs(p2, "c") == "s,s,s,s,39"
    assert bumps(ev) == [(2, 15, 39), (0, 39, 3)]
    # a12, a17; c16, c20. a12+4 lands on c16 (c to 39); then a17+3 lands on c20, which would
    # go to 39, now holding c: illegal. The other order fails the same way.
    p = P("classic", {"a": "s,s,s,12,17", "c": "s,s,s,16,20"}, "7C")
    got = legal(p)
    assert "7:a12+4,a17+3" not in got and "7:a17+3,a12+4" not in got
    assert "7:a12+3,a17+4" in got  # 15, then 21 (passing c20)
    # after a12+4 only a17 can take the 3 and that fails: a12+4 has no legal remainder
    assert not any(t.startswith("7:a12+4,") for t in got)


def test_classic_seven_split_uses_only_own_pegs() -> None:
    # a20 with partner c40: a classic 7 never moves the partner while a has pegs out.
    p = P("classic", {"a": "s,s,s,s,20", "c": "s,s,s,s,40"}, "7C")
    assert legal(p) == ["7:a20+7"]


def test_classic_seven_remainder_to_partner_option() -> None:
    # a: 1, h2..h5 (h1 empty); c40. Hand 7.
    # whole: a1 -> 8 (ring); a1 -> home would be h5 (own): no.
    # split: a1 + 3 -> h1 (2 to the in-spot, then 1) makes a's five home; with the option
    # on, the remaining 4 moves the partner: c40 -> 44. a1 + k on the ring leaves a with pegs
    # out and only blocked home pegs: no remainder.
    pg = {"a": "1,h2,h3,h4,h5", "c": "s,s,s,s,40"}
    assert legal(P("classic", pg, "7C")) == ["7:a1+7", "7:a1+3h,c40+4"]
    assert legal(P("classic", pg, "7C", seven=False)) == ["7:a1+7"]
    p2, _ = play(P("classic", pg, "7C"), "7:a1+3h,c40+4")
    assert pegs(p2, "a") == "h1,h2,h3,h4,h5" and pegs(p2, "c") == "s,s,s,s,44"
    # free-for-all: no partner, whatever the option says
    p = P("classic", {"a": "1,h2,h3,h4,h5"}, "7C", seats=3)
    assert legal(p) == ["7:a1+7"]


def test_classic_done_seat_moves_next_partner_clockwise_with_pegs_out() -> None:
    # 6 seats teams2 (a, c, e). a done, c not: a moves c (next clockwise). c's come-out 44.
    # 5: c50 -> 55. K: c comes out; c50 -> 60.
    p = P("classic", {"a": "h1,h2,h3,h4,h5", "c": "s,s,s,s,50", "e": "s,s,s,s,80"}, "5C,KC",
          seats=6)
    assert legal(p) == ["5:c50+5", "K:cs", "K:c50+10"]
    # a and c done: a moves e. e's come-out 80 holds e's own peg: no coming out; e80 -> 85/90.
    p = P("classic", {"a": "h1,h2,h3,h4,h5", "c": "h1,h2,h3,h4,h5", "e": "s,s,s,s,80"},
          "5C,KC", seats=6)
    assert legal(p) == ["5:e80+5", "K:e80+10"]
    assert RULES.controlled(RULES.parse_position(p), 0) == [4]
    # The moving peg's colour decides: c's peg may not land on or pass c's own pegs.
    p = P("classic", {"a": "h1,h2,h3,h4,h5", "c": "s,s,s,50,52"}, "5C,2C")
    # 2: c50 -> 52 own: no; c52 -> 54. 5: c50 passes c52: no; c52 -> 57.
    assert legal(p) == ["2:c52+2", "5:c52+5"]


def test_classic_win_and_partner_takeover() -> None:
    # a: 1, h2..h5; c done. 3: a1 -> 4 (ring) or a1 -> h1. Turning in wins for a and c.
    p = P("classic", {"a": "1,h2,h3,h4,h5", "c": "h1,h2,h3,h4,h5"}, "3C")
    assert legal(p) == ["3:a1+3", "3:a1+3h"]
    p2, ev = play(p, "3:a1+3h")
    assert field(p2, "turn") == "-" and field(p2, "hand") == "-"
    go = ev[-1]
    assert go["type"] == "game_over" and sorted(go["winners"]) == [0, 2]
    s2 = RULES.parse_position(p2)
    assert RULES.to_move(s2) is None and sorted(RULES.outcome(s2)["winners"]) == [0, 2]
    with pytest.raises(IllegalPlay):
        RULES.apply(s2, 0, "3:x")
    # c not done: no win; b moves next; a now moves c.
    p = P("classic", {"a": "1,h2,h3,h4,h5", "c": "s,s,s,s,40"}, "3C",
          counts={"b": 5, "c": 5, "d": 5})
    p2, ev = play(p, "3:a1+3h")
    assert field(p2, "turn") == "b" and not any(e["type"] == "game_over" for e in ev)
    assert RULES.controlled(RULES.parse_position(p2), 0) == [2]


def test_free_for_all_and_head_to_head_win_alone() -> None:
    # ffa (3 seats): a team is one colour: a's last peg home wins for seat 0 alone.
    p = P("classic", {"a": "1,h2,h3,h4,h5", "c": "h1,h2,h3,h4,40"}, "3C", seats=3)
    p2, ev = play(p, "3:a1+3h")
    assert ev[-1]["type"] == "game_over" and ev[-1]["winners"] == [0]
    # h2h: b (side 2, in-spot 39) from 37 with a 3: 2 to the in-spot, then h1.
    p = P("team", {"b": "37,h2,h3,h4,h5"}, "3C", seats=2, turn="b")
    p2, ev = play(p, "3:b37+3h")
    assert ev[-1]["winners"] == [1] and field(p2, "turn") == "-"


def test_classic_draw_pile_runs_out_discards_reshuffled() -> None:
    # pile empty, 141 discards (162 - 6 - 15). a plays its 5 (142 discards); b must draw: the
    # 142 discards become the new pile, b draws one: pile 141, discards 0, b holds 6.
    p = P("classic", {"a": "s,s,s,s,30"}, "5C,6C,7C,8C,9C,TC", counts={"b": 5, "c": 5, "d": 5},
          discards=141)
    assert field(p, "pile") == "0"
    p2, ev = play(p, "5:a30+5")
    assert [e["type"] for e in ev] == ["play", "move", "turn", "reshuffle", "draw"]
    assert ev[3]["count"] == 142
    assert field(p2, "pile") == "141" and field(p2, "discards") == "0"
    assert field(p2, "cards") == "5,6,5,5"


def test_classic_and_team_packs_and_opening() -> None:
    # classic: 3 decks with 2 jokers each up to 6 seats (162), 4 decks for 7-8 (216); 5 each,
    # then seat a draws its sixth. team: always 4 decks (216); hold five, no opening draw.
    for rules, seats, size in (("classic", 4, 162), ("classic", 6, 162), ("classic", 7, 216),
                               ("classic", 8, 216), ("team", 4, 216), ("team", 3, 216)):
        s = RULES.new_game({"rules": rules, "seats": seats}, 1)
        hands = [len(h) for h in s.hands]
        assert sum(hands) + len(s.pile) + len(s.discards) == size
        assert hands == ([6] + [5] * (seats - 1) if rules == "classic" else [5] * seats)
        cnt = Counter(c for h in s.hands for c in h) + Counter(s.pile)
        assert cnt[0] == size // 54 * 2  # jokers
    # jokers off: 52-card decks only
    s = RULES.new_game({"rules": "classic", "seats": 4, "jokers": False}, 1)
    assert sum(len(h) for h in s.hands) + len(s.pile) == 156
    assert 0 not in s.pile and all(0 not in h for h in s.hands)


# ==========================================================================================
# 4. team (spec 5, seed 001: hold five, play, move, then draw). 4 seats: a, c against b, d.


def test_team_any_team_peg_moves_and_must_play_counts_every_team_peg() -> None:
    # a has nothing out; the partner c40 can move with the 5: the seat must play it.
    p = P("team", {"c": "s,s,s,s,40"}, "5C")
    assert legal(p) == ["5:c40+5"]
    illegal(p, "5:x")


def test_team_come_out_any_team_peg_onto_its_own_come_out_hole() -> None:
    # a44 stands on c's come-out hole. K: a comes out on 8; c comes out on 44, landing on
    # its partner a: a goes to a's in-spot 3; a44 -> 54.
    p = P("team", {"a": "s,s,s,s,44"}, "KC")
    same(legal(p), ["K:as", "K:cs", "K:a44+10"])
    p2, ev = play(p, "K:cs")
    assert pegs(p2, "a") == "s,s,s,s,3" and pegs(p2, "c") == "s,s,s,s,44"
    assert bumps(ev) == [(0, 44, 3)]
    # c's come-out hole holding c's own peg: c cannot come out
    p = P("team", {"c": "s,s,s,s,44"}, "KC")
    same(legal(p), ["K:as", "K:c44+10"])


def test_team_joker_must_bring_a_team_peg_out_while_any_start_holds_one() -> None:
    # a: h1..h4 and 10 (a's start is empty); c: four in start and 40; b20.
    # c's start holds pegs, so the joker must bring one of c's pegs out: onto a10 (partner of
    # c: a goes to its in-spot 3, empty) or b20 (opponent: start); never onto c40 (own);
    # a10 and c40 may not use the joker. 2: a10 -> 12, c40 -> 42.
    p = P("team", {"a": "10,h1,h2,h3,h4", "b": "s,s,s,s,20", "c": "s,s,s,s,40"}, "JK,2C")
    same(legal(p), ["2:a10+2", "2:c40+2", "JK:cs>10", "JK:cs>20"])
    p2, ev = play(p, "JK:cs>10")
    assert pegs(p2, "a") == "3,h1,h2,h3,h4" and pegs(p2, "c") == "s,s,s,10,40"
    # every team start empty: the joker moves a track peg (never a home peg); onto the
    # partner sends it to its in-spot. Nothing else to play: joker moves plus discard.
    p = P("team", {"a": "10,h1,h2,h3,h4", "b": "s,s,s,s,20", "c": "40,h1,h2,h3,h4"}, "JK")
    same(legal(p), ["JK:a10>20", "JK:a10>40", "JK:c40>10", "JK:c40>20", "JK:x"])
    p2, ev = play(p, "JK:a10>40")
    assert pegs(p2, "c") == "39,h1,h2,h3,h4" and bumps(ev) == [(2, 40, 39)]


def test_team_joker_that_cannot_bring_a_peg_out_cannot_move() -> None:
    # The only pegs on the track are a3 and c39, each on its own in-spot. A c peg out of start
    # onto a3: a3 would go to a's in-spot 3, where it already is: illegal (same for an a peg
    # onto c39); a onto a3 and c onto c39: own colour. The track pegs may not use the joker
    # while starts hold pegs. Nothing else moves: discard only.
    p = P("team", {"a": "s,s,s,s,3", "c": "s,s,s,s,39"}, "JK")
    assert legal(p) == ["JK:x"]


def test_team_nine_split_counted_by_hand() -> None:
    # a0 (corner), a h2; c40. Hand 9. One part forward, one backward, each >= 1, either
    # first; the backward part never moves a home peg (and so never enters home).
    # whole: a0 -> 9 (9-3 = 6 > 5: no home); c40 -> 49; ah2 + 9: no.
    # forward first:
    #   a0 + k, k=1..8 -> k (ring); a0 + 4 -> h1 (5+ passes own h2). Back part: c40 - (9-k)
    #   (a h2 cannot go back): 8 + 1 = 9.
    #   c40 + k -> 40+k; back a0 - (9-k) -> 63+k: 8.
    #   ah2 + 1..3 -> h3..h5; back a0 - (8..6) or c40 - (8..6): 6.
    # backward first:
    #   a0 - k -> 72-k; forward c40 + (9-k) (8) or ah2 + (9-k) for 9-k <= 3 (k = 6..8: 3): 11.
    #   c40 - k -> 40-k; forward a0 + (9-k) ring (8), home h1 when 9-k = 4 (k = 5: 1), or
    #   ah2 + (9-k), k = 6..8 (3): 12.
    # total 2 + 9 + 8 + 6 + 11 + 12 = 48.
    p = P("team", {"a": "s,s,s,0,h2", "c": "s,s,s,s,40"}, "9C")
    want = ["9:a0+9", "9:c40+9", "9:a0+4h,c40-5", "9:c40-5,a0+4h"]
    want += [f"9:a0+{k},c40-{9 - k}" for k in range(1, 9)]
    want += [f"9:c40+{k},a0-{9 - k}" for k in range(1, 9)]
    want += [f"9:ah2+{k},a0-{9 - k}" for k in (1, 2, 3)]
    want += [f"9:ah2+{k},c40-{9 - k}" for k in (1, 2, 3)]
    want += [f"9:a0-{k},c40+{9 - k}" for k in range(1, 9)]
    want += [f"9:a0-{k},ah2+{9 - k}" for k in (6, 7, 8)]
    want += [f"9:c40-{k},a0+{9 - k}" for k in range(1, 9)]
    want += [f"9:c40-{k},ah2+{9 - k}" for k in (6, 7, 8)]
    assert len(want) == 48
    same(legal(p), want)
    # classic has no 9 split and no partner pegs: just a0 -> 9
    assert legal(P("classic", {"a": "s,s,s,0,h2", "c": "s,s,s,s,40"}, "9C")) == ["9:a0+9"]


def test_team_nine_split_eight_forward_reaches_home_five_from_the_corner() -> None:
    # seed 001: from the corner "a 4 to 8 takes it straight home": in team the 8 forward is
    # the forward part of a 9 split; the other peg goes 1 back.
    p = P("team", {"a": "s,s,s,s,0", "c": "s,s,s,s,40"}, "9C")
    p2, ev = play(p, "9:a0+8h,c40-1")
    assert pegs(p2, "a") == "s,s,s,s,h5" and pegs(p2, "c") == "s,s,s,s,39"
    mv = [e for e in ev if e["type"] == "move"]
    assert mv[0]["path"] == [1, 2, 3, "h1", "h2", "h3", "h4", "h5"]
    assert mv[1]["path"] == [39] and mv[1]["backward"]


def test_team_nine_split_back_part_bumps_before_the_forward_part() -> None:
    # c25 back 5 -> 20 lands on its partner a20: a goes to a's in-spot 3. The forward 4 may
    # then move that a peg from 3: to 7 on the ring or into h4. a20 no longer exists.
    p = P("team", {"a": "s,s,s,s,20", "c": "s,s,s,s,25"}, "9C")
    got = legal(p)
    assert "9:c25-5,a3+4h" in got and "9:c25-5,a3+4" in got
    assert "9:c25-5,a20+4" not in got
    p2, ev = play(p, "9:c25-5,a3+4h")
    assert pegs(p2, "a") == "s,s,s,s,h4" and pegs(p2, "c") == "s,s,s,s,20"
    assert bumps(ev) == [(0, 20, 3)]
    # the backward part onto an opponent: b to start
    p = P("team", {"a": "s,s,s,s,20", "b": "s,s,s,s,25", "c": "s,s,s,s,30"}, "9C")
    p2, ev = play(p, "9:c30-5,a20+4")
    assert pegs(p2, "b") == "s,s,s,s,s" and bumps(ev) == [(1, 25, "s")]


def test_team_seven_split_two_team_pegs_counted_by_hand() -> None:
    # a20 and c40, nothing else out. whole: a20 -> 27, c40 -> 47. Split either first, k=1..6,
    # the two pegs never meet: 6 + 6. Total 14.
    p = P("team", {"a": "s,s,s,s,20", "c": "s,s,s,s,40"}, "7C")
    want = ["7:a20+7", "7:c40+7"]
    want += [f"7:a20+{k},c40+{7 - k}" for k in range(1, 7)]
    want += [f"7:c40+{k},a20+{7 - k}" for k in range(1, 7)]
    same(legal(p), want)


def test_team_colour_rules_follow_the_moving_peg() -> None:
    # a32 between c30 and c33. A: a comes out on 8, c on 44; c30 -> 31; a32 -> 33 lands on
    # c33, a partner of a: c33 goes to c's in-spot 39; c33 -> 34.
    p = P("team", {"a": "s,s,s,s,32", "c": "s,s,s,30,33"}, "AC")
    same(legal(p), ["A:as", "A:cs", "A:c30+1", "A:a32+1", "A:c33+1"])
    p2, ev = play(p, "A:a32+1")
    assert pegs(p2, "c") == "s,s,s,30,39" and bumps(ev) == [(2, 33, 39)]
    # 5: c30 -> 35 passes a32 (free) but also c33 (own): no. a32 -> 37 passes c33: free (a
    # different colour). c33 -> 38.
    p = P("team", {"a": "s,s,s,s,32", "c": "s,s,s,30,33"}, "5C")
    same(legal(p), ["5:a32+5", "5:c33+5"])


def test_team_play_then_draw_and_discard_then_draw() -> None:
    p = P("team", {"a": "s,s,s,s,30"}, "2C,3C,4C,5C,6C", counts={"b": 5, "c": 5, "d": 5})
    p2, ev = play(p, "5:a30+5")
    assert [e["type"] for e in ev] == ["play", "move", "draw", "turn"]
    assert ev[2]["seat"] == 0 and field(p2, "cards") == "5,5,5,5" and field(p2, "turn") == "b"
    # nothing can move (no team peg out, no A/J/Q/K): discard, then draw
    p = P("team", {}, "2C,3C,4C,5C,6C", counts={"b": 5, "c": 5, "d": 5})
    same(legal(p), ["2:x", "3:x", "4:x", "5:x", "6:x"])
    p2, ev = play(p, "4:x")
    assert [e["type"] for e in ev] == ["play", "discard", "draw", "turn"]
    assert field(p2, "cards") == "5,5,5,5"


def test_team_partner_team_wins_together() -> None:
    # a done, c's last peg at 38 with a 2 -> h1: the team (a, c) wins.
    p = P("team", {"a": "h1,h2,h3,h4,h5", "c": "38,h2,h3,h4,h5"}, "2C")
    same(legal(p), ["2:c38+2", "2:c38+2h"])
    p2, ev = play(p, "2:c38+2h")
    assert field(p2, "turn") == "-" and sorted(ev[-1]["winners"]) == [0, 2]
    # the same move made by a while a is not done wins nothing yet
    p = P("team", {"a": "10,h1,h2,h3,h4", "c": "38,h2,h3,h4,h5"}, "2C",
          counts={"b": 5, "c": 5, "d": 5})
    p2, ev = play(p, "2:c38+2h")
    assert field(p2, "turn") == "b"


def test_team_free_for_all_moves_only_own_colour() -> None:
    # team rules, 3 seats ffa: "team" = one colour. a10, a20 with a 9:
    # whole a10 -> 19, a20 -> 29. Splits (4 kinds x 8 counts) never collide: 32. Total 34.
    # a10 + k <= 18 < 20; a20 - (9-k) >= 12 > 10+k? 20-9+k = 11+k > 10+k: yes.
    # a20 + k then a10 - (9-k) -> 1+k (no wrap). a10 - k, a20 + 9-k. a20 - k -> 20-k >= 12,
    # a10 + 9-k = 19-k < 20-k.
    p = P("team", {"a": "s,s,s,10,20", "c": "s,s,s,s,30"}, "9C", seats=3)
    want = ["9:a10+9", "9:a20+9"]
    for k in range(1, 9):
        want += [f"9:a10+{k},a20-{9 - k}", f"9:a20+{k},a10-{9 - k}",
                 f"9:a10-{k},a20+{9 - k}", f"9:a20-{k},a10+{9 - k}"]
    same(legal(p), want)


# ==========================================================================================
# 5. solo (spec 2): one seat, jokers removed, every turn counts (a forced discard too).


def test_solo_packs_have_no_jokers() -> None:
    for rules, size in (("classic", 156), ("team", 208)):
        s = RULES.new_game({"rules": rules, "seats": 1, "jokers": True}, 3)
        assert sum(len(h) for h in s.hands) + len(s.pile) == size
        assert 0 not in s.pile and 0 not in s.hands[0]


def test_solo_turns_count_discards_and_outcome() -> None:
    p = P("classic", {}, "5C,7C,8C,9C,TC,2C", seats=1, turns=5)
    same(legal(p), ["2:x", "5:x", "7:x", "8:x", "9:x", "T:x"])
    p2, _ = play(p, "7:x")
    assert field(p2, "turns") == "6" and field(p2, "turn") == "a" and field(p2, "cards") == "6"
    p = P("classic", {"a": "1,h2,h3,h4,h5"}, "3C", seats=1, turns=40)
    p2, ev = play(p, "3:a1+3h")
    assert ev[-1]["type"] == "game_over" and ev[-1]["winners"] == [0] and ev[-1]["turns"] == 41
    assert RULES.outcome(RULES.parse_position(p2))["turns"] == 41


def test_solo_turns_equal_plays_over_a_played_game() -> None:
    # every play, discard or move, counts one turn
    for rules in ("classic", "team"):
        s, _ = RULES.start({"rules": rules, "seats": 1}, 12)
        n = 0
        while RULES.to_move(s) is not None and n < 1000:
            lg = RULES.legal_plays(s)
            homes = [x for x in lg if x.token.endswith("h")]
            s, _ = RULES.apply(s, 0, (homes or lg)[-1])
            n += 1
            assert RULES.view(s, 0)["turns"] == n
        assert RULES.outcome(s) == {"winners": [0], "team": 0, "turns": n}


def test_team_solo_nine_split_own_pegs() -> None:
    # team solo: a10, a20 (no partner); the 9 splits between own pegs as in ffa.
    p = P("team", {"a": "s,s,s,10,20"}, "9C", seats=1)
    assert "9:a20-1,a10+8" in legal(p) and len(legal(p)) == 34


# ==========================================================================================
# 6. API behaviour the audit relies on: views, bad input


def test_views_hold_only_own_hand() -> None:
    s = RULES.new_game({"rules": "classic", "seats": 4}, 5)  # a to move, holding six
    for seat in range(4):
        v = RULES.view(s, seat)
        assert v["hand"] == list(s.hands[seat])
        assert v["hand_counts"] == [6, 5, 5, 5]
        # the position line in the view shows the mover's hand only to the mover
        hand = field(v["position"], "hand")
        assert (hand == "?") == (seat != 0)
        text = repr({k: x for k, x in v.items() if k != "hand"})
        for other in range(4):
            if other != seat:
                assert repr(list(s.hands[other])) not in text
    v = RULES.view(s, None)
    assert v["hand"] == [] and field(v["position"], "hand") == "?"


def test_wrong_seat_and_illegal_plays_change_nothing() -> None:
    p = P("classic", {"a": "s,s,s,s,30"}, "5C,7C")
    s = RULES.parse_position(p)
    with pytest.raises(NotYourTurn):
        RULES.apply(s, 1, "5:a30+5")
    illegal(p, "5:a30+4")
    illegal(p, "6:a30+6")  # no 6 in hand
    illegal(p, "5:b30+5")
    assert RULES.format_position(s) == p


# ==========================================================================================
# 7. A second, independent reading of the rules, compared on many positions.
#
# ``Ref`` computes the legal plays of a position line straight from the spec's words, with
# plain lists and sets (it shares no code with the engine: it reads the position text itself).
# Random positions (many pegs crowded round in-spots and come-out holes, so that chains, last
# resorts and blocks happen often) must give the engine's legal plays exactly, as sets.

RANK_TEXT = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
START, HOME = -1, 1000  # Ref's own places: -1 start, 0..R-1 ring, 1000+k home k
Pegs = list[list[int]]


def _rank(card: str) -> int:
    return 0 if card == "JK" else RANK_TEXT.index(card[0])


class Ref:
    def __init__(self, text: str) -> None:
        f = text.split()
        self.rules, n, mode = f[0], int(f[1]), f[2]
        self.n = n
        kv: dict[str, str] = {}
        for item in f[3:]:
            if "=" in item:
                k, v = item.split("=", 1)
            else:
                k, v = item.split(":", 1)
            kv[k] = v
        sides = [0] if n == 1 else [0, 2] if n == 2 else [0, 1, 2] if n == 3 else list(range(n))
        self.R = 18 * max(4, n)
        self.inspot = [18 * s + 3 for s in sides]
        self.comeout = [18 * s + 8 for s in sides]
        self.teams_mode = mode.startswith("teams")
        self.team = [c % int(mode[5:]) for c in range(n)] if self.teams_mode else list(range(n))
        self.seven = kv["seven"] == "on"
        self.pegs: list[list[int]] = []
        for c in range(n):
            pl = []
            for t in kv[LETTERS[c]].split(","):
                pl.append(START if t == "s" else HOME + int(t[1]) if t[0] == "h" else int(t))
            self.pegs.append(pl)
        self.turn = LETTERS.index(kv["turn"])
        self.ranks = sorted({_rank(x) for x in kv["hand"].split(",")})

    # -- shared ----------------------------------------------------------------------------
    def name(self, c: int, x: int) -> str:
        return LETTERS[c] + ("s" if x == START else f"h{x - HOME}" if x >= HOME else str(x))

    def done(self, pg: list[list[int]], c: int) -> bool:
        return all(x >= HOME for x in pg[c])

    def mates(self, c: int) -> list[int]:
        return [m for m in range(self.n) if self.team[m] == self.team[c]]

    def controlled(self, pg: list[list[int]], seat: int) -> list[int]:
        if self.rules == "team":
            return self.mates(seat)
        if not self.done(pg, seat):
            return [seat]
        for k in range(1, self.n):
            p = (seat + k) % self.n
            if self.team[p] == self.team[seat] and not self.done(pg, p):
                return [p]
        return []

    @staticmethod
    def at(pg: list[list[int]], hole: int) -> tuple[int, int] | None:
        for c, pl in enumerate(pg):
            for i, x in enumerate(pl):
                if x == hole:
                    return (c, i)
        return None

    # -- classic / team --------------------------------------------------------------------
    def land(self, pg: list[list[int]], c: int, x: int) -> list | None:
        """Bumps when colour c lands on ring hole x (the mover already lifted off the board)."""
        o = self.at(pg, x)
        if o is None:
            return []
        if o[0] == c:
            return None
        if self.team[o[0]] != self.team[c]:
            return [(o, START)]
        out = [(o, self.inspot[o[0]])]
        visited = {x}
        cur, t = o, self.inspot[o[0]]
        while True:
            if t in visited:
                return None
            r = self.at(pg, t)
            if r is None:
                return out
            if r[0] == cur[0]:
                return None
            if self.team[r[0]] != self.team[cur[0]]:
                out.append((r, START))
                return out
            visited.add(t)
            out.append((r, self.inspot[r[0]]))
            cur, t = r, self.inspot[r[0]]

    def moved(self, pg: list[list[int]], c: int, i: int, dest: int, bumps: list
              ) -> list[list[int]]:
        new = [list(pl) for pl in pg]
        for (bc, bi), to in bumps:
            new[bc][bi] = to
        new[c][i] = dest
        return new

    def dests(self, pg: list[list[int]], c: int, i: int, back: bool, n: int) -> list[int]:
        x, R = pg[c][i], self.R
        own_ring = {h for h in pg[c] if 0 <= h < HOME}
        own_home = {h - HOME for h in pg[c] if h >= HOME}
        if x == START:
            return []
        if back:
            if x >= HOME:
                return []
            path = {(x - j) % R for j in range(1, n + 1)}
            return [] if path & own_ring else [(x - n) % R]
        if x >= HOME:
            k = x - HOME
            ok = k + n <= 5 and not any(k + j in own_home for j in range(1, n + 1))
            return [x + n] if ok else []
        out = []
        if not {(x + j) % R for j in range(1, n + 1)} & own_ring:
            out.append((x + n) % R)
        d = (self.inspot[c] - x) % R
        if d < n <= d + 5 and not {(x + j) % R for j in range(1, d + 1)} & own_ring and \
                not any(j in own_home for j in range(1, n - d + 1)):
            out.append(HOME + n - d)
        return out

    def parts(self, pg: list[list[int]], c: int, i: int, back: bool, n: int
              ) -> list[tuple[str, list[list[int]]]]:
        out = []
        x = pg[c][i]
        for dest in self.dests(pg, c, i, back, n):
            bumps: list | None = []
            if dest < HOME:
                lifted = [list(pl) for pl in pg]
                lifted[c][i] = -2
                bumps = self.land(lifted, c, dest)
                if bumps is None:
                    continue
            sign = "-" if back else "+"
            h = "h" if (x < HOME <= dest) else ""
            out.append((f"{self.name(c, x)}{sign}{n}{h}", self.moved(pg, c, i, dest, bumps)))
        return out

    def gen_ct(self) -> dict[str, Pegs]:
        pg, seat, team = self.pegs, self.turn, self.rules == "team"
        cols = self.controlled(pg, seat)
        normal: dict[str, Pegs] = {}
        jokers: dict[str, Pegs] = {}
        for r in self.ranks:
            rt = RANK_TEXT[r]
            if r == 0:
                # classic: from start or the track; team: from start while any team start
                # holds a peg, else from the track. Onto any ring hole of another colour.
                starts = [(c, pg[c].index(START)) for c in cols if START in pg[c]]
                ring = [(c, i) for c in cols for i, x in enumerate(pg[c]) if 0 <= x < HOME]
                sources = starts if team and starts else ring if team else starts + ring
                for c, i in sources:
                    lifted = [list(pl) for pl in pg]
                    lifted[c][i] = -2
                    for x in range(self.R):
                        o = self.at(pg, x)
                        if o is None or o[0] == c:
                            continue
                        b = self.land(lifted, c, x)
                        if b is not None:
                            tok = f"JK:{self.name(c, pg[c][i])}>{x}"
                            jokers[tok] = self.moved(pg, c, i, x, b)
                continue
            if r in (1, 11, 12, 13):  # A, J, Q, K come out (onto the colour's come-out hole)
                for c in cols:
                    if START in pg[c] and self.comeout[c] not in pg[c]:
                        b = self.land(pg, c, self.comeout[c])
                        if b is not None:
                            i = pg[c].index(START)
                            normal[f"{rt}:{LETTERS[c]}s"] = self.moved(pg, c, i,
                                                                       self.comeout[c], b)
            back = r == 8
            n = {1: 1, 11: 10, 12: 10, 13: 10}.get(r, r)
            for c in cols:
                for i in range(5):
                    for part, pg2 in self.parts(pg, c, i, back, n):
                        normal[f"{rt}:{part}"] = pg2
            if r == 7:
                self.splits(pg, seat, cols, 7, ((False, False),), normal)
            if r == 9 and team:
                self.splits(pg, seat, cols, 9, ((False, True), (True, False)), normal)
        if normal:
            return normal | jokers
        return jokers | {f"{RANK_TEXT[r]}:x": pg for r in self.ranks}

    def splits(self, pg: Pegs, seat: int, cols: list[int], total: int,
               kinds: tuple, out: dict[str, Pegs]) -> None:
        for b1, b2 in kinds:
            for c1 in cols:
                for i1 in range(5):
                    for a in range(1, total):
                        for part1, pg2 in self.parts(pg, c1, i1, b1, a):
                            cols2 = cols
                            if self.rules == "classic" and self.seven and self.teams_mode:
                                cols2 = self.controlled(pg2, seat)
                            for c2 in cols2:
                                for i2 in range(5):
                                    if (c2, i2) == (c1, i1):
                                        continue
                                    for part2, pg3 in self.parts(pg2, c2, i2, b2, total - a):
                                        out[f"{total}:{part1},{part2}"] = pg3

    # -- tees ------------------------------------------------------------------------------
    def gen_tees(self) -> dict[str, Pegs]:
        pg, R = self.pegs, self.R
        cols = self.controlled(pg, self.turn)
        if not cols:
            return {}
        c = cols[0]
        L = LETTERS[c]
        blk = {x for m in self.mates(c) for x in pg[m] if 0 <= x < HOME}  # own + partner
        own_home = {x - HOME for x in pg[c] if x >= HOME}
        ins = self.inspot[c]
        normal: dict[str, Pegs] = {}
        last: dict[str, Pegs] = {}

        def land(tok: str, i: int, x: int) -> None:
            o = self.at(pg, x)
            if o is not None and o[0] == c:
                return
            res = self.moved(pg, c, i, x, [] if o is None else [(o, START)])
            if o is None or self.team[o[0]] != self.team[c]:
                normal[tok] = res
            else:
                last[tok] = res  # a partner: last resort

        for r in self.ranks:
            rt = RANK_TEXT[r]
            if r in (1, 13) and START in pg[c] and self.comeout[c] not in pg[c]:
                land(f"{rt}:{L}s", pg[c].index(START), self.comeout[c])
            if r == 13:
                continue
            if r == 11:
                for i, x in enumerate(pg[c]):
                    if 0 <= x < HOME:
                        for y in range(R):
                            o = self.at(pg, y)
                            if o is not None and o[0] != c:
                                res = [list(pl) for pl in pg]
                                res[c][i], res[o[0]][o[1]] = y, x
                                normal[f"J:{L}{x}x{y}"] = res
                continue
            if r == 3:
                for i, x in enumerate(pg[c]):
                    if 0 <= x < HOME:
                        if (x - self.comeout[c]) % R < 3 or {(x - 1) % R, (x - 2) % R} & blk:
                            continue
                        land(f"3:{L}{x}-3", i, (x - 3) % R)
                    elif x >= HOME:
                        k = x - HOME
                        if all(j in own_home for j in range(k + 1, 6)):
                            continue  # snug
                        # back through home, then the in-spot, in-spot - 1, in-spot - 2
                        seq: list[tuple[str, int]] = [("h", j) for j in range(k - 1, 0, -1)]
                        seq += [("r", (ins - j) % R) for j in range(3)]
                        seq = seq[:3]
                        if any((w == "h" and v in own_home) or (w == "r" and v in blk)
                               for w, v in seq[:2]):
                            continue
                        w, v = seq[2]
                        if w == "h":
                            if v not in own_home:
                                normal[f"3:{L}h{k}-3"] = self.moved(pg, c, i, HOME + v, [])
                        else:
                            land(f"3:{L}h{k}-3", i, v)
                continue
            n = r
            for i, x in enumerate(pg[c]):
                if x == START:
                    continue
                if x >= HOME:
                    k = x - HOME
                    if k + n <= 5 and not any(k + j in own_home for j in range(1, n + 1)):
                        normal[f"{rt}:{L}h{k}+{n}"] = self.moved(pg, c, i, x + n, [])
                    continue
                d = (ins - x) % R
                if n > d:  # the lap ends at the in-spot: into home by exact count
                    hk = n - d
                    if hk <= 5 and not {(x + j) % R for j in range(1, d + 1)} & blk and \
                            not any(j in own_home for j in range(1, hk + 1)):
                        normal[f"{rt}:{L}{x}+{n}h"] = self.moved(pg, c, i, HOME + hk, [])
                    continue
                if {(x + j) % R for j in range(1, n)} & blk:
                    continue
                land(f"{rt}:{L}{x}+{n}", i, (x + n) % R)
        return normal or last

    def legal(self) -> dict[str, Pegs]:
        """Every legal play, each with the pegs after it."""
        return self.gen_tees() if self.rules == "tees" else self.gen_ct()

    def pegs_text(self, pg: Pegs, c: int) -> str:
        return ",".join(self.name(c, x)[1:] for x in sorted(pg[c]))


def _random_position(rng: Any, rules: str, seats: int, mode: str) -> str:
    import random as _r

    assert isinstance(rng, _r.Random)
    R = 18 * max(4, seats)
    sides = [0] if seats == 1 else [0, 2] if seats == 2 else [0, 1, 2] if seats == 3 else \
        list(range(seats))
    hot = [18 * s + k for s in sides for k in (3, 8)]
    k_teams = int(mode[5:]) if mode.startswith("teams") else seats
    team = [c % k_teams for c in range(seats)]
    while True:
        lo = rng.randrange(R)
        used: set[int] = set()
        spec: dict[str, str] = {}
        # crowded (55% of pegs on the track) or sparse (15%) positions
        start_p, home_p = rng.choice(((0.25, 0.45), (0.5, 0.85)))
        for c in range(seats):
            places = []
            homes = rng.sample(range(1, 6), 5)
            for _ in range(5):
                u = rng.random()
                if u < start_p:
                    places.append("s")
                elif u < home_p:
                    places.append(f"h{homes.pop()}")
                else:
                    for _try in range(20):
                        v = rng.random()
                        h = rng.choice(hot) if v < 0.3 else (lo + rng.randrange(30)) % R \
                            if v < 0.8 else rng.randrange(R)
                        if h not in used:
                            used.add(h)
                            places.append(str(h))
                            break
                    else:
                        places.append("s")
            spec[LETTERS[c]] = ",".join(places)
        over = any(all("h" in spec[LETTERS[c]].split(",")[j] for c in range(seats)
                       if team[c] == t for j in range(5)) for t in set(team))
        if not over:
            break
    # the options too: seven_to_partner off now and then, jokers switched off now and then
    seven = rng.random() < 0.7
    jokers = rules != "tees" and mode != "solo" and rng.random() < 0.85
    pack: list[str] = []
    decks = 1 if rules == "tees" else 4 if rules == "team" or seats >= 7 else 3
    for _ in range(decks):
        pack += [r + s for r in "A23456789TJQK" for s in "CDHS"]
        if jokers:
            pack += ["JK", "JK"]
    # small hands make folds, last resorts, forced discards and joker-only hands common
    hand = rng.sample(pack, rng.choice((1, 1, 2, 3, 5) if rules == "tees" else (1, 2, 3, 6)))
    turn = LETTERS[rng.randrange(seats)]
    order = {c: i for i, c in enumerate(["JK"] + [r + s for r in "A23456789TJQK" for s in "CDHS"])}
    hand.sort(key=order.__getitem__)
    return P(rules, spec, ",".join(hand), seats=seats, mode=mode, turn=turn, jokers=jokers,
             seven=seven)


CONFIGS = [("tees", 4, "teams2"), ("tees", 6, "teams3"),
           ("classic", 4, "teams2"), ("classic", 6, "teams2"), ("classic", 6, "teams3"),
           ("classic", 8, "teams4"), ("classic", 8, "teams2"), ("classic", 3, "ffa"),
           ("classic", 2, "h2h"), ("classic", 1, "solo"),
           ("team", 4, "teams2"), ("team", 6, "teams3"), ("team", 8, "teams2"),
           ("team", 5, "ffa"), ("team", 1, "solo")]


@pytest.mark.parametrize(("rules", "seats", "mode"), CONFIGS)
def test_engine_agrees_with_an_independent_reading_on_random_positions(
        rules: str, seats: int, mode: str) -> None:
    import random

    rng = random.Random(f"{rules}{seats}{mode}")
    count = 500 if rules == "tees" else 40 if seats == 8 and rules == "team" else 120
    for _ in range(count):
        text = _random_position(rng, rules, seats, mode)
        ref = Ref(text)
        want = ref.legal()
        s = RULES.parse_position(text)
        if rules == "tees" and not want:
            # no legal play: the seat folds at once (reading the position settles it)
            assert RULES.format_position(s).split(" turn=")[1] != text.split(" turn=")[1]
            continue
        got = RULES.legal_tokens(s)
        assert len(got) == len(set(got)), text
        assert set(got) == set(want), (text, sorted(set(got) - set(want)),
                                       sorted(set(want) - set(got)))
        # and the pegs after a few of them (bumps, chains, trades, pull-backs)
        for tok in rng.sample(got, min(4, len(got))):
            s2, _ = RULES.apply(s, s.turn, tok)
            after = RULES.format_position(s2)
            for c in range(seats):
                assert pegs(after, LETTERS[c]) == ref.pegs_text(want[tok], c), (text, tok)


def _hand_text(cards: list[int]) -> str:
    return ",".join("JK" if x == 0 else "?A23456789TJQK"[x >> 2] + "CDHS"[x & 3]
                    for x in sorted(cards))


@pytest.mark.parametrize(("rules", "seats", "mode"), CONFIGS)
def test_played_games_agree_with_the_independent_reading_and_turn_flow(
        rules: str, seats: int, mode: str) -> None:
    """Random games: every position reached gives the reference's legal plays; the turn
    passes as the spec says; tees folds happen only to seats with no legal play."""
    import random

    rng = random.Random(f"game {rules}{seats}{mode}")
    conf = {"rules": rules, "seats": seats, "mode": "teams" if mode.startswith("teams") else mode}
    if mode.startswith("teams"):
        conf["teams"] = int(mode[5:])
    heavy = rules == "team" and seats >= 6
    for game in range(2 if rules == "tees" else 1):
        s, _ = RULES.start(conf, 1000 + game)
        total = len(s.pile) + len(s.discards) + sum(len(h) for h in s.hands)
        for step in range(150 if heavy else 400):
            if RULES.to_move(s) is None:
                break
            text = RULES.format_position(s)
            got = RULES.legal_tokens(s)
            if not heavy or step % 5 == 0:
                assert set(got) == set(Ref(text).legal()), text
                # the position line says everything that decides the legal plays
                back = RULES.parse_position(text)
                assert RULES.format_position(back) == text
                assert RULES.legal_tokens(back) == got
            seat = s.turn
            tok = rng.choice(got)
            s2, ev = RULES.apply(s, seat, tok)
            assert len(s2.pile) + len(s2.discards) + sum(len(h) for h in s2.hands) == total
            if RULES.to_move(s2) is None:
                assert ev[-1]["type"] == "game_over"
                break
            if rules == "classic":
                # draw, then play: the mover is left with five; the next seat drew its sixth
                assert s2.turn == (seat + 1) % seats
                assert len(s2.hands[s2.turn]) == 6
                assert seats == 1 or len(s2.hands[seat]) == 5
            elif rules == "team":
                # play, then draw: the mover holds five again; the next seat holds five
                assert s2.turn == (seat + 1) % seats
                assert len(s2.hands[seat]) == 5 and len(s2.hands[s2.turn]) == 5
            else:
                after = RULES.format_position(s2)
                fields = after.split(" turn=")[0]
                for e in ev:
                    if e["type"] == "fold":
                        # the folding seat really had no legal play (same pegs as after the play
                        # unless a deal came first, which only happens once every hand is empty)
                        pos = (f"{fields} turn={LETTERS[e['seat']]} hand={_hand_text(e['cards'])}"
                               f" cards=" + ",".join(
                                   str(len(e["cards"])) if c == e["seat"] else "0"
                                   for c in range(seats)) +
                               f" pile={total - len(e['cards'])} discards=0 dealer=a round=1")
                        assert Ref(pos).legal() == {}, (text, tok, pos)
                if not any(e["type"] == "deal" for e in ev):
                    # clockwise from the mover, each seat still holding cards either folds or
                    # takes the turn (the mover itself last, if it has cards left)
                    held = [len(h) for h in s.hands]
                    held[seat] -= 1
                    order = [(seat + j) % seats for j in range(1, seats + 1)
                             if held[(seat + j) % seats]]
                    folded = [e["seat"] for e in ev if e["type"] == "fold"]
                    assert folded == order[:len(folded)]
                    assert s2.turn == order[len(folded)]
            s = s2


# ==========================================================================================
# 8. Configs, hidden information and replay


@pytest.mark.parametrize("conf", [
    {"rules": "tees", "seats": 5},               # tees: 4 or 6 seats only
    {"rules": "tees", "seats": 4, "mode": "ffa"},  # tees: teams only
    {"rules": "tees", "seats": 6, "teams": 2},     # tees 6: 3 teams of 2
    {"rules": "classic", "seats": 5, "mode": "teams"},
    {"rules": "classic", "seats": 8, "mode": "teams", "teams": 3},
    {"rules": "classic", "seats": 3, "mode": "h2h"},
    {"rules": "classic", "seats": 2, "mode": "ffa"},
    {"rules": "team", "seats": 2, "mode": "solo"},
    {"rules": "classic", "seats": 9},
    {"rules": "classic", "seats": 0},
    {"rules": "poker", "seats": 4},
    {"rules": "classic", "seats": 4, "jokers": "yes"},
    {"rules": "classic", "seats": 4, "colour": "red"},
])
def test_bad_configs_are_refused(conf: dict[str, Any]) -> None:
    from game.rules.api import ConfigError

    with pytest.raises(ConfigError):
        RULES.new_game(conf, 1)


@pytest.mark.parametrize(("rules", "seats", "teams"), [
    ("tees", 4, 2), ("tees", 6, 3), ("classic", 4, 2), ("classic", 6, 2), ("classic", 6, 3),
    ("classic", 8, 2), ("classic", 8, 4), ("team", 6, 3), ("team", 8, 4)])
def test_team_seating_alternates(rules: str, seats: int, teams: int) -> None:
    # every player sits between opponents: team of seat i is i mod (number of teams)
    s = RULES.new_game({"rules": rules, "seats": seats, "mode": "teams", "teams": teams}, 1)
    want = [[i for i in range(seats) if i % teams == t] for t in range(teams)]
    assert sorted(sorted(t) for t in RULES.teams(s)) == sorted(want)


def test_filtered_events_hide_other_hands_and_draws() -> None:
    s, ev = RULES.start({"rules": "classic", "seats": 4}, 8)
    assert sorted(ev[0]["hands"][1]) == sorted(s.hands[1])  # b has not drawn yet
    for seat in (0, 1, None):
        fe = RULES.filter_events(ev, seat)
        deal = next(e for e in fe if e["type"] == "deal")
        assert "hands" not in deal
        assert deal.get("hand") == (list(ev[0]["hands"][seat]) if seat is not None else None)
        draw = next(e for e in fe if e["type"] == "draw")
        assert ("card" in draw) == (seat == 0)  # seat a drew: only a sees the card


def test_tees_folded_cards_are_public() -> None:
    p = P("tees", {"a": "s,s,s,s,20"}, "5C", counts={"b": 1, "c": 1, "d": 1}, discards=16,
          dealer="d", rnd=1)
    s = RULES.parse_position(p)
    s2, _ = RULES.apply(s, 0, "5:a20+5")
    v = RULES.view(s2, 2)
    assert sorted(v["discards"])[-3:] == [21, 22, 23]  # b, c, d's folded 5s, face up


def test_replay_rebuilds_the_same_state() -> None:
    import random

    for conf in ({"rules": "tees", "seats": 6}, {"rules": "classic", "seats": 4},
                 {"rules": "team", "seats": 4}):
        rng = random.Random(str(conf))
        s = RULES.new_game(conf, 77)
        log = []
        for _ in range(150):
            if RULES.to_move(s) is None:
                break
            tok = rng.choice(RULES.legal_tokens(s))
            log.append((s.turn, tok))
            s, _ = RULES.apply(s, s.turn, tok)
        r = RULES.replay(conf, 77, log)
        assert RULES.format_position(r) == RULES.format_position(s)
        assert r == s


def test_determinized_view_of_the_mover_has_the_same_legal_plays() -> None:
    # A seat's view (its own hand, every peg, counts) decides its legal plays: a state dealt
    # from the view gives exactly the real state's plays, and keeps every count.
    import random

    for conf in ({"rules": "tees", "seats": 6}, {"rules": "classic", "seats": 4},
                 {"rules": "team", "seats": 6, "mode": "teams", "teams": 3}):
        rng = random.Random(str(conf))
        s = RULES.new_game(conf, 5)
        for step in range(120):
            if RULES.to_move(s) is None:
                break
            seat = s.turn
            d = RULES.determinize(RULES.view(s, seat), step)
            assert RULES.legal_tokens(d) == RULES.legal_tokens(s)
            assert RULES.format_position(d) == RULES.format_position(s)
            s, _ = RULES.apply(s, seat, rng.choice(RULES.legal_tokens(s)))
