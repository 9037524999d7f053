"""The move log (issue 19 point 2, its words): every play and what it caused, in words, from
the play messages' events; scrollable; the last move's trail on the board; L shows the last
turn again. The words are worked out by hand from the positions; the events come from the
rules themselves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.client.app import App
from game.client.board import ring
from game.client.describe import tell_layout, tell_track
from game.client.movelog import LogEntry, MoveLog
from game.client.session import LocalSession
from game.client.table_scene import TrackTableScene
from game.cpu_worker import SyncCpu
from game.rules.track import RULES as TRACK
from tests.client_app import close_app, open_fixed_table, table_app
from tests.client_testing import FixedStart, frames, key

NAMES = ["Ada", "Blue CPU", "Yellow CPU", "Green CPU"]


def _told(position: str, seat: int, token: str, me: int | None = 0) -> list[str]:
    s = TRACK.parse_position(position)
    pegs = TRACK.view(s, 0)["pegs"]
    _, events = TRACK.apply(s, seat, token)
    return tell_track(seat, events, pegs, NAMES, me)


def test_a_come_out_onto_your_peg_is_told_with_its_bump() -> None:
    # Blue comes out on its come-out hole 26, where Red's (my) peg stands: back to start
    pos = ("classic 4 teams2 jokers=on seven=on a:s,s,s,s,26 b:s,s,s,s,s c:s,s,s,s,s "
           "d:s,s,s,s,s turn=b hand=AC,3C,4C,5C,6C,7C cards=5,6,5,5 pile=141 discards=0")
    assert _told(pos, 1, "A:bs")[0] == \
        "Blue CPU played an Ace: came out onto your peg, which went back to start"
    # a spectator's log names the colour instead
    assert _told(pos, 1, "A:bs", me=None)[0] == \
        "Blue CPU played an Ace: came out onto Red's peg, which went back to start"


def test_a_partner_sent_on_and_the_chain_bump_are_told() -> None:
    # my peg a12 +5 lands on partner Yellow (17): classic sends it on to its home turn (39),
    # where Blue stands: Blue goes back to start
    pos = ("classic 4 teams2 jokers=on seven=on a:s,s,s,s,12 b:s,s,s,s,39 c:s,s,s,s,17 "
           "d:s,s,s,s,s turn=a hand=5D,2C,3C,4C,6C,8C cards=6,5,5,5 pile=141 discards=0")
    assert _told(pos, 0, "5:a12+5")[0] == (
        "You played a 5: moved your peg 5 ahead onto Yellow's peg, which was sent on to its "
        "home turn and knocked Blue's peg back to start")


def test_a_jack_trade_and_a_split_are_told() -> None:
    tees = ("tees 4 teams2 jokers=off seven=on a:s,s,s,s,12 b:s,s,s,s,40 c:s,s,s,s,s "
            "d:s,s,s,s,s turn=a hand=JC,5S,6D,7C,KC,2D cards=6,5,5,5 pile=31 discards=0 "
            "dealer=d round=1")
    assert _told(tees, 0, "J:a12x40")[0] == \
        "You played a Jack: swapped your peg with Blue's peg"
    split = ("classic 4 teams2 jokers=on seven=on a:s,s,s,12,20 b:s,s,s,s,s c:s,s,s,s,s "
             "d:s,s,s,s,s turn=a hand=2C,3C,4C,5C,6C,7C cards=6,5,5,5 pile=141 discards=0")
    # a20 is further from Red's come-out hole (8) than a12: the front peg
    assert _told(split, 0, "7:a12+3,a20+4")[0] == \
        "You played a 7: moved your back peg 3 ahead, then moved your front peg 4 ahead"


def test_folds_deals_and_the_end_are_told() -> None:
    events = [{"type": "fold", "seat": 2, "cards": [8, 12]},
              {"type": "deal", "dealer": 1, "round": 2, "counts": [4, 4, 4, 4]},
              {"type": "game_over", "winners": [1, 3], "team": 1}]
    assert tell_track(-1, events, [["s"] * 5] * 4, NAMES, 0) == [
        "Yellow CPU folds: no card can move", "A new deal: 4 cards each",
        "Blue CPU and Green CPU win!"]


def test_a_trash_turn_is_told_card_by_card() -> None:
    # Blue draws a 4 from the stock, places it on 4, which turns up a Jack: the Jack goes to
    # place 7, which turns up a Queen: a Queen cannot be placed, so it is discarded
    events = [{"type": "drawn", "seat": 1, "source": "stock", "card": 4 * 4 + 1},
              {"type": "placed", "seat": 1, "place": 4, "card": 4 * 4 + 1},
              {"type": "revealed", "seat": 1, "place": 4, "card": 11 * 4},
              {"type": "wild_placed", "seat": 1, "place": 7, "card": 11 * 4},
              {"type": "revealed", "seat": 1, "place": 7, "card": 12 * 4 + 2},
              {"type": "discarded", "seat": 1, "card": 12 * 4 + 2, "reason": "stopper"}]
    assert tell_layout(1, events, NAMES, 0) == [
        "Blue CPU drew a 4 from the stock, placed the 4, the Jack went to place 7, "
        "discarded a Queen"]
    assert tell_layout(0, [{"type": "drawn", "seat": 0, "source": "discard", "card": 9 * 4},
                           {"type": "discarded", "seat": 0, "card": 9 * 4, "reason": "filled"},
                           {"type": "completed", "seat": 0, "last_chance": False}],
                       NAMES, 0) == ["You took the 9 from the discard pile, discarded a 9",
                                     "You completed the layout!"]


def test_the_log_scrolls_and_keeps_the_reader_in_place() -> None:
    log = MoveLog()
    for i in range(30):
        log.add(LogEntry(i % 4, [f"line {i}"], [{"type": "play"}]))
    log.page = 10
    assert log.scroll == 0 and log.lines()[-1] == (1, "line 29", True)
    assert log.page_up() and log.scroll == 9
    log.add(LogEntry(2, ["line 30"], [{"type": "play"}]))
    assert log.scroll == 10  # a new line did not pull the reader down
    log.to_oldest()
    assert log.scroll == 31 - 10
    assert not log.scroll_by(5)  # no further than the oldest
    log.to_newest()
    assert log.scroll == 0
    # the turn a person missed: the entries since their own last play
    assert [e.lines[0] for e in log.since(2)] == ["line 30"]
    assert [e.lines[0] for e in log.since(3)] == ["line 28", "line 29", "line 30"]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = table_app(tmp_path)
    yield a
    close_app(a)


def _caught_up(app: App, table: TrackTableScene, limit: int = 400) -> None:
    for _ in range(limit):
        if table.caught_up() and table.timeline.idle:
            return
        app.frame(0.05)
    raise AssertionError("the animations never finished")


def _my_turn_again(app: App, table: TrackTableScene, limit: int = 600) -> None:
    for _ in range(limit):
        if table.my_turn():
            return
        app.frame(0.05)
    raise AssertionError("the CPUs never gave the turn back")


def test_my_play_and_the_cpus_are_logged_with_the_trail(app: App) -> None:
    table = open_fixed_table(app)
    _caught_up(app, table)
    assert table.my_turn()
    key(app, pygame.K_5)  # the 6 (2C..7C): a12 +6 or a20 +6
    key(app, pygame.K_RETURN)  # the cursor's first peg
    key(app, pygame.K_RETURN)  # its first hole
    entry = table.log.entries[-1]
    assert entry.seat == 0 and entry.lines[0].startswith("You played a 6: moved your ")
    # the trail is the hole-by-hole path of that peg, shown once its animation is over
    frm = int(entry.events[1]["from"])
    _my_turn_again(app, table)
    seen = [e for e in table.log.entries if e.seat == 1]
    assert seen and seen[0].lines[0].startswith("Blue CPU ")
    mine = next(e for e in table.log.entries if e.seat == 0)
    assert mine.trail == [[ring((frm + k) % 72) for k in range(7)]]


def test_l_replays_the_last_turn_and_f_hurries_it(app: App) -> None:
    table = open_fixed_table(app)
    _caught_up(app, table)
    key(app, pygame.K_5)
    key(app, pygame.K_RETURN)
    key(app, pygame.K_RETURN)
    _my_turn_again(app, table)
    state = table.session.table.state_no
    key(app, pygame.K_l)
    assert table.replaying and not table.timeline.idle
    assert not table.my_turn()  # the board shows the past: no play now
    where, _ = table.timeline.pegs()
    assert where, "the replay moves pegs"
    key(app, pygame.K_f)
    frames(app, 10)
    assert table.timeline.idle and not table.replaying and table.my_turn()
    assert table.session.table.state_no == state  # a replay changes nothing at the table


def test_the_wheel_and_page_keys_scroll_the_log(app: App) -> None:
    table = open_fixed_table(app)
    for i in range(40):
        table.log.add(LogEntry(1, [f"note {i}"], []))
    frames(app)
    assert table.log.scroll == 0
    key(app, pygame.K_PAGEUP)
    assert table.log.scroll > 0
    up = table.log.scroll
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=table.log_rect.center,
                                         rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False))
    frames(app)
    assert table.log.scroll == up + 2
    key(app, pygame.K_END)
    assert table.log.scroll == 0


def test_the_opening_deal_is_logged_in_a_real_game(app: App) -> None:
    s = LocalSession("track", {"rules": "classic", "seats": 4}, speed="blitz", seed=5,
                     cpu=SyncCpu(), clock=app.table_clock)
    assert s.sit(0, "Ada").ok and s.start().ok
    table = app.open_table(s)
    assert isinstance(table, TrackTableScene)
    frames(app)
    assert table.log.entries[0].lines == ["A new deal: 5 cards each"]
    assert FixedStart  # (the fixed positions above use it through open_fixed_table)


def test_a_trash_table_logs_every_turn_and_replays_the_last(app: App) -> None:
    from game.client.layout_scene import LayoutTableScene

    s = LocalSession("layout", {"seats": 3}, speed="blitz", seed=2, cpu=SyncCpu(),
                     clock=app.table_clock)
    assert s.sit(0, "Ada").ok and s.start().ok
    table = app.open_table(s)
    assert isinstance(table, LayoutTableScene)
    for _ in range(3000):
        if len([e for e in table.log.entries if e.seat is not None]) >= 4 and \
                table.my_turn():
            break
        if table.my_turn():
            tok = table.legal_plays()[0]
            table.choose(tok)
        app.frame(1 / 20)
    played = [e for e in table.log.entries if e.seat is not None]
    assert len(played) >= 4
    assert table.log.entries[0].lines[0] == "Hand 1 dealt"
    names = {0: "You ", 1: "Blue CPU ", 2: "Yellow CPU "}
    for e in played:
        assert e.seat is not None and e.lines[0].startswith(names[e.seat]), e.lines
    n = s.table.state_no
    key(app, pygame.K_l)
    assert table.replaying and not table.my_turn()
    key(app, pygame.K_f)
    for _ in range(60):
        if table.timeline.idle:
            break
        app.frame(1 / 60)
    assert table.timeline.idle and table.my_turn() and s.table.state_no == n
