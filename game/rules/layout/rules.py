"""The layout game behind the shared :class:`game.rules.api.GameRules` protocol."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game.rules.api import (
    Config,
    ConfigError,
    Event,
    GameOver,
    IllegalPlay,
    NotationError,
    NotYourTurn,
    RulesError,
    TokenPlay,
    View,
)
from game.rules.cards import Rng, below, seed_state
from game.rules.layout import engine
from game.rules.layout.engine import OVER, PHASE_NAMES, SOURCE, UP, WILD, State

DEFAULTS: dict[str, Any] = {
    "seats": 4,
    "wild": "J",
    "last_chance": False,
    "upcard": False,
    "layout_size": 10,
    "first_leader": None,
}
_KEYS = ("seats", "wild", "last_chance", "upcard", "layout_size", "first_leader")


class Play(TokenPlay):
    """One layout play (python-chess's ``Move`` is the model): ``kind`` ``"S"`` (draw from the
    stock), ``"D"`` (take the top discard) or ``"W"`` (the wild card in hand goes to face-down
    ``place`` 1..10; ``place`` is None for the other kinds). ``str(play)`` is its token (``S``,
    ``D``, ``W3``). A play equals another play of the same token and never a string; it hashes
    as its token. The engine hands out the shared instances below (``STOCK``, ``DISCARD``,
    ``WILD_PLAYS[i]``); :meth:`LayoutRules.parse_play` reads a token."""

    __slots__ = ("kind", "place", "token")

    kind: str
    place: int | None
    token: str

    def __init__(self, kind: str, place: int | None = None) -> None:
        if kind in ("S", "D"):
            if place is not None:
                raise NotationError(f"a {kind} play has no place, not {place!r}")
            token = kind
        elif kind == "W":
            if type(place) is not int or not 1 <= place <= 10:
                raise NotationError(f"a wild card goes to a place 1..10, not {place!r}")
            token = f"W{place}"
        else:
            raise NotationError(f"a layout play is S, D or W<place>, not kind {kind!r}")
        self.kind = kind
        self.place = place
        self.token = token

    def __reduce__(self) -> tuple[type[Play], tuple[str, int | None]]:
        return (Play, (self.kind, self.place))


STOCK = Play("S")
DISCARD = Play("D")
WILD_PLAYS: tuple[Play, ...] = tuple(Play("W", i) for i in range(1, 11))  # place i: [i - 1]


def normalize_config(config: Mapping[str, Any]) -> Config:
    if not isinstance(config, Mapping):
        raise ConfigError(f"a layout config is a mapping, not {type(config).__name__}")
    extra = set(config) - set(_KEYS) - {"game", "rules"}
    if extra:
        raise ConfigError(
            f"unknown layout option(s) {', '.join(sorted(map(str, extra)))} "
            f"(known: {', '.join(_KEYS)})"
        )
    for k in ("game", "rules"):
        if k in config and config[k] != "layout":
            raise ConfigError(f"{k}={config[k]!r} is not the layout game")
    out = dict(DEFAULTS)
    out.update({k: config[k] for k in _KEYS if k in config})
    seats = out["seats"]
    if type(seats) is not int or not 2 <= seats <= 8:
        raise ConfigError(f"seats must be an int from 2 to 8, not {seats!r}")
    wild = out["wild"]
    if not isinstance(wild, str) or wild.upper() not in ("J", "K"):
        raise ConfigError(f"wild must be 'J' (Jacks) or 'K' (Kings), not {wild!r}")
    out["wild"] = wild.upper()
    for k in ("last_chance", "upcard"):
        if not isinstance(out[k], bool):
            raise ConfigError(f"{k} must be true or false, not {out[k]!r}")
    size = out["layout_size"]
    if type(size) is not int or not 1 <= size <= 10:
        raise ConfigError(f"layout_size must be an int from 1 to 10, not {size!r}")
    first = out["first_leader"]
    if first is not None and (type(first) is not int or not 0 <= first < seats):
        raise ConfigError(f"first_leader must be a seat 0..{seats - 1} or None, not {first!r}")
    return out


def _seed_int(seed: int) -> int:
    if type(seed) is not int:
        raise ConfigError(f"a game seed is an int, not {seed!r}")
    return seed


def new_state(cfg: Config, seed: int, ev: list[Event] | None = None) -> State:
    """A fresh game from a normalized config; ``ev`` (if given) receives the opening events
    (``dealt`` and ``turn``)."""
    n = cfg["seats"]
    rng = seed_state(seed)
    if cfg["first_leader"] is None:
        leader, rng = below(n, rng)
    else:
        leader = cfg["first_leader"]
    # the layouts, piles and turn are placeholders until engine.deal deals them
    st = State(cfg=cfg, seed=seed, n=n, decks=(n + 1) // 2,
               wild=11 if cfg["wild"] == "J" else 13, sizes=[cfg["layout_size"]] * n, lay=[],
               down=[], stock=[], disc=[], hold=-1, turn=leader, phase=SOURCE, rng=rng, hand=1,
               leader=leader, lc_first=-1, lc_done=[], lc_left=[], passes=0, ply=0, winners=[])
    engine.deal(st, ev)
    return st


def legal_tokens(st: State) -> list[Play]:
    if st.phase == SOURCE:
        out = []
        if engine.can_draw_stock(st):
            out.append(STOCK)
            if st.disc:
                out.append(DISCARD)
        elif st.disc and engine.is_live(st, st.turn, st.disc[-1]):
            out.append(DISCARD)
        return out
    if st.phase == WILD:
        lay = st.lay[st.turn]
        return [WILD_PLAYS[i] for i in range(len(lay)) if lay[i] < UP]
    return []


def _parse_play(st: State, token: Any) -> Play:
    if isinstance(token, Play):
        return token
    if not isinstance(token, str):
        raise NotationError(f"a layout play is a token string or a Play, not {token!r}")
    t = token.strip().upper()
    if t == "S":
        return STOCK
    if t == "D":
        return DISCARD
    if len(t) >= 2 and t[0] in "WJK" and t[1:].isdigit():
        if t[0] != "W":
            wild_letter = "J" if st.wild == 11 else "K"
            if t[0] != wild_letter:
                raise NotationError(
                    f"{token!r}: {'Kings' if wild_letter == 'K' else 'Jacks'} are wild in this "
                    f"game, write W{t[1:]} or {wild_letter}{t[1:]}"
                )
        place = int(t[1:])
        if not 1 <= place <= 10:
            raise NotationError(f"{token!r}: places are numbered 1 to 10")
        return WILD_PLAYS[place - 1]
    raise NotationError(
        f"{token!r} is not a layout play (S = stock, D = discard, W3 = wild card to place 3)"
    )


def _check(st: State, seat: int, play: Any) -> Play:
    if not isinstance(st, State):
        raise RulesError(f"not a layout state: {type(st).__name__}")
    p = _parse_play(st, play)
    if st.phase == OVER:
        raise GameOver(f"the game is over (won by seat {', '.join(map(str, st.winners))})")
    if type(seat) is not int or not 0 <= seat < st.n:
        raise NotYourTurn(f"there is no seat {seat!r} in this {st.n}-seat game")
    if seat != st.turn:
        raise NotYourTurn(f"it is seat {st.turn}'s turn, not seat {seat}'s")
    if st.phase == SOURCE:
        if p.kind == "S":
            if not engine.can_draw_stock(st):
                raise IllegalPlay("the stock and the discard pile are exhausted: no stock draw")
            return p
        if p.kind == "D":
            if not st.disc:
                raise IllegalPlay("the discard pile is empty: draw from the stock (S)")
            if not engine.can_draw_stock(st) and not engine.is_live(st, seat, st.disc[-1]):
                raise IllegalPlay("the lone discard is dead for this seat")
            return p
        raise IllegalPlay(f"{p}: first take a card, from the stock (S) or the discard pile (D)")
    # WILD phase
    if p.kind != "W":
        raise IllegalPlay(f"{p}: a wild card is in hand; choose a face-down place (W1..)")
    i = p.place or 0
    lay = st.lay[seat]
    if i > len(lay):
        raise IllegalPlay(f"{p}: seat {seat} has only {len(lay)} places")
    if lay[i - 1] >= UP:
        raise IllegalPlay(f"{p}: place {i} is already face up; a wild card needs a face-down place")
    return p


def apply_in_place(st: State, seat: int, play: Any, ev: list[Event] | None) -> None:
    """Check, then play onto ``st`` itself (the fast path of replay and simulations)."""
    _do(st, _check(st, seat, play), ev)


def _do(st: State, p: Play, ev: list[Event] | None) -> None:
    if p.place is not None:
        engine.place_wild(st, p.place, ev)
    else:
        engine.take(st, p.kind == "S", ev)
    st.ply += 1


class LayoutRules:
    """``game.rules.layout.RULES``: Trash behind the shared API."""

    name = "layout"
    title = "Trash"
    min_seats = 2
    max_seats = 8
    hides_hands_from_neighbours = False  # every card a seat sees is face up for all

    def normalize_config(self, config: Mapping[str, Any]) -> Config:
        return normalize_config(config)

    def new_game(self, config: Mapping[str, Any], seed: int) -> State:
        return new_state(normalize_config(config), _seed_int(seed))

    def start(self, config: Mapping[str, Any], seed: int) -> tuple[State, list[Event]]:
        """``new_game`` plus the events of the opening deal (``dealt``, ``turn``)."""
        ev: list[Event] = []
        return new_state(normalize_config(config), _seed_int(seed), ev), ev

    def seat_count(self, state: State) -> int:
        return state.n

    def teams(self, state: State) -> list[list[int]]:
        return [[s] for s in range(state.n)]

    def to_move(self, state: State) -> int | None:
        return None if state.phase == OVER else state.turn

    def legal_plays(self, state: State) -> list[Play]:
        return legal_tokens(state)

    def legal_tokens(self, state: State) -> list[str]:
        return [p.token for p in legal_tokens(state)]

    def parse_play(self, state: State, token: str) -> Play:
        return _parse_play(state, token)

    def check(self, state: State, seat: int, play: Any) -> Play:
        return _check(state, seat, play)

    def apply(self, state: State, seat: int, play: Any) -> tuple[State, list[Event]]:
        p = _check(state, seat, play)
        st = state.copy()
        ev: list[Event] = []
        _do(st, p, ev)
        return st, ev

    def view(self, state: State, seat: int | None) -> View:
        return make_view(state, seat)

    def filter_events(self, events: Sequence[Event], seat: int | None) -> list[Event]:
        # Every event of this game carries only public facts (a card in an event is one that
        # is face up from then on), so each seat and spectators get them all.
        if seat is not None and (type(seat) is not int or seat < 0):
            raise RulesError(f"no seat {seat!r}")
        return [dict(e) for e in events]

    def determinize(self, view: Mapping[str, Any], seed: int) -> State:
        return determinize(view, seed)

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.phase != OVER:
            return None
        return {"winners": state.winners[:], "sizes": state.sizes[:], "hands": state.hand}

    def replay(
        self, config: Mapping[str, Any], seed: int, plays: Iterable[tuple[int, str]]
    ) -> State:
        st = self.new_game(config, seed)
        for k, item in enumerate(plays):
            try:
                seat, tok = item
            except (TypeError, ValueError):
                raise NotationError(f"play {k}: expected (seat, token), got {item!r}") from None
            try:
                apply_in_place(st, seat, tok, None)
            except RulesError as e:
                raise type(e)(f"play {k} ({seat}, {tok!r}): {e}") from None
        return st

    def format_position(self, state: State, public: bool = False) -> str:
        from game.rules.layout.notation import format_position

        return format_position(state, public)

    def parse_position(self, text: str) -> State:
        from game.rules.layout.notation import parse_position

        return parse_position(text)


RULES = LayoutRules()


# ------------------------------------------------------------------------------------- views


def make_view(st: State, seat: int | None) -> View:
    if seat is not None and (type(seat) is not int or not 0 <= seat < st.n):
        raise RulesError(f"there is no seat {seat!r} in this {st.n}-seat game")
    cfg = st.cfg
    over = st.phase == OVER
    return {
        "game": "layout",
        "config": dict(cfg),
        "seat": seat,
        "hand": st.hand,
        "leader": st.leader,
        "sizes": st.sizes[:],
        "won": [cfg["layout_size"] - x for x in st.sizes],
        "layouts": [[v & 63 if v >= UP else None for v in p] for p in st.lay],
        "stock": len(st.stock),
        "discard": st.disc[:],  # bottom first: the top discard is the last
        "holding": st.hold if st.hold >= 0 else None,
        "turn": None if over else st.turn,
        "pending": PHASE_NAMES[st.phase] if not over else None,
        "legal": [p.token for p in legal_tokens(st)],
        "last_chance": None if st.lc_first < 0 else {
            "first": st.lc_first, "completed": st.lc_done[:], "to_play": st.lc_left[:],
        },
        "passes": st.passes,
        "ply": st.ply,
        "winners": st.winners[:] if over else None,
    }


def determinize(view: Mapping[str, Any], seed: int) -> State:
    """A full state consistent with ``view``: the unseen cards (the full pack minus every face-up
    card, the discards and the card in hand) dealt at random to the face-down places and the
    stock. Raises :class:`RulesError` if the view cannot come from a real game."""
    try:
        cfg = normalize_config(view["config"])
        n = cfg["seats"]
        layouts = [list(p) for p in view["layouts"]]
        hold = view["holding"]
        over = view["winners"] is not None
        lc = view["last_chance"]
        # the layouts, the stock and the generator are dealt below
        st = State(
            cfg=cfg, seed=seed, n=n, decks=(n + 1) // 2, wild=11 if cfg["wild"] == "J" else 13,
            sizes=[int(x) for x in view["sizes"]], lay=[], down=[], stock=[],
            disc=[int(c) for c in view["discard"]], hold=-1 if hold is None else int(hold),
            turn=int(view["turn"]) if view["turn"] is not None else 0,
            phase=OVER if over else (WILD if view["pending"] == "wild" else SOURCE), rng=0,
            hand=int(view["hand"]), leader=int(view["leader"]),
            lc_first=-1 if lc is None else int(lc["first"]),
            lc_done=[] if lc is None else [int(x) for x in lc["completed"]],
            lc_left=[] if lc is None else [int(x) for x in lc["to_play"]],
            passes=int(view["passes"]), ply=int(view["ply"]),
            winners=[int(x) for x in view["winners"]] if over else [],
        )
        stock_n = int(view["stock"])
    except RulesError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise RulesError(f"not a layout view: {e!r}") from None
    if len(layouts) != n or len(st.sizes) != n:
        raise RulesError(f"the view must hold {n} layouts and sizes")
    seen = Counter(st.disc)
    if st.hold >= 0:
        seen[st.hold] += 1
    holes = 0
    for p in layouts:
        for c in p:
            if c is None:
                holes += 1
            else:
                seen[int(c)] += 1
    unseen = Counter(engine.full_pack(st.decks))
    unseen.subtract(seen)
    if any(v < 0 for v in unseen.values()):
        raise RulesError("the view shows more copies of a card than the pack holds")
    pool = sorted(unseen.elements())
    rng = Rng.from_seed(seed)
    rng.shuffle(pool)
    if len(pool) < holes + stock_n:
        raise RulesError(
            f"the view hides {holes + stock_n} cards but only {len(pool)} are unseen"
        )
    st.lay = []
    k = 0
    for p in layouts:
        row = []
        for c in p:
            if c is None:
                row.append(pool[k])
                k += 1
            else:
                row.append(int(c) | UP)
        st.lay.append(row)
    st.down = [sum(1 for v in p if v < UP) for p in st.lay]
    st.stock = pool[k:k + stock_n]
    st.rng = rng.next_u64()
    return st
