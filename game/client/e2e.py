"""The end-to-end test hook: what this window shows, written to a folder, and screenshots on
request. It is on only when the environment variable ``TEE_TABLE_E2E_DIR`` names a folder.

* ``<dir>/status.json`` is rewritten (a temporary file, then a rename: readers never see half
  a file) after a drawn frame, at most every :data:`INTERVAL` seconds. Keys:

  ``seq`` (counts up), ``pid``, ``frames``, ``size`` ([w, h]), ``scene`` (the top scene's
  name: ``title``, ``new_table``, ``reopen``, ``join``, ``lobby``, ``track_table``,
  ``layout_table``, ``admin``, ...), ``scenes`` (the whole stack, bottom first), ``message``
  (the text the top scene shows now as an error or message, else ``null``),
  ``last_message`` (the last such text shown since start, kept after it goes away), and, when
  a table is open (any scene of the stack has a session):

  ``table``: ``game``, ``rules``, ``phase`` (``lobby``/``playing``/``over``), ``state_no``,
  ``hosting`` (bool: this program hosts the table on the LAN), ``local`` (bool: a table on
  this machine only: Play, Solo, hot seat), ``is_host`` (bool: this program may start the
  game and use ADMIN), ``code``, ``link``, ``port`` (the hosted port, or ``null``),
  ``connection`` (this program's link to the host: ``connected``, ``dropped``, ... ; a local
  table is always ``connected``), ``turn`` (the seat to move or ``null``), ``my_turn`` (bool:
  the seat to move is this screen's person's and the table is not paused or covered),
  ``paused`` (bool), ``pause`` (the reasons: ``[{"reason": "paused", "by": seat, "name":
  str}, {"reason": "ready"|"joining", "seats": [...], "names": [...]}, ...]``), ``speed``,
  ``seats`` (``[{"seat", "name", "label" (as the screen shows it: ``Blue CPU``), "kind":
  "person"|"cpu", "level", "connection":
  "connected"|"dropped", "ready", "mine"}]``), ``my_seat`` (this screen's seat or ``null``),
  ``my_seats`` (all seats played on this screen), ``legal`` (the legal play tokens when it
  is this screen's person's turn, else ``[]``; on a Trash table also ``[]`` until the
  animations of the last plays are over, as the screen takes no choice before), ``hint``
  (the hint's play token and reason once shown, ``"thinking"`` while it is computed),
  ``outcome`` and ``points`` (when over).

  Also, for driving the window by its real input: ``running`` (bool), ``app_message`` (the
  app's own message, shown on the title), ``banners`` (the last 10 distinct banners a table
  showed, such as a hand won, oldest first; watched every frame, so a short one is not
  missed) and ``stack``: one entry per scene, bottom first, with ``name``, ``class``,
  ``buttons`` (``{name: {"rect": [x, y, w, h], "visible", "enabled", "focused",
  "label"}}``: the scene's ``*_button`` attributes by that name, and the title's buttons by
  label), ``widgets`` (choices, toggles and sliders by attribute: ``value``, ``rect``,
  ``focused``, ``visible``), ``focus`` (the attribute name or label of the focused widget,
  or ``null``), ``entry`` and ``entry_box`` (the Join box's text, rectangle and focus),
  ``seat_rects`` / ``plate_rects`` (the lobby's seats, the table's name plates), the
  scene's ``error``, ``status``, ``message``, ``hint``, ``banner``, ``pick``,
  ``waiting_start`` when it has them, and on a table: ``my_turn``, ``show_pause``,
  ``i_must_ready``, ``paused``, ``manual_pause``, ``waiting_for``, ``legal`` /
  ``legal_now`` (play tokens), ``choice_card`` (the hand index picked, or ``null``),
  ``options`` (what the board highlights now, in the keyboard cursor's order: ``[kind, x,
  y, tokens]`` with ``kind`` ``peg`` or ``hole``, its window position and the play tokens
  it leads to), ``timeline_idle`` and ``animating`` (bool: animations are playing), and
  ``session`` (``remote``, ``is_host``, ``code``, ``link``, ``status``, ``failure``,
  ``refusal``, ``my_seats``, ``game``, ``public``: the table's public summary, ``view``:
  this seat's ``seat``, ``turn``, ``hand``, ``hand_counts`` ...).

  ``TEE_TABLE_E2E_INTERVAL`` (seconds, at least 0.01) changes :data:`INTERVAL`.

* Screenshots: when a file ``<dir>/shot-request-<name>`` appears, the next frame saves the
  window to ``<dir>/shot-<name>.png`` and deletes the request. ``<name>`` is letters, digits,
  ``-`` and ``_`` only; anything else is deleted without a shot.

Writing never stops the game: a failure is printed once to stderr and the hook carries on.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from game.client.choice import part
from game.client.lobby import LobbyScene
from game.client.scene import Scene
from game.client.screens import JoinScene, TitleScene
from game.client.table_base import TableScene
from game.client.table_scene import TrackTableScene
from game.client.widgets import Button, Choice, Slider, TextInput

if TYPE_CHECKING:
    from game.client.session import Session
    from game.client.stage import SceneLike


class App(Protocol):
    """What the hook reads of the app (the app module imports this one, never the reverse)."""

    scenes: list[SceneLike]
    frames: int
    message: str | None
    running: bool
    screen: pygame.Surface

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def top(self) -> SceneLike | None: ...

ENV = "TEE_TABLE_E2E_DIR"
INTERVAL_ENV = "TEE_TABLE_E2E_INTERVAL"
INTERVAL = 0.25
_NAME = re.compile(r"[A-Za-z0-9_-]{1,80}")


def _rect(r: Any) -> list[int]:
    return [int(r.x), int(r.y), int(r.w), int(r.h)]


def _button(b: Button) -> dict[str, Any]:
    return {"rect": _rect(b.rect), "visible": bool(b.visible), "enabled": bool(b.enabled),
            "focused": bool(b.focused), "label": str(b.label)}


def _plain(v: Any) -> Any:
    """Plain JSON of ``v`` (dict keys as strings, unknown objects as their str)."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple | set):
        return [_plain(x) for x in v]
    if v is None or isinstance(v, bool | int | float | str):
        return v
    return str(v)


def scene_message(scene: Any) -> str | None:
    """The error or message a scene shows now (``error`` first)."""
    for attr in ("error", "message"):
        text = getattr(scene, attr, None)
        if isinstance(text, str) and text:
            return text
    return None


def link_state(s: Session) -> dict[str, Any]:
    """A session's link to a LAN table: code, link, connection status, failure, refusal,
    hosting thread (a local table has none of these: its defaults)."""
    if not s.remote:
        return {"code": "", "link": "", "status": "connected", "failure": None,
                "refusal": None, "host_thread": None}
    return {"code": s.code or "", "link": s.link or "", "status": s.status,
            "failure": s.failure, "refusal": s.refusal, "host_thread": s.host_thread}


def table_status(scene: TableScene | LobbyScene) -> dict[str, Any]:
    """The ``table`` part of the status for the scene that owns a session."""
    s = scene.session
    pub: dict[str, Any] = dict(s.public or {})
    seats = list(pub.get("seats") or [])
    names = {int(x["seat"]): seat_name(x) for x in seats}
    tokens = s.tokens or {}
    try:
        view = s.view() or {}
    except Exception:  # no view yet (a LAN table still connecting)
        view = {}
    turn = view.get("turn", pub.get("to_move")) if pub.get("phase") == "playing" else None
    my_turn = False
    legal: list[str] = []
    if isinstance(scene, TableScene):
        try:
            my_turn = bool(scene.my_turn())
            if my_turn:
                legal = [str(p) for p in scene.legal_plays()]
        except Exception:  # a half-built scene: report what is known
            pass
    pause = []
    for r in pub.get("pause") or []:
        r2 = dict(r)
        if "seats" in r2:
            r2["names"] = [names.get(int(i), str(i)) for i in r2["seats"]]
        pause.append(r2)
    link = link_state(s)
    host_thread = link["host_thread"]
    port = None
    if host_thread is not None:
        try:
            port = int(host_thread.port)
        except Exception:
            port = None
    config = pub.get("config") or {}
    out: dict[str, Any] = {
        "game": s.game or pub.get("game"),
        "rules": config.get("rules", s.game),
        "phase": pub.get("phase"),
        "state_no": pub.get("state_no"),
        "hosting": host_thread is not None,
        "local": not s.remote,
        "is_host": bool(s.is_host),
        "code": link["code"],
        "link": link["link"],
        "port": port,
        "connection": link["status"],
        "turn": turn,
        "my_turn": my_turn,
        "paused": bool(pub.get("pause")) and pub.get("phase") == "playing",
        "pause": pause,
        "speed": pub.get("speed"),
        "seats": [{
            "seat": x.get("seat"), "name": x.get("name"), "label": seat_name(x),
            "kind": x.get("kind"),
            "level": x.get("level"),
            "connection": "connected" if x.get("connected", True) else "dropped",
            "ready": x.get("ready"), "mine": x.get("seat") in tokens,
        } for x in seats],
        "my_seat": s.screen_seat(),
        "my_seats": sorted(int(k) for k in tokens),
        "legal": legal,
        "hint": scene.hint_status() if isinstance(scene, TableScene) else None,
        "outcome": pub.get("outcome") if pub.get("phase") == "over" else None,
        "points": pub.get("points") if pub.get("phase") == "over" else None,
    }
    return out


def session_detail(s: Session) -> dict[str, Any]:
    """The ``session`` part of a scene's entry in ``stack``."""
    link = link_state(s)
    out: dict[str, Any] = {
        "remote": bool(s.remote),
        "is_host": bool(s.is_host),
        "code": link["code"],
        "link": link["link"],
        "status": link["status"] if s.remote else "",
        "failure": _plain(link["failure"]),
        "refusal": link["refusal"],
        "my_seats": sorted(int(k) for k in s.tokens),
        "game": s.game,
    }
    pub = s.public or {}
    out["public"] = _plain({k: pub.get(k) for k in (
        "phase", "pause", "speed", "state_no", "seats", "outcome", "points", "config", "game",
        "turns")})
    try:
        v = s.view() or {}
    except Exception:  # no view yet (a LAN table still connecting)
        v = {}
    out["view"] = _plain({k: v.get(k) for k in (
        "seat", "turn", "hand", "legal", "hand_counts", "won", "sizes", "stock", "holding")
        if k in v})
    if "hand" in v and not isinstance(v.get("hand"), list):
        out["view"]["hand_no"] = v.get("hand")
    return out


def board_options(sc: TrackTableScene) -> list[list[Any]]:
    """What a track table highlights now, in the keyboard cursor's order: ``[kind, x, y,
    tokens]`` for each highlighted hole (``hole``) or movable peg (``peg``)."""
    out: list[list[Any]] = []
    view = sc.view()
    targets = {h: plays for h, _tag, plays in sc.targets()}
    ch = sc.choice
    for kind, what in sc.keyboard_options():
        if kind == "hole":
            hole = what
            tokens = [str(p) for p in targets.get(hole, [])]
        else:
            colour, loc = what
            hole = next(p.hole for p in sc.pegs()
                        if p.seat == colour and view["pegs"][p.seat][p.peg] == loc)
            k = 0 if ch.first is None else 1
            plays = sc._first_parts() if k == 0 else sc.split_plays()
            tokens = [str(p) for p in plays if len(p.parts) > k and
                      part(p, k).peg == (colour, loc)]
        assert sc.geom is not None
        x, y = sc.geom.point(hole)
        out.append([kind, round(x), round(y), tokens])
    return out


def _focus_name(sc: Scene) -> str | None:
    f = sc.form.focused
    if f is None:
        return None
    for attr, w in vars(sc).items():
        if w is f:
            return attr
    return str(f.label) if isinstance(f, Button | Choice | Slider | TextInput) else \
        type(f).__name__


def scene_detail(sc: Scene) -> dict[str, Any]:
    """One scene's entry in ``stack`` (see the module docstring)."""
    d: dict[str, Any] = {"name": sc.name,
                         "class": type(sc).__name__}
    buttons: dict[str, Any] = {}
    for attr, b in vars(sc).items():
        if attr.endswith("_button") and isinstance(b, Button):
            buttons[attr[:-len("_button")]] = _button(b)
    if isinstance(sc, TitleScene):  # the title screen's buttons, by label
        for b in sc.buttons:
            buttons[str(b.label)] = _button(b)
    d["buttons"] = buttons
    d["focus"] = _focus_name(sc)
    for attr in ("error", "status", "message", "hint", "banner", "pick", "waiting_start"):
        if hasattr(sc, attr):
            d[attr] = _plain(getattr(sc, attr))
    if isinstance(sc, JoinScene):
        d["entry"] = sc.entry.text
        d["entry_box"] = {"rect": _rect(sc.entry.rect), "focused": bool(sc.entry.focused)}
    if isinstance(sc, LobbyScene):
        d["seat_rects"] = [_rect(r) for r in sc.seat_rects]
    if isinstance(sc, TrackTableScene):
        d["plate_rects"] = [_rect(r) for r in sc.plate_rects]
    widgets: dict[str, Any] = {}
    for attr, w in vars(sc).items():  # choices, toggles and sliders (they have a value)
        if isinstance(w, Choice | Slider):
            try:
                widgets[attr] = {"value": _plain(w.value), "rect": _rect(w.rect),
                                 "focused": bool(w.focused), "visible": bool(w.visible)}
            except Exception:  # a widget half set up: leave it out
                continue
    d["widgets"] = widgets
    if isinstance(sc, TableScene):
        for name, meth in (("my_turn", sc.my_turn), ("show_pause", sc.show_pause),
                           ("i_must_ready", sc.i_must_ready), ("paused", sc.paused)):
            try:
                d[name] = bool(meth())
            except Exception as e:  # a half-built scene: say so, never crash the game
                d[name] = f"error: {e}"
        try:
            d["manual_pause"] = _plain(sc.manual_pause())
            d["waiting_for"] = _plain(sc.waiting_for())
        except Exception:
            pass
        with contextlib.suppress(Exception):
            d["legal_now"] = [str(p) for p in sc.legal_plays()]
        d["timeline_idle"] = bool(sc.timeline.idle)
        d["animating"] = not sc.timeline.idle
    if isinstance(sc, TrackTableScene):
        d["legal"] = [str(p) for p in sc.legal]
        d["choice_card"] = sc.choice.card
        if sc.choice.card is not None and sc.geom is not None:
            with contextlib.suppress(Exception):
                d["options"] = board_options(sc)
    if isinstance(sc, TableScene | LobbyScene):
        d["session"] = session_detail(sc.session)
    return d


def seat_name(seat: dict[str, Any]) -> str:
    if seat.get("kind") == "person":
        return str(seat.get("name"))
    from game.client import theme

    return f"{theme.SEAT_COLOUR_NAMES[int(seat.get('seat', 0)) % 8]} CPU"


class E2EHook:
    """Writes ``status.json`` and answers screenshot requests in ``folder`` (see the module
    docstring). :meth:`after_frame` is called by :meth:`App.frame` after each flip."""

    def __init__(self, folder: str | os.PathLike[str], interval: float = INTERVAL) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.interval = interval
        self.seq = 0
        self.last_write = -1e9
        self.last_message: str | None = None
        self.banners: list[str] = []
        self._complained = False

    @classmethod
    def from_env(cls) -> E2EHook | None:
        folder = os.environ.get(ENV)
        if not folder:
            return None
        interval = INTERVAL
        try:
            interval = max(0.01, float(os.environ.get(INTERVAL_ENV, INTERVAL)))
        except ValueError:
            print(f"tee-table e2e hook: {INTERVAL_ENV} is not a number", file=sys.stderr)
        try:
            return cls(folder, interval)
        except OSError as e:
            print(f"tee-table e2e hook: cannot use {folder}: {e}", file=sys.stderr)
            return None

    def _complain(self, e: Exception) -> None:
        if not self._complained:
            self._complained = True
            print(f"tee-table e2e hook: {type(e).__name__}: {e}", file=sys.stderr)

    def status(self, app: App) -> dict[str, Any]:
        top = app.top
        msg = scene_message(top) if top is not None else None
        if msg is None and app.message:
            msg = app.message
        if msg:
            self.last_message = msg
        out: dict[str, Any] = {
            "seq": self.seq, "pid": os.getpid(), "frames": app.frames,
            "time": time.time(), "size": list(app.size),
            "scene": top.name if top is not None else None,
            "scenes": [s.name for s in app.scenes],
            "message": msg, "last_message": self.last_message,
            "running": bool(app.running), "app_message": app.message,
            "banners": list(self.banners),
            "stack": [scene_detail(s) for s in app.scenes if isinstance(s, Scene)],
        }
        owner = next((s for s in reversed(app.scenes)
                      if isinstance(s, TableScene | LobbyScene)), None)
        if owner is not None:
            out["table"] = table_status(owner)
        return out

    def write_status(self, app: App) -> None:
        self.seq += 1
        data = json.dumps(_plain(self.status(app)))
        tmp = self.folder / f".status.json.{os.getpid()}.tmp"
        tmp.write_text(data)
        os.replace(tmp, self.folder / "status.json")

    def take_shots(self, app: App) -> list[Path]:
        saved: list[Path] = []
        for req in sorted(self.folder.glob("shot-request-*")):
            name = req.name[len("shot-request-"):]
            if _NAME.fullmatch(name):
                target = self.folder / f"shot-{name}.png"
                tmp = self.folder / f".shot-{name}.tmp.png"
                pygame.image.save(app.screen, str(tmp))
                os.replace(tmp, target)
                saved.append(target)
            req.unlink(missing_ok=True)
        return saved

    def after_frame(self, app: App, now: float | None = None) -> None:
        try:
            for sc in app.scenes:  # every frame: a short banner is not missed
                text = sc.banner if isinstance(sc, Scene) else None
                if isinstance(text, str) and text and (not self.banners or
                                                       self.banners[-1] != text):
                    self.banners = [*self.banners, text][-10:]
            self.take_shots(app)
            now = time.monotonic() if now is None else now
            if now - self.last_write >= self.interval:
                self.last_write = now
                self.write_status(app)
        except Exception as e:  # reporting must never stop the game
            self._complain(e)
