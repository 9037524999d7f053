"""The cached asset loader and the generated assets."""

from __future__ import annotations

import os
import wave
from pathlib import Path

import pygame
import pytest

from game.client import theme
from game.client.assets import SOUND_NAMES, AssetError, Assets

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((320, 240))
    yield


def test_every_expected_asset_is_committed() -> None:
    assert Assets().check_all() == []


def test_missing_sprite_error_names_the_file_and_the_script(tmp_path: Path) -> None:
    a = Assets(sprites=tmp_path, sounds=tmp_path)
    with pytest.raises(AssetError) as e:
        a.image("peg_9")
    msg = str(e.value)
    assert str(tmp_path / "peg_9.png") in msg and "make_sprites.py" in msg
    assert isinstance(e.value, FileNotFoundError)


def test_missing_sound_error_names_the_file(tmp_path: Path) -> None:
    a = Assets(sprites=tmp_path, sounds=tmp_path)
    with pytest.raises(AssetError, match=r"nope\.wav.*make_sounds"):
        a.sound("nope")
    with pytest.raises(AssetError):
        a.play("nope")


def test_images_are_converted_once_and_cached() -> None:
    a = Assets()
    img = a.image("peg_0")
    assert a.image("peg_0") is img
    assert img.get_flags() & pygame.SRCALPHA  # convert_alpha kept the transparency
    assert img.get_size() == (64, 64)  # drawn at 2x of 32
    small = a.scaled("peg_0", (20, 20))
    assert small.get_size() == (20, 20) and a.scaled("peg_0", (20, 20)) is small
    assert a.scaled("peg_0", (21, 21)) is not small


def test_nine_slice_keeps_the_requested_size_and_corners() -> None:
    a = Assets()
    for size in ((300, 60), (40, 200), (10, 10)):
        s = a.nine_slice("button", size, 14)
        assert s.get_size() == size
    big = a.nine_slice("panel", (400, 300), 14)
    src = a.image("panel")
    # a corner pixel is copied unscaled
    assert big.get_at((5, 5)) == src.get_at((5, 5))


def test_text_is_rendered_at_the_asked_size_and_cached() -> None:
    a = Assets()
    t12 = a.text("Play", 12, (255, 255, 255))
    t48 = a.text("Play", 48, (255, 255, 255))
    assert t48.get_height() > 3 * t12.get_height() // 1.2
    assert a.text("Play", 48, (255, 255, 255)) is t48
    fitted = a.fit_text("A long label that does not fit", 40, (255, 255, 255), 120)
    assert fitted.get_width() <= 120
    lines = a.wrap("one two three four five six", 20, 60)
    assert len(lines) > 1 and " ".join(lines) == "one two three four five six"
    assert all(a.font(20).size(ln)[0] <= 60 for ln in a.wrap("one two three four", 20, 60))


def test_sound_is_headless_safe_and_mute_is_honoured() -> None:
    a = Assets()
    for name in SOUND_NAMES:
        a.sound(name)  # loads (or None without a device), never raises
    a.muted = True
    assert a.play("click") is False
    a.muted = False
    a.volume = 0.0
    assert a.play("click") is False


def test_sounds_are_short_soft_mono_wavs() -> None:
    for name in SOUND_NAMES:
        with wave.open(str(ROOT / "sounds" / f"{name}.wav")) as w:
            assert w.getnchannels() == 1 and w.getsampwidth() == 2
            seconds = w.getnframes() / w.getframerate()
            assert 0.01 < seconds <= 1.2, name
            frames = w.readframes(w.getnframes())
        peak = max(abs(int.from_bytes(frames[i:i + 2], "little", signed=True))
                   for i in range(0, len(frames), 2))
        assert 0.1 * 32767 < peak <= 0.4 * 32767, name  # audible but soft


def test_generators_are_deterministic(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    for script, folder, ext in (("make_sounds.py", "sounds", ".wav"),
                                ("make_sprites.py", "sprites", ".png")):
        out = tmp_path / folder
        subprocess.run([sys.executable, str(ROOT / "tools" / script), "--out", str(out)],
                       check=True, env=env, capture_output=True)
        names = sorted(p.name for p in out.iterdir())
        committed = sorted(p.name for p in (ROOT / folder).iterdir() if p.suffix == ext)
        assert names == committed
        if ext == ".wav":  # byte-identical; PNGs compare as pixels below
            for n in names:
                assert (out / n).read_bytes() == (ROOT / folder / n).read_bytes(), n
        else:
            for n in ("peg_3.png", "card_QH.png", "logo.png"):
                a = pygame.image.load(str(out / n))
                b = pygame.image.load(str(ROOT / folder / n))
                assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA"), n


def test_card_sprite_names_cover_every_card() -> None:
    from game.rules.cards import card, card_text

    assert theme.card_sprite(0) == "card_JK"
    assert theme.card_sprite(None) == "card_back"
    for r in range(1, 14):
        for s in range(4):
            c = card(r, s)
            assert theme.card_sprite(c) == f"card_{card_text(c)}"
            assert (ROOT / "sprites" / f"{theme.card_sprite(c)}.png").is_file()


def test_peg_colours_are_distinct() -> None:
    cols = theme.SEAT_COLOURS
    for i in range(len(cols)):
        for j in range(i + 1, len(cols)):
            d = sum((a - b) ** 2 for a, b in zip(cols[i], cols[j], strict=True)) ** 0.5
            assert d > 60, (i, j)


def test_asset_folder_prefers_installed_package_data(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.resources

    from game.client import assets

    # a source checkout: game/assets_data holds no copies, so the top-level folders are used
    assert assets.asset_folder("sprites") == ROOT / "sprites"
    assert assets.asset_folder("sounds") == ROOT / "sounds"
    # an installed wheel: game/assets_data/sprites is there and wins
    (tmp_path / "sprites").mkdir()
    monkeypatch.setattr(importlib.resources, "files", lambda pkg: tmp_path)
    assert assets.asset_folder("sprites") == tmp_path / "sprites"
    assert assets.asset_folder("sounds") == ROOT / "sounds"  # not packaged: the source's
    with pytest.raises(ValueError, match="no asset folder"):
        assets.asset_folder("../etc")
