"""Run the real game (``python main.py ARGS``) with a read-only observer for the end-to-end test.

    TEE_TABLE_E2E_DIR=/tmp/x python tools/e2e_probe.py --data /tmp/data [main.py options]

This is ``main.py`` exactly (it calls :func:`game.launch.main` with the same arguments), plus one
thing: after each drawn frame (at most every 20 ms) it writes what is on the screen to
``$TEE_TABLE_E2E_DIR/state.json`` (atomically: a temporary file, then a rename): the scene
stack, the table's public summary, this seat's turn and hand, the pause reasons, the buttons'
rectangles in window coordinates, and so on. The end-to-end test reads that file to know when a
step happened and where a button is; every input still goes through the real X window (xdotool
key presses and clicks), so the observer never changes the game.

If ``$TEE_TABLE_E2E_DIR/shot.request`` appears, holding a file name, the observer also saves the
window's own surface there (``pygame.image.save``) and deletes the request.

Why a wrapper: the client has no test hook of its own that reports its state; the wrapper only
reads attributes of the app and its scenes.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

INTERVAL = 0.02


def _rect(r: Any) -> list[int]:
    return [int(r.x), int(r.y), int(r.w), int(r.h)]


def _button(b: Any) -> dict[str, Any]:
    return {"rect": _rect(b.rect), "visible": bool(b.visible), "enabled": bool(b.enabled),
            "focused": bool(getattr(b, "focused", False))}


def _jsonable(v: Any) -> Any:
    """Plain JSON of ``v`` (dict keys as strings, unknown objects as their str)."""
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, list | tuple | set):
        return [_jsonable(x) for x in v]
    if v is None or isinstance(v, bool | int | float | str):
        return v
    return str(v)


def _session_state(s: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "remote": bool(getattr(s, "remote", False)),
        "is_host": bool(getattr(s, "is_host", False)),
        "code": getattr(s, "code", ""),
        "link": getattr(s, "link", ""),
        "status": getattr(s, "status", ""),
        "failure": _jsonable(getattr(s, "failure", None)),
        "refusal": getattr(s, "refusal", None),
        "my_seats": sorted(int(k) for k in getattr(s, "tokens", {})),
        "game": getattr(s, "game", ""),
    }
    pub = getattr(s, "public", {}) or {}
    out["public"] = _jsonable({k: pub.get(k) for k in (
        "phase", "pause", "speed", "state_no", "seats", "outcome", "points", "config", "game",
        "turns")})
    try:
        v = s.view()
    except Exception:  # no view yet
        v = {}
    out["view"] = _jsonable({k: v.get(k) for k in (
        "seat", "turn", "hand", "legal", "hand_counts", "won", "sizes", "stock", "holding")
        if k in v})
    if "hand" in v and not isinstance(v.get("hand"), list):
        out["view"]["hand_no"] = v.get("hand")
    return out


def _options(sc: Any) -> list[list[Any]]:
    """Where the choices the board offers now are on the screen: ``[kind, x, y]`` for each
    highlighted hole (``hole``) or movable peg (``peg``), in the keyboard cursor's order."""
    out: list[list[Any]] = []
    view = sc.view()
    for kind, what in sc.keyboard_options():
        if kind == "hole":
            hole = what
        else:
            colour, loc = what
            hole = next(p.hole for p in sc.pegs()
                        if p.seat == colour and view["pegs"][p.seat][p.peg] == loc)
        x, y = sc.geom.point(hole)
        out.append([kind, round(x), round(y)])
    return out


def _scene_state(sc: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"name": getattr(sc, "name", type(sc).__name__),
                         "class": type(sc).__name__}
    buttons: dict[str, Any] = {}
    for attr in dir(sc):
        if attr.endswith("_button"):
            b = getattr(sc, attr, None)
            if b is not None and hasattr(b, "rect"):
                buttons[attr[:-len("_button")]] = _button(b)
    if hasattr(sc, "buttons"):  # the title screen
        for b in sc.buttons:
            buttons[b.label] = _button(b)
    d["buttons"] = buttons
    for attr in ("error", "status", "message", "hint", "banner", "pick", "waiting_start"):
        if hasattr(sc, attr):
            d[attr] = _jsonable(getattr(sc, attr))
    if hasattr(sc, "entry"):
        d["entry"] = sc.entry.text
        d["entry_box"] = {"rect": _rect(sc.entry.rect), "focused": bool(sc.entry.focused)}
    if hasattr(sc, "seat_rects"):
        d["seat_rects"] = [_rect(r) for r in sc.seat_rects]
    if hasattr(sc, "plate_rects"):
        d["plate_rects"] = [_rect(r) for r in sc.plate_rects]
    widgets: dict[str, Any] = {}
    for attr, w in vars(sc).items():  # choices and toggles (they have a value)
        if hasattr(w, "value") and hasattr(w, "rect") and hasattr(w, "focused"):
            with contextlib.suppress(Exception):
                widgets[attr] = {"value": _jsonable(w.value), "rect": _rect(w.rect),
                                 "focused": bool(w.focused), "visible": bool(w.visible)}
    d["widgets"] = widgets
    for meth in ("my_turn", "show_pause", "i_must_ready", "paused"):
        f = getattr(sc, meth, None)
        if callable(f):
            try:
                d[meth] = bool(f())
            except Exception as e:  # a half-built scene: say so, never crash the game
                d[meth] = f"error: {e}"
    if hasattr(sc, "manual_pause"):
        try:
            d["manual_pause"] = _jsonable(sc.manual_pause())
            d["waiting_for"] = _jsonable(sc.waiting_for())
        except Exception:
            pass
    if hasattr(sc, "legal"):
        d["legal"] = [str(p) for p in sc.legal]
    if callable(getattr(sc, "legal_plays", None)):
        with contextlib.suppress(Exception):
            d["legal_now"] = [str(p) for p in sc.legal_plays()]
    if hasattr(sc, "choice") and hasattr(sc.choice, "card"):
        d["choice_card"] = sc.choice.card
        if sc.choice.card is not None and getattr(sc, "geom", None) is not None:
            with contextlib.suppress(Exception):
                d["options"] = _options(sc)
    tl = getattr(sc, "timeline", None)
    if tl is not None:
        d["timeline_idle"] = bool(tl.idle)
    if hasattr(sc, "session"):
        d["session"] = _session_state(sc.session)
    return d


def install(out_dir: Path) -> None:
    """Wrap ``App.frame`` so that it reports the app's state after drawing."""
    import pygame

    from game.client.app import App

    out_dir.mkdir(parents=True, exist_ok=True)
    state_path = out_dir / "state.json"
    tmp_path = out_dir / "state.json.tmp"
    request = out_dir / "shot.request"
    original = App.frame
    last = [0.0]
    seq = [0]
    banners: list[str] = []  # every banner a table showed (a hand won...), oldest first

    def frame(self: App, dt: float = 1 / 60) -> None:
        original(self, dt)
        now = time.monotonic()
        for sc in self.scenes:
            text = getattr(sc, "banner", None)
            if isinstance(text, str) and text and (not banners or banners[-1] != text):
                banners.append(text)
        if request.exists():
            try:
                target = request.read_text().strip()
                request.unlink()
                if target:
                    pygame.image.save(self.screen, target)
            except (OSError, pygame.error) as e:
                print(f"e2e probe: could not save a screenshot: {e}", file=sys.stderr)
        if now - last[0] < INTERVAL:
            return
        last[0] = now
        seq[0] += 1
        try:
            state = {
                "seq": seq[0], "pid": os.getpid(), "frames": self.frames,
                "size": list(self.size), "running": self.running,
                "app_message": self.message, "banners": banners[-10:],
                "scenes": [_scene_state(s) for s in self.scenes],
            }
            tmp_path.write_text(json.dumps(state))
            os.replace(tmp_path, state_path)
        except Exception as e:  # reporting must never stop the game
            print(f"e2e probe: {type(e).__name__}: {e}", file=sys.stderr)

    App.frame = frame  # type: ignore[method-assign]


def main() -> int:
    out = os.environ.get("TEE_TABLE_E2E_DIR")
    if not out:
        print("e2e probe: set TEE_TABLE_E2E_DIR", file=sys.stderr)
        return 2
    install(Path(out))
    from game.launch import main as game_main

    return game_main(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
