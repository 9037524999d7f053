"""Game records: a small text format for a whole game (docs/record.md; PGN is the model).

Pure text in, text out: no files, no clocks (the caller passes the date and the program's
version). A record is a header of ``[Key "value"]`` lines and then the plays, one a line, in
the project's notation (docs/notation.md), with optional comments (``; ...`` to the end of the
line, ``{...}`` anywhere on a line) and the Nasty CPU's review as ``{review ...}`` annotations.

* :func:`make_record` builds a :class:`Record` from a game's facts (it replays the plays, so a
  record is never written for a game that does not replay).
* :func:`format_record` writes it; :func:`parse_record` reads the text (syntax only);
  :func:`read_record` reads and checks it by replaying it: a bad play, a missing line, a wrong
  seed or a newer format is a :class:`RecordError` naming the line.
* :func:`steps` replays a record play by play (state before, state after, events), for the
  command lines' ``replay`` and for the review.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from game.rules.api import GameRules, RulesError

RECORD_FORMAT = "tee-table-record"
RECORD_VERSION = 1
KINDS = ("person", "cpu")
LEVELS = ("person", "easy", "tricky", "nasty")
BYS = ("person", "cpu", "standin")
#: Header keys in the order they are written (``Seat`` repeats, one per seat).
HEADER_ORDER = ("Format", "Game", "Rules", "Mode", "Seats", "Options", "Seed", "Date",
                "Version", "Seat", "Result", "Turns", "Points", "Plays", "Final", "Review")
_HEADER_RE = re.compile(r'^\[([A-Za-z][A-Za-z0-9]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_PLAY_RE = re.compile(r"^(\d+)\.\s+(\d+)\s+(\S+)(?:\s+(person|cpu|standin))?$")


class RecordError(RulesError):
    """A record that cannot be read or does not replay; ``line`` is its line number (1-based,
    0 when the fault is not on one line)."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


@dataclass(frozen=True)
class RecordSeat:
    index: int
    kind: str  # "person" | "cpu"
    level: str  # "person" for a person, else the CPU's level
    name: str


@dataclass(frozen=True)
class Annotation:
    """The Nasty CPU's word on one play (``n``, 1-based) by ``seat``.

    ``cpu``: the CPU's choice, or None when it agrees; ``before``/``after``: the team's chance
    to win (0..1) with the CPU's choice and with the play made (None: no choice to weigh);
    solo games put the expected turns to finish in ``turns_cpu``/``turns_after`` instead.
    """

    n: int
    seat: int
    cpu: str | None
    before: float | None
    after: float | None
    reason: str
    turns_cpu: float | None = None
    turns_after: float | None = None

    @property
    def change(self) -> float:
        """How much the play moved the estimate (after - before; 0 when not estimated)."""
        if self.before is None or self.after is None:
            return 0.0
        return self.after - self.before


@dataclass(frozen=True)
class RecordPlay:
    n: int
    seat: int
    token: str
    by: str  # "person" | "cpu" | "standin"
    line: int = 0
    comments: tuple[str, ...] = ()


@dataclass(frozen=True)
class Record:
    game: str
    config: dict[str, Any]
    seed: int
    seats: tuple[RecordSeat, ...]
    plays: tuple[RecordPlay, ...]
    date: str = ""
    version: str = ""
    result: str = "*"  # winners' seats "0,2", or "*" while the game goes on
    turns: int | None = None
    points: str = ""
    final: str = ""
    review: str = ""  # "seat=0 budget=300" once a review is cached in the record
    annotations: tuple[Annotation, ...] = ()
    comments: tuple[str, ...] = ()  # comments before the first play
    lines: Mapping[str, int] = field(default_factory=dict)  # header key -> its line (read)
    header: Mapping[str, str] = field(default_factory=dict)  # header key -> its text (read)

    def with_review(self, review: str, annotations: Sequence[Annotation]) -> Record:
        return replace(self, review=review, annotations=tuple(annotations))


# ------------------------------------------------------------------------------ rules


def rules_of(game: str) -> GameRules:
    if game == "track":
        from game.rules.track import RULES as track

        return track
    if game == "layout":
        from game.rules.layout import RULES as layout

        return layout
    raise RulesError(f"unknown game {game!r} (expected track or layout)")


def _rules_mode(game: str, config: Mapping[str, Any]) -> tuple[str, str]:
    if game == "track":
        return str(config["rules"]), str(config["mode"])
    return "trash", "ffa"


# ------------------------------------------------------------------------------ building


def _apply(rules: GameRules, state: Any, seat: int, token: str, events: bool
           ) -> tuple[Any, list[dict[str, Any]]]:
    """``rules.apply``, without building events where the engine can skip them (track)."""
    if not events and rules.name == "track":
        out: tuple[Any, list[dict[str, Any]]] = rules.apply(  # type: ignore[call-arg]
            state, seat, token, events=False)
        return out
    return rules.apply(state, seat, token)


def make_record(game: str, config: Mapping[str, Any], seed: int,
                seats: Sequence[RecordSeat], plays: Sequence[tuple[int, str, str]], *,
                date: str, version: str, points: str = "",
                comments: Sequence[str] = ()) -> Record:
    """A record of ``plays`` (``(seat, token, by)``), checked by replaying it; the result and
    the final position come from the replay. Raises :class:`RecordError` (line 0) when the
    plays do not replay."""
    rules = rules_of(game)
    norm = rules.normalize_config(config)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise RecordError(0, f"a record's seed is a whole number >= 0, not {seed!r}")
    state = rules.new_game(norm, seed)
    if len(seats) != rules.seat_count(state):
        raise RecordError(0, f"the game has {rules.seat_count(state)} seats, "
                             f"{len(seats)} were given")
    out: list[RecordPlay] = []
    for i, (seat, token, by) in enumerate(plays, start=1):
        if by not in BYS:
            raise RecordError(0, f"play {i}: unknown maker {by!r}")
        try:
            state, _ = _apply(rules, state, seat, token, False)
        except RulesError as e:
            raise RecordError(0, f"play {i} ({seat} {token}) does not replay: {e}") from None
        out.append(RecordPlay(i, seat, str(token), by))
    oc = rules.outcome(state)
    result = ",".join(str(w) for w in oc["winners"]) if oc else "*"
    turns = int(oc["turns"]) if oc and "turns" in oc else None
    return Record(game, norm, seed, tuple(seats), tuple(out), date=date, version=version,
                  result=result, turns=turns, points=points,
                  final=rules.format_position(state), comments=tuple(comments))


# ------------------------------------------------------------------------------ writing


def _q(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _clean(text: str) -> str:
    """Comment text on one line with no braces (they would end the comment)."""
    return " ".join(text.replace("{", "(").replace("}", ")").split())


def _num(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def format_annotation(a: Annotation) -> str:
    parts = ["review"] + ([f"seat={a.seat}"] if a.n == 0 else [])
    parts += [f"cpu={a.cpu or '-'}", f"before={_num(a.before)}",
             f"after={_num(a.after)}"]
    if a.turns_cpu is not None or a.turns_after is not None:
        parts += [f"turns_cpu={_num(a.turns_cpu, 1)}", f"turns={_num(a.turns_after, 1)}"]
    return "{" + " ".join(parts) + " | " + _clean(a.reason) + "}"


def format_record(rec: Record) -> str:
    """The record as text (ends with a newline)."""
    rules_name, mode = _rules_mode(rec.game, rec.config)
    head: list[tuple[str, str]] = [
        ("Format", f"{RECORD_FORMAT} {RECORD_VERSION}"), ("Game", rec.game),
        ("Rules", rules_name), ("Mode", mode), ("Seats", str(len(rec.seats))),
        ("Options", json.dumps(rec.config, sort_keys=True, separators=(",", ":"))),
        ("Seed", str(rec.seed)), ("Date", rec.date), ("Version", rec.version),
    ]
    for s in rec.seats:
        head.append(("Seat", f"{s.index} {s.level} {s.name}".rstrip()))
    head.append(("Result", rec.result))
    if rec.turns is not None:
        head.append(("Turns", str(rec.turns)))
    if rec.points:
        head.append(("Points", rec.points))
    head += [("Plays", str(len(rec.plays))), ("Final", rec.final)]
    if rec.review:
        head.append(("Review", rec.review))
    lines = [f"[{k} {_q(v)}]" for k, v in head]
    lines.append("")
    lines += [f"; {_clean(c)}" for c in rec.comments]
    notes: dict[int, list[Annotation]] = {}
    for a in rec.annotations:
        notes.setdefault(a.n, []).append(a)
    lines += [format_annotation(a) for a in notes.get(0, ())]  # whole-game notes
    for p in rec.plays:
        by = "" if p.by == _default_by(rec.seats[p.seat]) else f" {p.by}"
        text = f"{p.n}. {p.seat} {p.token}{by}"
        for c in p.comments:
            text += " {" + _clean(c) + "}"
        for a in notes.get(p.n, ()):
            text += " " + format_annotation(a)
        lines.append(text)
    return "\n".join(lines) + "\n"


def _default_by(seat: RecordSeat) -> str:
    return "person" if seat.kind == "person" else "cpu"


# ------------------------------------------------------------------------------ reading


def _unq(raw: str) -> str:
    return re.sub(r"\\(.)", r"\1", raw)


def _split_comments(line: str, no: int) -> tuple[str, list[str]]:
    """The line without its comments, and the comments (``{...}`` ones, then ``;``)."""
    body: list[str] = []
    comments: list[str] = []
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == "{":
            j = line.find("}", i + 1)
            if j < 0:
                raise RecordError(no, "a comment opened with '{' is not closed on its line")
            comments.append(line[i + 1:j].strip())
            i = j + 1
            continue
        if ch == "}":
            raise RecordError(no, "a '}' closes no comment")
        if ch == ";":
            comments.append(line[i + 1:].strip())
            break
        body.append(ch)
        i += 1
    return "".join(body).strip(), comments


def parse_annotation(text: str, n: int, seat: int, no: int) -> Annotation:
    """``review cpu=.. before=.. after=.. [turns_cpu=.. turns=..] | reason``."""
    fields, sep, reason = text[len("review"):].partition("|")
    if not sep:
        raise RecordError(no, "a review annotation has no '|' before its reason")
    vals: dict[str, str] = {}
    for item in fields.split():
        k, eq, v = item.partition("=")
        if not eq or k not in ("seat", "cpu", "before", "after", "turns_cpu", "turns"):
            raise RecordError(no, f"a review annotation has a bad field {item!r}")
        vals[k] = v

    def num(key: str) -> float | None:
        v = vals.get(key, "-")
        if v == "-":
            return None
        try:
            return float(v)
        except ValueError:
            raise RecordError(no, f"a review annotation's {key} {v!r} is not a number") from None

    cpu = vals.get("cpu", "-")
    if "seat" in vals:
        if not vals["seat"].isdigit():
            raise RecordError(no, f"a review annotation's seat {vals['seat']!r} is not a seat")
        seat = int(vals["seat"])
    return Annotation(n, seat, None if cpu == "-" else cpu, num("before"), num("after"),
                      reason.strip(), num("turns_cpu"), num("turns"))


def parse_record(text: str) -> Record:
    """Read a record's text (its syntax and header; :func:`read_record` also replays it)."""
    if not isinstance(text, str):
        raise RecordError(0, "a record is text")
    head: dict[str, str] = {}
    lines: dict[str, int] = {}
    seats_raw: list[tuple[int, str]] = []
    plays: list[tuple[int, int, str, str | None, int, list[str]]] = []
    notes: list[tuple[int, int, str, int]] = []
    pre: list[str] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("[") and not plays:
            m = _HEADER_RE.match(line)
            if not m:
                raise RecordError(no, f"a header line is [Key \"value\"], not {line[:60]!r}")
            key, value = m.group(1), _unq(m.group(2))
            if key == "Seat":
                seats_raw.append((no, value))
            elif key in head:
                raise RecordError(no, f"a second {key} header")
            else:
                head[key] = value
                lines[key] = no
            if not lines.get("Format") and key != "Format":
                raise RecordError(no, f"the first line must be [Format \"{RECORD_FORMAT} "
                                      f"{RECORD_VERSION}\"]")
            if key == "Format":
                _check_format(value, no)
            continue
        body, comments = _split_comments(line, no)
        if not lines.get("Format"):
            raise RecordError(no, f"not a Tee Table record (no [Format \"{RECORD_FORMAT} ...\"]"
                                  " header)")
        if not body:
            for c in comments:
                if c.startswith("review ") and not plays:
                    notes.append((0, 0, c, no))
                elif plays:
                    plays[-1][5].append(c)
                else:
                    pre.append(c)
            continue
        m = _PLAY_RE.match(body)
        if not m:
            raise RecordError(no, f"a play line is '<n>. <seat> <play> [by]', not {body[:60]!r}")
        n, seat = int(m.group(1)), int(m.group(2))
        want = len(plays) + 1
        if n != want:
            raise RecordError(no, f"play {want} was expected here, this line is play {n} "
                                  "(a line is missing or out of order)")
        kept = []
        for c in comments:
            if c.startswith("review ") or c == "review":
                notes.append((n, seat, c, no))
            else:
                kept.append(c)
        plays.append((n, seat, m.group(3), m.group(4), no, kept))
    if "Format" not in head:
        raise RecordError(0, "not a Tee Table record (it is empty)")
    for key in ("Game", "Options", "Seed", "Plays"):
        if key not in head:
            raise RecordError(0, f"the header has no {key}")
    game = head["Game"]
    if game not in ("track", "layout"):
        raise RecordError(lines["Game"], f"unknown game {game!r} (expected track or layout)")
    try:
        config = json.loads(head["Options"])
    except ValueError:
        raise RecordError(lines["Options"], "the options are not JSON") from None
    if not isinstance(config, dict):
        raise RecordError(lines["Options"], "the options are not a mapping")
    if not re.fullmatch(r"\d{1,20}", head["Seed"]):
        raise RecordError(lines["Seed"], f"the seed {head['Seed']!r} is not a whole number")
    seats = []
    for i, (no, value) in enumerate(seats_raw):
        parts = value.split(" ", 2)
        if len(parts) < 2 or not parts[0].isdigit() or int(parts[0]) != i \
                or parts[1] not in LEVELS:
            raise RecordError(no, f"seat {i} is '[Seat \"{i} <person|easy|tricky|nasty> "
                                  f"<name>\"]', not {value!r}")
        level = parts[1]
        seats.append(RecordSeat(i, "person" if level == "person" else "cpu", level,
                                parts[2] if len(parts) > 2 else ""))
    if not seats:
        raise RecordError(0, "the header lists no seats")
    if not head["Plays"].isdigit():
        raise RecordError(lines["Plays"], f"the play count {head['Plays']!r} is not a number")
    out_plays = []
    for n, seat, tok, by, no, kept in plays:
        if seat >= len(seats):
            raise RecordError(no, f"there is no seat {seat} (the header lists {len(seats)})")
        out_plays.append(RecordPlay(n, seat, tok, by or _default_by(seats[seat]), no,
                                    tuple(kept)))
    annotations = tuple(parse_annotation(c, n, seat, no) for n, seat, c, no in notes)
    turns = head.get("Turns")
    if turns is not None and not turns.isdigit():
        raise RecordError(lines["Turns"], f"the turn count {turns!r} is not a number")
    return Record(game, config, int(head["Seed"]), tuple(seats), tuple(out_plays),
                  date=head.get("Date", ""), version=head.get("Version", ""),
                  result=head.get("Result", "*"), turns=int(turns) if turns else None,
                  points=head.get("Points", ""), final=head.get("Final", ""),
                  review=head.get("Review", ""), annotations=annotations,
                  comments=tuple(pre), lines=lines, header=head)


def _check_format(value: str, no: int) -> None:
    name, _, ver = value.partition(" ")
    if name != RECORD_FORMAT or not ver.isdigit():
        raise RecordError(no, f"not a Tee Table record (format {value!r})")
    if int(ver) > RECORD_VERSION:
        raise RecordError(no, f"this record is format {ver}, written by a newer Tee Table; "
                              f"this program reads format {RECORD_VERSION} and older")
    if int(ver) < 1:
        raise RecordError(no, f"unknown record format version {ver}")


# ------------------------------------------------------------------------------ replaying


@dataclass(frozen=True)
class Step:
    play: RecordPlay
    before: Any  # the state the play was made in
    after: Any
    events: list[dict[str, Any]]


def _start(rec: Record) -> tuple[GameRules, Any]:
    rules = rules_of(rec.game)
    try:
        config = rules.normalize_config(rec.config)
    except RulesError as e:
        raise RecordError(rec.lines.get("Options", 0), f"the options do not fit: {e}") from None
    state = rules.new_game(config, rec.seed)
    count = rules.seat_count(state)
    if len(rec.seats) != count:
        raise RecordError(rec.lines.get("Seats", 0),
                          f"the header lists {len(rec.seats)} seats, the game has {count}")
    rules_name, mode = _rules_mode(rec.game, config)
    for key, want in (("Rules", rules_name), ("Mode", mode), ("Seats", str(count))):
        line = rec.lines.get(key)
        if line is not None and _header_value(rec, key) != want:
            raise RecordError(line, f"the {key} header says {_header_value(rec, key)!r} but "
                                    f"the options make it {want!r}")
    return rules, state


def _header_value(rec: Record, key: str) -> str:
    return str(rec.header.get(key, ""))


def steps(rec: Record, *, events: bool = True) -> Iterator[Step]:
    """Replay ``rec`` play by play; a play that does not replay is a :class:`RecordError`
    naming its line."""
    rules, state = _start(rec)
    for p in rec.plays:
        mover = rules.to_move(state)
        if mover is None:
            raise RecordError(p.line, f"play {p.n}: the game was already over")
        if p.seat != mover:
            raise RecordError(p.line, f"play {p.n}: it is seat {mover}'s turn, not seat "
                                      f"{p.seat}'s (a line is missing, or the seed is wrong)")
        try:
            after, evs = _apply(rules, state, p.seat, p.token, events)
        except RulesError as e:
            raise RecordError(p.line, f"play {p.n} ({p.token}) does not replay: "
                                      f"{' '.join(str(e).split())}") from None
        yield Step(p, state, after, list(evs) if events else [])
        state = after


def replay(rec: Record) -> Any:
    """The final state of ``rec`` after checking it against its header (plays, result,
    final position): a :class:`RecordError` naming the line otherwise."""
    rules, state = _start(rec)
    for st in steps(rec, events=False):
        state = st.after
    want = rec.lines.get("Plays")
    if want is not None:
        n = int(_header_value(rec, "Plays") or len(rec.plays))
        if n != len(rec.plays):
            raise RecordError(want, f"the header counts {n} plays, the record holds "
                                    f"{len(rec.plays)} (a line is missing?)")
    oc = rules.outcome(state)
    result = ",".join(str(w) for w in oc["winners"]) if oc else "*"
    if rec.result != result:
        raise RecordError(rec.lines.get("Result", 0),
                          f"the header's result is {rec.result!r} but the plays end in "
                          f"{result!r}{_made_by(rec)}")
    if rec.final and rules.format_position(state) != rec.final:
        raise RecordError(rec.lines.get("Final", 0),
                          f"the plays replay to another final position than the header's"
                          f"{_made_by(rec)} (a wrong seed, or a changed play?)")
    return state


def _made_by(rec: Record) -> str:
    return f"; the record was made by Tee Table {rec.version}" if rec.version else ""


def read_record(text: str) -> tuple[Record, Any]:
    """Read ``text`` and check it by replaying it: ``(record, final state)``."""
    rec = parse_record(text)
    return rec, replay(rec)


def load(text: str) -> Record:
    """:func:`read_record` without the final state."""
    return read_record(text)[0]


__all__ = [
    "RECORD_FORMAT", "RECORD_VERSION", "Annotation", "Record", "RecordError", "RecordPlay",
    "RecordSeat", "Step", "format_annotation", "format_record", "load", "make_record",
    "parse_record", "read_record", "replay", "rules_of", "steps",
]
