"""Helpers of the track-engine tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from game.rules.track.engine import set_fast


@contextmanager
def python_engine() -> Iterator[None]:
    """The pure-Python engine inside the block (the C core, if built, again after it)."""
    prev = set_fast(False)
    try:
        yield
    finally:
        set_fast(prev)
