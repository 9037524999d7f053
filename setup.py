"""Builds the optional C core of the track-game engine; everything else is in pyproject.toml.

Without a compiler the extension is skipped with a warning and the pure-Python engine runs.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "game.rules.track._fast",
            ["game/rules/track/_fast.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
