"""CPU players for the track game: evaluation, Easy, Tricky, Nasty and the hint's reasons.

Everything starts from the seat's own view. :meth:`RULES.determinize` deals the unseen cards at
random consistently with that view; the seat's own legal plays do not depend on the hidden
cards, so one determinized state gives the exact :class:`Play` objects of the legal tokens.
Nothing here ever looks at another seat's hand except inside a determinized (sampled) state.

The evaluation (from one team's point of view, in "holes" of progress):

* **progress**: each peg is worth ``OUT`` once out of start plus the holes it has travelled
  towards its in-spot (measured backwards from the in-spot, so a peg sent by an 8 to the corner
  behind its come-out hole counts as nearly home), plus ``HOME`` and a little per home depth
  once home; the other teams' progress is subtracted (averaged over the other teams);
* **safety**: every own ring peg loses its value times the probability that an opponent who
  moves before us holds a card that hits it (hypergeometric over the cards this seat has not
  seen: the pack minus its hand minus the discards, hand sizes from the view), discounted by how
  often an opponent actually takes a hit;
* **threats**: the same for opponent pegs our team threatens (smaller weight: they move first);
* **cards kept** (classic/team): jokers, 8s and 7s, and come-out cards while pegs wait in start,
  are worth something in hand, so they are not spent on moves any card could make.

Nasty's samples follow what the public log reveals (:mod:`game.ai.infer`). This file is over
600 lines because the evaluation, the three levels and the hint's reasons share the same
helpers (hit ranks, probabilities); the inference lives in its own module.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from game.ai import infer
from game.rules.cards import Rng
from game.rules.track import RULES
from game.rules.track.board import PEGS
from game.rules.track.engine import (
    CLASSIC,
    HOME0,
    START,
    TEAM,
    TEES,
    LegalList,
    Play,
    TrackState,
    apply_play,
    controlled,
    done,
    gen_legal,
)

COLOUR_NAMES = ("Red", "Blue", "Yellow", "Green", "Orange", "Sky", "Purple", "White")

OUT = 14.0  # a peg out of start, on its come-out hole
HOME = 10.0  # extra for a peg safe in home
HOME_DEPTH = 1.5  # per home hole of depth
WIN = 10000.0
HIT_TAKE = 0.8  # how often an opponent who can hit a peg does
THREAT_W = 0.35  # weight of the opponent pegs we threaten (they move before we do)
MULTI_HIT = 0.3  # an opponent hits one peg per turn: the other exposed pegs count this much
JOKER_TAKE = 0.5  # how often an opponent with a joker spends it on our best ring peg
EASY_OUT = 8.0  # Easy likes coming out
EASY_SMART = {"tees": 0.1, "classic": 0.7, "team": 0.6}  # how often Easy sees what a move is worth
EASY_BUMPS = {"tees": 0.15, "classic": 0.5, "team": 0.5}  # how often Easy looks for a bump
EASY_NOISE = 6.0  # Easy's whims (uniform 0..this added to each play's score)
PRIOR_N = 4.0  # Tricky's score counts as this many samples in Nasty's means
BUDGET_USE = 0.85  # Nasty plans to finish within this share of its budget
# Nasty's rollouts: rounds of play after its move (2: its own next move included) and how many
# candidate plays it compares, per rule set (classic/team plays are dearer: 7 and 9 splits)
ROLLOUT_ROUNDS = {"tees": 2.0, "classic": 3.0, "team": 2.0}
CANDIDATES = {"tees": 6, "classic": 4, "team": 4}
# rollout plies (after the candidate) in which the mover answers with Tricky's own choice (full
# evaluation from its sampled hand) instead of the Tricky-lite policy
SMART_PLIES = {"tees": 0.0, "classic": 0.0, "team": 0.0}
SMART_OWN = {"tees": 0.0, "classic": 0.0, "team": 0.0}  # 1: the searching seat's own rollout
# moves are Tricky's choices too
SMART_TOPK = 0.0  # >0: a smart ply judges only the best this many plays by the lite score
RACE_MIN = 8.0  # samples before Nasty may drop a candidate that is clearly behind
RACE_Z = 2.0  # >0: drop a candidate whose shrunk mean trails the leader's by this many SEs
LEAF_RISK = {"tees": 1.0, "classic": 1.0, "team": 1.0}  # weight of the safety term at leaves
LEAF_MAX = 0.0  # 1: a leaf where the searching seat is to move is worth its best play's score
INFER = 1.0  # 1: Nasty's samples follow what the public log says (game/ai/infer.py); 0: off
KEEP = 1.0  # weight of the cards-kept term
KEEP_THREAT = 0.6  # an opponent peg we can hit with a card we keep

# ranks that hit at a forward distance d (index d, 1..13), per rule set
_TEES_FWD = {1: (1,), 2: (2,), 4: (4,), 5: (5,), 6: (6,), 7: (7,), 8: (8,), 9: (9,), 10: (10,),
             12: (12,)}
_CLASSIC_FWD = {1: (1, 7), 2: (2, 7), 3: (3, 7), 4: (4, 7), 5: (5, 7), 6: (6, 7), 7: (7,),
                9: (9,), 10: (10, 11, 12, 13)}


def _fwd_table(rules: int) -> list[frozenset[int]]:
    out: list[frozenset[int]] = [frozenset()] * 14
    if rules == TEES:
        for d, ranks in _TEES_FWD.items():
            out[d] = frozenset(ranks)
    else:
        for d, rs in _CLASSIC_FWD.items():
            out[d] = frozenset(rs)
        if rules == TEAM:
            for d in range(1, 9):
                out[d] = out[d] | {9}
    return out


_FWD_HITS = [_fwd_table(r) for r in (TEES, CLASSIC, TEAM)]


# --------------------------------------------------------------------------------------------
# Knowledge from the view


_DECK_COUNTS: dict[tuple, list[int]] = {}  # cards per rank of a pack, by pack


class Know:
    """What a seat knows that the evaluation needs: unseen card counts by rank, hand sizes."""

    __slots__ = ("hand", "hand_sizes", "seat", "unseen", "unseen_n")

    def __init__(self, st: TrackState, seat: int) -> None:
        cfg = st.cfg
        key = (cfg.rules, cfg.n, cfg.jokers, len(cfg.deck))
        full = _DECK_COUNTS.get(key)
        if full is None:
            full = [0] * 14
            for c in cfg.deck:
                full[c >> 2] += 1
            _DECK_COUNTS[key] = full
        cnt = full[:]
        for c in st.hands[seat]:
            cnt[c >> 2] -= 1
        for c in st.discards:
            cnt[c >> 2] -= 1
        self.unseen = cnt
        self.unseen_n = sum(cnt)
        self.seat = seat
        self.hand = st.hands[seat]
        extra = 1 if st.cfg.rules == CLASSIC else 0  # classic seats draw before they play
        self.hand_sizes = [len(h) + extra if h or st.cfg.rules != TEES else 0 for h in st.hands]


def p_holds(know: Know, ranks: frozenset[int] | set[int], h: int) -> float:
    """Probability that a hand of ``h`` unseen cards holds at least one of ``ranks``."""
    if h <= 0 or not ranks:
        return 0.0
    m = 0
    u = know.unseen
    for r in ranks:
        m += u[r]
    if m <= 0:
        return 0.0
    n = know.unseen_n
    if h >= n - m + 1:
        return 1.0
    q = 1.0
    for i in range(h):
        q *= (n - m - i) / (n - i)
    return 1.0 - q


# --------------------------------------------------------------------------------------------
# Evaluation


def peg_value(st: TrackState, pid: int, loc: int) -> float:
    if loc == START:
        return 0.0
    cfg = st.cfg
    lap = cfg.R - 5
    if loc >= HOME0:
        return OUT + lap + HOME + HOME_DEPTH * (loc - HOME0)
    d = (cfg.inspot[pid // PEGS] - loc) % cfg.R  # past the in-spot: a whole lap to go again
    return OUT + lap - d


_PV_CACHE: dict[tuple, list[list[float]]] = {}


def _pv(st: TrackState) -> list[list[float]]:
    """``peg_value`` as a table: ``_pv(st)[pid][loc + 1]`` (built once per board and weights)."""
    cfg = st.cfg
    key = (cfg.R, cfg.inspot, OUT, HOME, HOME_DEPTH)
    t = _PV_CACHE.get(key)
    if t is None:
        rows = []
        for c in range(cfg.n):
            row = [0.0] * (HOME0 + PEGS + 2)
            for loc in range(cfg.R):
                row[loc + 1] = peg_value(st, c * PEGS, loc)
            for k in range(1, PEGS + 1):
                row[HOME0 + k + 1] = peg_value(st, c * PEGS, HOME0 + k)
            rows.append(row)
        t = _PV_CACHE[key] = [rows[pid // PEGS] for pid in range(cfg.n * PEGS)]
    return t


def _hit_ranks(st: TrackState, pegs: Sequence[int], occ: list[int], attacker_cols: Sequence[int],
               target: int) -> set[int]:
    """Ranks with which a seat moving ``attacker_cols`` could land on ring hole ``target``."""
    cfg = st.cfg
    R = cfg.R
    rules = cfg.rules
    fwd = _FWD_HITS[rules]
    team_of = cfg.team_of
    out: set[int] = set()
    for c in attacker_cols:
        b = c * PEGS
        has_start = False
        for pid in range(b, b + PEGS):
            loc = pegs[pid]
            if loc == START:
                has_start = True
                continue
            if loc >= HOME0:
                continue
            d = (target - loc) % R
            if 1 <= d <= 13 and fwd[d]:
                ok = True
                if rules == TEES:
                    if d > (cfg.inspot[c] - loc) % R:
                        ok = False  # it would turn into home first
                    else:
                        for k in range(1, d):
                            q = occ[(loc + k) % R]
                            if q >= 0 and team_of[q // PEGS] == team_of[c]:
                                ok = False
                                break
                else:
                    for k in range(1, d):
                        q = occ[(loc + k) % R]
                        if q >= 0 and q // PEGS == c:
                            ok = False
                            break
                if ok:
                    out |= fwd[d]
            db = (loc - target) % R
            if rules == TEES:
                if db == 3 and (loc - cfg.comeout[c]) % R >= 3:
                    out.add(3)
            elif db == 8:
                out.add(8)
            elif rules == TEAM and 1 <= db <= 8:
                out.add(9)
        if has_start and target == cfg.comeout[c]:
            out.update((1, 13) if rules == TEES else (1, 11, 12, 13))
    return out


def _occ(st: TrackState, pegs: Sequence[int]) -> list[int]:
    occ = [-1] * st.cfg.R
    for pid, loc in enumerate(pegs):
        if 0 <= loc < HOME0:
            occ[loc] = pid
    return occ


def evaluate(st: TrackState, pegs: Sequence[int], team: int, know: Know,
             hand_after: Sequence[int] | None = None, mover: int = -1,
             safety: bool = True, risk_w: float = 1.0) -> float:
    """Score of ``pegs`` for ``team`` (higher is better); ``know`` is the deciding seat's
    knowledge, ``hand_after`` its hand after the play (for the cards-kept term)."""
    cfg = st.cfg
    n = cfg.n
    team_of = cfg.team_of
    mine = 0.0
    theirs = 0.0
    pv = _pv(st)
    for c in range(n):
        b = c * PEGS
        v = 0.0
        for pid in range(b, b + PEGS):
            v += pv[pid][pegs[pid] + 1]
        if team_of[c] == team:
            mine += v
        else:
            theirs += v
    for t_cols in cfg.teams:
        if team_of[t_cols[0]] == team and all(done(pegs, c) for c in t_cols):
            return WIN
    nopp = cfg.nteams - 1
    score = mine - (theirs / nopp if nopp > 0 else 0.0)
    if safety and nopp > 0:
        occ = _occ(st, pegs)
        # seats that move before the deciding seat's next turn (all others, once)
        seats_after = [(know.seat + k) % n for k in range(1, n)]
        risk = 0.0
        threat = 0.0
        jokers = cfg.jokers and cfg.rules != TEES
        j_set = frozenset((0,))
        for s in seats_after:
            cols = controlled(cfg, s, pegs)
            if not cols or s == know.seat:
                continue
            h = know.hand_sizes[s]
            s_team = team_of[s]
            losses: list[float] = []
            best_v = 0.0
            for pid, loc in enumerate(pegs):
                if loc < 0 or loc >= HOME0:
                    continue
                tc = team_of[pid // PEGS]
                if s_team == tc:
                    continue
                if tc == team:
                    v = pv[pid][loc + 1]
                    if v > best_v:
                        best_v = v
                    ranks = _hit_ranks(st, pegs, occ, cols, loc)
                    if ranks:
                        losses.append(p_holds(know, ranks, h) * v)
                elif s_team == team:
                    ranks = _hit_ranks(st, pegs, occ, cols, loc)
                    if ranks:
                        threat += p_holds(know, ranks, h) * pv[pid][loc + 1]
            if losses:
                losses.sort(reverse=True)
                risk += HIT_TAKE * (losses[0] + MULTI_HIT * sum(losses[1:]))
            if jokers and best_v > 0:
                risk += JOKER_TAKE * p_holds(know, j_set, h) * best_v
        # our own next turn: the cards we keep
        if hand_after is not None:
            kept = {c >> 2 for c in hand_after}
            my_cols = controlled(cfg, know.seat, pegs)
            if kept and my_cols:
                for pid, loc in enumerate(pegs):
                    if loc < 0 or loc >= HOME0 or team_of[pid // PEGS] == team:
                        continue
                    ranks = _hit_ranks(st, pegs, occ, my_cols, loc)
                    if ranks & kept:
                        threat += KEEP_THREAT * pv[pid][loc + 1]
        score += -risk_w * risk + THREAT_W * threat / (nopp if nopp > 0 else 1)
    if hand_after is not None and cfg.rules != TEES:
        score += KEEP * hand_value(st, pegs, hand_after, know.seat)
    return score


def hand_value(st: TrackState, pegs: Sequence[int], hand: Sequence[int], seat: int) -> float:
    """What the cards kept are worth for later (classic/team)."""
    cfg = st.cfg
    cols = controlled(cfg, seat, pegs)
    in_start = sum(1 for c in cols for pid in range(c * PEGS, c * PEGS + PEGS)
                   if pegs[pid] == START)
    v = 0.0
    outers = 0
    for c in hand:
        r = c >> 2
        if r == 0:
            v += 9.0 if cfg.jokers else 0.0
        elif r == 8:
            v += 3.0
        elif r == 7:
            v += 2.5
        elif (r == 1 or r >= 11) and in_start > outers:
            v += 2.0
            outers += 1
    return v


def after_pegs(st: TrackState, play: Play) -> tuple[int, ...]:
    """The peg locations after ``play`` (without applying the rest of the turn)."""
    if play.parts[0].kind == "x":
        return st.pegs
    pegs = list(st.pegs)
    for part, bumps in zip(play.parts, play.bumps, strict=True):
        kind, pid, frm, to, n = part
        if kind == "t":
            pegs[pid] = to
            pegs[n] = frm
        else:
            pegs[pid] = to
            for q, _qf, qt in bumps:
                pegs[q] = qt
    return tuple(pegs)


def hand_minus(hand: Sequence[int], rank: int) -> tuple[int, ...]:
    for i, c in enumerate(hand):
        if c >> 2 == rank:
            return (*hand[:i], *hand[i + 1:])
    return tuple(hand)


def score_plays(st: TrackState, seat: int, plays: Sequence[Play], know: Know,
                safety: bool = True, keep: bool = True) -> list[float]:
    team = st.cfg.team_of[seat]
    hand = st.hands[seat]
    out = []
    for p in plays:
        pegs = after_pegs(st, p)
        out.append(evaluate(st, pegs, team, know, hand_minus(hand, p.rank) if keep else None,
                            seat, safety))
    return out


# --------------------------------------------------------------------------------------------
# Fast policy for rollouts (Tricky-lite)


def lite_score(st: TrackState, seat: int, p: Play, pv: list[list[float]] | None = None
               ) -> float:
    """A cheap one-move score: progress gained, bumps, coming out, home, jokers kept."""
    return _lite(st, seat, p.rank, p.parts, p.bumps, _pv(st) if pv is None else pv)


def _lite(st: TrackState, seat: int, rank: int, parts: Sequence[Any],
          bumps_of: Sequence[Any], pv: list[list[float]]) -> float:
    """:func:`lite_score` of a play given as its rank, parts and bumps (a :class:`Play`'s, or
    a raw play of the Python engine's legal list: no object is made to score it)."""
    if parts[0][0] == "x":
        return -20.0 if rank == 0 else -(1.0 if rank in (7, 8) else 0.0)
    team_of = st.cfg.team_of
    t = team_of[seat]
    pegs = st.pegs
    s = 0.0
    for part, bumps in zip(parts, bumps_of, strict=True):
        kind, pid, frm, to, n = part
        row = pv[pid]
        sign = 1.0 if team_of[pid // PEGS] == t else -1.0
        if kind == "t":
            s += sign * (row[to + 1] - row[frm + 1])
            dq = pv[n][frm + 1] - pv[n][pegs[n] + 1]
            s += dq if team_of[n // PEGS] == t else -dq
            continue
        s += sign * (row[to + 1] - row[frm + 1])
        for q, qf, qt in bumps:
            dv = pv[q][qt + 1] - pv[q][qf + 1]
            s += dv if team_of[q // PEGS] == t else -dv
    if rank == 0:
        s -= 8.0
    return s


def lite_scores(st: TrackState, seat: int, plays: Sequence[Play]) -> list[float]:
    """:func:`lite_score` of every play; on the Python engine's legal list straight from its
    raw plays (no :class:`Play` made)."""
    pv = _pv(st)
    if isinstance(plays, LegalList):
        return [_lite(st, seat, r[0], r[1], r[2], pv) for r in plays.raw]
    return [_lite(st, seat, p.rank, p.parts, p.bumps, pv) for p in plays]


def lite_choice(st: TrackState, seat: int, plays: Sequence[Play]) -> Play:
    """The first play of the best :func:`lite_score`; of the plays of the Python engine's
    legal list, only the chosen one is made a :class:`Play`."""
    vals = lite_scores(st, seat, plays)
    best = 0
    bs = -1e18
    for i, v in enumerate(vals):
        if v > bs:
            bs = v
            best = i
    return plays[best]


# --------------------------------------------------------------------------------------------
# Levels


def _state_and_plays(view: Mapping[str, Any], legal: Sequence[str], seed: int
                     ) -> tuple[TrackState, list[Play]]:
    st = RULES.determinize(view, seed)
    by_tok = {p.token: p for p in gen_legal(st)}
    plays = []
    for tok in legal:
        p = by_tok.get(tok)
        if p is None:
            p = RULES.parse_play(st, tok)
        plays.append(p)
    return st, plays


def _argmax(vals: Sequence[float]) -> int:
    best = 0
    for i in range(1, len(vals)):
        if vals[i] > vals[best]:
            best = i
    return best


def easy(view: Mapping[str, Any], legal: Sequence[str], seed: int) -> str:
    """A casual beginner: likes progress and coming out, often overlooks bumps and danger."""
    st, plays = _state_and_plays(view, legal, seed)
    seat = st.turn
    rng = Rng.from_seed(f"easy/{seed}/{st.nplays}")
    sees_bumps = rng.random() < EASY_BUMPS[st.cfg.conf["rules"]]
    smart = rng.random() < EASY_SMART[st.cfg.conf["rules"]]
    team = st.cfg.team_of[seat]
    team_of = st.cfg.team_of
    vals = []
    for p in plays:
        if p.parts[0].kind == "x":
            vals.append(-5.0 + rng.random())
            continue
        # a beginner counts steps: forward is good, backward is bad, out and home are nice
        v = 0.0
        for part, bumps in zip(p.parts, p.bumps, strict=True):
            kind, pid, frm, to, n = part
            own = team_of[pid // PEGS] == team
            if smart and kind != "t":
                gain = peg_value(st, pid, to) - peg_value(st, pid, frm)
                v += gain if own else -gain
                if kind == "o":
                    v += EASY_OUT
            elif kind == "o":
                v += EASY_OUT
            elif kind == "f":
                v += n if own else -n
                if to >= HOME0 > frm:
                    v += 8.0
            elif kind == "b":
                v -= n
            elif kind == "j":
                v += 10.0
            elif kind == "t":
                v += 0.5 * (peg_value(st, pid, to) - peg_value(st, pid, frm))
            for q, qf, qt in bumps:
                if team_of[q // PEGS] == team:
                    v -= 5.0
                elif sees_bumps:
                    v += 0.3 * (peg_value(st, q, qf) - peg_value(st, q, qt))
        v += EASY_NOISE * rng.random()
        vals.append(v)
    return plays[_argmax(vals)].token


def tricky(view: Mapping[str, Any], legal: Sequence[str], seed: int) -> str:
    st, plays = _state_and_plays(view, legal, seed)
    if len(plays) == 1:
        return plays[0].token
    know = Know(st, st.turn)
    vals = score_plays(st, st.turn, plays, know)
    return plays[_argmax(vals)].token


class SearchStats:
    """Counts of the last Nasty search (for tests and benchmarks)."""

    samples = 0
    candidates = 0
    constrained = 0  # seats whose hidden hand the public log constrained


def nasty(view: Mapping[str, Any], legal: Sequence[str], seed: int, budget_ms: float,
          max_samples: int | None = None, candidates: int | None = None,
          history: Sequence[Mapping[str, Any]] = ()) -> str:
    """Determinized sampling on top of Tricky's evaluation.

    The ``candidates`` best plays by Tricky's evaluation are each tried in the same sampled
    deals (common random numbers): every sample deals the unseen cards with
    :meth:`RULES.determinize`, plays the candidate, plays on for ``ROLLOUT_ROUNDS`` rounds
    (tees 2, classic 3: its own next moves included) with the Tricky-lite policy, and scores
    the result with the full evaluation. Means are shrunk towards Tricky's own scores
    (``PRIOR_N``). Racing: from ``RACE_MIN`` samples on, a candidate whose paired difference to
    the leader is ``RACE_Z`` standard errors below is dropped, so the samples go to the close
    calls; the search ends when one candidate is left. Otherwise samples run until the budget
    (minus the time one more sample is expected to take) is spent, or ``max_samples``.

    ``history`` (the public log, ``{"seat", "play"}`` each): with ``INFER`` on, the samples
    follow what the log says about the hidden hands (:mod:`game.ai.infer`: a classic/team seat
    that discarded on the board of the view held no card that could move).
    """
    t0 = time.perf_counter()
    deadline = t0 + BUDGET_USE * budget_ms / 1000.0
    st, plays = _state_and_plays(view, legal, seed)
    SearchStats.samples = 0
    SearchStats.candidates = 0
    if len(plays) == 1:
        return plays[0].token
    seat = st.turn
    cfg = st.cfg
    team = cfg.team_of[seat]
    know = Know(st, seat)
    rules = cfg.conf["rules"]
    if candidates is None:
        candidates = CANDIDATES[rules]
    base = score_plays(st, seat, plays, know)
    order = sorted(range(len(plays)), key=lambda i: -base[i])
    # distinct resulting positions only (J:as and Q:as differ only in the card kept)
    cand: list[int] = []
    seen: set[tuple] = set()
    for i in order:
        key = (after_pegs(st, plays[i]), plays[i].rank)
        if key in seen:
            continue
        seen.add(key)
        cand.append(i)
        if len(cand) >= candidates:
            break
    if len(cand) == 1 or base[cand[0]] >= WIN:
        return plays[cand[0]].token
    SearchStats.candidates = len(cand)
    cons = infer.discard_constraints(view, history, st) if INFER and history else {}
    SearchStats.constrained = len(cons)
    totals = [0.0] * len(cand)
    svals: list[list[float]] = [[] for _ in cand]
    active = list(range(len(cand)))
    race_z = RACE_Z
    race_min = max(2, int(RACE_MIN))
    depth = int(ROLLOUT_ROUNDS[rules] * cfg.n) - 1
    smart = int(SMART_PLIES[rules])
    topk = int(SMART_TOPK)
    own = bool(SMART_OWN[rules])
    leaf_risk = LEAF_RISK[rules]
    k = 0
    per = 0.0
    while max_samples is None or k < max_samples:
        now = time.perf_counter()
        if max_samples is None and now + per * 1.5 > deadline:
            break
        det_seed = (seed * 1000003 + k * 7919 + 17) & ((1 << 62) - 1)
        det = infer.sample(view, det_seed, cons) if cons else RULES.determinize(view, det_seed)
        for j in active:
            s, _ = apply_play(det, seat, plays[cand[j]], events=False)
            plies = 0
            while s.turn >= 0 and plies < depth:
                lg = gen_legal(s)
                mover = s.turn
                if (plies < smart or (own and mover == seat)) and len(lg) > 1:
                    if topk and len(lg) > topk:
                        ls = lite_scores(s, mover, lg)
                        lg = [lg[i] for i in sorted(range(len(lg)), key=lambda i: -ls[i])[:topk]]
                    vals = score_plays(s, mover, lg, Know(s, mover))
                    p = lg[_argmax(vals)]
                else:
                    p = lite_choice(s, mover, lg)
                s, _ = apply_play(s, mover, p, events=False)
                plies += 1
            if s.turn < 0:
                v = WIN if s.winner == team else -WIN
            elif LEAF_MAX and s.turn == seat:
                v = max(score_plays(s, seat, gen_legal(s), Know(s, seat)))
            else:
                v = evaluate(s, s.pegs, team, Know(s, seat), s.hands[seat], seat,
                             risk_w=leaf_risk)
            totals[j] += v
            svals[j].append(v)
        k += 1
        if race_z > 0 and k >= race_min and len(active) > 1:
            active = _race(active, totals, svals, [base[i] for i in cand], k, race_z)
            if len(active) == 1:
                break
        el = time.perf_counter() - now
        per = el if k == 1 else 0.7 * per + 0.3 * el
    SearchStats.samples = k
    if k == 0:
        return plays[cand[0]].token
    # shrink the sampled means towards Tricky's own scores (worth PRIOR_N samples), so that a
    # handful of samples cannot overturn a clear one-move judgement by luck alone
    final = [(totals[j] + PRIOR_N * base[i]) / (k + PRIOR_N) for j, i in enumerate(cand)]
    best = active[0]
    for j in active[1:]:
        if final[j] > final[best] + 1e-9:
            best = j
    return plays[cand[best]].token


def _race(active: list[int], totals: list[float], svals: list[list[float]], prior: list[float],
          k: int, z: float) -> list[int]:
    """The candidates still in the race after ``k`` common samples: the leader (best mean,
    shrunk towards Tricky's score like the final choice) and every candidate whose paired
    difference to it is not ``z`` standard errors below."""
    means = {j: (totals[j] + PRIOR_N * prior[j]) / (k + PRIOR_N) for j in active}
    lead = max(active, key=lambda j: means[j])
    lv = svals[lead]
    keep = []
    for j in active:
        if j == lead:
            keep.append(j)
            continue
        jv = svals[j]
        d = [lv[t] - jv[t] for t in range(k)]
        md = sum(d) / k
        var = sum((x - md) ** 2 for x in d) / (k - 1)
        if means[lead] - means[j] <= z * (var / k) ** 0.5 + 1e-9:
            keep.append(j)
    return keep


# --------------------------------------------------------------------------------------------
# Hints


def _colour(c: int) -> str:
    return COLOUR_NAMES[c] if c < len(COLOUR_NAMES) else f"colour {c}"


def _where(loc: int) -> str:
    if loc == START:
        return "start"
    if loc >= HOME0:
        return f"home {loc - HOME0}"
    return f"hole {loc}"


def explain(view: Mapping[str, Any], token: str, seed: int = 0) -> str:
    """A short sentence a person can read about why ``token`` is good."""
    st, plays = _state_and_plays(view, [token], seed)
    p = plays[0]
    seat = st.turn
    cfg = st.cfg
    team_of = cfg.team_of
    team = team_of[seat]
    rank_name = {0: "joker", 1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}.get(p.rank, str(p.rank))
    if p.parts[0].kind == "x":
        return f"nothing can move: discarding the {rank_name} costs you least"
    bits: list[str] = []
    for part, bumps in zip(p.parts, p.bumps, strict=True):
        kind, pid, frm, to, n = part
        for q, _qf, qt in bumps:
            qc = q // PEGS
            if team_of[qc] != team:
                bits.append(f"bumps {_colour(qc)} back to start")
            elif qt == START:
                bits.append(f"sends your partner {_colour(qc)} back to start (nothing else moves)")
            else:
                bits.append(f"sends your partner {_colour(qc)} on to its in-spot")
        if kind == "o":
            bits.append("brings a peg out")
        elif kind == "t":
            oc = n // PEGS
            who = "your partner " if team_of[oc] == team else ""
            gain = int(peg_value(st, pid, to) - peg_value(st, pid, frm))
            verb = "gaining" if gain > 0 else "giving up"
            bits.append(f"trades places with {who}{_colour(oc)}, {verb} {abs(gain)} holes")
        elif to >= HOME0 and frm < HOME0:
            bits.append(f"takes a peg home (to home {to - HOME0})")
        elif kind == "b" and frm < HOME0 and to < HOME0 and cfg.rules != TEES and \
                (cfg.inspot[pid // PEGS] - to) % cfg.R <= 13:
            bits.append(f"goes back to {_where(to)}, close to home")
        elif kind == "j":
            pass
    # safety of the pegs that moved
    pegs = after_pegs(st, p)
    occ = _occ(st, pegs)
    know = Know(st, seat)
    moved = [part.peg for part in p.parts if part.kind in "ofbjt"]
    for pid in moved:
        loc = pegs[pid]
        if loc < 0 or loc >= HOME0 or team_of[pid // PEGS] != team:
            continue
        ranks: set[int] = set()
        for s in range(cfg.n):
            if team_of[s] == team:
                continue
            ranks |= _hit_ranks(st, pegs, occ, controlled(cfg, s, pegs), loc)
        live = sorted(r for r in ranks if know.unseen[r] > 0)
        if not live:
            bits.append("lands where no card can hit it")
        elif len(live) <= 2 and 0 not in live:
            names = " or ".join(_rank_word(r) for r in live)
            bits.append(f"safe from every card but {names}")
        break
    if not bits:
        ahead = sum(peg_value(st, q, pegs[q]) - peg_value(st, q, st.pegs[q]) for q in moved)
        if ahead > 0:
            bits.append(f"moves {int(ahead)} holes closer to home")
        else:
            bits.append("keeps your best cards for later")
    return "; ".join(bits[:2])


def _rank_word(r: int) -> str:
    return {0: "a joker", 1: "an Ace", 8: "an 8", 11: "a Jack", 12: "a Queen",
            13: "a King"}.get(r, f"a {r}")


def hint(view: Mapping[str, Any], legal: Sequence[str], seed: int, budget_ms: float,
         history: Sequence[Mapping[str, Any]] = ()) -> tuple[str, str]:
    tok = (nasty(view, legal, seed, budget_ms, history=history) if budget_ms >= 50
           else tricky(view, legal, seed))
    return tok, explain(view, tok, seed)
