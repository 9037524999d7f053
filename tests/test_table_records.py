"""Records identical on every machine: results come from ONE function on the same data.

A real LAN table (loopback host, real clients behind NetSessions, as the window uses them): one
guest hands their seat to a CPU mid-game; at the end the host's and every guest's record (what
``Store.record_game`` is given) are identical, and the one who left is in it.
"""

from __future__ import annotations

import time
from typing import Any

from game.client.net_session import NetSession
from game.store import Store
from game.table import rules_for
from game.table.results import game_result
from net.client import Client
from net.host import HostThread
from tests.net_bots import make_table


def _legal(session: NetSession) -> list[str]:
    view = session.view()
    rules = rules_for(session.game)
    return [str(p) for p in rules.legal_plays(rules.determinize(view, 1))]


def _drive(sessions: list[NetSession], played: dict[int, int]) -> None:
    for s in sessions:
        s.poll()
        if not s.tokens or s.phase != "playing":
            continue
        (seat,) = s.tokens
        waits = {x for r in s.public["pause"] for x in r.get("seats", [])}
        if seat in waits and played.get(-1 - id(s)) != s.shown_state_no:
            s.ready()
            played[-1 - id(s)] = s.shown_state_no
        elif not s.public["pause"] and s.public["to_move"] == seat and \
                played.get(id(s)) != s.shown_state_no and s.public["outcome"] is None:
            legal = _legal(s)
            if legal and s.play(seat, legal[0]).ok:
                played[id(s)] = s.shown_state_no


def _run(sessions: list[NetSession], played: dict[int, int], until: Any, what: str,
         seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        _drive(sessions, played)
        if until():
            return
        time.sleep(0.003)
    raise AssertionError(f"timed out: {what} {[s.public['phase'] for s in sessions]}")


def test_a_lan_game_with_a_hand_over_gives_every_machine_the_same_record(tmp_path) -> None:
    table = make_table("layout", {"seats": 4, "layout_size": 3}, scale=60, seed=31)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None,
                    tick_interval=0.005).start()
    host = NetSession(Client(ht.local_link, "Hostess", token=ht.host_token).start())
    ann = NetSession(Client(f"127.0.0.1:{ht.port}/{ht.code}", "Ann").start())
    bob = NetSession(Client(f"127.0.0.1:{ht.port}/{ht.code}", "Bob").start())
    sessions = [host, ann, bob]
    played: dict[int, int] = {}
    try:
        _run(sessions, played, lambda: all(s.tokens for s in sessions) and sum(
            x["kind"] == "person" for x in host.seats) == 3, "everyone seated")
        assert host.is_host and not ann.is_host
        assert host.start().ok
        _run(sessions, played, lambda: table.state_no >= 6, "some plays")
        (bob_seat,) = bob.tokens
        assert bob.hand_to_cpu(bob_seat, "easy").ok  # Bob goes home; an Easy CPU plays on
        _run(sessions, played, lambda: table.seat_info(bob_seat)["kind"] == "cpu", "hand over")
        _run(sessions[:2], played, lambda: table.phase == "over" and all(
            s.phase == "over" and s.public["state_no"] == table.state_no
            and s.public["seats"] == table.public()["seats"] for s in sessions[:2]),
            "game over", seconds=120)
        want = table.result()
        assert want is not None
        assert host.result() == want and ann.result() == want
        assert game_result(table.public()) == want  # the one function, on the public summary
        people = {p["name"]: p for p in want["people"]}
        assert set(people) == {"Hostess", "Ann", "Bob"}
        assert people["Bob"]["points"] == 0 and people["Bob"]["won"] is False
        # What Store.record_game makes of it is the same on every machine too.
        rows = []
        for name, s in (("host", host), ("ann", ann)):
            store = Store(tmp_path / name)
            res = s.result()
            assert res is not None and store.record_game(res)
            rows.append(store.points())
            store.close()
        assert rows[0] == rows[1] and {r.name for r in rows[0]} >= {"Ann", "Bob"}
    finally:
        for s in sessions:
            s.client.close(timeout=2.0)
        ht.stop()
        table.close()
