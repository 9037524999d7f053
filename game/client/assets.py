"""One cached loader for every sprite, font, text and sound of the client (architecture 9).

Usage (after ``pygame.display.set_mode``)::

    assets = Assets()                        # the sprites and sounds (see below)
    peg = assets.image("peg_3")              # converted once (convert_alpha), then cached
    small = assets.scaled("peg_3", (20, 20)) # smooth-scaled once per size, cached
    font = assets.font(24)                   # pygame's default font at 24 px, cached
    label = assets.text("Play", 24, (255, 255, 255))  # rendered once per (text, size, colour)
    frame = assets.nine_slice("button", (200, 48))    # a frame stretched without blurring corners
    assets.play("step")                      # never raises for a missing audio device

Text is always rendered at the pixel size it is shown at (never scaled), so it stays sharp at
any window size. A missing file raises :class:`AssetError` naming the file and the script that
makes it. Sound is optional: when the mixer cannot start (no audio device, the dummy driver),
``play`` does nothing; ``muted`` and ``volume`` are honoured by ``play``.

Where the files are: an installed program (a wheel, ``pip install .``) reads the package data
of :mod:`game.assets_data` through :mod:`importlib.resources`; a source checkout (or an
editable install) reads the top-level ``sprites/`` and ``sounds/`` folders, the source of
truth that the wheel's copies are made from. :func:`asset_folder` picks one.
"""

from __future__ import annotations

import importlib.resources
from collections import OrderedDict
from pathlib import Path

import pygame

#: The source tree (for a checkout; an installed program has none beside its package).
ROOT = Path(__file__).resolve().parent.parent.parent


def asset_folder(kind: str) -> Path:
    """The folder of ``kind`` (``"sprites"`` or ``"sounds"``): the installed package data
    when it is there, else the source tree's top-level folder of that name."""
    if kind not in ("sprites", "sounds"):
        raise ValueError(f"no asset folder {kind!r} (sprites or sounds)")
    try:
        packaged = importlib.resources.files("game.assets_data") / kind
    except ModuleNotFoundError:
        packaged = None
    # An installed wheel is unpacked on disk, so its resources are real paths.
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return ROOT / kind


SPRITES = asset_folder("sprites")
SOUNDS = asset_folder("sounds")
SOUND_NAMES = ("play", "step", "bump", "home", "win", "deal", "shuffle", "click", "pause")
Colour = tuple[int, int, int] | tuple[int, int, int, int]


class AssetError(FileNotFoundError):
    """A sprite or sound file that is not where the client expects it."""


class SurfaceCache:
    """A least-recently-used cache of surfaces bounded by their pixel bytes (and a count):
    a long evening of resizes and zooms keeps only the sizes in use, never a second copy of
    every sprite at every size it was ever drawn at."""

    def __init__(self, max_bytes: int, max_items: int) -> None:
        if max_bytes < 1 or max_items < 1:
            raise ValueError("a surface cache needs room for at least one surface")
        self.max_bytes = max_bytes
        self.max_items = max_items
        self.bytes = 0
        self._items: OrderedDict[object, pygame.Surface] = OrderedDict()
        self._cost: dict[object, int] = {}

    @staticmethod
    def size_of(surf: pygame.Surface) -> int:
        w, h = surf.get_size()
        return w * h * surf.get_bytesize()

    def get(self, key: object) -> pygame.Surface | None:
        surf = self._items.get(key)
        if surf is not None:
            self._items.move_to_end(key)
        return surf

    def put(self, key: object, surf: pygame.Surface, owned: bool = True) -> None:
        """Keep ``surf`` under ``key``; ``owned`` False: it is another cache's surface (the
        sprite itself at its own size), kept by reference and not counted."""
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= self._cost.pop(key, 0)
        cost = self.size_of(surf) if owned else 0
        self._items[key] = surf
        self._cost[key] = cost
        self.bytes += cost
        while len(self._items) > 1 and (self.bytes > self.max_bytes or
                                        len(self._items) > self.max_items):
            k, _ = self._items.popitem(last=False)
            self.bytes -= self._cost.pop(k, 0)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def clear(self) -> None:
        self._items.clear()
        self._cost.clear()
        self.bytes = 0


class Assets:
    """Cached images, scaled images, fonts, rendered text and sounds (every cache bounded)."""

    TEXT_CACHE = 1024
    #: Bytes of scaled sprites kept (about 40 full sets of pegs, symbols and cards at table
    #: sizes; a resize leaves the old sizes to age out).
    SCALED_BYTES = 24 << 20
    #: Bytes of stretched frames (panels, buttons) kept: a full-window panel is 3.7 MB.
    SLICE_BYTES = 16 << 20
    #: Bytes of rendered text kept.
    TEXT_BYTES = 8 << 20
    #: Fonts kept (a size per text style and window size: few in use at once).
    FONT_CACHE = 48

    def __init__(self, sprites: Path | str = SPRITES, sounds: Path | str = SOUNDS) -> None:
        self.sprites = Path(sprites)
        self.sounds = Path(sounds)
        self._images: dict[str, pygame.Surface] = {}
        self._scaled = SurfaceCache(self.SCALED_BYTES, 4096)
        self._slices = SurfaceCache(self.SLICE_BYTES, 512)
        self._fonts: OrderedDict[tuple[int, bool], pygame.font.Font] = OrderedDict()
        self._texts = SurfaceCache(self.TEXT_BYTES, self.TEXT_CACHE)
        self._sounds: dict[str, pygame.mixer.Sound | None] = {}
        self.muted = False
        self.volume = 0.8
        self._mixer_ok: bool | None = None

    # ------------------------------------------------------------------ images
    def _path(self, folder: Path, name: str, ext: str, script: str) -> Path:
        file = name if name.endswith(ext) else name + ext
        path = folder / file
        if not path.is_file():
            raise AssetError(
                f"missing asset file {path} (it is made by python tools/{script}.py)"
            )
        return path

    def image(self, name: str) -> pygame.Surface:
        """The sprite ``sprites/<name>.png``, converted for the display once."""
        surf = self._images.get(name)
        if surf is None:
            path = self._path(self.sprites, name, ".png", "make_sprites")
            if pygame.display.get_surface() is None:
                raise RuntimeError("Assets.image() needs the display: call set_mode() first")
            raw = pygame.image.load(str(path))
            surf = raw.convert_alpha() if raw.get_alpha() is not None or raw.get_bitsize() == 32 \
                else raw.convert()
            self._images[name] = surf
        return surf

    def scaled(self, name: str, size: tuple[int, int]) -> pygame.Surface:
        """``image(name)`` smooth-scaled to ``size``, cached per size (LRU, bounded in bytes;
        at the sprite's own size it is the sprite itself, no copy)."""
        w, h = max(1, int(size[0])), max(1, int(size[1]))
        key = (name, w, h)
        surf = self._scaled.get(key)
        if surf is None:
            src = self.image(name)
            same = src.get_size() == (w, h)
            surf = src if same else pygame.transform.smoothscale(src, (w, h))
            self._scaled.put(key, surf, owned=not same)
        return surf

    def nine_slice(self, name: str, size: tuple[int, int], border: int = 14) -> pygame.Surface:
        """A frame sprite stretched to ``size`` keeping its ``border`` px corners intact."""
        w, h = max(2, int(size[0])), max(2, int(size[1]))
        key = (name, w, h, border)
        surf = self._slices.get(key)
        if surf is not None:
            return surf
        src = self.image(name)
        sw, sh = src.get_size()
        b = min(border, sw // 2 - 1, sh // 2 - 1)
        b2 = max(1, min(b, w // 2, h // 2))  # destination corner size
        out = pygame.Surface((w, h), pygame.SRCALPHA)
        xs = [(0, b, 0, b2), (b, sw - b, b2, w - b2), (sw - b, sw, w - b2, w)]
        ys = [(0, b, 0, b2), (b, sh - b, b2, h - b2), (sh - b, sh, h - b2, h)]
        for sx0, sx1, dx0, dx1 in xs:
            for sy0, sy1, dy0, dy1 in ys:
                if dx1 <= dx0 or dy1 <= dy0 or sx1 <= sx0 or sy1 <= sy0:
                    continue
                piece = src.subsurface((sx0, sy0, sx1 - sx0, sy1 - sy0))
                if piece.get_size() != (dx1 - dx0, dy1 - dy0):
                    piece = pygame.transform.smoothscale(piece, (dx1 - dx0, dy1 - dy0))
                out.blit(piece, (dx0, dy0))
        self._slices.put(key, out)
        return out

    # ------------------------------------------------------------------ text
    def font(self, px: int, bold: bool = False) -> pygame.font.Font:
        """pygame's default font at a pixel height of about ``px``, cached."""
        px = max(6, int(px))
        key = (px, bold)
        f = self._fonts.get(key)
        if f is None:
            if not pygame.font.get_init():
                pygame.font.init()
            f = pygame.font.Font(None, px)
            f.set_bold(bold)
            self._fonts[key] = f
            while len(self._fonts) > self.FONT_CACHE:
                self._fonts.popitem(last=False)
        else:
            self._fonts.move_to_end(key)
        return f

    def text(self, text: str, px: int, colour: Colour, bold: bool = False) -> pygame.Surface:
        """``text`` rendered at ``px`` in ``colour`` (anti-aliased), cached (LRU, bounded in
        count and bytes)."""
        key = (text, max(6, int(px)), colour, bold)
        surf = self._texts.get(key)
        if surf is None:
            surf = self.font(key[1], bold).render(text, True, colour)
            self._texts.put(key, surf)
        return surf

    def fit_text(self, text: str, px: int, colour: Colour, max_width: int,
                 bold: bool = False) -> pygame.Surface:
        """Like :meth:`text` but at a smaller size if needed to fit ``max_width``."""
        size = max(6, int(px))
        surf = self.text(text, size, colour, bold)
        while surf.get_width() > max_width and size > 8:
            size = max(8, int(size * 0.9))
            surf = self.text(text, size, colour, bold)
        return surf

    def wrap(self, text: str, px: int, max_width: int) -> list[str]:
        """Split ``text`` into lines no wider than ``max_width`` at ``px``."""
        f = self.font(px)
        lines: list[str] = []
        for para in text.split("\n"):
            words = para.split(" ")
            line = ""
            for w in words:
                cand = w if not line else line + " " + w
                if f.size(cand)[0] <= max_width or not line:
                    line = cand
                else:
                    lines.append(line)
                    line = w
            lines.append(line)
        return lines

    # ------------------------------------------------------------------ sound
    def _mixer(self) -> bool:
        if self._mixer_ok is None:
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init(22050, -16, 1, 512)
                self._mixer_ok = bool(pygame.mixer.get_init())
            except pygame.error:
                self._mixer_ok = False
        return self._mixer_ok

    def sound(self, name: str) -> pygame.mixer.Sound | None:
        """The sound ``sounds/<name>.wav`` (``None`` when there is no audio device).

        A missing file raises :class:`AssetError` even without an audio device.
        """
        if name in self._sounds:
            return self._sounds[name]
        path = self._path(self.sounds, name, ".wav", "make_sounds")
        snd: pygame.mixer.Sound | None = None
        if self._mixer():
            try:
                snd = pygame.mixer.Sound(str(path))
            except pygame.error:
                snd = None
        self._sounds[name] = snd
        return snd

    def play(self, name: str, volume: float = 1.0) -> bool:
        """Play a sound unless muted; returns whether it was started. Never raises for the
        audio device (only :class:`AssetError` for a missing file)."""
        snd = self.sound(name)
        if self.muted or snd is None or self.volume <= 0:
            return False
        try:
            snd.set_volume(max(0.0, min(1.0, self.volume * volume)))
            snd.play()
        except pygame.error:
            return False
        return True

    def check_all(self) -> list[str]:
        """Names of every expected sprite and sound that is missing (for a start-up check)."""
        from game.client import theme

        missing = []
        for name in theme.SPRITE_NAMES:
            if not (self.sprites / f"{name}.png").is_file():
                missing.append(f"sprites/{name}.png")
        for name in SOUND_NAMES:
            if not (self.sounds / f"{name}.wav").is_file():
                missing.append(f"sounds/{name}.wav")
        return missing
