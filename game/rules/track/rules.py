"""``RULES``: the track game behind the shared :class:`game.rules.api.GameRules` protocol."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game.rules.api import GameOver, IllegalPlay, NotationError, NotYourTurn, RulesError
from game.rules.cards import RANK_NAMES, Rng, cards_text
from game.rules.track.board import PEGS
from game.rules.track.engine import (
    CLASSIC,
    COLOURS,
    HOME0,
    START,
    TEAM,
    TEES,
    Play,
    TrackState,
    _gen_ct,
    _gen_tees,
    apply_play,
    controlled,
    find_legal,
    gen_legal,
    legal_tokens,
    loc_event,
    make_cfg,
    new_game,
    normalize_config,
    outcome,
)
from game.rules.track.notation import (
    format_position,
    parse_position,
    parse_token,
    raw_play,
)

_FWD = {1: 1, 2: 2, 4: 4, 5: 5, 6: 6, 7: 7, 9: 9, 10: 10}


def _loc_from_event(v: Any) -> int:
    if v == "s":
        return START
    if isinstance(v, str) and len(v) == 2 and v[0] == "h" and v[1] in "12345":
        return HOME0 + int(v[1])
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    raise RulesError(f"bad peg location {v!r} in view")


class TrackRules:
    """The track game (rule sets tees, classic, team; every mode of spec section 2)."""

    name = "track"
    title = "Track"
    min_seats = 1
    max_seats = 8
    hides_hands_from_neighbours = True  # each seat holds a hand of cards

    # -- setup -------------------------------------------------------------------------------
    def normalize_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        return normalize_config(config)

    def new_game(self, config: Mapping[str, Any], seed: int | str) -> TrackState:
        return new_game(config, seed)

    def start(self, config: Mapping[str, Any], seed: int | str
              ) -> tuple[TrackState, list[dict[str, Any]]]:
        """``new_game`` plus the events of the opening deal (deal, tees folds, turn, draw)."""
        events: list[dict[str, Any]] = []
        return new_game(config, seed, events), events

    def seat_count(self, state: TrackState) -> int:
        return state.cfg.n

    def teams(self, state: TrackState) -> list[list[int]]:
        return [list(t) for t in state.cfg.teams]

    def to_move(self, state: TrackState) -> int | None:
        return None if state.turn < 0 else state.turn

    def controlled(self, state: TrackState, seat: int) -> list[int]:
        """The colours ``seat`` moves now (own; a partner's once home; a whole team in team)."""
        return list(controlled(state.cfg, seat, state.pegs))

    # -- plays -------------------------------------------------------------------------------
    def legal_plays(self, state: TrackState) -> list[Play]:
        return list(gen_legal(state))

    def legal_tokens(self, state: TrackState) -> list[str]:
        return legal_tokens(state)

    def parse_play(self, state: TrackState, token: str | Play) -> Play:
        if isinstance(token, Play):
            return token
        tok = raw_play(token).token
        p = find_legal(state, tok)
        return raw_play(tok) if p is None else p

    def check(self, state: TrackState, seat: int, play: str | Play) -> Play:
        if state.turn < 0:
            raise GameOver("the game is over: no more plays")
        if type(seat) is not int or seat != state.turn:
            t = state.turn
            raise NotYourTurn(f"it is seat {t}'s turn (colour {COLOURS[t]}), not seat {seat!r}'s")
        if isinstance(play, Play):
            tok = play.token
        elif isinstance(play, str):
            tok = raw_play(play).token
        else:
            raise NotationError(f"a play must be a token or a play, not {type(play).__name__}")
        p = find_legal(state, tok)
        if p is None:
            raise IllegalPlay(self._explain(state, seat, tok))
        return p

    def apply(self, state: TrackState, seat: int, play: str | Play, events: bool = True
              ) -> tuple[TrackState, list[dict[str, Any]]]:
        p = self.check(state, seat, play)
        return apply_play(state, seat, p, events)

    def _explain(self, state: TrackState, seat: int, tok: str) -> str:
        cfg = state.cfg
        rank, parts = parse_token(tok)
        hand = state.hands[seat]
        name = RANK_NAMES[rank]
        if not any(c >> 2 == rank for c in hand):
            return f"{tok}: you hold no {name} (your hand: {cards_text(hand)})"
        if cfg.rules == TEES:
            normal, last = _gen_tees(state, True)
            if any(p.token == tok for p in last):
                return (f"{tok}: landing on a partner's peg is a last resort, and you have "
                        f"{len(normal)} other legal play(s)")
        else:
            normal, _jk, _ = _gen_ct(state, True)
        if parts[0][0] == "x":
            if cfg.rules == TEES:
                return f"{tok}: tees has no discards (a seat that cannot play folds by itself)"
            return (f"{tok}: you must play a card that moves a peg (you have {len(normal)} such "
                    "plays); discarding is only for when nothing can move (jokers are never "
                    "forced)")
        cols = controlled(cfg, seat, state.pegs)
        for kind, colour, loc, _n, _h in parts:
            if colour >= cfg.n:
                return f"{tok}: there is no colour {COLOURS[colour]} at {cfg.n} seats"
            if colour not in cols:
                mine = ", ".join(COLOURS[c] for c in cols) or "none"
                return f"{tok}: you cannot move colour {COLOURS[colour]} now (you move: {mine})"
            if loc not in state.pegs[colour * PEGS:(colour + 1) * PEGS]:
                where = "in start" if loc == START else f"at {loc_event(loc)}"
                return f"{tok}: colour {COLOURS[colour]} has no peg {where}"
            if kind == "o" and not (rank in (1, 11, 12, 13) if cfg.rules != TEES
                                    else rank in (1, 13)):
                return f"{tok}: {name} cannot bring a peg out"
            if kind == "j" and rank != 0:
                return f"{tok}: only a joker jumps (>hole)"
            if kind == "t" and not (rank == 11 and cfg.rules == TEES):
                return f"{tok}: only a Jack in tees trades (xhole)"
        if len(parts) == 2 and not (rank == 7 or (rank == 9 and cfg.rules == TEAM)):
            return f"{tok}: only a 7{' or 9' if cfg.rules == TEAM else ''} can be split"
        if len(parts) == 1 and parts[0][0] in "fb":
            kind, _, _, n, _ = parts[0]
            if cfg.rules == TEES:
                want = {3: ("b", 3), 12: ("f", 12)}.get(rank, ("f", _FWD.get(rank, -1)))
            else:
                want = {8: ("b", 8), 11: ("f", 10), 12: ("f", 10), 13: ("f", 10)}.get(
                    rank, ("f", _FWD.get(rank, -1)))
            if (kind, n) != want:
                if want[1] < 0:
                    return f"{tok}: {name} does not move a peg that way"
                sign = "+" if want[0] == "f" else "-"
                got = ("+" if kind == "f" else "-") + str(n)
                return f"{tok}: {name} moves {sign}{want[1]}, not {got}"
        if len(parts) == 2 and sum(p[3] for p in parts) != rank:
            return f"{tok}: the parts of a split {rank} must add up to {rank}"
        if cfg.rules == TEES:
            rule = ("a peg may not pass its own or its partner's pegs nor land on its own, goes "
                    "round once and needs an exact count into home; a 3 never goes behind the "
                    "come-out hole; snug pegs never move")
        else:
            rule = ("a peg may not pass or land on its own colour, needs an exact count into home, "
                    "and a partner bump chain must not hit the bumped peg's colour or loop")
            if rank == 0 and cfg.rules == TEAM:
                rule += "; a joker must bring a team peg out while any start holds one"
        return f"{tok} is not legal here: {rule}"

    # -- views -------------------------------------------------------------------------------
    def view(self, state: TrackState, seat: int | None) -> dict[str, Any]:
        cfg = state.cfg
        if seat is not None and (type(seat) is not int or not 0 <= seat < cfg.n):
            raise RulesError(f"no seat {seat!r} at a {cfg.n}-seat table")
        turn = None if state.turn < 0 else state.turn
        v: dict[str, Any] = {
            "game": "track",
            "seat": seat,
            "config": dict(cfg.conf),
            "teams": [list(t) for t in cfg.teams],
            "pegs": [[loc_event(x) for x in state.pegs[c * PEGS:(c + 1) * PEGS]]
                     for c in range(cfg.n)],
            "hand": list(state.hands[seat]) if seat is not None else [],
            "hand_counts": [len(h) for h in state.hands],
            "pile": len(state.pile),
            "discards": list(state.discards),
            "turn": turn,
            "controlled": [] if turn is None else list(controlled(cfg, turn, state.pegs)),
            "dealer": state.dealer,
            "round": state.round,
            "plays": state.nplays,
            "outcome": outcome(state),
            "position": format_position(state, hide_hand=(seat != turn)),
        }
        if cfg.mode == "solo":
            v["turns"] = state.nplays
        return v

    def filter_events(self, events: Sequence[dict[str, Any]], seat: int | None
                      ) -> list[dict[str, Any]]:
        out = []
        for e in events:
            t = e.get("type")
            if t == "deal":
                e2 = {k: v for k, v in e.items() if k != "hands"}
                if seat is not None:
                    e2["hand"] = list(e["hands"][seat])
                out.append(e2)
            elif t == "draw" and e.get("seat") != seat:
                out.append({k: v for k, v in e.items() if k != "card"})
            else:
                out.append(dict(e))
        return out

    def determinize(self, view: Mapping[str, Any], seed: int | str) -> TrackState:
        try:
            cfg = make_cfg(view["config"])
            n = cfg.n
            seat = view["seat"]
            pegs: list[int] = []
            for c in range(n):
                pegs.extend(_loc_from_event(x) for x in view["pegs"][c])
            counts = list(view["hand_counts"])
            hand = tuple(sorted(view["hand"]))
            discards = tuple(view["discards"])
            pile_n = int(view["pile"])
            turn = view["turn"]
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise RulesError(f"not a track view: {e!r}") from None
        unknown = Counter(cfg.deck)
        known = Counter(discards)
        if seat is not None:
            known.update(hand)
        for card, k in known.items():
            if unknown[card] < k:
                raise RulesError("the view holds more copies of a card than the pack")
        unknown.subtract(known)
        rest = sorted(unknown.elements())
        need = sum(counts[c] for c in range(n) if c != seat) + pile_n
        if len(rest) != need:
            raise RulesError(f"the view's counts need {need} unseen cards, the pack leaves "
                             f"{len(rest)}")
        rng = Rng.from_seed(seed)
        rng.shuffle(rest)
        hands = []
        pos = 0
        for c in range(n):
            if c == seat:
                hands.append(hand)
            else:
                hands.append(tuple(sorted(rest[pos:pos + counts[c]])))
                pos += counts[c]
        oc = view.get("outcome")
        s = TrackState(cfg=cfg, seed=seed, pegs=tuple(pegs), hands=tuple(hands),
                       pile=tuple(rest[pos:]), discards=discards, rng=rng.next_u64(),
                       turn=-1 if turn is None else turn, dealer=view["dealer"],
                       round=view["round"], nplays=view["plays"],
                       winner=oc["team"] if oc else -1, idle=0)
        return s

    # -- results, replay, notation ---------------------------------------------------------
    def outcome(self, state: TrackState) -> dict[str, Any] | None:
        return outcome(state)

    def replay(self, config: Mapping[str, Any], seed: int | str,
               plays: Iterable[tuple[int, str]]) -> TrackState:
        s = new_game(config, seed)
        for i, (seat, tok) in enumerate(plays):
            try:
                s, _ = self.apply(s, seat, tok, events=False)
            except RulesError as e:
                raise type(e)(f"play {i + 1} ({seat}, {tok!r}): {e}") from None
        return s

    def format_position(self, state: TrackState) -> str:
        return format_position(state)

    def parse_position(self, text: str) -> TrackState:
        return parse_position(text)


RULES = TrackRules()

__all__ = ["CLASSIC", "RULES", "TEAM", "TEES", "TrackRules"]
