"""The track engine's constants and config: :func:`normalize_config` checks a config and fills
its defaults, :class:`Cfg` holds it with every precomputed table of the engine (path masks,
in-spots, teams, the deck), :func:`make_cfg` makes one per distinct config (cached)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.rules.api import ConfigError
from game.rules.cards import make_deck
from game.rules.track import _core
from game.rules.track.board import PEGS, Board

TEES, CLASSIC, TEAM = 0, 1, 2
RULE_NAMES = ("tees", "classic", "team")
MODES = ("teams", "h2h", "ffa", "solo")
START = -1
HOME0 = 200  # home k (1..5) is HOME0 + k
COLOURS = "abcdefgh"
RANK_CHARS = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
TEES_ROUNDS = {4: (5, 4, 4), 6: (4, 4)}
DEAL_CLASSIC = 5
_FULL_HOME = (1 << PEGS) - 1
_CONFIG_KEYS = ("rules", "seats", "mode", "teams", "jokers", "seven_to_partner")


# --------------------------------------------------------------------------------------------
# Config


def normalize_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Fill defaults and check every field; raise :class:`ConfigError` with a clear message."""
    if not isinstance(config, Mapping):
        raise ConfigError(f"a track config must be a dict, not {type(config).__name__}")
    unknown = sorted(str(k) for k in config if k not in _CONFIG_KEYS)
    if unknown:
        raise ConfigError(
            f"unknown track config key(s) {', '.join(unknown)}; expected {', '.join(_CONFIG_KEYS)}"
        )
    rules = config.get("rules", "classic")
    if rules not in RULE_NAMES:
        raise ConfigError(f"rules must be one of tees, classic, team, not {rules!r}")
    seats = config.get("seats", 4)
    if type(seats) is not int or not 1 <= seats <= 8:
        raise ConfigError(f"seats must be a whole number from 1 to 8, not {seats!r}")
    mode = config.get("mode")
    if mode is None:
        if rules == "tees":
            mode = "teams"
        else:
            mode = {1: "solo", 2: "h2h", 4: "teams", 6: "teams", 8: "teams"}.get(seats, "ffa")
    if mode not in MODES:
        raise ConfigError(f"mode must be one of teams, h2h, ffa, solo, not {mode!r}")
    teams = config.get("teams")
    if teams is not None and (type(teams) is not int):
        raise ConfigError(f"teams must be a whole number, not {teams!r}")
    if rules == "tees":
        if mode != "teams":
            raise ConfigError("tees is played in teams only (4 seats as 2x2 or 6 seats as 3x2)")
        if seats not in (4, 6):
            raise ConfigError(f"tees seats 4 (2 teams of 2) or 6 (3 teams of 2), not {seats}")
        want = seats // 2
        if teams is None:
            teams = want
        if teams != want:
            raise ConfigError(f"tees with {seats} seats has {want} teams of 2, not {teams} teams")
    elif mode == "teams":
        allowed = {4: (2,), 6: (2, 3), 8: (2, 4)}.get(seats)
        if allowed is None:
            raise ConfigError(f"team games seat 4, 6 or 8 players, not {seats}")
        if teams is None:
            teams = 2
        if teams not in allowed:
            raise ConfigError(
                f"{seats} seats split into {' or '.join(map(str, allowed))} teams, not {teams}"
            )
    elif mode == "h2h":
        if seats != 2:
            raise ConfigError(f"head to head is for 2 seats, not {seats}")
        if teams not in (None, 2):
            raise ConfigError("head to head has 2 one-player teams")
        teams = 2
    elif mode == "ffa":
        if not 3 <= seats <= 8:
            raise ConfigError(f"free-for-all is for 3 to 8 seats, not {seats}")
        if teams not in (None, seats):
            raise ConfigError(f"free-for-all with {seats} seats has {seats} one-player teams")
        teams = seats
    else:  # solo
        if seats != 1:
            raise ConfigError(f"solo is for 1 seat, not {seats}")
        if teams not in (None, 1):
            raise ConfigError("solo has one team of one")
        teams = 1
    jokers = config.get("jokers", rules != "tees")
    if type(jokers) is not bool:
        raise ConfigError(f"jokers must be true or false, not {jokers!r}")
    if rules == "tees" or mode == "solo":
        jokers = False  # tees has no jokers; solo removes them (nothing to bump)
    seven = config.get("seven_to_partner", True)
    if type(seven) is not bool:
        raise ConfigError(f"seven_to_partner must be true or false, not {seven!r}")
    return {"rules": rules, "seats": seats, "mode": mode, "teams": teams, "jokers": jokers,
            "seven_to_partner": seven}


class Cfg:
    """A normalized config plus every precomputed table of the engine (shared, immutable)."""

    __slots__ = (
        "R",
        "bwd",
        "comeout",
        "conf",
        "deck",
        "fast",
        "fwd",
        "inspot",
        "jokers",
        "key",
        "mode",
        "n",
        "nteams",
        "partners",
        "rules",
        "seven",
        "tadd",
        "tafter",
        "tb3",
        "tdist",
        "team_of",
        "teamcols",
        "teams",
        "th3",
        "thmv",
        "tmate",
        "tpath",
        "tring",
    )

    conf: dict[str, Any]
    key: tuple[Any, ...]
    rules: int
    n: int
    mode: str
    nteams: int
    jokers: bool
    seven: bool
    R: int
    inspot: tuple[int, ...]
    comeout: tuple[int, ...]
    team_of: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    teamcols: tuple[tuple[int, ...], ...]
    partners: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    fwd: tuple[tuple[int, ...], ...]  # [hole][k]: ring mask of the k holes ahead
    bwd: tuple[tuple[int, ...], ...]  # [hole][k]: ring mask of the k holes behind
    fast: Any  # the C core's copy (_fast.Config), None without it
    # the tees generator's tables (see _tees_tables)
    tmate: tuple[int, ...]
    tdist: tuple[tuple[int, ...], ...]
    tadd: tuple[tuple[int, ...], ...]
    tafter: tuple[tuple[int, ...], ...]
    tb3: tuple[tuple[tuple[int, int] | None, ...], ...]
    th3: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]
    thmv: tuple[tuple[tuple[int, int], ...], ...]
    tpath: tuple[tuple[int, ...], ...]
    tring: tuple[tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...], ...]

    def __init__(self, conf: dict[str, Any]) -> None:
        self.conf = conf
        self.key = tuple(conf[k] for k in _CONFIG_KEYS)  # what a state's key starts with
        self.rules = RULE_NAMES.index(conf["rules"])
        n = self.n = conf["seats"]
        self.mode = conf["mode"]
        self.nteams = conf["teams"]
        self.jokers = conf["jokers"]
        self.seven = conf["seven_to_partner"]
        b = Board(n)
        R = self.R = b.ring
        self.inspot = tuple(b.in_spot(c) for c in range(n))
        self.comeout = tuple(b.come_out(c) for c in range(n))
        if self.mode == "teams":
            self.team_of = tuple(c % self.nteams for c in range(n))
        else:
            self.team_of = tuple(range(n))
        self.teams = tuple(
            tuple(c for c in range(n) if self.team_of[c] == t) for t in range(self.nteams)
        )
        self.teamcols = tuple(self.teams[self.team_of[c]] for c in range(n))
        self.partners = tuple(
            tuple((c + k) % n for k in range(1, n) if self.team_of[(c + k) % n] == self.team_of[c])
            for c in range(n)
        )
        if self.rules == TEES:
            decks = 1
        elif self.rules == TEAM:
            decks = 4
        else:
            decks = 3 if n <= 6 else 4
        self.deck = tuple(make_deck(decks, 2 if self.jokers else 0))
        fwd = []
        bwd = []
        for h in range(R):
            f = [0]
            g = [0]
            mf = mg = 0
            for k in range(1, 14):
                mf |= 1 << ((h + k) % R)
                mg |= 1 << ((h - k) % R)
                f.append(mf)
                g.append(mg)
            fwd.append(tuple(f))
            bwd.append(tuple(g))
        self.fwd = tuple(fwd)
        self.bwd = tuple(bwd)
        _tees_tables(self)
        self.fast = None if _core.fast is None else _core.fast.Config(self)

    def __reduce__(self) -> tuple[Callable[[Mapping[str, Any]], Cfg], tuple[dict[str, Any]]]:
        # pickled and copied as its config (the tables, and the C core's copy, are rebuilt)
        return (make_cfg, (self.conf,))


#: [home mask]: the pegs in home 1..4 with the next home hole free (they may move forward),
#: ``(HOME0 + k, f)`` for home ``k`` with ``f`` free holes ahead, by ``k`` (the home mask's
#: bit ``i`` is home ``i + 1``).
_HMV = tuple(
    tuple((HOME0 + k, next((j for j in range(5 - k) if (hmask >> (k + j)) & 1), 5 - k))
          for k in range(1, 5) if (hmask >> (k - 1)) & 1 and not (hmask >> k) & 1)
    for hmask in range(32))


def _tees_tables(cfg: Cfg) -> None:
    """The tees generator's tables on ``cfg`` (:func:`movegen._gen_tees`; every config gets
    them, only tees reads them): ``tmate[c]`` the partner colour (tees seats teams of two),
    ``tdist[c][hole]`` the holes from ``hole`` forward to colour ``c``'s in-spot,
    ``tadd[hole][n]`` the hole ``n`` ahead of ``hole``, ``tpath[hole][n]`` the mask of the
    ``n - 1`` holes after ``hole`` (``fwd[hole][n - 1]``: the holes a forward ``n`` passes),
    ``tb3[c][hole]`` a backward 3 of colour ``c``'s peg on ``hole``: ``(mask of the 2 holes
    behind, landing)``, None within 3 holes past its come-out hole (where it may not go
    back), ``th3[c][home mask]`` the backward 3s of colour ``c``'s pegs in home 1..4 that the
    home allows, by hole: ``(location, mask of the ring holes it passes, landing)``, landing
    -1 for a move inside the home, and ``thmv[home mask]`` the pegs in home 1..4 that have a
    free hole ahead, ``(location, free holes ahead)``, in order; ``tring[c][hole]`` what the
    generator reads of colour ``c``'s peg on ``hole``, ``(hole, tdist[c][hole],
    tpath[hole], tadd[hole])``; ``tafter[seat]`` the seats
    after ``seat`` clockwise, ``seat`` last (the search for the next seat that holds
    cards)."""
    R = cfg.R
    cfg.tmate = tuple(p[0] if p else c for c, p in enumerate(cfg.partners))
    cfg.tdist = tuple(tuple((cfg.inspot[c] - h) % R for h in range(R)) for c in range(cfg.n))
    cfg.tadd = tuple(tuple((h + n) % R for n in range(14)) for h in range(R))
    cfg.tpath = tuple((0, *f[:13]) for f in cfg.fwd)
    cfg.tring = tuple(tuple((h, cfg.tdist[c][h], cfg.tpath[h], cfg.tadd[h]) for h in range(R))
                      for c in range(cfg.n))
    n = cfg.n
    cfg.tafter = tuple(tuple((a + j) % n for j in range(1, n + 1)) for a in range(n))
    cfg.tb3 = tuple(tuple(None if (h - cfg.comeout[c]) % R < 3 else (cfg.bwd[h][2], (h - 3) % R)
                          for h in range(R)) for c in range(cfg.n))
    cfg.th3 = tuple(tuple(_home_threes(cfg, c, hmask) for hmask in range(32))
                    for c in range(cfg.n))
    cfg.thmv = _HMV


def _home_threes(cfg: Cfg, c: int, hmask: int) -> tuple[tuple[int, int, int], ...]:
    """The backward 3s the home mask ``hmask`` allows colour ``c``'s pegs in home 1..4
    (``th3`` of :func:`_tees_tables`): a peg that is not snug (home full above it) goes back
    3 inside the home from home 4 over free holes, or out to the ring from home 1..3 when the
    home holes below it are free (the ring holes it passes, but its landing, must then hold
    no peg of its team: the generator's check)."""
    R = cfg.R
    ins = cfg.inspot[c]
    out = []
    for k in range(1, 5):
        if not (hmask >> (k - 1)) & 1 or (hmask >> k) == (_FULL_HOME >> k):
            continue
        if k >= 4:
            if not (hmask >> (k - 4)) & 7:
                out.append((HOME0 + k, 0, -1))
            continue
        if hmask & ((1 << (k - 1)) - 1):
            continue
        x = (ins - (3 - k)) % R
        out.append((HOME0 + k, cfg.bwd[(ins + 1) % R][3 - k] & ~(1 << x), x))
    return tuple(out)


_CFG_CACHE: dict[tuple[Any, ...], Cfg] = {}


def make_cfg(config: Mapping[str, Any]) -> Cfg:
    conf = normalize_config(config)
    key = tuple(conf[k] for k in _CONFIG_KEYS)
    cfg = _CFG_CACHE.get(key)
    if cfg is None:
        cfg = _CFG_CACHE[key] = Cfg(conf)
    return cfg
