"""Pause reasons: a set of reasons recomputed from facts (OpenTTD's pause modes).

The table is paused while any reason holds: ``lobby`` (the game has not started), ``paused``
(a manual pause by a seat or the host, until everyone taps Ready), ``joining`` (a person
connected or reconnected and has not tapped Ready yet), ``ready`` (connected people not ready
yet). The table keeps the facts (phase, seats, who paused, the host's own Ready); this module
only reads them.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.table.messages import PauseReason
from game.table.seats import Seat

#: ``paused_by`` when no manual pause is on (``None`` is a pause by the host without a seat).
NO_PAUSE = "-"


def pause_reasons(
    phase: str, seats: Sequence[Seat], paused_by: int | str | None, host_ready: bool
) -> list[PauseReason]:
    """Why the table is paused now (empty: not paused)."""
    if phase == "over":
        return []
    out: list[PauseReason] = []
    if phase == "lobby":
        out.append({"reason": "lobby"})
    people = [s for s in seats if s.kind == "person" and s.connected]
    unready = [s.index for s in people if not s.ready and not s.joining]
    joining = [s.index for s in people if s.joining]
    if paused_by != NO_PAUSE and (unready or joining or not host_ready):
        by = paused_by if isinstance(paused_by, int) else None
        name = seats[by].name if by is not None else "the host"
        out.append({"reason": "paused", "by": by, "name": name})
    if joining:
        out.append({"reason": "joining", "seats": joining})
    if unready:
        out.append({"reason": "ready", "seats": unready})
    return out
