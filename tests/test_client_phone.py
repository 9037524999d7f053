"""Phones at the table, from the desktop (issue 18): the host's "Phones can join" option
reaches ``host_table``, the lobby draws the phones' QR code (read back module by module), and
table screen mode (``main.py --watch LINK``, or the host's own toggle) shows no hand. Loopback
only."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.client import net_session, qr, screens
from game.client.app import App
from game.client.lobby import LobbyScene
from game.client.net_session import NetSession
from game.client.table_scene import TrackTableScene
from game.launch import main
from game.launch.window import watch_table
from net.client import Client
from net.host import HostThread
from net.web import qr_matrix
from tests import client_app
from tests.client_app import close_app, table_app
from tests.client_testing import click
from tests.net_bots import Bot, host_bot, make_table


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path, virtual_time=False, loopback=True)
    yield a
    close_app(a)


def pump(app: App, until: Callable[[], bool], seconds: float = 10.0,
         bots: list[Bot] | None = None) -> bool:
    def step() -> bool:
        for b in bots or []:
            b.step()
        return until()
    return client_app.pump(app, step, seconds)


def host_from_new_table(app: App, monkeypatch: pytest.MonkeyPatch, phones: str | None
                        ) -> tuple[LobbyScene, list[dict[str, Any]]]:
    """Host a game through the New table screen ("Phones can join" set unless None); the
    calls of ``host_table`` (its config and keywords) are recorded."""
    calls: list[dict[str, Any]] = []
    real = net_session.host_table

    def spy(game: str, config: dict[str, Any], *a: Any, **kw: Any) -> Any:
        calls.append({"config": dict(config), **kw})
        return real(game, config, *a, **kw)

    monkeypatch.setattr(net_session, "host_table", spy)
    app.show("new_table", kind="host")
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    assert nt.phones.visible and nt.phones in nt.slots() and nt.phones.value == "on"
    if phones is not None:
        nt.phones.set_options(nt.phones.options, phones)
    nt.rules.set_options(nt.rules.options, "classic")
    nt._changed(None)
    client_app.pump(app, lambda: True, 0.1)
    click(app, nt.start_button.rect.center)
    lobby = app.top
    assert isinstance(lobby, LobbyScene), nt.error
    assert pump(app, lambda: bool(lobby.session.seats))
    return lobby, calls


def test_phones_can_join_is_on_by_default_and_reaches_host_table(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby, calls = host_from_new_table(app, monkeypatch, None)
    assert len(calls) == 1 and calls[0]["config"]["web"] is True
    assert calls[0]["config"]["table_screen"] is False
    url = lobby.web_url()
    ht = lobby.session.host_thread
    assert url is not None and url == ht.web_url
    assert url.startswith("http://") and url.endswith(f"#{ht.fingerprint}/{ht.code}")
    # the table's own config never carries the hosting option
    assert "web" not in lobby.session.config and "table_screen" not in lobby.session.config
    assert app.settings.setup["host"] == {"phones": "on"}
    # solo and local tables have no such row
    assert not screens.NewTableScene(app, "local").phones.visible
    # the host plays a seat on this screen: its hand is drawn (the control for the table
    # screen tests below, which count the same blits)
    session = lobby.session
    assert session.local_seats == [0] and not session.table_screen
    lobby.start()
    assert pump(app, lambda: isinstance(app.top, TrackTableScene) and
                bool(session.view().get("hand")))
    table = app.top
    assert isinstance(table, TrackTableScene)
    assert len(_hand_blits(table)) == len(session.view()["hand"][:6]) >= 4


def test_phones_off_serves_no_web_page_and_the_lobby_shows_no_code(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby, calls = host_from_new_table(app, monkeypatch, "off")
    assert calls[0]["config"]["web"] is False
    assert lobby.session.host_thread.web_url is None and lobby.web_url() is None
    app.frame()
    assert lobby.qr_rect.w == 0
    seats = lobby.seat_rects  # no QR column: the seats are centred on the whole window
    assert abs((seats[0].x + seats[-1].right) / 2 - app.size[0] / 2) <= 8
    assert app.settings.setup["host"] == {"phones": "off"}  # and it comes back next time
    again = screens.NewTableScene(app, "host")
    assert again.phones.value == "off"


def test_the_lobby_draws_the_qr_code_of_the_phones_link(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby, _calls = host_from_new_table(app, monkeypatch, "on")
    url = lobby.web_url()
    assert url is not None
    lobby.dirty = True
    app.frame()
    surf = app.screen
    r = lobby.qr_rect
    assert r.w >= 200 and r.w == r.h and surf.get_rect().contains(r)  # 1280x720
    want = qr_matrix(url)
    n = len(want)
    assert r.w % (n + 2 * qr.QUIET) == 0  # whole pixels per module
    got = qr.read_matrix(surf, r, n)
    assert got == want
    # the quiet zone is white all round, the code's corners are the finder patterns' black
    m = r.w // (n + 2 * qr.QUIET)
    for x in range(r.x, r.right, 3):
        for y in (r.y + 1, r.y + 4 * m - 2, r.bottom - 2):
            if y < r.y + 4 * m or y > r.bottom - 4 * m:
                assert surf.get_at((x, y))[:3] == (255, 255, 255), (x, y)
    assert got[0][0] and got[0][n - 1] and got[n - 1][0]  # the three finder patterns
    assert sum(map(sum, got)) > n * n // 4  # the data area is drawn, not only the finders
    assert qr.short_url(url) == url.split("#")[0].rstrip("/") and "#" not in qr.short_url(url)
    # the code and link stay beside it, and the seats leave its column free
    assert all(c.right <= r.x for c in lobby.seat_rects)


def test_the_host_s_table_screen_has_no_hand_and_every_seat_for_phones(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby, calls = host_from_new_table(app, monkeypatch, "screen")
    assert calls[0]["config"]["web"] is True and calls[0]["config"]["table_screen"] is True
    session = lobby.session
    assert session.table_screen and session.is_host and session.tokens == {}
    assert [s["kind"] for s in session.seats] == ["cpu"] * 4  # every seat free for a phone
    assert lobby.web_url() is not None
    # a phone's stand-in (the web client joins through the same host code) takes a colour
    link = session.link.replace("0.0.0.0", "127.0.0.1")
    phone = Bot(Client(link, "Bea").start())
    try:
        # the phone's welcome names its seat; the host's screen hears of it in its own next
        # update (it may come a read later)
        assert pump(app, lambda: phone.seat is not None and
                    session.seats[phone.seat]["name"] == "Bea", bots=[phone])
        seat = phone.seat
        assert seat is not None and session.seats[seat]["kind"] != "cpu"
        lobby.start()  # the host starts with no seat of its own
        assert lobby.error is None
        assert pump(app, lambda: isinstance(app.top, TrackTableScene) and
                    session.public["state_no"] >= 1 and bool(phone.view and
                                                             phone.view["hand"]), bots=[phone])
        table = app.top
        assert isinstance(table, TrackTableScene)
        assert table.screen_seat() is None and table.view()["hand"] == []
        assert not table.my_turn() and not table.legal_plays()
        assert _hand_blits(table) == []
        # the game goes on with the phone's plays
        n = session.public["state_no"]
        assert pump(app, lambda: session.public["state_no"] >= n + 4, 20, bots=[phone])
        assert any(s == seat for s, _p in session.host_thread.call(
            lambda h: list(h.glue.table.log)))
    finally:
        phone.c.close()


class _SpySurface(pygame.Surface):
    """A surface that notes where images were blitted."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.placed: list[pygame.Rect] = []

    def blit(self, source: Any, dest: Any, *a: Any, **kw: Any) -> pygame.Rect:  # type: ignore[override]
        r = super().blit(source, dest, *a, **kw)
        self.placed.append(pygame.Rect(r))
        return r


def _hand_blits(table: TrackTableScene) -> list[pygame.Rect]:
    """The images the hand drawing puts on the card places."""
    spy = _SpySurface(table.stage.size)
    table.draw_hand(spy)
    return [r for r in spy.placed if any(r.colliderect(c) and r.w >= c.w // 2
                                        for c in table.card_rects)]


def test_watch_joins_as_a_watcher_and_the_table_shows_no_hand(app: App) -> None:
    table = make_table("track", {"rules": "classic", "seats": 4}, scale=20, seed=5)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None, tick_interval=0.005).start()
    hb = host_bot(ht)
    try:
        assert watch_table(app, str(ht.link)) is None
        lobby = app.top
        assert isinstance(lobby, LobbyScene)
        session = lobby.session
        assert isinstance(session, NetSession)
        assert session.table_screen and session.client.watch
        assert pump(app, lambda: hb.seat == 0 and bool(session.seats), bots=[hb])
        assert session.watcher == 1 and session.tokens == {}
        assert hb.c.start_game()
        assert pump(app, lambda: isinstance(app.top, TrackTableScene) and
                    session.public["state_no"] >= 2, bots=[hb])
        scene = app.top
        assert isinstance(scene, TrackTableScene)
        assert scene.screen_seat() is None and scene.view()["hand"] == []
        assert hb.view is not None and hb.view["hand"]  # the seat itself has cards
        assert _hand_blits(scene) == [] and not scene.my_turn()
        scene.dirty = True
        app.frame()  # draws whole, with no hand
    finally:
        hb.c.close()
        ht.stop()
        table.close()


def test_watch_with_a_bad_link_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    t0 = time.monotonic()
    for argv, words in ((["--watch", "teetable://1.2.3.4:99999/KQXF"], "port 99999"),
                        (["--watch", ""], "empty"),
                        (["--watch", "1.2.3.4:5", "--host"], "cannot go with --host")):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert words in err[-1] and err[-1].startswith(err[-1].split(":")[0])
        assert "--watch" in err[-1]
    assert time.monotonic() - t0 < 5  # before any window or connection


def test_the_window_host_serves_phones_unless_no_web() -> None:
    from game.launch.options import build_parser
    from game.launch.window import host_request

    p = build_parser()
    assert host_request(p.parse_args(["--host"])).options["web"] is True
    req = host_request(p.parse_args(["--host", "--web-port", "0"]))
    assert req.options["web"] is True and req.options["web_port"] == 0
    assert host_request(p.parse_args(["--host", "--no-web"])).options["web"] is False


def test_a_reopened_table_screen_table_serves_phones_again(tmp_path: Path) -> None:
    from game.cpu_worker import SyncCpu

    net: dict[str, Any] = {"bind": "127.0.0.1", "port": 0, "discovery": None, "fsync": False}
    save = tmp_path / "t.save"
    first = net_session.host_table("track", {"rules": "classic", "seats": 4, "web": True,
                                             "table_screen": True}, "Hal", "blitz", SyncCpu(),
                                   save_path=save, **net)
    try:
        assert first.table_screen and first.host_thread.web_url
        kinds = first.host_thread.call(
            lambda h: [h.glue.table.seat_info(i)["kind"] for i in range(4)])
        assert kinds == ["cpu"] * 4
    finally:
        first.close()
    again = net_session.host_table("track", {}, "Hal", "blitz", SyncCpu(), resume=save, **net)
    try:  # the save has no host seat: still a table screen, and phones can join it
        assert again.table_screen and again.host_thread.web_url
    finally:
        again.close()
    plain = net_session.host_table("track", {"rules": "classic", "seats": 4}, "Hal", "blitz",
                                   SyncCpu(), **net)
    try:  # a new table from a program: phones only when asked
        assert not plain.table_screen and plain.host_thread.web_url is None
    finally:
        plain.close()
