"""The track choice in progress (card -> peg -> hole, split -> second peg -> remainder), with
no pygame: the rules' real legal plays of a hand-written position, and a few made-up plays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.client.choice import Part, TrackChoice, part, part_tag
from game.rules.track import RULES as TRACK

# Red (colour 0) to play with 2C..7C; Red's pegs 3 and 4 on ring holes 12 and 20
POSITION = (
    "classic 4 teams2 jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,s c:s,s,s,s,s d:s,s,s,s,s "
    "turn=a hand=2C,3C,4C,5C,6C,7C cards=6,5,5,5 pile=141 discards=0"
)
HAND = [r << 2 for r in range(2, 8)]  # only the ranks matter: 2..7
A12, A20 = (0, 12), (0, 20)


def legal() -> list[Any]:
    return TRACK.legal_plays(TRACK.parse_position(POSITION))


@dataclass
class FakePlay:
    rank: int
    parts: tuple[tuple[str, int, Any, Any, int], ...]
    token: str

    def __str__(self) -> str:
        return self.token


def test_parts_are_read_by_name() -> None:
    p = next(p for p in legal() if str(p) == "7:a12+3,a20+4")
    assert part(p, 0) == Part("f", 0, 3, 12, 15, 3)
    assert part(p, 1).peg == A20 and part(p, 1).target == (0, 4, 24)
    assert [part_tag(k, 4) for k in "fbojtx"] == ["+4", "-4", "out", "jump", "swap", "discard"]


def test_a_card_that_moves_one_peg_shows_its_holes_at_once() -> None:
    def plays_of(red: str) -> list[Any]:
        return TRACK.legal_plays(TRACK.parse_position(
            f"classic 4 teams2 jokers=on seven=on a:{red} b:s,s,s,s,s c:s,s,s,s,s "
            "d:s,s,s,s,s turn=a hand=2C,KC cards=2,5,5,5 pile=145 discards=0"))

    hand = [2 << 2, 13 << 2]
    ch = TrackChoice()
    # every peg in start: the King brings one out (the pegs in start are one choice)
    assert ch.pick_card(1, hand, plays_of("s,s,s,s,s"))
    assert ch.peg is not None and [k for k, _ in ch.options()] == ["hole"]
    kind, play = ch.take()  # Enter: the one hole
    assert (kind, str(play)) == ("play", "K:as")
    # a peg on 30 too: the King moves either (out, or 30 + 10): the person picks the peg
    plays = plays_of("s,s,s,s,30")
    assert ch.pick_card(1, hand, plays) and ch.peg is None and len(ch.movable_pegs()) == 2
    # the 2 moves only the peg on 30 (a 2 does not bring a peg out in classic)
    assert ch.pick_card(0, hand, plays)
    assert ch.peg == (0, 30) and [t.tag for t in ch.targets()] == ["+2"]
    assert ch.back() and ch.card is None and ch.peg is None  # the card and its peg go at once


def test_nothing_is_offered_before_a_card_is_picked() -> None:
    ch = TrackChoice()
    assert ch.movable_pegs() == set() and ch.targets() == [] and ch.options() == []
    assert ch.take() == ("none", None) and ch.back() is False


def test_card_then_peg_then_hole_gives_the_whole_play() -> None:
    ch = TrackChoice()
    assert ch.pick_card(0, HAND, legal())  # the 2
    assert ch.movable_pegs() == {A12, A20}
    assert ch.targets() == []  # no peg yet: the pegs are the options
    assert ch.options() == [("peg", A12), ("peg", A20)]
    assert not ch.choose_peg((0, 13)), "not a peg that can move"
    assert ch.choose_peg(A20)
    [t] = ch.targets()
    assert (t.where, t.tag, [str(p) for p in t.plays]) == ((0, 4, 22), "+2", ["2:a20+2"])
    kind, play = ch.choose_target((0, 4, 22))
    assert kind == "play" and str(play) == "2:a20+2"
    assert ch.choose_target((0, 4, 23)) == ("none", None)


def test_a_seven_short_of_its_count_starts_a_split_and_picks_the_only_second_peg() -> None:
    ch = TrackChoice()
    assert ch.pick_card(5, HAND, legal())  # the 7
    ch.choose_peg(A12)
    # peg 12 can go 1..7 holes: 13..19, in count order
    assert [(t.where[2], t.tag) for t in ch.targets()] == [(12 + n, f"+{n}") for n in
                                                            range(1, 8)]
    assert ch.choose_target((0, 3, 15)) == ("split", None)
    assert ch.first == (A12, 15) and ch.peg2 == A20  # the only peg that can take the 4
    assert [str(p) for p in ch.split_plays()] == ["7:a12+3,a20+4"]
    [t] = ch.targets()
    assert (t.where, t.tag) == ((0, 4, 24), "+4")
    kind, play = ch.choose_target((0, 4, 24))
    assert (kind, str(play)) == ("play", "7:a12+3,a20+4")


def test_the_full_seven_on_one_peg_plays_at_once() -> None:
    ch = TrackChoice()
    ch.pick_card(5, HAND, legal())
    ch.choose_peg(A20)
    kind, play = ch.choose_target((0, 4, 27))
    assert (kind, str(play)) == ("play", "7:a20+7")


def test_back_steps_one_at_a_time() -> None:
    ch = TrackChoice()
    ch.pick_card(5, HAND, legal())
    ch.choose_peg(A12)
    ch.choose_target((0, 3, 15))
    assert ch.back() and ch.first is not None and ch.peg2 is None  # the second peg
    assert ch.back() and ch.first is None and ch.peg == A12  # the first part
    assert ch.back() and ch.peg is None and ch.card == 5  # the peg
    assert ch.back() and ch.card is None and ch.plays == []  # the card
    assert not ch.back()


def test_the_keyboard_cursor_cycles_and_takes() -> None:
    ch = TrackChoice()
    ch.pick_card(1, HAND, legal())  # the 3
    assert ch.under_cursor() == ("peg", A12)
    assert ch.move_cursor(1) and ch.under_cursor() == ("peg", A20)
    assert ch.move_cursor(1) and ch.under_cursor() == ("peg", A12)  # wraps
    assert ch.move_cursor(-1) and ch.under_cursor() == ("peg", A20)
    assert ch.take() == ("peg", A20) and ch.peg == A20 and ch.cursor == 0
    assert ch.under_cursor() == ("hole", (0, 4, 23))
    kind, play = ch.take()
    assert (kind, str(play)) == ("play", "3:a20+3")


def test_a_card_with_no_play_and_a_discard() -> None:
    ch = TrackChoice()
    assert not ch.pick_card(0, [9 << 2], legal()), "no 9 in the legal plays"
    assert ch.card is None and ch.movable_pegs() == set(), "a card with no play is not picked"
    x = FakePlay(9, (("x", -1, 0, 0, 0),), "9:x")  # as the rules write a discard
    assert ch.pick_card(0, [9 << 2], [x])
    assert ch.discard_play() is x
    assert ch.movable_pegs() == set(), "a discard moves no peg"
    ch.pick_card(0, HAND, legal())
    assert ch.discard_play() is None


def test_a_refused_card_leaves_the_choice_in_progress() -> None:
    ch = TrackChoice()
    hand = [*HAND, 9 << 2]
    assert ch.pick_card(1, hand, legal())  # the 3
    assert ch.choose_peg(A20)
    assert not ch.pick_card(6, hand, legal()), "no 9 in the legal plays"
    assert (ch.card, ch.peg) == (1, A20), "the 3 and its peg are still chosen"
    assert {p.rank for p in ch.plays} == {3}


def test_a_split_with_two_possible_second_pegs_waits_for_the_person() -> None:
    plays = [FakePlay(7, (("f", 0, 12, 15, 3), ("f", 1, 30, 34, 4)), "7:a12+3,b30+4"),
             FakePlay(7, (("f", 0, 12, 15, 3), ("f", 2, 40, 44, 4)), "7:a12+3,c40+4")]
    ch = TrackChoice()
    ch.pick_card(0, [7 << 2], plays)
    ch.choose_peg((0, 12))
    assert ch.choose_target((0, 0, 15)) == ("split", None)
    assert ch.peg2 is None and ch.movable_pegs() == {(0, 30), (0, 40)}
    assert ch.targets() == []
    assert ch.choose_peg((0, 40))
    kind, play = ch.choose_target((0, 2, 44))
    assert (kind, str(play)) == ("play", "7:a12+3,c40+4")


def test_the_choice_module_needs_no_pygame() -> None:
    import subprocess
    import sys

    code = ("import sys; import game.client.choice; "
            "sys.exit(1 if 'pygame' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_split_in_progress_says_what_is_left() -> None:
    # issue 19 point 4: after the first part of a 7 the remaining plays are those that begin
    # with it, and the first part is known (its peg is shown at its new hole)
    from game.client.choice import TrackChoice
    from game.rules.track import RULES as TRACK

    pos = ("classic 4 teams2 jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,s c:s,s,s,s,s "
           "d:s,s,s,s,s turn=a hand=2C,3C,4C,5C,6C,7C cards=6,5,5,5 pile=141 discards=0")
    s = TRACK.parse_position(pos)
    legal = TRACK.legal_plays(s)
    hand = TRACK.view(s, 0)["hand"]
    c = TrackChoice()
    assert c.pick_card(5, hand, legal)  # the 7
    assert c.first_part() is None and len(c.remaining()) == len(c.plays)
    assert c.choose_peg((0, 12))
    assert c.choose_target((0, 3, 15)) == ("split", None)  # a12 +3, peg 3 of Red
    fp = c.first_part()
    assert fp is not None and (fp.colour, fp.peg_no, fp.frm, fp.to) == (0, 3, 12, 15)
    assert [str(p) for p in c.remaining()] == ["7:a12+3,a20+4"]
    c.back()
    c.back()  # the first part taken back: every 7 is open again
    assert c.first_part() is None and len(c.remaining()) == len(c.plays)
