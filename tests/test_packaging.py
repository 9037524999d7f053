"""A real install: the wheel, installed into a fresh venv, launches with every sprite and sound.

Builds the wheel from a clean copy of the source (``pip wheel --no-deps``: the build backend's
own requirements come from wherever pip is configured to look here), installs it with
``--no-deps`` into a new venv, then the runtime dependencies named in ``pyproject.toml``, and
from a folder outside the source tree: loads every ``sprites/*.png`` and ``sounds/*.wav`` of the
source through the installed asset loader, runs ``tee-table --help`` and opens the window for a
few frames (dummy video driver). About 20-40 s; every step has its own time limit.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What the build needs from the source tree (pyproject's packages.find + setup.py's assets).
SOURCES = ("game", "net", "sprites", "sounds", "web", "pyproject.toml", "setup.py",
           "MANIFEST.in", "README.md")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "build", "dist", "*.egg-info")

CHECK = r"""
import json, sys
from pathlib import Path
import pygame
pygame.display.init()
pygame.display.set_mode((64, 64))
import game
from game.client import assets as A
a = A.Assets()
sprites = [p.stem for p in sorted(A.SPRITES.glob("*.png")) if a.image(p.stem).get_width() > 0]
sounds = []
for p in sorted(A.SOUNDS.glob("*.wav")):
    a.sound(p.stem)  # AssetError if the file were missing; None without an audio device
    sounds.append(p.stem)
from net import web as W
web = sorted(W.load_files())
print(json.dumps({"game": game.__file__, "sprites_dir": str(A.SPRITES), "web": web,
                  "web_dir": str(W.web_dir()),
                  "sounds_dir": str(A.SOUNDS), "sprites": sprites, "sounds": sounds,
                  "missing": a.check_all()}))
"""


def run(cmd: list[str], timeout: float, **kw: object) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)  # type: ignore[call-overload]
    assert r.returncode == 0, f"{cmd[:4]} failed:\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    return r


def test_wheel_in_a_fresh_venv_has_every_sprite_and_sound(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=IGNORE)
        else:
            shutil.copy2(p, src / name)
    wheels = tmp_path / "wheels"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(src)],
        timeout=300, env=env)
    (wheel,) = wheels.glob("tee_table-*.whl")

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], timeout=120, env=env)
    py, pip = venv / "bin" / "python", [str(venv / "bin" / "python"), "-m", "pip"]
    run([*pip, "install", "-q", "--no-deps", str(wheel)], timeout=120, env=env)
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    run([*pip, "install", "-q", *deps], timeout=300, env=env)

    elsewhere = tmp_path / "elsewhere"  # not the source tree, not on its path
    elsewhere.mkdir()
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    r = run([str(py), "-c", CHECK], timeout=120, env=env, cwd=elsewhere)
    got = json.loads(r.stdout.strip().splitlines()[-1])
    site = venv / "lib"
    assert Path(got["game"]).is_relative_to(site), got["game"]  # the installed copy runs
    assert Path(got["sprites_dir"]).is_relative_to(site)
    assert Path(got["sounds_dir"]).is_relative_to(site)
    want_sprites = sorted(p.stem for p in (ROOT / "sprites").glob("*.png"))
    want_sounds = sorted(p.stem for p in (ROOT / "sounds").glob("*.wav"))
    assert len(want_sprites) > 50 and len(want_sounds) >= 9  # the source really has them
    assert got["sprites"] == want_sprites
    assert got["sounds"] == want_sounds
    assert got["missing"] == []
    assert Path(got["web_dir"]).is_relative_to(site)  # the phone client's files too
    want_web = ["/", "/favicon.ico", *("/" + p.name for p in (ROOT / "web").iterdir())]
    assert got["web"] == sorted(want_web)

    tee = str(venv / "bin" / "tee-table")
    r = run([tee, "--help"], timeout=60, env=env, cwd=elsewhere)
    assert r.stdout.startswith("usage: tee-table") and "--headless" in r.stdout
    run([tee, "--frames", "3", "--size", "800x600", "--data", str(tmp_path / "data")],
        timeout=120, env=env, cwd=elsewhere)
