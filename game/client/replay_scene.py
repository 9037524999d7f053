"""The replay viewer: the real table scene of a :class:`~game.client.replay.ReplaySession`, with
this overlay on top (the controls, the Nasty CPU's review and its summary).

The table scene below is the very scene of a live game (the stage keeps it reading its session
under the overlay, so it animates every ``play`` and jumps at every ``reset``); it never gets
an input event (the overlay is the top scene), and the session refuses every intent anyway.

Keys (buttons for each, mouse on the slider):

* Space play / pause; Right / Left one play forward / back; Home / End the start / the end;
  PgDn / PgUp the next / previous deal (Trash: hand; a rule set that never deals again: a
  round of turns); the slider (drag or click) any play.
* Up / Down or + / - faster / slower (the table speeds, then faster ones).
* Tab the next seat's hand (any seat of a finished game; in a game in progress, only the
  record's people's seats); R shows or hides the review panel; Esc goes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.replay import ReplayClock, ReplaySession, ReviewRunner
from game.client.scene import Scene
from game.client.table_base import MESSAGE_SECONDS, seat_label
from game.client.widgets import Button, Slider
from game.rules.record import Annotation

if TYPE_CHECKING:
    from game.client.stage import Stage
    from game.client.table_base import TableScene

def pct(p: float | None) -> str:
    return "-" if p is None else f"{round(p * 100)}%"


def note_lines(a: Annotation, name: str, played: str, cpu: str | None
               ) -> list[tuple[str, tuple[int, int, int]]]:
    """The review of one play in words (``played``, ``cpu``: the plays in words), line by
    line with a colour."""
    out: list[tuple[str, tuple[int, int, int]]] = []
    if a.n == 0:
        return [(a.reason, theme.TEXT)]
    out.append((f"Play {a.n}: {name} played {played}", theme.TEXT))
    if a.cpu is not None:
        out.append((f"The Nasty CPU would play {cpu or a.cpu}", theme.ACCENT))
    if a.turns_cpu is not None and a.turns_after is not None:
        out.append((f"Turns to finish: {a.turns_cpu:.1f} with the CPU's choice, "
                    f"{a.turns_after:.1f} with the play made", theme.TEXT_DIM))
    elif a.before is not None and a.after is not None:
        d = a.after - a.before
        col = theme.GOOD if d >= -0.005 else theme.BAD
        out.append((f"Chance to win: {pct(a.before)} with the CPU's choice, "
                    f"{pct(a.after)} with the play made ({d * 100:+.0f})", col))
    out.append((a.reason[:1].upper() + a.reason[1:], theme.ACCENT2))
    return out


class ReplayOverlay(Scene):
    """The viewer's controls and review over the table scene ``table`` of ``session``."""

    overlay = True
    name = "replay"
    session: ReplaySession

    def __init__(self, stage: Stage, session: ReplaySession, table: TableScene,
                 review: bool = True) -> None:
        super().__init__(stage)
        self.session = session  # the stage closes it with the scene
        self.replay = replay = session  # the viewer's own controls (beyond Session)
        self.table = table
        clock = ReplayClock()
        clock.factor = replay.speed.factor
        clock.set_speed(replay.speed.table)
        table.clock = clock  # the table speeds stop at blitz; the replay goes faster
        for b in (table.pause_button, table.admin_button, table.done_button):
            b.visible = False
        self.show_review = True
        self.deals = replay.deal_starts()
        s = session
        deal = "Hand" if replay.game == "layout" else "Deal"
        self.buttons = [
            Button("Start", lambda: s.jump(0)),
            Button(f"< {deal}", self.prev_deal),
            Button("< Play", s.back),
            Button("Play", self.toggle),
            Button("Play >", s.forward),
            Button(f"{deal} >", self.next_deal),
            Button("End", lambda: s.jump(s.plays)),
            Button("Slower", lambda: self.speed(-1)),
            Button("Faster", lambda: self.speed(1)),
            Button("Seat", self.next_seat),
            Button("Review", self.toggle_review),
            Button("Close", self.back),
        ]
        self.play_button = self.buttons[3]
        self.slider = Slider("Play", 0, max(1, s.plays), 0, 1, self._slid,
                             fmt=lambda v: f"{round(v)}/{s.plays}")
        for w in (*self.buttons, self.slider):
            self.form.add(w)
        self.form.click_focuses_buttons = False
        self.form.focus(None)
        self.bar = pygame.Rect(0, 0, 0, 0)
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.review = replay.start_review(stage_runner(stage)) if review else None
        self._message: str | None = None
        self._message_at = 0.0
        self.t = 0.0

    @property
    def message(self) -> str | None:
        """A word on the last control (speed, seat) for :data:`MESSAGE_SECONDS`."""
        return self._message if self.t - self._message_at < MESSAGE_SECONDS else None

    @message.setter
    def message(self, text: str | None) -> None:
        self._message, self._message_at = text, self.t

    # ------------------------------------------------------------------ intents
    def toggle(self) -> None:
        self.replay.play_on()

    def speed(self, d: int) -> None:
        sp = self.replay.faster(d)
        clock = self.table.clock
        if isinstance(clock, ReplayClock):
            clock.factor = sp.factor
        self.message = f"Speed: {sp.label}"

    def next_deal(self) -> None:
        n = self.replay.n
        self.replay.jump(next((d for d in self.deals if d > n), self.replay.plays))

    def prev_deal(self) -> None:
        n = self.replay.n
        self.replay.jump(max((d for d in self.deals if d < n), default=0))

    def next_seat(self, d: int = 1) -> None:
        before = self.replay.seat
        seat = self.replay.next_seat(d)
        if seat == before:
            self.message = "A game in progress shows only what its people saw"
        elif seat is not None:
            self.message = f"Showing {seat_label(self.replay.seats[seat])}'s hand"
            self.table.face_seat(seat)
            self.layout(*self.stage.size)  # the table lays itself out for that seat

    def toggle_review(self) -> None:
        self.show_review = not self.show_review
        self.layout(*self.stage.size)

    def _slid(self, v: float) -> None:
        if round(v) != self.replay.n:
            self.replay.jump(round(v))

    def back(self) -> None:
        """Esc: close the replay and leave it (the overlay and its table)."""
        self.replay.close()
        self.stage.pop()
        if self.stage.top is self.table:
            self.stage.pop()

    def leave(self) -> None:
        super().leave()
        if self.stage.top is self.table:  # the window the table had: all of it again
            self.table.relayout(self.stage.size)

    # ------------------------------------------------------------------ events
    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.KEYDOWN and self.key(ev):
            return
        if ev.type != pygame.KEYDOWN:
            self.form.handle(ev)

    def key(self, ev: pygame.event.Event) -> bool:
        s = self.session
        k = ev.key
        acts: dict[int, Any] = {
            pygame.K_SPACE: self.toggle, pygame.K_RIGHT: s.forward, pygame.K_LEFT: s.back,
            pygame.K_HOME: lambda: s.jump(0), pygame.K_END: lambda: s.jump(s.plays),
            pygame.K_PAGEDOWN: self.next_deal, pygame.K_PAGEUP: self.prev_deal,
            pygame.K_UP: lambda: self.speed(1), pygame.K_DOWN: lambda: self.speed(-1),
            pygame.K_PLUS: lambda: self.speed(1), pygame.K_EQUALS: lambda: self.speed(1),
            pygame.K_KP_PLUS: lambda: self.speed(1), pygame.K_MINUS: lambda: self.speed(-1),
            pygame.K_KP_MINUS: lambda: self.speed(-1),
            pygame.K_TAB: lambda: self.next_seat(-1 if ev.mod & pygame.KMOD_SHIFT else 1),
            pygame.K_r: self.toggle_review, pygame.K_ESCAPE: self.back,
        }
        act = acts.get(k)
        if act is None:
            return False
        act()
        return True

    # ------------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        self.t += dt
        # (the table under the overlay keeps up by itself: the stage gives it background(dt))
        self.play_button.label = "Pause" if self.replay.playing else "Play"
        if self.slider.value != self.replay.n and not self.slider._drag:
            self.slider.value = self.replay.n
        for b in (self.table.pause_button, self.table.admin_button, self.table.done_button):
            b.visible = False

    # ------------------------------------------------------------------ layout
    def layout(self, w: int, h: int) -> None:
        """The bar along the bottom (the buttons, then the slider); the table is laid out in
        the window above it (and, for Trash with the review shown, left of the review)."""
        m = self.px(6)
        bh = max(22, self.px(34))
        bar_h = 2 * bh + 3 * m
        self.bar = pygame.Rect(0, h - bar_h, w, bar_h)
        n = len(self.buttons)
        gap = self.px(4)
        bw = (w - 2 * m - gap * (n - 1)) // n
        x = m
        for b in self.buttons:
            b.rect = pygame.Rect(x, self.bar.y + m, bw, bh)
            x += bw + gap
        self.slider.rect = pygame.Rect(m, self.bar.y + bh + 2 * m, w - 2 * m, bh)
        own = self.table.side_panel()
        side = self.show_review and own is None
        pw = max(self.px(330), int(w * 0.3)) if side else 0
        self.table.relayout((w - pw, h - bar_h))
        self.size, self.u = (w, h), theme.unit((w, h))
        own = self.table.side_panel()  # laid out again for the new size
        if own is not None and own.w > 0:
            self.panel = own.copy()  # the track's moves list: empty at a replay
        else:
            self.panel = pygame.Rect(w - pw, m + bh, pw - m, h - bar_h - 2 * m - bh)

    def relayout(self, size: tuple[int, int]) -> None:
        super().relayout(size)
        self.u = theme.unit(size)

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        shade = pygame.Surface(self.bar.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surf.blit(shade, self.bar)
        self.form.draw(surf, a)
        s = self.session
        info = f"{s.speed.label} - {'playing' if s.playing else 'paused'}"
        if self.message:
            info = self.message + " - " + info
        t = a.fit_text(info, max(12, self.px(18)), theme.TEXT_DIM, int(self.slider.rect.w * 0.3))
        surf.blit(t, t.get_rect(midleft=(self.slider.rect.x + int(self.slider.rect.w * 0.12),
                                         self.slider.rect.centery)))
        if self.show_review:
            self.draw_review(surf)

    def _name(self, seat: int) -> str:
        seats = self.replay.seats
        return seat_label(seats[seat]) if 0 <= seat < len(seats) else f"seat {seat}"

    def draw_review(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        p = self.panel
        pygame.draw.rect(surf, theme.BG, p, border_radius=10)
        surf.blit(a.nine_slice("panel", p.size, 10), p)
        size = max(12, self.px(19))
        lh = int(size * 1.25)
        x, y, wmax = p.x + self.px(10), p.y + self.px(8), p.w - self.px(20)
        bottom = p.bottom - self.px(6)

        def line(text: str, colour: tuple[int, int, int], big: bool = False) -> bool:
            nonlocal y
            px = int(size * 1.15) if big else size
            for part in a.wrap(text, px, wmax) or [""]:
                if y + lh > bottom:
                    return False
                surf.blit(a.text(part, px, colour), (x, y))
                y += lh
            return True

        job = self.review
        if job is None:
            line("No review for this replay", theme.TEXT_DIM)
            return
        got = len(job.notes)
        if job.stored:
            head = "The Nasty CPU's review (kept in the record)"
        elif job.done:
            head = "The Nasty CPU's review" + (" (kept in the record)" if job.saved else "")
        else:
            head = f"The Nasty CPU's review: {got} of {job.total} plays..."
        line(head, theme.ACCENT, big=True)
        if job.error:
            line(job.error, theme.BAD)
        rec = self.replay.record
        n = self.replay.n
        whole = job.note(0)
        if whole is not None:
            line(whole.reason, theme.TEXT)
        note = job.note(n) if n > 0 else None
        if n == 0:
            line("The opening deal", theme.TEXT_DIM)
        elif note is None:
            p_ = rec.plays[n - 1]
            why = "a CPU's play" if p_.by != "person" else (
                "not reviewed yet" if not job.done else "not reviewed")
            line(f"Play {n} ({why}): {self._name(p_.seat)} played {self.replay.words(n)}",
                 theme.TEXT_DIM)
            note = job.last_note(n)
            if note is not None:
                line(f"The last reviewed play, play {note.n}:", theme.TEXT_DIM)
        if note is not None:
            p_ = rec.plays[note.n - 1]
            cpu = self.replay.words(note.n, note.cpu) if note.cpu else None
            for text, col in note_lines(note, self._name(p_.seat), self.replay.words(note.n),
                                        cpu):
                if not line(text, col):
                    return
        y += self.px(6)
        if not line("Plays that moved the estimate most:", theme.ACCENT):
            return
        shown = False
        for side, notes in job.summary().items():
            notes = [q for q in notes if abs(swing(q)) >= 0.005]
            if not notes:
                continue
            members = job.sides[side] if side < len(job.sides) else []
            who = ", ".join(self._name(m) for m in members)
            parts = [f"{q.n} ({q.turns_after - q.turns_cpu:+.1f} turns)"
                     if q.turns_cpu is not None and q.turns_after is not None
                     else f"{q.n} ({q.change * 100:+.0f})" for q in notes]
            shown = True
            if not line(f"{who}: plays " + ", ".join(parts), theme.TEXT):
                return
        if not shown:
            line("none yet" if not job.done else "none: every play kept the estimate",
                 theme.TEXT_DIM)


def swing(a: Annotation) -> float:
    """How far a play moved the estimate (turns for solo)."""
    if a.turns_cpu is not None and a.turns_after is not None:
        return a.turns_cpu - a.turns_after
    return a.change


def stage_runner(stage: Stage) -> ReviewRunner:
    """The review's worker: the stage's one hint worker (in the app, its CPU worker's
    process; in a thread where the hints run in threads, as in tests)."""
    return ReviewRunner(submit=stage.hints().submit)
