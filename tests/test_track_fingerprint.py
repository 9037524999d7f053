"""The track engine's regression fingerprint (``bench/track_fingerprint.py --quick``) is the one
recorded before the speed work: any change of a rule, of the legal-play order, of an event or of
the shuffle changes it. Checked with the pure-Python engine and, where it is built, the C core."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from game.rules.track import engine

QUICK_DIGEST = "4581dc0aa13a699b8c77f514cf31fa2e"
_BENCH = Path(__file__).resolve().parent.parent / "bench" / "track_fingerprint.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("track_fingerprint_bench", _BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def fast_setting() -> Iterator[None]:
    prev = engine.FAST
    yield
    engine.set_fast(prev)


def test_quick_fingerprint_with_the_python_engine(fast_setting: None) -> None:
    engine.set_fast(False)
    assert not engine.FAST
    assert _bench().fingerprint(quick=True) == QUICK_DIGEST


def test_quick_fingerprint_with_the_c_core(fast_setting: None) -> None:
    assert engine.FAST_STALE is None, engine.FAST_STALE  # a stale build is an error, not a skip
    engine.set_fast(True)
    if not engine.FAST:
        pytest.skip("the optional C core (game/rules/track/_fast.c) is not built")
    assert engine.FAST
    assert _bench().fingerprint(quick=True) == QUICK_DIGEST


def test_the_fingerprint_sees_a_changed_shuffle(
    fast_setting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the digest is no constant: swapping the first two cards of every shuffle changes it
    engine.set_fast(False)
    mod = _bench()
    mod.CONFIGS = mod.CONFIGS[:1]  # tees 4 seats: the Python engine deals every round
    honest = mod.fingerprint(quick=True)
    real = engine.shuffle

    def off_by_one(cards: list[int], state: int) -> int:
        state = real(cards, state)
        cards[0], cards[1] = cards[1], cards[0]
        return state

    monkeypatch.setattr(engine, "shuffle", off_by_one)
    assert mod.fingerprint(quick=True) != honest
