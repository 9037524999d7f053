import pytest

from game.rules.track.board import Board, seat_sides, side_count


@pytest.mark.parametrize(("seats", "ring"), [(1, 72), (2, 72), (3, 72), (4, 72), (5, 90),
                                             (6, 108), (7, 126), (8, 144)])
def test_ring_length_follows_the_side_count(seats: int, ring: int) -> None:
    assert Board(seats).ring == ring


def test_seat_sides_for_small_tables_use_the_four_sided_board() -> None:
    assert seat_sides(1) == (0,)
    assert seat_sides(2) == (0, 2)
    assert seat_sides(3) == (0, 1, 2)
    assert seat_sides(6) == (0, 1, 2, 3, 4, 5)
    assert side_count(2) == 4


def test_spots_of_a_seat() -> None:
    b = Board(2)  # seat 1 sits on side 2
    assert (b.corner(1), b.in_spot(1), b.come_out(1)) == (36, 39, 44)
    # From the come-out hole, the in-spot is 18*S - 5 holes forward.
    assert b.distance(b.come_out(1), b.in_spot(1)) == 67 == b.lap()
    # An 8 backward from the come-out hole is the corner, three short of the in-spot.
    assert (b.come_out(0) - 8) % b.ring == b.corner(0)
    assert b.distance(b.corner(0), b.in_spot(0)) == 3


def test_bad_seat_count() -> None:
    with pytest.raises(ValueError):
        _ = Board(9).ring
