"""The client's sessions: one typed interface, one message handler, stale plays refused.

Hot seat (two people on one screen) through :class:`LocalSession`, with a synchronous CPU and a
fake clock; and the :class:`Session` protocol checked against what the scenes really use.
"""

from __future__ import annotations

import re
from pathlib import Path

from game.client.net_session import NetSession
from game.client.session import LocalSession, Session, SessionBase
from game.table.cpu import SyncCpu


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def hot_seat() -> tuple[LocalSession, Clock]:
    clock = Clock()
    s = LocalSession("layout", {"seats": 2, "layout_size": 3}, speed="blitz", seed=5,
                     cpu=SyncCpu(), clock=clock)
    assert s.sit(0, "Ann").ok and s.sit(1, "Bo").ok
    return s, clock


def test_the_opening_deal_reaches_the_scene_as_a_start_message() -> None:
    s, _clock = hot_seat()
    assert {m["type"] for m in s.poll()} <= {"table"}  # the lobby: nothing to animate
    assert s.start().ok
    msgs = s.poll()
    assert msgs and msgs[0]["type"] == "start"
    start = msgs[0]
    assert start["type"] == "start"
    assert [e["type"] for e in start["events"]] == ["dealt", "turn"]
    dealt = start["events"][0]
    assert dealt["sizes"] == [3, 3]  # layout_size 3 for both seats
    # the scene's keys: the view is the table's, and the state number it is for
    assert start["state_no"] == 0 and start["view"] == s.table.snapshot(0)["view"]
    assert s.shown_state_no == 0
    s.close()


def test_a_stale_hot_seat_play_is_refused_like_a_lan_one() -> None:
    s, _clock = hot_seat()
    s.start()
    s.poll()
    mover = s.table.to_move()
    assert mover is not None
    legal = s.table.rules.legal_tokens(s.table.state)
    assert s.play(mover, legal[0]).ok  # made for the state the scene showed (0)
    assert s.table.state_no == 1
    # The scene has not been given that play yet (no poll): a second play made on the screen
    # as it was is for state 0, and the table refuses it, changing nothing.
    nxt = s.table.to_move()
    assert nxt is not None
    again = s.table.rules.legal_tokens(s.table.state)
    before = (s.table.state_no, s.table.log)
    r = s.play(nxt, again[0])
    assert not r.ok and r.code == "stale_state"
    assert (s.table.state_no, s.table.log) == before
    # once the scene is shown the play, the same play goes through
    msgs = s.poll()
    assert msgs[-1]["type"] in ("play", "table") and s.shown_state_no == 1
    assert s.play(nxt, again[0]).ok and s.table.state_no == 2
    # an explicit state number is used as given
    r = s.play(s.table.to_move() or 0, "S", state_no=0)
    assert r.code in ("stale_state", "not_your_turn", "illegal_play") and not r.ok
    s.close()


def test_public_and_views_change_only_through_the_one_handler() -> None:
    s, _clock = hot_seat()
    s.start()
    s.poll()
    for _ in range(6):
        mover = s.table.to_move()
        if mover is None:
            break
        s.play(mover, s.table.rules.legal_tokens(s.table.state)[0])
        s.poll()
    pub = s.table.public()
    assert {k: s.public[k] for k in pub} == dict(pub)
    assert s.speed_scale == 0.3  # blitz
    assert s.set_speed("relaxed").ok and s.poll() is not None
    assert s.public["speed"] == "relaxed" and s.speed_scale == 1.6
    for seat in (0, 1):
        assert s.views[seat] == s.table.snapshot(seat)["view"]
    s.close()


def _protocol_members() -> set[str]:
    names = set(Session.__annotations__)
    names |= {n for n in vars(Session) if not n.startswith("_")}
    return names


def test_the_session_protocol_covers_what_the_scenes_use_and_both_sessions_have_it() -> None:
    used: set[str] = set()
    root = Path(__file__).resolve().parents[1] / "game" / "client"
    for f in root.glob("*.py"):
        if f.name in ("session.py", "net_session.py"):
            continue
        used |= set(re.findall(r"\bsession\.([a-z_]+)\b", f.read_text()))
        used |= set(re.findall(r"getattr\((?:self\.)?session, \"([a-z_]+)\"", f.read_text()))
    # game/client/e2e.py reads these of the session it finds (as ``s``)
    used |= {"public", "tokens", "host_thread", "status", "game", "remote", "is_host", "code"}
    used -= {"host_table", "local_session", "net_session"}  # module names (imports), not members
    members = _protocol_members()
    assert used <= members, used - members
    s, _clock = hot_seat()
    for name in members:
        assert hasattr(s, name), name
        assert hasattr(NetSession, name) or name in NetSession.__init__.__code__.co_names \
            or hasattr(SessionBase, name), name
    assert s.remote is False and NetSession.remote is True
    s.close()
