"""Game records (game/rules/record.py, docs/record.md): round trips of random whole games, and
damaged records refused with the line that is wrong."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from game.rules.cards import Rng
from game.rules.layout import RULES as LAYOUT
from game.rules.layout import __main__ as layout_cli
from game.rules.record import (
    RECORD_VERSION,
    Annotation,
    RecordError,
    RecordSeat,
    format_record,
    make_record,
    parse_record,
    read_record,
)
from game.rules.track import RULES as TRACK
from game.rules.track import __main__ as track_cli
from game.rules.track.engine import apply_play, gen_legal

# (game, config, seeds): every track rule set at a few seat counts and modes, and Trash
TRACK_SETS = [
    ("tees", [{"rules": "tees", "seats": 4}, {"rules": "tees", "seats": 6}]),
    ("classic", [{"rules": "classic", "seats": 4}, {"rules": "classic", "seats": 3,
                                                    "mode": "ffa"},
                 {"rules": "classic", "seats": 1, "mode": "solo"},
                 {"rules": "classic", "seats": 6, "teams": 3}]),
    ("team", [{"rules": "team", "seats": 4}, {"rules": "team", "seats": 6},
              {"rules": "team", "seats": 8, "teams": 2}]),
]
LAYOUT_CONFIGS = [{"seats": 2, "layout_size": 4}, {"seats": 3}, {"seats": 3, "layout_size": 3},
                  {"seats": 4, "layout_size": 2, "last_chance": True},
                  {"seats": 5, "layout_size": 2, "wild": "K", "upcard": True}]
FAST = int(os.environ.get("TEE_TABLE_RECORD_GAMES", "0"))  # override the count per rule set


def random_track(config: dict[str, Any], seed: int) -> tuple[list[tuple[int, str]], Any]:
    s = TRACK.new_game(config, seed)
    rng = Rng.from_seed(f"record-test/{seed}")
    plays = []
    while s.turn >= 0:
        lg = gen_legal(s)
        p = lg[rng.below(len(lg))]
        plays.append((s.turn, p.token))
        s, _ = apply_play(s, s.turn, p, events=False)
    return plays, s


def random_layout(config: dict[str, Any], seed: int) -> tuple[list[tuple[int, str]], Any]:
    s = LAYOUT.new_game(config, seed)
    rng = Rng.from_seed(f"record-test/{seed}")
    plays = []
    while (m := LAYOUT.to_move(s)) is not None:
        lg = LAYOUT.legal_tokens(s)
        tok = lg[rng.below(len(lg))]
        plays.append((m, tok))
        s, _ = LAYOUT.apply(s, m, tok)
    return plays, s


def seats_for(n: int) -> list[RecordSeat]:
    return [RecordSeat(0, "person", "person", "Ada Lovelace")] + [
        RecordSeat(i, "cpu", ("easy", "tricky", "nasty")[i % 3], f"CPU {i}")
        for i in range(1, n)]


def record_text(game: str, config: dict[str, Any], seed: int,
                plays: list[tuple[int, str]]) -> str:
    n = TRACK.seat_count(TRACK.new_game(config, seed)) if game == "track" else config["seats"]
    rec = make_record(game, config, seed, seats_for(n),
                      [(s, t, "person" if s == 0 else "cpu") for s, t in plays],
                      date="2026-12-02", version="0.1.0")
    return format_record(rec)


def track_fields(s: Any) -> tuple[Any, ...]:
    return (s.pegs, s.hands, s.pile, s.discards, s.turn, s.nplays, s.rng, s.winner, s.dealer,
            s.round)


def _round_trip(game: str, config: dict[str, Any], seed: int) -> None:
    plays, final = (random_track if game == "track" else random_layout)(config, seed)
    text = record_text(game, config, seed, plays)
    rec, state = read_record(text)
    assert [(p.seat, p.token) for p in rec.plays] == plays
    assert rec.seats == tuple(seats_for(len(rec.seats)))
    if game == "track":
        assert track_fields(state) == track_fields(final)
        assert TRACK.format_position(state) == TRACK.format_position(final)
        assert rec.result == ",".join(map(str, TRACK.outcome(final)["winners"]))
    else:
        assert state == final  # every field of the engine state (State.key)
        assert rec.result == ",".join(map(str, LAYOUT.outcome(final)["winners"]))
    assert format_record(rec) == text  # reading and writing again changes nothing


def _count(default: int) -> int:
    return FAST or default


@pytest.mark.parametrize(("name", "configs"), TRACK_SETS, ids=[n for n, _ in TRACK_SETS])
def test_random_track_games_round_trip_a_few(name: str, configs: list[dict[str, Any]]) -> None:
    for i, config in enumerate(configs):
        _round_trip("track", config, 1000 + i)


def test_random_layout_games_round_trip_a_few() -> None:
    for i, config in enumerate(LAYOUT_CONFIGS):
        _round_trip("layout", config, 2000 + i)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "configs"), TRACK_SETS, ids=[n for n, _ in TRACK_SETS])
def test_200_random_track_games_per_rule_set_round_trip(
        name: str, configs: list[dict[str, Any]]) -> None:
    for k in range(_count(200)):
        _round_trip("track", configs[k % len(configs)], 10_000 + k)


@pytest.mark.slow
def test_200_random_trash_games_round_trip() -> None:
    for k in range(_count(200)):
        _round_trip("layout", LAYOUT_CONFIGS[k % len(LAYOUT_CONFIGS)], 20_000 + k)


# ------------------------------------------------------------------------------ damage


@pytest.fixture(scope="module")
def classic() -> tuple[str, list[tuple[int, str]]]:
    plays, _ = random_track({"rules": "classic", "seats": 4}, 77)
    return record_text("track", {"rules": "classic", "seats": 4}, 77, plays), plays


def line_of(text: str, start: str) -> int:
    for no, line in enumerate(text.splitlines(), start=1):
        if line.startswith(start):
            return no
    raise AssertionError(start)


def refused(text: str) -> RecordError:
    with pytest.raises(RecordError) as ei:
        read_record(text)
    assert str(ei.value).startswith(f"line {ei.value.line}:")
    return ei.value


def test_a_changed_play_is_refused_on_its_own_line(classic: tuple[str, list]) -> None:
    text, plays = classic
    lines = text.splitlines()
    k = 10  # play 10 made with the card of play 14 (the same seat's next play)
    assert plays[9][0] == plays[13][0]
    no = line_of(text, "10. ")
    lines[no - 1] = f"10. {plays[9][0]} {plays[13][1]}"
    err = refused("\n".join(lines))
    assert err.line == no, err
    assert f"play {k} ({plays[13][1]}) does not replay" in str(err)


def test_another_legal_play_is_refused_where_the_game_parts_ways(classic: tuple[str, list]
                                                                 ) -> None:
    text, plays = classic
    state = TRACK.new_game({"rules": "classic", "seats": 4}, 77)
    for seat, tok in plays[:20]:
        state, _ = TRACK.apply(state, seat, tok)
    legal = TRACK.legal_tokens(state)
    other = next(t for t in legal if t != plays[20][1])  # play 21, changed to a legal one
    lines = text.splitlines()
    lines[line_of(text, "21. ") - 1] = f"21. {plays[20][0]} {other}"
    err = refused("\n".join(lines))
    # the game now goes elsewhere: a later play does not fit, or the end is not the header's
    assert err.line > line_of(text, "21. ") or err.line in (
        line_of(text, "[Final"), line_of(text, "[Result")), err


def test_a_missing_line_is_refused_on_the_line_after_it(classic: tuple[str, list]) -> None:
    text, _ = classic
    lines = text.splitlines()
    no = line_of(text, "31. ")
    del lines[no - 1]
    err = refused("\n".join(lines))
    assert err.line == no  # play 32 now stands on line `no`
    assert "play 31 was expected here, this line is play 32" in str(err)


def test_a_missing_last_line_is_refused_by_the_play_count(classic: tuple[str, list]) -> None:
    text, plays = classic
    lines = text.rstrip("\n").splitlines()
    assert lines[-1].startswith(f"{len(plays)}. ")
    err = refused("\n".join(lines[:-1]))
    assert err.line == line_of(text, "[Plays")
    assert f"the header counts {len(plays)} plays, the record holds {len(plays) - 1}" in str(err)


def test_a_wrong_seed_is_refused_with_a_line(classic: tuple[str, list]) -> None:
    text, _ = classic
    err = refused(text.replace('[Seed "77"]', '[Seed "78"]'))
    play_lines = range(line_of(text, "1. "), len(text.splitlines()) + 1)
    assert err.line in play_lines or err.line == line_of(text, "[Final"), err


def test_a_newer_format_is_refused_on_line_1(classic: tuple[str, list]) -> None:
    text, _ = classic
    newer = text.replace(f"tee-table-record {RECORD_VERSION}",
                         f"tee-table-record {RECORD_VERSION + 1}")
    err = refused(newer)
    assert err.line == 1
    assert "newer Tee Table" in str(err)


def test_another_program_version_replays_exactly_or_is_refused_with_its_reason(
        classic: tuple[str, list]) -> None:
    text, _ = classic
    other = text.replace('[Version "0.1.0"]', '[Version "9.9.9"]')
    rec, _ = read_record(other)  # the same plays, the same end: it replays exactly
    assert rec.version == "9.9.9"
    # a program whose rules ended the same plays elsewhere: refused, saying whose record it is
    no = line_of(text, "[Final")
    lines = other.splitlines()
    lines[no - 1] = lines[no - 1].replace("pile=", "pile=1")
    err = refused("\n".join(lines))
    assert err.line == no
    assert "made by Tee Table 9.9.9" in str(err)


@pytest.mark.parametrize(("damage", "where", "words"), [
    (lambda t: "hello\n" + t, 1, "not a Tee Table record"),
    (lambda t: t.replace('[Game "track"]', '[Game "chess"]'), 2, "unknown game"),
    (lambda t: t.replace('[Seed "77"]', '[Seed "-4"]'), 7, "not a whole number"),
    (lambda t: t.replace('[Seat "1 tricky CPU 1"]', '[Seat "1 genius CPU 1"]'), 11, "seat 1"),
    (lambda t: t.replace('[Rules "classic"]', '[Rules "tees"]'), 3, "Rules header"),
    (lambda t: t.replace("\n5. ", "\n5. {open comment "), 0, "not closed"),
    (lambda t: t.replace("\n5. 0 ", "\n5. 9 "), 0, "no seat 9"),
])
def test_damaged_headers_and_lines_name_their_line(classic: tuple[str, list], damage: Any,
                                                   where: int, words: str) -> None:
    text, _ = classic
    err = refused(damage(text))
    assert words in str(err)
    assert err.line == (where or line_of(text, "5. ")), err


def test_empty_and_foreign_text_are_refused() -> None:
    for text in ("", "\n\n", "1. 0 K:as\n"):
        with pytest.raises(RecordError, match="not a Tee Table record"):
            read_record(text)


# ------------------------------------------------------------------------------ comments


def test_comments_and_annotations_survive_a_round_trip(classic: tuple[str, list]) -> None:
    text, plays = classic
    lines = text.splitlines()
    no = line_of(text, "3. ")
    lines[no - 1] += " {a bold start} ; the crowd gasps"
    lines.insert(no, "; a line of its own, still play 3's")
    lines[line_of(text, "4. ")] += (" {review cpu=K:as before=0.510 after=0.420 | brings a peg "
                                    "out}")
    rec, _ = read_record("\n".join(lines))
    assert rec.plays[2].comments == ("a bold start", "the crowd gasps",
                                     "a line of its own, still play 3's")
    assert rec.annotations == (Annotation(4, plays[3][0], "K:as", 0.51, 0.42,
                                          "brings a peg out"),)
    again, _ = read_record(format_record(rec))
    assert again.plays[2].comments == rec.plays[2].comments
    assert again.annotations == rec.annotations


def test_who_made_a_play_is_kept_when_it_is_not_the_seats_kind() -> None:
    config = {"rules": "classic", "seats": 2, "mode": "h2h"}
    plays, _ = random_track(config, 5)
    makers = ["person" if s == 0 and i < 10 else "standin" if s == 0 else "cpu"
              for i, (s, _t) in enumerate(plays)]
    rec = make_record("track", config, 5, seats_for(2),
                      [(s, t, by) for (s, t), by in zip(plays, makers, strict=True)],
                      date="", version="0.1.0")
    text = format_record(rec)
    assert f"\n11. 0 {plays[10][1]}\n" not in text  # play 11 is a stand-in's, marked
    back = parse_record(text)
    assert [p.by for p in back.plays] == makers


# ------------------------------------------------------------------------------ the CLIs


def test_track_replay_prints_the_game_in_words(tmp_path: Path, classic: tuple[str, list],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    text, plays = classic
    path = tmp_path / "game.ttr"
    path.write_text(text)
    assert track_cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Track game, classic rules, 4 seats (teams), seed 77, 2026-12-02"
    assert len(out) == len(plays) + 2
    assert out[-1].startswith("Result: won by ")
    # the first come-out of Red (seat 0) goes to hole 8 at 4 seats (docs/notation.md)
    first = next(i for i, (s, t) in enumerate(plays) if s == 0 and t.endswith(":as"))
    assert out[first + 1].startswith(f"{first + 1}. Red (Ada Lovelace) plays ")
    assert out[first + 1].endswith(f"({plays[first][1]}): brings a Red peg out to hole 8")


def test_replay_of_a_bad_record_names_the_line(tmp_path: Path, classic: tuple[str, list],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    text, _ = classic
    path = tmp_path / "bad.ttr"
    lines = text.splitlines()
    no = line_of(text, "12. ")
    del lines[no - 1]
    path.write_text("\n".join(lines))
    assert track_cli.main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"line {no}: play 12 was expected here" in err
    assert layout_cli.main(["replay", str(tmp_path / "none.ttr")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_layout_replay_prints_draws_and_places(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    config = {"seats": 2, "layout_size": 2}
    plays, _ = random_layout(config, 3)
    path = tmp_path / "trash.ttr"
    path.write_text(record_text("layout", config, 3, plays))
    assert layout_cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Trash, 2 seats, seed 3, 2026-12-02"
    assert len(out) == len(plays) + 2
    first = out[1]
    assert first.startswith(f"1. seat {plays[0][0]} (")
    assert " from the stock" in first or " from the discards" in first
    assert layout_cli.main(["replay", str(path)]) == 0
    assert track_cli.main(["replay", str(path)]) == 2
    assert "python -m game.rules.layout replay" in capsys.readouterr().err
