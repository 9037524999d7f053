"""Track plays in words for people who do not know hole numbers (the moves list, the hint).

A peg is named by its colour and its rank among that colour's pegs on the track, counted from
the front (the one furthest along from its come-out hole): ``Red's peg`` when it is the only
one, else ``Red's front peg``, ``Red's 2nd peg``, ..., ``Red's back peg``; ``a Red peg from
start``; ``Red's peg in home 2``. Counts are ``+5`` / ``-4``; landing on another colour's peg
says ``bumps Blue``; the joker says what it lands on::

    5:a12+5        ->  5: Red's front peg +5
    6:a0+6h        ->  6: Red's peg +6 into home 3
    7:a12+3,c40+4  ->  7: Red's peg +3, then Yellow's peg +4 (bumps Blue)
    JK:as>36       ->  Joker: a Red peg from start jumps onto Blue's back peg
    J:a12x40       ->  Jack: Red's peg swaps with Blue's front peg
    K:as           ->  King: a Red peg comes out
    9:x            ->  9: discard

Pure functions of the play's parts and the seat's view (``view["pegs"]``: per colour, five
places ``"s"``, a ring hole or ``"h3"``).

Seat-relative words: given ``me`` (the seat of the one person at the screen), that colour's
pegs and places are "yours" everywhere a play is told (the moves list and hints through
:func:`describe_play`, the move log through :func:`tell_track`): ``your back peg``, ``one
of your pegs from start``, ``your come-out hole``, ``(bumps you)``. Both name pegs and places
through the one :class:`PegNamer`, so the list and the log never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.client.theme import SEAT_COLOUR_NAMES
from game.rules.track.board import Board
from game.rules.track.engine import Bump, Part, loc_event

CARD_NAMES = {0: "Joker", 1: "Ace", 10: "10", 11: "Jack", 12: "Queen", 13: "King"}
ORDINALS = ("front", "2nd", "3rd", "4th", "5th")


def card_name(rank: int) -> str:
    return CARD_NAMES.get(rank, str(rank))


def colour_name(colour: int) -> str:
    return SEAT_COLOUR_NAMES[colour % len(SEAT_COLOUR_NAMES)]


def _is_home(loc: Any) -> bool:
    return isinstance(loc, str) and loc.startswith("h")


class PegNamer:
    """Names pegs and places of one position (the view the moves list was made from);
    ``me``'s colour in the second person ("your peg"), None: every colour by name."""

    def __init__(self, pegs: Sequence[Sequence[Any]], me: int | None = None) -> None:
        self.pegs = [list(p) for p in pegs]
        self.board = Board(max(1, len(self.pegs)))
        self.me = me

    def owner(self, colour: int) -> str:
        """``Red's`` (``your`` for ``me``'s colour)."""
        return "your" if colour == self.me else f"{colour_name(colour)}'s"

    def whom(self, colour: int) -> str:
        """A colour as an object: ``Blue`` (``you`` for ``me``'s colour)."""
        return "you" if colour == self.me else colour_name(colour)

    def progress(self, colour: int, hole: int) -> int:
        return self.board.distance(self.board.come_out(colour), hole)

    def peg(self, colour: int, loc: Any) -> str:
        col = self.owner(colour)
        if loc == "s":
            return self.from_start(colour)
        if _is_home(loc):
            return f"{col} peg in home {str(loc)[1:]}"
        ring = sorted((x for x in self.pegs[colour] if isinstance(x, int)),
                      key=lambda h: -self.progress(colour, h))
        if len(ring) <= 1 or loc not in ring:
            return f"{col} peg"
        i = ring.index(loc)
        word = "back" if i == len(ring) - 1 else ORDINALS[i]
        return f"{col} {word} peg"

    def from_start(self, colour: int) -> str:
        """``a Red peg from start`` (``one of your pegs from start``)."""
        if colour == self.me:
            return "one of your pegs from start"
        return f"a {colour_name(colour)} peg from start"

    def place(self, hole: int) -> str:
        """A ring hole by the nearest landmark: a colour's come-out hole or home turn."""
        seats = len(self.pegs)
        for c in range(seats):
            if hole == self.board.come_out(c):
                return f"{self.owner(c)} come-out hole"
            if hole == self.board.in_spot(c):
                return f"{self.owner(c)} home turn"
        best = min(range(seats), key=lambda c: self.board.distance(hole,
                                                                    self.board.come_out(c)))
        d = self.board.distance(hole, self.board.come_out(best))
        return f"{d} before {self.owner(best)} come-out hole"


def describe_parts(rank: int, parts: Sequence[tuple[Any, ...]],
                   pegs: Sequence[Sequence[Any]],
                   bumps: Sequence[Sequence[tuple[Any, ...]]] = (),
                   me: int | None = None) -> str:
    """A play (its card rank and engine parts ``(kind, peg_id, from, to, n)``, places as in
    the engine or as event places) in words, for the position ``pegs``. ``bumps`` (the
    play's own, one tuple of ``(peg_id, from, to)`` per part) tells a bump back to start
    from a partner sent on to its in-spot (classic and team). ``me``: the colour told as
    "your" (see the module's docstring)."""
    namer = PegNamer(pegs, me)
    occupied: dict[int, int] = {}
    for c, locs in enumerate(namer.pegs):
        for loc in locs:
            if isinstance(loc, int):
                occupied[loc] = c
    out: list[str] = []
    for i, raw in enumerate(parts):
        part = Part(*raw)  # read by name (an engine part already is one)
        kind = part.kind
        if kind == "x":
            return f"{card_name(rank)}: discard"
        if kind not in ("o", "f", "b", "j", "t"):
            raise ValueError(f"not a play in this position: {part!r}")
        pid, frm, to, n = part.peg, _ev(part.frm), _ev(part.to), part.n
        colour = pid // 5
        who = namer.peg(colour, frm)
        if kind == "o":
            text = f"{namer.from_start(colour).removesuffix(' from start')} comes out"
        elif kind in ("f", "b"):
            sign = "+" if kind == "f" else "-"
            text = f"{who} {sign}{n}"
            if _is_home(to):
                text += f" to home {str(to)[1:]}" if _is_home(frm) else \
                    f" into home {str(to)[1:]}"
            elif _is_home(frm):
                text += " back out of home"
        elif kind == "j":
            other = occupied.get(to) if isinstance(to, int) else None
            if other is not None:
                text = f"{who} jumps onto {namer.peg(other, to)}"
                other = None  # said already: no "bumps" too
            else:
                text = f"{who} jumps to {namer.place(int(to))}"
        elif kind == "t":
            other = occupied.get(to) if isinstance(to, int) else None
            mate = namer.peg(other, to) if other is not None else namer.place(int(to))
            text = f"{who} swaps with {mate}"
        else:
            text = f"{who} swaps"  # pragma: no cover (kinds checked above)
        if kind in ("o", "f", "b") and isinstance(to, int):
            other = occupied.get(to)
            if other is not None and other != colour:
                sent_on = any(_ev(Bump(*b).to) != "s"
                              for b in (bumps[i] if i < len(bumps) else ()))
                text += (f" (sends {namer.whom(other)} on)" if sent_on
                         else f" (bumps {namer.whom(other)})")
        if isinstance(frm, int) and kind != "t":
            occupied.pop(frm, None)
        if isinstance(to, int) and kind != "t":
            occupied[to] = colour
        out.append(text)
    if not out:
        return card_name(rank)
    return f"{card_name(rank)}: " + ", then ".join(out)


def _ev(loc: Any) -> Any:
    """An engine place (int code) or an event place (``"s"``, int, ``"h3"``) as an event
    place."""
    if isinstance(loc, str):
        return loc
    return loc_event(int(loc))


def describe_play(play: Any, view: dict[str, Any], me: int | None = None) -> str:
    """An engine :class:`~game.rules.track.engine.Play` in words, for ``view`` (``me``'s
    colour as "your")."""
    return describe_parts(int(play.rank), play.parts, view.get("pegs") or [], play.bumps, me)


def describe_token(tok: str, view: dict[str, Any], me: int | None = None) -> str:
    """A play token in words for the position of ``view``:
    ``JK:as>36`` -> ``Joker: a Red peg from start jumps onto Blue's back peg``."""
    from game.rules.track import RULES as TRACK

    state = TRACK.determinize(view, 0)
    return describe_play(TRACK.parse_play(state, tok), view, me)


# ----------------------------------------------------------------------------- the move log
#
# What a play message's events said, in words (the move log beside the board). ``names`` are
# the seats' names for people (``seat_label``); ``me`` is this screen's seat (its pegs are
# "your peg", its plays "You played"), None for a spectator.

ARTICLED = {1: "an Ace", 8: "an 8", 0: "a Joker"}


def a_card(rank: int) -> str:
    """``an Ace``, ``a 7``, ``an 8``, ``a Joker``."""
    return ARTICLED.get(rank, f"a {card_name(rank)}")


def _who(seat: int, names: Sequence[str], me: int | None) -> str:
    if me is not None and seat == me:
        return "You"
    return names[seat] if 0 <= seat < len(names) else colour_name(seat)


def _subject(seat: int, names: Sequence[str], me: int | None) -> str:
    """A seat as the subject of a sentence that is not the play's own (``Yellow folds``)."""
    return _who(seat, names, me)


def _bump_words(namer: PegNamer, bumps: list[dict[str, Any]]) -> str:
    """A part's bumps: the first one landed on, then the chain (a partner sent on to its home
    turn may land on another peg in turn)."""
    out: list[str] = []
    for k, b in enumerate(bumps):
        peg = namer.peg(int(b["colour"]), b["from"])
        fate = "went back to start" if b["to"] == "s" else "was sent on to its home turn"
        if k == 0:
            out.append(f"onto {peg}, which {fate}")
        else:
            fate2 = "back to start" if b["to"] == "s" else "on to its home turn"
            out.append(f"and knocked {peg} {fate2}")
    return " ".join(out)


def _place_words(namer: PegNamer, loc: Any) -> str:
    if isinstance(loc, str) and loc.startswith("h"):
        return f"home {loc[1:]}"
    return namer.place(int(loc)) if isinstance(loc, int) else str(loc)


def tell_track(seat: int, events: Sequence[dict[str, Any]], pegs: Sequence[Sequence[Any]],
               names: Sequence[str], me: int | None = None) -> list[str]:
    """A track play message in words: the play and what it caused, then what followed it
    (folds, a new deal, a reshuffle, the end). ``pegs`` is the position before the play
    (``view["pegs"]``). One line for the play, one per thing that followed::

        Blue played an Ace: came out onto your peg, which went back to start
        Yellow folds: no card can move
    """
    namer = PegNamer(pegs, me) if pegs else None
    lines: list[str] = []
    head: str | None = None
    parts: list[str] = []
    i = 0
    evs = list(events)
    while i < len(evs):
        ev = evs[i]
        t = ev.get("type")
        if t == "play":
            card = ev.get("card")
            rank = int(card) >> 2 if isinstance(card, int) else -1
            who = _who(int(ev["seat"]), names, me)
            what = a_card(rank) if rank >= 0 else "a card"
            if ev.get("discard"):
                head = f"{who} discarded {what}: no card could move a peg"
            else:
                head = f"{who} played {what}"
        elif t in ("move", "come_out", "trade") and namer is not None:
            c = int(ev["colour"])
            bumps: list[dict[str, Any]] = []
            j = i + 1
            while j < len(evs) and evs[j].get("type") in ("bump", "home"):
                if evs[j].get("type") == "bump":
                    bumps.append(evs[j])
                j += 1
            peg = namer.peg(c, ev.get("from"))
            if t == "come_out":
                text = "came out" if c == seat else f"brought a {colour_name(c)} peg out"
                if me is not None and c == me and c != seat:
                    text = "brought one of your pegs out"
            elif t == "trade":
                oc = int(ev["other_colour"])
                other = namer.peg(oc, ev["to"])
                text = f"swapped {peg} with {other}"
            elif ev.get("jump"):
                text = f"jumped {peg} to {_place_words(namer, ev['to'])}"
                if bumps:
                    text = f"jumped {peg}"
            else:
                n = int(ev.get("steps") or 0)
                way = "back" if ev.get("backward") else "ahead"
                text = f"moved {peg} {n} {way}"
                to, frm = ev.get("to"), ev.get("from")
                if _is_home(to) and _is_home(frm):
                    text = f"moved {namer.owner(c)} peg from home {str(frm)[1:]} to home " \
                           f"{str(to)[1:]}"
                elif _is_home(to):
                    text += f" into home {str(to)[1:]}"
            if bumps:
                text += " " + _bump_words(namer, bumps)
            parts.append(text)
            _apply_event(namer, ev)
            for b in bumps:
                _apply_event(namer, b)
            i = j
            continue
        elif t == "fold":
            lines.append(f"{_subject(int(ev['seat']), names, me)} "
                         f"{'fold' if me is not None and ev['seat'] == me else 'folds'}: "
                         "no card can move")
        elif t == "deal" and ev.get("counts"):
            counts = [int(x) for x in ev["counts"]]
            k = max(counts)
            lines.append(f"A new deal: {k} card{'s' if k != 1 else ''} each")
        elif t == "reshuffle":
            lines.append("The discards were shuffled into a new pile")
        elif t == "game_over":
            winners = [int(w) for w in ev.get("winners", [])]
            if winners:
                who = " and ".join(_who(w, names, me) for w in winners)
                lines.append(f"{who} {'win' if len(winners) > 1 or who == 'You' else 'wins'}!")
        i += 1
    if head is not None:
        lines.insert(0, head + (": " + ", then ".join(parts) if parts else ""))
    return lines


def _apply_event(namer: PegNamer, ev: dict[str, Any]) -> None:
    """Move the namer's pegs as the event did (so later parts name pegs where they are)."""
    t = ev.get("type")
    try:
        if t == "trade":
            c, oc = int(ev["colour"]), int(ev["other_colour"])
            a, b = namer.pegs[c], namer.pegs[oc]
            ia, ib = a.index(ev["from"]), b.index(ev["to"])
            a[ia], b[ib] = ev["to"], ev["from"]
            return
        c = int(ev["colour"])
        locs = namer.pegs[c]
        locs[locs.index(ev["from"])] = ev["to"]
    except (ValueError, IndexError, KeyError):
        pass  # a view that does not hold the peg there: later names may be plainer


def _layout_card(card: Any) -> str:
    """A Trash card named in a sentence: ``the 4``, ``a Queen``."""
    if not isinstance(card, int):
        return "a card"
    rank = card >> 2
    return f"the {card_name(rank)}"


def tell_layout(seat: int, events: Sequence[dict[str, Any]], names: Sequence[str],
                me: int | None = None) -> list[str]:
    """A Trash play message in words: where the card came from and the chain it set off,
    then what followed (a completed layout, a hand won, the game)::

        Blue drew from the stock, placed the 4, the Jack went to place 7, discarded a Queen
    """
    lines: list[str] = []
    chain: list[str] = []
    who: str | None = None
    for ev in events:
        t = ev.get("type")
        s = ev.get("seat")
        if t == "drawn":
            who = _who(int(s), names, me) if isinstance(s, int) else who
            card = ev.get("card")
            if ev.get("source") == "stock":
                chain.append(f"drew {a_card(card >> 2)} from the stock" if isinstance(card, int)
                             else "drew from the stock")
            else:
                chain.append(f"took {_layout_card(ev.get('card'))} from the discard pile")
        elif t == "placed":
            chain.append(f"placed {_layout_card(ev.get('card'))}")
        elif t == "wild_placed":
            who = who or (_who(int(s), names, me) if isinstance(s, int) else None)
            if chain:
                chain.append(f"{_layout_card(ev.get('card'))} went to place {ev.get('place')}")
            else:  # the play was where to put the wild card
                chain.append(f"put {_layout_card(ev.get('card'))} on place {ev.get('place')}")
        elif t == "wild_displaced":
            chain.append(f"took {_layout_card(ev.get('card'))} back off place {ev.get('place')}")
        elif t == "discarded":
            card = ev.get("card")
            name = a_card(int(card) >> 2) if isinstance(card, int) else "a card"
            chain.append(f"discarded {name}")
        elif t == "completed":
            w = _who(int(s), names, me) if isinstance(s, int) else "Someone"
            lines.append(f"{w} completed the layout!" +
                         (" Everyone else has one last turn." if ev.get("last_chance") else ""))
        elif t == "passed" and isinstance(s, int):
            lines.append(f"{_who(s, names, me)} passed: nothing to take")
        elif t == "hand_dead":
            lines.append(f"Hand {ev.get('hand')} is stuck: no one can finish it")
        elif t == "hand_won":
            ws = [int(x) for x in ev.get("winners", [])]
            lines.append(" and ".join(_who(x, names, me) for x in ws) +
                         f" won hand {ev.get('hand')}")
        elif t == "dealt":
            lines.append(f"Hand {ev.get('hand')} dealt")
        elif t == "game_won":
            ws = [int(x) for x in ev.get("winners", [])]
            text = " and ".join(_who(x, names, me) for x in ws)
            lines.append(f"{text} {'win' if len(ws) > 1 or text == 'You' else 'wins'} "
                         "the game!")
    if chain:
        subject = who or _who(seat, names, me)
        lines.insert(0, f"{subject} " + ", ".join(chain))
    return lines


# ----------------------------------------------------------------------------- refusals
#
# Why a picked card has no play, in a player's words, from the rules' own reasons: the rules
# are asked about the play the card would make with each of the person's pegs (their refusal
# names the count the card moves, a last-resort landing, a card that cannot bring a peg out),
# and what stands in the way on the board is named where the rules only give their rule.

RANK_TOKENS = {0: "JK", 1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


def _probe(rules: Any, state: Any, seat: int, tok: str) -> str | None:
    """The rules' refusal of ``tok`` (None when it is legal)."""
    try:
        rules.check(state, seat, tok)
    except Exception as e:  # the rules' refusal (IllegalPlay and its kin) is the reason
        return str(e)
    return None


def why_card_cannot(rank: int, view: dict[str, Any]) -> str:
    """Why a card of ``rank`` moves no peg in ``view`` (the screen's seat to move), e.g.
    ``That 5 cannot move a peg now: your front peg is blocked by your own peg at Blue's
    come-out hole.``"""
    import re

    from game.rules.track import RULES as TRACK

    name = card_name(rank)
    head = f"That {name} cannot move a peg now"
    seat = view.get("seat")
    if not isinstance(seat, int):
        return head + "."
    state = TRACK.determinize(view, 0)
    pegs = view.get("pegs") or []
    namer = PegNamer(pegs, seat)
    board = namer.board
    cols = [int(c) for c in view.get("controlled") or [seat]]
    r = RANK_TOKENS.get(rank, str(rank))
    teams = view.get("teams") or []
    mates = next((set(t) for t in teams if seat in t), {seat})
    tees = (view.get("config") or {}).get("rules") == "tees"
    reasons: list[str] = []
    letters = "abcdefgh"
    on_track = [(c, loc) for c in cols for loc in pegs[c] if isinstance(loc, int)]
    in_start = [c for c in cols if "s" in pegs[c]]
    # the count the card moves, as the rules say it
    count: tuple[str, int] | None = None
    if on_track:
        c, loc = on_track[0]
        for sign in "+-":
            msg = _probe(TRACK, state, seat, f"{r}:{letters[c]}{loc}{sign}1")
            m = re.search(r"moves ([+-])(\d+)", msg or "")
            if msg is None:
                count = (sign, 1)
                break
            if m:
                count = (m.group(1), int(m.group(2)))
                break
    for c, loc in on_track:
        if count is None:
            break
        sign, n = count
        who = namer.peg(c, loc)
        msg = _probe(TRACK, state, seat, f"{r}:{letters[c]}{loc}{sign}{n}") or ""
        if "last resort" in msg:
            reasons.append(f"{who} would land on your partner's peg, which is allowed only "
                           "when no other play is left")
            continue
        step = 1 if sign == "+" else -1
        to_turn = board.distance(loc, board.in_spot(c)) if sign == "+" else n + 1
        path: list[Any] = [(loc + step * k) % board.ring for k in range(1, min(n, to_turn) + 1)]
        path += [f"h{k}" for k in range(1, n - to_turn + 1)] if n > to_turn else []
        blocker = None
        for h in path:
            for oc in range(len(pegs)):
                own = oc == c or (tees and oc in mates and isinstance(h, int))
                if own and h in pegs[oc] and (isinstance(h, int) or oc == c):
                    blocker = (oc, h)
                    break
            if blocker:
                break
        if blocker is not None:
            oc, h = blocker
            by = namer.peg(oc, h) if oc == c else \
                f"your partner's peg ({colour_name(oc)})"
            reasons.append(f"{who} is blocked by {by}")
        elif n - to_turn > 5:
            reasons.append(f"{who} would go past the end of home (it needs an exact count)")
        elif msg:
            reasons.append(f"{who} cannot go {sign}{n} from there")
    if in_start:
        c = in_start[0]
        msg = _probe(TRACK, state, seat, f"{r}:{letters[c]}s")
        if msg is not None and "cannot bring a peg out" in msg:
            if not on_track:
                reasons.append(f"a {name} cannot bring a peg out of start")
        elif msg is not None:
            hole = board.come_out(c)
            if hole in pegs[c]:
                reasons.append("your own peg stands on your come-out hole")
            else:
                reasons.append("no peg can come out now")
    if rank == 0 and not reasons:
        reasons.append("a joker has no peg to jump onto")
    if not reasons:
        return head + "."
    text = "; ".join(reasons[:3])
    return f"{head}: {text}."


def why_no_discard(view: dict[str, Any], legal: Sequence[Any]) -> str:
    """Why D does nothing now: tees folds instead, or some card can move a peg."""
    if (view.get("config") or {}).get("rules") == "tees":
        return ("Tees has no discards: a seat whose cards cannot move folds by itself.")
    movers = sorted({int(p.rank) for p in legal if p.parts and not p.is_discard})
    if movers:
        cards = ", ".join(a_card(k) for k in movers[:3])
        return f"No discarding now: you can move a peg (with {cards})."
    return "No discarding now."


def trash_words(tok: str) -> str:
    """A Trash play's notation with its words: ``S``, ``D``, ``W3`` (the bare token when it
    is none of these)."""
    if tok == "S":
        return "S (a card from the stock)"
    if tok == "D":
        return "D (the top discard)"
    if tok[:1] == "W" and tok[1:].isdigit():
        return f"{tok} (the wild card on place {tok[1:]})"
    return tok
