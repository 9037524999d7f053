"""The moves list tells a bump back to start from a partner sent on to its in-spot."""

from game.client.describe import describe_play
from game.rules.track import RULES

# 4 seats, a=Red (seat 0), b=Blue, c=Yellow (a's partner), d=Green. a12 +4 lands on b16
# (an opponent: back to start); a12 +5 lands on c17 (a partner: classic sends it on to c's
# in-spot 18*2+3 = 39).
CLASSIC = ("classic 4 teams2 jokers=on seven=on a:s,s,s,s,12 b:s,s,s,s,16 c:s,s,s,s,17 "
           "d:s,s,s,s,s turn=a hand=4S,7C,8D,5D,6H,AC cards=6,5,5,5 pile=141 discards=0")
# tees: a12 +4 onto partner c16 is the last resort, and the partner goes back to start.
TEES = ("tees 4 teams2 jokers=off seven=on a:s,s,s,s,12 b:s,s,s,s,s c:s,s,s,s,16 "
        "d:s,s,s,s,s turn=a hand=4S cards=1,5,5,5 pile=36 discards=0 dealer=d round=1")


def _words(position: str) -> dict[str, str]:
    s = RULES.parse_position(position)
    v = RULES.view(s, 0)
    return {str(p): describe_play(p, v) for p in RULES.legal_plays(s)}


def test_classic_partner_landing_reads_as_sent_on() -> None:
    w = _words(CLASSIC)
    assert w["4:a12+4"] == "4: Red's peg +4 (bumps Blue)"
    assert w["5:a12+5"] == "5: Red's peg +5 (sends Yellow on)"


def test_tees_partner_landing_is_a_bump_to_start() -> None:
    assert _words(TEES) == {"4:a12+4": "4: Red's peg +4 (bumps Yellow)"}
