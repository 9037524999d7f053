"""Golden positions of the track game, worked out by hand from spec track.md and the seeds.

Four-seat board (ring of 72 holes): colour a has corner 0, in-spot 3, come-out 8; b: 18, 21, 26;
c: 36, 39, 44; d: 54, 57, 62. In ``teams2`` a and c are partners against b and d.
"""

from __future__ import annotations

import pytest
from test_track_helpers import after, legal, pegs_of, pos

from game.rules.api import IllegalPlay
from game.rules.track import RULES
from game.rules.track.notation import parse_position

# ------------------------------------------------------------------------------------------
# classic


def test_classic_peg_just_out_eight_back_to_corner_then_home() -> None:
    # Seed 001: a peg just out (hole 8) is eight past its corner; an 8 takes it back to 0.
    p = pos("classic", {"a": "s,s,s,s,8"}, "8C")
    assert legal(p) == ["8:a8-8"]
    p2, ev = after(p, "8:a8-8")
    assert pegs_of(p2, "a") == "s,s,s,s,0"
    move = next(e for e in ev if e["type"] == "move")
    assert move["path"] == [7, 6, 5, 4, 3, 2, 1, 0] and move["backward"]
    # From the corner, three short of the in-spot, 4..7 go straight to home 1..4 (the 8 of
    # classic goes backward; see the team test below for an 8 forward into home 5).
    for card, home in (("4C", 1), ("5C", 2), ("6C", 3), ("7C", 4)):
        q = pos("classic", {"a": "s,s,s,s,0"}, card)
        n = card[0]
        tok = f"{n}:a0+{n}h"
        assert tok in legal(q)
        q2, ev = after(q, tok)
        assert pegs_of(q2, "a") == f"s,s,s,s,h{home}"
        move = next(e for e in ev if e["type"] == "move")
        assert move["path"] == [1, 2, 3] + [f"h{k}" for k in range(1, home + 1)]
        assert {"type": "home", "colour": 0, "peg": 4, "hole": home} in ev


def test_classic_turning_in_is_optional() -> None:
    # a1 with a 6: the in-spot (3) is 2 ahead, so h4, or stay on the ring at 7.
    p = pos("classic", {"a": "s,s,s,s,1"}, "6C")
    assert legal(p) == ["6:a1+6", "6:a1+6h"]


def test_classic_no_passing_or_landing_on_own_colour() -> None:
    p = pos("classic", {"a": "s,s,s,10,12"}, "5C")
    # a10+5 passes a12; a12+5 -> 17 is free.
    assert legal(p) == ["5:a12+5"]
    p = pos("classic", {"a": "s,s,s,10,12"}, "2C")
    assert legal(p) == ["2:a12+2"]  # a10+2 would land on a12
    with pytest.raises(IllegalPlay, match="own colour"):
        RULES.check(RULES.parse_position(p), 0, "2:a10+2")


def test_classic_passes_other_colours_and_bumps_an_opponent_to_start() -> None:
    p = pos("classic", {"a": "s,s,s,s,10", "b": "s,s,s,s,15", "c": "s,s,s,s,12"}, "5C")
    assert legal(p) == ["5:a10+5"]
    p2, ev = after(p, "5:a10+5")
    assert pegs_of(p2, "a") == "s,s,s,s,15"
    assert pegs_of(p2, "b") == "s,s,s,s,s"
    assert pegs_of(p2, "c") == "s,s,s,s,12"
    # a read position numbers pegs in place order: b's pegs s,s,s,s,15 are 0..4
    assert {"type": "bump", "colour": 1, "peg": 4, "from": 15, "to": "s", "by": 0} in [
        {k: e[k] for k in ("type", "colour", "peg", "from", "to", "by")}
        for e in ev if e["type"] == "bump"]


def test_classic_partner_landing_sends_partner_to_its_in_spot() -> None:
    p = pos("classic", {"a": "s,s,s,s,10", "c": "s,s,s,s,15"}, "5C")
    p2, ev = after(p, "5:a10+5")
    assert pegs_of(p2, "c") == "s,s,s,s,39"  # c's in-spot
    assert [e["to"] for e in ev if e["type"] == "bump"] == [39]


def test_classic_partner_chain() -> None:
    # a lands on c15; c goes to its in-spot 39 where an a peg stands (partner of c): that a
    # goes on to a's in-spot 3, where b stands (opponent of a): b goes to start. End.
    p = pos("classic", {"a": "s,s,s,10,39", "b": "s,s,s,s,3", "c": "s,s,s,s,15"}, "5C")
    assert "5:a10+5" in legal(p)
    p2, ev = after(p, "5:a10+5")
    assert pegs_of(p2, "a") == "s,s,s,3,15"
    assert pegs_of(p2, "b") == "s,s,s,s,s"
    assert pegs_of(p2, "c") == "s,s,s,s,39"
    bumps = [(e["colour"], e["from"], e["to"]) for e in ev if e["type"] == "bump"]
    assert bumps == [(2, 15, 39), (0, 39, 3), (1, 3, "s")]


def test_classic_partner_landing_illegal_when_partner_in_spot_has_its_own_peg() -> None:
    p = pos("classic", {"a": "s,s,s,s,10", "c": "s,s,s,15,39"}, "5C")
    assert legal(p) == ["5:x"]  # nothing moves: the only move is illegal, so discard


def test_classic_chain_that_loops_is_illegal() -> None:
    # a lands on c15 -> c to 39 holds a (partner of c) -> that a to 3 holds c (partner of a)
    # -> that c to 39 again: visited, illegal.
    p = pos("classic", {"a": "s,s,s,10,39", "c": "s,s,s,3,15"}, "5C")
    assert "5:a10+5" not in legal(p)


def test_classic_chain_hitting_same_colour_as_bumped_peg_is_illegal() -> None:
    # a lands on c15 -> c to 39 holds a -> that a to 3 holds another a: illegal.
    p = pos("classic", {"a": "s,s,3,10,39", "c": "s,s,s,s,15"}, "5C")
    assert "5:a10+5" not in legal(p)


def test_classic_home_exact_count_and_no_passing_in_home() -> None:
    p = pos("classic", {"a": "s,s,s,h2,h4"}, "3C")
    # h2+3 = h5 passes h4 (own): no; h4+3 too big: no -> nothing moves -> discard.
    assert legal(p) == ["3:x"]
    p = pos("classic", {"a": "s,s,s,s,h2"}, "3C")
    assert legal(p) == ["3:ah2+3"]
    p = pos("classic", {"a": "s,s,s,s,h2"}, "4C")
    assert legal(p) == ["4:x"]


def test_classic_home_pegs_never_move_backward_and_eight_never_from_start() -> None:
    p = pos("classic", {"a": "s,s,s,s,h1"}, "8C")
    assert legal(p) == ["8:x"]


def test_classic_come_out_cards_and_come_out_bump() -> None:
    for card in ("AC", "JC", "QC", "KC"):
        assert f"{card[0]}:as" in legal(pos("classic", {}, card))
    for card in ("2C", "7C", "8C", "9C", "TC"):
        assert legal(pos("classic", {}, card)) == [f"{card[0]}:x"]
    # Coming out onto an opponent on the come-out hole bumps it; onto an own peg is illegal.
    p2, _ = after(pos("classic", {"b": "s,s,s,s,8"}, "KC"), "K:as")
    assert pegs_of(p2, "a") == "s,s,s,s,8" and pegs_of(p2, "b") == "s,s,s,s,s"
    assert legal(pos("classic", {"a": "s,s,s,s,8"}, "KC")) == ["K:a8+10"]


def test_classic_face_cards_move_ten_ace_one_and_numbers_their_value() -> None:
    p = pos("classic", {"a": "s,s,s,s,20"}, "AC,2C,3C,4C,5C,6C,9C,TC,JC,QC,KC")
    assert legal(p) == ["A:as", "A:a20+1", "2:a20+2", "3:a20+3", "4:a20+4", "5:a20+5",
                        "6:a20+6", "9:a20+9", "T:a20+10", "J:as", "J:a20+10", "Q:as",
                        "Q:a20+10", "K:as", "K:a20+10"]


def test_classic_seven_split_counted_by_hand() -> None:
    # a10 and a12 with a 7. Whole: a10+7 passes a12 (no); a12+7 -> 19 (yes).
    # a10 first: +1 (to 11) then a12+6; +2.. land on or pass a12: 1 play.
    # a12 first +k then a10+(7-k) must stay short of 12+k: k >= 3: k = 3..6, 4 plays.
    p = pos("classic", {"a": "s,s,s,10,12"}, "7C")
    assert legal(p) == ["7:a12+7", "7:a10+1,a12+6", "7:a12+3,a10+4", "7:a12+4,a10+3",
                        "7:a12+5,a10+2", "7:a12+6,a10+1"]


def test_classic_seven_split_two_free_pegs_counts_fourteen() -> None:
    p = pos("classic", {"a": "s,s,s,10,30"}, "7C")
    assert len(legal(p)) == 2 + 6 + 6


def test_classic_seven_split_order_matters() -> None:
    # a10+3 -> 13, then a11+4 would pass 13: illegal; the other order is fine.
    p = pos("classic", {"a": "s,s,s,10,11"}, "7C")
    toks = legal(p)
    assert "7:a11+4,a10+3" in toks
    assert "7:a10+3,a11+4" not in toks


def test_classic_seven_cannot_bring_a_peg_out() -> None:
    assert legal(pos("classic", {}, "7C")) == ["7:x"]


def test_classic_seven_remainder_to_partner_option() -> None:
    # a's last peg at 1 goes home with 3 (to h1: 2 to the in-spot, 1 in), the 4 left moves c.
    pegs = {"a": "1,h2,h3,h4,h5", "c": "s,s,s,s,40"}
    on = legal(pos("classic", pegs, "7C"))
    assert "7:a1+3h,c40+4" in on
    off = legal(pos("classic", pegs, "7C", seven=False))
    assert not any("," in t for t in off)


def test_classic_finished_colour_moves_next_partner_clockwise() -> None:
    p = pos("classic", {"a": "h1,h2,h3,h4,h5", "c": "s,s,s,s,40"}, "5C")
    assert legal(p) == ["5:c40+5"]


def test_classic_joker_jumps_onto_another_colour_and_is_never_forced() -> None:
    # Peg in start and b on 20: the joker may jump from start onto b20 (b to start).
    p = pos("classic", {"b": "s,s,s,s,20"}, "JK,7C")
    assert legal(p) == ["JK:as>20", "JK:x", "7:x"]  # nothing else moves: discards legal too
    p2, _ = after(p, "JK:as>20")
    assert pegs_of(p2, "a") == "s,s,s,s,20" and pegs_of(p2, "b") == "s,s,s,s,s"
    # With a moving card the joker stays optional and discards vanish.
    p = pos("classic", {"a": "s,s,s,s,30", "b": "s,s,s,s,20"}, "JK,5C")
    assert legal(p) == ["5:a30+5", "JK:as>20", "JK:a30>20"]
    # Onto a partner: the partner goes to its in-spot.
    p2, _ = after(pos("classic", {"c": "s,s,s,s,50"}, "JK"), "JK:as>50")
    assert pegs_of(p2, "c") == "s,s,s,s,39"


def test_classic_must_play_a_moving_card_not_discard() -> None:
    p = pos("classic", {"a": "s,s,s,s,30"}, "5C,7C")
    s = RULES.parse_position(p)
    with pytest.raises(IllegalPlay, match="must play a card that moves"):
        RULES.check(s, 0, "5:x")


def test_classic_draw_then_play_six_in_hand() -> None:
    p = pos("classic", {"a": "s,s,s,s,30"}, "5C,7C,9C,TC,2C,3C", counts={"b": 5, "c": 5, "d": 5})
    p2, ev = after(p, "5:a30+5")
    assert [e["type"] for e in ev] == ["play", "move", "turn", "draw"]
    assert "turn=b" in p2 and "cards=5,6,5,5" in p2


# ------------------------------------------------------------------------------------------
# team


def test_team_nine_split_eight_forward_into_home_five() -> None:
    # From the corner, h5 needs 8 forward: in team a 9 splits 8 forward + 1 backward.
    p = pos("team", {"a": "s,s,s,s,0", "c": "s,s,s,s,40"}, "9C")
    assert "9:a0+8h,c40-1" in legal(p)
    p2, _ = after(p, "9:a0+8h,c40-1")
    assert pegs_of(p2, "a") == "s,s,s,s,h5" and pegs_of(p2, "c") == "s,s,s,s,39"


def test_team_nine_split_back_part_first_and_never_from_home() -> None:
    p = pos("team", {"a": "s,s,s,h1,20", "c": "s,s,s,s,50"}, "9C")
    toks = legal(p)
    assert "9:c50-4,a20+5" in toks and "9:a20+5,c50-4" in toks
    assert not any("ah1-" in t for t in toks)
    # a9 split is never in classic
    assert not any("," in t for t in legal(pos("classic", {"a": "s,s,s,10,20"}, "9C")))


def test_team_any_team_peg_comes_out_and_moves() -> None:
    p = pos("team", {"c": "s,s,s,s,40"}, "AC")
    assert legal(p) == ["A:as", "A:cs", "A:c40+1"]


def test_team_joker_must_bring_a_peg_out_counted_by_hand() -> None:
    # a has a peg on 10 and four in start; targets: b20, d50 (and a10 for c's pegs, a partner).
    p = pos("team", {"a": "s,s,s,s,10", "b": "s,s,s,s,20", "d": "s,s,s,s,50"}, "JK")
    assert legal(p) == ["JK:as>20", "JK:as>50", "JK:cs>10", "JK:cs>20", "JK:cs>50", "JK:x"]
    # Once every team start is empty, the joker moves a track peg.
    p = pos("team", {"a": "h1,h2,h3,h4,10", "b": "s,s,s,s,20", "c": "h1,h2,h3,h4,h5"}, "JK")
    assert legal(p) == ["JK:a10>20", "JK:x"]


def test_team_hold_five_play_then_draw() -> None:
    p = pos("team", {"a": "s,s,s,s,30"}, "5C,7C,9C,TC,2C", counts={"b": 5, "c": 5, "d": 5})
    p2, ev = after(p, "5:a30+5")
    assert [e["type"] for e in ev] == ["play", "move", "draw", "turn"]
    assert "turn=b" in p2 and "cards=5,5,5,5" in p2


# ------------------------------------------------------------------------------------------
# tees


def folds(text: str) -> bool:
    """A tees position whose mover (a) has no legal play (reading it normally folds a)."""
    return RULES.legal_plays(parse_position(text, settle=False)) == []


def test_tees_cards_counted_by_hand() -> None:
    # a10, a30, partner c12, opponent b40; hand A, 3, 5, J.
    # A: come out, a10+1, a30+1. 3: a10-3 goes behind the come-out hole 8 (no); a30-3 ok.
    # 5: a10+5 passes the partner on 12 (no); a30+5 ok. J: a10/a30 with c12/b40.
    p = pos("tees", {"a": "s,s,s,10,30", "b": "s,s,s,s,40", "c": "s,s,s,s,12"}, "AC,3C,5C,JC")
    assert legal(p) == ["A:as", "A:a10+1", "A:a30+1", "3:a30-3", "5:a30+5", "J:a10x12",
                        "J:a10x40", "J:a30x12", "J:a30x40"]


def test_tees_king_only_comes_out_queen_twelve_and_eight_forward() -> None:
    p = pos("tees", {"a": "s,s,s,s,20"}, "8C,QC,KC")
    assert legal(p) == ["8:a20+8", "Q:a20+12", "K:as"]


def test_tees_three_never_behind_come_out_hole() -> None:
    assert folds(pos("tees", {"a": "s,s,s,s,10"}, "3C"))
    assert legal(pos("tees", {"a": "s,s,s,s,11"}, "3C")) == ["3:a11-3"]


def test_tees_lap_ends_at_the_in_spot() -> None:
    # a70: the in-spot 3 is 5 ahead; a 7 must turn in (h2); a Q would overshoot.
    p = pos("tees", {"a": "s,s,s,s,70"}, "7C,QC")
    assert legal(p) == ["7:a70+7h"]
    # From the corner 4..8 go to h1..h5 (tees 8 goes forward).
    for card, home in (("4C", 1), ("5C", 2), ("6C", 3), ("7C", 4), ("8C", 5)):
        q = pos("tees", {"a": "s,s,s,s,0"}, card)
        assert legal(q) == [f"{card[0]}:a0+{card[0]}h"]
        assert pegs_of(after(q, legal(q)[0])[0], "a") == f"s,s,s,s,h{home}"


def test_tees_no_passing_partner_and_last_resort_landing() -> None:
    # a10, partner c15. A 5 lands on c: only legal when nothing else is.
    p = pos("tees", {"a": "s,s,s,s,10", "c": "s,s,s,s,15"}, "5C")
    assert legal(p) == ["5:a10+5"]
    p2, _ = after(p, "5:a10+5")
    assert pegs_of(p2, "c") == "s,s,s,s,s"  # tees: partner goes back to start
    p = pos("tees", {"a": "s,s,s,s,10", "c": "s,s,s,s,15"}, "2C,5C")
    assert legal(p) == ["2:a10+2"]
    with pytest.raises(IllegalPlay, match="last resort"):
        RULES.check(RULES.parse_position(p), 0, "5:a10+5")
    # passing the partner is never allowed (classic allows it)
    p = pos("tees", {"a": "s,s,s,s,10", "c": "s,s,s,s,12"}, "5C")
    assert folds(p)
    p = pos("classic", {"a": "s,s,s,s,10", "c": "s,s,s,s,12"}, "5C")
    assert legal(p) == ["5:a10+5"]


def test_tees_jack_trade_with_partner_is_not_a_last_resort() -> None:
    p = pos("tees", {"a": "s,s,s,s,10", "c": "s,s,s,s,15"}, "JC,5C")
    assert legal(p) == ["J:a10x15"]
    p2, ev = after(p, "J:a10x15")
    assert pegs_of(p2, "a") == "s,s,s,s,15" and pegs_of(p2, "c") == "s,s,s,s,10"
    assert ev[1]["type"] == "trade"


def test_tees_snug_and_three_pulls_back() -> None:
    # h4 and h5 are snug: nothing; h3 with h4 empty is not snug: pulled back onto the in-spot.
    assert folds(pos("tees", {"a": "s,s,s,h4,h5"}, "3C"))
    assert legal(pos("tees", {"a": "s,s,s,h3,h5"}, "3C")) == ["3:ah3-3"]
    assert pegs_of(after(pos("tees", {"a": "s,s,s,h3,h5"}, "3C"), "3:ah3-3")[0], "a") == \
        "s,s,s,3,h5"
    # h4 (h5 empty) -> h1; h1 -> two before the in-spot (1).
    assert pegs_of(after(pos("tees", {"a": "s,s,s,s,h4"}, "3C"), "3:ah4-3")[0], "a") == \
        "s,s,s,s,h1"
    p2, ev = after(pos("tees", {"a": "s,s,s,s,h1"}, "3C"), "3:ah1-3")
    assert pegs_of(p2, "a") == "s,s,s,s,1"
    assert ev[1]["path"] == [3, 2, 1]


def test_tees_finished_player_moves_partner_pegs() -> None:
    p = pos("tees", {"a": "h1,h2,h3,h4,h5", "c": "s,s,s,s,40"}, "5C")
    assert legal(p) == ["5:c40+5"]


def test_tees_fold() -> None:
    # a plays its last card; b holds no A or K and has no peg out: b folds, c moves.
    # Filler: the pack minus a's hand sorted gives 4 discards (the four aces), then b's four
    # cards are the four 2s.
    # c has a peg out on 50 and holds the four 3s: 3:c50-3 is legal for c.
    p = pos("tees", {"a": "s,s,s,s,20", "c": "s,s,s,s,50"}, "5C", counts={"b": 4, "c": 4, "d": 4},
            discards=4)
    p2, ev = after(p, "5:a20+5")
    types = [e["type"] for e in ev]
    assert types == ["play", "move", "fold", "turn"]
    assert ev[2]["seat"] == 1 and sorted(ev[2]["cards"]) == [8, 9, 10, 11]
    assert "turn=c" in p2 and "cards=0,0,4,4" in p2


def test_tees_six_player_deal_four_then_four_leaving_four() -> None:
    from game.rules.cards import Rng

    s, ev = RULES.start({"rules": "tees", "seats": 6}, 11)
    assert ev[0]["type"] == "deal" and ev[0]["counts"] == [4] * 6 and len(s.pile) == 28
    # seats without an A or K fold at once (every peg is in start): their cards go face up
    assert sum(len(h) for h in s.hands) + len(s.discards) == 24
    rng = Rng.from_seed(5)
    seen = []
    while s.turn >= 0 and len(seen) < 3:
        lg = RULES.legal_plays(s)
        s, ev = RULES.apply(s, s.turn, lg[rng.below(len(lg))])
        for e in ev:
            if e["type"] in ("deal", "reshuffle"):
                seen.append((e["type"], e.get("counts"), len(s.pile), e.get("count")))
    assert seen[0][0] == "deal" and seen[0][1] == [4] * 6
    assert seen[1] == ("reshuffle", None, seen[1][2], 52)  # the deck is gathered: all 52
    assert seen[2][0] == "deal" and seen[2][1] == [4] * 6


def test_tees_four_player_rounds_five_four_four() -> None:
    s, ev = RULES.start({"rules": "tees", "seats": 4}, 3)
    assert ev[0] == {"type": "deal", "dealer": 3, "round": 1, "counts": [5] * 4,
                     "hands": ev[0]["hands"]}
    assert len(s.pile) == 32
    # a (left of the dealer d) leads: the first turn or fold is a's
    assert next(e for e in ev if e["type"] in ("turn", "fold"))["seat"] == 0
    from game.rules.cards import Rng

    rng = Rng.from_seed(9)
    deals = []
    while len(deals) < 4:
        lg = RULES.legal_plays(s)
        s, ev = RULES.apply(s, s.turn, lg[rng.below(len(lg))])
        deals += [(e["round"], e["counts"], e["dealer"]) for e in ev if e["type"] == "deal"]
    # rounds 2 and 3 of the first deck (4 then 4), then the next dealer (a) deals 5
    assert deals[:3] == [(2, [4] * 4, 3), (3, [4] * 4, 3), (1, [5] * 4, 0)]


# ------------------------------------------------------------------------------------------
# solo


def test_solo_counts_every_turn_including_discards() -> None:
    p = pos("classic", {}, "5C,7C", seats=1, turns=5)
    assert legal(p) == ["5:x", "7:x"]
    p2, _ = after(p, "7:x")
    assert "turns=6" in p2
    p = pos("classic", {"a": "1,h2,h3,h4,h5"}, "3C", seats=1, turns=40)
    p2, ev = after(p, "3:a1+3h")
    assert ev[-1] == {"type": "game_over", "winners": [0], "team": 0, "turns": 41}
    assert RULES.outcome(RULES.parse_position(p2)) == {"winners": [0], "team": 0, "turns": 41}


# ------------------------------------------------------------------------------------------
# more rules


def test_tees_come_out_onto_partner_is_last_resort_and_onto_opponent_bumps() -> None:
    # c on a's come-out hole 8: K:as lands on the partner, legal only as the last resort.
    p = pos("tees", {"c": "s,s,s,s,8"}, "KC")
    assert legal(p) == ["K:as"]
    assert pegs_of(after(p, "K:as")[0], "c") == "s,s,s,s,s"
    p = pos("tees", {"a": "s,s,s,s,30", "c": "s,s,s,s,8"}, "KC,2C")
    assert legal(p) == ["2:a30+2"]
    p2, ev = after(pos("tees", {"b": "s,s,s,s,8"}, "AC"), "A:as")
    assert pegs_of(p2, "b") == "s,s,s,s,s" and ev[1]["type"] == "come_out"
    assert ev[2]["type"] == "bump" and ev[2]["to"] == "s"


def test_tees_jack_never_trades_start_or_home_pegs() -> None:
    p = pos("tees", {"a": "s,s,s,h1,20", "b": "s,s,s,h2,40"}, "JC")
    assert legal(p) == ["J:a20x40"]


def test_tees_three_lands_on_opponent_bumps_it() -> None:
    p2, _ = after(pos("tees", {"a": "s,s,s,s,30", "d": "s,s,s,s,27"}, "3C"), "3:a30-3")
    assert pegs_of(p2, "a") == "s,s,s,s,27" and pegs_of(p2, "d") == "s,s,s,s,s"


def test_classic_joker_never_targets_own_colour_or_moves_home_pegs() -> None:
    p = pos("classic", {"a": "s,s,h1,20,30"}, "JK")
    assert legal(p) == ["JK:x"]


def test_team_seven_split_over_two_team_colours_and_colour_rules_of_moving_peg() -> None:
    p = pos("team", {"a": "s,s,s,s,10", "c": "s,s,s,12,40"}, "7C")
    toks = legal(p)
    assert "7:a10+3,c40+4" in toks and "7:c40+4,a10+3" in toks
    # a10+7 passes c12 (a partner colour: allowed); c12 cannot be passed by c's own pegs.
    assert "7:a10+7" in toks
    p = pos("team", {"c": "s,s,s,10,12"}, "5C")
    assert legal(p) == ["5:c12+5"]


def test_team_partner_landing_chain_by_moving_colour() -> None:
    # c's peg lands on a (partner of c): a goes to a's in-spot 3.
    p2, _ = after(pos("team", {"a": "s,s,s,s,15", "c": "s,s,s,s,10"}, "5C"), "5:c10+5")
    assert pegs_of(p2, "a") == "s,s,s,s,3" and pegs_of(p2, "c") == "s,s,s,s,15"


def test_classic_six_seat_three_teams_seven_remainder_goes_to_next_partner() -> None:
    # 6 seats, 3 teams: a's partner is d (seat 3). Ring 108: a in-spot 3.
    p = pos("classic", {"a": "1,h2,h3,h4,h5", "d": "s,s,s,s,70"}, "7C", seats=6, mode="teams3")
    assert "7:a1+3h,d70+4" in legal(p)
    p = pos("classic", {"a": "h1,h2,h3,h4,h5", "d": "s,s,s,s,70"}, "5C", seats=6,
            mode="teams3")
    assert legal(p) == ["5:d70+5"]


def test_classic_team_wins_only_when_every_colour_is_home() -> None:
    p = pos("classic", {"a": "1,h2,h3,h4,h5", "c": "s,s,s,s,40"}, "3C")
    p2, ev = after(p, "3:a1+3h")
    assert "game_over" not in [e["type"] for e in ev] and "turn=b" in p2
    p = pos("classic", {"a": "1,h2,h3,h4,h5", "c": "h1,h2,h3,h4,h5"}, "3C")
    p2, ev = after(p, "3:a1+3h")
    assert ev[-1] == {"type": "game_over", "winners": [0, 2], "team": 0}
    assert "turn=- hand=-" in p2
    assert RULES.outcome(RULES.parse_position(p2)) == {"winners": [0, 2], "team": 0}


def test_free_for_all_one_colour_home_wins() -> None:
    p = pos("classic", {"b": "20,h2,h3,h4,h5"}, "5C", seats=3, turn="b")
    # 3 seats: b sits on side 1 (in-spot 21); 20 + 5 -> h4? 1 to the in-spot, 4 in: h4 is taken
    # by b's own peg, so only the ring move stays.
    assert legal(p) == ["5:b20+5"]
    p = pos("classic", {"b": "19,h3,h4,h5,h2"}, "3C", seats=3, turn="b")
    assert legal(p) == ["3:b19+3", "3:b19+3h"]
    _, ev = after(p, "3:b19+3h")
    assert ev[-1] == {"type": "game_over", "winners": [1], "team": 1}


def test_classic_empty_pile_reshuffles_the_discards() -> None:
    p = pos("classic", {"a": "s,s,s,s,30"}, "5C", counts={"b": 5, "c": 5, "d": 5},
            discards=146)
    assert "pile=0" in p
    p2, ev = after(p, "5:a30+5")
    types = [e["type"] for e in ev]
    assert types == ["play", "move", "turn", "reshuffle", "draw"]
    assert ev[3]["count"] == 147  # 146 discards + the 5 just played
    assert "pile=146 discards=0" in p2


def test_parse_position_refuses_bad_text() -> None:
    from game.rules.api import NotationError

    good = pos("classic", {"a": "s,s,s,s,30"}, "5C")
    RULES.parse_position(good)
    for bad, words in [
        (good.replace("a:s,s,s,s,30", "a:s,s,s,30"), "5 pegs"),
        (good.replace("a:s,s,s,s,30", "a:s,s,s,s,72"), "not s, a hole"),
        (good.replace("b:s,s,s,s,s", "b:s,s,s,s,30"), "share hole 30"),
        (good.replace("hand=5C", "hand=5C,5D"), "holds 2 cards"),
        (good.replace("hand=5C", "hand=ZZ"), "hand="),
        (good.replace("pile=161", "pile=160"), "pack has 162"),
        (good.replace("turn=a", "turn=q"), "colour letter"),
        (good.replace("classic 4", "classic 5"), "bad game"),
        (good + " extra=1", "unexpected"),
        (good.replace(" jokers=on", ""), "lacks jokers"),
        ("", "starts with rules"),
    ]:
        with pytest.raises(NotationError, match=words):
            RULES.parse_position(bad)


def test_tees_number_cards_move_their_value() -> None:
    # a20: 2 -> 22, 4..10 -> 24..30; no A/K come-out here because a's come-out hole holds a.
    p = pos("tees", {"a": "s,s,s,8,20"}, "2C,4C,5C,6C,7C,8C,9C,TC")
    assert legal(p) == ["2:a8+2", "2:a20+2", "4:a8+4", "4:a20+4", "5:a8+5", "5:a20+5",
                        "6:a8+6", "6:a20+6", "7:a8+7", "7:a20+7", "8:a8+8", "8:a20+8",
                        "9:a8+9", "9:a20+9", "T:a8+10", "T:a20+10"]
    # a8 with a 12 lands on a20: own, not allowed; a K cannot come out onto its own peg.
    assert legal(pos("tees", {"a": "s,s,s,8,20"}, "QC,KC")) == ["Q:a20+12"]


def test_team_eight_back_and_face_cards_on_any_team_peg() -> None:
    p = pos("team", {"a": "s,s,s,s,30", "c": "h1,h2,h3,h4,50"}, "8C,KC")
    assert legal(p) == ["8:a30-8", "8:c50-8", "K:as", "K:a30+10", "K:c50+10"]


def test_tees_used_up_deck_passes_to_next_dealer() -> None:
    # Round 3 of 3 was the last round of d's deck (4 seats: 5, 4, 4). When a plays its last
    # card every hand is empty: the deck passes to a, is reshuffled (all 52), a deals 5 each
    # and b (left of a) leads.
    p = pos("tees", {"a": "s,s,s,s,20"}, "5C", discards=51, rnd=3)
    p2, ev = after(p, "5:a20+5")
    assert [e["type"] for e in ev][2:4] == ["reshuffle", "deal"]
    assert ev[2]["count"] == 52 and ev[3]["counts"] == [5, 5, 5, 5] and ev[3]["dealer"] == 0
    assert "dealer=a round=1" in p2 and "pile=32" in p2
    assert next(e for e in ev if e["type"] in ("turn", "fold"))["seat"] == 1
