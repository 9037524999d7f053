"""Text forms of the track game: play tokens and one-line positions (see docs/notation.md)."""

from __future__ import annotations

import re
from collections import Counter

from game.rules.api import ConfigError, NotationError, RulesError
from game.rules.cards import CardError, card_text, parse_card, seed_state
from game.rules.track.board import PEGS
from game.rules.track.engine import (
    COLOURS,
    HOME0,
    RANK_CHARS,
    START,
    TEES,
    TEES_ROUNDS,
    Part,
    Play,
    TrackState,
    _tees_continue,
    done,
    gen_legal,
    loc_text,
    make_cfg,
)

_RANK_RE = r"(JK|10|[A2-9TJQK])"
_TOKEN_RE = re.compile(r"^\s*" + _RANK_RE + r"\s*:\s*(\S+)\s*$", re.IGNORECASE)
_PART_RE = re.compile(
    r"^([a-h])(s|h[1-5]|\d{1,3})(?:(\+)(\d{1,2})(h?)|(-)(\d{1,2})|(>)(\d{1,3})|(x)(\d{1,3}))?$"
)


TokenPart = tuple[str, int, int, int, bool]  # (kind, colour, loc, n_or_target, to_home)


def parse_token(text: str) -> tuple[int, list[TokenPart]]:
    """Read a play token. Returns ``(rank, parts)``; each part is
    ``(kind, colour, loc, n_or_target, to_home)`` with kind ``o f b j t x`` and ``loc`` an
    engine location (``START``, ring hole, ``HOME0 + k``). Raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"a play token must be text, not {type(text).__name__}")
    m = _TOKEN_RE.match(text)
    if not m:
        raise NotationError(
            f"cannot read play {text!r}: expected <card>:<what>, like 5:a12+5, K:as, 7:a3+2,b40+5,"
            " J:a12x40, JK:as>40 or 9:x"
        )
    rt = m.group(1).upper()
    rank = 10 if rt == "10" else RANK_CHARS.index(rt)
    body = m.group(2)
    if body.lower() == "x":
        return rank, [("x", -1, 0, 0, False)]
    parts: list[TokenPart] = []
    for ptext in body.split(","):
        pm = _PART_RE.match(ptext.lower())
        if not pm:
            raise NotationError(
                f"cannot read {ptext!r} in play {text!r}: expected colour a-h, a place (s, a hole"
                " number, h1-h5), then +n, -n, >hole or xhole"
            )
        colour = COLOURS.index(pm.group(1))
        lt = pm.group(2)
        loc = START if lt == "s" else (HOME0 + int(lt[1:]) if lt[0] == "h" else int(lt))
        if pm.group(3):
            parts.append(("f", colour, loc, int(pm.group(4)), bool(pm.group(5))))
        elif pm.group(6):
            parts.append(("b", colour, loc, int(pm.group(7)), False))
        elif pm.group(8):
            parts.append(("j", colour, loc, int(pm.group(9)), False))
        elif pm.group(10):
            parts.append(("t", colour, loc, int(pm.group(11)), False))
        else:
            if loc != START:
                raise NotationError(
                    f"{ptext!r} in play {text!r}: only a start peg (like 'as') stands alone")
            parts.append(("o", colour, loc, 0, False))
    if len(parts) > 2:
        raise NotationError(f"play {text!r} has {len(parts)} parts; a split has at most 2")
    return rank, parts


def canonical_token(text: str) -> str:
    rank, parts = parse_token(text)
    if parts[0][0] == "x":
        return RANK_CHARS[rank] + ":x"
    out = []
    for kind, colour, loc, n, h in parts:
        c = COLOURS[colour] + loc_text(loc)
        if kind == "o":
            out.append(c)
        elif kind == "f":
            out.append(f"{c}+{n}" + ("h" if h else ""))
        elif kind == "b":
            out.append(f"{c}-{n}")
        elif kind == "j":
            out.append(f"{c}>{n}")
        else:
            out.append(f"{c}x{n}")
    return RANK_CHARS[rank] + ":" + ",".join(out)


def raw_play(text: str) -> Play:
    """A play object for a readable token that is not (necessarily) legal anywhere."""
    tok = canonical_token(text)
    rank, _ = parse_token(tok)
    p = Play(rank, (Part("?", -1, 0, 0, 0),))
    p._tok = tok
    return p


# --------------------------------------------------------------------------------------------
# Positions


def _mode_text(cfg: object) -> str:
    mode = cfg.mode  # type: ignore[attr-defined]
    return f"teams{cfg.nteams}" if mode == "teams" else mode  # type: ignore[attr-defined]


def format_position(s: TrackState, hide_hand: bool = False) -> str:
    cfg = s.cfg
    n = cfg.n
    fields = [cfg.conf["rules"], str(n), _mode_text(cfg),
              "jokers=" + ("on" if cfg.jokers else "off"),
              "seven=" + ("on" if cfg.seven else "off")]
    for c in range(n):
        locs = sorted(s.pegs[c * PEGS:(c + 1) * PEGS])
        fields.append(COLOURS[c] + ":" + ",".join(loc_text(x) for x in locs))
    if s.turn < 0:
        fields.append("turn=-")
        fields.append("hand=-")
    else:
        fields.append("turn=" + COLOURS[s.turn])
        hand = s.hands[s.turn]
        fields.append("hand=" + ("?" if hide_hand else (",".join(map(card_text, hand)) or "-")))
    fields.append("cards=" + ",".join(str(len(h)) for h in s.hands))
    fields.append(f"pile={len(s.pile)}")
    fields.append(f"discards={len(s.discards)}")
    if cfg.rules == TEES:
        fields.append("dealer=" + COLOURS[s.dealer])
        fields.append(f"round={s.round}")
    if cfg.mode == "solo":
        fields.append(f"turns={s.nplays}")
    return " ".join(fields)


def _int(key: str, v: str) -> int:
    if not v.isdigit():
        raise NotationError(f"{key}= needs a whole number, not {v!r}")
    return int(v)


def _colour(key: str, v: str, n: int) -> int:
    if len(v) != 1 or v not in COLOURS[:n]:
        raise NotationError(f"{key}= needs a colour letter a-{COLOURS[n - 1]}, not {v!r}")
    return COLOURS.index(v)


def _onoff(key: str, v: str) -> bool:
    if v not in ("on", "off"):
        raise NotationError(f"{key}= must be on or off, not {v!r}")
    return v == "on"


def parse_position(text: str, settle: bool = True) -> TrackState:
    """Read a one-line position. Hidden cards (other hands, the pile, the discards) are filled
    deterministically from the cards not in the mover's hand, so the mover's legal plays are
    exact. A tees mover without a legal play folds at once unless ``settle`` is false (then
    the state is left as written, with no legal play: for tests)."""
    if not isinstance(text, str):
        raise NotationError(f"a position must be text, not {type(text).__name__}")
    f = text.split()
    if len(f) < 4:
        raise NotationError(
            "a position starts with rules, seats and mode, like 'classic 4 teams2 jokers=on ...'")
    rules, seats_t, mode_t = f[0], f[1], f[2]
    if not seats_t.isdigit():
        raise NotationError(f"seats must be a number, not {seats_t!r}")
    seats = int(seats_t)
    m = re.fullmatch(r"teams(\d)|h2h|ffa|solo", mode_t)
    if not m:
        raise NotationError(f"mode must be teams2/teams3/teams4, h2h, ffa or solo, not {mode_t!r}")
    mode = "teams" if m.group(1) else mode_t
    teams = int(m.group(1)) if m.group(1) else None
    kv: dict[str, str] = {}
    for item in f[3:]:
        if ":" in item and "=" not in item:
            key, _, v = item.partition(":")
            key = key + ":"
        elif "=" in item:
            key, _, v = item.partition("=")
        else:
            raise NotationError(f"cannot read {item!r}: expected key=value or colour:pegs")
        if key in kv:
            raise NotationError(f"{key!r} appears twice in the position")
        kv[key] = v
    need = ["jokers", "seven", "turn", "hand", "cards", "pile", "discards"]
    for k in need:
        if k not in kv:
            raise NotationError(f"the position lacks {k}=")
    conf = {"rules": rules, "seats": seats, "mode": mode, "jokers": _onoff("jokers", kv["jokers"]),
            "seven_to_partner": _onoff("seven", kv["seven"])}
    if teams is not None:
        conf["teams"] = teams
    try:
        cfg = make_cfg(conf)
    except ConfigError as e:
        raise NotationError(f"bad game in position: {e}") from None
    if cfg.jokers != conf["jokers"]:
        raise NotationError(f"{rules} {mode} has no jokers: write jokers=off")
    n = cfg.n
    R = cfg.R
    allowed = {"jokers", "seven", "turn", "hand", "cards", "pile", "discards"}
    allowed.update(COLOURS[c] + ":" for c in range(n))
    if cfg.rules == TEES:
        allowed.update(("dealer", "round"))
    if cfg.mode == "solo":
        allowed.add("turns")
    extra = sorted(set(kv) - allowed)
    if extra:
        raise NotationError(f"unexpected field(s) {', '.join(extra)} for {rules} {n} {mode_t}")
    pegs: list[int] = []
    for c in range(n):
        key = COLOURS[c] + ":"
        if key not in kv:
            raise NotationError(f"the position lacks the pegs of colour {COLOURS[c]} ({key}...)")
        items = kv[key].split(",")
        if len(items) != PEGS:
            raise NotationError(f"colour {COLOURS[c]} needs 5 pegs, not {len(items)}")
        locs = []
        for it in items:
            if it == "s":
                locs.append(START)
            elif re.fullmatch(r"h[1-5]", it):
                locs.append(HOME0 + int(it[1]))
            elif it.isdigit() and int(it) < R:
                locs.append(int(it))
            else:
                raise NotationError(
                    f"colour {COLOURS[c]}: {it!r} is not s, a hole 0..{R - 1} or h1..h5")
        homes = [x for x in locs if x >= HOME0]
        if len(set(homes)) != len(homes):
            raise NotationError(f"colour {COLOURS[c]} has two pegs in one home hole")
        locs.sort()
        pegs.extend(locs)
    ring = [x for x in pegs if 0 <= x < HOME0]
    if len(set(ring)) != len(ring):
        dup = sorted(x for x, k in Counter(ring).items() if k > 1)
        raise NotationError(f"two pegs share hole {dup[0]}")
    # whose turn, hands
    if kv["turn"] == "-":
        turn = -1
    else:
        turn = _colour("turn", kv["turn"], n)
    counts_t = kv["cards"].split(",")
    if len(counts_t) != n:
        raise NotationError(f"cards= needs {n} hand sizes, not {len(counts_t)}")
    counts = [_int("cards", x) for x in counts_t]
    pile_n = _int("pile", kv["pile"])
    disc_n = _int("discards", kv["discards"])
    hand_t = kv["hand"]
    hand: list[int] | None
    if hand_t == "?":
        hand = None
    else:
        try:
            hand = sorted(parse_card(x) for x in hand_t.split(",")) if hand_t != "-" else []
        except CardError as e:
            raise NotationError(f"hand=: {e}") from None
    if turn < 0 and hand:
        raise NotationError("a finished game has no hand to move: write hand=-")
    if turn >= 0 and hand is not None and len(hand) != counts[turn]:
        raise NotationError(
            f"hand= holds {len(hand)} cards but cards= says seat {COLOURS[turn]} holds "
            f"{counts[turn]}")
    if turn >= 0 and counts[turn] == 0:
        raise NotationError("the seat to move holds no cards")
    deck = Counter(cfg.deck)
    if hand:
        need_c = Counter(hand)
        for card, copies in need_c.items():
            if deck[card] < copies:
                raise NotationError(f"the pack holds only {deck[card]} of {card_text(card)}")
        deck.subtract(need_c)
    total = sum(counts) + pile_n + disc_n
    if total != len(cfg.deck):
        raise NotationError(
            f"hands, pile and discards hold {total} cards, but the pack has {len(cfg.deck)}")
    rest = sorted(deck.elements())
    pos = 0
    discards = tuple(rest[pos:pos + disc_n])
    pos += disc_n
    hands = []
    for c in range(n):
        if c == turn and hand is not None:
            hands.append(tuple(hand))
        else:
            hands.append(tuple(rest[pos:pos + counts[c]]))
            pos += counts[c]
    s = TrackState(cfg=cfg, seed=0, pegs=tuple(pegs), hands=tuple(hands), pile=tuple(rest[pos:]),
                   discards=discards, rng=seed_state(0), turn=turn, dealer=n - 1, round=0,
                   nplays=0, winner=-1, idle=0)
    if cfg.rules == TEES:
        for k in ("dealer", "round"):
            if k not in kv:
                raise NotationError(f"a tees position needs {k}=")
        s.dealer = _colour("dealer", kv["dealer"], n)
        s.round = _int("round", kv["round"])
        if not 0 <= s.round <= len(TEES_ROUNDS[n]):
            raise NotationError(f"round= must be 0..{len(TEES_ROUNDS[n])}, not {s.round}")
    if cfg.mode == "solo":
        if "turns" not in kv:
            raise NotationError("a solo position needs turns=")
        s.nplays = _int("turns", kv["turns"])
    winners = [t for t, cols in enumerate(cfg.teams) if all(done(s.pegs, c) for c in cols)]
    if len(winners) > 1:
        raise NotationError("more than one team has every peg home")
    if winners:
        if turn >= 0:
            raise NotationError(f"team {winners[0]} has every peg home: the game is over (turn=-)")
        s.winner = winners[0]
    elif turn < 0:
        raise NotationError("turn=- but no team has every peg home")
    if settle and turn >= 0 and cfg.rules == TEES and not gen_legal(s):
        # Not reachable by play: the engine would have folded this seat. Do it now.
        cards = s.hands[turn]
        hl = list(s.hands)
        hl[turn] = ()
        s.hands = tuple(hl)
        s.discards = s.discards + cards
        try:
            _tees_continue(s, turn, None)
        except RulesError as e:
            raise NotationError(f"no seat can play from this position: {e}") from None
    return s
