"""The animation clock, tweens and the event timeline (no pygame, no wall clock)."""

from __future__ import annotations

import pytest

from game.client.anim import (
    CardFlight,
    Group,
    PegFlight,
    PegWalk,
    TableClock,
    Timeline,
    Tween,
    Wait,
    ease_in_out,
)


def test_clock_stops_when_paused_and_runs_at_the_table_speed() -> None:
    c = TableClock()
    assert c.tick(0.5) == 0.5  # normal: frame time is normal-speed time
    c.paused = True
    assert c.tick(0.5) == 0.0
    assert c.time == 0.5
    c.paused = False
    c.set_speed("blitz")  # scale 0.3: 0.3 s of frame time plays a normal second
    assert c.tick(0.3) == pytest.approx(1.0)
    c.set_speed("relaxed")  # scale 1.6
    assert c.tick(0.8) == pytest.approx(0.5)
    c.set_speed(0.5)
    assert c.tick(0.25) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="unknown table speed"):
        c.set_speed("warp")
    with pytest.raises(ValueError):
        c.set_speed(0)
    assert c.scale == 0.5  # a refused change changes nothing


def test_a_speed_change_halfway_rescales_the_rest_of_a_long_move() -> None:
    """A 10-hole move at normal (0.14 s a hole: 1.4 s), blitz from half way: the remaining
    0.7 normal seconds take 0.7 x 0.3 = 0.21 s of frame time."""
    clock, tl = TableClock(), Timeline()
    tl.push(PegWalk("a", [(float(i), 0.0) for i in range(11)], step_time=0.14))
    for _ in range(70):  # 0.7 s at normal, in 10 ms frames
        tl.update(clock.tick(0.01))
    assert tl.pegs()[0]["a"] == pytest.approx((5.0, 0.0), abs=0.01)  # half way: hole 5
    clock.set_speed("blitz")
    frames = 0
    while not tl.idle and frames < 1000:
        tl.update(clock.tick(0.001))
        frames += 1
    assert frames == pytest.approx(210, abs=2)  # 0.21 s, not the 0.7 s left at normal


def test_tween_eases_and_reports_overshoot() -> None:
    t = Tween(10.0, 20.0, 1.0)
    assert t.value == 10.0
    assert t.update(0.5) == 0.0
    assert t.value == pytest.approx(15.0)  # smoothstep is symmetric: half way at half time
    assert t.update(0.75) == pytest.approx(0.25)
    assert t.done and t.value == 20.0
    assert ease_in_out(0.25) < 0.25 < 0.75 < ease_in_out(0.75)


def test_peg_walk_visits_every_hole_with_a_step_sound_each() -> None:
    pts = [(0.0, 0.0), (10.0, 0.0), (20.0, 0.0), (30.0, 5.0)]
    w = PegWalk("p", pts, step_time=0.1, end_sound="home")
    assert w.duration == pytest.approx(0.3)
    sounds: list[str] = []
    seen = []
    for _ in range(3):
        _, due = w.update(0.1)
        sounds += due
        seen.append(w.pegs()["p"][0])
    assert seen[0] == pytest.approx((10.0, 0.0))
    assert seen[1] == pytest.approx((20.0, 0.0))
    assert seen[2] == pytest.approx((30.0, 5.0))
    assert sounds == ["step", "step", "step", "home"]
    assert w.done
    # half-way between two holes the peg is between them and hops
    w2 = PegWalk("p", pts, step_time=0.1)
    w2.update(0.05)
    (x, _y), hop = w2.position()
    assert 0 < x < 10 and hop > 0.2


def test_queued_pegs_stay_pinned_where_they_started() -> None:
    tl = Timeline()
    tl.push(PegWalk("a", [(0, 0), (1, 0), (2, 0)], step_time=1.0))
    tl.push(PegFlight("b", (50, 50), (90, 90), duration=1.0))
    tl.push(PegWalk("a", [(2, 0), (3, 0)], step_time=1.0))
    where, lift = tl.pegs()
    assert where["a"] == (0, 0) and where["b"] == (50, 50)
    tl.update(1.0)
    where, _ = tl.pegs()
    assert where["a"] == pytest.approx((1, 0)) and where["b"] == (50, 50)
    tl.update(1.5)  # walk a done, flight b half way
    where, lift = tl.pegs()
    assert where["a"] == (2, 0)  # pinned by its next walk
    assert where["b"] == pytest.approx((70, 70)) and lift["b"] == pytest.approx(1.0)
    tl.update(10.0)
    assert tl.idle and tl.pegs() == ({}, {})
    assert tl.played == 3


def test_sounds_come_in_order_across_animations() -> None:
    tl = Timeline()
    tl.push(CardFlight("card_AS", (0, 0), (100, 0), 40, duration=0.2))
    tl.push(PegFlight("x", (0, 0), (1, 1), duration=0.2))
    tl.push(Wait(0.1))
    assert tl.update(1.0) == ["play", "bump"]
    assert tl.idle


def test_backlog_catches_up() -> None:
    def run(n: int) -> float:
        tl = Timeline(backlog=3)
        for i in range(n):
            tl.push(PegWalk(i, [(0, 0), (1, 0), (2, 0), (3, 0)], step_time=0.1))
        t = 0.0
        while not tl.idle:
            tl.update(1 / 60)
            t += 1 / 60
            assert t < 60
        return t

    assert run(3) == pytest.approx(0.9, abs=0.05)  # no backlog: real time
    long = run(30)
    assert long < 30 * 0.3 / 3  # thirty moves play in well under a third of their time
    tl = Timeline(backlog=3, max_rate=8)
    for _i in range(100):
        tl.push(Wait(1.0))
    assert tl.rate == 8.0


def test_paused_clock_freezes_the_timeline() -> None:
    clock = TableClock()
    tl = Timeline()
    tl.push(PegWalk("a", [(0, 0), (10, 0)], step_time=1.0))
    tl.update(clock.tick(0.5))
    before = tl.pegs()[0]["a"]
    clock.paused = True
    for _ in range(100):
        tl.update(clock.tick(1 / 60))
    assert tl.pegs()[0]["a"] == before
    clock.paused = False
    tl.update(clock.tick(0.5))
    assert tl.idle


def test_group_plays_parts_together_and_card_flights_draw() -> None:
    g = Group([PegWalk("a", [(0, 0), (1, 0)], step_time=0.5),
               CardFlight("card_KH", (0, 0), (10, 10), 20, 40, duration=1.0, sound=None)])
    assert g.duration == 1.0
    g.update(0.5)
    assert g.pegs()["a"][0] == pytest.approx((1, 0))
    (card,) = g.cards()
    assert card.sprite == "card_KH" and 20 < card.width < 40
    g.update(0.5)
    assert g.done and g.cards()[0].pos == pytest.approx((10, 10))


def test_a_sequence_plays_its_parts_one_by_one_as_one_timeline_entry() -> None:
    from game.client.anim import Serial

    landed: list[int] = []
    flights = []
    for k in range(4):
        f = CardFlight("card_back", (0, 0), (10.0 * (k + 1), 0), 10, 10, duration=0.25,
                       sound=None)
        f.on_done = lambda k=k: landed.append(k)
        flights.append(f)
    lead = Wait(0.5)
    lead.cue(0.0, "deal")
    seq = Serial([lead, *flights])
    assert seq.duration == pytest.approx(1.5)
    tl = Timeline(backlog=1)  # five animations as one entry: no catch-up
    tl.push(seq)
    assert tl.rate == 1.0
    assert tl.update(0.25) == ["deal"] and tl.cards() == []  # the lead: no card yet
    tl.update(0.25 + 0.125)  # half way through the first card
    assert landed == [] and len(tl.cards()) == 1
    tl.update(0.25)
    assert landed == [0] and tl.cards()[0].pos[0] == pytest.approx(10.0, abs=6)
    tl.update(0.5)
    assert landed == [0, 1, 2] and not tl.idle
    tl.update(0.2)
    assert landed == [0, 1, 2, 3] and tl.idle
    cut = Serial([Wait(1.0), flights[0]])
    landed.clear()
    tl.push(cut)
    tl.finish()  # cut short: every part's on_done still runs
    assert landed == [0]
