"""The end-to-end hook (``TEE_TABLE_E2E_DIR``): status.json and screenshots on request."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game.client.app import App
from game.client.e2e import ENV, E2EHook
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from tests.client_app import SPLIT_POSITION as POSITION
from tests.client_app import open_fixed_table
from tests.client_testing import FixedStart, frames, key, make_app


@pytest.fixture
def hooked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "e2e"
    monkeypatch.setenv(ENV, str(out))
    a = make_app(tmp_path / "data")
    a.make_cpu = SyncCpu  # type: ignore[method-assign]
    a.virtual_time = 0.0
    a.hint_processes = False
    yield a, out
    a.close()


def status(out: Path) -> dict:
    return json.loads((out / "status.json").read_text())


def test_no_hook_without_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    a = make_app(tmp_path)
    try:
        assert a.e2e is None
        frames(a, 3)
        assert not list(tmp_path.glob("status.json"))
    finally:
        a.close()


def test_title_status_and_the_write_interval(hooked: tuple[App, Path]) -> None:
    app, out = hooked
    assert app.e2e is not None
    frames(app)
    st = status(out)
    assert st["scene"] == "title" and st["scenes"] == ["title"] and "table" not in st
    assert st["size"] == [1280, 720] and st["message"] is None
    seq = st["seq"]
    # at most every 0.25 s: a frame 0.1 s after a write does not write, one 0.3 s after does
    t0 = app.e2e.last_write + 1.0
    app.e2e.after_frame(app, now=t0)
    assert status(out)["seq"] == seq + 1
    app.e2e.after_frame(app, now=t0 + 0.1)
    assert status(out)["seq"] == seq + 1
    app.e2e.after_frame(app, now=t0 + 0.3)
    assert status(out)["seq"] == seq + 2
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]  # renamed, not left


def test_table_status_turn_legal_pause_and_messages(hooked: tuple[App, Path]) -> None:
    app, out = hooked
    session = LocalSession("track", {"rules": "classic", "seats": 4}, speed="blitz",
                           cpu=SyncCpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, POSITION))
    assert session.sit(0, "Ada").ok and session.set_cpu(2, "nasty").ok and session.start().ok
    table = app.open_table(session)
    assert isinstance(table, TrackTableScene)
    frames(app)
    app.e2e.after_frame(app, now=app.e2e.last_write + 1.0)
    st = status(out)
    t = st["table"]
    assert st["scene"] == "track_table"
    assert t["game"] == "track" and t["rules"] == "classic" and t["phase"] == "playing"
    assert t["turn"] == 0 and t["my_turn"] is True and t["my_seat"] == 0
    assert t["my_seats"] == [0] and t["state_no"] == session.table.state_no
    assert t["paused"] is False and t["speed"] == "blitz" and t["connection"] == "connected"
    assert t["hosting"] is False and t["local"] is True and t["is_host"] is True
    assert t["port"] is None and t["code"] == ""
    assert [(s["label"], s["kind"], s["level"], s["connection"]) for s in t["seats"]] == [
        ("Ada", "person", None, "connected"), ("Blue CPU", "cpu", "tricky", "connected"),
        ("Yellow CPU", "cpu", "nasty", "connected"), ("Green CPU", "cpu", "tricky",
                                                      "connected")]
    assert [s["mine"] for s in t["seats"]] == [True, False, False, False]
    # the legal plays of this position, as the rules list them
    assert t["legal"] == TRACK.legal_tokens(TRACK.parse_position(POSITION))
    assert "7:a12+3,a20+4" in t["legal"]
    assert t["outcome"] is None and t["points"] is None
    # a message shown (a card that cannot move) and kept as last_message
    key(app, pygame.K_ESCAPE)  # nothing chosen: pauses for everyone
    app.e2e.after_frame(app, now=app.e2e.last_write + 1.0)
    t = status(out)["table"]
    assert t["paused"] is True and t["my_turn"] is False and t["legal"] == []
    assert {"reason": "paused", "by": 0, "name": "Ada"} in t["pause"]
    table.message = "That card cannot move a peg now."
    app.e2e.after_frame(app, now=app.e2e.last_write + 1.0)
    assert status(out)["message"] == "That card cannot move a peg now."
    table.message = None
    app.e2e.after_frame(app, now=app.e2e.last_write + 1.0)
    st = status(out)
    assert st["message"] is None and st["last_message"] == "That card cannot move a peg now."


def test_screenshot_on_request(hooked: tuple[App, Path]) -> None:
    app, out = hooked
    frames(app)
    (out / "shot-request-title_1").write_text("")
    (out / "shot-request-bad name").write_text("")
    frames(app)
    shot = out / "shot-title_1.png"
    assert shot.exists() and not (out / "shot-request-title_1").exists()
    img = pygame.image.load(str(shot))
    assert img.get_size() == (1280, 720)
    # the picture is the window: the title's backdrop, not black
    assert img.get_at((5, 5))[:3] == app.screen.get_at((5, 5))[:3] != (0, 0, 0)
    assert not (out / "shot-request-bad name").exists()  # refused name: deleted, no shot
    assert not list(out.glob("shot-bad*.png"))


def test_a_failing_write_never_stops_the_game(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    a = make_app(tmp_path / "d")
    try:
        hook = E2EHook(tmp_path / "e2e")
        (tmp_path / "e2e" / "status.json").mkdir()  # a folder where the file goes: rename fails
        a.e2e = hook
        frames(a, 2)
        assert a.running
        assert "tee-table e2e hook" in capsys.readouterr().err
    finally:
        a.close()


def test_stack_reports_buttons_focus_and_the_board_choices(hooked: tuple[App, Path]) -> None:
    from game.client.board import ring

    app, out = hooked
    table = open_fixed_table(app, POSITION, name="Ada", n_frames=30)  # the deal's animation is over
    key(app, pygame.K_6)  # the 7
    app.e2e.after_frame(app, now=app.e2e.last_write + 1.0)
    st = status(out)
    assert [s["name"] for s in st["stack"]] == ["title", "track_table"]
    assert st["running"] is True and st["banners"] == []
    sc = st["stack"][-1]
    pause = sc["buttons"]["pause"]
    assert pause["visible"] and pause["label"] == "Pause"
    assert pause["rect"] == list(table.pause_button.rect)
    assert sc["buttons"]["ready"]["visible"] is False and sc["focus"] is None
    assert sc["my_turn"] is True and sc["choice_card"] == 5 and sc["animating"] is False
    # the 7 moves either peg: the pegs on 12 and 20, each with the plays that start with it
    pegs = {(x, y): toks for kind, x, y, toks in sc["options"] if kind == "peg"}
    p12 = tuple(round(v) for v in table.geom.point(ring(12)))
    p20 = tuple(round(v) for v in table.geom.point(ring(20)))
    assert set(pegs) == {p12, p20}
    assert "7:a12+7" in pegs[p12] and all(t.startswith("7:a12+") for t in pegs[p12])
    assert "7:a20+7" in pegs[p20] and all(t.startswith("7:a20+") for t in pegs[p20])
    key(app, pygame.K_RETURN)  # the cursor's first peg: a12; now its holes
    app.e2e.after_frame(app, now=app.e2e.last_write + 1.0)
    holes = {(x, y): toks for kind, x, y, toks in status(out)["stack"][-1]["options"]}
    h15 = tuple(round(v) for v in table.geom.point(ring(15)))
    h19 = tuple(round(v) for v in table.geom.point(ring(19)))
    assert holes[h19] == ["7:a12+7"]
    assert holes[h15] == ["7:a12+3,a20+4"]  # 3 short: the other peg takes the 4
    assert len(holes) == 7  # +1 .. +7


def test_join_box_text_banner_and_interval_variable(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from game.client import screens

    out = tmp_path / "e2e"
    monkeypatch.setenv(ENV, str(out))
    monkeypatch.setenv("TEE_TABLE_E2E_INTERVAL", "0.02")
    a = make_app(tmp_path / "data")
    try:
        assert a.e2e is not None and a.e2e.interval == 0.02
        join = a.push(screens.JoinScene(a))
        join.entry.set_text("KQXF")
        join.banner = "Ada won hand 1"  # any scene's banner is collected, once
        frames(a, 3)
        join.banner = None
        a.e2e.after_frame(a, now=a.e2e.last_write + 1.0)
        st = status(out)
        sc = st["stack"][-1]
        assert sc["name"] == "join" and sc["entry"] == "KQXF"
        assert sc["entry_box"]["focused"] is True and sc["focus"] == "entry"
        assert sc["buttons"]["join"]["label"] == "Join"
        assert st["banners"] == ["Ada won hand 1"]
    finally:
        a.close()
