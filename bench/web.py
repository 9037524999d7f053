"""Benchmark: the phone client (run by hand: ``python bench/web.py``).

* ``page_kb``: every file the host serves for the page (``web/``: HTML, JavaScript, CSS, icon).
* ``first_view_ms``: headless Chromium (360x640) opens the table's web link with a seat already
  remembered (a phone coming back): from ``get(url)`` to the table on screen, i.e. the page's
  files, the key exchange in JavaScript, the proof, the welcome and the snapshot drawn. The
  worst of ``--views`` openings. Without Chromium: ``nan``.
* ``play_to_phone_p95_ms``: an 8-seat track table (``classic``), 7 people on the TCP wire
  (``tests/net_bots.py`` Bots, in this process) and one phone on the WebSocket
  (``tests/test_web.py``'s ``WsConn``, its frames timed on arrival in its reader thread).
  From a person's play being sent to the resulting ``play`` message reaching the phone,
  95th percentile over ``--plays`` plays.

Prints one final line::

    web page_kb=<a> first_view_ms=<b> play_to_phone_p95_ms=<c>
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from net.web import load_files
from tests.net_bots import Bot, host_bot, join, make_table, run_until
from tests.test_web import PhoneBot, WsConn, web_host


def page_kb() -> float:
    files = load_files()
    return sum(len(b) for path, (b, _k) in files.items() if path not in ("/", "/favicon.ico")) \
        / 1024


def first_view_ms(views: int) -> float:
    try:
        from tests.test_web_browser import _driver
        d = _driver()
    except Exception as e:  # no browser here
        print(f"no headless Chromium ({type(e).__name__}): first_view_ms=nan", file=sys.stderr)
        return float("nan")
    table = make_table("layout", {"seats": 4, "layout_size": 3})
    ht = web_host(table)
    try:
        assert ht.host is not None and ht.host.web is not None
        url = ht.host.web.url
        hb = host_bot(ht)
        run_until([hb], lambda: hb.seat == 0)
        d.get(url)
        d.execute_script("localStorage.setItem('tt.name', 'Pia')")
        d.refresh()
        d.find_element("id", "name")
        d.execute_script("document.querySelector('[data-act=join]').click()")
        lobby = "return document.querySelector('#app').dataset.screen === 'lobby'"
        run_until([hb], lambda: d.execute_script(lobby), 10, "joined")
        worst = 0.0
        for _ in range(views):
            d.get("about:blank")
            t0 = time.monotonic()
            d.get(url)
            while not d.execute_script(lobby):
                hb.step()
                if time.monotonic() - t0 > 10:
                    raise AssertionError("no first view in 10 s")
            worst = max(worst, (time.monotonic() - t0) * 1000)
        return worst
    finally:
        d.quit()
        ht.stop()
        table.close()


def play_to_phone(plays: int) -> list[float]:
    table = make_table("track", {"rules": "classic", "seats": 8}, seats=8, scale=100, seed=3)
    ht = web_host(table)
    sent: dict[tuple[int, int], float] = {}
    try:
        assert ht.host is not None and ht.host.web is not None
        people: list[Bot] = [host_bot(ht)]
        run_until(people, lambda: people[0].seat == 0)
        for i in range(6):
            people.append(join(f"127.0.0.1:{ht.port}", f"P{i + 1}"))
            run_until(people, lambda: people[-1].seat is not None)
        phone = PhoneBot(WsConn(ht.host.web.port, "Phone", ht.code))  # type: ignore[arg-type]
        bots = [*people, phone]
        run_until(bots, lambda: phone.seat is not None)
        for b in bots:  # time every play as it is sent: (seat, state_no it was made against)
            orig = b.c.play

            def timed(tok: str, state_no: int, ref: int | None = None, _o: Any = orig,
                      _b: Bot = b) -> bool:
                sent[(_b.seat or 0, state_no)] = time.monotonic()
                return bool(_o(tok, state_no, ref))

            b.c.play = timed  # type: ignore[method-assign,assignment]
        run_until(bots, lambda: sum(s["kind"] == "person" for s in people[0].seats) == 8)
        people[0].c.start_game()
        conn: WsConn = phone.c  # type: ignore[assignment]
        run_until(bots, lambda: table.state_no >= plays + 2 or table.phase == "over",
                  timeout=120, what=f"{plays} plays")
        lat = []
        prev = None
        for text, t in zip(list(conn.texts), list(conn.times), strict=False):
            m = json.loads(text)
            if m["t"] == "play" and prev is not None and (m["seat"], prev) in sent:
                lat.append((t - sent[(m["seat"], prev)]) * 1000)
            if "state_no" in m:
                prev = m["state_no"]
        for b in bots:
            b.c.close()
        return lat
    finally:
        ht.stop()
        table.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plays", type=int, default=300)
    ap.add_argument("--views", type=int, default=5)
    a = ap.parse_args()
    kb = page_kb()
    fv = first_view_ms(a.views)
    lat = play_to_phone(a.plays)
    p95 = statistics.quantiles(lat, n=20)[18] if len(lat) >= 20 else float("nan")
    print(f"plays timed: {len(lat)}, p50 {statistics.median(lat):.1f} ms", file=sys.stderr)
    print(f"web page_kb={kb:.1f} first_view_ms={fv:.0f} play_to_phone_p95_ms={p95:.1f}")


if __name__ == "__main__":
    main()
