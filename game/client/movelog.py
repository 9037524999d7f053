"""The move log beside the board: every play and what it caused, in words, newest last.

:class:`MoveLog` is the model (pygame-free): entries of a play message (who played, its lines
from :mod:`game.client.describe`, the events for a replay, the holes its pegs passed through
for the board's trail), and a scroll position counted in lines from the bottom (0: the newest
lines are in view; scrolling up shows older ones, and a new play does not pull the reader back
down while they read). :func:`draw_log` draws it into a rectangle, wrapped.

Keys (the table scenes bind them): the wheel over the log and PgUp / PgDn scroll, Home / End
jump to the oldest / newest; L replays the last turn locally.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pygame

    from game.client.assets import Assets

#: Entries kept (older ones go; the log is for reading back a few rounds).
MAX_ENTRIES = 200


@dataclass
class LogEntry:
    """One play message in words."""

    seat: int | None  # who played (None: the opening deal, a note of the table)
    lines: list[str]
    events: list[dict[str, Any]] = field(default_factory=list)
    state_no: int = 0
    #: The board holes the play's pegs went through (the track's trail), in order.
    trail: list[Any] = field(default_factory=list)
    #: The position before the play (a replay pins the pegs there first).
    before: dict[str, Any] | None = None


class MoveLog:
    """The entries and the scroll position (lines up from the newest)."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.entries: list[LogEntry] = []
        self.max_entries = max_entries
        self.scroll = 0  # lines scrolled up from the bottom
        self.page = 5  # lines a page moves (set from the drawn height)
        self._total_lines = 0  # wrapped lines at the last draw (the scroll's upper bound)

    def add(self, entry: LogEntry) -> None:
        if not entry.lines:
            return
        self.entries.append(entry)
        if len(self.entries) > self.max_entries:
            del self.entries[:len(self.entries) - self.max_entries]
        if self.scroll:
            # keep the lines being read where they are: they moved up by the new ones
            self.scroll += len(entry.lines)

    def clear(self) -> None:
        self.entries.clear()
        self.scroll = 0

    @property
    def last(self) -> LogEntry | None:
        return self.entries[-1] if self.entries else None

    def lines(self) -> list[tuple[int | None, str, bool]]:
        """Every line, oldest first: (seat, text, is the newest entry's)."""
        out: list[tuple[int | None, str, bool]] = []
        n = len(self.entries)
        for k, e in enumerate(self.entries):
            for line in e.lines:
                out.append((e.seat, line, k == n - 1))
        return out

    def max_scroll(self) -> int:
        total = self._total_lines or len(self.lines())
        return max(0, total - self.page)

    def scroll_by(self, n: int) -> bool:
        """Scroll ``n`` lines up (negative: down); True when the view moved."""
        before = self.scroll
        self.scroll = max(0, min(self.max_scroll(), self.scroll + n))
        return self.scroll != before

    def page_up(self) -> bool:
        return self.scroll_by(max(1, self.page - 1))

    def page_down(self) -> bool:
        return self.scroll_by(-max(1, self.page - 1))

    def to_newest(self) -> None:
        self.scroll = 0

    def to_oldest(self) -> None:
        self.scroll = self.max_scroll()

    def since(self, seat: int | None) -> list[LogEntry]:
        """The entries after ``seat``'s last play (the turn round a person missed), or the
        last entry when ``seat`` played last or never played."""
        out: list[LogEntry] = []
        for e in reversed(self.entries):
            if e.seat == seat and seat is not None:
                break
            if e.events:
                out.append(e)
        out.reverse()
        if not out and self.entries:
            return [self.entries[-1]]
        return out


def draw_log(surf: pygame.Surface, assets: Assets, log: MoveLog, rect: pygame.Rect,
             size: int, colour_of: Any, title: str = "Moves so far") -> None:
    """The log in ``rect``: a title line, then the wrapped lines ending with the newest (the
    newest entry brighter, each line marked with its seat's colour); ``size`` the text size;
    ``colour_of(seat)`` a seat's colour."""
    import pygame

    from game.client import theme

    pygame.draw.rect(surf, (8, 12, 28), rect, border_radius=8)
    pygame.draw.rect(surf, theme.BG2, rect, 2, border_radius=8)
    lh = int(size * 1.22)
    inner = rect.inflate(-16, -8)
    head = assets.text(title if not log.scroll else f"{title} (scrolled: End for the newest)",
                       max(11, size - 2), theme.TEXT_DIM)
    surf.blit(head, (inner.x, inner.y))
    body_top = inner.y + head.get_height() + 2
    rows = max(1, (inner.bottom - body_top) // lh)
    wrapped: list[tuple[int | None, str, bool, bool]] = []  # seat, text, newest, first
    for seat, text, newest in log.lines():
        for k, piece in enumerate(assets.wrap(text, size, inner.w - 14)):
            wrapped.append((seat, piece, newest, k == 0))
    log._total_lines = len(wrapped)
    log.page = rows
    log.scroll = max(0, min(log.scroll, max(0, len(wrapped) - rows)))
    end = len(wrapped) - log.scroll
    shown = wrapped[max(0, end - rows):end]
    y = body_top
    if not wrapped:
        surf.blit(assets.text("Nothing played yet.", size, theme.TEXT_DIM), (inner.x + 14, y))
    for seat, piece, newest, first in shown:
        if first and seat is not None:
            pygame.draw.circle(surf, colour_of(seat), (inner.x + 4, y + lh // 2),
                               max(3, size // 4))
        t = assets.text(piece, size, theme.TEXT if newest else theme.TEXT_DIM)
        surf.blit(t, (inner.x + 14, y))
        y += lh
    if log.scroll and shown:
        more = assets.text("v", size, theme.ACCENT2)
        surf.blit(more, more.get_rect(bottomright=(inner.right, inner.bottom)))
