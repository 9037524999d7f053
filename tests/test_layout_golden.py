"""Golden positions of the layout game, each worked out by hand from spec/layout.md.

Positions are written in the full notation (docs/notation.md, "The layout game"): places from
1, ``?XX`` a face-down card, piles bottom first (the last card is the top). Every expected
result below was derived on paper from the rules, not from the engine's output.
"""

from __future__ import annotations

from collections import Counter

import pytest

from game.rules.api import IllegalPlay
from game.rules.cards import parse_card
from game.rules.layout import RULES, format_position, parse_position
from game.rules.layout.__main__ import event_text

# Seat 1's layout in most two-seat positions: ten face-down spades/diamonds that never move.
P1 = "?AS,?2S,?3S,?4S,?5S,?6D,?7S,?8S,?9D,?TD"


def pos(**f: str | int) -> str:
    """A full position with defaults for every field not given (plain text formatting)."""
    d: dict[str, str | int] = {
        "seats": 2, "wild": "J", "lastchance": 0, "upcard": 0, "size": 10, "first": "-",
        "seed": 0, "hand": 1, "leader": 0, "turn": 0, "phase": "source", "hold": "-",
        "passes": 0, "ply": 0, "rng": 1, "last": "-", "sizes": "10,10",
    }
    d.update({k: v for k, v in f.items() if k in d})
    seats = int(d["seats"])
    text = "layout " + " ".join(f"{k}={v}" for k, v in d.items())
    for s in range(seats):
        text += f" p{s}={f[f'p{s}']}"
    return text + f" stock={f.get('stock', '-')} discard={f.get('discard', '-')}"


def run(text: str, *plays: str) -> tuple[str, list[str]]:
    """Apply plays (each by the seat to move); return the final full position and the events."""
    st = parse_position(text)
    assert format_position(st) == text, "the test's own position must be in canonical form"
    events: list[str] = []
    for p in plays:
        seat = RULES.to_move(st)
        assert seat is not None
        st, ev = RULES.apply(st, seat, p)
        events += [event_text(e) for e in ev]
    return format_position(st), events


def test_chain_of_placements() -> None:
    # 3D -> place 3 (hides 2H) -> place 2 (hides 5C) -> place 5 (hides TS) -> place 10 (hides
    # KD) -> a King stops the turn and is discarded.
    p0 = "?7H,?5C,?2H,?9S,?TS,?QH,?4D,?8C,?6S,?KD"
    start = pos(p0=p0, p1=P1, stock="4H,3D")
    assert [str(p) for p in RULES.legal_plays(parse_position(start))] == ["S"]
    end, ev = run(start, "S")
    assert end == pos(
        turn=1, ply=1, p0="?7H,2H,3D,?9S,5C,?QH,?4D,?8C,?6S,TS", p1=P1, stock="4H",
        discard="KD",
    )
    assert ev == [
        "drawn seat=0 source=stock card=3D",
        "placed seat=0 place=3 card=3D", "revealed seat=0 place=3 card=2H",
        "placed seat=0 place=2 card=2H", "revealed seat=0 place=2 card=5C",
        "placed seat=0 place=5 card=5C", "revealed seat=0 place=5 card=TS",
        "placed seat=0 place=10 card=TS", "revealed seat=0 place=10 card=KD",
        "discarded seat=0 card=KD reason=stopper",
        "turn seat=1",
    ]


def test_queen_ends_the_turn_at_once_from_the_discard_pile() -> None:
    p0 = "?7H,?5C,?2H,?9S,?TS,?KH,?4D,?8C,?6S,?KD"
    start = pos(p0=p0, p1=P1, stock="4H,3D", discard="2C,QD")
    assert [str(p) for p in RULES.legal_plays(parse_position(start))] == ["S", "D"]
    end, ev = run(start, "D")
    # The Queen comes off the pile and goes straight back: only the turn and ply change.
    assert end == pos(turn=1, ply=1, p0=p0, p1=P1, stock="4H,3D", discard="2C,QD")
    assert ev == [
        "drawn seat=0 source=discard card=QD",
        "discarded seat=0 card=QD reason=stopper",
        "turn seat=1",
    ]


def test_number_whose_place_is_already_natural_stops() -> None:
    # Place 4 already holds the natural 4D, so the drawn 4H stops the turn.
    p0 = "?7H,?5C,?2H,4D,?TS,?KH,?QD,?8C,?6S,?KD"
    end, ev = run(pos(p0=p0, p1=P1, stock="3D,4H"), "S")
    assert end == pos(turn=1, ply=1, p0=p0, p1=P1, stock="3D", discard="4H")
    assert ev[-2:] == ["discarded seat=0 card=4H reason=filled", "turn seat=1"]
    # ... and the same 4H is live for seat 1, whose place 4 is face down: it goes there.
    st = parse_position(end)
    assert [str(p) for p in RULES.legal_plays(st)] == ["S", "D"]
    st, ev2 = RULES.apply(st, 1, "D")
    assert [event_text(e) for e in ev2][:3] == [
        "drawn seat=1 source=discard card=4H",
        "placed seat=1 place=4 card=4H", "revealed seat=1 place=4 card=4S",
    ]
    # 4S -> place 4 is now natural -> it stops.
    assert [event_text(e) for e in ev2][3:] == [
        "discarded seat=1 card=4S reason=filled", "turn seat=0",
    ]


def test_a_ten_is_dead_for_a_nine_place_layout_and_live_for_a_ten_place_one() -> None:
    # Seat 0 has won a hand (size 9); seat 1 still has ten places.
    p0 = "?7H,?5C,?2H,?4D,?9C,?KH,?QD,?8C,?6S"
    start = pos(sizes="9,10", p0=p0, p1=P1, stock="3D", discard="TH")
    end, ev = run(start, "D")  # taking a dead card is legal: it goes straight back
    assert end == pos(sizes="9,10", turn=1, ply=1, p0=p0, p1=P1, stock="3D", discard="TH")
    assert ev == [
        "drawn seat=0 source=discard card=TH", "discarded seat=0 card=TH reason=dead",
        "turn seat=1",
    ]
    end2, ev2 = run(end, "D")
    # Seat 1: TH -> place 10 (hides TD) -> TD finds place 10 natural -> stop.
    assert end2 == pos(
        sizes="9,10", turn=0, ply=2, p0=p0, p1="?AS,?2S,?3S,?4S,?5S,?6D,?7S,?8S,?9D,TH",
        stock="3D", discard="TD",
    )
    assert ev2[1:3] == ["placed seat=1 place=10 card=TH", "revealed seat=1 place=10 card=TD"]


def test_a_jack_goes_to_the_chosen_face_down_place() -> None:
    # Places 2 and 4 are face up; the Jack may go to any of the eight face-down places.
    p0 = "?7H,2H,?5C,4D,?9C,?KH,?QD,?8C,?6S,?3C"
    st = parse_position(pos(p0=p0, p1=P1, stock="TH,JC"))
    st, ev = RULES.apply(st, 0, "S")
    assert [event_text(e) for e in ev] == ["drawn seat=0 source=stock card=JC"]
    assert RULES.to_move(st) == 0
    assert [str(p) for p in RULES.legal_plays(st)] == ["W1", "W3", "W5", "W6", "W7", "W8",
                                                        "W9", "W10"]
    with pytest.raises(IllegalPlay, match="face up"):
        RULES.check(st, 0, "W2")
    assert format_position(st) == pos(
        phase="wild", hold="JC", ply=1, p0=p0, p1=P1, stock="TH")
    # J -> place 10 (hides 3C) -> place 3 (hides 5C) -> place 5 (hides 9C) -> place 9 (hides
    # 6S) -> place 6 (hides KH) -> stop.
    end, ev = run(format_position(st), "J10")  # J10 is accepted for W10 when Jacks are wild
    assert end == pos(
        turn=1, ply=2, p0="?7H,2H,3C,4D,5C,6S,?QD,?8C,9C,JC", p1=P1, stock="TH", discard="KH",
    )
    assert ev == [
        "wild_placed seat=0 place=10 card=JC", "revealed seat=0 place=10 card=3C",
        "placed seat=0 place=3 card=3C", "revealed seat=0 place=3 card=5C",
        "placed seat=0 place=5 card=5C", "revealed seat=0 place=5 card=9C",
        "placed seat=0 place=9 card=9C", "revealed seat=0 place=9 card=6S",
        "placed seat=0 place=6 card=6S", "revealed seat=0 place=6 card=KH",
        "discarded seat=0 card=KH reason=stopper", "turn seat=1",
    ]


def test_a_number_displaces_a_jack_and_the_jack_moves_on() -> None:
    # Place 6 holds a face-up Jack. 6C takes it back; the Jack is in hand again.
    p0 = "?7H,2H,?5C,4D,?9C,JD,?QD,?8C,?KH,?3C"
    end, ev = run(pos(p0=p0, p1=P1, stock="TH,6C"), "S")
    assert end == pos(
        phase="wild", hold="JD", ply=1, p0="?7H,2H,?5C,4D,?9C,6C,?QD,?8C,?KH,?3C", p1=P1,
        stock="TH",
    )
    assert ev == [
        "drawn seat=0 source=stock card=6C",
        "placed seat=0 place=6 card=6C", "wild_displaced seat=0 place=6 card=JD",
    ]
    # The Jack to place 1 (hides 7H) -> place 7 (hides QD) -> stop.
    end2, ev2 = run(end, "W1")
    assert end2 == pos(
        turn=1, ply=2, p0="JD,2H,?5C,4D,?9C,6C,7H,?8C,?KH,?3C", p1=P1, stock="TH",
        discard="QD",
    )
    assert ev2[:4] == [
        "wild_placed seat=0 place=1 card=JD", "revealed seat=0 place=1 card=7H",
        "placed seat=0 place=7 card=7H", "revealed seat=0 place=7 card=QD",
    ]


def test_completing_a_layout_mid_chain_ends_the_hand_and_the_winner_leads() -> None:
    # Seat 0 (size 3) has the natural Ace; 2H -> place 2 (hides 3C) -> place 3 (hides 2C):
    # no face-down place left, the hand is won at once (2C is laid on the pile).
    start = pos(sizes="3,10", turn=0, p0="AD,?3C,?2C", p1=P1, stock="9H,2H")
    st0 = parse_position(start)
    st, ev = RULES.apply(st0, 0, "S")
    texts = [event_text(e) for e in ev]
    assert texts[:8] == [
        "drawn seat=0 source=stock card=2H",
        "placed seat=0 place=2 card=2H", "revealed seat=0 place=2 card=3C",
        "placed seat=0 place=3 card=3C", "revealed seat=0 place=3 card=2C",
        "discarded seat=0 card=2C reason=complete",
        "completed seat=0 last_chance=0",
        "hand_won hand=1 winners=0 sizes=2,10 leader=0",
    ]
    assert texts[8].startswith("dealt hand=2 sizes=2,10 leader=0 stock=40 upcard=-")
    assert texts[9:] == ["turn seat=0"]
    # A fresh, full pack is dealt: 2 + 10 face-down places and a 40-card stock.
    assert st.sizes == [2, 10] and st.hand == 2 and st.turn == 0 and st.leader == 0
    assert [len(p) for p in st.lay] == [2, 10] and all(v < 64 for p in st.lay for v in p)
    assert len(st.stock) == 40 and st.disc == []
    every = Counter(st.stock)
    for p in st.lay:
        every.update(p)
    assert every == Counter(r * 4 + s for r in range(1, 14) for s in range(4))


def test_the_reshuffle_keeps_the_top_discard() -> None:
    # Empty stock; pile 5H, 9C, KS (KS on top). Seat 0 has 5 and 9 natural already, so
    # whichever card of 5H/9C the new stock yields is discarded at once.
    p0 = "?7H,2H,?5C,4D,5D,?6C,?QD,?8C,9S,?3C"
    st = parse_position(pos(p0=p0, p1=P1, discard="5H,9C,KS"))
    st2, ev = RULES.apply(st, 0, "S")
    texts = [event_text(e) for e in ev]
    assert texts[0] == "reshuffled stock=2 top=KS"
    drawn = parse_card(texts[1].rsplit("=", 1)[1])
    other = ({parse_card("5H"), parse_card("9C")} - {drawn}).pop()
    assert texts[1] == f"drawn seat=0 source=stock card={texts[1].rsplit('=', 1)[1]}"
    assert drawn in (parse_card("5H"), parse_card("9C"))
    assert st2.disc == [parse_card("KS"), drawn] and st2.stock == [other]
    assert st2.lay == st.lay and st2.turn == 1


def test_kings_wild_makes_jacks_stop_and_kings_wild() -> None:
    p0 = "?7H,2H,?5C,4D,?9C,?6C,?QD,?8C,?KH,?3C"
    start = pos(wild="K", p0=p0, p1=P1, stock="KS,JC")
    end, ev = run(start, "S")  # JC: a stopper when Kings are wild
    assert ev[:2] == ["drawn seat=0 source=stock card=JC",
                      "discarded seat=0 card=JC reason=stopper"]
    end, ev = run(end, "D")  # seat 1 takes the Jack back: also a stopper for them
    assert ev[1] == "discarded seat=1 card=JC reason=stopper"
    st = parse_position(end)
    st, ev3 = RULES.apply(st, 0, "S")  # KS is wild: choose a place
    assert [event_text(e) for e in ev3] == ["drawn seat=0 source=stock card=KS"]
    assert st.phase == 1 and [str(p) for p in RULES.legal_plays(st)] == [
        "W1", "W3", "W5", "W6", "W7", "W8", "W9", "W10"]
    with pytest.raises(Exception, match="Kings are wild"):
        RULES.check(st, 0, "J3")
    # K -> place 9 (hides KH, also wild) -> the second King needs a place too.
    st, ev4 = RULES.apply(st, 0, "K9")
    assert [event_text(e) for e in ev4] == [
        "wild_placed seat=0 place=9 card=KS", "revealed seat=0 place=9 card=KH",
    ]
    assert format_position(st) == pos(
        wild="K", phase="wild", hold="KH", ply=4, p0="?7H,2H,?5C,4D,?9C,?6C,?QD,?8C,KS,?3C",
        p1=P1, discard="JC",
    )
    # KH -> place 5 (hides 9C) -> 9C goes to place 9, which holds the face-up KS: the number
    # displaces the King, which needs a face-down place in turn.
    st, ev5 = RULES.apply(st, 0, "W5")
    assert [event_text(e) for e in ev5] == [
        "wild_placed seat=0 place=5 card=KH", "revealed seat=0 place=5 card=9C",
        "placed seat=0 place=9 card=9C", "wild_displaced seat=0 place=9 card=KS",
    ]
    assert st.phase == 1 and st.hold == parse_card("KS")
    assert [str(p) for p in RULES.legal_plays(st)] == ["W1", "W3", "W6", "W7", "W8", "W10"]


def test_starting_upcard_and_starting_size() -> None:
    st = RULES.new_game({"seats": 3, "upcard": True, "layout_size": 4, "first_leader": 2}, 11)
    # 3 seats: two decks (104 cards); 3 x 4 face down, one upcard, 91 in the stock.
    assert st.sizes == [4, 4, 4] and [len(p) for p in st.lay] == [4, 4, 4]
    assert len(st.disc) == 1 and len(st.stock) == 104 - 12 - 1
    assert RULES.to_move(st) == 2 and [str(p) for p in RULES.legal_plays(st)] == ["S", "D"]
    plain = RULES.new_game({"seats": 3, "layout_size": 4, "first_leader": 2}, 11)
    assert plain.disc == [] and len(plain.stock) == 92
    assert [str(p) for p in RULES.legal_plays(plain)] == ["S"]
    view = RULES.view(st, 0)
    assert view["won"] == [0, 0, 0] and view["sizes"] == [4, 4, 4]


def test_last_chance_everyone_else_gets_one_more_turn() -> None:
    # Three seats, last chance on. Seat 0 (size 1, ?4C) draws AC and completes. Seats 1 and 2
    # each get exactly one more turn: seat 1 (size 4, places 1-3 natural) draws 4H from the
    # stock and completes too; seat 2 draws KD and just discards it.
    p1 = "AH,2D,3H,?9S"
    p2 = "?5S,?6S,?7S,?8S,?TD,?6H,?9C,?8D,?TC,?QC"
    start = pos(seats=3, lastchance=1, sizes="1,4,10", p0="?4C", p1=p1, p2=p2,
                stock="KD,4H,AC")
    end_st = parse_position(start)
    end_st, ev = RULES.apply(end_st, 0, "S")
    assert [event_text(e) for e in ev] == [
        "drawn seat=0 source=stock card=AC",
        "placed seat=0 place=1 card=AC", "revealed seat=0 place=1 card=4C",
        "discarded seat=0 card=4C reason=complete",
        "completed seat=0 last_chance=1",
        "turn seat=1",
    ]
    assert end_st.lc_first == 0 and end_st.sizes == [1, 4, 10]
    # Seat 1 takes 4H from the stock: 4H -> place 4 (hides 9S) -> complete.
    end_st, ev = RULES.apply(end_st, 1, "S")
    assert [event_text(e) for e in ev] == [
        "drawn seat=1 source=stock card=4H",
        "placed seat=1 place=4 card=4H", "revealed seat=1 place=4 card=9S",
        "discarded seat=1 card=9S reason=complete",
        "completed seat=1 last_chance=1",
        "turn seat=2",
    ]
    assert format_position(end_st).split(" last=")[1].startswith("0:0.1:2 ")
    # Seat 2's last turn: KD stops. Then the hand ends: seats 0 and 1 drop a card; seat 0
    # reaches size 0 and wins the game (seat 1, down to 3, does not).
    end_st, ev = RULES.apply(end_st, 2, "S")
    assert [event_text(e) for e in ev] == [
        "drawn seat=2 source=stock card=KD",
        "discarded seat=2 card=KD reason=stopper",
        "hand_won hand=1 winners=0,1 sizes=0,3,10 leader=0",
        "game_won winners=0",
    ]
    assert RULES.to_move(end_st) is None
    assert RULES.outcome(end_st) == {"winners": [0], "sizes": [0, 3, 10], "hands": 1}


def test_last_chance_when_nobody_else_completes_the_first_leads_the_next_hand() -> None:
    p1 = "?AH,?2D,?3H,?9S"
    start = pos(seats=3, lastchance=1, sizes="2,4,10", p0="AD,?KC", p1=p1,
                p2="?5S,?6S,?7S,?8S,?TD,?6H,?9C,?8D,?TC,?QC", stock="QD,QH,2C")
    st, ev = RULES.apply(parse_position(start), 0, "S")  # 2C -> place 2 (hides KC): done
    assert [event_text(e) for e in ev][-2:] == ["completed seat=0 last_chance=1", "turn seat=1"]
    st, _ = RULES.apply(st, 1, "S")  # QH stops
    st, ev = RULES.apply(st, 2, "S")  # QD stops; hand over
    texts = [event_text(e) for e in ev]
    assert texts[2] == "hand_won hand=1 winners=0 sizes=1,4,10 leader=0"
    assert texts[3].startswith("dealt hand=2 sizes=1,4,10 leader=0 stock=89 ")
    assert st.turn == 0 and st.lc_first == -1


def test_exhausted_stock_and_discards_the_lone_card_is_taken_only_if_live() -> None:
    # Seat 1 draws the last stock card 4H; its place 4 is natural, so 4H is the lone discard.
    # For seat 0 (place 4 face down) it is live: the only legal play is D.
    p0 = "?7H,2H,?5C,?KC,?9C,?6C,?QD,?8C,?KH,?3C"
    p1 = "?AS,?2S,?3S,4S,?5S,?6D,?7S,?8S,?9D,?TD"
    st = parse_position(pos(turn=1, p0=p0, p1=p1, stock="4H"))
    st, ev = RULES.apply(st, 1, "S")
    assert [event_text(e) for e in ev] == [
        "drawn seat=1 source=stock card=4H", "discarded seat=1 card=4H reason=filled",
        "turn seat=0",
    ]
    assert [str(p) for p in RULES.legal_plays(st)] == ["D"]
    with pytest.raises(IllegalPlay, match="exhausted"):
        RULES.check(st, 0, "S")
    before = format_position(st)
    st2, ev = RULES.apply(st, 0, "D")  # 4H -> place 4 (hides KC) -> stop
    assert format_position(st) == before  # apply never changes its input
    assert [event_text(e) for e in ev][:3] == [
        "drawn seat=0 source=discard card=4H", "placed seat=0 place=4 card=4H",
        "revealed seat=0 place=4 card=KC",
    ]
    # Now KC is the lone card: dead for both. Seat 1 passes, seat 0 passes: the hand is dead
    # and dealt again (a full pack) by the same leader.
    texts = [event_text(e) for e in ev][3:]
    assert texts[:6] == [
        "discarded seat=0 card=KC reason=stopper",
        "turn seat=1", "passed seat=1", "turn seat=0", "passed seat=0", "hand_dead hand=1",
    ]
    assert texts[6].startswith("dealt hand=2 sizes=10,10 leader=0 stock=32")
    assert texts[7:] == ["turn seat=0"]
    assert st2.hand == 2 and len(st2.stock) == 32 and st2.sizes == [10, 10]


def test_a_one_place_layout_filled_by_an_ace_wins_the_game() -> None:
    start = pos(sizes="1,10", p0="?7S", p1="?AS,?2S,?3S,?4S,?5S,?6D,?7H,?8S,?9D,?TD",
                stock="AH")
    end, ev = run(start, "S")
    assert ev == [
        "drawn seat=0 source=stock card=AH",
        "placed seat=0 place=1 card=AH", "revealed seat=0 place=1 card=7S",
        "discarded seat=0 card=7S reason=complete", "completed seat=0 last_chance=0",
        "hand_won hand=1 winners=0 sizes=0,10 leader=0", "game_won winners=0",
    ]
    st = parse_position(end)
    assert RULES.to_move(st) is None and RULES.legal_plays(st) == []
    assert RULES.outcome(st) == {"winners": [0], "sizes": [0, 10], "hands": 1}


def test_a_one_place_layout_filled_by_a_wild_wins_the_game_without_a_choice() -> None:
    # One face-down place: the Jack has only one place to go, so the engine plays it.
    start = pos(sizes="1,10", turn=1, p0="?7S",
                p1="?AS,?2S,?3S,?4S,?5S,?6D,?7H,?8S,?9D,?TD", stock="JD,KC")
    st = parse_position(start)
    st, _ = RULES.apply(st, 1, "S")  # KC: stop
    st, ev = RULES.apply(st, 0, "S")
    assert [event_text(e) for e in ev] == [
        "drawn seat=0 source=stock card=JD",
        "wild_placed seat=0 place=1 card=JD", "revealed seat=0 place=1 card=7S",
        "discarded seat=0 card=7S reason=complete", "completed seat=0 last_chance=0",
        "hand_won hand=1 winners=0 sizes=0,10 leader=0", "game_won winners=0",
    ]


def test_last_chance_turn_passes_when_the_lone_discard_is_dead() -> None:
    # Seat 0 (size 2, natural Ace) draws the last stock card 2C: 2C -> place 2 (hides 7S),
    # complete; 7S is the lone discard. Seat 1's one last turn: its place 7 holds 7H, so 7S is
    # dead for it and the stock is empty: the turn passes and the hand ends.
    start = pos(lastchance=1, sizes="2,10", p0="AD,?7S",
                p1="?AS,?2S,?3S,?4S,?5S,?6D,7H,?8S,?9D,?TD", stock="2C")
    st, ev = RULES.apply(parse_position(start), 0, "S")
    texts = [event_text(e) for e in ev]
    assert texts[:9] == [
        "drawn seat=0 source=stock card=2C",
        "placed seat=0 place=2 card=2C", "revealed seat=0 place=2 card=7S",
        "discarded seat=0 card=7S reason=complete", "completed seat=0 last_chance=1",
        "turn seat=1", "passed seat=1",
        "hand_won hand=1 winners=0 sizes=1,10 leader=0",
        "dealt hand=2 sizes=1,10 leader=0 stock=41 upcard=-",
    ]
    assert texts[9:] == ["turn seat=0"]
    # The same, but seat 1's place 7 is face down: 7S is live and D is its only play.
    live = start.replace("?6D,7H,", "?6D,?7H,")
    st, ev = RULES.apply(parse_position(live), 0, "S")
    assert [event_text(e) for e in ev][-1] == "turn seat=1"
    assert [str(p) for p in RULES.legal_plays(st)] == ["D"] and st.lc_left == [1]
    st, ev = RULES.apply(st, 1, "D")  # 7S -> place 7 (hides 7H) -> filled -> last turn over
    assert [event_text(e) for e in ev][:5] == [
        "drawn seat=1 source=discard card=7S", "placed seat=1 place=7 card=7S",
        "revealed seat=1 place=7 card=7H", "discarded seat=1 card=7H reason=filled",
        "hand_won hand=1 winners=0 sizes=1,10 leader=0",
    ]


def test_two_seats_complete_in_a_last_chance_round_the_first_leads_next() -> None:
    # Seat 1 (size 2) completes first with 2C (place 2 hides 5D); seat 2 passes its turn with
    # a Queen; seat 0 (size 3) completes with 3H (place 3 hides 9C). Both drop a place; seat 1,
    # the first to complete, leads the next hand.
    start = pos(seats=3, lastchance=1, sizes="3,2,10", turn=1, leader=2, p0="AH,2H,?9C",
                p1="AD,?5D", p2="?5S,?6S,?7S,?8S,?TD,?6H,?9S,?8D,?TC,?QC",
                stock="KD,3H,QH,2C")
    st = parse_position(start)
    st, ev = RULES.apply(st, 1, "S")
    assert [event_text(e) for e in ev][-3:] == [
        "discarded seat=1 card=5D reason=complete", "completed seat=1 last_chance=1",
        "turn seat=2",
    ]
    st, ev = RULES.apply(st, 2, "S")
    assert [event_text(e) for e in ev] == [
        "drawn seat=2 source=stock card=QH", "discarded seat=2 card=QH reason=stopper",
        "turn seat=0",
    ]
    st, ev = RULES.apply(st, 0, "S")
    texts = [event_text(e) for e in ev]
    assert texts[:6] == [
        "drawn seat=0 source=stock card=3H",
        "placed seat=0 place=3 card=3H", "revealed seat=0 place=3 card=9C",
        "discarded seat=0 card=9C reason=complete", "completed seat=0 last_chance=1",
        "hand_won hand=1 winners=1,0 sizes=2,1,10 leader=1",
    ]
    assert texts[6].startswith("dealt hand=2 sizes=2,1,10 leader=1 ")
    assert texts[7:] == ["turn seat=1"]


def test_a_number_is_live_where_a_wild_card_lies_even_from_an_exhausted_pile() -> None:
    # Seat 1 draws the last stock card 6C, dead for it (place 6 natural). For seat 0, place 6
    # holds a Jack: 6C is live, so D is seat 0's only play, and it takes the Jack back.
    p0 = "?7H,2H,?5C,?KC,?9C,JC,?QD,?8C,?KH,?3C"
    p1 = "?AS,?2S,?3S,?4S,?5S,6D,?7S,?8S,?9D,?TD"
    st = parse_position(pos(turn=1, p0=p0, p1=p1, stock="6C"))
    st, _ = RULES.apply(st, 1, "S")
    assert [str(p) for p in RULES.legal_plays(st)] == ["D"]
    st, ev = RULES.apply(st, 0, "D")
    assert [event_text(e) for e in ev] == [
        "drawn seat=0 source=discard card=6C",
        "placed seat=0 place=6 card=6C", "wild_displaced seat=0 place=6 card=JC",
    ]
    assert [str(p) for p in RULES.legal_plays(st)] == ["W1", "W3", "W4", "W5", "W7", "W8",
                                                        "W9", "W10"]
