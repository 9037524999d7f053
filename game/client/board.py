"""The track board: geometry on screen, hit-testing and drawing (pure drawing from a view).

Geometry follows ``game.rules.track.board`` (spec track.md section 1): ``S`` sides (4 to 8; 4
with open sides for 1 to 3 seats), 18 main-track holes per side numbered 0..17 from the corner
at the side's start, ring index ``18*side + k`` increasing clockwise. A seat on side ``s`` has
its in-spot at ``18s+3`` and its come-out hole at ``18s+8``; its five-hole start lies inward
beside the come-out hole and its five-hole home runs inward from the in-spot (home 1 next to
the in-spot, home 5 deepest).

On screen the board is a regular ``S``-gon; hole ``k`` of side ``s`` sits ``k/18`` of the way
from vertex ``s`` to vertex ``s+1``, so every hole is one spacing ``u`` from the next. The
``bottom_side`` is drawn at the bottom (the viewer's own side).

Addresses of holes are :class:`Hole` values: ``Hole("ring", -1, i)`` for ring hole ``i``,
``Hole("start", seat, i)`` for start hole ``i`` in ``0..4`` and ``Hole("home", seat, j)`` for
home hole ``j`` in ``1..5``. :meth:`BoardGeometry.point` maps a hole to a screen point,
:meth:`BoardGeometry.side_point` maps ``(side, index)`` to one, :meth:`BoardGeometry.walk` lists
the holes a peg passes through hole by hole (for animations) and :meth:`BoardGeometry.hit_test`
finds the hole under the mouse.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pygame

from game.client import theme
from game.client.assets import Assets
from game.rules.track.board import (
    COME_OUT_OFFSET,
    HOLES_PER_SIDE,
    HOME_SIZE,
    IN_SPOT_OFFSET,
    PEGS,
    Board,
)

Point = tuple[float, float]

START_DEPTH = 2.0  # start row: this many spacings inward of the track
START_FROM = COME_OUT_OFFSET - 2  # start row runs along k = 6..10, centred on the come-out hole


class Hole(NamedTuple):
    kind: str  # "ring", "start" or "home"
    seat: int  # -1 for ring holes
    index: int  # type: ignore[assignment]  # ring index; start 0..4; home 1..5 (shadows tuple.index)


def ring(i: int) -> Hole:
    return Hole("ring", -1, i)


def start(seat: int, i: int) -> Hole:
    return Hole("start", seat, i)


def home(seat: int, j: int) -> Hole:
    return Hole("home", seat, j)


class BoardGeometry:
    """Where every hole of a ``seats``-seat board is inside ``rect`` (see the module doc)."""

    def __init__(self, seats: int, rect: pygame.Rect | tuple[int, int, int, int],
                 bottom_side: int = 0) -> None:
        self.board = Board(seats)
        self.seats = seats
        self.S = self.board.sides
        self.rect = pygame.Rect(rect)
        self.bottom_side = bottom_side % self.S
        S = self.S
        # vertex angles (screen coordinates: y down, so increasing angle runs clockwise)
        base = math.pi / 2 - math.pi / S - 2 * math.pi * self.bottom_side / S
        angles = [base + 2 * math.pi * v / S for v in range(S)]
        unit_vertices = [(math.cos(a), math.sin(a)) for a in angles]
        # fit the polygon (plus a rim of one spacing) into rect
        side_len = 2 * math.sin(math.pi / S)  # side length for radius 1
        rim = 1.1 * side_len / HOLES_PER_SIDE
        xs = [x for x, _ in unit_vertices]
        ys = [y for _, y in unit_vertices]
        bw = max(xs) - min(xs) + 2 * rim
        bh = max(ys) - min(ys) + 2 * rim
        radius = min(self.rect.w / bw, self.rect.h / bh)
        self.radius = radius
        cx = self.rect.centerx - radius * (max(xs) + min(xs)) / 2
        cy = self.rect.centery - radius * (max(ys) + min(ys)) / 2
        self.center: Point = (cx, cy)
        self.vertices: list[Point] = [(cx + radius * x, cy + radius * y) for x, y in unit_vertices]
        self.u = radius * side_len / HOLES_PER_SIDE  # hole spacing in pixels
        self.hole_r = self.u * 0.31
        self.peg_r = self.u * 0.52
        self._frames = [self._side_frame(s) for s in range(S)]
        self._points: dict[Hole, Point] = {}
        for h in self.all_holes():
            self._points[h] = self._compute(h)

    # frames ------------------------------------------------------------------
    def _side_frame(self, side: int) -> tuple[Point, Point, Point]:
        (x0, y0) = self.vertices[side]
        (x1, y1) = self.vertices[(side + 1) % self.S]
        ax, ay = (x1 - x0) / HOLES_PER_SIDE, (y1 - y0) / HOLES_PER_SIDE  # one spacing along
        # inward normal: towards the centre
        nx, ny = -ay, ax
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        if (self.center[0] - mx) * nx + (self.center[1] - my) * ny < 0:
            nx, ny = -nx, -ny
        return (x0, y0), (ax, ay), (nx, ny)

    def local(self, side: int, along: float, depth: float) -> Point:
        """The point ``along`` spacings from vertex ``side`` and ``depth`` spacings inward."""
        (x0, y0), (ax, ay), (nx, ny) = self._frames[side % self.S]
        return (x0 + ax * along + nx * depth, y0 + ay * along + ny * depth)

    def side_angle(self, side: int) -> float:
        """Direction of travel along ``side`` in degrees (screen coordinates)."""
        _, (ax, ay), _ = self._frames[side % self.S]
        return math.degrees(math.atan2(ay, ax))

    def inward(self, side: int) -> Point:
        """Unit vector pointing inward from ``side``."""
        _, _, (nx, ny) = self._frames[side % self.S]
        n = math.hypot(nx, ny) or 1.0
        return (nx / n, ny / n)

    # holes -------------------------------------------------------------------
    def all_holes(self) -> list[Hole]:
        out = [ring(i) for i in range(self.board.ring)]
        for seat in range(self.seats):
            out += [start(seat, i) for i in range(PEGS)]
            out += [home(seat, j) for j in range(1, HOME_SIZE + 1)]
        return out

    def side_point(self, side: int, index: int) -> Point:
        """Ring hole ``index`` (0..17) of ``side``."""
        return self.local(side, index, 0.0)

    def _compute(self, h: Hole) -> Point:
        if h.kind == "ring":
            side, k = divmod(h.index % self.board.ring, HOLES_PER_SIDE)
            return self.side_point(side, k)
        side = self.board.side_of(h.seat)
        if h.kind == "start":
            return self.local(side, START_FROM + h.index, START_DEPTH)
        if h.kind == "home":
            return self.local(side, IN_SPOT_OFFSET, float(h.index))
        raise ValueError(f"unknown hole kind {h.kind!r}")

    def point(self, h: Hole) -> Point:
        p = self._points.get(h)
        if p is None:
            raise ValueError(f"{h} is not a hole of a {self.seats}-seat board")
        return p

    def walk(self, seat: int, a: Hole, b: Hole, backward: bool = False) -> list[Hole]:
        """The holes a peg of ``seat`` steps through from ``a`` to ``b`` (``b`` included, ``a``
        not), hole by hole along the track: forward round the ring and into home through the
        seat's in-spot, or ``backward`` (home pegs back out through home 1 and the in-spot).
        A peg coming out of start (or flying home to start) goes straight: ``[b]``."""
        n = self.board.ring
        if a.kind == "start" or b.kind == "start":
            return [b]
        in_spot = self.board.in_spot(seat)
        out: list[Hole] = []
        if not backward:
            if a.kind == "ring":
                stop = b.index if b.kind == "ring" else in_spot
                i = a.index
                guard = 0
                while i != stop and guard <= n:
                    i = (i + 1) % n
                    out.append(ring(i))
                    guard += 1
                if b.kind == "home":
                    out += [home(seat, j) for j in range(1, b.index + 1)]
                return out
            # home to home, forward
            return [home(seat, j) for j in range(a.index + 1, b.index + 1)]
        # backward
        if a.kind == "home":
            out += [home(seat, j) for j in range(a.index - 1, 0, -1)]
            if b.kind == "home":
                return [home(seat, j) for j in range(a.index - 1, b.index - 1, -1)]
            i = in_spot
            out.append(ring(i))
        else:
            i = a.index
        guard = 0
        while i != b.index and guard <= n:
            i = (i - 1) % n
            out.append(ring(i))
            guard += 1
        return out

    def hit_test(self, pos: tuple[int, int] | Point, holes: Iterable[Hole] | None = None,
                 slack: float = 1.45) -> Hole | None:
        """The hole under ``pos`` (within ``slack`` hole radii), nearest first; ``holes``
        limits the search (for example to the highlighted ones)."""
        best: Hole | None = None
        best_d = (self.hole_r * slack) ** 2
        px, py = pos
        for h in (self._points if holes is None else holes):
            x, y = self.point(h)
            d = (x - px) ** 2 + (y - py) ** 2
            if d <= best_d:
                best, best_d = h, d
        return best


@dataclass
class PegDraw:
    """One peg to draw: its seat (colour) and peg number, and where it is."""

    seat: int
    peg: int
    hole: Hole


@dataclass
class BoardLook:
    """How seats look: colour index (into the peg sprites) and team symbol name per seat;
    ``high_contrast``: pegs in :data:`HIGH_CONTRAST` colours with a black rim."""

    colours: Sequence[int]
    symbols: Sequence[str | None]
    names: Sequence[str] = field(default_factory=list)
    high_contrast: bool = False


# ----------------------------------------------------------------------------- colour marks
#: Never colour alone: each of the eight seat colours also has its own mark, drawn on its
#: pegs, its plate and its home, crisp at any size (drawn, not scaled from a sprite).
MARKS = ("dot", "square", "triangle", "diamond", "plus", "cross", "ring", "bar")
#: The high-contrast palette (settings ``high_contrast``): eight colours far apart in
#: lightness and hue, each still with its mark.
HIGH_CONTRAST = (
    (255, 40, 40), (40, 90, 255), (255, 235, 0), (0, 200, 90),
    (255, 140, 0), (0, 230, 255), (190, 60, 255), (255, 255, 255),
)


def mark_of(colour: int) -> str:
    return MARKS[colour % len(MARKS)]


def seat_rgb(colour: int, high_contrast: bool = False) -> tuple[int, int, int]:
    """A seat colour's RGB (the theme's, or the high-contrast palette's)."""
    if high_contrast:
        return HIGH_CONTRAST[colour % len(HIGH_CONTRAST)]
    return theme.seat_colour(colour)


def mark_ink(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """The mark's colour on a peg of ``rgb``: near black on light colours, white on dark."""
    light = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return (15, 15, 25) if light > 140 else (250, 250, 250)


def draw_mark(surf: pygame.Surface, colour: int, centre: tuple[int, int], d: int,
              ink: tuple[int, int, int]) -> None:
    """Colour ``colour``'s mark, about ``d`` px across, centred on ``centre``."""
    x, y = centre
    r = max(2.0, d / 2)
    w = max(1, round(d / 4.5))
    kind = mark_of(colour)
    if kind == "dot":
        pygame.draw.circle(surf, ink, centre, max(1, round(r * 0.62)))
    elif kind == "square":
        k = round(r * 0.62)
        pygame.draw.rect(surf, ink, pygame.Rect(x - k, y - k, 2 * k + 1, 2 * k + 1))
    elif kind == "triangle":
        pygame.draw.polygon(surf, ink, [(x, y - r * 0.85), (x + r * 0.85, y + r * 0.6),
                                        (x - r * 0.85, y + r * 0.6)])
    elif kind == "diamond":
        pygame.draw.polygon(surf, ink, [(x, y - r * 0.9), (x + r * 0.7, y),
                                        (x, y + r * 0.9), (x - r * 0.7, y)])
    elif kind == "plus":
        k = round(r * 0.85)
        pygame.draw.line(surf, ink, (x - k, y), (x + k, y), w)
        pygame.draw.line(surf, ink, (x, y - k), (x, y + k), w)
    elif kind == "cross":
        k = round(r * 0.62)
        pygame.draw.line(surf, ink, (x - k, y - k), (x + k, y + k), w)
        pygame.draw.line(surf, ink, (x - k, y + k), (x + k, y - k), w)
    elif kind == "ring":
        pygame.draw.circle(surf, ink, centre, max(2, round(r * 0.7)), max(1, w - 1 or 1))
    else:  # bar
        k = round(r * 0.8)
        pygame.draw.rect(surf, ink, pygame.Rect(x - k, y - max(1, w // 2), 2 * k + 1,
                                                max(2, w)))


def draw_peg(surf: pygame.Surface, assets: Assets, colour: int, centre: tuple[int, int],
             d: int, high_contrast: bool = False) -> None:
    """A peg of ``colour``, ``d`` px across, with its colour's mark."""
    x, y = centre
    if high_contrast:
        pygame.draw.circle(surf, (0, 0, 0), centre, d // 2 + 1)
        pygame.draw.circle(surf, seat_rgb(colour, True), centre, max(2, d // 2 - 1))
    else:
        img = assets.scaled(f"peg_{colour % 8}", (d, d))
        surf.blit(img, (x - d // 2, y - d // 2))
    draw_mark(surf, colour, centre, max(3, round(d * (0.62 if d < 14 else 0.5))),
              mark_ink(seat_rgb(colour, high_contrast)))


@dataclass
class Highlight:
    hole: Hole
    tag: str = ""  # "+3", "-6"
    colour: tuple[int, int, int] = theme.ACCENT


class BoardRenderer:
    """Draws a board. The static part (felt, bands, holes) is cached per geometry and look."""

    def __init__(self, assets: Assets) -> None:
        self.assets = assets
        self._static: pygame.Surface | None = None
        self._static_key: tuple | None = None
        #: The tag boxes of the last draw (in the highlights' order).
        self.tag_rects: list[pygame.Rect] = []

    def _key(self, g: BoardGeometry, look: BoardLook) -> tuple:
        return (g.seats, tuple(g.rect), g.bottom_side, tuple(look.colours), tuple(look.symbols),
                look.high_contrast)

    def static(self, g: BoardGeometry, look: BoardLook) -> pygame.Surface:
        key = self._key(g, look)
        if self._static is None or self._static_key != key:
            self._static = self._draw_static(g, look)
            self._static_key = key
        return self._static

    def _draw_static(self, g: BoardGeometry, look: BoardLook) -> pygame.Surface:
        a = self.assets
        surf = pygame.Surface(g.rect.size, pygame.SRCALPHA)
        ox, oy = g.rect.topleft

        def p(pt: Point) -> tuple[int, int]:
            return (round(pt[0] - ox), round(pt[1] - oy))

        u = g.u
        # felt: the polygon grown by one spacing, with a dark rim
        outer = []
        for s in range(g.S):
            outer.append(g.local(s, 0, -1.1))
            outer.append(g.local(s, HOLES_PER_SIDE, -1.1))
        pygame.draw.polygon(surf, theme.FELT_DARK, [p(q) for q in outer])
        shrink = []
        for s in range(g.S):
            shrink.append(g.local(s, 0.0, -0.75))
            shrink.append(g.local(s, HOLES_PER_SIDE, -0.75))
        pygame.draw.polygon(surf, theme.FELT, [p(q) for q in shrink])
        seat_of_side = {g.board.side_of(seat): seat for seat in range(g.seats)}
        band_w = max(2, int(u * 0.95))
        # coloured bands along each seat's side; open sides grey
        for s in range(g.S):
            seat = seat_of_side.get(s)
            col = theme.mix(theme.seat_colour(look.colours[seat]), theme.FELT_DARK, 0.35) \
                if seat is not None else (70, 84, 80)
            a0, a1 = p(g.local(s, 0.5, 0)), p(g.local(s, HOLES_PER_SIDE - 0.5, 0))
            pygame.draw.line(surf, col, a0, a1, band_w)
        hole_d = max(4, int(g.hole_r * 2.3))
        hole_img = a.scaled("hole", (hole_d, hole_d))
        for seat in range(g.seats):
            side = g.board.side_of(seat)
            colour = seat_rgb(look.colours[seat], look.high_contrast)
            soft = theme.mix(colour, theme.FELT_DARK, 0.45)
            # home channel from the in-spot inward
            h0 = p(g.local(side, IN_SPOT_OFFSET, 0.0))
            h5 = p(g.local(side, IN_SPOT_OFFSET, HOME_SIZE + 0.3))
            pygame.draw.line(surf, soft, h0, h5, band_w)
            pygame.draw.circle(surf, soft, h5, band_w // 2)
            # the colour's mark at the end of its home (never colour alone)
            end = p(g.local(side, IN_SPOT_OFFSET, HOME_SIZE + 1.25))
            pygame.draw.circle(surf, colour, end, max(4, int(u * 0.5)))
            draw_mark(surf, look.colours[seat], end, max(5, int(u * 0.75)), mark_ink(colour))
            # start box
            s0 = g.local(side, START_FROM - 1.75, START_DEPTH)
            s1 = g.local(side, START_FROM + PEGS - 0.45, START_DEPTH)
            pygame.draw.line(surf, soft, p(s0), p(s1), int(u * 1.25))
            pygame.draw.circle(surf, soft, p(s0), int(u * 0.62))
            pygame.draw.circle(surf, soft, p(s1), int(u * 0.62))
            # come-out hole and in-spot rings in the seat's colour
            for k, width in ((COME_OUT_OFFSET, 0.22), (IN_SPOT_OFFSET, 0.14)):
                c = p(g.local(side, k, 0))
                pygame.draw.circle(surf, colour, c, int(g.hole_r * 1.75))
                pygame.draw.circle(surf, theme.FELT_DARK, c, int(g.hole_r * 1.75),
                                   max(1, int(u * width * 0.3)))
            # the team symbol at the head of the start box
            sym = look.symbols[seat] if seat < len(look.symbols) else None
            if sym:
                sd = max(6, int(u * 0.95))
                img = a.scaled(f"sym_{sym}", (sd, sd))
                c = p(g.local(side, START_FROM - 1.2, START_DEPTH))
                surf.blit(img, img.get_rect(center=c))
        for h in g.all_holes():
            c = p(g.point(h))
            surf.blit(hole_img, (c[0] - hole_d // 2, c[1] - hole_d // 2))
        return surf

    def draw(self, surf: pygame.Surface, g: BoardGeometry, look: BoardLook,
             pegs: Iterable[PegDraw], overrides: Mapping[tuple[int, int], Point] | None = None,
             highlights: Sequence[Highlight] = (), selected: tuple[int, int] | None = None,
             movable: Iterable[tuple[int, int]] = (), t: float = 0.0,
             lifts: Mapping[tuple[int, int], float] | None = None,
             trail: Sequence[Sequence[Hole]] = (),
             avoid: Sequence[tuple[Point, float]] = ()) -> None:
        """Draw the board and its pegs.

        ``overrides`` puts a peg (``(seat, peg)``) at a screen point instead of its hole (the
        animation timeline's positions), ``lifts`` raises a peg by a fraction of a spacing (a
        bump flight), ``highlights`` ring holes with a tag, ``selected`` and ``movable`` mark
        pegs, ``t`` is the clock for the pulse, ``trail`` the last move's paths (each the holes
        one peg went through), drawn as a faint line with a dot at each end; ``avoid`` circles
        (centre, radius: the keyboard's focus ring) no tag may cover. The tags are placed so
        that none overlaps another, a target hole, an ``avoid`` circle or the window's edge
        (:func:`place_tags`); their boxes are kept in :attr:`tag_rects`. Nothing is changed.
        """
        a = self.assets
        surf.blit(self.static(g, look), g.rect.topleft)
        self.draw_trail(surf, g, trail)
        pulse = 0.5 + 0.5 * math.sin(t * 6.0)
        moving = set(movable)
        tag_px = max(14, int(g.u * 0.8))
        for hl in highlights:
            x, y = g.point(hl.hole)
            r = int(g.hole_r * (1.6 + 0.35 * pulse))
            pygame.draw.circle(surf, hl.colour, (round(x), round(y)), r, max(2, int(g.u * 0.14)))
        peg_d = max(6, int(g.peg_r * 2))
        sym_d = max(5, int(peg_d * 0.48))
        show_symbols = peg_d >= 16  # below that a symbol is a blur: colours and plates tell
        overrides = overrides or {}
        lifts = lifts or {}
        drawn = []
        pegs_list = list(pegs)
        for pd in pegs_list:
            key = (pd.seat, pd.peg)
            pos = overrides.get(key) or g.point(pd.hole)
            drawn.append((key in overrides, pos, pd))
        drawn.sort(key=lambda d: d[0])  # moving pegs on top
        for _moving, (x, y), pd in drawn:
            key = (pd.seat, pd.peg)
            lift = lifts.get(key, 0.0)
            scale = 1.0 + 0.6 * lift
            d = int(peg_d * scale)
            cx, cy = round(x), round(y - lift * g.u * 1.5)
            if key == selected or key in moving:
                ring_col = theme.FOCUS if key == selected else theme.ACCENT
                rr = int(g.peg_r * (1.35 + (0.2 * pulse if key in moving else 0)))
                pygame.draw.circle(surf, ring_col, (cx, cy), rr, max(2, int(g.u * 0.12)))
            colour_index = look.colours[pd.seat] if pd.seat < len(look.colours) else pd.seat
            draw_peg(surf, a, colour_index, (cx, cy), d, look.high_contrast)
            sym = look.symbols[pd.seat] if pd.seat < len(look.symbols) else None
            if sym and show_symbols and d >= 22:
                # the team symbol beside the colour's mark, small, at the peg's lower right
                sd = max(6, int(sym_d * scale * 0.6))
                s_img = a.scaled(f"sym_{sym}", (sd, sd))
                surf.blit(s_img, (cx + d // 2 - sd, cy + d // 2 - sd))
        tagged = [hl for hl in highlights if hl.tag]
        imgs = [a.text(hl.tag, tag_px, theme.TEXT) for hl in tagged]
        keep_clear = [*avoid, *((g.point(hl.hole), g.hole_r * 1.9) for hl in highlights)]
        if selected is not None:
            sel_at = overrides.get(selected) or next(
                (g.point(pd.hole) for pd in pegs_list if (pd.seat, pd.peg) == selected), None)
            if sel_at is not None:
                keep_clear.append((sel_at, g.peg_r * 1.5))
        boxes = place_tags([g.point(hl.hole) for hl in tagged],
                           [(i.get_width() + 6, i.get_height() + 2) for i in imgs],
                           surf.get_rect(), keep_clear, g.center, g.u)
        self.tag_rects = boxes
        for hl, img, box in zip(tagged, imgs, boxes, strict=True):
            x, y = g.point(hl.hole)
            if math.hypot(box.centerx - x, box.centery - y) > g.u * 1.3:  # a leader line
                pygame.draw.line(surf, hl.colour, (round(x), round(y)), box.center, 1)
            pygame.draw.rect(surf, (0, 0, 0), box, border_radius=4)
            pygame.draw.rect(surf, hl.colour, box, 1, border_radius=4)
            surf.blit(img, img.get_rect(center=box.center))


    def draw_trail(self, surf: pygame.Surface, g: BoardGeometry,
                   trail: Sequence[Sequence[Hole]]) -> None:
        """The last move's paths: a line through each path's holes, a ring where it began and a
        dot where it ended (under the pegs)."""
        w = max(2, int(g.u * 0.22))
        for path in trail:
            pts = [(round(x), round(y)) for x, y in (g.point(h) for h in path)]
            if not pts:
                continue
            if len(pts) > 1:
                pygame.draw.lines(surf, TRAIL, False, pts, w)
            pygame.draw.circle(surf, TRAIL, pts[0], max(3, int(g.hole_r * 1.5)), w)
            pygame.draw.circle(surf, TRAIL, pts[-1], max(3, int(g.hole_r * 1.1)))


def place_tags(points: Sequence[Point], sizes: Sequence[tuple[int, int]], bounds: pygame.Rect,
               avoid: Sequence[tuple[Point, float]], centre: Point, u: float
               ) -> list[pygame.Rect]:
    """Boxes for the tags of the holes at ``points`` (box ``sizes``), one each, in order: the
    first place that overlaps no box placed before, no ``avoid`` circle (the holes themselves,
    the focus ring) and stays inside ``bounds``, tried towards the board's ``centre`` first,
    then outwards, up and down, each a spacing ``u`` further out than the last; when nothing
    is free the nearest place inside ``bounds`` that overlaps no other box is taken."""
    placed: list[pygame.Rect] = []
    inner = bounds.inflate(-4, -4)

    def clear(r: pygame.Rect) -> bool:
        if not inner.contains(r) or r.collidelist(placed) >= 0:
            return False
        for (ax, ay), rad in avoid:
            nx = min(max(ax, r.left), r.right)
            ny = min(max(ay, r.top), r.bottom)
            if (nx - ax) ** 2 + (ny - ay) ** 2 < rad * rad:
                return False
        return True

    for (x, y), (w, h) in zip(points, sizes, strict=True):
        dx, dy = x - centre[0], y - centre[1]
        d = math.hypot(dx, dy) or 1.0
        out = (dx / d, dy / d)
        dirs = [(-out[0], -out[1]), out, (0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)]
        step = max(u, h * 0.9)
        best: pygame.Rect | None = None
        fallback: pygame.Rect | None = None
        for k in range(1, 9):
            for vx, vy in dirs:
                r = pygame.Rect(0, 0, w, h)
                r.center = (round(x + vx * step * (0.55 + 0.5 * k)),
                            round(y + vy * step * (0.55 + 0.5 * k)))
                if clear(r):
                    best = r
                    break
                if fallback is None and inner.contains(r) and r.collidelist(placed) < 0:
                    fallback = r
            if best is not None:
                break
        if best is None:
            best = fallback or pygame.Rect(0, 0, w, h).clamp(inner)
        placed.append(best)
    return placed


#: The colour of the last move's trail (light, to read on every seat's band and the felt).
TRAIL = (250, 240, 190)


def home_pegs_layout(seats: int) -> list[PegDraw]:
    """Every peg in its start (the position before anything moved)."""
    return [PegDraw(seat, i, start(seat, i)) for seat in range(seats) for i in range(PEGS)]


def hole_of(colour: int, peg: int, loc: Any) -> Hole:
    """A view/event location (``"s"``, ring int, ``"h3"``) of peg ``peg`` of ``colour``."""
    if loc == "s":
        return start(colour, peg)
    if isinstance(loc, str) and loc.startswith("h"):
        return home(colour, int(loc[1:]))
    return ring(int(loc))
