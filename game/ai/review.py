"""The Nasty CPU's review of a game record: for each play a person made, what the CPU would
have played, the team's chance to win with the CPU's choice (``before``: what the position
offered) and with the play made (``after``), and a reason in the hints' own words.

* :func:`review` is a pure function of ``(record text, seat, budget_ms)`` returning
  :class:`~game.rules.record.Annotation` objects (frozen dataclasses: picklable, so the
  background worker runs it like a CPU job). With ``samples`` given it is exactly repeatable;
  with a budget only, the number of rollouts depends on the machine, like Nasty's.
* :func:`review_cached` returns the review already stored in the record (instant) or makes it,
  and gives the record text back with the review in it (``{review ...}`` annotations and a
  ``[Review "seat=.. budget=.."]`` header), so a second viewing is instant.
* :func:`summary` names, for each side, the three reviewed plays that moved the estimate most.

Hidden cards are never read: the record is replayed to the full state, but the review of a play
starts from ``rules.view(state, seat)`` (the seat's own view at that moment) and from then on
only from the view: the CPU's choice is Nasty's (``game.ai.track.nasty`` /
``game.ai.layout.nasty``), and the chances come from rollouts on ``RULES.determinize(view,
...)`` deals with Nasty's own machinery: the same deals for the CPU's choice and the play made,
Nasty's rollout length (``ROLLOUT_ROUNDS``) of its Tricky-lite policy (``lite_choice`` on
``gen_legal``/``apply_play``), then Nasty's leaf evaluation turned into a chance by a logistic
fitted to whole games (:data:`CHANCE_SCALE`); Trash plays the hand out, then counts the race
for the rest of the game from the new layout sizes (:func:`race_chance`). Solo games count
turns instead: the expected turns to finish after the CPU's choice and after the play, and
(in the whole-game annotation, play 0) the game's turn count against the Nasty CPU's own game
on the same deal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from game.rules.cards import Rng
from game.rules.record import Annotation, Record, format_record, parse_record, replay, rules_of

__all__ = ["ROLLOUT_SHARE", "race_chance", "review", "review_cached", "review_key",
           "review_play", "sides", "summary"]

#: Share of the budget for the chances (the rest is Nasty's own choice).
ROLLOUT_SHARE = 0.5
MIN_ROLLOUTS = 6  # per candidate, whatever the budget
MAX_ROLLOUTS = 400
MAX_PLIES = 5000  # a rollout that has not ended by then counts as a half win
#: Nasty's evaluation (in holes) -> chance to win: ``1 / (1 + exp(-(score / scale + b)))`` with
#: ``b = log(1 / (teams - 1))`` (an even position is worth 1/teams). The scales were fitted by
#: likelihood to 250 Tricky-lite games per rule set (4 and 6 seats; b came out at the formula's
#: value by itself at 3 teams).
CHANCE_SCALE = {"tees": 260.0, "classic": 300.0, "team": 800.0}
_MASK = (1 << 62) - 1


def review_key(seat: int | None, budget_ms: float) -> str:
    return f"seat={'all' if seat is None else seat} budget={round(budget_ms)}"


# ------------------------------------------------------------------------------ rollouts


def _chance(score: float, rules: str, nteams: int) -> float:
    """Nasty's leaf evaluation as a chance to win: a logistic fitted to lite-policy games."""
    z = score / CHANCE_SCALE[rules] + math.log(1.0 / max(1, nteams - 1))
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def _track_rollouts(view: Mapping[str, Any], tokens: Sequence[str], seed: int,
                    samples: int | None, deadline: float, solo: bool) -> list[float]:
    """Mean result per token over common deals: the team's chance to win (Nasty's rollout:
    its rounds of Tricky-lite play, then its evaluation as a chance), or (solo) the turns to
    finish (played out to the end)."""
    from game.ai.track import ROLLOUT_ROUNDS, Know, evaluate, lite_choice
    from game.rules.track import RULES
    from game.rules.track.engine import apply_play, gen_legal

    seat = view["seat"]
    team = next(i for i, t in enumerate(view["teams"]) if seat in t)
    nteams = len(view["teams"])
    rules = str(view["config"]["rules"])
    depth = MAX_PLIES if solo else int(ROLLOUT_ROUNDS[rules] * len(view["pegs"])) - 1
    start = int(view["plays"])
    totals = [0.0] * len(tokens)
    k = 0
    want = samples if samples is not None else MAX_ROLLOUTS
    while k < want:
        if samples is None and k >= MIN_ROLLOUTS and time.perf_counter() > deadline:
            break
        det = RULES.determinize(view, (seed * 1000003 + k * 7919 + 29) & _MASK)
        by_tok = {p.token: p for p in gen_legal(det)}
        for j, tok in enumerate(tokens):
            s, _ = apply_play(det, seat, by_tok[tok], events=False)
            plies = 0
            while s.turn >= 0 and plies < depth:
                s, _ = apply_play(s, s.turn, lite_choice(s, s.turn, gen_legal(s)), events=False)
                plies += 1
            if solo:
                totals[j] += s.nplays - start
            elif s.turn < 0:
                totals[j] += 1.0 if s.winner == team else 0.0
            else:
                score = evaluate(s, s.pegs, team, Know(s, seat), s.hands[seat], seat)
                totals[j] += _chance(score, rules, nteams)
        k += 1
    return [t / k for t in totals]


def race_chance(sizes: Sequence[int], seat: int) -> float:
    """Trash: the chance that ``seat`` is the first to win ``sizes[seat]`` more hands when every
    hand is won by one seat, each as likely (last-chance ties left out). Exact: the sum over
    the hand ``m + 1`` that ``seat`` wins last of ``m! [x^m] x^(s-1)/(s-1)! * prod_j
    sum_(k<s_j) x^k/k!`` over ``n^(m+1)``."""
    n = len(sizes)
    if sizes[seat] <= 0:
        return 1.0
    if any(z <= 0 for z in sizes):
        return 0.0
    poly = [0.0] * (sizes[seat] - 1) + [1.0 / math.factorial(sizes[seat] - 1)]
    for j, z in enumerate(sizes):
        if j == seat:
            continue
        factor = [1.0 / math.factorial(k) for k in range(z)]
        out = [0.0] * (len(poly) + len(factor) - 1)
        for a, pa in enumerate(poly):
            if pa:
                for b, fb in enumerate(factor):
                    out[a + b] += pa * fb
        poly = out
    return sum(c * math.factorial(m) / n ** (m + 1) for m, c in enumerate(poly) if c)


def _layout_rollouts(view: Mapping[str, Any], tokens: Sequence[str], seed: int,
                     samples: int | None, deadline: float) -> list[float]:
    """Mean chance per token over common deals: the hand is played out (a live top discard
    is taken, else the stock; wild cards at random), then the race from the new sizes
    (:func:`race_chance`); a game that ends in the rollout counts as won or lost."""
    from game.rules.layout import apply_in_place, determinize, legal_tokens
    from game.rules.layout.engine import is_live

    seat = view["seat"]
    totals = [0.0] * len(tokens)
    k = 0
    want = samples if samples is not None else MAX_ROLLOUTS
    while k < want:
        if samples is None and k >= MIN_ROLLOUTS and time.perf_counter() > deadline:
            break
        det = determinize(view, (seed * 1000003 + k * 7919 + 31) & _MASK)
        rng = Rng.from_seed(f"review-layout/{seed}/{k}")
        for j, tok in enumerate(tokens):
            s = det.copy()
            hand = s.hand
            apply_in_place(s, seat, tok, None)
            plies = 0
            while plies < MAX_PLIES and s.hand == hand:
                lg = [str(q) for q in legal_tokens(s)]
                if not lg:
                    break
                if lg[0] == "S":  # a live top discard is taken, else the stock
                    p = "D" if "D" in lg and is_live(s, s.turn, s.disc[-1]) else "S"
                elif lg[0] == "D":
                    p = "D"
                else:
                    p = lg[rng.below(len(lg))]
                apply_in_place(s, s.turn, p, None)
                plies += 1
            if s.winners:
                totals[j] += (1.0 / len(s.winners)) if seat in s.winners else 0.0
            else:
                totals[j] += race_chance(s.sizes, seat)
        k += 1
    return [t / k for t in totals]


# ------------------------------------------------------------------------------ one play


def _legal(game: str, view: Mapping[str, Any]) -> list[str]:
    if game == "layout":
        return [str(t) for t in view["legal"]]
    from game.rules.track import RULES

    return RULES.legal_tokens(RULES.determinize(view, 0))  # never depends on hidden cards


def _cpu_choice(game: str, view: Mapping[str, Any], legal: list[str], seed: int,
                budget_ms: float, samples: int | None) -> str:
    if game == "track":
        from game.ai import track as mod
    else:
        from game.ai import layout as mod  # type: ignore[no-redef]
    tok: str = mod.nasty(view, legal, seed, budget_ms, max_samples=samples)
    return tok if tok in legal else legal[0]


def _explain(game: str, view: Mapping[str, Any], token: str, seed: int) -> str:
    if game == "track":
        from game.ai.track import explain

        return explain(view, token, seed)
    from game.ai.layout import explain as layout_explain

    return layout_explain(view, token)


def review_play(game: str, view: Mapping[str, Any], played: str, n: int, budget_ms: float,
                seed: int, samples: int | None = None) -> Annotation:
    """The review of ``played`` (play ``n``) from the seat's own ``view`` alone."""
    seat = int(view["seat"])
    legal = _legal(game, view)
    if played not in legal:
        raise ValueError(f"play {n} ({played}) is not legal in its seat's view")
    if len(legal) == 1:
        return Annotation(n, seat, None, None, None, "the only legal play")
    t0 = time.perf_counter()
    cpu = _cpu_choice(game, view, legal, seed, budget_ms * (1 - ROLLOUT_SHARE), samples)
    tokens = [cpu] if cpu == played else [cpu, played]
    deadline = t0 + budget_ms / 1000.0
    solo = game == "track" and view["config"].get("mode") == "solo"
    if game == "track":
        vals = _track_rollouts(view, tokens, seed, samples, deadline, solo)
    else:
        vals = _layout_rollouts(view, tokens, seed, samples, deadline)
    before, after = vals[0], vals[-1]
    if cpu == played:
        reason = "the CPU agrees: " + _explain(game, view, played, seed)
    else:
        reason = "the CPU would rather play " + cpu + ": " + _explain(game, view, cpu, seed)
    if solo:
        done = int(view["plays"])
        return Annotation(n, seat, None if cpu == played else cpu, None, None, reason,
                          done + before, done + after)
    return Annotation(n, seat, None if cpu == played else cpu, before, after, reason)


# ------------------------------------------------------------------------------ a whole game


def _solo_cpu_turns(rec: Record, budget_ms: float, samples: int | None) -> int:
    """The Nasty CPU's own game on the record's deal: its turn count."""
    rules = rules_of(rec.game)
    state = rules.new_game(rules.normalize_config(rec.config), rec.seed)
    k = 0
    while (seat := rules.to_move(state)) is not None and k < MAX_PLIES:
        view = rules.view(state, seat)
        legal = _legal(rec.game, view)
        tok = _cpu_choice(rec.game, view, legal, rec.seed + k, budget_ms, samples)
        state, _ = rules.apply(state, seat, tok)
        k += 1
    return k


def review(record_text: str, seat: int | None = None, budget_ms: float = 300.0, *,
           samples: int | None = None) -> list[Annotation]:
    """Annotations for every play the people made (``seat``: only that seat's), each from its
    seat's own view at the time. The record is checked by replaying it first
    (:class:`~game.rules.record.RecordError` naming the line otherwise)."""
    from game.rules.record import steps

    rec = parse_record(record_text)
    replay(rec)
    rules = rules_of(rec.game)
    if seat is not None and not (type(seat) is int and 0 <= seat < len(rec.seats)):
        raise ValueError(f"there is no seat {seat!r} in this record")
    out: list[Annotation] = []
    for st in steps(rec, events=False):
        p = st.play
        if p.by != "person" or (seat is not None and p.seat != seat):
            continue
        view = rules.view(st.before, p.seat)  # the seat's own view: no hidden card past here
        out.append(review_play(rec.game, view, p.token, p.n, budget_ms,
                               (rec.seed ^ (p.n * 0x9E3779B1)) & _MASK, samples))
    solo = rec.game == "track" and rec.config.get("mode") == "solo"
    if solo and rec.result != "*" and any(a.n > 0 for a in out):
        cpu = _solo_cpu_turns(rec, budget_ms * (1 - ROLLOUT_SHARE), samples)
        mine = len(rec.plays)
        if mine == cpu:
            words = f"you took {mine} turns, as many as the Nasty CPU on the same deal"
        else:
            diff = f"{abs(mine - cpu)} {'fewer' if mine < cpu else 'more'}"
            words = f"you took {mine} turns, {diff} than the Nasty CPU's {cpu} on the same deal"
        out.insert(0, Annotation(0, 0, None, None, None, words,
                                 float(cpu), float(mine)))
    return out


def review_cached(record_text: str, seat: int | None = None, budget_ms: float = 300.0, *,
                  samples: int | None = None) -> tuple[str, list[Annotation]]:
    """``(record text with the review in it, annotations)``: the stored review when the record
    holds one for this seat and budget (no search at all), else a new one."""
    rec = parse_record(record_text)
    key = review_key(seat, budget_ms)
    if rec.review == key:
        return record_text, list(rec.annotations)
    notes = review(record_text, seat, budget_ms, samples=samples)
    text = format_record(rec.with_review(key, notes))
    return text, list(parse_record(text).annotations)  # as stored: a second viewing is equal


# ------------------------------------------------------------------------------ summary


def _swing(a: Annotation) -> float:
    if a.turns_cpu is not None and a.turns_after is not None:
        return a.turns_cpu - a.turns_after  # turns saved (negative: turns lost)
    return a.change


def summary(annotations: Sequence[Annotation], teams: Sequence[Sequence[int]], top: int = 3
            ) -> dict[int, list[Annotation]]:
    """For each side (team index), the ``top`` plays whose estimate moved most (largest
    ``|after - before|``; solo: turns), biggest first, the earlier play first on ties; plays
    with no choice (no estimate) and the whole-game note (play 0) are never picked."""
    side = {s: t for t, members in enumerate(teams) for s in members}
    out: dict[int, list[Annotation]] = {t: [] for t in range(len(teams))}
    for a in annotations:
        if a.n <= 0 or a.seat not in side:
            continue
        if (a.before is None or a.after is None) and a.turns_after is None:
            continue
        out[side[a.seat]].append(a)
    for t, notes in out.items():
        notes.sort(key=lambda a: (-abs(_swing(a)), a.n))
        out[t] = notes[:top]
    return out


def sides(record_text: str) -> list[list[int]]:
    """The record's teams (seats per side), for :func:`summary`."""
    rec = parse_record(record_text)
    rules = rules_of(rec.game)
    return rules.teams(rules.new_game(rules.normalize_config(rec.config), rec.seed))
