"""Defects left by the second playtest and found in the third pass, each pinned by a test
through the real loop (keys and clicks into the app)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.client.app import App
from game.client.session import LocalSession
from game.cpu_worker import SyncCpu
from tests.client_app import close_app, table_app
from tests.client_testing import click, drawn_texts, frames, key, type_text

#: Where the screenshots go (TEE_TABLE_SHOTS=/some/folder); unset: none are written.
SHOTS = os.environ.get("TEE_TABLE_SHOTS", "")


def shot(app: App, name: str) -> None:
    """The app's screen as ``name``.png in :data:`SHOTS` (when set)."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(Path(SHOTS) / f"{name}.png"))


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def _tees(app: App, people: list[str]) -> Any:
    s = LocalSession("track", {"rules": "tees", "seats": 4}, speed="blitz", seed=4,
                     cpu=SyncCpu(), clock=app.table_clock)
    for i, name in enumerate(people):
        assert s.sit(i, name).ok
    assert s.start().ok
    table: Any = app.open_table(s)
    frames(app, 2)
    return table


def _run(app: App, table: Any, until: Any, n: int = 600) -> bool:
    for _ in range(n):
        if until():
            return True
        if table.show_pause() and table.ready_button.visible:
            key(app, pygame.K_r)
        elif table.public.get("cover"):
            key(app, pygame.K_RETURN)  # tap in (the cover arms after a moment)
        elif table.my_turn() and table.legal_plays():  # the first play of the moves list
            if table.form.focused is not table.moves:
                key(app, pygame.K_TAB)
            key(app, pygame.K_RETURN)
        app.frame(0.1)
    return bool(until())


def test_handing_the_followed_seat_to_a_cpu_keeps_the_log_coming(app: App) -> None:
    """One person hands their own seat to a CPU: the screen's move log stopped at that play
    (its messages came from the seat's box, which nobody read any more). Now the screen
    watches on: the log keeps coming, the hand area and status line say so, and Pause,
    Leave table is the way out."""
    table = _tees(app, ["Ada"])
    assert table.session.hand_to_cpu(0).ok
    n = len(table.log.entries)
    turns = table.session.public["turns"]
    assert _run(app, table, lambda: table.session.public["turns"] >= turns + 6)
    frames(app, 60, 0.1)
    assert len(table.log.entries) >= n + 4, (n, [e.lines for e in table.log.entries])
    assert table.public["turns"] >= turns + 4  # the screen follows the table too
    assert table.status_line() == table.WATCHING_ON
    drawn = drawn_texts(app)
    assert table.WATCHING_ON in drawn
    app.draw()
    shot(app, "handed_1280")
    # the way out: Pause, Leave table, Leave
    key(app, pygame.K_p)
    frames(app, 2)
    assert table.show_pause() and table.leave_button.visible
    click(app, table.leave_button.rect.center)
    ask: Any = app.top
    assert ask is not None and ask.name == "confirm"
    key(app, pygame.K_RETURN)
    frames(app, 2)
    assert app.top is not None and app.top.name == "title"


def test_a_hot_seat_handing_the_followed_seat_follows_the_other_person(app: App) -> None:
    """Alice and Bob at one screen; Alice's seat (the one the screen followed) goes to a CPU:
    the screen follows Bob's seat (his messages, his turns), not Alice's silent box; and
    Alice takes a seat back from Pause, Sit here."""
    table = _tees(app, ["Alice", "Bob"])
    assert table.session.hand_to_cpu(0).ok
    n = len(table.log.entries)
    assert _run(app, table, lambda: len(table.log.entries) >= n + 4)
    assert table.screen_seat() == 1 and table.session.screen_seat() == 1
    key(app, pygame.K_p)
    frames(app, 2)
    assert table.show_pause() and table.sit_button.visible
    # one column of buttons of one width (Sit here was drawn wider than Ready and Leave)
    column = [table.ready_button.rect, table.leave_button.rect, table.sit_button.rect]
    assert len({(r.x, r.w) for r in column}) == 1, column
    # the keys' line ("Enter, Space, R, P or Esc: Ready, play on") under the whole column
    # (it was drawn under Leave table, where Sit here covered it)
    from game.client import theme

    app.draw()
    sit = table.sit_button.rect
    band = pygame.Rect(sit.x - sit.w // 2, sit.bottom + 2, 2 * sit.w, table.px(40))
    dim = sum(1 for x in range(band.left, band.right) for y in range(band.top, band.bottom)
              if all(abs(c - t) < 30 for c, t in zip(app.screen.get_at((x, y))[:3],
                                                     theme.TEXT_DIM, strict=True)))
    assert dim > 100, dim
    click(app, table.sit_button.rect.center)
    pick: Any = app.top
    assert pick is not None and pick.name == "seat_pick" and pick.seat_buttons
    type_text(app, "Alice")
    seat, b = pick.seat_buttons[0]
    click(app, b.rect.center)
    assert app.top is table, pick.message
    key(app, pygame.K_r)  # Ready: play on
    assert _run(app, table, lambda: seat in table.session.tokens, 2000)
    assert table.session.seats[seat]["name"] == "Alice"


# solo classic: two pegs on the ring (holes 2 and 6), three at start
SOLO_TWO = ("classic 1 solo jokers=off seven=on a:s,s,s,2,6 turn=a hand=2C,3C,4C,5C,8C "
            "cards=5 pile=151 discards=0 turns=3")


def test_solo_the_moves_list_and_the_log_say_your_peg_alike(app: App) -> None:
    """Solo: the moves list said "3: Red's back peg +3" and the move log, for the same play,
    "You played a 3: moved your back peg 3 ahead". Now both say "your back peg"."""
    from game.rules.track import RULES as TRACK
    from tests.client_testing import FixedStart

    s = LocalSession("track", {"rules": "classic", "mode": "solo", "seats": 1},
                     speed="blitz", cpu=SyncCpu(), clock=app.table_clock,
                     rules=FixedStart(TRACK, SOLO_TWO))
    assert s.sit(0, "Ada").ok and s.start().ok
    table: Any = app.open_table(s)
    for _ in range(100):
        if table.my_turn() and table.moves.rows:
            break
        app.frame(0.1)
    rows = [r[0] for r in table.moves.rows]
    k = next((i for i, r in enumerate(rows) if r.startswith("3: ") and "back peg" in r), rows)
    assert isinstance(k, int) and rows[k] == "3: your back peg +3", rows
    assert not any("Red" in r for r in rows), rows
    for _ in range(8):  # Tab along to the moves list
        if table.form.focused is table.moves:
            break
        key(app, pygame.K_TAB)
    assert table.form.focused is table.moves
    for _ in range(k):
        key(app, pygame.K_DOWN)
    assert table.moves.selected == k, (table.moves.selected, k)
    key(app, pygame.K_RETURN)
    for _ in range(100):
        if table.caught_up() and any(e.seat == 0 for e in table.log.entries):
            break
        app.frame(0.1)
    said = next(e for e in table.log.entries if e.seat == 0).lines[0]
    assert said == "You played a 3: moved your back peg 3 ahead", said


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_the_seat_panels_are_as_tall_as_their_rows(app: App, size: tuple[int, int]) -> None:
    """The Ask for a seat panel (a watcher's) had empty space under Close, kept for a
    message it had not got. Now the panel ends a margin under its last row, and grows by a
    line while it has something to say (the line then clears Close)."""
    from tests.client_testing import resize

    resize(app, *size)
    table = _tees(app, ["Ada", "Bo"])
    table.ask_for_seat()  # the watcher's Ask for a seat (its panel; the button's action)
    pick: Any = app.top
    assert pick.name == "seat_pick" and not pick.hot
    frames(app)
    margin = pick.box.bottom - pick.close_button.rect.bottom
    assert 0 < margin <= pick.px(24), (margin, pick.box, pick.close_button.rect)
    app.draw()
    shot(app, f"ask_panel_{size[0]}")
    key(app, pygame.K_ESCAPE)
    assert app.top is table
    # Sit here (Pause): Ada's screen; a click on a seat with no name says so on a new line
    key(app, pygame.K_p)
    frames(app, 2)
    click(app, table.sit_button.rect.center)
    sit: Any = app.top
    assert sit.name == "seat_pick" and sit.hot
    before = sit.box.bottom - sit.close_button.rect.bottom
    assert 0 < before <= sit.px(24)
    click(app, sit.seat_buttons[0][1].rect.center)
    assert sit.message == "Type your name first." and app.top is sit
    frames(app)
    assert sit.box.bottom - sit.close_button.rect.bottom >= before + sit.px(24)
    app.draw()
    shot(app, f"sit_panel_{size[0]}")


def test_a_narrow_trash_replay_shows_five_lines_of_its_log(app: App) -> None:
    """800x600 with the review beside the table: the Trash move log above one's layout was
    46 px tall, about two lines. The band between the others and one's layout now makes
    room for five, clear of one's name plate, places and piles."""
    from tests.client_testing import resize
    from tests.test_client_playtest import short_trash

    resize(app, 800, 600)
    assert app.open_replay(short_trash()) is None
    for _ in range(4):
        key(app, pygame.K_RIGHT)
    frames(app, 40, 0.1)
    table: Any = app.scenes[-2]
    assert not table.piles_beside  # the layout this is about
    app.draw()
    shot(app, "narrow_replay_log")
    assert table.log.page >= 5, (table.log.page, table.log_rect)  # the lines drawn
    me = table.me()
    assert not table.log_rect.colliderect(table.plate_rect(me))
    assert table.log_rect.collidelist(table.place_rects[me]) == -1
    assert not table.log_rect.colliderect(table.stock_rect)
    assert table.log_rect.collidelist([r for s, rs in table.place_rects.items() if s != me
                                       for r in rs]) == -1


@pytest.mark.parametrize("size", [(800, 600), (1280, 720), (960, 540)])
def test_the_bottom_rows_place_numbers_stay_inside_the_window(
        app: App, size: tuple[int, int]) -> None:
    """At 800x600 the place numbers under one's bottom Trash row sat at the window's edge
    (their text 6 px from it, like the cards' own margin). Now a clear margin: the lowest
    pixel drawn under the layout is at least 28 design px (18 px at 800x600) above the
    edge, and the numbers are drawn."""
    from tests.client_testing import resize

    resize(app, *size)
    s = LocalSession("layout", {"seats": 3, "layout_size": 10}, speed="blitz", seed=2,
                     cpu=SyncCpu(), clock=app.table_clock)
    assert s.sit(0, "Ada").ok and s.start().ok
    table: Any = app.open_table(s)
    frames(app, 30, 0.1)
    app.draw()
    shot(app, f"trash_bottom_{size[0]}")
    h = size[1]
    row = table.place_rects[table.me()][5:]
    back = app.backdrop()
    drawn = [y for y in range(row[0].bottom, h) for x in range(row[0].left, row[-1].right)
             if app.screen.get_at((x, y)) != back.get_at((x, y))]
    assert drawn, "no place numbers under the bottom row"
    assert h - 1 - max(drawn) >= table.px(28), (h - 1 - max(drawn), table.px(28))


@pytest.mark.parametrize("game", ["track", "layout"])
def test_both_tables_draw_the_one_info_line(app: App, game: str) -> None:
    """The track and Trash scenes each built their info line (the speed, who is watching)
    in their own words; both now draw TableScene.info_text: the track's "Speed: blitz",
    Trash's "Hand 1   Speed: blitz", and the watchers' names after them."""
    if game == "track":
        table = _tees(app, ["Ada"])
        want = "Speed: blitz"
    else:
        s = LocalSession("layout", {"seats": 2, "layout_size": 4}, speed="blitz", seed=2,
                         cpu=SyncCpu(), clock=app.table_clock)
        assert s.sit(0, "Ada").ok and s.start().ok
        table = app.open_table(s)
        frames(app, 3)
        want = "Hand 1   Speed: blitz"
    drawn = drawn_texts(app, "fit_text")
    assert want in drawn, drawn
    table.watching_text = lambda: "Watching: Cid, Dee"  # as the public summary says
    drawn = drawn_texts(app, "fit_text")
    assert f"{want}   Watching: Cid, Dee" in drawn, drawn


# classic, 4 seats: Red to play its last card, Blue and Green with one each, Yellow two
ONE_CARD = ("classic 4 teams2 jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,s c:s,s,s,s,s "
            "d:s,s,s,s,s turn=a hand=2C cards=1,1,2,1 pile=157 discards=0")


def test_a_seat_plate_with_one_card_says_one_card(app: App) -> None:
    """The seat plates said "1 cards" (and "0 cards" is fine): now "1 card"."""
    from tests.client_app import open_fixed_table

    table = open_fixed_table(app, ONE_CARD)
    frames(app, 5, 0.1)
    drawn = drawn_texts(app)
    plates = [d for d in drawn if d.endswith((" card", " cards"))]
    assert plates.count("1 card") == 3 and plates.count("2 cards") == 1, plates
    assert "1 cards" not in plates
    assert table.public["phase"] == "playing"


def test_trash_says_your_turn_while_paused_on_it(app: App) -> None:
    """Trash, one person: paused on their own turn (or while their drawn card lands) the
    status said "Ada's turn", naming the person to themselves; the track table says "Your
    turn". Now Trash does too."""
    s = LocalSession("layout", {"seats": 2, "layout_size": 4}, speed="blitz", seed=2,
                     cpu=SyncCpu(), clock=app.table_clock)
    assert s.sit(0, "Ada").ok and s.start().ok
    table: Any = app.open_table(s)
    frames(app, 2)
    for _ in range(200):
        if table.my_turn() and table.legal_plays():
            break
        app.frame(0.1)
    assert table.my_turn()
    key(app, pygame.K_p)  # Pause on Ada's turn
    frames(app, 2)
    assert table.show_pause() and table.view().get("turn") == 0
    drawn = drawn_texts(app, "fit_text")
    assert "Your turn" in drawn and "Ada's turn" not in drawn, drawn[:4]


@pytest.mark.parametrize("game", ["layout", "track"])
def test_p_in_the_tables_first_frame_pauses(app: App, game: str) -> None:
    """A table's end-panel buttons were visible until its first update, so a key handled in
    its first frame (events come before the update) went to the end panel's keys: P did
    nothing. Now P pauses from the first frame."""
    s = LocalSession(game, {"seats": 2, "layout_size": 4} if game == "layout" else
                     {"rules": "tees", "seats": 4}, speed="blitz", seed=2, cpu=SyncCpu(),
                     clock=app.table_clock)
    assert s.sit(0, "Ada").ok and s.start().ok
    table: Any = app.open_table(s)
    key(app, pygame.K_p)  # the table's first frame
    frames(app, 2)
    assert table.show_pause() and table.manual_pause() is not None


def test_a_reopened_table_says_how_far_it_got(app: App) -> None:
    """Leave a game (Esc, Leave table, Leave) and Continue it from the title: the new
    screen's move log said "Nothing played yet." at turn 6. It now starts with how many
    turns were played before it."""
    key(app, pygame.K_RETURN)  # Play
    nt: Any = app.top
    click(app, nt.start_button.rect.center)
    key(app, pygame.K_s)  # the lobby: Start
    table: Any = app.top
    assert table.name == "track_table"
    assert _run(app, table, lambda: table.session.public["turns"] >= 4, 3000)
    key(app, pygame.K_ESCAPE)  # pause
    frames(app, 2)
    click(app, table.leave_button.rect.center)
    key(app, pygame.K_RETURN)  # Leave
    title: Any = app.top
    assert title.name == "title" and title.continue_button.visible
    click(app, title.continue_button.rect.center)
    again: Any = app.top
    assert again.name == "track_table" and again is not table
    turns = again.session.public["turns"]
    assert turns >= 4
    assert again.log.entries[0].lines == [f"{turns} turns played before this screen"]
    app.draw()


def test_joining_says_connecting_once(tmp_path: Path) -> None:
    """Join a game, an address nobody answers at (loopback): the lobby said "Connecting to
    the table (connecting)...". Now "Connecting to the table...", until the join gives up
    and the Join screen says why."""
    from tests.client_app import pump

    app = table_app(tmp_path, virtual_time=False, loopback=True)
    try:
        title: Any = app.top
        click(app, next(b for b in title.buttons if b.label == "Join a game").rect.center)
        type_text(app, "127.0.0.1:9")  # the discard port: nothing listens there
        key(app, pygame.K_RETURN)
        assert app.top is not None and app.top.name == "lobby"
        drawn = drawn_texts(app)
        assert "Connecting to the table..." in drawn, drawn
        lobby: Any = app.top
        # Back is the only button while connecting: in the middle, not left of a gap
        assert not lobby.start_button.visible and not lobby.ready_button.visible
        assert abs(lobby.back_button.rect.centerx - app.screen.get_width() // 2) <= 1
        assert pump(app, lambda: app.top is not None and app.top.name == "join", 20)
    finally:
        close_app(app)


def test_tab_then_enter_plays_every_turn(app: App) -> None:
    """The moves list says "Tab then Enter". After a play made so, the list kept the focus,
    so at the next turn Tab moved it on to Pause and Enter paused the game (every other turn
    for a player at the keyboard). Now each turn's Tab comes to the list."""
    title: Any = app.top
    click(app, next(b for b in title.buttons if b.label == "Solo").rect.center)
    for _ in range(12):  # Enter walks down the rows to Start
        if app.top is None or app.top.name != "new_table":
            break
        key(app, pygame.K_RETURN)
    table: Any = app.top
    assert table.name == "track_table"
    for turn in range(3):
        for _ in range(200):
            if table.my_turn() and table.legal_plays():
                break
            app.frame(0.1)
        n = table.session.public["state_no"]
        key(app, pygame.K_TAB)
        assert table.form.focused is table.moves, (turn, table.form.focused)
        key(app, pygame.K_RETURN)
        assert table.session.public["state_no"] == n + 1 and not table.show_pause(), turn


def test_trash_hot_seat_shows_each_persons_turn_on_their_own_layout(app: App) -> None:
    """Alice and Bob at one screen: as soon as Bob's play went in, the table turned to
    Alice (the screen's owner moves on at once), so Bob's drawn card and his chain flew
    into Alice's layout at the bottom while his own, small at the top, showed nothing until
    the end. Now the table stays laid out for Bob until his turn has been shown."""
    s = LocalSession("layout", {"seats": 3, "layout_size": 10}, speed="blitz", seed=0,
                     cpu=SyncCpu(), clock=app.table_clock)
    assert s.sit(0, "Alice").ok and s.sit(1, "Bob").ok and s.start().ok
    table: Any = app.open_table(s)
    frames(app, 2)
    bob_played = False
    for _ in range(600):
        legal = table.legal_plays()
        if legal and table.view()["pending"] == "source":
            bob = table.me() == 1
            click(app, (table.stock_rect if "S" in legal else table.discard_rect).center)
            if bob and table.session.public["to_move"] != 1:
                bob_played = True
                break
        elif legal:
            click(app, table.place_rects[table.me()][int(legal[0][1:]) - 1].center)
            if table.me() == 1 and table.session.public["to_move"] != 1:
                bob_played = True
                break
        app.frame(0.1)
    assert bob_played
    seen = 0
    for _ in range(400):  # Bob's turn animates: his layout stays at the bottom
        if table.view().get("turn") == 1:
            seen += 1
            assert table.me() == 1 and table.laid_for == 1
        if table.timeline.idle and table.caught_up():
            break
        app.frame(1 / 30)
    assert seen > 1
