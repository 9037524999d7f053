"""Draw every sprite of Tee Table with pygame and save them as PNG files in ``sprites/``.

Run ``python tools/make_sprites.py`` (add ``--out DIR`` to write elsewhere). The output is
deterministic: the same pygame version draws the same pixels. Sprites are drawn at twice the
size they are usually shown, so they stay sharp when scaled down.

What it makes (names are what ``game.client.assets`` loads):

* ``peg_0.png`` .. ``peg_7.png``: pegs in eight colour-blind-friendly colours with a shine;
* ``hole.png``, ``hole_start.png``, ``hole_home.png``, ``hole_out.png``: board holes;
* ``sym_<name>.png``: team symbols (circle, square, triangle, diamond, star, cross, hexagon,
  ring), white on transparent so they can be drawn on any peg;
* ``card_<RS>.png`` for every rank and suit (``card_AS.png``, ``card_TH.png``), ``card_JK.png``
  and ``card_back.png``;
* ``button.png``, ``button_hover.png``, ``button_down.png``, ``panel.png``: nine-slice frames;
* ``logo.png`` (the title logo) and ``icon.png`` (the window icon).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

ROOT = Path(__file__).resolve().parent.parent

# Okabe-Ito based, chosen to stay apart for the common colour-vision deficiencies; the team
# symbols and seat names carry the same information for anyone who still cannot tell two apart.
PEG_COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 60, 40),  # red (vermillion)
    (0, 114, 220),  # blue
    (240, 210, 30),  # yellow
    (0, 158, 115),  # green
    (245, 150, 20),  # orange
    (110, 200, 245),  # sky
    (200, 110, 190),  # purple
    (235, 235, 235),  # white
)
SYMBOLS = ("circle", "square", "triangle", "diamond", "star", "cross", "hexagon", "ring",
           "moon")
RANKS = "A23456789TJQK"
SUITS = "CDHS"
RED = (205, 30, 45)
BLACK = (25, 25, 35)

PEG = 64  # peg sprite size (2x of 32)
HOLE = 48
CARD_W, CARD_H = 120, 168  # 2x of 60x84


def _lighter(c: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return tuple(min(255, int(v + (255 - v) * f)) for v in c)  # type: ignore[return-value]


def _darker(c: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return tuple(max(0, int(v * (1 - f))) for v in c)  # type: ignore[return-value]


def _surface(w: int, h: int) -> pygame.Surface:
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    s.fill((0, 0, 0, 0))
    return s


def draw_peg(colour: tuple[int, int, int]) -> pygame.Surface:
    s = _surface(PEG, PEG)
    c = PEG // 2
    r = PEG // 2 - 3
    pygame.draw.circle(s, (0, 0, 0, 110), (c + 2, c + 3), r)  # drop shadow
    pygame.draw.circle(s, _darker(colour, 0.45), (c, c), r)  # rim
    # radial body: concentric circles from dark edge to light centre-top
    steps = 14
    for i in range(steps):
        f = i / steps
        rr = int((r - 3) * (1 - f * 0.75))
        col = _lighter(colour, f * 0.35)
        pygame.draw.circle(s, col, (c - int(f * r * 0.18), c - int(f * r * 0.22)), rr)
    # shine
    shine = _surface(PEG, PEG)
    pygame.draw.ellipse(shine, (255, 255, 255, 150),
                        (c - r * 0.62, c - r * 0.75, r * 0.7, r * 0.45))
    pygame.draw.circle(shine, (255, 255, 255, 220), (int(c - r * 0.35), int(c - r * 0.52)), 4)
    s.blit(shine, (0, 0))
    return s


def draw_hole(kind: str) -> pygame.Surface:
    s = _surface(HOLE, HOLE)
    c = HOLE // 2
    r = HOLE // 2 - 6
    if kind == "home":
        pygame.draw.circle(s, (255, 255, 255, 200), (c, c), r + 5, 3)
    elif kind == "out":
        pygame.draw.circle(s, (255, 255, 255, 230), (c, c), r + 5, 4)
        pygame.draw.circle(s, (255, 255, 255, 120), (c, c), r + 1, 2)
    elif kind == "start":
        pygame.draw.circle(s, (255, 255, 255, 90), (c, c), r + 4)
    pygame.draw.circle(s, (255, 255, 255, 70), (c + 1, c + 2), r)  # lower lip highlight
    pygame.draw.circle(s, (10, 12, 18, 255), (c, c), r)
    pygame.draw.circle(s, (40, 44, 55, 255), (c + 1, c + 2), r - 4)
    pygame.draw.circle(s, (0, 0, 0, 160), (c - 1, c - 1), r, 2)
    return s


def symbol_points(name: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    if name == "square":
        k = r * 0.82
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if name == "triangle":
        return [
            (cx + r * math.cos(a), cy + r * 0.15 + r * math.sin(a))
            for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)
        ]
    if name == "diamond":
        return [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
    if name == "star":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + 0.08 * r + rr * math.sin(a)))
        return pts
    if name == "hexagon":
        return [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in
                (i * math.pi / 3 for i in range(6))]
    if name == "cross":
        t = r * 0.36
        return [
            (cx - t, cy - r), (cx + t, cy - r), (cx + t, cy - t), (cx + r, cy - t),
            (cx + r, cy + t), (cx + t, cy + t), (cx + t, cy + r), (cx - t, cy + r),
            (cx - t, cy + t), (cx - r, cy + t), (cx - r, cy - t), (cx - t, cy - t),
        ]
    raise ValueError(name)


def draw_symbol(name: str, size: int = 48) -> pygame.Surface:
    s = _surface(size, size)
    c = size / 2
    r = size / 2 - 5
    outline = (0, 0, 0, 200)
    white = (255, 255, 255, 255)
    if name == "circle":
        pygame.draw.circle(s, outline, (c, c), r + 3)
        pygame.draw.circle(s, white, (c, c), r - 1)
    elif name == "moon":
        pygame.draw.circle(s, outline, (c, c), r + 3)
        pygame.draw.circle(s, white, (c, c), r - 1)
        bite = _surface(size, size)
        pygame.draw.circle(bite, (0, 0, 0, 255), (c + r * 0.45, c - r * 0.3), r * 0.78)
        s.blit(bite, (0, 0), special_flags=pygame.BLEND_RGBA_SUB)
        pygame.draw.circle(s, outline, (c + r * 0.45, c - r * 0.3), r * 0.78 + 2, 3)
        s.blit(bite, (0, 0), special_flags=pygame.BLEND_RGBA_SUB)
    elif name == "ring":
        pygame.draw.circle(s, outline, (c, c), r + 3)
        pygame.draw.circle(s, white, (c, c), r - 1)
        pygame.draw.circle(s, outline, (c, c), r * 0.45 + 2)
        pygame.draw.circle(s, (0, 0, 0, 0), (c, c), r * 0.45 - 1)
    else:
        pts = symbol_points(name, c, c, r)
        pygame.draw.polygon(s, outline, pts, 0)
        pygame.draw.polygon(s, outline, pts, 6)
        inner = symbol_points(name, c, c, r - 3.5)
        pygame.draw.polygon(s, white, inner, 0)
    return s


def draw_suit(s: pygame.Surface, suit: str, cx: float, cy: float, r: float,
              colour: tuple[int, int, int]) -> None:
    """A suit shape centred at (cx, cy) within radius r (drawn with primitives: the default
    font has no suit glyphs)."""
    if suit == "D":
        pygame.draw.polygon(s, colour, [(cx, cy - r), (cx + r * 0.72, cy), (cx, cy + r),
                                        (cx - r * 0.72, cy)])
    elif suit == "H":
        lobe = r * 0.52
        pygame.draw.circle(s, colour, (cx - lobe * 0.92, cy - r * 0.3), lobe)
        pygame.draw.circle(s, colour, (cx + lobe * 0.92, cy - r * 0.3), lobe)
        pygame.draw.polygon(s, colour, [(cx - r * 0.98, cy - r * 0.18), (cx + r * 0.98,
                                         cy - r * 0.18), (cx, cy + r)])
    elif suit == "S":
        lobe = r * 0.5
        pygame.draw.circle(s, colour, (cx - lobe * 0.92, cy + r * 0.18), lobe)
        pygame.draw.circle(s, colour, (cx + lobe * 0.92, cy + r * 0.18), lobe)
        pygame.draw.polygon(s, colour, [(cx - r * 0.95, cy + r * 0.08), (cx + r * 0.95,
                                         cy + r * 0.08), (cx, cy - r)])
        pygame.draw.polygon(s, colour, [(cx, cy + r * 0.2), (cx - r * 0.4, cy + r),
                                        (cx + r * 0.4, cy + r)])
    elif suit == "C":
        lobe = r * 0.42
        pygame.draw.circle(s, colour, (cx, cy - r * 0.5), lobe)
        pygame.draw.circle(s, colour, (cx - r * 0.5, cy + r * 0.1), lobe)
        pygame.draw.circle(s, colour, (cx + r * 0.5, cy + r * 0.1), lobe)
        pygame.draw.circle(s, colour, (cx, cy), lobe * 0.6)
        pygame.draw.polygon(s, colour, [(cx, cy), (cx - r * 0.4, cy + r), (cx + r * 0.4,
                                                                          cy + r)])
    else:
        raise ValueError(suit)


def _card_base() -> pygame.Surface:
    s = _surface(CARD_W, CARD_H)
    rect = pygame.Rect(0, 0, CARD_W, CARD_H)
    pygame.draw.rect(s, (0, 0, 0, 90), rect.move(2, 3), border_radius=12)
    body = rect.inflate(-4, -4)
    pygame.draw.rect(s, (252, 250, 242), body, border_radius=11)
    pygame.draw.rect(s, (120, 120, 130), body, 2, border_radius=11)
    return s


def _text(font: pygame.font.Font, text: str, colour: tuple[int, int, int]) -> pygame.Surface:
    return font.render(text, True, colour)


def draw_card(rank: str, suit: str, fonts: dict[int, pygame.font.Font]) -> pygame.Surface:
    s = _card_base()
    colour = RED if suit in "DH" else BLACK
    label = "10" if rank == "T" else rank
    big = fonts[64] if label != "10" else fonts[56]
    # corner index: rank over suit, top-left; the same upside down bottom-right
    idx = _surface(44, 84)
    t = _text(big, label, colour)
    if t.get_width() > 44:
        t = pygame.transform.smoothscale(t, (44, int(t.get_height() * 44 / t.get_width())))
    idx.blit(t, t.get_rect(midtop=(22, 2)))
    draw_suit(idx, suit, 22, 64, 15, colour)
    s.blit(idx, (6, 6))
    s.blit(pygame.transform.rotate(idx, 180), (CARD_W - 6 - 44, CARD_H - 6 - 84))
    # centre: a big suit, or a framed face letter for J Q K
    cx, cy = CARD_W // 2, CARD_H // 2
    if rank in "JQK":
        frame = pygame.Rect(0, 0, 50, 84)
        frame.center = (cx, cy)
        band = {"J": (70, 130, 200), "Q": (200, 90, 150), "K": (220, 170, 40)}[rank]
        pygame.draw.rect(s, _lighter(band, 0.6), frame, border_radius=8)
        pygame.draw.rect(s, band, frame, 3, border_radius=8)
        letter = _text(fonts[64], rank, _darker(band, 0.35))
        s.blit(letter, letter.get_rect(center=(cx, cy - 12)))
        draw_suit(s, suit, cx, cy + 24, 11, colour)
    else:
        draw_suit(s, suit, cx, cy, 21, colour)
    return s


def draw_joker(fonts: dict[int, pygame.font.Font]) -> pygame.Surface:
    s = _card_base()
    colours = [(230, 60, 40), (0, 114, 220), (240, 190, 30), (0, 158, 115)]
    for i, col in enumerate(colours):
        a = -math.pi / 2 + i * math.pi / 2
        pts = [(CARD_W / 2, CARD_H / 2 + 10)]
        for da in (-0.45, 0.45):
            pts.append((CARD_W / 2 + 42 * math.cos(a + da),
                        CARD_H / 2 + 10 + 42 * math.sin(a + da)))
        pygame.draw.polygon(s, col, pts)
        pygame.draw.circle(s, col, (CARD_W / 2 + 46 * math.cos(a), CARD_H / 2 + 10 + 46 *
                                    math.sin(a)), 7)
    pygame.draw.circle(s, (252, 250, 242), (CARD_W // 2, CARD_H // 2 + 10), 13)
    pygame.draw.circle(s, (40, 40, 50), (CARD_W // 2, CARD_H // 2 + 10), 13, 3)
    t = _text(fonts[40], "JOKER", (60, 40, 120))
    s.blit(t, t.get_rect(midtop=(CARD_W // 2, 10)))
    t = _text(fonts[56], "JK", (60, 40, 120))
    t = pygame.transform.rotate(t, 180)
    s.blit(pygame.transform.smoothscale(t, (t.get_width() * 2 // 3, t.get_height() * 2 // 3)),
           (CARD_W - 8 - t.get_width() * 2 // 3, CARD_H - 8 - t.get_height() * 2 // 3))
    return s


def draw_back() -> pygame.Surface:
    s = _card_base()
    inner = pygame.Rect(10, 10, CARD_W - 20, CARD_H - 20)
    pygame.draw.rect(s, (30, 70, 160), inner, border_radius=8)
    clip = s.subsurface(inner)
    for i in range(-CARD_H, CARD_W + CARD_H, 14):
        pygame.draw.line(clip, (60, 110, 210), (i, 0), (i + CARD_H, CARD_H), 4)
        pygame.draw.line(clip, (45, 90, 190), (i + CARD_H, 0), (i, CARD_H), 2)
    pygame.draw.rect(s, (250, 200, 60), inner, 3, border_radius=8)
    pygame.draw.circle(s, (250, 200, 60), inner.center, 20)
    pygame.draw.circle(s, (30, 70, 160), inner.center, 14)
    pygame.draw.circle(s, (230, 60, 40), inner.center, 9)
    return s


def draw_panel(fill: tuple[int, int, int], edge: tuple[int, int, int], size: int = 48,
               radius: int = 14) -> pygame.Surface:
    """A flat panel (no highlight band, so it stretches to any height cleanly)."""
    s = _surface(size, size)
    rect = pygame.Rect(0, 0, size, size)
    pygame.draw.rect(s, (0, 0, 0, 100), rect.inflate(-2, -2).move(0, 2), border_radius=radius)
    body = rect.inflate(-4, -4)
    pygame.draw.rect(s, (*fill, 235), body, border_radius=radius)
    pygame.draw.rect(s, edge, body, 2, border_radius=radius)
    return s


def draw_frame(fill: tuple[int, int, int], edge: tuple[int, int, int], size: int = 48,
               radius: int = 14, glow: bool = False) -> pygame.Surface:
    s = _surface(size, size)
    rect = pygame.Rect(0, 0, size, size)
    pygame.draw.rect(s, (0, 0, 0, 110), rect.inflate(-2, -2).move(0, 3), border_radius=radius)
    body = rect.inflate(-4, -6).move(0, -1)
    pygame.draw.rect(s, _darker(fill, 0.35), body, border_radius=radius)
    top = body.inflate(-6, -6).move(0, -1)
    pygame.draw.rect(s, fill, top, border_radius=radius - 3)
    hl = pygame.Rect(top.x + 4, top.y + 3, top.w - 8, top.h // 3)
    pygame.draw.rect(s, _lighter(fill, 0.25), hl, border_radius=radius - 6)
    pygame.draw.rect(s, edge, body, 3 if glow else 2, border_radius=radius)
    return s


def draw_logo(fonts: dict[int, pygame.font.Font]) -> pygame.Surface:
    w, h = 1000, 260
    s = _surface(w, h)
    title = "TEE TABLE"
    font = fonts[150]
    x = 0
    letters = []
    for ch in title:
        letters.append(font.render(ch, True, (255, 255, 255)))
    total = sum(t.get_width() for t in letters) + 6 * (len(letters) - 1)
    x = (w - total) // 2
    for i, t in enumerate(letters):
        col = PEG_COLOURS[i % len(PEG_COLOURS)] if title[i] != " " else (255, 255, 255)
        if col == PEG_COLOURS[7]:
            col = PEG_COLOURS[2]
        glyph = font.render(title[i], True, col)
        dy = int(10 * math.sin(i * 0.9))
        outline = font.render(title[i], True, (20, 20, 40))
        for ox, oy in ((-5, 0), (5, 0), (0, -5), (0, 5), (-4, -4), (4, 4), (-4, 4), (4, -4),
                       (3, 8), (0, 9), (6, 9)):
            s.blit(outline, (x + ox, 30 + dy + oy))
        s.blit(glyph, (x, 30 + dy))
        hl = font.render(title[i], True, _lighter(col, 0.55))
        hl_clip = pygame.Surface(hl.get_size(), pygame.SRCALPHA)
        hl_clip.blit(hl, (0, 0))
        hl_clip.fill((0, 0, 0, 0), (0, hl.get_height() * 0.45, hl.get_width(), hl.get_height()))
        s.blit(hl_clip, (x, 30 + dy))
        x += t.get_width() + 6
    # a row of pegs underneath
    for i in range(8):
        peg = pygame.transform.smoothscale(draw_peg(PEG_COLOURS[i]), (44, 44))
        s.blit(peg, (w // 2 - 4 * 56 + i * 56 + 6, h - 56))
    return s


def draw_icon() -> pygame.Surface:
    s = _surface(64, 64)
    pygame.draw.circle(s, (20, 90, 60), (32, 32), 31)
    pygame.draw.circle(s, (250, 200, 60), (32, 32), 31, 3)
    for i, (dx, dy) in enumerate(((-11, -9), (11, -9), (0, 11))):
        peg = pygame.transform.smoothscale(draw_peg(PEG_COLOURS[i]), (28, 28))
        s.blit(peg, (32 + dx - 14, 32 + dy - 14))
    return s


def build(out: Path) -> list[str]:
    """Draw every sprite into ``out``; returns the file names written."""
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1))
    fonts = {n: pygame.font.Font(None, n) for n in (40, 56, 64, 150)}
    out.mkdir(parents=True, exist_ok=True)
    made: dict[str, pygame.Surface] = {}
    for i, col in enumerate(PEG_COLOURS):
        made[f"peg_{i}.png"] = draw_peg(col)
    for kind in ("plain", "start", "home", "out"):
        made["hole.png" if kind == "plain" else f"hole_{kind}.png"] = draw_hole(kind)
    for name in SYMBOLS:
        made[f"sym_{name}.png"] = draw_symbol(name)
    for r in RANKS:
        for su in SUITS:
            made[f"card_{r}{su}.png"] = draw_card(r, su, fonts)
    made["card_JK.png"] = draw_joker(fonts)
    made["card_back.png"] = draw_back()
    made["button.png"] = draw_frame((235, 120, 30), (255, 220, 150))
    made["button_hover.png"] = draw_frame((255, 160, 40), (255, 255, 255), glow=True)
    made["button_down.png"] = draw_frame((190, 90, 20), (255, 220, 150))
    made["panel.png"] = draw_panel((28, 40, 70), (90, 130, 210), radius=14)
    made["logo.png"] = draw_logo(fonts)
    made["icon.png"] = draw_icon()
    for name, surf in made.items():
        pygame.image.save(surf, str(out / name))
    return sorted(made)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "sprites", help="output folder")
    args = p.parse_args(argv)
    names = build(args.out)
    print(f"wrote {len(names)} sprites to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
