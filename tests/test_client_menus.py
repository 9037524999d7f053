"""The client's menus, driven through the real event loop with synthetic keys and clicks."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.store import Store
from tests.client_testing import click, frames, key, make_app, resize, type_text


@pytest.fixture
def app(tmp_path: Path):
    a = make_app(tmp_path)
    frames(a)
    yield a
    a.close()


def top_name(app: App) -> str:
    assert app.top is not None
    return app.top.name


def test_title_keyboard_navigation_opens_each_screen_and_esc_returns(app: App) -> None:
    # Title order: Play, Host, Join, Solo, Records, Settings, Rules, Quit
    expected = ["new_table", "new_table", "join", "new_table", "records", "settings", "rules"]
    for i, name in enumerate(expected):
        for _ in range(i):
            key(app, pygame.K_DOWN)
        key(app, pygame.K_RETURN)
        assert top_name(app) == name, f"item {i}"
        key(app, pygame.K_ESCAPE)
        assert top_name(app) == "title"
        # focus is back on the first item after returning? It stays where it was: go home
        for _ in range(i):
            key(app, pygame.K_UP)


def test_title_tab_and_shift_tab_wrap_around(app: App) -> None:
    title = app.top
    assert title is not None
    key(app, pygame.K_TAB, pygame.KMOD_SHIFT)  # from Play back to Quit
    assert title.form.focused.label == "Quit"  # type: ignore[union-attr]
    key(app, pygame.K_TAB)
    assert title.form.focused.label == "Play"  # type: ignore[union-attr]


def test_title_mouse_click_opens_rules_and_back_button_returns(app: App) -> None:
    title = app.top
    assert isinstance(title, screens.TitleScene)
    rules_button = next(b for b in title.buttons if b.label == "Rules")
    click(app, rules_button.rect.center)
    assert isinstance(app.top, screens.RulesScene)
    rules = app.top
    key(app, pygame.K_RIGHT)  # the page chooser has the focus: next page
    assert rules.page.value == "classic"
    click(app, rules.back_button.rect.center)
    assert isinstance(app.top, screens.TitleScene)


def test_press_outside_then_release_on_button_does_nothing(app: App) -> None:
    title = app.top
    assert isinstance(title, screens.TitleScene)
    quit_button = next(b for b in title.buttons if b.label == "Quit")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(2, 2), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=quit_button.rect.center,
                                         button=1))
    frames(app)
    assert app.running


def test_quit_button_and_window_close_stop_the_loop(tmp_path: Path) -> None:
    a = make_app(tmp_path)
    title = a.top
    assert isinstance(title, screens.TitleScene)
    click(a, next(b for b in title.buttons if b.label == "Quit").rect.center)
    assert not a.running
    a.close()
    b = make_app(tmp_path)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert b.run(max_frames=50) == 0
    assert not b.running and b.frames == 0  # quit before the first frame was drawn
    b.close()


def test_resize_relayouts_every_scene_inside_the_window(app: App) -> None:
    key(app, pygame.K_TAB, n=1)  # Host a game
    key(app, pygame.K_RETURN)
    assert top_name(app) == "new_table"
    for w, h in ((800, 600), (1920, 1080), (640, 480)):
        resize(app, w, h)
        assert app.size == (w, h)
        for scene in app.scenes:
            assert scene.size == (w, h)
            for wd in scene.form.widgets:
                if wd.visible:
                    assert app.screen.get_rect().contains(wd.rect), (scene.name, wd, w, h)


def test_resize_is_clamped_to_a_minimum(app: App) -> None:
    resize(app, 100, 50)
    assert app.size == (480, 360)


def test_new_table_choices_follow_the_spec_table(app: App) -> None:
    s = app.push(screens.NewTableScene(app, "local"))
    assert isinstance(s, screens.NewTableScene)
    frames(app)
    assert s.config() == {"game": "track", "rules": "tees", "mode": "teams", "seats": 4,
                          "teams": 2}
    # tees: teams of two only, 4 or 6 seats; 6 seats are three teams of two
    assert [v for v, _ in s.mode.options] == ["teams"]
    s.seats.step(1)
    assert s.config()["seats"] == 6 and s.config()["teams"] == 3
    # classic: 8 seats in teams may be 2x4 or 4x2; free-for-all 3 to 8
    s.rules.step(1)
    assert s.rules.value == "classic"
    s.seats.step(1)
    assert s.seats.value == 8
    assert [v for v, _ in s.teams.options] == [2, 4]
    s.mode.step(1)
    assert s.mode.value == "h2h" and [v for v, _ in s.seats.options] == [2]
    s.mode.step(1)
    assert s.mode.value == "ffa" and [v for v, _ in s.seats.options] == [3, 4, 5, 6, 7, 8]
    assert not s.teams.visible and "teams" not in s.config()
    # the layout game: 2 to 8 seats and its four options
    s.game.step(1)
    frames(app)
    assert not s.rules.visible and s.wild.visible
    s.wild.step(1)
    s.layout_size.step(1)
    s.last_chance.step(1)
    cfg = s.config()
    assert cfg == {"game": "layout", "seats": cfg["seats"], "wild": "K", "last_chance": True,
                   "upcard": False, "layout_size": 9}
    assert 2 <= cfg["seats"] <= 8


def test_solo_offers_only_solo_rule_sets(app: App) -> None:
    s = app.push(screens.NewTableScene(app, "solo"))
    assert isinstance(s, screens.NewTableScene)
    assert [v for v, _ in s.rules.options] == ["classic", "team"]
    assert s.config() == {"game": "track", "rules": "classic", "mode": "solo", "seats": 1}
    assert not s.game.enabled


def test_join_rejects_a_bad_code_with_a_clear_message(app: App) -> None:
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    s = app.top
    assert isinstance(s, screens.JoinScene)
    assert s.form.focused is s.entry
    type_text(app, "KQ0")
    key(app, pygame.K_RETURN)
    assert s.error is not None and "4 letters" in s.error
    key(app, pygame.K_BACKSPACE)
    assert s.entry.text == "KQ" and s.error is None
    type_text(app, "XL")
    key(app, pygame.K_RETURN)
    assert s.error is not None and "L" in s.error
    # space typed in the box is text, not a button press
    key(app, pygame.K_SPACE)
    assert isinstance(app.top, screens.JoinScene)


@pytest.mark.parametrize("reason,words", [
    ("wrong_code", "code"), ("table_full", "full"), ("version", "version"),
    ("host_gone", "stopped answering"),
])
def test_join_failure_messages(reason: str, words: str) -> None:
    assert words in screens.join_message(reason)


def test_settings_round_trip_through_the_store(app: App, tmp_path: Path) -> None:
    s = app.push(screens.SettingsScene(app))
    assert isinstance(s, screens.SettingsScene)
    frames(app)
    assert s.form.focused is s.name_input
    for _ in range(len("Player")):
        key(app, pygame.K_BACKSPACE)
    type_text(app, "Ada")
    key(app, pygame.K_DOWN)  # colour
    key(app, pygame.K_RIGHT)  # -> red
    key(app, pygame.K_RIGHT)  # -> blue
    key(app, pygame.K_DOWN)  # sound
    key(app, pygame.K_RETURN)  # Enter never changes a value: it moves on to the volume
    assert s.sound.value is True and s.form.focused is s.volume
    key(app, pygame.K_UP)
    key(app, pygame.K_SPACE)  # Space (or Left / Right) toggles it off
    key(app, pygame.K_DOWN)  # volume
    key(app, pygame.K_LEFT)
    key(app, pygame.K_LEFT)  # 80 -> 70
    key(app, pygame.K_DOWN)  # animation
    key(app, pygame.K_RIGHT)  # full -> reduced
    assert s.error is None
    key(app, pygame.K_ESCAPE)  # leaving keeps the typed name
    assert isinstance(app.top, screens.TitleScene)
    saved = Store(tmp_path).settings()
    assert (saved.name, saved.colour, saved.sound, saved.volume, saved.animation) == \
        ("Ada", "blue", False, 0.7, "reduced")
    assert app.assets.muted and app.assets.volume == pytest.approx(0.7)
    # a new app reads them back
    app2 = App((800, 600), fullscreen=False, store=Store(tmp_path))
    s2 = app2.push(screens.SettingsScene(app2))
    assert isinstance(s2, screens.SettingsScene)
    assert s2.name_input.text == "Ada" and s2.colour.value == "blue"
    assert s2.sound.value is False and s2.volume.value == 70
    app2.close()


def test_settings_volume_slider_by_mouse_drag(app: App, tmp_path: Path) -> None:
    s = app.push(screens.SettingsScene(app))
    assert isinstance(s, screens.SettingsScene)
    frames(app)
    track = s.volume._track()
    click(app, (track.x + 2, track.centery))  # press at the left end
    assert s.volume.value == 0
    assert Store(tmp_path).settings().volume == 0.0


def test_settings_empty_name_is_refused_and_not_saved(app: App, tmp_path: Path) -> None:
    s = app.push(screens.SettingsScene(app))
    assert isinstance(s, screens.SettingsScene)
    for _ in range(10):
        key(app, pygame.K_BACKSPACE)
    assert s.error is not None and "empty" in s.error
    key(app, pygame.K_RETURN)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, screens.TitleScene)
    assert Store(tmp_path).settings().name == "Player"


def test_f11_toggles_fullscreen_and_remembers_it(app: App, tmp_path: Path) -> None:
    key(app, pygame.K_F11)
    assert app.fullscreen
    assert Store(tmp_path).settings().fullscreen is True
    key(app, pygame.K_F11)
    assert not app.fullscreen
    assert app.size == (1280, 720)
    assert Store(tmp_path).settings().fullscreen is False


def test_records_screen_shows_the_store(tmp_path: Path) -> None:
    st = Store(tmp_path)
    st.record_game({"table_id": "t1", "game": "track", "rules": "tees",
                    "people": [{"name": "Ada", "points": 6, "won": True}]})
    st.record_solo("team", 37, 99)
    st.close()
    a = make_app(tmp_path)
    key(a, pygame.K_DOWN, n=1)
    for _ in range(3):
        key(a, pygame.K_DOWN)
    key(a, pygame.K_RETURN)
    s = a.top
    assert isinstance(s, screens.RecordsScene)
    assert s.table.rows == [["Ada", "6", "1", "1"]]
    assert s.bests == {"team": (37, 99)}
    frames(a, 2)
    a.close()


def test_rules_pages_fit_their_panel_at_both_sizes(tmp_path: Path) -> None:
    for size in ((1280, 720), (800, 600)):
        a = make_app(tmp_path, size)
        s = a.push(screens.RulesScene(a))
        assert isinstance(s, screens.RulesScene)
        for page in ("tees", "classic", "team", "solo", "trash"):
            s.page.set_options(s.page.options, page)
            lines = s.fitted_lines()
            height = sum(int(p * 1.2) + (s.px(8) if head else 0) for _, head, p in lines)
            assert height <= s.text_rect.h, (size, page)
            assert min(p for _, _, p in lines) >= 14, (size, page)  # still readable
            assert all(a.assets.font(p).size(t)[0] <= s.text_rect.w - s.px(20)
                       for t, _, p in lines), (size, page)
        a.close()


def test_the_rules_screen_has_its_title_above_the_rule_set(tmp_path: Path) -> None:
    """Every menu screen names itself at the top; the Rules screen started with its chooser."""
    from game.client import theme

    for size in ((1280, 720), (800, 600)):
        a = make_app(tmp_path, size)
        s = a.push(screens.RulesScene(a))
        frames(a, 2)
        w = size[0]
        band = pygame.Rect(w // 2 - s.px(120), 0, s.px(240), s.page.rect.top)
        assert band.h > s.px(60)  # room for the title above the chooser
        title = sum(1 for x in range(band.left, band.right, 2)
                    for y in range(band.top, band.bottom, 2)
                    if all(abs(c - t) < 24 for c, t in zip(a.screen.get_at((x, y))[:3],
                                                           theme.ACCENT, strict=True)))
        assert title > 80, (size, title)  # the title's letters, in the accent colour
        a.close()


def test_run_opens_the_title_and_returns_zero(tmp_path: Path) -> None:
    from game.client.app import run

    assert run((800, 600), fullscreen=False, frames=3, data=tmp_path) == 0
    pygame.display.init()  # run() quits pygame; the other tests expect it ready
    pygame.font.init()


def test_settings_say_which_track_engine_runs() -> None:
    """Issue 21: the window says which engine runs, so a weaker Nasty is never a secret."""
    from game.client.screens import engine_line
    from game.rules.track import engine

    was = engine.FAST
    try:
        engine.set_fast(False)
        assert "Python only" in engine_line() and "half as many" in engine_line()
        engine.set_fast(True)
        if engine.FAST:  # the C core is built here
            assert "C core" in engine_line()
    finally:
        engine.set_fast(bool(was))
