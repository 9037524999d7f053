"""Host and clients over loopback: whole games, drops and rejoins, pause, speed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.table import SPEEDS, Table
from net.client import CONNECTED, DROPPED
from net.host import HostThread
from tests.net_bots import Bot, host_bot, join, make_table, run_until


@pytest.fixture
def lan() -> Iterator[tuple[Table, HostThread]]:
    table = make_table("layout")
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=("127.0.0.1", 0),
                    tick_interval=0.005).start()
    yield table, ht
    ht.stop()
    table.close()


def close_all(bots: list[Bot]) -> None:
    for b in bots:
        b.c.close()


def start_game(table: Table, ht: HostThread, *, guests: int = 2) -> list[Bot]:
    """The host's player and ``guests`` joiners (the first by code, via discovery)."""
    hb = host_bot(ht)
    assert ht.host is not None and ht.host.responder is not None
    bots = [hb]
    for i in range(guests):
        if i == 0:
            b = join(ht.code.lower(), f"Guest{i}",
                     discover_targets=[("127.0.0.1", ht.host.responder.port)],
                     discover_bind="127.0.0.1")
        else:
            b = join(ht.link.__class__("127.0.0.1", ht.port, ht.code), f"Guest{i}")
        bots.append(b)
    run_until(bots, lambda: all(b.seat is not None for b in bots), what="everyone seated")
    run_until(bots, lambda: sum(s["kind"] == "person" for s in hb.seats) == guests + 1,
              what="host sees the people")
    assert hb.c.start_game()
    run_until(bots, lambda: all(b.phase == "playing" for b in bots), what="game started")
    return bots


def test_whole_game_with_cpus(lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    bots = start_game(table, ht)
    try:
        assert sorted(b.seat for b in bots) == [0, 1, 2]  # seat 3 stays a CPU
        run_until(bots, lambda: all(b.outcome is not None for b in bots), timeout=60,
                  what="game over")
        run_until(bots, lambda: all(b.state_no == table.state_no and b.phase == "over"
                                    for b in bots), what="everyone at the end")
        final = table.outcome()
        assert final is not None and table.phase == "over"
        for b in bots:
            assert b.outcome == final
            assert b.phase == "over"
            # Every play reached every client exactly once, in order, no gaps.
            assert b.event_states == list(range(b.event_states[0], table.state_no + 1))
            assert b.plays_sent, f"{b.name} never played"
            assert not [r for r in b.refused if r["code"] != "stale_state"]
        assert table.cpu_plays > 0
        # The log is the truth: replaying it gives the same end.
        replayed = table.rules.replay(table.config, table.seed, table.log)
        assert table.rules.outcome(replayed) == final
        # Each person's plays in the log are exactly the ones its client sent.
        for b in bots:
            mine = [p for s, p in table.log if s == b.seat]
            assert mine == [p for _n, p in b.plays_sent]
    finally:
        close_all(bots)


def test_drop_and_rejoin_catches_up(lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    bots = start_game(table, ht)
    hb, _g0, g1 = bots
    try:
        run_until(bots, lambda: table.state_no >= 12, what="some plays")
        token, seat = g1.c.token, g1.seat
        # A drop that lasts until the host has shown it (a rejoin at once may reach the host
        # before its own notice of the cut: the seat is then never shown dropped, rightly)
        back = threading.Event()
        g1.c.drop_connection(hold=back)
        # The others see the plate turn red (dropped), then green again on the rejoin.
        run_until(bots, lambda: any(
            m["t"] == "_conn" and m["state"] == DROPPED for m in g1.log), what="drop seen")
        run_until(bots, lambda: any(m["t"] == "table" and not m["seats"][seat]["connected"]
                                    for m in hb.log), what="the host showing the seat dropped")
        assert g1.c.status.state == DROPPED  # still away: the rejoin waits for the test
        back.set()
        run_until(bots, lambda: g1.c.status.state == CONNECTED and g1.c.connects == 2
                  and g1.snapshots == 2, what="rejoin")
        assert g1.c.token == token and g1.seat == seat
        red = [m for m in hb.log if m["t"] == "table" and not m["seats"][seat]["connected"]]
        assert red[0]["seats"][seat]["standin"] is True  # a stand-in plays for her meanwhile
        run_until(bots, lambda: hb.seats[seat]["connected"], what="plate green again")
        # The rejoin answered with a snapshot at the table's current state.
        snaps = [m for m in g1.log if m["t"] == "snapshot"]
        assert len(snaps) == 2
        assert snaps[1]["state_no"] >= 12
        run_until(bots, lambda: all(b.outcome is not None for b in bots), timeout=60,
                  what="game over")
        run_until(bots, lambda: all(b.state_no == table.state_no for b in bots))
        assert g1.outcome == hb.outcome == table.outcome()
    finally:
        close_all(bots)


def test_any_client_pauses_for_everyone(lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    bots = start_game(table, ht)
    hb, g0, _g1 = bots
    try:
        run_until(bots, lambda: table.state_no >= 6, what="some plays")
        for b in bots:
            b.auto_play = False
        # Hold everyone's Ready while paused, so the test can look at the paused table.
        held = [b for b in bots]
        for b in held:
            b.must_ready = lambda: False  # type: ignore[method-assign]
        assert g0.c.pause()
        run_until(bots, lambda: all(any(r["reason"] == "paused" for r in b.pause)
                                    for b in bots), what="pause seen")
        for b in bots:
            r = next(r for r in b.pause if r["reason"] == "paused")
            assert r["by"] == g0.seat and r["name"] == "Guest0"
        frozen = table.state_no
        # No play is accepted from anyone while paused.
        for b in bots:
            assert b.c.play("S", table.state_no)
        run_until(bots, lambda: all(any(r["code"] == "paused" for r in b.refused)
                                    for b in bots), what="plays refused")
        assert table.state_no == frozen and table.paused()
        # Ready one by one: still paused until the last.
        for i, b in enumerate(bots):
            assert b.c.ready()
            if i < len(bots) - 1:
                run_until(bots, lambda b=b: b.seat not in next(
                    (r["seats"] for r in hb.pause if r["reason"] == "ready"), [b.seat]),
                    what="ready counted")
                assert table.paused() and table.state_no == frozen
        run_until(bots, lambda: all(b.pause == [] for b in bots), what="resumed")
        assert all(any(m["t"] == "table" and m["pause"] == [] and m["state_no"] == frozen
                       for m in b.log) for b in bots)
        for b in bots:
            del b.must_ready
            b.auto_play = True
        run_until(bots, lambda: all(b.outcome is not None for b in bots), timeout=60,
                  what="game over")
        assert table.state_no > frozen
    finally:
        close_all(bots)


def test_host_changes_speed_everyone_gets_it(lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    bots = start_game(table, ht)
    hb, g0, g1 = bots
    try:
        assert all(b.speed == "blitz" for b in bots)
        assert hb.c.set_speed("brisk")
        run_until(bots, lambda: all(b.speed == "brisk" for b in bots), what="speed")
        assert table.speed.name == "brisk"
        got = [m for m in g1.log if m["t"] == "table" and m["speed"] == "brisk"]
        assert got and SPEEDS[got[-1]["speed"]].scale == pytest.approx(0.6)
        # A guest may not change it.
        assert g0.c.set_speed("relaxed")
        run_until(bots, lambda: any(r["code"] == "not_host" for r in g0.refused))
        assert table.speed.name == "brisk"
        assert hb.c.set_speed("blitz")
        run_until(bots, lambda: all(b.speed == "blitz" for b in bots), what="speed back")
    finally:
        close_all(bots)


def _hands_over_time(table: Table) -> list[list[tuple[int, ...]]]:
    """Every seat's hand in every state of the game, rebuilt from the log."""
    rules = table.rules
    st = rules.new_game(table.config, table.seed)
    out = [[tuple(h) for h in st.hands]]
    for seat, tok in table.log:
        st, _ = rules.apply(st, seat, rules.parse_play(st, tok))
        out.append([tuple(h) for h in st.hands])
    return out


#: The keys whose values are lists of whole numbers and public (board holes, pegs, the
#: discard pile, counts, seat numbers): any other list of whole numbers in a frame is a hand.
PUBLIC_INT_LISTS = frozenset({"path", "pegs", "discards", "controlled", "seats", "teams",
                              "winners", "hand_counts", "sizes", "won"})


def _int_lists(value: object, key: str | None = None) -> Iterator[tuple[str | None, list[int]]]:
    """Every list of whole numbers in a decoded frame, with the key it stands under."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _int_lists(v, str(k))
    elif isinstance(value, list):
        if value and all(type(x) is int for x in value):
            yield key, value
        else:
            for v in value:
                yield from _int_lists(v, key)


def hidden_cards_in(frames: list[dict], own: set[tuple[int, ...]]) -> list[str]:
    """What in ``frames`` (decoded, every byte a connection got) could be a hidden card: a
    ``hand`` that is not one of ``own`` (the viewer's own hands, empty for a watcher), or a
    list of whole numbers under a key not known to be public. (The frames' bytes cannot be
    searched for a packed hand: a peg's path, a colour's pegs or the discard pile can hold
    the very same numbers, and did.)"""
    out = []
    for i, f in enumerate(frames):
        for k, lst in _int_lists(f):
            if k == "hand":
                if tuple(lst) not in own:
                    out.append(f"frame {i} ({f.get('t')}): hand {lst}")
            elif k not in PUBLIC_INT_LISTS:
                out.append(f"frame {i} ({f.get('t')}): {k} {lst}")
    return out


def _walk(value: object, key: str) -> Iterator[object]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                yield v
            yield from _walk(v, key)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v, key)


def test_no_client_ever_receives_another_seats_hand() -> None:
    import msgpack

    from net import protocol as P
    from tests.net_bots import RawConn

    table = make_table("track", {"rules": "classic", "seats": 4}, scale=100, seed=77)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None, tick_interval=0.005).start()
    raws = [RawConn(ht.port, "Hostess", ht.code, token=ht.host_token)]
    bots = [Bot(raws[0])]  # type: ignore[arg-type]
    try:
        run_until(bots, lambda: bots[0].seat == 0)
        for name in ("Ann", "Bob"):
            raws.append(RawConn(ht.port, name, ht.code))
            bots.append(Bot(raws[-1]))  # type: ignore[arg-type]
            run_until(bots, lambda: bots[-1].seat is not None)
        run_until(bots, lambda: sum(s["kind"] == "person" for s in bots[0].seats) == 3)
        bots[0].c.send({"t": "start"})
        run_until(bots, lambda: all(b.outcome is not None and b.phase == "over" for b in bots),
                  timeout=60, what="track game over")
        assert table.phase == "over" and bots[0].outcome == table.outcome()
        hands = _hands_over_time(table)
        for b, raw in zip(bots, raws, strict=True):
            data = bytes(raw.raw_bytes)
            me = b.seat
            assert me is not None
            own = {h for state in hands for h in [state[me]] if len(h) >= 3}
            others = {state[s] for state in hands for s in range(4)
                      if s != me and len(state[s]) >= 3} - own
            assert own and others
            # Positive control: the client's own hands are in its bytes, as msgpack arrays...
            seen_own = sum(msgpack.packb(list(h)) in data for h in own)
            assert seen_own >= len(own) // 2, (seen_own, len(own))
            # ...and not one hand of another seat ever is.
            leaked = [h for h in others if msgpack.packb(list(h)) in data]
            assert not leaked, f"seat {me} received other hands: {leaked[:3]}"
            # Structurally too: every "hand" field it got is its own, every "hands" list
            # (deal events) hides the other seats' cards.
            frames = P.FrameDecoder().feed(data)
            starts = [f for f in frames if f.get("t") == "start"]
            assert len(starts) == 1  # the opening deal reaches every guest
            # the deal's own hand is the first state's hand before seat 0's first draw
            dealt = next(e["hand"] for e in starts[0]["events"] if e["type"] == "deal")
            assert set(dealt) <= set(hands[0][me]) and len(dealt) == 5
            for f in frames:
                for h in _walk(f, "hand"):
                    assert h is None or tuple(h) in own or len(h) < 3 or tuple(h) == tuple(
                        dealt) or any(tuple(h) == state[me] for state in hands)
                for hs in _walk(f, "hands"):
                    assert isinstance(hs, list)
                    for s, h in enumerate(hs):
                        if s != me:
                            assert not h or all(c is None for c in h) or isinstance(h, int), \
                                (s, h)
    finally:
        for r in raws:
            r.close()
        ht.stop()
        table.close()


def test_lobby_seats_moves_and_refusals(lan: tuple[Table, HostThread]) -> None:
    from net.client import FAILED

    table, ht = lan
    hb = host_bot(ht)
    ann = join(f"127.0.0.1:{ht.port}", "Ann")
    bots = [hb, ann]
    try:
        run_until(bots, lambda: ann.seat == 1, what="Ann auto-seated at the first free seat")
        old_token = ann.c.token
        # Sit at another colour: a new welcome with a new token; the old seat is a CPU again.
        assert ann.c.sit(3)
        run_until(bots, lambda: ann.c.seat == 3 and ann.seat == 3, what="Ann moved")
        assert ann.c.token != old_token
        assert table.seat_of(ann.c.token) == 3 and table.seat_of(old_token) is None
        run_until(bots, lambda: hb.seats[1]["kind"] == "cpu" and hb.seats[3]["name"] == "Ann")
        # Sitting where someone sits is refused.
        assert ann.c.sit(0)
        run_until(bots, lambda: any(r["code"] == "not_allowed" and r["of"] == "sit"
                                    for r in ann.refused))
        # The old token no longer opens any seat.
        stale = join(f"127.0.0.1:{ht.port}", "Ann", token=old_token)
        run_until([stale], lambda: stale.c.status.state == FAILED)
        assert stale.c.status.reason == "bad_token"
        # A wrong code is refused with its reason.
        wrong = join(f"teetable://127.0.0.1:{ht.port}/ZZZZ", "Eve")
        run_until([wrong], lambda: wrong.c.status.state == FAILED)
        assert wrong.c.status.reason == "wrong_code" and "ZZZZ" in wrong.c.status.message
        # Fill the table: the next newcomer is told it is full.
        more = [join(f"127.0.0.1:{ht.port}", n) for n in ("Bob", "Cid")]
        run_until(bots + more, lambda: all(b.seat is not None for b in more))
        full = join(f"127.0.0.1:{ht.port}", "Dot")
        run_until([full], lambda: full.c.status.state == FAILED)
        assert full.c.status.reason == "table_full"
        # Leaving in the lobby frees the seat; the client is told it left.
        assert more[1].c.leave()
        run_until(bots + more, lambda: more[1].c.status.state == FAILED)
        assert more[1].c.status.reason == "left"
        run_until(bots, lambda: sum(s["kind"] == "person" for s in hb.seats) == 3)
        for b in [stale, wrong, full]:
            b.c.close()
        close_all(more)
    finally:
        close_all(bots)


def test_hand_own_seat_to_cpu_mid_game(lan: tuple[Table, HostThread]) -> None:
    table, ht = lan
    bots = start_game(table, ht)
    hb, g0, g1 = bots
    try:
        run_until(bots, lambda: table.state_no >= 5)
        seat = g1.seat
        assert seat is not None
        assert g1.c.hand_to_cpu(seat, "nasty")
        run_until(bots, lambda: g1.c.status.state == "failed", what="g1 left")
        assert g1.c.status.reason == "left"
        run_until([hb, g0], lambda: hb.seats[seat]["kind"] == "cpu"
                  and hb.seats[seat]["level"] == "nasty")
        assert hb.seats[seat]["left"] == "Guest1"
        run_until([hb, g0], lambda: hb.outcome is not None and g0.outcome is not None,
                  timeout=60, what="game over without g1")
        assert hb.outcome == table.outcome()
    finally:
        close_all(bots)


def test_host_thread_crash_and_resume_in_process(tmp_path: Path) -> None:
    """HostThread.kill (no goodbye) and a new HostThread on the resumed save, same port."""
    from tests.net_bots import fast_clock

    save = tmp_path / "t.jsonl"
    table = make_table("layout", save=save)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None, tick_interval=0.005).start()
    port, code = ht.port, ht.code
    bots = [host_bot(ht), join(f"127.0.0.1:{port}", "Ann", give_up_after=30)]
    ht2 = None
    try:
        run_until(bots, lambda: all(b.seat is not None for b in bots))
        run_until(bots, lambda: sum(s["kind"] == "person" for s in bots[0].seats) == 2)
        assert bots[0].c.start_game()
        run_until(bots, lambda: table.state_no >= 8, what="some plays")
        ht.kill()
        table.close()
        run_until(bots, lambda: all(b.c.status.state == DROPPED for b in bots), what="drop")
        resumed = Table.resume(save, clock=fast_clock(50), cpu=None)
        ht2 = HostThread(resumed, bind="127.0.0.1", port=port, code=code, discovery=None,
                         tick_interval=0.005).start()
        run_until(bots, lambda: all(b.c.connects == 2 and b.snapshots == 2 for b in bots),
                  what="rejoined")
        run_until(bots, lambda: all(b.outcome is not None for b in bots), timeout=60,
                  what="game over")
        assert bots[0].outcome == bots[1].outcome == resumed.outcome()
    finally:
        close_all(bots)
        if ht2 is not None:
            ht2.stop()
            ht2.host.glue.table.close()  # type: ignore[union-attr]


def test_same_seat_joined_twice_the_newer_wins(lan: tuple[Table, HostThread]) -> None:
    from net.client import FAILED

    table, ht = lan
    hb = host_bot(ht)
    ann = join(f"127.0.0.1:{ht.port}", "Ann")
    bots = [hb, ann]
    try:
        run_until(bots, lambda: ann.seat == 1)
        ann2 = join(f"127.0.0.1:{ht.port}", "Ann", token=ann.c.token)  # "reopened the program"
        bots.append(ann2)
        run_until(bots, lambda: ann.c.status.state == FAILED and ann2.seat == 1)
        assert ann.c.status.reason == "replaced"
        assert ann2.c.status.state == CONNECTED and ann2.c.token == ann.c.token
        run_until(bots, lambda: hb.seats[1]["connected"])
        assert table.seat_of(ann2.c.token) == 1
    finally:
        close_all(bots)


def test_the_hidden_card_check_finds_a_hand_anywhere() -> None:
    """The privacy tests' own check can fail: another seat's hand, or a list of numbers under a
    key not known to be public, is found wherever it stands in a frame."""
    ok = {"t": "play", "view": {"hand": [3, 4, 5], "discards": [1, 2]},
          "events": [{"type": "move", "path": [17, 18, 19, 20, 21]}]}
    assert hidden_cards_in([ok], {(3, 4, 5)}) == []
    assert hidden_cards_in([ok], set()) == ["frame 0 (play): hand [3, 4, 5]"]
    sneaky = {"t": "table", "seats": [{"seat": 1, "cards": [7, 8, 9]}]}
    assert hidden_cards_in([ok, sneaky], {(3, 4, 5)}) == ["frame 1 (table): cards [7, 8, 9]"]


def test_the_tick_loop_sleeps_wall_time_when_the_table_clock_runs_fast(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A play due in half a second of the table's time is due in 5 ms of the wall's when the
    table's clock runs 100 times faster (the tests' clocks): the loop slept the table's
    seconds (capped at its idle tick, a quarter second), which cost every CPU play that long.
    A real clock (or one that stands still) sleeps its own seconds, as before."""
    import time

    from net.host import IDLE_TICK, Host

    table = make_table("track", {"rules": "classic", "seats": 4}, scale=100)
    host = Host(table, bind="127.0.0.1", port=0, discovery=None, tick_interval=0.001)
    monkeypatch.setattr(table, "next_due", lambda: table.clock_now() + 0.5)
    assert host._next_sleep() == IDLE_TICK  # nothing measured yet: the wall's seconds
    time.sleep(0.1)
    fast = host._next_sleep()
    assert 0.001 <= fast < 0.02, fast  # ~0.5 / 100
    still = Host(table, bind="127.0.0.1", port=0, discovery=None, tick_interval=0.001)
    monkeypatch.setattr(table, "clock_now", lambda: 7.0)  # a clock a test moves by hand
    monkeypatch.setattr(table, "next_due", lambda: 7.2)
    still._next_sleep()
    time.sleep(0.1)
    assert abs(still._next_sleep() - 0.2) < 1e-9
