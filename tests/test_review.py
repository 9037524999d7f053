"""The Nasty CPU's review of a record (game/ai/review.py): only people's plays, only from their
own views, cached in the record, the summary's top three, solo turn counts, Trash."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from game.ai import review as rv
from game.ai.track import tricky
from game.rules.layout import RULES as LAYOUT
from game.rules.record import (
    Annotation,
    RecordError,
    RecordSeat,
    format_record,
    make_record,
    parse_record,
    steps,
)
from game.rules.track import RULES as TRACK


def tricky_game(config: dict[str, Any], seed: int, people: set[int],
                handed: int | None = None) -> str:
    """A record of a game the Tricky CPU played for everyone; ``people`` are marked people
    (until play ``handed``, when they became CPUs)."""
    s = TRACK.new_game(config, seed)
    plays = []
    while (m := TRACK.to_move(s)) is not None:
        tok = tricky(TRACK.view(s, m), TRACK.legal_tokens(s), len(plays))
        person = m in people and (handed is None or len(plays) < handed)
        plays.append((m, tok, "person" if person else "cpu"))
        s, _ = TRACK.apply(s, m, tok)
    seats = [RecordSeat(i, "person", "person", f"P{i}") if i in people else
             RecordSeat(i, "cpu", "tricky", f"C{i}") for i in range(TRACK.seat_count(s))]
    return format_record(make_record("track", config, seed, seats, plays, date="",
                                     version="0.1.0"))


@pytest.fixture(scope="module")
def classic() -> str:
    return tricky_game({"rules": "classic", "seats": 4}, 9, {0, 1}, handed=120)


def test_only_peoples_plays_are_reviewed_each_from_its_own_view(
        classic: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, dict[str, Any]]] = []
    real = rv.review_play

    def spy(game: str, view: dict[str, Any], played: str, n: int, *a: Any, **k: Any
            ) -> Annotation:
        seen.append((n, view))
        return real(game, view, played, n, *a, **k)

    monkeypatch.setattr(rv, "review_play", spy)
    notes = rv.review(classic, None, 300, samples=2)
    rec = parse_record(classic)
    people = [st for st in steps(rec, events=False) if st.play.by == "person"]
    assert people and all(st.play.seat in (0, 1) and st.play.n <= 120 for st in people)
    assert [a.n for a in notes] == [st.play.n for st in people] == [n for n, _ in seen]
    for st, (_n, view) in zip(people, seen, strict=True):
        # exactly the seat's view at that moment: its own hand, no other hand anywhere
        assert view == TRACK.view(st.before, st.play.seat)
        assert view["hand"] == list(st.before.hands[st.play.seat])
        assert "hands" not in view
    only0 = rv.review(classic, 0, 300, samples=2)
    assert [a.n for a in only0] == [st.play.n for st in people if st.play.seat == 0]


def test_hidden_cards_do_not_change_the_review(classic: str) -> None:
    rec = parse_record(classic)
    st = next(s for s in steps(rec, events=False) if s.play.n == 41)
    seat = st.play.seat
    view = TRACK.view(st.before, seat)
    # two full states the seat cannot tell apart: every hidden card dealt differently
    a, b = TRACK.determinize(view, 1), TRACK.determinize(view, 2)
    assert a.hands[seat] == b.hands[seat] and a.hands != b.hands and a.pile != b.pile
    va, vb = TRACK.view(a, seat), TRACK.view(b, seat)
    assert va == vb == view
    ra = rv.review_play("track", va, st.play.token, 41, 300, 5, samples=6)
    rb = rv.review_play("track", vb, st.play.token, 41, 300, 5, samples=6)
    assert ra == rb
    assert ra.before is not None and 0.0 <= ra.before <= 1.0


def test_the_review_is_cached_in_the_record(classic: str, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    text, notes = rv.review_cached(classic, 0, 300, samples=2)
    rec = parse_record(text)
    assert rec.review == "seat=0 budget=300"
    assert list(rec.annotations) == notes and notes
    assert any(a.cpu is not None for a in notes)  # the CPU disagreed with Tricky somewhere
    for a in notes:
        assert a.reason.startswith("the only legal play" if a.before is None else "the CPU ")

    def no_search(*a: Any, **k: Any) -> list[Annotation]:
        raise AssertionError("a cached review searched again")

    monkeypatch.setattr(rv, "review", no_search)
    again, notes2 = rv.review_cached(text, 0, 300)
    assert again == text and notes2 == notes
    with pytest.raises(AssertionError):  # another seat is not cached
        rv.review_cached(text, 1, 300)


def _a(n: int, seat: int, before: float | None, after: float | None) -> Annotation:
    return Annotation(n, seat, "K:as" if before != after else None, before, after, "r")


def test_the_summary_names_the_three_biggest_swings_per_side() -> None:
    notes = [
        Annotation(0, 0, None, None, None, "whole game"),
        _a(1, 0, 0.50, 0.48),   # -0.02
        _a(2, 1, 0.50, 0.20),   # -0.30  side 1
        _a(3, 2, 0.40, 0.55),   # +0.15  (luck of a noisy estimate still counts: |change|)
        _a(4, 3, 0.30, 0.25),   # -0.05  side 1
        _a(5, 0, 0.60, 0.35),   # -0.25
        _a(6, 1, None, None),   # the only legal play: never picked
        _a(7, 2, 0.55, 0.45),   # -0.10
        _a(8, 3, 0.25, 0.24),   # -0.01  side 1
        _a(9, 0, 0.35, 0.25),   # -0.10  ties with play 7: the earlier one goes first
    ]
    top = rv.summary(notes, [[0, 2], [1, 3]])
    assert [a.n for a in top[0]] == [5, 3, 7]
    assert [a.n for a in top[1]] == [2, 4, 8]
    assert rv.summary(notes, [[0, 2], [1, 3]], top=1) == {0: [notes[5]], 1: [notes[2]]}


def test_the_sides_of_a_record(classic: str) -> None:
    assert rv.sides(classic) == [[0, 2], [1, 3]]  # classic 4 seats: partners sit opposite


def test_solo_compares_turns_with_the_cpu() -> None:
    text = tricky_game({"rules": "classic", "seats": 1, "mode": "solo"}, 4, {0})
    rec = parse_record(text)
    notes = rv.review(text, 0, 300, samples=1)
    whole = notes[0]
    assert whole.n == 0 and whole.turns_after == len(rec.plays)
    assert whole.turns_cpu is not None and whole.turns_cpu > 0
    assert f"you took {len(rec.plays)} turns" in whole.reason
    assert "Nasty CPU" in whole.reason
    per = [a for a in notes[1:] if a.before is None and a.turns_after is not None]
    assert per and all(a.turns_cpu is not None and a.turns_cpu >= 1 for a in per)
    top = rv.summary(notes, [[0]])
    assert len(top[0]) == 3 and all(a.n > 0 for a in top[0])
    back = parse_record(rv.review_cached(text, 0, 300, samples=1)[0])  # n=0 survives too
    assert back.annotations[0].n == 0 and back.annotations[0].reason == whole.reason


def _trash() -> str:
    config = {"seats": 2, "layout_size": 2}
    s = LAYOUT.new_game(config, 6)
    plays = []
    while (m := LAYOUT.to_move(s)) is not None:
        tok = LAYOUT.legal_tokens(s)[0]
        plays.append((m, tok, "person" if m == 0 else "cpu"))
        s, _ = LAYOUT.apply(s, m, tok)
    seats = [RecordSeat(0, "person", "person", "Ann"), RecordSeat(1, "cpu", "nasty", "N")]
    return format_record(make_record("layout", config, 6, seats, plays, date="",
                                     version="0.1.0"))


def test_trash_is_reviewed_with_the_hints_words() -> None:
    text = _trash()
    notes = rv.review(text, 0, 300, samples=3)
    assert notes and all(a.seat == 0 for a in notes)
    chosen = [a for a in notes if a.before is not None]
    assert chosen and all(0.0 <= a.before <= 1.0 and 0.0 <= a.after <= 1.0 for a in chosen)
    words = ("draw", "takes", "wild card", "left unseen", "showing", "stock")
    assert all(any(w in a.reason for w in words) for a in chosen)


def test_the_trash_race_by_hand() -> None:
    assert rv.race_chance([1, 2], 0) == pytest.approx(0.75)  # wins hand 1, or hand 2 after
    assert rv.race_chance([2, 1, 1], 0) == pytest.approx(1 / 9)  # must win the next two
    assert rv.race_chance([3, 3, 3], 1) == pytest.approx(1 / 3)
    assert sum(rv.race_chance([4, 2, 7, 3], i) for i in range(4)) == pytest.approx(1.0)
    assert rv.race_chance([0, 2], 0) == 1.0 and rv.race_chance([0, 2], 1) == 0.0


def test_bad_input_is_refused(classic: str) -> None:
    with pytest.raises(ValueError, match="no seat 7"):
        rv.review(classic, 7, 300)
    with pytest.raises(RecordError):
        rv.review(classic.replace('[Seed "9"]', '[Seed "10"]'), 0, 300)


def test_the_review_runs_in_a_worker_process() -> None:
    text = _trash()
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        remote = pool.submit(rv.review, text, 0, 300.0, samples=2).result(timeout=120)
    assert remote == rv.review(text, 0, 300.0, samples=2)  # repeatable with fixed samples
    assert pickle.loads(pickle.dumps(remote)) == remote
