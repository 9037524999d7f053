"""Table screens for ``tools/screenshots.py``: lobby, track tables of 1 to 8 seats in play, a
split in progress, pause, ADMIN, hot-seat cover and results.

Used by ``tools/screenshots.py`` only (not shipped in the package). Each shot builds its
scene through the same session and scene code the game uses, runs the table on frame time with
the synchronous CPU runner, and leaves it on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from game.client.app import App
from game.client.lobby import LobbyScene
from game.client.session import LocalSession
from game.client.table_scene import AdminOverlay, TrackTableScene
from game.cpu_worker import SyncCpu

_S = TypeVar("_S")


def _session(app: App, cfg: dict[str, Any], speed: str = "blitz", seed: int = 11,
             position: str | None = None) -> LocalSession:
    """A local table; ``position``: start from that hand-written position (FixedStart)."""
    app.virtual_time = 0.0
    app.hint_processes = False
    game = str(cfg.get("game", "track"))
    rules = None
    if position is not None:
        from game.table import rules_for
        from tests.client_testing import FixedStart

        rules = FixedStart(rules_for(game), position)
    return LocalSession(game, cfg, speed=speed, seed=seed, cpu=SyncCpu(),
                        clock=app.table_clock, rules=rules)


def _open(app: App, s: LocalSession, scene_cls: Callable[[App, LocalSession], _S],
          settle: bool = False) -> _S:
    """The person (seat 0) sits at ``s`` and starts it; its table scene goes on screen and,
    with ``settle``, one second of frames runs."""
    s.sit(0, app.settings.name)
    s.start()
    scene = scene_cls(app, s)
    app.push(scene)
    if settle:
        for _ in range(10):
            app.frame(0.1)
    return scene


def _table(app: App, cfg: dict[str, Any], plays: int = 40, people: int = 1,
           seed: int = 11) -> TrackTableScene:
    s = _session(app, cfg, seed=seed)
    for i in range(people):
        s.sit(i, app.settings.name if i == 0 else f"Player {i + 1}")
    s.start()
    scene = TrackTableScene(app, s)
    app.push(scene)
    n = 0
    while s.table.state_no < plays and s.public["phase"] == "playing" and n < 5000:
        if scene.my_turn() and scene.legal_plays():
            scene._move_chosen(0)
        app.frame(0.1)
        n += 1
        if s.public.get("cover"):
            owner = s.public.get("screen_owner")
            if owner is not None and plays > s.table.state_no + 3:
                s.tap_in(owner)
    return scene


def _track(cfg: dict[str, Any], plays: int = 60, people: int = 1) -> Callable[[App], None]:
    def shot(app: App) -> None:
        _table(app, {"game": "track", **cfg}, plays, people)
    return shot


def shot_lobby(app: App) -> None:
    s = _session(app, {"game": "track", "rules": "classic", "seats": 6, "mode": "teams",
                       "teams": 3})
    lobby = LobbyScene(app, s)
    app.push(lobby)
    s.set_cpu(2, "nasty")
    s.set_cpu(3, "easy")


def shot_lobby_hotseat(app: App) -> None:
    """A second person just sat at Blue: the name box asks who it is."""
    from tests.client_testing import frames

    s = _session(app, {"game": "track", "rules": "classic", "seats": 4})
    lobby = LobbyScene(app, s)
    app.push(lobby)
    lobby.toggle(1)
    lobby.name_input.set_text("Bea")
    frames(app)


def shot_lobby8(app: App) -> None:
    s = _session(app, {"game": "track", "rules": "classic", "seats": 8, "mode": "ffa"})
    app.push(LobbyScene(app, s))


SPLIT_POSITION = (
    "classic 4 teams2 jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,30 c:s,s,s,s,s "
    "d:s,s,s,s,60 turn=a hand=2C,3C,4C,5C,6C,7C cards=6,5,5,5 pile=141 discards=0")
JOKER_POSITION = (
    "classic 4 teams2 jokers=on seven=on a:s,s,0,12,40 b:s,s,s,s,36 c:s,s,s,s,45 "
    "d:s,s,s,s,s turn=a hand=JK,5S,6D,7C,KC,2D cards=6,5,5,5 pile=141 discards=0")


def _fixed(app: App, position: str) -> TrackTableScene:
    s = _session(app, {"game": "track", "rules": "classic", "seats": 4}, position=position)
    return _open(app, s, TrackTableScene, settle=True)


def shot_split(app: App) -> None:
    scene = _fixed(app, SPLIT_POSITION)
    scene.pick_card(5)
    scene.choice.peg = (0, 12)
    app.frame(0.01)


def shot_message(app: App) -> None:
    """A message (D with no card picked) on its own line: the speed line stays in view."""
    scene = _fixed(app, SPLIT_POSITION)
    scene.discard()
    app.frame(0.01)


def shot_moves(app: App) -> None:
    """The moves list in words (a joker in hand: what it lands on)."""
    scene = _fixed(app, JOKER_POSITION)
    scene.moves.select(len(scene.moves.rows) - 1)
    app.frame(0.01)


def shot_hint(app: App) -> None:
    """H: the hint with its reason (thought in a thread here, then shown)."""
    import time

    scene = _fixed(app, JOKER_POSITION)
    scene.show_hint()
    deadline = time.monotonic() + 20
    while scene.hint_status() == "thinking" and time.monotonic() < deadline:
        app.frame(0.01)
        time.sleep(0.01)
    app.frame(0.01)


def shot_reopen(app: App) -> None:
    """Host a game -> Reopen a saved table, with three saves in the data folder."""
    import json
    import os
    import time

    from game.client import saves
    from game.client.screens import ReopenScene
    from game.table import SeatSpec, Table

    tables = [("track", {"rules": "classic", "seats": 4}, ["Ada", "Bea"]),
              ("layout", {"seats": 3}, ["Ada"]),
              ("track", {"rules": "team", "seats": 8, "mode": "teams", "teams": 2},
               ["Ada", "Bea", "Cyd", "Dot"])]
    for i, (game, cfg, people) in enumerate(tables):
        path = saves.saves_dir(app.store.folder) / f"hosted-2026113{i}-2000{i}0-ab1{i}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        probe = Table.create(game, cfg, 3, clock=time.monotonic)
        n = probe.seat_count
        probe.close()
        specs = [SeatSpec("person", p) for p in people] + [SeatSpec()] * (n - len(people))
        t = Table.create(game, cfg, 3, specs, clock=time.monotonic, save_path=path,
                         host_seat=0, fsync=False)
        t.start(t.host_token)
        t.close()
        if i < 2:  # the list's look only: a table 37 plays in, and one finished
            with open(path, "a", encoding="utf-8") as f:
                for n in range(1, 38 if i == 0 else 3):
                    rec = {"t": "play", "seat": 0, "play": "-", "n": n}
                    if i == 1 and n == 2:
                        rec["over"] = True
                    f.write(json.dumps(rec) + "\n")
        saves.write_host_note(path, ["KQXF", "MNPQ", "RSTV"][i], 47800)
        stamp = 1_764_500_000 + i * 3600
        os.utime(path, (stamp, stamp))
    app.push(ReopenScene(app))


def shot_paused(app: App) -> None:
    scene = _table(app, {"rules": "classic", "seats": 4}, plays=12)
    scene.pause()


def shot_admin(app: App) -> None:
    scene = _table(app, {"rules": "team", "seats": 6, "mode": "teams", "teams": 2}, plays=12)
    app.push(AdminOverlay(app, scene.session))


def shot_cover(app: App) -> None:
    scene = _table(app, {"rules": "classic", "seats": 4}, plays=40, people=2)
    s = scene.session
    n = 0
    while not s.public.get("cover") and n < 3000 and s.public["phase"] == "playing":
        if scene.my_turn() and scene.legal_plays():
            scene._move_chosen(0)
        app.frame(0.1)
        n += 1


def shot_results(app: App) -> None:
    scene = _table(app, {"rules": "classic", "seats": 2, "mode": "h2h"}, plays=100000)
    for _ in range(400):
        if scene.done_button.visible:
            break
        app.frame(0.2)


def shot_results_trash(app: App) -> None:
    """Trash, 3 players, layouts of 2: played to the end (the end screen's hands won)."""
    from game.client.layout_scene import LayoutTableScene

    s = _session(app, {"game": "layout", "seats": 3, "layout_size": 2}, seed=5)
    scene = _open(app, s, LayoutTableScene)
    n = 0
    while n < 6000 and not (s.public["phase"] == "over" and scene.done_button.visible):
        legal = scene.legal_plays()
        if legal and s.public["phase"] == "playing":
            scene.choose(legal[0])
        app.frame(0.1)
        n += 1


def shot_leave_confirm(app: App) -> None:
    """Leave table during a game: the question first."""
    scene = _table(app, {"rules": "classic", "seats": 4}, plays=8)
    scene.leave_table()


def _trash(seats: int, plays: int = 60) -> Callable[[App], None]:
    def shot(app: App) -> None:
        from game.client.layout_scene import LayoutTableScene

        s = _session(app, {"game": "layout", "seats": seats}, seed=5)
        scene = _open(app, s, LayoutTableScene)
        n = 0
        while s.table.state_no < plays and s.public["phase"] == "playing" and n < 5000:
            legal = scene.legal_plays()
            if legal:
                scene.choose(legal[0])
            app.frame(0.1)
            n += 1
    return shot


def shot_trash_wild(app: App) -> None:
    from game.client.layout_scene import LayoutTableScene

    position = (
        "layout seats=4 wild=J lastchance=0 upcard=0 size=10 first=- seed=0 hand=2 leader=0 "
        "turn=0 phase=wild hold=JC passes=0 ply=0 rng=1 last=- sizes=10,9,10,10 "
        "p0=AD,?5C,3S,?9S,?TS,?QH,7C,?8C,?6S,?KD p1=?AS,?2S,?3S,4S,?5S,?6D,?7S,?8S,?9D "
        "p2=?AC,?2C,?3C,?4C,5D,?6C,?7C,?8D,?9C,JD p3=?AH,?2D,?3H,?4H,?5H,?6H,?7D,?8H,?9H,?TH "
        "stock=4S,3D discard=QS,KH")
    s = _session(app, {"game": "layout", "seats": 4}, seed=5, position=position)
    scene = _open(app, s, LayoutTableScene, settle=True)
    scene.timeline.finish()
    app.frame(0.01)


def shot_trash_hint(app: App) -> None:
    """H at a wild-card choice: the place and why."""
    import time

    shot_trash_wild(app)
    scene = app.top
    scene.show_hint()  # type: ignore[union-attr]
    deadline = time.monotonic() + 20
    while scene.hint_status() == "thinking" and time.monotonic() < deadline:  # type: ignore
        app.frame(0.01)
        time.sleep(0.01)
    app.frame(0.01)


def shot_trash_hand_won(app: App) -> None:
    from game.client.layout_scene import LayoutTableScene

    s = _session(app, {"game": "layout", "seats": 4}, seed=5)
    scene = _open(app, s, LayoutTableScene)
    n = 0
    while not scene.banner and n < 8000:
        legal = scene.legal_plays()
        if legal:
            scene.choose(legal[0])
        app.frame(0.1)
        n += 1


def shot_lobby_host(app: App) -> None:
    from game.client.lobby import LobbyScene
    from game.client.net_session import host_table

    app.net_options = {"bind": "127.0.0.1", "port": 0, "discovery": None}
    s = host_table("track", {"rules": "tees", "seats": 4}, app.settings.name, "normal",
                   SyncCpu(), **app.net_options)
    lobby = LobbyScene(app, s, "host")
    app.push(lobby)
    import time

    deadline = time.monotonic() + 5
    while not s.seats and time.monotonic() < deadline:
        app.frame(0.02)
        time.sleep(0.01)
    app.frame(0.02)


SHOTS: dict[str, Callable[[App], None]] = {
    "lobby_host": shot_lobby_host,
    "trash_2": _trash(2),
    "trash_4": _trash(4),
    "trash_8": _trash(8, 120),
    "trash_wild_choice": shot_trash_wild,
    "trash_hand_won": shot_trash_hand_won,
    "trash_hint": shot_trash_hint,
    "lobby": shot_lobby,
    "lobby_8": shot_lobby8,
    "lobby_hotseat": shot_lobby_hotseat,
    "track_tees_4": _track({"rules": "tees", "seats": 4}),
    "track_tees_6": _track({"rules": "tees", "seats": 6}),
    "track_classic_2": _track({"rules": "classic", "seats": 2, "mode": "h2h"}),
    "track_classic_3": _track({"rules": "classic", "seats": 3, "mode": "ffa"}),
    "track_team_8": _track({"rules": "team", "seats": 8, "mode": "teams", "teams": 4}, 120),
    "track_classic_8": _track({"rules": "classic", "seats": 8, "mode": "ffa"}, 120),
    "track_solo": _track({"rules": "classic", "seats": 1, "mode": "solo"}, 20),
    "track_split": shot_split,
    "track_moves": shot_moves,
    "track_message": shot_message,
    "track_hint": shot_hint,
    "reopen": shot_reopen,
    "track_paused": shot_paused,
    "track_admin": shot_admin,
    "track_hotseat_cover": shot_cover,
    "track_results": shot_results,
    "trash_results": shot_results_trash,
    "leave_confirm": shot_leave_confirm,
}


# ------------------------------------------------------------------ the replay viewer


def cpu_record(game: str, cfg: dict[str, Any], seed: int, people: set[int],
               limit: int = 3000) -> str:
    """A record of a game the Tricky CPU played for every seat (``people`` marked people)."""
    from game.ai import choose_play
    from game.rules.record import RecordSeat, format_record, make_record, rules_of

    rules = rules_of(game)
    s = rules.new_game(rules.normalize_config(cfg), seed)
    plays: list[tuple[int, str, str]] = []
    while (m := rules.to_move(s)) is not None and len(plays) < limit:
        legal = [str(t) for t in rules.legal_tokens(s)]
        tok = choose_play(game, rules.view(s, m), legal, "tricky", seed + len(plays), 5.0)
        plays.append((m, tok, "person" if m in people else "cpu"))
        s, _ = rules.apply(s, m, tok)
    seats = [RecordSeat(i, "person", "person", "Ada" if i == 0 else f"P{i + 1}")
             if i in people else RecordSeat(i, "cpu", "tricky", f"Tricky CPU {i}")
             for i in range(rules.seat_count(s))]
    return format_record(make_record(game, cfg, seed, seats, plays, date="2026-12-02",
                                     version="0.1.0"))


def _replay(game: str, cfg: dict[str, Any], at: float, review: bool,
            seat: int | None = None) -> Callable[[App], None]:
    def shot(app: App) -> None:
        import time

        from game.client.replay import ReplaySession, ReviewRunner

        app.virtual_time = 0.0
        app.hint_processes = False
        text = cpu_record(game, cfg, 7, {0})
        s = ReplaySession(text, clock=app.table_clock, samples=2)
        if review:  # a quick review (tiny budget) so the panel is full in the picture
            job = s.start_review(ReviewRunner(processes=False), budget_ms=20)
            deadline = time.monotonic() + 60
            while not job.done and time.monotonic() < deadline:
                job.poll()
                time.sleep(0.02)
        if seat is not None:
            s.seat = seat
        app.open_table(s)
        from game.client import router

        app.push(router.replay_scene(app, s, app.top))
        s.jump(int(s.plays * at))
        if not review:
            s.play_on(True)
        for _ in range(12):
            app.frame(0.1)
    return shot


SHOTS.update({
    "replay_track": _replay("track", {"rules": "tees", "seats": 4}, 0.4, False),
    "replay_track_review": _replay("track", {"rules": "classic", "seats": 4}, 0.5, True),
    "replay_trash": _replay("layout", {"seats": 2}, 0.3, False),
    "replay_trash_review": _replay("layout", {"seats": 3}, 0.6, True, seat=1),
})
