"""One-line positions of the layout game (see ``docs/notation.md`` ("The layout game")).

A position is ``layout`` followed by space-separated ``key=value`` fields::

    layout seats=2 wild=J lastchance=0 upcard=0 size=10 first=- seed=7 hand=1 leader=0 turn=0
    phase=source hold=- passes=0 ply=0 rng=123 last=- sizes=10,10
    p0=?AS,?9D,3C,... p1=... stock=5H,KS,... discard=QD,4C

(one line). Places are listed from place 1; ``?XX`` is a face-down card (``?`` alone when
hidden), ``XX`` a face-up card. Piles are listed bottom first: the last card is the top.
The **full** form (``format_position(state)``) holds every hidden card, the stock order and the
generator state; the **public** form (``public=True``) writes face-down places as ``?``, the
stock as its count and ``rng=?``. Reading a public position deals the hidden cards at random
from the unseen part of the pack, fixed by its ``seed``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from game.rules.api import ConfigError, NotationError, RulesError
from game.rules.cards import CardError, card_text, parse_card, seed_state
from game.rules.layout.engine import (
    OVER,
    PHASE_NAMES,
    SOURCE,
    UP,
    WILD,
    State,
    full_pack,
    is_live,
    start_turn,
)

_ORDER = (
    "seats", "wild", "lastchance", "upcard", "size", "first", "seed", "hand", "leader", "turn",
    "phase", "hold", "passes", "ply", "rng", "last", "sizes",
)


def _cards(cs: list[int]) -> str:
    return ",".join(card_text(c) for c in cs) if cs else "-"


def _seats(xs: list[int]) -> str:
    return ".".join(map(str, xs))


def format_position(st: State, public: bool = False) -> str:
    cfg = st.cfg
    f = [
        "layout",
        f"seats={st.n}",
        f"wild={cfg['wild']}",
        f"lastchance={int(cfg['last_chance'])}",
        f"upcard={int(cfg['upcard'])}",
        f"size={cfg['layout_size']}",
        f"first={'-' if cfg['first_leader'] is None else cfg['first_leader']}",
        f"seed={st.seed}",
        f"hand={st.hand}",
        f"leader={st.leader}",
        f"turn={st.turn}",
        f"phase={PHASE_NAMES[st.phase]}",
        f"hold={'-' if st.hold < 0 else card_text(st.hold)}",
        f"passes={st.passes}",
        f"ply={st.ply}",
        f"rng={'?' if public else st.rng}",
        "last=-" if st.lc_first < 0 else
        f"last={st.lc_first}:{_seats(st.lc_done)}:{_seats(st.lc_left)}",
        f"sizes={','.join(map(str, st.sizes))}",
    ]
    for s, p in enumerate(st.lay):
        places = []
        for v in p:
            if v >= UP:
                places.append(card_text(v & 63))
            elif public:
                places.append("?")
            else:
                places.append("?" + card_text(v))
        f.append(f"p{s}={','.join(places) if places else '-'}")
    f.append(f"stock={len(st.stock)}" if public else f"stock={_cards(st.stock)}")
    f.append(f"discard={_cards(st.disc)}")
    return " ".join(f)


def _int(fields: dict[str, str], key: str, default: int | None = None, lo: int = 0) -> int:
    if key not in fields:
        if default is None:
            raise NotationError(f"the position needs a {key}= field")
        return default
    t = fields[key]
    if not t.lstrip("-").isdigit():
        raise NotationError(f"{key}={t!r} is not a whole number")
    x = int(t)
    if x < lo:
        raise NotationError(f"{key}={x} is below {lo}")
    return x


def _card(t: str, what: str) -> int:
    try:
        c = parse_card(t)
    except CardError as e:
        raise NotationError(f"{what}: {e}") from None
    if c == 0:
        raise NotationError(f"{what}: the layout game has no jokers")
    return c


def _pile(t: str, what: str) -> list[int]:
    if t in ("", "-"):
        return []
    return [_card(x, f"{what} card {k + 1}") for k, x in enumerate(t.split(","))]


def _seat_list(t: str, n: int, what: str) -> list[int]:
    if not t:
        return []
    out = []
    for x in t.split("."):
        if not x.isdigit() or not 0 <= int(x) < n:
            raise NotationError(f"{what}: {x!r} is not a seat 0..{n - 1}")
        out.append(int(x))
    return out


def parse_position(text: str, settle: bool = True) -> State:
    """Read a full or public position; raises :class:`NotationError` naming the bad field.

    A hand-built position can leave the seat to move with nothing to do (stock and discards
    exhausted, the lone discard dead for it). With ``settle`` (the default) the engine then
    plays on as it would have: that turn passes (and so on), so the result has a legal play.
    """
    st = _parse(text)
    if settle and st.phase == SOURCE and not (
        st.stock or len(st.disc) >= 2 or (st.disc and is_live(st, st.turn, st.disc[-1]))
    ):
        start_turn(st, None)
    return st


def _parse(text: str) -> State:
    from game.rules.layout.rules import determinize, normalize_config

    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    words = text.split()
    if not words or words[0] != "layout":
        raise NotationError("a layout position starts with the word 'layout'")
    fields: dict[str, str] = {}
    for w in words[1:]:
        if "=" not in w:
            raise NotationError(f"{w!r}: every field is key=value")
        k, v = w.split("=", 1)
        if k in fields:
            raise NotationError(f"field {k}= given twice")
        if k not in _ORDER and k not in ("stock", "discard") and not (
            k[:1] == "p" and k[1:].isdigit() and k == f"p{int(k[1:])}"
        ):
            raise NotationError(f"unknown field {k}=")
        fields[k] = v
    n = 0
    while f"p{n}" in fields:
        n += 1
    if n == 0:
        raise NotationError("the position has no layouts (p0=..., p1=...)")
    stray = [k for k in fields if k[:1] == "p" and k[1:].isdigit() and int(k[1:]) >= n]
    if stray:
        raise NotationError(f"layouts must be p0..p{n - 1} with no gap, found {stray[0]}=")
    seats = _int(fields, "seats", n)
    if seats != n:
        raise NotationError(f"seats={seats} but {n} layouts are given")
    flags = {}
    for key in ("lastchance", "upcard"):
        t = fields.get(key, "0")
        if t not in ("0", "1"):
            raise NotationError(f"{key}={t!r}: write 0 or 1")
        flags[key] = t == "1"
    first_t = fields.get("first", "-")
    first = None if first_t == "-" else _int(fields, "first")
    try:
        cfg = normalize_config({
            "seats": seats, "wild": fields.get("wild", "J"), "last_chance": flags["lastchance"],
            "upcard": flags["upcard"], "layout_size": _int(fields, "size", 10, 1),
            "first_leader": first,
        })
    except ConfigError as e:
        raise NotationError(f"bad options: {e}") from None
    wild = 11 if cfg["wild"] == "J" else 13
    decks = (n + 1) // 2

    # layouts
    hidden_unknown = False
    hidden_known = False
    lay: list[list[int | None]] = []
    for s in range(n):
        t = fields[f"p{s}"]
        row: list[int | None] = []
        items = [] if t == "-" else t.split(",")
        if len(items) > 10:
            raise NotationError(f"p{s}= has {len(items)} places; a layout has at most 10")
        for i, x in enumerate(items):
            what = f"p{s} place {i + 1}"
            if x == "?":
                hidden_unknown = True
                row.append(None)
            elif x.startswith("?"):
                hidden_known = True
                row.append(_card(x[1:], what))
            else:
                c = _card(x, what)
                r = c >> 2
                if r != wild and r != i + 1:
                    if r > 10:
                        raise NotationError(f"{what}: a face-up {x} is not wild in this game")
                    raise NotationError(f"{what}: a face-up {x} can only lie on place {r}")
                row.append(c | UP)
        lay.append(row)

    sizes_t = fields.get("sizes")
    if sizes_t is None:
        sizes = [len(p) for p in lay]
    else:
        parts = sizes_t.split(",")
        if len(parts) != n or not all(x.isdigit() for x in parts):
            raise NotationError(f"sizes={sizes_t!r}: give {n} whole numbers")
        sizes = [int(x) for x in parts]
    for s in range(n):
        if sizes[s] > cfg["layout_size"]:
            raise NotationError(f"seat {s} has size {sizes[s]} above size={cfg['layout_size']}")
    over = any(x == 0 for x in sizes)
    for s in range(n):
        ok = len(lay[s]) == sizes[s] or (over and len(lay[s]) == sizes[s] + 1)
        if not ok:
            raise NotationError(f"p{s}= has {len(lay[s])} places but its size is {sizes[s]}")

    stock_t = fields.get("stock", "-")
    public_stock = stock_t.isdigit()
    stock = [] if public_stock else _pile(stock_t, "stock")
    disc = _pile(fields.get("discard", "-"), "discard")
    hold_t = fields.get("hold", "-")
    hold = -1 if hold_t == "-" else _card(hold_t, "hold")
    rng_t = fields.get("rng")
    public = hidden_unknown or public_stock or rng_t == "?"
    if public and (hidden_known or (stock and not public_stock)):
        raise NotationError(
            "mixes public and full forms: write every face-down place as ? and the stock as a "
            "count (public), or every hidden card and the stock cards (full)"
        )

    turn = _int(fields, "turn", 0)
    if turn >= n:
        raise NotationError(f"turn={turn}: there is no seat {turn}")
    leader = _int(fields, "leader", turn)
    if leader >= n:
        raise NotationError(f"leader={leader}: there is no seat {leader}")
    phase_t = fields.get("phase")
    if phase_t is None:
        phase = OVER if over else (WILD if hold >= 0 else SOURCE)
    elif phase_t in PHASE_NAMES:
        phase = PHASE_NAMES.index(phase_t)
    else:
        raise NotationError(f"phase={phase_t!r}: one of {', '.join(PHASE_NAMES)}")
    if (phase == OVER) != over:
        raise NotationError("phase=over exactly when some seat's size is 0")
    if phase == WILD:
        if hold < 0 or hold >> 2 != wild:
            raise NotationError("phase=wild needs the wild card in hand: hold=<card>")
    elif hold >= 0:
        raise NotationError("a card is held (hold=) only while a wild card waits for a place")

    last_t = fields.get("last", "-")
    lc_first, lc_done, lc_left = -1, [], []
    if last_t != "-":
        if not cfg["last_chance"]:
            raise NotationError("last= needs lastchance=1")
        parts = last_t.split(":")
        if len(parts) != 3 or not parts[0].isdigit():
            raise NotationError(f"last={last_t!r}: write first:completed:to_play")
        lc_first = int(parts[0])
        lc_done = _seat_list(parts[1], n, "last completed")
        lc_left = _seat_list(parts[2], n, "last to_play")
        if lc_first >= n or not lc_done or lc_done[0] != lc_first:
            raise NotationError(f"last={last_t!r}: the completed list starts with the first")
        if phase != OVER and (not lc_left or lc_left[0] != turn):
            raise NotationError(f"last={last_t!r}: the seat to play next is turn={turn}")

    if phase != OVER:
        downs = [sum(1 for v in p if v is None or v < UP) for p in lay]
        if downs[turn] == 0:
            raise NotationError(f"seat {turn} is to move but its layout is complete")
        for s in range(n):
            if downs[s] == 0 and s not in lc_done:
                raise NotationError(f"p{s}= is complete: that hand would be over")

    counts: Counter[int] = Counter(stock)
    counts.update(disc)
    if hold >= 0:
        counts[hold] += 1
    for p in lay:
        counts.update(v & 63 for v in p if v is not None)
    for c, copies in counts.items():
        if copies > decks:
            raise NotationError(
                f"{copies} copies of {card_text(c)}, but {decks} deck(s) hold {decks}")

    seed = _int(fields, "seed", 0)
    hand = _int(fields, "hand", 1, 1)
    passes = _int(fields, "passes", 0)
    ply = _int(fields, "ply", 0)
    if public:
        view: dict[str, Any] = {
            "config": cfg, "sizes": sizes,
            "layouts": [[None if v is None else v & 63 for v in p] for p in lay],
            "discard": disc, "holding": None if hold < 0 else hold,
            "pending": PHASE_NAMES[phase], "turn": turn, "hand": hand, "leader": leader,
            "last_chance": None if lc_first < 0 else {
                "first": lc_first, "completed": lc_done, "to_play": lc_left},
            "passes": passes, "ply": ply,
            "winners": [s for s in range(n) if sizes[s] == 0] if over else None,
            "stock": int(stock_t) if public_stock else 0,
        }
        try:
            return determinize(view, seed)
        except RulesError as e:
            raise NotationError(str(e)) from None

    places = [[v for v in p if v is not None] for p in lay]
    return State(
        cfg=cfg, seed=seed, n=n, decks=decks, wild=wild, sizes=sizes, lay=places,
        down=[sum(1 for v in p if v < UP) for p in places], stock=stock, disc=disc, hold=hold,
        turn=turn, phase=phase,
        rng=seed_state(seed) if rng_t is None else _int(fields, "rng") & ((1 << 64) - 1),
        hand=hand, leader=leader, lc_first=lc_first, lc_done=lc_done, lc_left=lc_left,
        passes=passes, ply=ply, winners=[s for s in range(n) if sizes[s] == 0] if over else [],
    )


def pack_of(st: State) -> Counter[int]:
    """Every card the position holds (for conservation checks)."""
    c: Counter[int] = Counter(st.stock)
    c.update(st.disc)
    if st.hold >= 0:
        c[st.hold] += 1
    for p in st.lay:
        c.update(v & 63 for v in p)
    return c


def full_pack_counter(st: State) -> Counter[int]:
    return Counter(full_pack(st.decks))
