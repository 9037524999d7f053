"""Synthesize every sound of Tee Table with the standard library and save WAV files in ``sounds/``.

Run ``python tools/make_sounds.py`` (``--out DIR`` to write elsewhere). Deterministic: noise
comes from a fixed-seed linear congruential generator, not :mod:`random`. Sounds are short,
soft (peak about -10 dBFS), 22050 Hz mono 16-bit.

Made: ``play`` (card snap), ``step`` (tick), ``bump``, ``home``, ``win``, ``deal``, ``shuffle``,
``click``, ``pause``.
"""

from __future__ import annotations

import argparse
import math
import struct
import sys
import wave
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RATE = 22050
PEAK = 0.32  # about -10 dBFS: soft


class Noise:
    """A tiny LCG so the noise (and so the files) are the same on every machine."""

    def __init__(self, seed: int) -> None:
        self.x = seed & 0xFFFFFFFF

    def __call__(self) -> float:
        self.x = (1664525 * self.x + 1013904223) & 0xFFFFFFFF
        return self.x / 0x80000000 - 1.0


def env(t: float, attack: float, decay: float) -> float:
    """Fast attack, exponential decay."""
    if t < attack:
        return t / attack
    return math.exp(-(t - attack) / decay)


def tone(freq: float | Callable[[float], float], dur: float, attack: float = 0.004,
         decay: float = 0.08, harmonics: tuple[float, ...] = (1.0,)) -> list[float]:
    out = []
    phase = 0.0
    for i in range(int(dur * RATE)):
        t = i / RATE
        f = freq(t) if callable(freq) else freq
        phase += 2 * math.pi * f / RATE
        v = sum(a * math.sin(phase * (k + 1)) for k, a in enumerate(harmonics))
        out.append(v * env(t, attack, decay))
    return out


def noise_burst(dur: float, seed: int, decay: float, lowpass: float = 0.5) -> list[float]:
    n = Noise(seed)
    out = []
    y = 0.0
    for i in range(int(dur * RATE)):
        t = i / RATE
        y += lowpass * (n() - y)  # one-pole low-pass
        out.append(y * env(t, 0.001, decay))
    return out


def mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Mix (start_seconds, samples) parts."""
    length = max(int(start * RATE) + len(s) for start, s in parts)
    out = [0.0] * length
    for start, s in parts:
        o = int(start * RATE)
        for i, v in enumerate(s):
            out[o + i] += v
    return out


def normalize(s: list[float], peak: float = PEAK) -> list[float]:
    m = max(1e-9, max(abs(v) for v in s))
    fade = int(0.004 * RATE)
    out = [v * peak / m for v in s]
    for i in range(min(fade, len(out))):  # no click at the end
        out[-1 - i] *= i / fade
    return out


def sound_play() -> list[float]:
    return mix((0, noise_burst(0.09, 11, 0.012, 0.9)), (0, tone(1400, 0.05, decay=0.01)))


def sound_step() -> list[float]:
    return tone(1900, 0.04, attack=0.001, decay=0.008, harmonics=(1.0, 0.3))


def sound_bump() -> list[float]:
    return mix((0, tone(lambda t: 260 - 900 * t, 0.22, decay=0.07, harmonics=(1.0, 0.5, 0.2))),
               (0, noise_burst(0.08, 5, 0.02, 0.3)))


def sound_home() -> list[float]:
    notes = (660.0, 880.0, 1320.0)
    return mix(*((i * 0.07, tone(f, 0.25, decay=0.08, harmonics=(1.0, 0.25)))
                 for i, f in enumerate(notes)))


def sound_win() -> list[float]:
    notes = (523.25, 659.25, 783.99, 1046.5, 783.99, 1046.5)
    parts = [(i * 0.12, tone(f, 0.4, decay=0.14, harmonics=(1.0, 0.35, 0.1)))
             for i, f in enumerate(notes)]
    return mix(*parts)


def sound_deal() -> list[float]:
    return mix(*((i * 0.06, noise_burst(0.05, 20 + i, 0.01, 0.7)) for i in range(4)))


def sound_shuffle() -> list[float]:
    return mix(*((i * 0.025, noise_burst(0.03, 40 + i, 0.008, 0.5 + 0.03 * (i % 5)))
                 for i in range(18)))


def sound_click() -> list[float]:
    return tone(1000, 0.03, attack=0.001, decay=0.006)


def sound_pause() -> list[float]:
    return mix((0, tone(784, 0.18, decay=0.06)), (0.1, tone(523.25, 0.25, decay=0.08)))


SOUNDS: dict[str, Callable[[], list[float]]] = {
    "play": sound_play,
    "step": sound_step,
    "bump": sound_bump,
    "home": sound_home,
    "win": sound_win,
    "deal": sound_deal,
    "shuffle": sound_shuffle,
    "click": sound_click,
    "pause": sound_pause,
}


def write_wav(path: Path, samples: list[float]) -> None:
    data = b"".join(struct.pack("<h", int(max(-1.0, min(1.0, v)) * 32767)) for v in samples)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data)


def build(out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for name, make in SOUNDS.items():
        write_wav(out / f"{name}.wav", normalize(make()))
        names.append(f"{name}.wav")
    return names


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "sounds", help="output folder")
    args = p.parse_args(argv)
    names = build(args.out)
    print(f"wrote {len(names)} sounds to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
