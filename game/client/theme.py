"""Colours, sizes and names shared by every part of the client (the arcade look)."""

from __future__ import annotations

BG = (14, 20, 42)
BG2 = (24, 36, 74)
FELT = (18, 74, 58)
FELT_DARK = (10, 46, 36)
TEXT = (246, 244, 236)
TEXT_DIM = (170, 180, 205)
ACCENT = (255, 186, 48)
ACCENT2 = (90, 200, 255)
GOOD = (110, 230, 120)
BAD = (255, 90, 80)
FOCUS = (255, 255, 255)
SHADOW = (0, 0, 0)

# Seat colours: the same order as the peg sprites (tools/make_sprites.py PEG_COLOURS).
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 60, 40),
    (0, 114, 220),
    (240, 210, 30),
    (0, 158, 115),
    (245, 150, 20),
    (110, 200, 245),
    (200, 110, 190),
    (235, 235, 235),
)
SEAT_COLOUR_NAMES = ("Red", "Blue", "Yellow", "Green", "Orange", "Sky", "Purple", "White")
SYMBOLS = ("circle", "square", "triangle", "diamond", "star", "cross", "hexagon", "ring",
           "moon")

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SPRITE_NAMES: tuple[str, ...] = (
    *(f"peg_{i}" for i in range(8)),
    "hole", "hole_start", "hole_home", "hole_out",
    *(f"sym_{s}" for s in SYMBOLS),
    *(f"card_{r}{s}" for r in RANKS for s in SUITS),
    "card_JK", "card_back",
    "button", "button_hover", "button_down", "panel", "logo", "icon",
)

DESIGN_W, DESIGN_H = 1280, 720


def unit(size: tuple[int, int]) -> float:
    """How much bigger than the 1280x720 design this window is (1.0 at 1280x720; narrow
    windows shrink less than their width, so text stays readable at 800x600)."""
    return max(0.3, min(size[0] / 1100, size[1] / DESIGN_H))


def mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (int(a[0] + (b[0] - a[0]) * t), int(a[1] + (b[1] - a[1]) * t),
            int(a[2] + (b[2] - a[2]) * t))


def seat_colour(i: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[i % len(SEAT_COLOURS)]


def card_sprite(card: int | None) -> str:
    """Sprite name of a card int (``game.rules.cards``): joker 0, else rank*4+suit;
    ``None`` is a face-down card."""
    if card is None:
        return "card_back"
    if card == 0:
        return "card_JK"
    return f"card_{RANKS[(card >> 2) - 1]}{SUITS[card & 3]}"
