"""Setup that remembers and explains, and solo that means it (issue 19 points 8 and 10): the
last choices come back, a line under each option says what it does, rows keep their places,
solo has no dead controls and a Seed box, Records plays a best seed again, undo is said in
words and a game with undo sets no best. Real events through the real loop."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.client.lobby import LobbyScene
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from game.store import Store
from tests.client_app import close_app, table_app
from tests.client_testing import FixedStart, click, frames, key, type_text


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def drawn(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts one frame draws through ``fit_text``."""
    said: list[str] = []
    real = app.assets.fit_text

    def spy(text: str, *a: object, **kw: object) -> pygame.Surface:
        said.append(text)
        return real(text, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(app.assets, "fit_text", spy)
    frames(app)
    monkeypatch.setattr(app.assets, "fit_text", real)
    return said


def test_the_last_choices_come_back_next_time(app: App, tmp_path: Path) -> None:
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    key(app, pygame.K_RIGHT)  # Game: Trash
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # Seats 4 (kept from the track game) -> 5
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # Kings wild
    assert nt.config()["seats"] == 5 and nt.config()["wild"] == "K"
    click(app, nt.start_button.rect.center)
    assert isinstance(app.top, LobbyScene)
    key(app, pygame.K_ESCAPE)  # back to New table, then the title
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, screens.TitleScene)
    key(app, pygame.K_RETURN)  # Play again: Trash, 5 players, Kings wild
    again = app.top
    assert isinstance(again, screens.NewTableScene) and again is not nt
    assert again.config() == {"game": "layout", "seats": 5, "wild": "K",
                              "last_chance": False, "upcard": False, "layout_size": 10}
    saved = Store(tmp_path).settings().setup
    assert saved["last"] == {"local": "layout"} and saved["layout"]["wild"] == "K"
    # the track game's choices are kept apart: Host a game still offers Tees
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    host = app.top
    assert isinstance(host, screens.NewTableScene) and host.kind == "host"
    assert host.game.value == "track"


def test_a_line_under_each_option_says_what_it_does(app: App,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    nt = app.push(screens.NewTableScene(app, "local"))
    assert isinstance(nt, screens.NewTableScene)
    texts = drawn(app, monkeypatch)
    assert any(t.startswith("Tees: one deck, no jokers") for t in texts)
    assert any(t.startswith("Teams: partners") for t in texts)
    nt.game.step(1)  # Trash: its four options explained
    texts = drawn(app, monkeypatch)
    for start in ("Jacks are wild", "Last chance off", "Starting upcard off",
                  "A layout of 10"):
        assert any(t.startswith(start) for t in texts), start
    nt.last_chance.step(1)
    assert any(t.startswith("Last chance on: when someone fills")
               for t in drawn(app, monkeypatch))


def test_rows_keep_their_places_when_the_mode_changes(app: App) -> None:
    nt = app.push(screens.NewTableScene(app, "local"))
    assert isinstance(nt, screens.NewTableScene)
    nt.rules.step(1)  # classic: teams, head to head, free-for-all
    frames(app)
    where = (nt.seats.rect.copy(), nt.speed.rect.copy())
    assert nt.teams.visible
    nt.mode.step(1)  # head to head: no Teams row, but nothing moves up
    frames(app)
    assert not nt.teams.visible
    assert (nt.seats.rect, nt.speed.rect) == where


def test_solo_shows_no_dead_controls(app: App) -> None:
    nt = app.push(screens.NewTableScene(app, "solo"))
    assert isinstance(nt, screens.NewTableScene)
    frames(app)
    shown = [w for w in nt.form.widgets if w.visible]
    assert nt.game not in shown and nt.mode not in shown and nt.seats not in shown
    assert nt.speed in shown and nt.seed in shown and nt.rules in shown
    # every choice shown can change
    assert all(len(w.options) > 1 for w in shown if isinstance(w, screens.Choice))


def test_the_seed_box_deals_that_game(app: App) -> None:
    nt = app.push(screens.NewTableScene(app, "solo"))
    assert isinstance(nt, screens.NewTableScene)
    click(app, nt.seed.rect.center)
    type_text(app, "12x")
    key(app, pygame.K_RETURN)  # Enter in the box starts: a bad seed is refused
    assert app.top is nt and nt.error is not None and "whole number" in nt.error
    key(app, pygame.K_BACKSPACE)
    type_text(app, "345")
    key(app, pygame.K_RETURN)
    table = app.top
    assert isinstance(table, TrackTableScene), nt.error
    assert table.session.table.seed == 12345


def test_records_plays_a_best_seed_again(tmp_path: Path) -> None:
    st = Store(tmp_path)
    st.record_solo("team", 37, 99)
    st.close()
    app = table_app(tmp_path)
    try:
        title = app.top
        assert isinstance(title, screens.TitleScene)
        click(app, next(b for b in title.buttons if b.label == "Records").rect.center)
        rec = app.top
        assert isinstance(rec, screens.RecordsScene) and set(rec.again) == {"team"}
        assert rec.again["team"].label == "Play seed 99 again"
        click(app, rec.again["team"].rect.center)
        nt = app.top
        assert isinstance(nt, screens.NewTableScene) and nt.kind == "solo"
        assert nt.rules.value == "team" and nt.seed.text == "99"
        key(app, pygame.K_RETURN)  # Start has the focus
        table = app.top
        assert isinstance(table, TrackTableScene)
        assert table.session.table.seed == 99 and table.public["config"]["rules"] == "team"
    finally:
        close_app(app)


# solo classic: four pegs home, one on its come-out hole; 4:a0+4h finishes, 2:a0+2 does not
SOLO_END = ("classic 1 solo jokers=off seven=on a:h2,h3,h4,h5,0 turn=a hand=2C,3C,4C,5C,6C "
            "cards=5 pile=151 discards=0 turns=9")


def test_undo_is_said_in_words_and_a_game_with_undo_sets_no_best(
        app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = LocalSession("track", {"rules": "classic", "mode": "solo", "seats": 1},
                           speed="blitz", cpu=SyncCpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, SOLO_END))
    assert session.sit(0, "Ada").ok and session.start().ok
    table = app.open_table(session)
    assert isinstance(table, TrackTableScene)
    frames(app, 2)
    table._move_chosen([str(p) for p in table.legal].index("2:a0+2"))
    for _ in range(100):
        if table.my_turn() and table.legal:
            break
        app.frame(0.1)
    key(app, pygame.K_u)  # take it back
    msg = table.message or ""
    assert msg == "Took back the 2: your peg +2. A game with undo sets no best."
    assert session.undos == 1
    for _ in range(100):
        if table.my_turn() and table.legal:
            break
        app.frame(0.1)
    table._move_chosen([str(p) for p in table.legal].index("4:a0+4h"))
    for _ in range(300):
        if table.done_button.visible:
            break
        app.frame(0.1)
    assert table.public["phase"] == "over" and table.recorded
    assert Store(tmp_path).solo_bests() == {}  # no best from a game with undo
    assert not table.new_best
    assert "Undo was used: this game does not count for the best." in drawn(app, monkeypatch)


def test_high_contrast_is_a_setting(app: App, tmp_path: Path) -> None:
    title = app.top
    assert isinstance(title, screens.TitleScene)
    click(app, next(b for b in title.buttons if b.label == "Settings").rect.center)
    st = app.top
    assert isinstance(st, screens.SettingsScene) and st.high_contrast.value is False
    st.form.focus(st.high_contrast)
    key(app, pygame.K_RETURN)  # Enter never changes a value
    assert Store(tmp_path).settings().high_contrast is False
    st.form.focus(st.high_contrast)
    key(app, pygame.K_RIGHT)
    assert app.settings.high_contrast is True
    assert Store(tmp_path).settings().high_contrast is True


def test_renaming_in_settings_keeps_the_records(tmp_path: Path) -> None:
    st = Store(tmp_path)  # a game recorded by name, before there were player ids
    st.record_game({"table_id": "t1", "game": "track", "rules": "tees",
                    "people": [{"name": "Player", "points": 4, "won": True}]})
    st.close()
    app = table_app(tmp_path)
    try:
        assert app.settings.player_id  # the app gave this machine's player an id
        title = app.top
        assert isinstance(title, screens.TitleScene)
        click(app, next(b for b in title.buttons if b.label == "Settings").rect.center)
        for _ in range(len("Player")):
            key(app, pygame.K_BACKSPACE)
        type_text(app, "Ada")
        key(app, pygame.K_ESCAPE)  # leaving keeps the name
        click(app, next(b for b in title.buttons if b.label == "Records").rect.center)
        rec = app.top
        assert isinstance(rec, screens.RecordsScene)
        assert rec.table.rows == [["Ada", "4", "1", "1"]]
    finally:
        close_app(app)
