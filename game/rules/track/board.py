"""Board geometry of the track game (spec ``track.md`` section 1).

A board has ``S`` sides: ``S = seats`` for 4 to 8 seats and ``S = 4`` for 1 to 3 seats (the
shared four-sided board with open sides, so every track is the full length). Each side has 18
main-track holes numbered 0..17 from the corner at its start, and the main track is one ring of
``18 * S`` holes; ring index ``18 * side + k``, clockwise is increasing index.

A seat on side ``s`` has its corner at ``18s``, its in-spot at ``18s + 3`` and its come-out hole
at ``18s + 8``; a five-hole start beside the come-out hole and a five-hole home off the in-spot
(home 1 next to the in-spot, home 5 deepest).

Seating: with 4+ seats, seat ``i`` sits on side ``i``; one seat on side 0; two seats on sides 0
and 2; three on sides 0, 1 and 2. Teams alternate round the table, so the team of seat ``i`` is
``i % team_count`` (``ABAB..``, ``ABCABC``, ``ABCDABCD``).
"""

from __future__ import annotations

from dataclasses import dataclass

HOLES_PER_SIDE = 18
IN_SPOT_OFFSET = 3
COME_OUT_OFFSET = 8
PEGS = 5
HOME_SIZE = 5


def side_count(seats: int) -> int:
    if not 1 <= seats <= 8:
        raise ValueError(f"the track game seats 1 to 8 players, not {seats}")
    return 4 if seats < 4 else seats


def seat_sides(seats: int) -> tuple[int, ...]:
    """The side each seat sits on."""
    side_count(seats)
    if seats == 1:
        return (0,)
    if seats == 2:
        return (0, 2)
    if seats == 3:
        return (0, 1, 2)
    return tuple(range(seats))


@dataclass(frozen=True)
class Board:
    """Geometry for a given number of seats. Pure data; cheap to build."""

    seats: int

    @property
    def sides(self) -> int:
        return side_count(self.seats)

    @property
    def ring(self) -> int:
        """Number of main-track holes."""
        return HOLES_PER_SIDE * self.sides

    def side_of(self, seat: int) -> int:
        return seat_sides(self.seats)[seat]

    def corner(self, seat: int) -> int:
        return HOLES_PER_SIDE * self.side_of(seat)

    def in_spot(self, seat: int) -> int:
        return HOLES_PER_SIDE * self.side_of(seat) + IN_SPOT_OFFSET

    def come_out(self, seat: int) -> int:
        return HOLES_PER_SIDE * self.side_of(seat) + COME_OUT_OFFSET

    def lap(self) -> int:
        """Holes forward from a come-out hole to the same seat's in-spot: ``18*S - 5``."""
        return self.ring - (COME_OUT_OFFSET - IN_SPOT_OFFSET)

    def forward(self, hole: int, steps: int) -> int:
        return (hole + steps) % self.ring

    def distance(self, a: int, b: int) -> int:
        """Holes forward from ``a`` to ``b`` on the ring (0..ring-1)."""
        return (b - a) % self.ring
