"""Benchmark: a host with 7 clients on loopback (run by hand: ``python bench/net.py``).

An 8-seat track table (``classic``) on a :class:`net.host.HostThread`: 7 people, each a real
:class:`net.client.Client` on its own thread, and one CPU. The people play the first legal play
as soon as it is their turn; the table runs at ``blitz`` on a sped-up clock so CPU waits do not
dominate. Measured:

* ``play_to_views``: from a person's ``Client.play()`` call to the moment the resulting
  ``events`` message has reached all 7 clients (timed in each client's network thread by the
  ``notify`` hook, with ``time.monotonic``, which all processes share on Linux), p50 and p95
  over every person's play. Each client runs in its own process, as on its own machine, so
  the clients do not compete for one interpreter lock;
* ``reconnect``: from cutting a client's TCP connection to its fresh snapshot (median of
  several drops during the game; a rejoin also pauses the table until Ready, not counted);
* the game is cut after ``--plays`` plays (first-legal players take thousands of plays to end
  an 8-seat game);
* ``bytes_per_play``: bytes each client received (frames and headers, everything: snapshots,
  seats, pause changes, pings) divided by the plays of the game, averaged over clients.

Prints one final line::

    net clients=7 play_to_views_p50_ms=<a> p95_ms=<b> reconnect_ms=<c> bytes_per_play=<d>
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.cpu_worker import SyncCpu
from game.table import SeatSpec, Table, rules_for
from net.client import CONNECTED, Client
from net.host import HostThread


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[k]


class Player:
    """One person: a real Client in its own process (its own machine, in real life)."""

    def __init__(self, port: int, name: str) -> None:
        self.arrivals: dict[int, float] = {}
        self.sent: dict[int, float] = {}
        self.snap_at: list[float] = []
        self.c = Client(f"127.0.0.1:{port}", name, notify=self._note).start()
        self.seat: int | None = None
        self.state_no = -1
        self.view: dict[str, Any] | None = None
        self.to_move: int | None = None
        self.phase = ""
        self.pause: list[dict[str, Any]] = []
        self.outcome: Any = None
        self.played_at = -1
        self.ready_key: Any = None

    def _note(self, m: dict[str, Any]) -> None:
        now = time.monotonic()  # CLOCK_MONOTONIC: comparable across processes on Linux
        if m["t"] == "play":
            self.arrivals[m["state_no"]] = now
        elif m["t"] == "snapshot":
            self.snap_at.append(now)

    def step(self) -> None:
        for m in self.c.poll():
            t = m["t"]
            if t in ("snapshot", "reset"):  # the table's own messages (protocol version 2)
                snap = m if t == "snapshot" else m["snapshot"]
                self.seat, self.state_no, self.view = snap["seat"], snap["state_no"], snap["view"]
                self.phase, self.pause, self.outcome = snap["phase"], snap["pause"], snap["outcome"]
                self.to_move = snap["to_move"]
                self.played_at = -1
                self.ready_key = None
            elif t in ("play", "start"):
                self.state_no, self.view, self.to_move = m["state_no"], m["view"], m["to_move"]
                self.outcome = m.get("outcome")
            elif t == "table":
                self.phase, self.to_move, self.pause = m["phase"], m["to_move"], m["pause"]
            elif t == "refused" and m.get("of") == "play":
                self.played_at = -1
        if self.c.status.state != CONNECTED:
            return
        mine = any(self.seat in r.get("seats", ()) for r in self.pause
                   if r["reason"] in ("ready", "joining"))
        if mine:
            key = repr(self.pause)
            if key != self.ready_key and self.c.ready():
                self.ready_key = key
            return
        if (self.phase == "playing" and not self.pause and self.to_move == self.seat
                and self.view is not None and self.played_at != self.state_no
                and self.outcome is None):
            rules = rules_for("track")
            legal = [str(p) for p in rules.legal_plays(rules.determinize(self.view, 1))]
            if legal:
                self.sent[self.state_no + 1] = time.monotonic()
                self.c.play(legal[0], self.state_no)
                self.played_at = self.state_no


def player_process(port: int, name: str, ctrl: Any) -> None:
    p = Player(port, name)
    reconnects: list[float] = []
    while True:
        p.step()
        if ctrl.poll():
            cmd = ctrl.recv()
            if cmd == "stop":
                break
            if cmd == "drop":
                n = len(p.snap_at)
                t0 = time.monotonic()
                p.c.drop_connection()
                while len(p.snap_at) == n and time.monotonic() - t0 < 30:
                    p.step()
                    time.sleep(0.0002)
                reconnects.append((p.snap_at[-1] - t0) * 1000)
                ctrl.send(("dropped", reconnects[-1]))
        time.sleep(0.0002)
    time.sleep(0.05)
    p.step()
    ctrl.send(("done", {"sent": p.sent, "arrivals": p.arrivals, "reconnects": reconnects,
                        "bytes": p.c.bytes_received, "seat": p.seat}))
    p.c.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--drops", type=int, default=8, help="reconnects to time per game")
    ap.add_argument("--plays", type=int, default=1200,
                    help="stop a game after this many plays (first-legal play is slow to end)")
    args = ap.parse_args(argv)

    lat: list[float] = []
    recon: list[float] = []
    bpp: list[float] = []
    for g in range(args.games):
        t0 = time.monotonic()
        table = Table.create(
            "track", {"rules": "classic", "seats": 8}, args.seed + g,
            [SeatSpec("cpu", level="easy") for _ in range(8)],
            clock=lambda t0=t0: t0 + (time.monotonic() - t0) * 20, speed="blitz",
            cpu=SyncCpu(), fsync=False,
        )
        ht = HostThread(table, bind="127.0.0.1", port=0, discovery=None,
                        tick_interval=0.002).start()
        ctx = mp.get_context("spawn")
        pipes, procs = [], []
        for i in range(7):
            a, b = ctx.Pipe()
            pr = ctx.Process(target=player_process, args=(ht.port, f"P{i}", b), daemon=True)
            pr.start()
            pipes.append(a)
            procs.append(pr)
        deadline = time.monotonic() + 300

        def people(ht: HostThread = ht) -> int:
            return ht.call(lambda h: sum(s["kind"] == "person"
                                         for s in h.glue.table.public()["seats"]))

        while people() < 7:
            if time.monotonic() > deadline:
                print("players did not join", file=sys.stderr)
                return 1
            time.sleep(0.05)
        ht.call(lambda h: h.glue.table.start(h.glue.table.host_token))
        drops_done, next_drop = 0, 40
        while time.monotonic() < deadline:
            n = table.state_no
            if table.phase == "over" or n >= args.plays:
                break
            if drops_done < args.drops and n >= next_drop:
                pipes[drops_done % 7].send("drop")
                _kind, ms = pipes[drops_done % 7].recv()
                recon.append(ms)
                drops_done += 1
                next_drop = table.state_no + args.plays // (args.drops + 2)
            time.sleep(0.01)
        results = []
        for a in pipes:
            a.send("stop")
        for a in pipes:
            _kind, res = a.recv()
            results.append(res)
        for pr in procs:
            pr.join(10)
        arrivals = [r["arrivals"] for r in results]
        for r in results:
            for n, t_send in r["sent"].items():
                got = [arr[n] for arr in arrivals if n in arr]
                if len(got) == 7:
                    lat.append((max(got) - t_send) * 1000)
        plays = table.state_no
        bpp.extend(r["bytes"] / plays for r in results)
        print(f"game {g}: plays={plays} person_plays={sum(len(r['sent']) for r in results)} "
              f"cpu_plays={table.cpu_plays} drops={drops_done} timed_plays={len(lat)} "
              f"bytes_per_client={statistics.mean(r['bytes'] for r in results):.0f}")
        ht.stop()
        table.close()
    print(f"net clients=7 play_to_views_p50_ms={pct(lat, 0.5):.2f} p95_ms={pct(lat, 0.95):.2f} "
          f"reconnect_ms={statistics.median(recon) if recon else float('nan'):.1f} "
          f"bytes_per_play={statistics.mean(bpp):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
