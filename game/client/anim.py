"""The animation timeline: a clock at the table speed, tweens and queued event animations.

The model always jumps to the newest view; the timeline plays the events on top of it
(architecture principle 8). Each event becomes an :class:`Anim` in a queue. While an animation
waits in the queue its pegs are *pinned* where they started, so the board never shows a peg's
final place before its move has been played; the active animation moves them; a finished one
lets go, and the peg is drawn at its place in the view.

Speed lives in the clock (Pygame Zero's clock): every animation is queued in *normal-speed*
seconds (``game.table.event_duration(event, "normal")``, the table's one pacing table), and
:class:`TableClock` turns frame time into normal-speed time at the table speed: ``dt / scale``
with the scale of ``game.table.SPEEDS[name]`` (blitz 0.3: a second of frame time plays 3.33
normal seconds). So a speed change rescales everything still queued or playing, on every
screen, exactly as the host rescales its busy time. The clock stops while paused. On top of
that the :class:`Timeline` catches up: with more than ``backlog`` animations queued it plays
them faster (up to ``max_rate``), so the screen never lags behind the table.

Nothing here reads the wall clock: time only advances through ``update(dt)``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from game.table import SPEEDS

Point = tuple[float, float]
Key = Hashable  # a peg's key, e.g. (seat, peg)

#: What the first update of a :class:`Timeline` after an idle spell plays at most (table
#: seconds): one 60 fps frame at the fastest table speed, so no frame of a running loop is cut,
#: while the app's longer frame after an idle sleep (up to 0.1 s) no longer skips the start of
#: the play it brings.
START_STEP = (1 / 60) / min(s.scale for s in SPEEDS.values()) * 1.001
STEP_TIME = 0.12  # default normal-speed seconds per hole (scenes pass the table's durations)
FLIGHT_TIME = 0.45  # default normal-speed seconds of a bump flight or a card flight


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def lerp2(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def ease_in_out(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


def ease_out(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) * (1 - t)


class TableClock:
    """Normal-speed time at the table speed: ``tick(dt)`` returns the normal-speed seconds
    that pass in ``dt`` frame seconds (0 while paused, ``dt / scale`` otherwise, ``scale`` as
    ``game.table.Speed.scale``: 1 at normal, 0.3 at blitz, 1.6 at relaxed)."""

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = 1.0
        self.speed_name: str | None = None
        self.set_speed(scale)
        self.paused = False
        self.time = 0.0

    def set_speed(self, speed: float | str) -> None:
        """Run at table speed ``speed``: a name of ``game.table.SPEEDS`` or a scale."""
        name: str | None = None
        if isinstance(speed, str):
            if speed not in SPEEDS:
                raise ValueError(f"unknown table speed {speed!r} (one of {', '.join(SPEEDS)})")
            name, speed = speed, SPEEDS[speed].scale
        if not speed > 0:
            raise ValueError(f"a table speed's scale must be positive, not {speed!r}")
        self.scale = float(speed)
        self.speed_name = name

    def tick(self, dt: float) -> float:
        if self.paused or dt <= 0:
            return 0.0
        step = dt / self.scale
        self.time += step
        return step


class Tween:
    """A value going from ``a`` to ``b`` over ``duration`` seconds with an easing."""

    def __init__(self, a: float, b: float, duration: float,
                 ease: Callable[[float], float] = ease_in_out) -> None:
        self.a, self.b = a, b
        self.duration = max(1e-6, duration)
        self.ease = ease
        self.elapsed = 0.0

    def update(self, dt: float) -> float:
        """Advance; returns the time left over after the end (0 while running)."""
        self.elapsed += dt
        over = self.elapsed - self.duration
        if over > 0:
            self.elapsed = self.duration
            return over
        return 0.0

    @property
    def done(self) -> bool:
        return self.elapsed >= self.duration

    @property
    def value(self) -> float:
        return lerp(self.a, self.b, self.ease(self.elapsed / self.duration))


@dataclass
class CardSprite:
    """A card drawn in flight: sprite name, centre, width in pixels, rotation in degrees."""

    sprite: str
    pos: Point
    width: float
    angle: float = 0.0


class Anim:
    """One event's animation. Subclasses fill ``duration`` and the position methods."""

    duration = 0.0

    def __init__(self) -> None:
        self.elapsed = 0.0
        self._cues: list[tuple[float, str]] = []
        self._cue_i = 0
        #: Called by the timeline once the animation is over (to update what it shows).
        self.on_done: Callable[[], None] | None = None
        #: Called when the animation starts playing (it reached the head of the queue).
        self.on_start: Callable[[], None] | None = None
        self.started = False

    def begin(self) -> None:
        """Start (once): runs ``on_start``."""
        if not self.started:
            self.started = True
            if self.on_start is not None:
                self.on_start()

    def cue(self, at: float, sound: str) -> None:
        self._cues.append((at, sound))
        self._cues.sort(key=lambda c: c[0])  # stable: equal times keep their order

    def update(self, dt: float) -> tuple[float, list[str]]:
        """Advance by ``dt``; returns the time left over and the sounds that came due."""
        self.elapsed += dt
        over = max(0.0, self.elapsed - self.duration)
        self.elapsed = min(self.elapsed, self.duration)
        due = []
        while self._cue_i < len(self._cues) and self._cues[self._cue_i][0] <= self.elapsed:
            due.append(self._cues[self._cue_i][1])
            self._cue_i += 1
        return over, due

    @property
    def done(self) -> bool:
        return self.elapsed >= self.duration

    @property
    def progress(self) -> float:
        return 1.0 if self.duration <= 0 else self.elapsed / self.duration

    def pegs(self) -> dict[Key, tuple[Point, float]]:
        """Peg positions (and lift 0..1) at the current time."""
        return {}

    def pinned(self) -> dict[Key, Point]:
        """Where this animation's pegs stay while it waits in the queue."""
        return {}

    def cards(self) -> list[CardSprite]:
        return []


class Wait(Anim):
    def __init__(self, duration: float) -> None:
        super().__init__()
        self.duration = duration


def sounded_wait(duration: float, sound: str) -> Wait:
    """A pause of ``duration`` that starts with ``sound``."""
    w = Wait(duration)
    w.cue(0.0, sound)
    return w


class PegWalk(Anim):
    """A peg stepping hole by hole through ``points`` (the first is where it starts), with a
    small hop per hole. A ``step`` sound per hole; ``end_sound`` when it arrives."""

    def __init__(self, key: Key, points: Sequence[Point], step_time: float = STEP_TIME,
                 end_sound: str | None = None, hop: float = 0.25) -> None:
        super().__init__()
        self.hop = hop
        if len(points) < 1:
            raise ValueError("a peg walk needs at least its starting point")
        self.key = key
        self.points = list(points)
        self.step_time = step_time
        self.duration = step_time * max(1, len(self.points) - 1)
        for i in range(1, len(self.points)):
            self.cue(i * step_time, "step")
        if end_sound:
            self.cue(self.duration, end_sound)

    def position(self) -> tuple[Point, float]:
        if len(self.points) == 1:
            return self.points[0], 0.0
        f = self.elapsed / self.step_time
        i = min(int(f), len(self.points) - 2)
        t = min(1.0, f - i)
        hop = math.sin(math.pi * t) * self.hop
        return lerp2(self.points[i], self.points[i + 1], ease_in_out(t)), hop

    def pegs(self) -> dict[Key, tuple[Point, float]]:
        return {self.key: self.position()}

    def pinned(self) -> dict[Key, Point]:
        return {self.key: self.points[0]}


class PegFlight(Anim):
    """A peg flying in an arc from ``a`` to ``b`` (bumped back to start, a jump, a swap)."""

    def __init__(self, key: Key, a: Point, b: Point, duration: float = FLIGHT_TIME,
                 sound: str | None = "bump") -> None:
        super().__init__()
        self.key = key
        self.a, self.b = a, b
        self.duration = duration
        if sound:
            self.cue(0.0, sound)

    def pegs(self) -> dict[Key, tuple[Point, float]]:
        t = ease_in_out(self.progress)
        return {self.key: (lerp2(self.a, self.b, t), math.sin(math.pi * t))}

    def pinned(self) -> dict[Key, Point]:
        return {self.key: self.a}


class CardFlight(Anim):
    """A card flying from ``a`` to ``b`` (hand to pile, deck to hand), turning ``spin``
    degrees and going from width ``w0`` to ``w1``."""

    def __init__(self, sprite: str, a: Point, b: Point, w0: float, w1: float | None = None,
                 duration: float = FLIGHT_TIME, spin: float = 0.0,
                 sound: str | None = "play") -> None:
        super().__init__()
        self.sprite = sprite
        self.a, self.b = a, b
        self.w0, self.w1 = w0, (w0 if w1 is None else w1)
        self.spin = spin
        self.duration = duration
        if sound:
            self.cue(duration * 0.85, sound)

    def cards(self) -> list[CardSprite]:
        t = ease_out(self.progress)
        return [CardSprite(self.sprite, lerp2(self.a, self.b, t), lerp(self.w0, self.w1, t),
                           self.spin * (1 - t))]


class Group(Anim):
    """Animations played together; done when the longest is."""

    def __init__(self, parts: Iterable[Anim]) -> None:
        super().__init__()
        self.parts = list(parts)
        self.duration = max((p.duration for p in self.parts), default=0.0)

    def update(self, dt: float) -> tuple[float, list[str]]:
        sounds: list[str] = []
        for p in self.parts:
            if not p.done:
                _, due = p.update(dt)
                sounds += due
        over, due = super().update(dt)
        return over, sounds + due

    def pegs(self) -> dict[Key, tuple[Point, float]]:
        out: dict[Key, tuple[Point, float]] = {}
        for p in self.parts:
            out.update(p.pegs())
        return out

    def pinned(self) -> dict[Key, Point]:
        out: dict[Key, Point] = {}
        for p in reversed(self.parts):
            out.update(p.pinned())
        return out

    def cards(self) -> list[CardSprite]:
        return [c for p in self.parts for c in p.cards()]


class Serial(Anim):
    """Animations played one after another as one entry of the timeline (a deal, card by
    card: the timeline's catch-up sees one animation, and its duration is the sum)."""

    def __init__(self, parts: Iterable[Anim]) -> None:
        super().__init__()
        self.parts = list(parts)
        self.duration = sum(p.duration for p in self.parts)
        self._i = 0

    def update(self, dt: float) -> tuple[float, list[str]]:
        sounds: list[str] = []
        self.elapsed = min(self.duration, self.elapsed + dt)
        left = dt
        while self._i < len(self.parts):
            p = self.parts[self._i]
            p.begin()
            extra, due = p.update(left)
            sounds += due
            if not p.done:
                return 0.0, sounds
            if p.on_done is not None:
                p.on_done()
            self._i += 1
            left = extra
        return left, sounds

    @property
    def done(self) -> bool:
        return self._i >= len(self.parts)

    def finish_parts(self) -> None:
        """Run the ``on_done`` of every part not played yet (the timeline was cut short)."""
        while self._i < len(self.parts):
            p = self.parts[self._i]
            p.begin()
            if p.on_done is not None:
                p.on_done()
            self._i += 1

    @property
    def current(self) -> Anim | None:
        return self.parts[self._i] if self._i < len(self.parts) else None

    def pegs(self) -> dict[Key, tuple[Point, float]]:
        cur = self.current
        return cur.pegs() if cur is not None else {}

    def pinned(self) -> dict[Key, Point]:
        out: dict[Key, Point] = {}
        for p in reversed(self.parts[self._i:]):
            out.update(p.pinned())
        return out

    def cards(self) -> list[CardSprite]:
        cur = self.current
        return cur.cards() if cur is not None and cur.started else []


class Timeline:
    """A queue of animations played one after another on table time, with catch-up."""

    #: The most table time the first update after an idle spell plays (None: no limit). The
    #: app's run loop sets it (to :data:`START_STEP`) while it runs: it sleeps while nothing
    #: moves, so the frame that brings a new play may cover up to 0.1 s from before the play
    #: came; the play still starts at its beginning. (Tests driving frames by hand keep the
    #: plain timing.)
    start_step: float | None = None

    def __init__(self, backlog: int = 3, max_rate: float = 8.0,
                 start_step: float | None = None) -> None:
        self.queue: deque[Anim] = deque()
        self.backlog = backlog
        self.max_rate = max_rate
        self.played = 0
        if start_step is not None:
            self.start_step = start_step
        self._was_idle = True

    def push(self, anim: Anim) -> None:
        self.queue.append(anim)

    def extend(self, anims: Iterable[Anim]) -> None:
        self.queue.extend(anims)

    @property
    def idle(self) -> bool:
        return not self.queue

    @property
    def rate(self) -> float:
        """How much faster than table time the queue plays now (1 unless behind)."""
        extra = len(self.queue) - self.backlog
        if extra <= 0:
            return 1.0
        return min(self.max_rate, 1.0 + 0.75 * extra)

    def update(self, table_dt: float) -> list[str]:
        """Play ``table_dt`` table seconds; returns the sounds that came due (in order)."""
        sounds: list[str] = []
        dt = table_dt * self.rate
        if self.start_step is not None and self._was_idle and self.queue:
            dt = min(dt, self.start_step)
        guard = 0
        while self.queue and dt > 0 and guard < 10000:
            guard += 1
            head = self.queue[0]
            head.begin()
            over, due = head.update(dt)
            sounds += due
            if head.done:
                self.queue.popleft()
                self.played += 1
                if head.on_done is not None:
                    head.on_done()
                dt = over
            else:
                dt = 0.0
        # zero-length animations at the head finish at once
        while self.queue and self.queue[0].duration <= 0 and dt == 0 and guard < 10000:
            guard += 1
            self.queue[0].begin()
            _, due = self.queue[0].update(0.0)
            sounds += due
            head = self.queue.popleft()
            self.played += 1
            if head.on_done is not None:
                head.on_done()
        self._was_idle = not self.queue
        return sounds

    def finish(self) -> None:
        """Drop everything queued (the board jumps to the view); ``on_done`` still runs."""
        while self.queue:
            head = self.queue.popleft()
            self.played += 1
            head.begin()
            if isinstance(head, Serial):
                head.finish_parts()
            if head.on_done is not None:
                head.on_done()

    def pegs(self) -> tuple[dict[Key, Point], dict[Key, float]]:
        """Where pegs are drawn now instead of their view hole, and how high they are lifted:
        the active animation's pegs, then every queued animation's pinned pegs (the first
        one to touch a peg decides)."""
        where: dict[Key, Point] = {}
        lift: dict[Key, float] = {}
        for i, a in enumerate(self.queue):
            if i == 0:
                for k, (p, h) in a.pegs().items():
                    where[k] = p
                    if h:
                        lift[k] = h
                # pegs of the head that have not started moving (a group) stay pinned too
                for k, p in a.pinned().items():
                    where.setdefault(k, p)
            else:
                for k, p in a.pinned().items():
                    where.setdefault(k, p)
        return where, lift

    def cards(self) -> list[CardSprite]:
        return self.queue[0].cards() if self.queue else []
