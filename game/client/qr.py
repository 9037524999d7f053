"""The phones' QR code on screen: :func:`net.web.qr_matrix` drawn as a pygame surface.

Black modules on white with the standard quiet zone of four modules, each module a whole
number of pixels (a scaled, smoothed code would blur the module edges a phone's camera reads).
:func:`qr_surface` keeps the last link's code (the lobby draws it in every frame it draws).
"""

from __future__ import annotations

import pygame

#: Modules of white around the code (the QR standard's quiet zone).
QUIET = 4
DARK = (0, 0, 0)
LIGHT = (255, 255, 255)

_matrices: dict[str, list[list[bool]]] = {}
_surfaces: dict[tuple[str, int], pygame.Surface] = {}


def short_url(url: str) -> str:
    """``http://HOST:PORT/#KEY/CODE`` -> ``http://HOST:PORT``: what a person types (the page
    then joins the only table there; the QR code carries the whole link, key included)."""
    return url.split("#", 1)[0].rstrip("/")


def module_size(modules: int, room: int) -> int:
    """The pixels per module so the code and its quiet zone fit ``room`` pixels (at least 1)."""
    return max(1, room // (modules + 2 * QUIET))


def draw_matrix(matrix: list[list[bool]], module: int) -> pygame.Surface:
    """``matrix`` (rows of dark modules) as a surface, ``module`` pixels a module, with the
    quiet zone."""
    n = len(matrix)
    side = (n + 2 * QUIET) * module
    surf = pygame.Surface((side, side))
    surf.fill(LIGHT)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surf.fill(DARK, ((x + QUIET) * module, (y + QUIET) * module, module, module))
    return surf


def qr_surface(url: str, room: int) -> pygame.Surface:
    """The QR code of ``url`` at most ``room`` pixels across (quiet zone included; a whole
    number of pixels a module). The last link's code is kept: the lobby asks every frame."""
    matrix = _matrices.get(url)
    if matrix is None:
        from net.web import qr_matrix

        matrix = qr_matrix(url)
        _matrices.clear()
        _matrices[url] = matrix
    key = (url, module_size(len(matrix), room))
    got = _surfaces.get(key)
    if got is None:
        got = draw_matrix(matrix, key[1])
        if len(_surfaces) > 4:
            _surfaces.clear()
        _surfaces[key] = got
    return got


def read_matrix(surf: pygame.Surface, rect: pygame.Rect, modules: int) -> list[list[bool]]:
    """The modules of a QR code drawn in ``rect`` of ``surf`` (quiet zone included in
    ``rect``), read back by sampling each module's centre (tests, screenshots)."""
    step = rect.w / (modules + 2 * QUIET)
    out: list[list[bool]] = []
    for y in range(modules):
        row = []
        for x in range(modules):
            px = surf.get_at((int(rect.x + (x + QUIET + 0.5) * step),
                              int(rect.y + (y + QUIET + 0.5) * step)))
            row.append(px.r + px.g + px.b < 3 * 128)
        out.append(row)
    return out
