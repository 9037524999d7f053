"""Save a PNG of every client screen at 1280x720 and 800x600 into ``artifacts/screenshots/``.

Run ``python tools/screenshots.py`` (``--out DIR``, ``--size WxH`` to add sizes, ``--only NAME``
to take the screens whose name contains NAME). It runs under SDL's dummy video driver with a
throw-away data folder, drives the real scenes through the app loop, and writes
``<screen>_<W>x<H>.png``. Look at every one of them.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from game.client import screens  # noqa: E402
from game.client.app import App  # noqa: E402
from game.store import Store  # noqa: E402

Shot = Callable[[App], None]


def _post_key(key: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="",
                                         scancode=0))


def _text(s: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=s))


def shot_title(app: App) -> None:
    pass


def shot_new_table(app: App) -> None:
    app.push(screens.NewTableScene(app, "local"))


def shot_new_table_layout(app: App) -> None:
    s = app.push(screens.NewTableScene(app, "host"))
    assert isinstance(s, screens.NewTableScene)
    s.game.step(1)


def shot_new_table_host(app: App) -> None:
    app.push(screens.NewTableScene(app, "host"))


def shot_solo(app: App) -> None:
    app.push(screens.NewTableScene(app, "solo"))


def shot_join_error(app: App) -> None:
    s = app.push(screens.JoinScene(app))
    assert isinstance(s, screens.JoinScene)
    _text("KQX0")
    app.frame()
    _post_key(pygame.K_RETURN)


def shot_join_full(app: App) -> None:
    s = app.push(screens.JoinScene(app))
    assert isinstance(s, screens.JoinScene)
    s.entry.set_text("KQXF")
    s.fail("table_full")


def shot_settings(app: App) -> None:
    app.push(screens.SettingsScene(app))


def shot_records(app: App) -> None:
    st = app.store
    st.record_game({"table_id": "demo1", "game": "track", "rules": "tees",
                    "people": [{"name": "Ada", "points": 6, "won": True},
                               {"name": "Ben", "points": 0, "won": False}]})
    st.record_game({"table_id": "demo2", "game": "layout", "rules": "layout",
                    "people": [{"name": "Ben", "points": 3, "won": True}]})
    st.record_solo("classic", 41, 12345)
    app.push(screens.RecordsScene(app))


def shot_title_continue(app: App) -> None:
    """The title with Continue: a local table with plays in its save."""
    from game.client.session import LocalSession, local_save_path
    from game.cpu_worker import SyncCpu

    s = LocalSession("track", {"rules": "classic", "seats": 4}, seed=3, cpu=SyncCpu(),
                     save_path=local_save_path(app.store.folder))
    s.sit(0, "Ada")
    s.start()
    s.close()  # saved with its start: Continue reopens it
    title = app.top
    assert isinstance(title, screens.TitleScene)
    title.enter()


def shot_quit_confirm(app: App) -> None:
    _post_key(pygame.K_ESCAPE)


def shot_solo_seed(app: App) -> None:
    app.push(screens.NewTableScene(app, "solo", seed=12345, rules="team"))


def _rules(page: str) -> Shot:
    def shot(app: App) -> None:
        app.push(screens.RulesScene(app, page))
    return shot


SHOTS: dict[str, Shot] = {
    "title": shot_title,
    "new_table": shot_new_table,
    "new_table_layout": shot_new_table_layout,
    "new_table_host": shot_new_table_host,
    "solo": shot_solo,
    "join_error": shot_join_error,
    "join_full": shot_join_full,
    "settings": shot_settings,
    "records": shot_records,
    "title_continue": shot_title_continue,
    "quit_confirm": shot_quit_confirm,
    "solo_seed": shot_solo_seed,
    **{f"rules_{p}": _rules(p) for p in ("tees", "classic", "team", "solo", "trash")},
}


def extra_shots() -> dict[str, Shot]:
    """Screens of the tables (added by their modules when they are importable)."""
    try:
        from tools import shots
    except ImportError:
        return {}
    return shots.SHOTS


def take(out: Path, sizes: list[tuple[int, int]], only: str = "") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    every = {**SHOTS, **extra_shots()}
    for w, h in sizes:
        for name, fn in every.items():
            if only and only not in name:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                store = Store(tmp)
                app = App((w, h), fullscreen=False, store=store)
                fn(app)
                for _ in range(3):
                    app.frame(1 / 60)
                path = out / f"{name}_{w}x{h}.png"
                pygame.image.save(app.screen, str(path))
                made.append(path)
                for scene in app.scenes:
                    session = getattr(scene, "session", None)
                    if session is not None:
                        session.close()
                app.close()
    return made


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "artifacts" / "screenshots")
    p.add_argument("--size", action="append", default=[], help="extra size WxH")
    p.add_argument("--only", default="", help="only screens whose name contains this")
    args = p.parse_args(argv)
    sizes = [(1280, 720), (800, 600)]
    for s in args.size:
        w, h = (int(v) for v in s.lower().split("x"))
        sizes.append((w, h))
    made = take(args.out, sizes, args.only)
    print(f"wrote {len(made)} screenshots to {args.out}")
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
