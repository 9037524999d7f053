"""Watchers over loopback (issue 17): a third machine joins a game in progress as a watcher,
sees the pause, the speed and every play, never receives a hidden card (raw bytes checked over
the whole game), takes a CPU seat mid-game and plays it to the end; the records come out as
``docs/seats.md`` says on every machine. A watcher that misbehaves changes nothing."""

from __future__ import annotations

from typing import Any

import msgpack

from game.rules.record import parse_record
from game.table import game_result
from net import protocol as P
from net.host import HostThread
from tests.net_bots import Bot, RawConn, host_bot, join, make_table, run_until
from tests.test_net_host import _hands_over_time, _walk, hidden_cards_in


def _public(bot: Bot) -> dict[str, Any]:
    """The last public summary a machine was sent (a ``table`` message or a snapshot)."""
    for m in reversed(bot.log):
        if m["t"] in ("table", "snapshot"):
            return {k: v for k, v in m.items() if k != "t"}
    raise AssertionError(f"{bot.name} got no summary")


def _expected_public_parts(table: Any) -> dict[int, bytes]:
    """For each state number, the bytes of the events and view a spectator must get for the
    play that made it: rebuilt from the log, independent of any connection."""
    rules = table.rules
    st, _events = rules.start(table.config, table.seed)
    out = {}
    for n, (seat, tok) in enumerate(table.log, start=1):
        st, events = rules.apply(st, seat, rules.check(st, seat, rules.parse_play(st, tok)))
        out[n] = P.pack({"events": rules.filter_events(list(events), None),
                         "view": rules.view(st, None)})
    return out


def test_a_watcher_joins_sees_everything_public_takes_a_seat_and_its_record_is_right() -> None:
    table = make_table("track", {"rules": "classic", "seats": 4}, scale=100, seed=77)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None, tick_interval=0.005).start()
    hb = host_bot(ht)
    ann = join(ht.link, "Ann")
    bots = [hb, ann]
    raw: RawConn | None = None
    try:
        run_until(bots, lambda: hb.seat == 0 and ann.seat == 1, what="seated")
        assert hb.c.start_game()
        run_until(bots, lambda: table.state_no >= 4, what="some plays")
        # A newcomer after the start watches (no table_full), with a clear notice
        raw = RawConn(ht.port, "Cid", ht.code)
        cid = Bot(raw)  # type: ignore[arg-type]
        bots.append(cid)
        run_until(bots, lambda: cid.snapshots == 1, what="Cid watching")
        welcome = next(m for m in cid.log if m["t"] == "welcome")
        assert welcome["seat"] is None and welcome["watcher"] == 1
        assert "already started" in welcome["note"] and "watching" in welcome["note"]
        run_until(bots, lambda: _public(hb).get("watchers") == [{"watcher": 1, "name": "Cid"}]
                  and _public(ann).get("watching") == 1, what="everyone sees who watches")
        # The host pauses and changes the speed: the watcher sees both
        for b in (hb, ann):
            b.must_ready = lambda: False  # type: ignore[method-assign]
        assert hb.c.pause()
        run_until(bots, lambda: any(r["reason"] == "paused" for r in cid.pause), what="pause")
        frozen = table.state_no
        # A watcher that misbehaves: refused, and nothing changes
        before = (table.state_no, table.speed.name, table.pause_reasons())
        for msg in ({"t": "play", "play": "S", "state_no": frozen}, {"t": "ready"},
                    {"t": "pause"}, {"t": "speed", "name": "relaxed"}, {"t": "start"},
                    {"t": "sit", "seat": 2}, {"t": "hand_to_cpu", "seat": 1, "level": "easy"},
                    {"t": "accept_seat", "seat": 3}, {"t": "remove_watcher", "watcher": 1},
                    {"t": "ask_seat", "seat": 1}):
            raw.send(msg)
        run_until(bots, lambda: len(cid.refused) >= 10, what="refusals")
        assert [r["code"] for r in cid.refused] == ["watching"] * 9 + ["not_allowed"]
        for _ in range(60):  # a flood: refused (some as flood), never applied
            raw.send({"t": "pause"})
        run_until(bots, lambda: len(cid.refused) >= 70, what="flood refused")
        assert {r["code"] for r in cid.refused[10:]} <= {"watching", "flood"}
        assert (table.state_no, table.speed.name, table.pause_reasons()) == before
        assert hb.c.set_speed("brisk")
        run_until(bots, lambda: cid.speed == "brisk", what="speed seen")
        for b in (hb, ann):
            del b.must_ready  # type: ignore[method-assign]
        run_until(bots, lambda: table.state_no >= frozen + 12, timeout=30, what="watching")
        # Cid asks for the CPU seat 3; the host accepts
        assert raw.send({"t": "ask_seat", "seat": 3})
        run_until(bots, lambda: _public(hb).get("asks") == [
            {"seat": 3, "watcher": 1, "name": "Cid", "accepted": False}], what="ask seen")
        assert hb.c.accept_seat(3)
        run_until(bots, lambda: cid.seat == 3 or any(a["accepted"] for a in _public(cid)["asks"])
                  or not _public(cid)["asks"], what="accepted (or met already)")
        run_until(bots, lambda: cid.seat == 3, timeout=30, what="Cid takes seat 3")

        def seat_welcome() -> int:
            return next(i for i, m in enumerate(cid.log) if m["t"] == "welcome" and m["seat"] == 3)
        # the seat's snapshot follows its welcome (it may come in the next read)
        run_until(bots, lambda: len(cid.log) > seat_welcome() + 1, what="Cid's seat snapshot")
        at = seat_welcome()
        assert "watcher" not in cid.log[at] and cid.log[at + 1]["t"] == "snapshot"
        taken_at = cid.log[at + 1]["state_no"]
        assert taken_at > frozen and table.seat_info(3)["name"] == "Cid"
        assert cid.log[at + 1]["to_move"] == 3  # it changed hands as seat 3's turn began
        run_until(bots, lambda: all(b.outcome is not None and b.phase == "over" for b in bots),
                  timeout=90, what="game over")
        run_until(bots, lambda: all(_public(b)["phase"] == "over" for b in bots))
        assert any(s == 3 for s, _p in table.log[taken_at:]), "Cid never played"
        assert [p for s, p in table.log[taken_at:] if s == 3] == [p for _n, p in cid.plays_sent]
        # The records: the same on every machine, as documented (the seat's points go to who
        # holds it at the end; its worth for the others is the lowest it had: Easy, 1)
        res = table.result()
        assert res is not None
        for b in bots:
            assert game_result(_public(b)) == res, b.name
        winners = res["winners"]
        worth = [3, 3, 1, 1]
        beaten = sum(w for i, w in enumerate(worth) if i not in winners)
        cid_entry = next(p for p in res["people"] if p["seat"] == 3)
        assert cid_entry == {"seat": 3, "name": "Cid", "points": beaten if 3 in winners else 0,
                             "won": 3 in winners}
        assert [p["name"] for p in res["people"]] == ["Hostess", "Ann", "Cid"]
        # Every machine gets the game's record once, right after the last play, the same
        # text for all (a guest and a former watcher keep it and can watch it again)
        run_until(bots, lambda: all(any(m["t"] == "record" for m in b.log) for b in bots))
        texts = []
        for b in bots:
            recs = [i for i, m in enumerate(b.log) if m["t"] == "record"]
            assert len(recs) == 1, b.name
            last_play = max(i for i, m in enumerate(b.log) if m["t"] == "play")
            assert recs[0] == last_play + 1 and b.log[last_play]["outcome"] is not None
            texts.append(b.log[recs[0]]["text"])
        assert texts[0] == texts[1] == texts[2]
        rec = parse_record(texts[0])
        assert rec.seed == table.seed and [(p.seat, p.token) for p in rec.plays] == table.log
        assert [s.name for s in rec.seats][:2] == ["Hostess", "Ann"]
        assert [p.by for p in rec.plays if p.seat == 3][-1] == "person"  # Cid's own plays
        # The raw bytes: while watching, no hand of any seat and exactly the spectator's
        # public view of every play, byte for byte, whichever seat moved
        frames = P.FrameDecoder().feed(bytes(raw.raw_bytes))
        cut = next(i for i, f in enumerate(frames) if f["t"] == "welcome" and f["seat"] == 3)
        watching, playing = frames[:cut], frames[cut:]
        expected = _expected_public_parts(table)
        plays = [f for f in watching if f["t"] == "play"]
        assert len(plays) >= 12 and len({f["seat"] for f in plays}) == 4
        assert [f["state_no"] for f in plays] == list(range(plays[0]["state_no"],
                                                           plays[-1]["state_no"] + 1))
        for f in plays:
            assert P.pack({"events": f["events"], "view": f["view"]}) == expected[f["state_no"]]
        for f in watching:
            for h in _walk(f, "hand"):
                assert not h, f
        hands = _hands_over_time(table)
        # every byte is in a frame: no hand at all while watching, only its own once seated
        mine = {state[3] for state in hands[taken_at:]}
        assert not hidden_cards_in(watching, set())
        assert not hidden_cards_in(playing, mine)
        # positive control: once seated, Cid's own hands do reach it
        own = {state[3] for state in hands[taken_at:] if len(state[3]) >= 3}
        assert own and any(msgpack.packb(list(h)) in bytes(raw.raw_bytes) for h in own)
        assert any(f["t"] == "play" for f in playing)
    finally:
        for b in bots:
            b.c.close()
        ht.stop()
        table.close()


def test_a_person_leaves_to_a_waiting_watcher_and_a_forbidden_table_says_so() -> None:
    table = make_table("layout", {"seats": 3, "layout_size": 3}, seats=3, scale=50)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None, tick_interval=0.005).start()
    hb = host_bot(ht)
    ann = join(ht.link, "Ann")
    bots = [hb, ann]
    try:
        run_until(bots, lambda: hb.seat == 0 and ann.seat == 1, what="seated")
        dee = join(ht.link, "Dee", watch=True)  # asks to watch from the lobby
        bots.append(dee)
        run_until(bots, lambda: dee.snapshots == 1 and dee.seat is None, what="Dee watches")
        assert hb.c.start_game()
        run_until(bots, lambda: table.state_no >= 3, what="some plays")
        assert ann.c.leave(to=1)  # Ann leaves for good, to Dee
        run_until(bots, lambda: ann.c.status.reason == "left", what="Ann gone")
        run_until(bots, lambda: dee.seat == 1, timeout=30, what="Dee plays seat 1")
        assert table.seat_info(1)["name"] == "Dee" and table.seat_info(1)["played"] == ["Ann"]
        assert dee.c.token == table.token(1)  # the fresh token reached Dee's client
        # the host shows a watcher out: told why, and her client does not come back
        fay = join(ht.link, "Fay")
        bots.append(fay)
        run_until(bots, lambda: fay.snapshots == 1 and _public(hb).get("watching") == 1,
                  what="Fay watches")
        assert hb.c.remove_watcher(2)  # Dee was watcher 1
        run_until(bots, lambda: fay.c.status.reason == "removed", what="Fay shown out")
        assert any(m["t"] == "bye" and m["reason"] == "removed" for m in fay.log)
        run_until(bots, lambda: _public(hb).get("watching") == 0, what="nobody watching")
        # the host forbids watchers: a newcomer is told so
        assert hb.c.allow_watchers(False)
        run_until(bots, lambda: _public(hb).get("allow_watchers") is False)
        eve = join(ht.link, "Eve")
        run_until([eve], lambda: eve.c.status.reason == "no_watchers", what="Eve refused")
        run_until(bots, lambda: all(b.phase == "over" for b in (hb, dee)), timeout=60,
                  what="game over")
        res = table.result()
        assert res is not None
        assert game_result(_public(dee)) == res
        assert {"seat": 1, "name": "Ann", "points": 0, "won": False} in res["people"]
        # while Dee watched the Trash game: exactly the spectator's view of every play (no
        # face-down card, no stock order), whichever seat moved
        cut = next(i for i, m in enumerate(dee.log) if m["t"] == "welcome" and m["seat"] == 1)
        expected = _expected_public_parts(table)
        plays = [m for m in dee.log[:cut] if m["t"] == "play"]
        assert len(plays) >= 3
        for m in plays:
            assert P.pack({"events": m["events"], "view": m["view"]}) == expected[m["state_no"]]
    finally:
        for b in bots:
            b.c.close()
        ht.stop()
        table.close()


def test_the_join_list_says_a_game_in_progress_can_be_watched_and_by_how_many() -> None:
    from net.discovery import discover_all

    table = make_table("layout", {"seats": 3, "layout_size": 3}, seats=3, scale=5)
    ht = HostThread(table, bind="127.0.0.1", port=0, discovery=("127.0.0.1", 0),
                    tick_interval=0.005).start()
    assert ht.host is not None and ht.host.responder is not None
    targets = [("127.0.0.1", ht.host.responder.port)]
    hb = host_bot(ht)
    bots = [hb]
    try:
        run_until(bots, lambda: hb.seat == 0, what="host seated")
        assert hb.c.start_game()
        run_until(bots, lambda: hb.phase == "playing", what="started")
        cid = join(ht.link, "Cid")
        bots.append(cid)
        run_until(bots, lambda: cid.snapshots == 1 and _public(hb).get("watching") == 1)
        (answer,) = discover_all(ht.code, targets, bind="127.0.0.1", timeout=1.0)
        assert answer.phase == "playing" and answer.watching == 1 and answer.watchable is True
        assert "1 watching: join to watch" in answer.describe()
        assert hb.c.allow_watchers(False)
        run_until(bots, lambda: cid.c.status.reason == "no_watchers", what="Cid shown out")
        (answer,) = discover_all(ht.code, targets, bind="127.0.0.1", timeout=1.0)
        assert answer.watchable is False and answer.watching == 0
        assert answer.describe().endswith(")") and ": no watchers" in answer.describe()
    finally:
        for b in bots:
            b.c.close()
        ht.stop()
        table.close()
