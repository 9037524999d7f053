"""Defects found by playing the game in a window as a new player would (the second pass),
each pinned by a test through the real loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from game.client.app import App
from game.client.replay import ReplaySession
from game.client.session import LocalSession
from game.cpu_worker import SyncCpu
from game.rules.record import RecordSeat, format_record, make_record, rules_of
from tests.client_app import close_app, table_app
from tests.client_testing import click, drawn_texts, frames, key, resize


def short_trash(seed: int = 3) -> str:
    """A finished Trash game for two with layouts of two (a few hands):
    seat 0 a person, seat 1 a CPU; the plays are the first legal ones, turned by the seed."""
    game, config = "layout", {"seats": 2, "layout_size": 2}
    rules = rules_of(game)
    s = rules.new_game(rules.normalize_config(config), seed)
    plays: list[tuple[int, str, str]] = []
    while (m := rules.to_move(s)) is not None:
        legal = [str(t) for t in rules.legal_tokens(s)]
        tok = legal[(seed + len(plays)) % len(legal)]
        plays.append((m, tok, "person" if m == 0 else "cpu"))
        s, _ = rules.apply(s, m, tok)
    seats = [RecordSeat(0, "person", "person", "Ada"), RecordSeat(1, "cpu", "tricky", "Bo")]
    return format_record(make_record(game, config, seed, seats, plays, date="2026-12-02",
                                     version="0.1.0"))


@pytest.fixture
def app(tmp_path: Path):
    a = table_app(tmp_path)
    yield a
    close_app(a)


def brightness(surf: pygame.Surface, rect: pygame.Rect) -> float:
    """The mean of r+g+b over ``rect`` (every 4th pixel)."""
    total, n = 0, 0
    for y in range(rect.top, rect.bottom, 4):
        for x in range(rect.left, rect.right, 4):
            c = surf.get_at((x, y))
            total += c.r + c.g + c.b
            n += 1
    return total / n


def test_a_replay_at_its_end_shows_the_last_position_not_a_dead_end_panel(app: App) -> None:
    """At a replay's last play the table under the viewer is "over": it drew its end panel
    (the board shaded away, Back and Rematch buttons that no click or key reached, the
    viewer being on top) over the very position End is for."""
    assert app.open_replay(short_trash()) is None
    ov = app.top
    assert ov is not None and ov.name == "replay"
    s: ReplaySession = ov.session  # type: ignore[assignment]
    table: Any = app.scenes[-2]
    area = pygame.Rect(0, 0, ov.panel.x, ov.bar.y // 5)  # the top of the table's part
    key(app, pygame.K_END)
    key(app, pygame.K_LEFT)  # one play before the end: the game is on
    frames(app, 60, 0.1)
    assert s.n == s.plays - 1 and table.public["phase"] != "over"
    app.draw()
    before = brightness(app.screen, area)
    key(app, pygame.K_RIGHT)  # the last play: the game is over
    frames(app, 60, 0.1)
    assert s.n == s.plays and table.public["phase"] == "over" and table.timeline.idle
    app.draw()
    assert brightness(app.screen, area) > 0.7 * before  # not shaded away
    assert not table.rematch_button.visible and not table.done_button.visible
    key(app, pygame.K_RETURN)  # Enter is no Rematch here: the viewer stays
    assert app.top is ov and s.n == s.plays


def test_a_one_turn_trash_game_says_one_turn(app: App) -> None:
    """The end panel's line under the winner: "1 hand, 1 turn" (it said "1 turns"). Seed 3,
    layouts of one: Blue leads, draws from the stock a card that fits and wins at once."""
    s = LocalSession("layout", {"seats": 2, "layout_size": 1}, speed="blitz", seed=3,
                     cpu=SyncCpu(), clock=app.table_clock)
    assert s.sit(0, "Ada").ok and s.start().ok
    table: Any = app.open_table(s)
    frames(app, 2)  # the first frames set the buttons' visibility
    for _ in range(100):
        if table.done_button.visible:
            break
        app.frame(0.2)
    assert table.public["phase"] == "over" and table.public["turns"] == 1
    assert table.results_subtitle() == "1 hand, 1 turn"


def test_the_trash_review_names_plays_in_words() -> None:
    """The review panel of a Trash replay said "Play 13: Bo played S" and "The Nasty CPU
    would play W3": the notation, which a player never sees at the table. Now the notation
    with its words, as the table's hints say them."""
    s = ReplaySession(short_trash(), review_runner=None)
    try:
        toks = [p.token for p in s.record.plays]
        n = toks.index("S") + 1
        assert s.words(n) == "S (a card from the stock)"
        assert s.words(n, "D") == "D (the top discard)"
        assert s.words(n, "W3") == "W3 (the wild card on place 3)"
    finally:
        s.close()


def test_the_trash_move_log_keeps_clear_of_ones_own_name_plate(app: App) -> None:
    """At 800x600 with the review beside the table (a replay), or any window where the piles
    go above one's layout, the move log's box came down over one's own name plate."""
    resize(app, 800, 600)
    assert app.open_replay(short_trash()) is None
    frames(app, 3)
    table: Any = app.scenes[-2]
    assert not table.piles_beside  # the layout this is about
    me = table.me()
    assert not table.log_rect.colliderect(table.plate_rect(me)), (
        table.log_rect, table.plate_rect(me))
    # nor any of the places, the piles or their labels
    assert table.log_rect.collidelist(table.place_rects[me]) == -1
    assert not table.log_rect.colliderect(table.stock_rect)


def test_a_replays_jump_does_not_say_nothing_was_played(app: App) -> None:
    """After a jump (End, a hand, the slider) the table's move log started empty, so it said
    "Nothing played yet." at play 13 of 30. It now says where the jump landed."""
    assert app.open_replay(short_trash()) is None
    ov = app.top
    assert ov is not None
    s: ReplaySession = ov.session  # type: ignore[assignment]
    table: Any = app.scenes[-2]
    key(app, pygame.K_END)
    frames(app, 3)
    turns = table.public["turns"]
    assert s.n == s.plays and turns > 1
    assert [(e.seat, e.lines) for e in table.log.entries] == [
        (None, [f"Jumped here: {turns} turns played"])]
    key(app, pygame.K_HOME)  # the start: nothing played, truly
    frames(app, 3)
    assert s.n == 0 and all(e.lines != [] and "Jumped" not in e.lines[0]
                            for e in table.log.entries)


def test_the_hand_won_banner_stays_readable_for_six_at_800x600(app: App) -> None:
    """Six seats at 800x600: "X won hand 1!  Places next hand: ..." names every seat, and the
    one-line banner shrank it to 12 px. It now wraps onto up to three lines."""
    resize(app, 800, 600)
    s = LocalSession("layout", {"seats": 6, "layout_size": 2}, speed="blitz", seed=5,
                     cpu=SyncCpu(), clock=app.table_clock)
    assert s.sit(0, "Ada").ok and s.start().ok
    table: Any = app.open_table(s)
    for _ in range(3000):  # Ada plays the first legal play by a click
        if table.banner:
            break
        legal = table.legal_plays()
        if legal and table.view()["pending"] == "source":
            click(app, (table.stock_rect if "S" in legal else table.discard_rect).center)
        elif legal:
            click(app, table.place_rects[0][int(legal[0][1:]) - 1].center)
        app.frame(0.05)
    assert table.banner, (table.public["turns"], table.public["phase"], table.shown["sizes"])
    assert table.banner.count(",") >= 5  # every seat named
    box, lines, size = table.banner_layout(*app.screen.get_size())
    assert size >= 14, (size, lines)
    assert 1 < len(lines) <= 3 and " ".join(" ".join(lines).split()) == " ".join(
        table.banner.split())  # all of it, in order
    font = app.assets.font(size)
    assert all(font.size(line)[0] <= box.w - 24 for line in lines)
    assert box.h >= len(lines) * size
    app.draw()  # and it draws


def test_the_trash_piles_labels_stay_readable_in_a_narrow_replay(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """800x600 with the review beside it: the Trash table has 560 px of width, its sizes
    scale by that, and "Stock 74", "Discards 1", "Hand 2  Speed: normal" came out at 9-10 px.
    Now no smaller than 12 px, like the place numbers and the move log."""
    resize(app, 800, 600)
    assert app.open_replay(short_trash()) is None
    frames(app, 3)
    sizes: dict[str, int] = {}
    real = app.assets.text

    def text(t: str, px: int, *args: Any, **kw: Any) -> pygame.Surface:
        for head in ("Stock ", "Discards ", "Hand "):
            if t.startswith(head):
                sizes[head] = min(px, sizes.get(head, px))
        return real(t, px, *args, **kw)

    monkeypatch.setattr(app.assets, "text", text)
    app.draw()
    assert set(sizes) == {"Stock ", "Discards ", "Hand "}
    assert min(sizes.values()) >= 12, sizes


@pytest.mark.parametrize("game", ["layout", "track"])
def test_a_replay_at_its_end_says_who_won(app: App, game: str) -> None:
    """With no end panel at a replay, its last position said only "Game over" (after a jump
    the move log does not tell the last plays): now "Game over: Blue CPU wins!"."""
    from tests.test_client_replay import cpu_game

    text = short_trash() if game == "layout" else cpu_game(
        "track", {"rules": "tees", "seats": 4}, 5, {0})
    assert app.open_replay(text) is None
    table: Any = app.scenes[-2]
    key(app, pygame.K_END)
    frames(app, 60, 0.1)
    assert table.public["phase"] == "over" and table.timeline.idle
    title = table.results_title()
    assert title.endswith(" wins!") or title.endswith(" win!")
    drawn = drawn_texts(app, "fit_text")
    assert f"Game over: {title}" in drawn, [d for d in drawn if "over" in d]


def test_the_review_says_whose_play_before_the_words(app: App) -> None:
    """The review's line for a play it has no note of ended in two brackets: "Play 42: Yellow
    CPU played S (a card from the stock) (a CPU's play)". Now "Play 42 (a CPU's play): ..."."""
    assert app.open_replay(short_trash()) is None
    ov: Any = app.top
    s: ReplaySession = ov.session
    n = next(i + 1 for i, p in enumerate(s.record.plays) if p.by == "cpu")
    s.jump(n)
    frames(app, 3)
    wrapped = drawn_texts(app, "wrap")
    name = ov._name(s.record.plays[n - 1].seat)
    assert f"Play {n} (a CPU's play): {name} played {s.words(n)}" in wrapped, wrapped


def test_trash_hot_seat_lays_the_table_out_for_whoever_is_to_play(app: App) -> None:
    """Alice and Bob at one screen (Trash has no secrets: no cover). On Bob's turn the table
    stayed laid out for Alice: her layout big at the bottom, Bob's small at the top (with the
    place numbers, his clicks going there), and the status said "Your turn". Now the table
    turns to Bob, and the status names him."""
    s = LocalSession("layout", {"seats": 3, "layout_size": 4}, speed="blitz", seed=0,
                     cpu=SyncCpu(), clock=app.table_clock)
    assert s.sit(0, "Alice").ok and s.sit(1, "Bob").ok and s.start().ok
    table: Any = app.open_table(s)
    for _ in range(400):  # Alice plays her turn by clicks, then it is Bob's
        legal = table.legal_plays()
        if legal and table.view().get("turn") == 1:
            break
        if legal and table.view()["pending"] == "source":
            click(app, (table.stock_rect if "S" in legal else table.discard_rect).center)
        elif legal:
            click(app, table.place_rects[table.me()][int(legal[0][1:]) - 1].center)
        app.frame(0.2)
    assert table.legal_plays() and table.view()["turn"] == 1 and table.me() == 1
    big = table.place_rects[1][0]
    assert big.w > table.place_rects[0][0].w  # Bob's layout is the big one now
    assert big.y > table.place_rects[0][0].y and big.y > table.place_rects[2][0].y  # bottom
    drawn = drawn_texts(app, "fit_text")
    assert "Bob: take the stock (S) or the discard (D)" in drawn, drawn[:5]
