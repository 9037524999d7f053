"""Table speeds and event durations: the one table the host paces by and the client animates by.

Durations are seconds at ``normal`` speed, keyed by the event types the engines really emit
(``docs/events.md`` for the track game, ``docs/events_layout.md`` for Trash; a test runs games
of every rule set and checks that every emitted type has a duration and every key is emitted).
The engines name their events in their own words (the track game in nouns, Trash in past
participles); the table keys them exactly so, one entry per type, no aliases.

A speed multiplies every duration by its ``scale``; the host keeps a "busy until" from
:func:`event_duration` at its speed, and a client queues animations in normal-speed seconds
and runs its clock ``1 / scale`` times as fast, so a speed change rescales everything still
playing on every screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CLOCK_MAX", "CLOCK_MIN", "DEFAULT_DURATION", "DURATIONS", "PAUSE_LIMIT_DEFAULT", "SPEEDS",
    "TURN_CLOCK_DEFAULT", "Speed", "event_duration",
]

#: A person's turn clock, in seconds of table time at "normal" speed (scaled by the speed's
#: ``scale`` like every duration): after it the stand-in CPU plays that one turn for them.
TURN_CLOCK_DEFAULT = 90.0
#: Seconds of clock (wall) time, at any speed, after which a pause nobody resumes ends.
PAUSE_LIMIT_DEFAULT = 120.0
#: The bounds of both settings when they are on (``None`` is off).
CLOCK_MIN = 10.0
CLOCK_MAX = 3600.0


@dataclass(frozen=True)
class Speed:
    """A table speed preset: every duration is in seconds of table time."""

    name: str
    scale: float  # multiplies every animation duration of the "normal" table
    cpu_wait: float  # a CPU waits this long after the animations before it plays
    grace: float  # a missing person's turn waits this long before a stand-in plays
    budget_ms: float  # thinking time allowed to a CPU
    about: str = ""  # what it is like, in a person's words (the setup screen's line)

    @property
    def title(self) -> str:
        """The name as a person reads it ("Relaxed")."""
        return self.name.title()


SPEEDS: dict[str, Speed] = {
    s.name: s
    for s in (
        # A CPU thinks at most 300 ms (Nasty's strength is measured there, docs/ai.md; more
        # samples did not make it stronger); it thinks while the animations play.
        Speed("relaxed", 1.6, 1.4, 30.0, 300.0,
              "slow moves and long CPU thinking, easy to follow."),
        Speed("normal", 1.0, 0.8, 20.0, 300.0, "every move animated at an easy pace."),
        Speed("brisk", 0.6, 0.45, 12.0, 300.0, "quicker moves and CPUs."),
        Speed("blitz", 0.3, 0.15, 6.0, 150.0, "as fast as it goes."),
    )
}

#: Seconds at "normal" speed: ``(fixed, per item)`` by event type. Items are the holes of a
#: path, the cards of a deal, and so on (see :func:`event_duration`).
DURATIONS: dict[str, tuple[float, float]] = {
    # the track game (docs/events.md)
    "play": (0.35, 0.0),  # a card flies from hand to pile
    "discard": (0.35, 0.0),
    "draw": (0.3, 0.0),
    "deal": (0.2, 0.06),  # per card dealt (the sum of ``counts``)
    "reshuffle": (0.9, 0.0),
    "come_out": (0.4, 0.0),  # a peg comes out onto its come-out hole
    "move": (0.1, 0.14),  # a peg steps hole by hole
    "home": (0.2, 0.0),
    "bump": (0.6, 0.0),  # a bumped peg flies home to start
    "trade": (0.5, 0.0),  # a Jack trade
    "fold": (0.3, 0.0),
    "game_over": (1.0, 0.0),
    # both games
    "turn": (0.0, 0.0),
    # Trash (docs/events_layout.md)
    "dealt": (0.4, 0.05),  # per card dealt (the sum of the layout sizes)
    "drawn": (0.35, 0.0),
    "placed": (0.4, 0.0),
    "revealed": (0.3, 0.0),
    "wild_placed": (0.4, 0.0),
    "wild_displaced": (0.3, 0.0),
    "discarded": (0.35, 0.0),
    "reshuffled": (0.9, 0.0),
    "passed": (0.3, 0.0),
    "hand_dead": (0.8, 0.0),
    "completed": (0.6, 0.0),
    "hand_won": (1.5, 0.0),
    "game_won": (1.0, 0.0),
}
#: An event type the table does not know (a registered test double's) gets this.
DEFAULT_DURATION = (0.25, 0.0)


def _items(event: Mapping[str, Any]) -> int:
    for key in ("path", "holes", "steps", "cards"):
        v = event.get(key)
        if isinstance(v, list | tuple):
            return len(v)
        if isinstance(v, int) and not isinstance(v, bool):
            return abs(v)
    for key in ("counts", "sizes"):  # cards dealt to each seat (track) / layout sizes
        v = event.get(key)
        if isinstance(v, list | tuple) and all(isinstance(x, int) for x in v):
            return sum(v)
    v = event.get("count")
    if isinstance(v, int) and not isinstance(v, bool):
        return abs(v)
    return 1


def event_duration(event: Mapping[str, Any], speed: str | Speed = "normal") -> float:
    """Seconds the animation of ``event`` lasts at ``speed`` (the client uses the same)."""
    sp = speed if isinstance(speed, Speed) else SPEEDS[speed]
    kind = str(event.get("type", ""))
    fixed, per = DURATIONS.get(kind, DEFAULT_DURATION)
    return (fixed + per * _items(event)) * sp.scale
