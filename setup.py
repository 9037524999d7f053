"""The two build steps pyproject.toml cannot say; everything else is in pyproject.toml.

* The optional C core of the track-game engine: without a compiler the extension is skipped
  with a warning and the pure-Python engine runs.
* The sprites and sounds as package data: the top-level ``sprites/*.png`` and
  ``sounds/*.wav`` (the source of truth) are copied (and the phone client's ``web/`` files,
  served by ``net/web.py``, the same way as ``game/assets_data/web``) into the built package as
  ``game/assets_data/sprites`` and ``game/assets_data/sounds``, where an installed program
  reads them with ``importlib.resources`` (``game/client/assets.py``). An editable install
  copies nothing: it reads the source tree's folders.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup  # type: ignore[import-untyped]
from setuptools.command.build_py import build_py  # type: ignore[import-untyped]

HERE = Path(__file__).resolve().parent
#: (source folder, file pattern) shipped as ``game/assets_data/<folder>/``.
ASSETS = (("sprites", "*.png"), ("sounds", "*.wav"), ("web", "*.*"))


class BuildPyWithAssets(build_py):
    """``build_py`` that also copies the sprites and sounds into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for folder, pattern in ASSETS:
            files = sorted((HERE / folder).glob(pattern))
            if not files:
                raise SystemExit(f"no {pattern} in {HERE / folder}: run tools/make_{folder}.py")
            dest = Path(self.build_lib, "game", "assets_data", folder)
            self.mkpath(str(dest))
            for f in files:
                self.copy_file(str(f), str(dest / f.name))


setup(
    cmdclass={"build_py": BuildPyWithAssets},
    ext_modules=[
        Extension(
            "game.rules.track._fast",
            ["game/rules/track/_fast.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ],
)
