"""Windowed --host, Reopen a saved table after a crash, and a relaunched joiner landing back in
its own seat. Loopback only (127.0.0.1, no discovery)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.client import saves, screens
from game.client.app import App, run, start_hosting
from game.client.e2e import ENV
from game.client.lobby import LobbyScene
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.launch import build_parser
from game.launch.window import host_request
from game.table import Table
from net.client import Client
from net.host import HostThread
from tests import client_app
from tests.client_app import table_app
from tests.client_testing import click, frames, key


def new_app(folder: Path) -> App:
    return table_app(folder, virtual_time=False, loopback=True)


def pump(app: App, until: Callable[[], bool], seconds: float = 10.0) -> bool:
    return client_app.pump(app, until, seconds)


def test_host_options_from_the_command_line(tmp_path: Path) -> None:
    args = build_parser().parse_args([
        "--host", "--game", "track", "--rules", "team", "--seats", "6", "--cpu", "nasty",
        "--speed", "blitz", "--seed", "42", "--bind", "127.0.0.1", "--port", "0",
        "--no-discovery", "--code", "kqxf", "--name", "Zed"])
    app = new_app(tmp_path)
    try:
        assert start_hosting(app, host_request(args)) is None, app.message
        lobby = app.top
        assert isinstance(lobby, LobbyScene) and lobby.kind == "host"
        s = lobby.session
        assert pump(app, lambda: bool(s.seats) and s.local_seats == [0])
        assert s.code == "KQXF" and s.is_host
        assert s.config["rules"] == "team" and len(s.seats) == 6
        assert [x["level"] for x in s.seats[1:]] == ["nasty"] * 5
        assert s.public["speed"] == "blitz"
        # the table is saved in the data folder, with the code and port beside it
        assert s.save_path is not None and s.save_path.parent == tmp_path / "saves"
        note = saves.read_host_note(s.save_path)
        assert note == {"code": "KQXF", "port": s.host_thread.port}
        header = json.loads(s.save_path.read_text().splitlines()[0])
        assert header["seed"] == 42 and header["game"] == "track"
    finally:
        app.close()


def test_bad_host_options_are_explained_and_nothing_opens(tmp_path: Path) -> None:
    args = build_parser().parse_args(["--host", "--option", "nonsense", "--port", "0",
                                      "--bind", "127.0.0.1", "--no-discovery"])
    app = new_app(tmp_path)
    try:
        problem = start_hosting(app, host_request(args))
        assert problem is not None and "KEY=VALUE" in problem
        assert isinstance(app.top, screens.TitleScene) and app.message == problem
        args = build_parser().parse_args(["--host", "--seats", "5", "--rules", "tees",
                                          "--port", "0", "--bind", "127.0.0.1",
                                          "--no-discovery"])
        problem = start_hosting(app, host_request(args))
        assert problem is not None and problem.startswith("Could not open that table")
        assert isinstance(app.top, screens.TitleScene)
        assert not list((tmp_path / "saves").glob("*.jsonl"))  # nothing half-created
    finally:
        app.close()


def test_run_opens_straight_into_hosting_with_the_name(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``main.py --host --name Zed`` through run(): the e2e hook reports the lobby."""
    out = tmp_path / "e2e"
    monkeypatch.setenv(ENV, str(out))
    args = build_parser().parse_args([
        "--host", "--game", "layout", "--seats", "3", "--cpu", "easy", "--port", "0",
        "--bind", "127.0.0.1", "--no-discovery", "--code", "MNPQ", "--name", "Zed"])
    assert run((800, 600), False, frames=60, data=tmp_path / "data", host=host_request(args),
               name=args.name) == 0
    st = json.loads((out / "status.json").read_text())
    assert st["scene"] == "lobby", st
    t = st["table"]
    assert t["hosting"] and t["code"] == "MNPQ" and isinstance(t["port"], int) and t["port"]
    assert t["link"].endswith("/MNPQ") and t["local"] is False
    assert t["seats"][0]["name"] == "Zed" and t["game"] == "layout"
    assert [s["level"] for s in t["seats"][1:]] == ["easy", "easy"]
    # the name is for this run only: the saved settings keep their own
    assert not (tmp_path / "data" / "settings.json").exists() or \
        "Zed" not in (tmp_path / "data" / "settings.json").read_text()
    pygame.init()


def test_reopen_a_saved_table_and_the_guest_rejoins_its_seat(tmp_path: Path) -> None:
    data = tmp_path / "host"
    app = new_app(data)
    guest: Client | None = None
    try:
        assert app.host_new_table("track", {"rules": "classic", "seats": 4}, "blitz") is None
        lobby = app.top
        assert isinstance(lobby, LobbyScene)
        s = lobby.session
        assert pump(app, lambda: bool(s.seats) and s.local_seats == [0])
        code, port = s.code, s.host_thread.port
        guest = Client(f"127.0.0.1:{port}/{code}", "Bea").start()
        assert pump(app, lambda: any(x["name"] == "Bea" for x in s.seats))
        bea = next(x["seat"] for x in s.seats if x["name"] == "Bea")
        key(app, pygame.K_s)  # Start
        assert pump(app, lambda: isinstance(app.top, TrackTableScene))
        guest.ready()
        table = app.top
        assert isinstance(table, TrackTableScene)

        def played_some() -> bool:
            if table.my_turn() and table.legal_plays():
                table._move_chosen(0)  # the host's person plays when it is their turn
            # (Bea's program here never plays: stop at her turn)
            return s.public["state_no"] >= 1 and (s.public["state_no"] >= 3 or
                                                  s.view().get("turn") == bea)

        assert pump(app, played_some, 20), s.public  # some plays are saved
        played = s.public["state_no"]
        # the host's program stops (a crash: the host thread and table just go away)
        app.close()
        assert pump_client(guest, lambda: guest.status.state == "dropped")

        app = new_app(data)  # the host opens the program again
        key(app, pygame.K_DOWN)
        key(app, pygame.K_RETURN)  # Host a game
        nt = app.top
        assert isinstance(nt, screens.NewTableScene) and nt.reopen_button.visible
        click(app, nt.reopen_button.rect.center)
        ro = app.top
        assert isinstance(ro, screens.ReopenScene)
        assert len(ro.saves) == 1 and ro.saves[0].code == code
        assert set(ro.saves[0].people) == {"Player", "Bea"} and ro.saves[0].plays == played
        key(app, pygame.K_RETURN)  # the newest save is selected: reopen it
        s2 = app.top.session  # type: ignore[union-attr]
        assert s2.code == code and s2.host_thread.port == port
        assert pump(app, lambda: isinstance(app.top, TrackTableScene) and
                    s2.public["state_no"] >= played)
        # the guest's program rejoined its own seat by itself (same token, same seat)
        assert pump(app, lambda: guest.status.state == "connected" and
                    s2.seats[bea]["connected"], 15)
        assert guest.seat == bea
        assert [x["name"] for x in s2.seats].count("Bea") == 1
    finally:
        if guest is not None:
            guest.close(timeout=2.0)
        app.close()


def pump_client(client: Client, until, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        client.poll()
        if until():
            return True
        time.sleep(0.01)
    return False


def test_a_relaunched_joiner_lands_back_in_its_own_seat(tmp_path: Path) -> None:
    t = Table.create("track", {"rules": "classic", "seats": 4}, 3, clock=time.monotonic,
                     speed="blitz", cpu=SyncCpu())  # four CPUs; joiners take them
    ht = HostThread(t, bind="127.0.0.1", port=0, discovery=None, code="MNPQ").start()
    link = f"teetable://127.0.0.1:{ht.port}/MNPQ"
    data = tmp_path / "joiner"
    try:
        app = new_app(data)
        assert app.join_table(link) is None
        lobby = app.top
        assert isinstance(lobby, LobbyScene)
        assert pump(app, lambda: bool(lobby.session.local_seats))
        me = lobby.session.local_seats[0]
        token = lobby.session.tokens[me]
        assert saves.seat_token(data, "MNPQ") == token  # kept in the data folder
        ht.call(lambda h: t.start(t.host_token))
        assert pump(app, lambda: isinstance(app.top, TrackTableScene))
        app.close()  # "close the program"...
        people = [x["seat"] for x in t.public()["seats"] if x["kind"] == "person"]
        assert people == [me]

        app = new_app(data)  # ... "and reopen it": the same link again
        assert app.join_table(link) is None
        assert pump(app, lambda: isinstance(app.top, TrackTableScene))
        table = app.top
        assert isinstance(table, TrackTableScene)
        assert table.session.local_seats == [me]
        assert [x["seat"] for x in t.public()["seats"] if x["kind"] == "person"] == [me]
        assert pump(app, lambda: t.public()["seats"][me]["connected"])
        app.close()

        # a remembered token the host does not know (another table under that code): the
        # join starts fresh instead of failing
        saves.remember_seat(data, ["MNPQ"], "not-a-token", 2)
        app = new_app(data)
        assert app.join_table(link) is None
        lobby = app.top
        assert isinstance(lobby, LobbyScene)
        assert pump(app, lambda: bool(getattr(app.top, "session", None) and
                                      app.top.session.local_seats))  # type: ignore[union-attr]
        assert saves.seat_token(data, "MNPQ") not in (None, "not-a-token")
        app.close()
    finally:
        ht.stop()
        t.close()


def test_saves_are_listed_newest_first_and_foreign_files_skipped(tmp_path: Path) -> None:
    import os

    d = tmp_path / "saves"
    d.mkdir()
    for i, (game, cfg) in enumerate([("track", {"rules": "tees", "seats": 4}),
                                     ("layout", {"seats": 3})]):
        p = d / f"t{i}.jsonl"
        t = Table.create(game, cfg, 5, clock=time.monotonic, save_path=p, fsync=False)
        t.close()
        os.utime(p, (1_000_000 + i * 100, 1_000_000 + i * 100))
    (d / "junk.jsonl").write_text("not json\n")
    (d / "other.jsonl").write_text('{"format": "something-else"}\n')
    saves.write_host_note(d / "t0.jsonl", "KQXF", 47800)
    got = saves.list_saves(tmp_path)
    assert [g.path.name for g in got] == ["t1.jsonl", "t0.jsonl"]
    assert (got[0].game, got[0].seats, got[0].plays, got[0].code) == ("layout", 3, 0, None)
    assert (got[1].game, got[1].rules, got[1].seats, got[1].code) == ("track", "tees", 4,
                                                                      "KQXF")
    assert got[1].title() == "Track, tees, 4 seats" and got[0].title() == "Trash, 3 seats"
    assert saves.list_saves(tmp_path / "nowhere") == []


def test_name_for_this_run_is_never_saved_unless_typed(tmp_path: Path) -> None:
    from game.store import Store

    app = new_app(tmp_path)
    try:
        assert app.save_settings(name="Ada") is None
        assert app.use_name_for_this_run("  Zed   Q ") is None
        assert app.settings.name == "Zed Q"
        assert app.save_settings(volume=0.25) is None  # another setting saved meanwhile
        assert Store(tmp_path).settings().name == "Ada"
        assert Store(tmp_path).settings().volume == 0.25
        assert app.settings.name == "Zed Q"
        assert app.save_settings(name="Bo") is None  # typed in Settings: kept for good
        assert Store(tmp_path).settings().name == "Bo"
        problem = app.use_name_for_this_run("x" * 40)
        assert problem is not None and app.settings.name == "Bo"
    finally:
        app.close()


def test_reopen_screen_empty_and_a_damaged_save_is_explained(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    try:
        ro = app.push(screens.ReopenScene(app))
        assert isinstance(ro, screens.ReopenScene) and ro.saves == []
        frames(app)
        app.pop()
        path = saves.new_save_path(tmp_path)
        t = Table.create("track", {"rules": "classic", "seats": 4}, 5, clock=time.monotonic,
                         save_path=path, fsync=False)
        t.start(t.host_token)
        t.close()
        with open(path, "a") as f:
            f.write('{"t": "play", "seat": 0, "play": "zz", "n": 1}\n')
        before = path.read_bytes()
        ro = app.push(screens.ReopenScene(app))
        assert isinstance(ro, screens.ReopenScene) and len(ro.saves) == 1
        key(app, pygame.K_RETURN)
        assert app.top is ro and ro.error is not None
        assert ro.error.startswith("Could not open that table") and "line" in ro.error
        assert path.read_bytes() == before  # never written to
        frames(app)
    finally:
        app.close()


def test_leaving_a_lobby_never_started_leaves_no_save_but_a_started_table_keeps_it(
        tmp_path: Path) -> None:
    app = new_app(tmp_path)
    try:
        assert app.host_new_table("track", {"rules": "tees", "seats": 4}, "blitz") is None
        lobby = app.top
        assert isinstance(lobby, LobbyScene)
        save = lobby.session.save_path
        assert save is not None and save.exists() and saves.note_path(save).exists()
        click(app, lobby.back_button.rect.center)
        assert isinstance(app.top, screens.TitleScene)
        assert not save.exists() and not saves.note_path(save).exists()
        # a table that started is kept (Reopen lists it) when its host leaves
        assert app.host_new_table("track", {"rules": "tees", "seats": 4}, "blitz") is None
        lobby = app.top
        assert isinstance(lobby, LobbyScene)
        s = lobby.session
        assert pump(app, lambda: s.local_seats == [0])
        key(app, pygame.K_s)
        assert pump(app, lambda: isinstance(app.top, TrackTableScene))
        table = app.top
        assert isinstance(table, TrackTableScene)
        table.leave_table()
        assert s.save_path is not None and s.save_path.exists()
        assert [i.path for i in saves.list_saves(tmp_path)] == [s.save_path]
    finally:
        app.close()


def test_a_dropped_host_is_said_on_the_table(tmp_path: Path) -> None:
    t = Table.create("track", {"rules": "classic", "seats": 4}, 3, clock=time.monotonic,
                     speed="blitz", cpu=SyncCpu())
    ht = HostThread(t, bind="127.0.0.1", port=0, discovery=None, code="WXYZ").start()
    app = new_app(tmp_path)
    try:
        assert app.join_table(f"127.0.0.1:{ht.port}/WXYZ") is None
        lobby = app.top
        assert isinstance(lobby, LobbyScene)
        assert pump(app, lambda: bool(lobby.session.local_seats))
        ht.call(lambda h: t.start(t.host_token))
        assert pump(app, lambda: isinstance(app.top, TrackTableScene))
        table = app.top
        assert isinstance(table, TrackTableScene)
        assert table.connection_note() is None
        ht.stop()
        assert pump(app, lambda: (table.connection_note() or "").startswith(
            "Connection: dropped - the game goes on"))
    finally:
        app.close()
        t.close()
