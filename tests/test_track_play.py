"""A track play's parts and bumps are named (python-chess's ``Move`` is the model), and a play
is never equal to its token string."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest

from game.rules.track import RULES, engine
from game.rules.track.engine import HOME0, START, Bump, Part, Play
from game.rules.track.notation import parse_position


@pytest.fixture(params=["python", "c"])
def core(request: pytest.FixtureRequest) -> Iterator[str]:
    prev = engine.FAST
    engine.set_fast(request.param == "c")
    if request.param == "c" and not engine.FAST:
        engine.set_fast(prev)
        pytest.skip("the C core is not built")
    yield request.param
    engine.set_fast(prev)


def test_part_and_bump_fields_by_name() -> None:
    p = Part("f", 7, 12, 17, 5)
    assert (p.kind, p.peg, p.frm, p.to, p.n) == ("f", 7, 12, 17, 5)
    assert p._fields == ("kind", "peg", "frm", "to", "n")
    assert p.colour == 1 and p.steps == 5 and p.other == -1 and not p.is_discard
    assert p == ("f", 7, 12, 17, 5) and p[3] == 17  # still the 5-tuple it was
    kind, peg, frm, to, n = p
    assert (peg, frm, n) == (7, 12, 5)
    assert (kind, to) == ("f", 17)
    t = Part("t", 2, 30, 40, 11)
    assert t.other == 11 and t.steps == 0 and t.colour == 0
    x = Part("x", -1, 0, 0, 0)
    assert x.is_discard and x.colour == -1
    b = Bump(11, 40, START)
    assert (b.peg, b.frm, b.to) == (11, 40, -1) and b._fields == ("peg", "frm", "to")


def test_legal_plays_carry_named_parts_and_bumps(core: str) -> None:
    # a 5 from hole 10 of colour a lands on colour b's peg at 15: it is bumped to start
    text = ("classic 2 h2h jokers=on seven=on a:s,s,s,s,10 b:s,s,s,s,15 turn=a hand=5C,9D "
            "cards=2,5 pile=154 discards=1")
    st = parse_position(text)
    plays = RULES.legal_plays(st)
    assert all(type(part) is Part for p in plays for part in p.parts)
    assert all(type(b) is Bump for p in plays for bs in p.bumps for b in bs)
    five = next(p for p in plays if str(p) == "5:a10+5")
    (part,) = five.parts
    assert (part.kind, part.peg, part.frm, part.to, part.n) == ("f", 4, 10, 15, 5)
    assert five.bumps == ((Bump(9, 15, START),),)
    assert five.bumps[0][0].peg // 5 == 1  # colour b's peg
    # named fields survive pickling (the table's CPU worker sends plays across processes)
    again = pickle.loads(pickle.dumps(five))
    assert again == five and type(again.parts[0]) is Part and again.bumps[0][0].to == START


def test_a_play_is_never_equal_to_its_token(core: str) -> None:
    st = RULES.new_game({"rules": "classic", "seats": 4}, 3)
    plays = RULES.legal_plays(st)
    p = plays[0]
    tok = str(p)
    assert p != tok and tok != p and not (p == tok)  # noqa: SIM201
    assert tok not in plays and p in plays
    assert tok in RULES.legal_tokens(st)
    assert RULES.parse_play(st, tok) == p and hash(p) == hash(tok)
    assert {p: 1}.get(tok) is None  # a dict keyed by plays is not keyed by tokens
    # every API that takes a play still takes a token
    assert RULES.check(st, 0, tok) == p
    s1, _ = RULES.apply(st, 0, tok)
    s2, _ = RULES.apply(st, 0, p)
    assert s1 == s2


def test_a_hand_made_play_equals_the_engines() -> None:
    st = RULES.new_game({"rules": "classic", "seats": 4}, 3)
    legal = RULES.legal_plays(st)
    target = next(p for p in legal if not p.is_discard)
    made = Play(target.rank, tuple(Part(*pt) for pt in target.parts), target.bumps)
    assert made == target and made in legal
    assert made.parts[0].to < HOME0
