"""The track table scene, driven through the real loop with synthetic keys and clicks.

Tables run on frame time here (``app.virtual_time``) with the synchronous CPU runner, so a
whole game takes seconds and nothing depends on the wall clock.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.client import screens
from game.client.app import App
from game.client.describe import describe_parts
from game.client.lobby import LobbyScene
from game.client.table_scene import TrackTableScene, describe_token
from game.rules.track import RULES as TRACK
from game.store import Store
from tests.client_app import SPLIT_POSITION, close_app, open_fixed_table, table_app
from tests.client_testing import click, frames, key, type_text


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def open_local_table(app: App, seats: int = 4, speed: str = "blitz",
                     rules: str = "classic", extra_people: int = 0) -> TrackTableScene:
    """Title -> Play -> New table (by keys) -> lobby -> Start; returns the table scene."""
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    nt.rules.set_options(nt.rules.options, rules)
    nt._changed(None)
    nt.seats.set_options(nt.seats.options, seats)
    nt._changed(None)
    nt.speed.set_options(nt.speed.options, speed)
    nt.form.focus(nt.start_button)
    key(app, pygame.K_RETURN)
    lobby = app.top
    assert isinstance(lobby, LobbyScene), nt.error
    assert lobby.session.local_seats == [0]
    for k in range(extra_people):
        click(app, lobby.seat_rects[k + 1].center)  # hot seat: more people on this screen
    key(app, pygame.K_s)
    table = app.top
    assert isinstance(table, TrackTableScene)
    return table


def test_local_tees_table_plays_to_the_end_and_records_points(app: App,
                                                               tmp_path: Path) -> None:
    table = open_local_table(app, rules="tees")
    assert table.session.config["rules"] == "tees"
    my_plays = 0
    for _ in range(6000):
        if table.public["phase"] == "over":
            break
        if table.my_turn() and table.legal_plays():
            # by keyboard: Tab to the moves list, Enter plays the selected (first) move
            before = table.session.table.state_no
            if table.form.focused is not table.moves:
                key(app, pygame.K_TAB)
            assert table.form.focused is table.moves
            key(app, pygame.K_RETURN)
            assert table.session.table.state_no == before + 1
            my_plays += 1
        app.frame(0.25)
    assert table.public["phase"] == "over"
    assert my_plays > 5
    for _ in range(400):  # let the animations finish
        if table.done_button.visible:
            break
        app.frame(0.25)
    assert table.done_button.visible and table.recorded
    rows = Store(tmp_path).points()
    assert [r.name for r in rows] == ["Player"] and rows[0].played == 1
    won = 0 in table.public["outcome"]["winners"]
    assert rows[0].won == int(won)
    # tees, 2 teams of 2: the winning team is two seats; the two Tricky CPUs of the other
    # team are beaten, 2 points each (spec table.md section 6)
    assert len(table.public["outcome"]["winners"]) == 2
    assert rows[0].points == (4 if won else 0)
    click(app, table.done_button.rect.center)
    assert isinstance(app.top, screens.TitleScene)


def test_split_seven_chosen_by_clicks(app: App) -> None:
    table = open_fixed_table(app)
    frames(app)
    assert table.my_turn()
    g = table.geom
    assert g is not None
    from game.client.board import ring

    click(app, table.card_rects[5].center)  # the 7
    assert table.choice.card == 5
    click(app, g.point(ring(12)))  # peg a12
    assert table.choice.peg == (0, 12)
    tags = {h.index: tag for h, tag, _ in table.targets()}
    assert tags == {13: "+1", 14: "+2", 15: "+3", 16: "+4", 17: "+5", 18: "+6", 19: "+7"}
    click(app, g.point(ring(15)))  # three short of... a split: 3 now, 4 for the other peg
    assert table.choice.first == ((0, 12), 15)
    assert table.choice.peg2 == (0, 20)  # the only other peg is picked for us
    assert {h.index: tag for h, tag, _ in table.targets()} == {24: "+4"}
    n = table.session.table.state_no
    click(app, g.point(ring(24)))
    assert table.session.table.log[-1] == (0, "7:a12+3,a20+4")
    assert table.session.table.state_no == n + 1


def test_split_can_start_with_either_peg_and_full_count_plays_at_once(app: App) -> None:
    table = open_fixed_table(app)
    frames(app)
    g = table.geom
    assert g is not None
    from game.client.board import ring

    key(app, pygame.K_6)
    click(app, g.point(ring(20)))
    click(app, g.point(ring(27)))  # the full 7 on a20
    assert table.session.table.log[-1] == (0, "7:a20+7")


def test_undo_and_clear_the_choice_in_progress(app: App) -> None:
    table = open_fixed_table(app)
    frames(app)
    g = table.geom
    assert g is not None
    from game.client.board import ring

    n = table.session.table.state_no
    key(app, pygame.K_6)
    click(app, g.point(ring(12)))
    click(app, g.point(ring(15)))
    assert table.choice.first is not None
    key(app, pygame.K_u)  # back to the first part (the auto-picked second peg goes first)
    key(app, pygame.K_u)
    assert table.choice.first is None and table.choice.peg == (0, 12)
    key(app, pygame.K_ESCAPE)
    assert table.choice.card is None and table.choice.peg is None
    assert table.session.table.state_no == n  # nothing was sent
    assert not table.paused()
    key(app, pygame.K_ESCAPE)  # with nothing chosen, Esc pauses
    assert table.paused()


def test_pause_freezes_animations_and_ready_resumes(app: App) -> None:
    table = open_local_table(app, speed="normal")
    # wait until something is animating
    for _ in range(400):
        if table.my_turn() and table.legal_plays():
            table._move_chosen(0)
        app.frame(0.05)
        if table.timeline.pegs()[0]:
            break
    assert table.timeline.pegs()[0]
    click(app, table.pause_button.rect.center)
    assert table.paused() and table.ready_button.visible
    assert table.manual_pause() == {"reason": "paused", "by": 0, "name": "Player"}
    where = dict(table.timeline.pegs()[0])
    n = table.session.table.state_no
    for _ in range(50):
        app.frame(0.1)
    assert table.timeline.pegs()[0] == where
    assert table.session.table.state_no == n  # no CPU played while paused
    click(app, table.ready_button.rect.center)
    assert not table.paused()
    for _ in range(60):
        app.frame(0.1)
    assert table.session.table.state_no > n or table.timeline.pegs()[0] != where


def test_hot_seat_covers_the_hand_until_its_owner_taps_in(app: App) -> None:
    table = open_local_table(app, extra_people=1)  # seats 0 and 1 on this screen
    assert table.session.local_seats == [0, 1]
    for _ in range(2000):
        if table.public.get("cover"):
            break
        if table.my_turn() and table.legal_plays():
            table._move_chosen(0)
        app.frame(0.25)
    assert table.public["cover"]
    owner = table.public["screen_owner"]
    assert not table.my_turn()  # covered: no card can be picked
    key(app, pygame.K_1)
    assert table.choice.card is None
    app.frame(0.5)  # the cover takes a tap-in once armed (not the same gesture's end)
    click(app, table.hand_rect.center)
    assert not table.public["cover"] and table.session.screen_seat() == owner


def test_hot_seat_people_type_their_names_in_the_lobby(app: App) -> None:
    key(app, pygame.K_RETURN)  # Play
    nt = app.top
    assert isinstance(nt, screens.NewTableScene)
    nt.form.focus(nt.start_button)
    key(app, pygame.K_RETURN)
    lobby = app.top
    assert isinstance(lobby, LobbyScene)
    assert not lobby.name_input.visible  # one person: their name is the Settings one
    click(app, lobby.seat_rects[1].center)  # a second person sits: the box asks their name
    assert lobby.name_input.visible and lobby.form.focused is lobby.name_input
    assert lobby.session.seats[1]["name"] == "Player 2"
    type_text(app, "Bea")
    key(app, pygame.K_s, unicode="s")  # typing an S types it: it does not start the game
    type_text(app, "s")
    assert app.top is lobby
    key(app, pygame.K_RETURN)
    assert lobby.session.seats[1]["name"] == "Beas"
    assert lobby.form.focused is not lobby.name_input
    click(app, lobby.seat_rects[2].center)  # a third: Esc keeps "Player 3", stays in lobby
    type_text(app, "Zz")
    key(app, pygame.K_ESCAPE)
    assert app.top is lobby and lobby.session.seats[2]["name"] == "Player 3"
    key(app, pygame.K_LEFT)  # pick Bea's seat again: the box shows her name
    frames(app)
    assert lobby.pick == 1 and lobby.name_input.text == "Beas"
    click(app, lobby.name_input.rect.center)
    for _ in range(4):
        key(app, pygame.K_BACKSPACE)
    type_text(app, "Bea")
    key(app, pygame.K_TAB)  # leaving the box some other way: Start still takes the name
    key(app, pygame.K_s)
    table = app.top
    assert isinstance(table, TrackTableScene)
    names = [s["name"] for s in table.public["seats"]]
    assert names[1:3] == ["Bea", "Player 3"]


def test_solo_undo_takes_back_the_last_turn(app: App) -> None:
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)  # Solo
    nt = app.top
    assert isinstance(nt, screens.NewTableScene) and nt.kind == "solo"
    key(app, pygame.K_RETURN)  # Start has the focus
    table = app.top
    assert isinstance(table, TrackTableScene)
    for _ in range(200):
        if table.my_turn() and table.legal_plays():
            break
        app.frame(0.1)
    table._move_chosen(0)
    frames(app, 2)
    assert table.session.public["turns"] == 1
    for _ in range(100):  # the screen shows the turn once its animation is over
        if table.caught_up():
            break
        app.frame(0.1)
    assert table.public["turns"] == 1
    key(app, pygame.K_u)
    assert table.public["turns"] == 0


DESCRIBE_POSITION = (
    "classic 4 teams2 jokers=on seven=on a:s,s,0,12,40 b:s,s,s,s,36 c:s,s,s,s,45 "
    "d:s,s,s,s,s turn=a hand=JK,5S,6D,7C,KC,2D cards=6,5,5,5 pile=141 discards=0"
)


def test_plays_are_described_for_people() -> None:
    # Red (a) comes out at 8 and turns home at 3 (4 seats). Its ring pegs, by how far they
    # have come from hole 8: hole 0 (64), hole 40 (32), hole 12 (4): front, 2nd, back.
    # Blue (b) has one peg out, on 36; Yellow (c) one, on 45.
    v = TRACK.view(TRACK.parse_position(DESCRIBE_POSITION), 0)
    assert describe_token("6:a0+6h", v) == "6: Red's front peg +6 into home 3"
    assert describe_token("6:a0+6", v) == "6: Red's front peg +6"
    # Yellow is Red's partner: classic sends a partner landed on forward to its in-spot.
    assert describe_token("5:a40+5", v) == \
        "5: Red's 2nd peg +5 (sends Yellow on)"
    assert describe_token("7:a12+3,a40+4", v) == \
        "7: Red's back peg +3, then Red's 2nd peg +4"
    assert describe_token("JK:as>36", v) == \
        "Joker: a Red peg from start jumps onto Blue's peg"
    assert describe_token("JK:a40>45", v) == \
        "Joker: Red's 2nd peg jumps onto Yellow's peg"
    assert describe_token("K:as", v) == "King: a Red peg comes out"
    # no moves-list line names a hole number: numbers are counts (+5), home places or ranks
    for p in TRACK.legal_plays(TRACK.parse_position(DESCRIBE_POSITION)):
        rest = re.sub(r"home \d", "", describe_token(str(p), v).split(": ", 1)[1])
        assert re.findall(r"(?<![+\-\w])\d+\b", rest) == [], rest
    tees = ("tees 4 teams2 jokers=off seven=on a:s,s,s,s,12 b:s,s,s,s,40 c:s,s,s,s,s "
            "d:s,s,s,s,s turn=a hand=JC,5S,6D,7C,KC,2D cards=6,5,5,5 pile=31 discards=0 "
            "dealer=d round=1")
    tv = TRACK.view(TRACK.parse_position(tees), 0)
    assert describe_token("J:a12x40", tv) == "Jack: Red's peg swaps with Blue's peg"
    assert describe_parts(9, (("x", -1, 0, 0, 0),), v["pegs"]) == "9: discard"
    with pytest.raises(ValueError):
        describe_token("7:a12+3,a40+2", v)  # 5 is not a 7


def test_split_chosen_by_keyboard_only(app: App) -> None:
    table = open_fixed_table(app)
    frames(app)
    key(app, pygame.K_6)  # the 7
    # the cursor is on the first movable peg (a12); Enter takes it
    assert [w for _, w in table.keyboard_options()] == [(0, 12), (0, 20)]
    key(app, pygame.K_RETURN)
    assert table.choice.peg == (0, 12)
    # holes 13..19 are offered; Right twice moves the cursor from +1 to +3
    assert table.keyboard_cursor() is not None
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RETURN)
    assert table.choice.first == ((0, 12), 15) and table.choice.peg2 == (0, 20)
    key(app, pygame.K_RETURN)  # the only remainder hole, 24
    assert table.session.table.log[-1] == (0, "7:a12+3,a20+4")


def test_table_relayouts_on_resize(app: App) -> None:
    table = open_local_table(app)
    from tests.client_testing import resize

    resize(app, 800, 600)
    g = table.geom
    assert g is not None and app.screen.get_rect().contains(table.board_rect)
    assert all(app.screen.get_rect().contains(r) for r in table.card_rects)
    assert table.panel.left >= table.board_rect.right
    for h in g.all_holes():
        assert table.board_rect.inflate(2, 2).collidepoint(g.point(h))


class _HeldHints:
    """A hint runner whose answers the test gives by hand (so 'thinking' is observable)."""

    def __init__(self) -> None:
        from concurrent.futures import Future

        self.asked: list[tuple[Any, ...]] = []
        self.futures: list[Future[tuple[str, str]]] = []
        self._make = Future

    def ask(self, game: str, view: Any, legal: list[str], seed: int,
            budget_ms: float = 300.0) -> Any:
        self.asked.append((game, legal, seed))
        f = self._make()
        f.set_running_or_notify_cancel()  # like a worker busy with it: cannot be cancelled
        self.futures.append(f)
        return f

    def warm(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_hint_thinks_off_the_frame_then_shows_the_play_and_why(app: App) -> None:
    held = _HeldHints()
    app._hints = held
    table = open_fixed_table(app)
    key(app, pygame.K_h)
    assert len(held.asked) == 1 and held.asked[0][0] == "track"
    assert "7:a12+3,a20+4" in held.asked[0][1]
    frames(app, 5)  # frames go on while it thinks; H again does not ask twice
    key(app, pygame.K_h)
    assert len(held.asked) == 1
    assert table.message == "Hint: thinking..." and table.hint_status() == "thinking"
    held.futures[0].set_result(("7:a12+3,a20+4", "it brings both pegs nearer home"))
    frames(app)
    assert table.choice.card == 5 and table.choice.peg == (0, 12)  # the 7, peg a12
    assert table.message == "Hint: 7: your back peg +3, then your front peg +4"
    assert table.hint_status() == {"play": "7:a12+3,a20+4",
                                   "reason": "it brings both pegs nearer home"}
    n = table.session.table.state_no
    assert table.session.table.state_no == n  # a hint never plays


def test_a_hint_that_comes_after_the_position_changed_is_dropped(app: App) -> None:
    held = _HeldHints()
    app._hints = held
    table = open_fixed_table(app)
    key(app, pygame.K_h)
    table._move_chosen(0)  # the person plays before the hint comes
    frames(app)
    held.futures[0].set_result(("7:a12+3,a20+4", "why"))
    frames(app)
    assert table.hint_status() is None and table.message != "Hint: thinking..."
    assert not (table.message or "").startswith("Hint:")


def test_the_real_hint_runner_answers_a_legal_play_with_a_reason() -> None:
    from game.client.hints import HintRunner

    runner = HintRunner(processes=False)
    try:
        state = TRACK.parse_position(SPLIT_POSITION)
        legal = TRACK.legal_tokens(state)
        tok, reason = runner.ask("track", TRACK.view(state, 0), legal, 7,
                                 budget_ms=30).result(timeout=60)
        assert tok in legal and isinstance(reason, str) and reason
    finally:
        runner.close()


@pytest.mark.parametrize("cfg", [{"rules": "tees", "seats": 6},
                                 {"rules": "classic", "seats": 8, "mode": "ffa"},
                                 {"rules": "team", "seats": 4, "mode": "teams", "teams": 2}])
def test_moves_list_lines_are_distinct_and_never_name_a_hole(cfg: dict[str, Any]) -> None:
    """Along a seeded random game: every legal play gets its own line, and no line carries a
    bare number other than a count (+5, -4), a home place (home 3) or an ordinal (2nd)."""
    import random

    from game.client.describe import describe_play

    state = TRACK.new_game(cfg, 7)
    rng = random.Random(7)
    kinds: set[str] = set()
    for _ in range(600):
        if TRACK.outcome(state) is not None:
            break
        seat = TRACK.to_move(state)
        legal = TRACK.legal_plays(state)
        view = TRACK.view(state, seat)
        lines = [describe_play(p, view) for p in legal]
        kinds.update(part[0] for p in legal for part in p.parts)
        assert len(set(lines)) == len(lines), lines
        for line in lines:
            rest = re.sub(r"home \d", "", line.split(": ", 1)[1])
            assert re.findall(r"(?<![+\-\w])\d+\b", rest) == [], line
        state, _events = TRACK.apply(state, seat, rng.choice(legal))
    assert {"o", "f", "b"} <= kinds  # come-outs, forward and backward moves were described


def test_a_speed_change_rescales_the_move_still_playing(app: App) -> None:
    """Speed lives in the clock: a 10-hole move queued at normal (0.1 + 10 x 0.14 = 1.5 s),
    the host switches to blitz (scale 0.3) half way: the other 0.75 s take 0.225 s."""
    from game.client.session import LocalSession
    from game.cpu_worker import SyncCpu
    from tests.client_app import SPLIT_POSITION
    from tests.client_testing import FixedStart

    session = LocalSession("track", {"rules": "classic", "seats": 4}, speed="normal",
                           cpu=SyncCpu(), clock=app.table_clock,
                           rules=FixedStart(TRACK, SPLIT_POSITION))
    assert session.sit(0, "Ada").ok and session.start().ok
    table = app.open_table(session)
    assert isinstance(table, TrackTableScene)
    frames(app)
    table.timeline.finish()  # the opening, out of the way
    table.animate([{"type": "move", "colour": 0, "peg": 3, "from": 12, "to": 22,
                    "path": list(range(13, 23))}])
    for _ in range(75):  # 0.75 s at normal: half way
        app.frame(0.01)
    assert not table.timeline.idle
    assert session.set_speed("blitz").ok
    n = 0
    while not table.timeline.idle and n < 200:
        app.frame(0.01)
        n += 1
    assert 22 <= n <= 24  # 0.225 s of 10 ms frames (75 frames had the speed stayed normal)


def test_a_split_shows_its_first_peg_moved_and_narrows_the_moves(app: App) -> None:
    # issue 19 point 4: after the first part the peg stands at its new hole while the
    # second part is chosen, and the moves list holds only the plays left
    table = open_fixed_table(app)
    frames(app)
    g = table.geom
    assert g is not None
    from game.client.board import ring

    n_all = len(table.moves.rows)
    click(app, table.card_rects[5].center)  # the 7
    click(app, g.point(ring(12)))
    click(app, g.point(ring(15)))  # a12 +3: a split
    assert table.choice.first == ((0, 12), 15)
    assert table.split_ghost() == {(0, 3): g.point(ring(15))}
    assert [r[0] for r in table.moves.rows] == ["7: your back peg +3, then your front peg +4"]
    assert n_all > 1
    # Enter on the narrowed list plays what is left
    n = table.session.table.state_no
    table.form.focus(table.moves)
    key(app, pygame.K_RETURN)
    assert table.session.table.log[-1] == (0, "7:a12+3,a20+4")
    assert table.session.table.state_no == n + 1
