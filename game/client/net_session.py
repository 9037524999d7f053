"""A table across the LAN: the client's side of ``net.client.Client`` (and of the host).

:class:`NetSession` implements :class:`~game.client.session.Session` on the same
:class:`~game.client.session.SessionBase` as :class:`~game.client.session.LocalSession`: the
wire carries the table's own messages one to one (``t`` for ``type``), so ``poll()`` turns each
back into the table message (:func:`game.table.messages.from_wire`), folds it into ``public``
and ``views`` through the one handler, and gives it to the scenes. Intents are sent at once and
answered later: the returned :class:`~game.table.Result` only says whether it was sent; a
refusal arrives as a message and is kept in :attr:`NetSession.refusal`.

This program's seat (``tokens``) is set when the host's ``snapshot`` brings the seats, never
on ``welcome`` alone (the ``welcome`` and the ``snapshot`` may come in different polls: a scene
must never see a seat of its own that is not in ``seats`` yet).

Hosting: :func:`host_table` creates the authoritative :class:`~game.table.Table` with the
host's own person in seat 0, runs a :class:`net.host.HostThread` beside the pygame loop, and
joins it over loopback like everyone else (one path for every play).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.client.session import SessionBase
from game.table import Result, SeatSpec, Table
from game.table.messages import TABLE_MESSAGES, TableMessage, from_wire


class NetSession(SessionBase):
    remote = True

    def __init__(self, client: Any, host_thread: Any = None, table: Table | None = None,
                 cpu: Any = None, on_seat: Callable[[NetSession], None] | None = None,
                 fresh_client: Callable[[], Any] | None = None) -> None:
        self.client = client
        #: Called after the host gives this program a seat (or moves it): the app keeps the
        #: token in the data folder so a relaunched program rejoins the same seat.
        self.on_seat = on_seat
        #: When the join used a remembered token and the host does not know it (a different
        #: table under the same code), the join is retried once with this fresh client.
        self.fresh_client = fresh_client
        self.host_thread = host_thread
        self._table = table  # only when hosting, for closing it (never touched otherwise)
        self._cpu = cpu
        self.game = "track"
        self.public: dict[str, Any] = {
            "seats": [], "pause": [{"reason": "lobby"}], "speed": "normal", "phase": "lobby",
            "state_no": 0, "config": {}, "screen_owner": None, "cover": False, "turns": 0,
            "outcome": None, "points": {}, "game": "track", "to_move": None, "paused_by": None,
            "table_id": "", "save_error": None,
        }
        self.views: dict[int | None, dict[str, Any]] = {None: {}}
        self.tokens: dict[int, str] = {}
        self.is_host = host_thread is not None
        self.code = ""
        self.link = ""
        self.status = "connecting"
        self.failure: tuple[str, str] | None = None  # (reason, message) once it gave up
        self.refusal: str | None = None
        self.welcomed = False
        self._welcome: tuple[int | None, str] | None = None  # (seat, token) until the snapshot
        #: The hosted table's save file (hosting only), for Reopen a saved table.
        self.save_path: Path | None = None
        #: This connection watches (its watcher number, from the welcome; None: a seat or the
        #: admin) and the host's words why (``docs/seats.md``).
        self.watcher: int | None = None
        self.watch_note = ""

    # ------------------------------------------------------------------ messages
    def poll(self) -> list[TableMessage]:
        out: list[TableMessage] = []
        for m in self.client.poll():
            t = m.get("t")
            if t == "_conn":
                self.status = m["state"]
                if m["state"] == "failed":
                    reason = m.get("reason") or "unreachable"
                    # a remembered seat this table does not know, or a table with another
                    # key under the code: join afresh, as a newcomer (no secret goes there)
                    if reason in ("bad_token", "wrong_host") and \
                            self.fresh_client is not None and not self.welcomed:
                        self.client.close(timeout=1.0)
                        self.client = self.fresh_client()
                        self.fresh_client = None
                        self.status = "connecting"
                        break
                    self.failure = (reason, m.get("message") or "")
                    if reason == "several_tables":
                        self.choices = [(a.describe(), str(a.link))
                                        for a in self.client.answers]
            elif t == "welcome":
                self.welcomed = True
                tab = m.get("table") or {}
                self.code = tab.get("code", "")
                self.link = tab.get("link", "")
                self.game = tab.get("game", self.game)
                self.is_host = bool(tab.get("is_host")) or self.is_host
                self.public["config"] = tab.get("config", {})
                self.public["game"] = self.game
                # the seat is ours once the snapshot that follows brings the seats
                self._welcome = (m.get("seat"), m.get("token") or "")
                self.watcher = m.get("watcher")
                self.watch_note = str(m.get("note") or "")
            elif t in TABLE_MESSAGES:
                msg = from_wire(m)
                seat = self.screen_seat()
                if msg["type"] == "snapshot":
                    seat = msg["seat"]
                    self._seated(seat)
                elif msg["type"] == "reset":
                    seat = msg["snapshot"]["seat"]
                self.take(msg, seat)
                out.append(msg)
            elif t == "refused":
                self.refusal = m.get("message") or m.get("code")
        return self.delivered(out)

    def _seated(self, seat: int | None) -> None:
        """The snapshot after a ``welcome`` names this program's seat: it is ours now."""
        welcome, self._welcome = self._welcome, None
        token = (welcome[1] if welcome is not None else "") or self.client.token
        if seat is None or not token:
            self.tokens = {}
            return
        if self.tokens.get(seat) != token:
            self.tokens = {seat: token}
            if self.on_seat is not None:
                self.on_seat(self)

    # ------------------------------------------------------------------ intents
    def _sent(self, ok: bool, what: str) -> Result:
        self.refusal = None
        if ok:
            return Result(True, "ok", f"{what} sent", self.public["state_no"])
        return Result(False, "not_connected", "not connected to the host right now",
                      self.public["state_no"])

    def sit(self, seat: int, name: str) -> Result:
        return self._sent(self.client.sit(seat), "sit")

    def rename(self, seat: int, name: str) -> Result:
        return Result(False, "not_allowed", "on a LAN table your name is the one you joined with",
                      self.public["state_no"])

    def leave(self, seat: int) -> Result:
        return Result(False, "not_allowed", "on a LAN table, tap another colour to move",
                      self.public["state_no"])

    def set_cpu(self, seat: int, level: str) -> Result:
        return self._sent(self.client.set_cpu(seat, level), "level")

    def start(self) -> Result:
        r = self._sent(self.client.start_game(), "start")
        if r.ok:
            self.client.ready()
        return r

    def play(self, seat: int, token: str, state_no: int | None = None) -> Result:
        n = self.shown_state_no if state_no is None else state_no
        return self._sent(self.client.play(token, n), "play")

    def pause(self) -> Result:
        return self._sent(self.client.pause(), "pause")

    def ready(self) -> Result:
        return self._sent(self.client.ready(), "ready")

    def set_speed(self, name: str) -> Result:
        return self._sent(self.client.set_speed(name), "speed")

    def hand_to_cpu(self, seat: int, level: str = "tricky") -> Result:
        return self._sent(self.client.hand_to_cpu(seat, level), "hand over")

    def remove(self, seat: int) -> Result:
        return self._sent(self.client.send({"t": "remove", "seat": seat}), "remove")

    def end_pause(self) -> Result:
        return self._sent(self.client.send({"t": "end_pause"}), "end pause")

    def set_turn_clock(self, seconds: float | None) -> Result:
        return self._sent(self.client.send({"t": "turn_clock", "seconds": seconds}), "turn clock")

    def tap_in(self, seat: int) -> Result:
        return Result(False, "not_allowed", "no hot seat on a LAN table", 0)

    # ------------------------------------------------------------------ watchers (issue 17)
    def ask_seat(self, seat: int) -> Result:
        """A watcher asks for a CPU seat (it changes hands at that seat's next turn)."""
        return self._sent(self.client.ask_seat(seat), "request")

    def accept_seat(self, seat: int) -> Result:
        return self._sent(self.client.accept_seat(seat), "accept")

    def decline_seat(self, seat: int) -> Result:
        return self._sent(self.client.decline_seat(seat), "decline")

    def hand_to_watcher(self, seat: int, watcher: int) -> Result:
        """Leave this seat for good to a waiting watcher (the host: give a CPU seat)."""
        return self._sent(self.client.hand_to_watcher(seat, watcher), "hand over")

    def remove_watcher(self, watcher: int) -> Result:
        return self._sent(self.client.remove_watcher(watcher), "remove")

    def allow_watchers(self, allowed: bool) -> Result:
        return self._sent(self.client.allow_watchers(allowed), "watchers")

    def auto_seat(self, on: bool) -> Result:
        return self._sent(self.client.auto_seat(on), "seat setting")

    def take_seat(self, seat: int, name: str) -> Result:
        return Result(False, "not_allowed", "on a LAN table, watch and ask for a seat",
                      self.public["state_no"])

    def undo(self) -> Result:
        return Result(False, "not_allowed", "undo is only for solo games", 0)

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        self.client.close(timeout=2.0)
        if self.host_thread is not None:
            self.host_thread.stop(timeout=2.0)
            self.host_thread = None
        if self._table is not None:
            self._table.close()
            self._table = None
        if self._cpu is not None:
            self._cpu.close()
            self._cpu = None


def host_table(game: str, config: dict[str, Any], name: str, speed: str, cpu: Any,
               bind: str = "0.0.0.0", port: int | None = None,
               discovery: tuple[str, int] | None = ("0.0.0.0", 47801),
               seed: int | None = None, *, cpu_level: str = "tricky",
               code: str | None = None, advertise: str | None = None,
               save_path: str | Path | None = None, resume: str | Path | None = None,
               fsync: bool = True, web: bool | None = None,
               web_port: int | None = None, table_screen: bool | None = None) -> NetSession:
    """Create the authoritative table (or reopen one from its save with ``resume``), host it
    on the LAN, and join it over loopback.

    ``web``: also serve phones (``docs/web.md``: a :class:`net.web.WebConfig` whose
    ``describe`` is :func:`game.client.describe.describe_token`, so phones see the plays in
    the moves list's words); None takes ``config["web"]`` (New table's "Phones can join"),
    else on for a reopened table (the window's tables serve phones) and off for a new one.
    ``web_port``: its port (None: the TCP port + 1, or any free one when the TCP
    port is any free one); the link is then ``host_thread.web_url``.

    ``table_screen`` (None: ``config["table_screen"]``, else off): everyone plays on a phone,
    the host too; this window shows only the board (for a TV). The host then has no seat
    (every seat starts as a CPU, for the phones to take; the host's program joins with the
    admin token) and the session's ``table_screen`` is set. A reopened table keeps what it was.

    ``save_path``: the new table's save file (None: no save). ``resume``: a save file to
    reopen: the same seats and tokens; with ``code`` (and ``port``) as before, everyone's
    program rejoins its seat by itself. ``port`` None tries the usual port, then any free one.
    Raises ``OSError`` when the network cannot be opened and :class:`~game.table.TableError`
    (``SaveError``...) for a save that cannot be used; nothing is left running then.
    """
    import secrets

    from net.client import Client
    from net.codes import DEFAULT_PORT
    from net.host import HostThread

    if web is None:
        web = bool(config.get("web", resume is not None))
    if table_screen is None:
        table_screen = bool(config.get("table_screen", False))
    if resume is not None:
        table = Table.resume(resume, clock=time.monotonic, cpu=cpu, fsync=fsync)
        game = table.game
    else:
        cfg = {k: v for k, v in config.items() if k not in ("game", "web", "table_screen")}
        rules_seed = secrets.randbits(63) if seed is None else seed
        probe = Table.create(game, cfg, rules_seed, clock=time.monotonic)
        count = probe.seat_count
        probe.close()
        mine = [] if table_screen else [SeatSpec("person", name)]
        seats = mine + [SeatSpec("cpu", level=cpu_level) for _ in range(count - len(mine))]
        table = Table.create(game, cfg, rules_seed, seats, clock=time.monotonic, speed=speed,
                             host_seat=None if table_screen else 0, cpu=cpu,
                             save_path=save_path, fsync=fsync)
    ht = None
    last_error: Exception | None = None
    for p in ([DEFAULT_PORT, 0] if port is None else [port]):
        try:
            ht = HostThread(table, bind=bind, port=p, discovery=discovery, code=code,
                            advertise=advertise, web=_web_config(web, web_port, p)).start()
            break
        except OSError as e:
            last_error = e
        except Exception as e:  # a bad --code or --advertise: the table must not stay open
            table.close()
            raise OSError(str(e)) from None
    if ht is None:
        table.close()
        raise OSError(f"could not open the table on the network: {last_error}")
    client = Client(ht.local_link, name, token=ht.host_token).start()
    session = NetSession(client, ht, table, cpu)
    session.game = game
    session.code = ht.code
    session.link = str(ht.link)
    session.save_path = table.save_path
    session.table_screen = table.host_seat is None
    print(f"Tee Table: hosting table {ht.code} - join with the code or {ht.link}", flush=True)
    if ht.web_url:
        print(f"Tee Table: phones join at {ht.web_url}", flush=True)
    return session


def _web_config(web: bool, web_port: int | None, tcp_port: int) -> Any:
    """The phones' :class:`net.web.WebConfig` for a host on ``tcp_port`` (None: no phones).
    A host on any free TCP port serves phones on any free port too (its + 1 may be taken)."""
    if not web:
        return None
    from game.client.describe import describe_token
    from net.web import WebConfig

    port = web_port if web_port is not None else (None if tcp_port else 0)
    return WebConfig(port=port, describe=describe_token)


if TYPE_CHECKING:  # mypy checks that both sessions implement the one Session interface
    from game.client.session import LocalSession, Session

    def _both_are_sessions(local: LocalSession, net: NetSession) -> tuple[Session, Session]:
        return local, net
