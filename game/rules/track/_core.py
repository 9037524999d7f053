"""The optional C core of the track engine (``_fast.c``), loaded once: ``fast`` is the
module, or None when it is not built or is of another interface version (``stale`` says
why). :mod:`game.rules.track.engine` registers the engine's classes with it and sets
``fast`` to None if they do not fit."""

from __future__ import annotations

import importlib
from typing import Any

API = 2  # the interface version the engine expects of the C core
fast: Any  # the optional C core (game/rules/track/_fast.c, no stubs); None when not built
try:  # the Python code is the reference
    fast = importlib.import_module("game.rules.track._fast")
except ImportError:  # not built: the Python engine runs
    fast = None
#: Why a C core that is there is not used (None when it is used, or simply not built).
stale: str | None = None
if fast is not None and getattr(fast, "API", None) != API:
    # a build of another version of _fast.c: not used
    stale = (f"the built C core has interface {getattr(fast, 'API', None)!r}, this engine "
             f"needs {API}: rebuild it (pip install -e . or python setup.py "
             "build_ext --inplace)")
    fast = None
