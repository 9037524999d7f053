"""The track engine's shuffle (``engine.shuffle``: every step's draw made at once, in lanes of
one big int) against :func:`game.rules.cards.shuffle`, which the rules define: the same
permutation and the same final generator state, on the lane path, on the one-draw-at-a-time
path it falls back to, and through a rejected draw."""

from __future__ import annotations

import random

import pytest

from game.rules import cards
from game.rules.track import engine as eng

M64 = (1 << 64) - 1


def unmix(z: int) -> int:
    """The splitmix64 state whose output is ``z`` (the finalizer undone step by step)."""

    def unshift(y: int, k: int) -> int:
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x

    z = unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & M64
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & M64
    return unshift(z, 30)


def both(n: int, state: int) -> tuple[list[int], int, list[int], int]:
    a = list(range(100, 100 + n))
    b = list(a)
    return a, eng.shuffle(a, state), b, cards.shuffle(b, state)


def test_unmix_inverts_the_generator() -> None:
    for z in (0, 1, 12345, M64, 1 << 63):
        assert cards.splitmix64((unmix(z) - cards.GOLDEN) & M64)[0] == z


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 51, 52, 53, 100, 162, 216, 255, 256, 300])
def test_every_size_matches_the_rules_shuffle(n: int) -> None:
    rng = random.Random(n)
    for state in [0, 1, M64, 1 << 63, *(rng.getrandbits(64) for _ in range(12))]:
        a, sa, b, sb = both(n, state)
        assert a == b and sa == sb
        assert sorted(a) == list(range(100, 100 + n))


def test_the_one_draw_path_matches_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # every draw counts as one that may be rejected (no bytes needed to say so): the whole
    # shuffle takes _shuffle_steps
    calls = []
    real = eng._shuffle_steps

    def spy(items: list[int], state: int) -> int:
        calls.append(len(items))
        return real(items, state)

    monkeypatch.setattr(eng, "_NEAR_BYTES", b"")
    monkeypatch.setattr(eng, "_shuffle_steps", spy)
    for n in (2, 52, 162):
        for state in (7, 1 << 40, M64 - 5):
            a, sa, b, sb = both(n, state)
            assert a == b and sa == sb
    assert calls == [2, 2, 2, 52, 52, 52, 162, 162, 162]


def test_a_rejected_draw_is_drawn_again_as_the_rules_do() -> None:
    # a 3-card shuffle's first step draws below 3: 2^64 - 1 is its one rejected draw. A state
    # whose next draw is exactly that makes the rules draw again (one more generator step)
    state = (unmix(M64) - cards.GOLDEN) & M64
    assert cards.splitmix64(state)[0] == M64
    a, sa, b, sb = both(3, state)
    assert a == b and sa == sb
    # one draw more than a shuffle without a rejection: the state moved 3 steps, not 2
    assert sa == (state + 3 * cards.GOLDEN) & M64
    # and a 52-card shuffle whose 31st draw (below 22) is the rejected one of its step
    m = 22
    limit = (1 << 64) - ((1 << 64) % m)
    t = 52 - m  # the step that draws below m (steps draw below 52, 51, ...)
    state = (unmix(limit) - (t + 1) * cards.GOLDEN) & M64
    a, sa, b, sb = both(52, state)
    assert a == b and sa == sb and sa == (state + 52 * cards.GOLDEN) & M64
