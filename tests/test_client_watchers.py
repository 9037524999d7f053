"""Watchers and taking a seat on screen (issue 17, docs/seats.md): the host's app hosts over
loopback (127.0.0.1, no discovery), a second program's table scene watches it (drawn off
screen, updated in the same loop), and a local table's hot seat "Sit here"."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pygame
import pytest

from game.client.app import App
from game.client.net_session import NetSession
from game.client.table_base import AdminOverlay, SeatPickOverlay, TableScene
from game.client.table_scene import TrackTableScene
from game.client.watchers import watcher_line, watching_line
from net.client import Client
from tests import client_app
from tests.client_app import close_app, host_from_title, open_fixed_table, table_app
from tests.client_testing import click, frames, key, resize, type_text

#: Where the screenshots go (TEE_TABLE_SHOTS=/some/folder); unset: none are written.
SHOTS = os.environ.get("TEE_TABLE_SHOTS", "")


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path, virtual_time=False, loopback=True)
    yield a
    close_app(a)


def pump(app: App, until: Callable[[], bool], seconds: float = 10.0) -> bool:
    return client_app.pump(app, until, seconds)


def watching(scene: TableScene, session: NetSession) -> bool:
    """One frame of a watcher's scene; True once its session watches."""
    return tick(scene) and session.watcher is not None


def tick(scene: TableScene) -> bool:
    """One frame of a scene drawn off screen (True, for ``pump``'s conditions)."""
    scene.update(1 / 60)
    return True


def shot(surf: pygame.Surface, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(Path(SHOTS) / f"{name}.png"))


# ---------------------------------------------------------------------- the words
def test_who_is_watching_in_words() -> None:
    assert watching_line({}) is None
    assert watching_line({"watchers": [], "watching": 0}) is None
    two = [{"watcher": 1, "name": "Cid"}, {"watcher": 2, "name": "Dee"}]
    assert watching_line({"watchers": two, "watching": 2}) == "Watching: Cid, Dee"
    many = [{"watcher": i, "name": f"P{i}"} for i in range(1, 6)]
    assert watching_line({"watchers": many, "watching": 5}) == "Watching: 5 people"


class _FakeWatcher:
    """Just what watcher_line reads."""

    def __init__(self, asks: list[dict[str, object]]) -> None:
        self.watcher = 2
        self.watch_note = "The game has already started: you are watching."
        self.tokens: dict[int, str] = {}
        self.public = {"asks": asks}


def test_a_watchers_line_follows_its_request() -> None:
    w = _FakeWatcher([])
    assert watcher_line(w) == w.watch_note  # type: ignore[arg-type]
    w.public["asks"] = [{"seat": 1, "watcher": 3, "name": "Eve", "accepted": False}]
    # someone else's request: still the note
    assert watcher_line(w) == w.watch_note  # type: ignore[arg-type]
    w.public["asks"] = [{"seat": 2, "watcher": 2, "name": "Cid", "accepted": False}]
    assert watcher_line(w) == "Waiting for the host: you asked for Yellow"  # type: ignore[arg-type]
    w.public["asks"][0]["accepted"] = True
    assert watcher_line(w) == "You take Yellow at its next turn"  # type: ignore[arg-type]
    assert watcher_line(w, short=True) == "You take Yellow at its next turn"  # type: ignore[arg-type]
    w.public["asks"] = []
    assert watcher_line(w, short=True) == "You are watching"  # type: ignore[arg-type]
    w.tokens = {2: "tok"}
    assert watcher_line(w) is None  # type: ignore[arg-type]


# ---------------------------------------------------------------------- over loopback
def _host_started(app: App) -> tuple[NetSession, TrackTableScene]:
    _lobby, session = host_from_title(app, "classic", "blitz")
    key(app, pygame.K_s)  # Start: the host and three CPUs
    assert pump(app, lambda: isinstance(app.top, TrackTableScene))
    table = app.top
    assert isinstance(table, TrackTableScene) and session.phase == "playing"
    return session, table


def test_a_late_guest_watches_asks_for_a_seat_and_gets_its_hand(app: App) -> None:
    host, host_table = _host_started(app)
    link = host.link.replace("0.0.0.0", "127.0.0.1")
    cid = NetSession(Client(link, "Cid").start())
    try:
        assert pump(app, lambda: (cid.poll(), bool(cid.seats))[1])  # joined: the snapshot
        watcher = TrackTableScene(app, cid)  # type: ignore[arg-type]
        watcher.relayout((1280, 720))
        surf = pygame.Surface((1280, 720))

        def step(cond: Callable[[], bool]) -> Callable[[], bool]:
            def both() -> bool:
                watcher.update(1 / 60)
                if host_table.my_turn() and host_table.legal_plays() and \
                        app.top is host_table:
                    host_table._move_chosen(0)  # the host plays its turns as they come
                return cond()
            return both

        # joined after the start: a watcher, the public view only, the welcome's note
        assert pump(app, step(lambda: cid.watcher is not None and bool(cid.seats)))
        assert cid.tokens == {} and cid.view()["seat"] is None and not cid.view().get("hand")
        assert "you are watching" in cid.watch_note.lower()
        watcher.draw(surf)
        assert watcher_line(cid) == cid.watch_note
        assert watcher.ask_button.visible
        # everyone sees who is watching: the host's screen too
        assert pump(app, step(lambda: host.watchers() == [{"watcher": cid.watcher,
                                                           "name": "Cid"}]))
        assert host_table.watching_text() == "Watching: Cid"
        app.frame(1 / 60)
        shot(app.screen, "host-who-is-watching-1280x720")
        shot(surf, "watcher-1280x720")
        # Ask for a seat: the list of CPU seats; Blue (seat 1) asked for
        click_on = watcher.ask_button.rect.center
        watcher.ask_for_seat()  # the button's action (the scene is drawn off screen)
        pick = app.top
        assert isinstance(pick, SeatPickOverlay)
        assert click_on is not None
        labels = [b.label for _, b in pick.seat_buttons]
        assert labels == ["Ask for Blue CPU (Tricky)", "Ask for Yellow CPU (Tricky)",
                          "Ask for Green CPU (Tricky)"]
        pick.relayout((1280, 720))
        watcher.draw(surf)
        pick.draw(surf)  # the panel over the watcher's own screen
        shot(surf, "ask-for-a-seat-1280x720")
        click(app, pick.seat_buttons[0][1].rect.center)
        assert app.top is host_table
        assert watcher.message == "Asked for Blue: waiting for the host"
        assert pump(app, step(lambda: watcher_line(cid) ==
                              "Waiting for the host: you asked for Blue"))
        # the host's ADMIN shows the request: Accept
        assert pump(app, lambda: bool(host.public.get("asks")))
        host_table.admin()
        admin = app.top
        assert isinstance(admin, AdminOverlay)
        frames(app)
        rows = [(what, n, b.label) for what, n, b in admin.watch_rows]
        assert ("accept", 1, "Accept Cid for Blue") in rows
        assert ("decline", 1, "Decline Cid's request") in rows
        assert ("out", cid.watcher, "Show Cid out") in rows
        shot(app.screen, "admin-request-1280x720")
        accept = next(b for what, _, b in admin.watch_rows if what == "accept")
        click(app, accept.rect.center)
        assert admin.message == "Blue changes hands at its next turn."
        assert pump(app, step(lambda: watcher_line(cid) == "You take Blue at its next turn"))
        watcher.update(1 / 60)
        assert not watcher.ask_button.visible  # nothing more to ask for
        watcher.draw(surf)
        shot(surf, "watcher-accepted-1280x720")
        admin.back()
        # at Blue's next turn the seat changes hands: the watcher's screen shows its hand
        assert pump(app, step(lambda: cid.tokens.keys() == {1} and
                              bool(cid.view().get("hand"))), 30)
        assert cid.seats[1]["kind"] == "person" and cid.seats[1]["name"] == "Cid"
        assert watcher_line(cid) is None and not watcher.watching()
        watcher.update(1 / 60)
        watcher.draw(surf)
        shot(surf, "watcher-seated-1280x720")
        # the same screens at 800x600
        resize(app, 800, 600)
        watcher.relayout((800, 600))
        small = pygame.Surface((800, 600))
        watcher.draw(small)
        shot(small, "watcher-seated-800x600")
        app.frame(1 / 60)
        shot(app.screen, "host-800x600")
    finally:
        cid.close()


def test_a_watcher_at_800x600_and_a_refused_request_in_words(app: App) -> None:
    host, host_table = _host_started(app)
    link = host.link.replace("0.0.0.0", "127.0.0.1")
    cid = NetSession(Client(link, "Cid").start())
    try:
        resize(app, 800, 600)
        assert pump(app, lambda: (cid.poll(), bool(cid.seats))[1])  # joined: the snapshot
        watcher = TrackTableScene(app, cid)  # type: ignore[arg-type]
        watcher.relayout((800, 600))
        assert pump(app, lambda: tick(watcher) and cid.watcher is not None)
        surf = pygame.Surface((800, 600))
        watcher.draw(surf)
        shot(surf, "watcher-800x600")
        # a person's seat cannot be asked for: the host's refusal comes back in words
        assert cid.ask_seat(0).ok  # sent
        assert pump(app, lambda: tick(watcher) and cid.refusal is not None)
        assert "only a CPU seat can be asked for" in str(cid.refusal)
        watcher.ask_for_seat()
        pick = app.top
        assert isinstance(pick, SeatPickOverlay)
        pick.relayout((800, 600))
        watcher.draw(surf)
        pick.draw(surf)
        shot(surf, "ask-for-a-seat-800x600")
        pick.back()
        assert pump(app, lambda: host.watchers() != [])
        host_table.admin()
        frames(app)
        shot(app.screen, "admin-800x600")
    finally:
        cid.close()


# ---------------------------------------------------------------------- hot seat
def test_hot_seat_sit_here_takes_a_cpu_seat_at_its_next_turn(app: App) -> None:
    table = open_fixed_table(app, name="Ada")
    session = table.session
    assert session.local_seats == [0]
    click(app, table.pause_button.rect.center)
    frames(app, 2)
    assert table.show_pause() and table.sit_button.visible
    shot(app.screen, "pause-sit-here-1280x720")
    click(app, table.sit_button.rect.center)
    pick = app.top
    assert isinstance(pick, SeatPickOverlay) and pick.hot
    assert [b.label for _, b in pick.seat_buttons] == ["Sit at Blue CPU (Tricky)",
                                                      "Sit at Yellow CPU (Tricky)",
                                                      "Sit at Green CPU (Tricky)"]
    # no name: asked for one, nothing changes
    click(app, pick.seat_buttons[0][1].rect.center)
    assert pick.message == "Type your name first." and app.top is pick
    click(app, pick.name_input.rect.center)  # type: ignore[union-attr]
    type_text(app, "Bo")
    assert pick.message == ""  # typing clears the prompt
    app.frame(1 / 60)
    shot(app.screen, "sit-here-1280x720")
    click(app, pick.seat_buttons[0][1].rect.center)
    assert app.top is table
    assert table.message == "Bo takes Blue at its next turn"
    assert session.local_seats == [0]  # not yet: Blue's next turn
    table.ready()
    # Ada plays; at Blue's turn the seat is Bo's, on this screen (the cover then works)
    def go() -> bool:
        if table.my_turn() and table.legal_plays() and session.screen_seat() == 0:
            table._move_chosen(0)
        return session.local_seats == [0, 1]
    assert pump(app, go, 20)
    assert session.seats[1]["kind"] == "person" and session.seats[1]["name"] == "Bo"
    assert session.seats[1]["local"]


def test_the_lobby_shows_who_is_watching(app: App) -> None:
    _lobby, session = host_from_title(app)
    link = session.link.replace("0.0.0.0", "127.0.0.1")
    watchers = [Client(link, "Cid", watch=True).start()]
    try:  # one after the other: the list is in the order they came
        assert pump(app, lambda: [w["name"] for w in session.watchers()] == ["Cid"])
        assert watching_line(session.public) == "Watching: Cid"
        watchers.append(Client(link, "Dee", watch=True).start())
        assert pump(app, lambda: [w["name"] for w in session.watchers()] == ["Cid", "Dee"])
        assert watching_line(session.public) == "Watching: Cid, Dee"
        frames(app)
        shot(app.screen, "lobby-watching-1280x720")
        resize(app, 800, 600)
        frames(app, 2)
        shot(app.screen, "lobby-watching-800x600")
        # nobody took a seat by watching: the lobby still has the host and CPUs
        assert [s["kind"] for s in session.seats] == ["person", "cpu", "cpu", "cpu"]
    finally:
        for w in watchers:
            w.close()


def test_a_trash_watcher_sees_the_table_and_may_ask(app: App) -> None:
    from game.client.layout_scene import LayoutTableScene
    from game.client.net_session import host_table
    from game.cpu_worker import SyncCpu

    host = host_table("layout", {"seats": 3}, "Ann", "blitz", SyncCpu(), bind="127.0.0.1",
                      port=0, discovery=None)
    try:
        assert pump(app, lambda: (host.poll(), bool(host.seats) and host.tokens != {})[1])
        assert host.start().ok
        assert pump(app, lambda: (host.poll(), host.phase == "playing")[1])
        cid = NetSession(Client(host.link.replace("0.0.0.0", "127.0.0.1"), "Cid").start())
        try:
            assert pump(app, lambda: (cid.poll(), bool(cid.seats))[1])
            for size in ((1280, 720), (800, 600)):
                watcher = LayoutTableScene(app, cid)  # type: ignore[arg-type]
                watcher.relayout(size)
                assert pump(app, partial(watching, watcher, cid))
                surf = pygame.Surface(size)
                watcher.draw(surf)
                assert watcher.watching() and watcher.ask_button.visible
                assert not watcher.pause_button.visible  # a watcher cannot pause
                # the status line says so unless a notice or the turn clock comes first
                assert watcher_line(cid, short=True) == "You are watching"
                assert watcher.status_line() in ("You are watching", watcher.notice_text(),
                                                 watcher.clock_note())
                assert cid.view()["seat"] is None
                shot(surf, f"trash-watcher-{size[0]}x{size[1]}")
        finally:
            cid.close()
    finally:
        host.close()


def test_a_person_leaving_for_good_leaves_the_seat_to_a_watcher(app: App) -> None:
    from game.client.net_session import host_table
    from game.cpu_worker import SyncCpu

    host = host_table("track", {"rules": "classic", "seats": 4}, "Ann", "blitz", SyncCpu(),
                      bind="127.0.0.1", port=0, discovery=None)
    link = host.link.replace("0.0.0.0", "127.0.0.1")
    bea = cid = None
    try:
        assert pump(app, lambda: (host.poll(), host.tokens != {})[1])
        bea = NetSession(Client(link, "Bea").start())
        assert pump(app, lambda: (host.poll(), bea.poll(), bea.tokens != {})[2])
        seat = bea.local_seats[0]
        assert host.start().ok and bea.ready().ok
        assert pump(app, lambda: (host.poll(), bea.poll(), bea.phase == "playing")[2])
        host_scene = TrackTableScene(app, host)  # type: ignore[arg-type]
        bea_scene = TrackTableScene(app, bea)  # type: ignore[arg-type]
        for sc in (host_scene, bea_scene):
            sc.relayout((1280, 720))
        cid = NetSession(Client(link, "Cid").start())

        def run(cond: Callable[[], bool]) -> Callable[[], bool]:
            def both() -> bool:
                assert cid is not None
                cid.poll()
                for sc in (host_scene, bea_scene):
                    sc.update(1 / 60)
                    if sc.my_turn() and sc.legal_plays():
                        sc._move_chosen(0)
                return cond()
            return both

        assert pump(app, run(lambda: [w["name"] for w in bea.watchers()] == ["Cid"]))
        assert bea.pause().ok
        assert pump(app, run(lambda: bea_scene.show_pause() and
                             bea_scene.give_buttons[0].visible))
        give = bea_scene.give_buttons[0]
        assert give.label == "Leave my seat to Cid"
        assert not bea_scene.give_buttons[1].visible
        surf = pygame.Surface((1280, 720))
        bea_scene.draw(surf)
        shot(surf, "pause-leave-my-seat-1280x720")
        give.on_press()
        assert bea_scene.message == "Your seat goes to Cid at its next turn"
        host.ready()
        bea.ready()
        assert pump(app, run(lambda: cid.tokens.keys() == {seat}), 30)
        assert cid.seats[seat]["name"] == "Cid" and cid.seats[seat]["kind"] == "person"
        assert "Bea" in (cid.seats[seat].get("played") or [])  # played, not won
    finally:
        for s in (cid, bea):
            if s is not None:
                s.close()
        host.close()
