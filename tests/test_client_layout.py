"""The layout game (Trash) table scene, driven through the real loop."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.client.layout_scene import LayoutTableScene
from game.client.lobby import LobbyScene
from game.client.session import LocalSession
from game.cpu_worker import SyncCpu
from game.rules.cards import parse_card
from game.rules.layout import RULES as LAYOUT
from tests.client_app import close_app, table_app
from tests.client_testing import FixedStart, click, frames, key, resize

WILD_POSITION = (
    "layout seats=4 wild=J lastchance=0 upcard=0 size=10 first=- seed=0 hand=1 leader=0 "
    "turn=0 phase=wild hold=JC passes=0 ply=0 rng=1 last=- sizes=10,10,10,10 "
    "p0=?7H,?5C,?2H,?9S,?TS,?QH,?4D,?8C,?6S,?KD p1=?AS,?2S,?3S,?4S,?5S,?6D,?7S,?8S,?9D,?TD "
    "p2=?AC,?2C,?3C,?4C,?5D,?6C,?7C,?8D,?9C,?TC p3=?AH,?2D,?3H,?4H,?5H,?6H,?7D,?8H,?9H,?TH "
    "stock=4S,3D discard=-"
)


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def open_trash(app: App, seats: int = 4) -> LayoutTableScene:
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    nt.form.focus(nt.game)
    key(app, pygame.K_RIGHT)  # Trash
    assert nt.game.value == "layout"
    nt.seats.set_options(nt.seats.options, seats)
    nt.speed.set_options(nt.speed.options, "blitz")
    click(app, nt.start_button.rect.center)
    lobby = app.top
    assert isinstance(lobby, LobbyScene), nt.error
    key(app, pygame.K_s)
    table = app.top
    assert isinstance(table, LayoutTableScene)
    return table


def test_four_players_play_to_a_hand_win_by_clicks(app: App) -> None:
    table = open_trash(app)
    assert len(table.session.seats) == 4
    sources = 0
    banner_seen = False
    for _ in range(4000):
        if table.view().get("hand", 1) >= 2 or table.public["phase"] == "over":
            break
        legal = table.legal_plays()
        if legal:
            v = table.view()
            if v["pending"] == "source":
                target = table.stock_rect if "S" in legal else table.discard_rect
                click(app, target.center)
                sources += 1
            else:
                place = int(legal[0][1:])
                click(app, table.place_rects[table.me()][place - 1].center)
        app.frame(0.2)
        banner_seen = banner_seen or bool(table.banner)
    v = table.view()
    assert v["hand"] >= 2 and sources > 0
    assert banner_seen  # the hand-won screen was shown
    assert sum(v["won"]) >= 1 and sorted(v["sizes"])[0] <= 9
    for _ in range(200):
        app.frame(0.2)
    assert table.timeline.idle
    # once idle the display is the view
    assert table.shown["layouts"] == table.view()["layouts"]


def _wild_choice(app: App) -> LayoutTableScene:
    # the table starts in the hand-written position (its public API: a rules object whose
    # new game is that position)
    s = LocalSession("layout", {"seats": 4}, speed="blitz", cpu=SyncCpu(),
                     clock=app.table_clock, rules=FixedStart(LAYOUT, WILD_POSITION))
    assert s.sit(0, "Player").ok and s.start().ok
    table = app.open_table(s)
    assert isinstance(table, LayoutTableScene)
    for _ in range(20):
        app.frame(0.5)  # let the opening animations finish
    table.timeline.finish()
    frames(app)
    assert table.my_turn() and table.view()["pending"] == "wild"
    assert table.legal_plays() == [f"W{i}" for i in range(1, 11)]
    return table


def test_person_places_a_jack_by_click(app: App) -> None:
    table = _wild_choice(app)
    click(app, table.place_rects[0][2].center)  # place 3
    assert table.session.table.log[-1] == (0, "W3")
    lay = table.session.view(0)["layouts"][0]
    # JC on 3 revealed 2H -> place 2 revealed 5C -> place 5 revealed TS -> place 10
    # revealed KD: stop
    assert lay[2] == parse_card("JC") and lay[1] == parse_card("2H")
    assert lay[4] == parse_card("5C") and lay[9] == parse_card("TS")
    assert table.session.view(0)["discard"][-1] == parse_card("KD")


def test_person_places_a_jack_by_key_and_a_wrong_key_changes_nothing(app: App) -> None:
    table = _wild_choice(app)
    n = table.session.table.state_no
    key(app, pygame.K_s)  # not now: a wild card waits
    assert table.session.table.state_no == n and table.message
    key(app, pygame.K_7)
    assert table.session.table.log[-1] == (0, "W7")
    assert table.session.view(0)["layouts"][0][6] == parse_card("JC")


def test_hint_names_the_place_and_why_without_waiting(app: App) -> None:
    from concurrent.futures import Future

    asked: list[list[str]] = []
    fut: Future[tuple[str, str]] = Future()
    fut.set_running_or_notify_cancel()

    class Held:
        def ask(self, game: str, view: object, legal: list[str], seed: int,
                budget_ms: float = 300.0) -> Future[tuple[str, str]]:
            assert game == "layout"
            asked.append(legal)
            return fut

        def warm(self) -> None:
            pass

        def close(self) -> None:
            pass

    app._hints = Held()
    table = _wild_choice(app)
    key(app, pygame.K_h)
    assert asked == [[f"W{i}" for i in range(1, 11)]]
    assert table.message == "Hint: thinking..."
    n = table.session.table.state_no
    fut.set_result(("W6", "6 is the place you are least likely to fill"))
    frames(app)
    assert table.message == "Hint: put the wild card on place 6"
    assert table.hint_status() == {"play": "W6",
                                   "reason": "6 is the place you are least likely to fill"}
    assert table.session.table.state_no == n  # a hint never plays


@pytest.mark.parametrize("size", [(1280, 720), (1000, 800), (800, 600)])
def test_the_hints_why_keeps_clear_of_the_move_log_and_the_layout(app: App,
                                                                   size: tuple[int, int]) -> None:
    """At 1280x720 the "Why" box of a hint was drawn over the top of the move log (its
    "Turns so far" line and first entries). It must cover neither the log, one's own places,
    one's name plate nor the piles, at a window where the log is beside one's layout
    (1280x720), above it (1000x800) or the piles are above it (800x600)."""
    resize(app, *size)
    table = _wild_choice(app)
    table.hint, table.hint_reason = "W6", "6 is the place you are least likely to fill " * 2
    drawn: list[pygame.Rect | None] = []
    real = table.draw_hint_reason

    def spy(surf: pygame.Surface, rect: pygame.Rect) -> pygame.Rect | None:
        drawn.append(real(surf, rect))
        return drawn[-1]

    table.draw_hint_reason = spy  # type: ignore[method-assign]
    frames(app)
    box = drawn[-1]
    assert box is not None
    me = table.me()
    assert not box.colliderect(table.log_rect), (box, table.log_rect)
    assert box.collidelist(table.place_rects[me]) == -1
    assert not box.colliderect(table.plate_rect(me))
    assert not box.colliderect(table.stock_rect) and not box.colliderect(table.discard_rect)
    assert app.screen.get_rect().contains(box)


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_every_table_size_fits_and_the_own_layout_is_largest(app: App,
                                                             size: tuple[int, int]) -> None:
    from tests.client_testing import resize

    resize(app, *size)
    screen = pygame.Rect(0, 0, *size)
    for n in range(2, 9):
        s = LocalSession("layout", {"seats": n}, speed="blitz", cpu=SyncCpu(),
                         clock=app.table_clock)
        s.sit(0, "Player")
        table = app.open_table(s)
        assert isinstance(table, LayoutTableScene)
        frames(app)
        mine = table.place_rects[0]
        everything = [r for rects in table.place_rects.values() for r in rects]
        everything += [table.stock_rect, table.discard_rect]
        assert all(screen.contains(r) for r in everything), (n, size)
        for seat, rects in table.place_rects.items():
            if seat != 0:
                assert rects[0].h < mine[0].h, (n, size, seat)
        # no two places (of any layouts) and no pile overlap
        for i, a in enumerate(everything):
            assert a.collidelist(everything[i + 1:]) == -1, (n, size, a)
        s.close()
        app.pop()


def test_a_smaller_layout_draws_only_its_places(app: App) -> None:
    """A layout of 4 (a shorter game, or a seat that won hands) shows four cards; places 5-10
    are empty outlines. (The seat plate's text size once took the layout size's name, and
    every layout was drawn with ten cards.) Seed 0: the person leads, so no play turns a
    card face up while the deal is shown (a random seed let the CPU lead and play: flaky)."""
    s = LocalSession("layout", {"seats": 2, "layout_size": 4}, speed="blitz", cpu=SyncCpu(),
                     clock=app.table_clock, seed=0)
    assert s.sit(0, "Player").ok and s.start().ok
    table = app.open_table(s)
    assert isinstance(table, LayoutTableScene)
    for _ in range(20):
        app.frame(0.5)
    table.timeline.finish()
    frames(app)
    assert table.shown["sizes"] == [4, 4] and table.public["to_move"] == 0
    app.draw()
    def near(c: pygame.Color, d: pygame.Color) -> bool:
        return max(abs(c.r - d.r), abs(c.g - d.g), abs(c.b - d.b)) <= 16

    for seat in (0, 1):
        rects = table.place_rects[seat]
        back = app.screen.get_at(rects[0].center)
        assert all(near(app.screen.get_at(r.center), back) for r in rects[:4])  # 4 cards
        empty = [app.screen.get_at(r.center) for r in rects[4:]]
        assert not [c for c in empty if near(c, back)], (seat, empty, back)
