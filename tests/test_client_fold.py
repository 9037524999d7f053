"""A tees seat whose hand is empty (folded, or played out) is told why, instead of a blank."""

from pathlib import Path

from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from tests.client_testing import frames, make_app

TEES = {"rules": "tees", "seats": 4}


def _seed_where_seat0_folds_at_once() -> int:
    for seed in range(500):
        _, events = TRACK.start(TEES, seed)
        if any(e["type"] == "fold" and e["seat"] == 0 for e in events):
            return seed
    raise AssertionError("no seed in 0..499 folds seat 0 on the opening deal")


def test_folded_seat_sees_why_its_hand_is_empty(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.make_cpu = SyncCpu  # type: ignore[method-assign]
    app.hint_processes = False
    try:
        seed = _seed_where_seat0_folds_at_once()
        session = LocalSession("track", TEES, speed="blitz", seed=seed, cpu=SyncCpu(),
                               clock=app.table_clock)
        assert session.sit(0, "Player").ok and session.start().ok
        table = app.open_table(session)
        assert isinstance(table, TrackTableScene)
        frames(app)
        assert table.view()["hand"] == []
        assert table.empty_hand_note([]) == "No cards in hand: you sit out until the next deal."
        # a hand with cards needs no note
        assert table.empty_hand_note([4]) is None
        session.close()
    finally:
        app.close()


def test_classic_hands_never_get_the_note(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.make_cpu = SyncCpu  # type: ignore[method-assign]
    app.hint_processes = False
    try:
        session = LocalSession("track", {"rules": "classic", "seats": 4}, speed="blitz", seed=1,
                               cpu=SyncCpu(), clock=app.table_clock)
        assert session.sit(0, "Player").ok and session.start().ok
        table = app.open_table(session)
        frames(app)
        assert table.empty_hand_note([]) is None
        session.close()
    finally:
        app.close()
