"""Replays reachable from the game (issue 16's entry points), through the real loop: a
finished local game is kept among Recent games, the end panel's Watch again (W) opens the
viewer and Esc comes back, Save record... writes a file ``read_record`` accepts, Records lists
the kept game and opens it (Enter, click), Reopen watches a saved table."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from game.client import keep, screens
from game.client.app import App
from game.client.replay import ReplaySession
from game.client.replay_scene import ReplayOverlay
from game.client.session import LocalSession, local_save_path
from game.client.table_base import TableScene
from game.cpu_worker import SyncCpu
from game.rules.record import parse_record, read_record, rules_of
from game.table.recent import list_recent, recent_dir
from tests.client_app import close_app, table_app
from tests.client_testing import click, frames, key, resize


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    docs = tmp_path / "Documents"
    monkeypatch.setattr(keep, "documents_dir", lambda: docs)
    a = table_app(tmp_path / "data")
    yield a
    close_app(a)


def docs_of(app: App) -> Path:
    return keep.documents_dir()


def cpu_session(app: App, save: Path | None = None) -> LocalSession:
    """Trash for two at blitz speed: Ada sits, then hands her seat to an Easy CPU (so the game
    plays itself through the loop; the record still names Ada, who began it)."""
    s = LocalSession("layout", {"seats": 2}, speed="blitz", cpu=SyncCpu(),
                     clock=app.table_clock, save_path=save)
    assert s.sit(0, "Ada").ok and s.set_cpu(1, "easy").ok and s.start().ok
    assert s.hand_to_cpu(0, "easy").ok
    return s


def finished(app: App) -> TableScene:
    table = app.open_table(cpu_session(app))
    assert isinstance(table, TableScene)
    frames(app, 2, 0.1)  # the first frames set the buttons' visibility
    for _ in range(5000):  # ~170 plays at blitz: about 1000 frames of 0.1 s
        if table.done_button.visible:
            break
        app.frame(0.1)
    log = table.session.table.log  # type: ignore[attr-defined]
    assert table.public["phase"] == "over" and table.done_button.visible, (
        len(log), table.public["pause"], type(app.top).__name__, table.message)
    return table


def kept(app: App) -> list[Path]:
    return sorted(recent_dir(app.store.folder).glob("*.ttr"))


def test_a_finished_game_is_kept_and_watched_again(app: App) -> None:
    assert kept(app) == []
    table = finished(app)
    files = kept(app)
    assert len(files) == 1 and table.kept == files[0]  # written once, at the end
    rec, final = read_record(files[0].read_text(encoding="utf-8"))  # it replays exactly
    s = table.session
    assert isinstance(s, LocalSession)
    assert rules_of("layout").format_position(final) == \
        rules_of("layout").format_position(s.table.state)
    assert rec.game == "layout" and rec.seed == s.table.seed
    assert len(rec.plays) == len(s.table.log) > 0
    assert (rec.seats[0].kind, rec.seats[0].name) == ("person", "Ada")
    assert rec.result != "*"  # a finished game
    assert table.watch_button.visible and table.save_button.visible
    # the four buttons in one row, none overlapping, all inside the panel
    row = [table.done_button, table.watch_button, table.save_button, table.rematch_button]
    for a, b in itertools.pairwise(row):
        assert a.rect.right < b.rect.left and a.rect.y == b.rect.y
    assert all(table.results_box.contains(b.rect) for b in row)

    key(app, pygame.K_w)  # Watch again
    assert isinstance(app.top, ReplayOverlay)
    replay = app.top.session
    assert isinstance(replay, ReplaySession) and replay.path == files[0]
    assert replay.plays == len(rec.plays)
    key(app, pygame.K_END)  # the replay to its end: a replay keeps no record of its own
    frames(app, 30, 0.1)
    key(app, pygame.K_ESCAPE)
    assert app.top is table and table.done_button.visible  # back on the end panel
    frames(app, 5, 0.1)
    assert kept(app) == files

    click(app, table.watch_button.rect.center)  # by mouse too
    assert isinstance(app.top, ReplayOverlay)
    key(app, pygame.K_ESCAPE)
    assert app.top is table


def test_save_record_from_the_end_panel(app: App) -> None:
    table = finished(app)
    click(app, table.save_button.rect.center)
    saved = list(docs_of(app).glob("*.ttr"))
    assert len(saved) == 1
    assert read_record(saved[0].read_text(encoding="utf-8"))[0].plays == \
        parse_record(kept(app)[0].read_text(encoding="utf-8")).plays
    assert table.message == f"Record saved to {saved[0]}"
    click(app, table.save_button.rect.center)  # a second save never overwrites the first
    assert len(list(docs_of(app).glob("*.ttr"))) == 2


def test_save_record_that_cannot_be_written_says_why(app: App, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    table = finished(app)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setattr(keep, "documents_dir", lambda: blocker / "Documents")
    click(app, table.save_button.rect.center)
    assert table.message is not None and table.message.startswith("Could not save the record")
    assert blocker.read_text() == "x"


def test_records_lists_recent_games_and_opens_them(app: App) -> None:
    finished(app)
    key(app, pygame.K_ESCAPE)  # Back to the title
    assert isinstance(app.top, screens.TitleScene)
    app.show("records")
    rs = app.top
    assert isinstance(rs, screens.RecordsScene)
    assert len(rs.recent.rows) == 1
    date, game, people, result = rs.recent.rows[0]
    info = list_recent(app.store.folder)[0]
    assert (game, people) == ("Trash, 2 seats", "Ada") and date == info.date
    rec = parse_record(info.path.read_text(encoding="utf-8"))
    winners = [rec.seats[int(x)].name for x in rec.result.split(",")]
    assert result == " and ".join(winners) + " won"
    assert rs.form.focused is rs.recent
    key(app, pygame.K_RETURN)  # Enter on the list: watch it
    assert isinstance(app.top, ReplayOverlay)
    assert app.top.session.path == info.path
    key(app, pygame.K_ESCAPE)
    assert app.top is rs
    r = rs.recent.rect
    click(app, (r.x + 40, r.y + rs.recent.row_h + rs.recent.row_h // 2))  # the first row
    assert isinstance(app.top, ReplayOverlay)
    key(app, pygame.K_ESCAPE)
    assert app.top is rs
    click(app, rs.save_button.rect.center)
    saved = list(docs_of(app).glob("*.ttr"))
    assert len(saved) == 1 and rs.note == f"Record saved to {saved[0]}"
    read_record(saved[0].read_text(encoding="utf-8"))


def test_records_without_recent_games(app: App) -> None:
    app.show("records")
    rs = app.top
    assert isinstance(rs, screens.RecordsScene)
    assert rs.recent.rows == [] and not rs.watch_button.visible
    assert rs.form.focused is rs.back_button
    rs.watch(0)  # nothing to open
    assert app.top is rs and rs.error is None


def test_reopen_watches_a_saved_table(app: App) -> None:
    save = local_save_path(app.store.folder)
    session = cpu_session(app, save)
    table = app.open_table(session)
    assert isinstance(table, TableScene)
    frames(app, 40, 0.1)  # some plays, not the whole game
    n = len(session.table.log)
    assert n > 0 and table.public["phase"] == "playing"
    session.close()
    app.back_to("title")
    app.show("reopen")
    ro = app.top
    assert isinstance(ro, screens.ReopenScene)
    assert [s.path for s in ro.saves] == [save]
    key(app, pygame.K_w)
    assert isinstance(app.top, ReplayOverlay), ro.error
    replay = app.top.session
    assert replay.plays == n and replay.record.result == "*"  # a game still in progress
    key(app, pygame.K_ESCAPE)
    assert app.top is ro
    click(app, ro.save_button.rect.center)
    saved = list(docs_of(app).glob("*.ttr"))
    assert len(saved) == 1 and ro.note == f"Record saved to {saved[0]}"
    assert len(read_record(saved[0].read_text(encoding="utf-8"))[0].plays) == n
    assert kept(app) == []  # watching a save keeps nothing among the recent games


def test_every_machine_keeps_the_tables_own_record(tmp_path: Path) -> None:
    """The record kept is the table's own ``record`` message (or a finished table's
    snapshot): a guest keeps the same record as the host; nothing before the end; a replay
    keeps nothing. (No network: the messages as a guest's session receives them.)"""
    from game.client.net_session import NetSession
    from game.table import SeatSpec, Table
    from game.table.messages import to_wire
    from game.table.record import record_text

    clock = [1000.0]
    t = Table.create("layout", {"seats": 2, "layout_size": 2}, 11,
                     [SeatSpec("person", "Ann"), SeatSpec("cpu", level="easy")],
                     clock=lambda: clock[0], host_seat=0, cpu=SyncCpu())
    seat, token = 0, t.token(0)
    welcome = {"t": "welcome", "v": 2, "token": token, "seat": seat,
               "table": {"code": "KQXF", "link": "", "game": "layout", "config": t.config,
                         "is_host": False}}

    class Feed:  # a client whose messages the test hands over
        token = None

        def __init__(self) -> None:
            self.batches: list[list[dict]] = [[welcome], [to_wire(t.snapshot(seat))]]

        def poll(self) -> list[dict]:
            return self.batches.pop(0) if self.batches else []

        def close(self, timeout: float = 0.0) -> None:
            pass

    feed = Feed()
    guest = NetSession(feed)
    guest.poll()
    guest.poll()
    assert t.start(t.host_token).ok
    for _ in range(2000):  # Ann plays her first legal play; the CPU answers when due
        if t.phase != "playing":
            break
        if t.to_move() == 0:
            legal = t.rules.legal_plays(t.state)
            assert t.submit(token, str(legal[0]), t.state_no).ok
        else:
            clock[0] = max(clock[0], t.next_due() or clock[0])
            assert t.tick() == 1
        feed.batches.append([to_wire(m) for m in t.drain(seat)])
        guest.poll()
        if t.phase == "playing":
            assert guest.game_record() is None  # nothing to keep before the end
            assert keep.keep_finished(guest, tmp_path) is None
    guest.poll()
    text = guest.game_record()
    assert text == record_text(t)  # the host's own record, whole
    path = keep.keep_finished(guest, tmp_path)
    assert path is not None and path.parent == recent_dir(tmp_path)
    assert path.read_text(encoding="utf-8") == text
    assert parse_record(text).seed == 11 and len(parse_record(text).plays) == len(t.log)
    assert keep.keep_finished(guest, tmp_path) == path  # the same game: kept once
    # a machine that joins the finished table gets the record in its snapshot
    late = NetSession(Feed())
    late.poll()
    late.poll()
    assert late.game_record() == text and "record" not in late.public
    replay = ReplaySession(text)
    assert keep.keep_finished(replay, tmp_path) is None
    replay.close()
    assert len(list(recent_dir(tmp_path).iterdir())) == 1
    t.close()


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_screenshots(app: App, size: tuple[int, int], tmp_path: Path) -> None:
    out = Path("/tmp/replay-entry-shots")
    out.mkdir(exist_ok=True)
    resize(app, *size)
    table = finished(app)
    frames(app, 2, 0.1)
    row = [table.done_button, table.watch_button, table.save_button, table.rematch_button]
    assert all(table.results_box.contains(b.rect) for b in row)
    pygame.image.save(app.screen, str(out / f"end-{size[0]}x{size[1]}.png"))
    key(app, pygame.K_ESCAPE)
    app.show("records")
    frames(app, 2, 0.1)
    rs = app.top
    assert isinstance(rs, screens.RecordsScene)
    w, h = size
    assert rs.recent.rect.bottom <= rs.watch_button.rect.y
    assert rs.back_button.rect.right <= w and rs.back_button.rect.bottom <= h
    pygame.image.save(app.screen, str(out / f"records-{size[0]}x{size[1]}.png"))
