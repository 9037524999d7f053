"""Results and records: ONE function that the host and every guest call on the same data.

:func:`game_result` reads only the public summary (:class:`~game.table.messages.Public`: the
seats with ``left``, the outcome, the points, the turns, the table id and the config), which
every machine at the table holds alike, so the record each one gives ``Store.record_game`` is
the same. People who handed their seat to a CPU or to a watcher are listed (the seat's
``played``; ``left`` from an older host) with no points, not won: they played the game. A
seat's points go to whoever holds it at the end (``docs/seats.md``).

:func:`points` is the table's own reckoning (it needs each seat's lowest worth while play was
on, which only the table keeps); the summary carries its answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from game.table.messages import Public


class PersonResult(TypedDict):
    seat: int
    name: str
    points: int
    won: bool


class GameResult(TypedDict, total=False):
    table_id: str
    game: str
    rules: str
    turns: int
    winners: list[int]
    solo: bool
    people: list[PersonResult]
    seed: int  # solo games only (the solo records keep the deal's seed)


def points(winners: Iterable[int], worth: Sequence[int], people: Iterable[int]) -> dict[int, int]:
    """Each winning person earns the summed worth of every seat not among the winners."""
    won = set(winners)
    beaten = sum(w for i, w in enumerate(worth) if i not in won)
    return {i: beaten for i in sorted(won & set(people))}


def game_result(public: Public | Mapping[str, Any], seed: int | None = None
                ) -> GameResult | None:
    """The finished game for ``Store.record_game`` (None while it goes on).

    ``{"table_id", "game", "rules", "turns", "winners", "solo", "people": [{"seat", "name",
    "points", "won"}]}`` (plus ``seed`` for a solo game, when given). A solo game lists no
    people (see ``Store.record_solo``).
    """
    out = public.get("outcome")
    if public.get("phase") != "over" or not isinstance(out, Mapping):
        return None
    winners = [int(w) for w in out.get("winners", [])]
    pts: Mapping[str, Any] = public.get("points") or {}
    seats: list[Mapping[str, Any]] = list(public.get("seats") or [])
    solo = len(seats) == 1
    people: list[PersonResult] = []
    if not solo:
        for s in seats:
            if s["kind"] == "person":
                people.append({"seat": s["seat"], "name": s["name"],
                               "points": int(pts.get(str(s["seat"]), 0)),
                               "won": s["seat"] in winners})
            # Everyone who held the seat during play and left it (to a CPU or a watcher):
            # played, not won (docs/seats.md). A summary from an older host has only ``left``.
            earlier = s.get("played")
            if not isinstance(earlier, list):
                earlier = [s["left"]] if s.get("left") and s["kind"] != "person" else []
            for name in earlier:
                people.append({"seat": s["seat"], "name": str(name), "points": 0,
                               "won": False})
    game = str(public["game"])
    config: Mapping[str, Any] = public.get("config") or {}
    res: GameResult = {
        "table_id": str(public["table_id"]), "game": game,
        "rules": str(config.get("rules", game)), "turns": int(public.get("turns") or 0),
        "winners": winners, "solo": solo, "people": people,
    }
    if solo and seed is not None:
        res["seed"] = seed
    return res
