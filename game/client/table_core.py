"""The table scenes' common core (:class:`TableCore`): reading the session every frame
into what the screen *shows*, the animation timeline and its clock, messages and the turn
clock's and the table's notices, the shown state's questions (whose turn, paused, caught
up), the table's buttons, seat plates and the hint's reason box.

The model jumps to the newest view; the timeline plays the events on top of it at the table
speed and stops while the table is paused. What the screen *shows* follows the animation
(:meth:`TableCore.public`, :meth:`TableCore.view`): while a play message's animation waits
or plays, whose turn it is (and the state number, the turn count, the outcome) stay those of
the last message whose animation has finished, the board and hand are those of the message
now playing (the hot-seat cover comes at once: a hand is covered as soon as its turn is
over), and no play is taken (:meth:`TableCore.my_turn` is False until the screen has
caught up), so an early Enter never plays from a hand the person has not seen.

The layers on top: :mod:`game.client.table_end` (the end of the game),
:mod:`game.client.table_seats` (pause, the hot-seat cover, watchers) and
:mod:`game.client.table_base` (the per-frame loop, the messages, hints and input: the
:class:`~game.client.table_base.TableScene` the scenes subclass). The panels over the table
(ADMIN, Ask for a seat / Sit here) are :mod:`game.client.table_overlays`.
"""

from __future__ import annotations

import contextlib
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.anim import TableClock, Timeline
from game.client.board import draw_peg
from game.client.movelog import LogEntry, MoveLog
from game.client.scene import Scene
from game.client.table_overlays import AdminOverlay
from game.client.widgets import Button, Widget

if TYPE_CHECKING:
    from game.client.session import Session
    from game.client.stage import Stage

#: Table seconds a message (a refusal, a prompt) stays on screen; it also goes at the next play.
#: Hints stay while their position lasts; messages on the results screen stay.
MESSAGE_SECONDS = 4.0
#: Seconds after the hot-seat cover appears before it takes a tap-in (a double-click or a
#: double Enter that finished the turn before cannot uncover the next hand).
COVER_ARM_SECONDS = 0.4
#: Frames a second of the movable pegs' pulse while nothing else moves (the app's idle loop).
PULSE_FPS = 8.0
#: The keys that tap in on the cover.
COVER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
#: How much faster than the table's pace a hurried screen plays its queued animations.
HURRY_RATE = 8.0
#: The public fields that follow the animation (the last message whose animation finished).
#: The hot-seat cover and the screen's owner do not wait: a hand is covered the moment its
#: person's turn is over, and the next person's input still waits for the animation.
SHOWN_FIELDS = ("state_no", "to_move", "outcome", "turns", "phase")


def seat_label(seat: dict[str, Any]) -> str:
    """A seat's name for people: the person's name, or ``Blue CPU`` (CPUs by colour)."""
    if seat["kind"] == "person":
        return str(seat["name"])
    return f"{theme.SEAT_COLOUR_NAMES[seat['seat'] % 8]} CPU"


def symbol_sprite(name: str | None) -> str | None:
    if name is None:
        return None
    return name if name in theme.SYMBOLS else "ring"


class TableCore(Scene):
    """A table on screen: the session, the shown state, the timeline, the table's buttons."""

    name = "table"
    session: Session
    #: The view keys only the screen's own seat may see (a hot seat's other hand).
    private_keys: tuple[str, ...] = ("seat",)

    def __init__(self, stage: Stage, session: Session) -> None:
        super().__init__(stage)
        self.session = session
        # what the screen shows follows the animation (see the module's docstring)
        self.log = MoveLog()
        self._staged = 0  # play/start messages whose animations have not finished
        self._shown_pub: dict[str, Any] | None = None  # SHOWN_FIELDS while staged
        self._stage_view: dict[str, Any] | None = None  # the view of the message playing
        self._settled: dict[str, Any] = {}
        self._settled_view: dict[str, Any] = {}
        self._msg_seat: int | None = None  # the seat the messages' views are for
        self._last_view: dict[str, Any] = session.view(self._event_seat())
        self.hurrying = False
        self.replaying = False
        self.clock = TableClock()
        self.timeline = Timeline(backlog=2)
        self.follow_speed()
        self.t = 0.0
        self._covered = False
        self._cover_since = 0.0
        self._cover_press: str | int | None = None  # the gesture begun on the cover
        self._keys_down: set[int] = set()
        self._message: str | None = None
        self._message_at = 0.0
        self._message_state = -1
        self._clock_key: object = None
        self._turn_left: float | None = None  # the running person's turn clock, counted here
        self._notice_n: object = None
        self._notice_until = 0.0
        self.hint: str | None = None
        self.hint_reason: str | None = None
        self._hint_job: tuple[int, Any] | None = None
        self.recorded = False
        self.new_best = False
        #: Where the hand is (the hot-seat cover lies over it); the scene lays it out.
        self.hand_rect = pygame.Rect(0, 0, 0, 0)
        self.pause_button = Button("Pause", self.pause, hotkey=pygame.K_p)
        self.admin_button = Button("ADMIN", self.admin)
        self.ready_button = Button("Ready", self.ready)
        self.leave_button = Button("Leave table", self.leave_table)
        self.rematch_button = Button("Rematch", self.rematch)
        self.done_button = Button("Back", self.leave_table)
        #: The end panel's record of this game (Recent games): Watch again (W), Save record...
        self.kept: Path | None = None
        self.watch_button = Button("Watch again", self.watch_again)
        self.save_button = Button("Save record...", self.save_record)
        # watchers (docs/seats.md): a watcher asks for a seat; in Pause, a person at a local
        # table sits in a CPU seat ("Sit here"), one leaving for good leaves it to a watcher
        self.ask_button = Button("Ask for a seat", self.ask_for_seat)
        self.sit_button = Button("Sit here", self.sit_here)
        self.give_buttons = [Button("", partial(self.give_seat, k)) for k in range(3)]
        self._give_to: list[dict[str, Any]] = []
        #: Where the end-of-game screen's panel is (laid out with the scene).
        self.results_box = pygame.Rect(0, 0, 0, 0)
        for w in (*self.leading_widgets(), self.pause_button, self.admin_button,
                  self.ready_button, self.leave_button, self.rematch_button, self.done_button,
                  self.watch_button, self.save_button, self.ask_button, self.sit_button,
                  *self.give_buttons):
            self.form.add(w)
        # the overlays' buttons come with their overlays (each update says which are up):
        # hidden until then, so a key in the table's first frame (before its first update)
        # is no press of an end panel that is not there (P was taken as an end panel's key)
        for b in (self.ready_button, self.leave_button, self.rematch_button, self.done_button,
                  self.watch_button, self.save_button, self.ask_button, self.sit_button,
                  *self.give_buttons):
            b.visible = False
        self.form.focus(None)
        # Enter / Space belong to the table unless the keyboard itself moved to a button
        self.form.click_focuses_buttons = False
        if session.screen_seat() is not None:
            stage.hints().warm()  # start the hint worker now, not on the first H
        self._settle()
        # a table reopened, rejoined or watched from the middle: the log says where it starts
        # (empty, it would say "Nothing played yet." at turn 12)
        turns = int(session.public.get("turns") or 0)
        if turns and session.public.get("phase") == "playing" and not session.replay:
            self.log.add(LogEntry(None, [f"{turns} turn{'s' if turns != 1 else ''} played "
                                         f"before this screen"]))

    # ------------------------------------------------------------------ for the scenes
    def leading_widgets(self) -> list[Widget]:
        """The scene's own widgets, ahead of the table's buttons in the focus order."""
        return []

    def animate(self, events: list[dict[str, Any]]) -> None:
        """Queue the animations of the table's ``events``."""

    def legal_plays(self) -> list[Any]:
        """The plays this screen's person can make now."""
        return []

    def clear_choice(self) -> None:
        """Drop the choice in progress (a play went in, or the position changed)."""

    def apply_hint(self, tok: str, reason: str) -> None:
        """Show the hint ``tok`` and its ``reason``."""

    def click(self, pos: tuple[int, int]) -> None:
        """A whole left click begun on the scene (on no widget) at ``pos``."""

    def key(self, ev: pygame.event.Event) -> None:
        """A KEYDOWN no widget took."""

    def face_seat(self, seat: int) -> None:
        """Show the table from ``seat``'s chair (a replay changing whose hand it shows): the
        track board turns that seat's side down; the Trash table lays itself out around the
        seat it shows by itself."""

    def side_panel(self) -> pygame.Rect | None:
        """The area of the scene's own side list (the track's moves list, empty in a replay)
        that a replay's review may take over; None: the scene has none."""
        return None

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        super().enter()
        # a key already held when the table comes up (Enter on the button that opened it)
        # repeats as if pressed anew: it is no fresh press, so it never taps in on the cover
        with contextlib.suppress(pygame.error, IndexError):
            held = pygame.key.get_pressed()
            self._keys_down |= {k for k in COVER_KEYS if held[k]}
        if isinstance(self.form.focused, Button):  # back from ADMIN: the keys go to the board
            self.form.focus(None)

    def background(self, dt: float) -> None:
        """Under ADMIN (or any overlay): the table keeps up, animations included."""
        self.update(dt)

    # ------------------------------------------------------------------ redrawing (the app's
    # idle loop, game.client.scene): what makes this table draw again
    def wants_frames(self) -> bool:
        return not self.timeline.idle

    def pulse_rate(self) -> float:
        return PULSE_FPS if self.my_turn() and self.timeline.idle and self.pulsing() else 0.0

    def pulsing(self) -> bool:
        """Whether the scene draws a pulse now (on this screen's turn): the scene says."""
        return True

    def redraw_key(self) -> object:
        p = self.public
        return (super().redraw_key(), p["state_no"], p["phase"], p.get("speed"),
                str(p.get("pause")), str(p.get("seats")), p.get("cover"), self._message, self.hint,
                self._hint_job is None, self.session.status, self._covered,
                self.timeline.played, self.clock_note(), self.notice_text())

    # ------------------------------------------------------------------ clocks and notices
    #: How long the table's notice ("Bea took too long: a CPU played for her") stays up.
    NOTICE_SECONDS = 8.0
    #: The countdown shows from this many seconds left (a generous clock need not nag).
    CLOCK_SHOWN = 30.0

    def follow_clocks(self, dt: float) -> None:
        """Keep the turn clock's countdown and the table's notice (from the public summary:
        ``turn_left`` as of the summary, ``notice`` with its number) moving on this screen."""
        p = self.public
        key = (p["state_no"], p.get("turn_left"), str(p.get("pause")))
        if key != self._clock_key:
            self._clock_key = key
            self._turn_left = p.get("turn_left")
        elif self._turn_left is not None and not self.paused():
            self._turn_left = max(0.0, self._turn_left - dt)
        notice = p.get("notice")
        n = notice.get("n") if isinstance(notice, dict) else None
        if n is not None and n != self._notice_n:
            self._notice_n = n
            self._notice_until = self.t + self.NOTICE_SECONDS

    def clock_note(self) -> str | None:
        """"You: 12 s left" while a person's turn clock runs low (None otherwise)."""
        left = self._turn_left
        turn = self.public.get("to_move")
        if left is None or turn is None or left > self.CLOCK_SHOWN or self.paused():
            return None
        seats = self.public["seats"]
        who = "You" if turn in self.session.tokens else str(seats[turn]["name"])
        return f"{who}: {int(left + 0.999)} s left on the turn clock"

    def notice_text(self) -> str | None:
        """The table's latest notice while it is fresh."""
        notice = self.public.get("notice")
        if not isinstance(notice, dict) or self.t >= self._notice_until:
            return None
        return str(notice.get("text") or "") or None

    # ------------------------------------------------------------------ messages
    @property
    def message(self) -> str | None:
        """The message shown on the status line (under the speed line), or None."""
        return self._message

    @message.setter
    def message(self, text: str | None) -> None:
        self._message = text
        self._message_at = self.t
        self._message_state = self.public["state_no"]

    def expire_message(self) -> None:
        """A message goes after :data:`MESSAGE_SECONDS` or at the next play; a hint goes with
        its position (:meth:`cancel_hint`); the results screen keeps its message."""
        text = self._message
        if text is None or text.startswith("Hint:") or self.public["phase"] == "over":
            return
        if self.t - self._message_at >= MESSAGE_SECONDS or \
                self.public["state_no"] != self._message_state:
            self._message = None

    # ------------------------------------------------------------------ model
    @property
    def public(self) -> dict[str, Any]:
        """The table's public summary as the animation has reached it (the newest when the
        screen has caught up)."""
        pub = self.session.public
        if self._shown_pub is None:
            return pub
        return {**pub, **self._shown_pub}

    def view(self) -> dict[str, Any]:
        """This screen's view as the animation has reached it: the board and hand of the
        message now playing, the turn of the last one finished (the newest when caught up)."""
        if self._shown_pub is None or self._stage_view is None:
            return self.session.view()
        v = dict(self._stage_view)
        seat = self.screen_seat()
        if seat is not None and v.get("seat") != seat:  # a hot seat: the other hand's own
            own = self.session.view(seat)
            v.update((k, own[k]) for k in self.private_keys if k in own)
        v["turn"] = self._shown_pub.get("to_move")
        return v

    def screen_seat(self) -> int | None:
        """The seat whose hand this screen shows, as the animation has reached it."""
        owner = self.public.get("screen_owner")
        if owner is not None and int(owner) in self.session.tokens:
            return int(owner)
        return self.session.screen_seat()

    def caught_up(self) -> bool:
        """True when every play message's animation has finished (the screen shows the
        newest state)."""
        return self._staged == 0

    def _event_seat(self) -> int | None:
        """The seat whose messages (and views) this scene is given: the seat of the last
        message's view (before any, the screen's seat)."""
        if self._msg_seat is not None:
            return self._msg_seat
        return self.session.screen_seat()

    def _settle(self) -> None:
        """Note the state the screen shows now (it is caught up), for the next messages."""
        pub = self.session.public
        self._settled = {k: pub.get(k) for k in SHOWN_FIELDS}
        self._settled_view = self.session.view(self._event_seat())

    def paused(self) -> bool:
        return self.public["phase"] == "playing" and bool(self.public["pause"])

    def manual_pause(self) -> dict[str, Any] | None:
        return next((r for r in self.public["pause"] if r["reason"] == "paused"), None)

    def waiting_for(self) -> list[int]:
        """Seats the table waits for (Ready not tapped, or joining)."""
        out: list[int] = []
        for r in self.public["pause"]:
            if r.get("reason") in ("ready", "joining"):
                out += [s for s in r.get("seats", []) if s not in out]
        return out

    def show_pause(self) -> bool:
        """The pause overlay: a manual pause, or waiting for people to tap Ready."""
        return self.paused() and (self.manual_pause() is not None or bool(self.waiting_for()))

    def i_must_ready(self) -> bool:
        mine = set(self.session.tokens)
        return self.manual_pause() is not None or bool(mine & set(self.waiting_for()))

    def my_turn(self) -> bool:
        """The screen's person may play now: it is their turn as shown (the animation has
        caught up) and nothing covers their hand."""
        if not self.caught_up() or self.replaying:
            return False
        seat = self.screen_seat()
        v = self.view()
        return (seat is not None and seat in self.session.tokens and v.get("turn") == seat
                and self.public["phase"] == "playing" and not self.paused()
                and not self.public.get("cover"))

    @property
    def high_contrast(self) -> bool:
        """The high-contrast palette (the ``high_contrast`` setting)."""
        return bool(self.stage.settings.high_contrast)

    @property
    def reduced(self) -> bool:
        """The local animation preference: ``reduced`` keeps motion plain (no hops, no spin);
        the timing is the table speed either way."""
        return self.stage.settings.animation == "reduced"

    # ------------------------------------------------------------------ intents
    def pause(self) -> None:
        r = self.session.pause()
        self.message = None if r.ok else r.message
        self.stage.sound("pause")

    def ready(self) -> None:
        self.session.ready()

    def admin(self) -> None:
        self.stage.push(AdminOverlay(self.stage, self.session))

    def leave_table(self) -> None:
        """Leave table / Back to title: a game in progress asks first (it is saved)."""
        if self.public["phase"] != "playing":
            self.leave_now()
            return
        if self.session.save_path is not None:
            detail = "It is saved; Continue on the title brings it back."
        elif self.session.remote:
            detail = "Join again with the same code to get your seat back."
        else:
            detail = "This table could not be saved: it ends here."
        self.stage.show("confirm", question="Leave the game?", detail=detail,
                        yes="Leave", no="Play on", on_yes=self.leave_now, kind="leave")

    def leave_now(self) -> None:
        self.session.close()
        self.stage.back_to("title")

    # ------------------------------------------------------------------ drawing
    def draw_plate(self, surf: pygame.Surface, i: int, r: pygame.Rect, turn: int | None,
                   count: int | None, sym: str | None = None) -> None:
        """Seat ``i``'s plate in ``r``: its peg colour (and team symbol), its name (CPU level,
        stand-in), a glow for a remote person (green connected, red not), ``count`` cards."""
        a = self.stage.assets
        s = self.public["seats"][i]
        glow = None
        if s["kind"] == "person" and not s.get("local"):
            glow = theme.GOOD if s["connected"] else theme.BAD
        if glow:
            pygame.draw.rect(surf, theme.mix(glow, theme.BG, 0.55), r.inflate(6, 6),
                             border_radius=10)
        pygame.draw.rect(surf, theme.BG2 if i != turn else theme.mix(theme.seat_colour(i),
                                                                     theme.BG, 0.6),
                         r, border_radius=8)
        d = r.h - 6
        # the peg with its colour's mark (never colour alone), the team symbol beside it
        draw_peg(surf, a, i, (r.x + 4 + d // 2, r.y + 3 + d // 2), d, self.high_contrast)
        if sym:
            sd = max(8, d // 2)
            surf.blit(a.scaled(f"sym_{sym}", (sd, sd)), (r.x + 4 + d - sd // 2,
                                                         r.y + 3 + d - sd))
        name = seat_label(s)
        if s["kind"] == "cpu" and r.w > self.px(330):
            name += f" ({s['level'].capitalize()})"
        if s.get("standin"):
            name += " (CPU stand-in)"
        nc = theme.BAD if glow == theme.BAD else theme.TEXT
        nt = a.fit_text(name, max(13, int(r.h * 0.62)), nc,
                        r.w - d - a.font(max(12, int(r.h * 0.5))).size("0 cards")[0] - 16)
        surf.blit(nt, nt.get_rect(midleft=(r.x + d + 10, r.centery)))
        if count is not None:
            ct = a.text(f"{count} card{'s' if count != 1 else ''}", max(12, int(r.h * 0.5)),
                        theme.TEXT_DIM)
            surf.blit(ct, ct.get_rect(midright=(r.right - 6, r.centery)))

    def draw_hint_reason(self, surf: pygame.Surface, rect: pygame.Rect) -> pygame.Rect | None:
        """The hint's reason in a box along the bottom of ``rect`` (wrapped, up to 3 lines);
        the box drawn, or None."""
        if not self.hint_reason or self.hint is None:
            return None
        a = self.stage.assets
        size = max(13, self.px(20))
        lines = a.wrap("Why: " + self.hint_reason, size, rect.w - self.px(20))[:3]
        lh = int(size * 1.25)
        box = pygame.Rect(rect.x, rect.bottom - len(lines) * lh - self.px(14), rect.w,
                          len(lines) * lh + self.px(14))
        pygame.draw.rect(surf, theme.BG, box, border_radius=10)  # opaque: rows stay behind
        surf.blit(a.nine_slice("panel", box.size, 10), box)
        for i, line in enumerate(lines):
            t = a.text(line, size, theme.ACCENT2)
            surf.blit(t, (box.x + self.px(10), box.y + self.px(7) + i * lh))
        return box

    def connection_note(self) -> str | None:
        """What to tell a LAN player whose link to the host is not up (None when it is)."""
        if not self.session.remote or self.session.status == "connected":
            return None
        status = self.session.status
        failure = self.session.failure
        if failure is not None and failure[0] in ("removed", "handed", "replaced"):
            return {"removed": "The host removed you from the table.",
                    "handed": "The host gave your seat to a CPU. Join again to take it back.",
                    "replaced": "Your seat was joined from another window or machine."
                    }[failure[0]]
        if status == "failed":
            return ("Lost the host. When its table is back, join again (or reopen the "
                    "program): you get your own seat back.")
        return f"Connection: {status} - the game goes on; you catch up when it is back"

    def _dim(self, surf: pygame.Surface) -> None:
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surf.blit(shade, (0, 0))

    def follow_speed(self) -> None:
        """The timeline's clock runs at the table speed: animations are queued in
        normal-speed seconds, so a speed change rescales all that is still to play."""
        speed = self.public.get("speed") or "normal"
        if speed != self.clock.speed_name:
            with contextlib.suppress(ValueError):  # an unknown name keeps the speed it had
                self.clock.set_speed(str(speed))

    # ------------------------------------------------------------------ the layers' intents
    # (the buttons made here call them; game.client.table_end and table_seats fill them in)
    def rematch(self) -> None:
        """Rematch (the end panel's)."""

    def watch_again(self) -> None:
        """Watch again (the end panel's)."""

    def save_record(self) -> None:
        """Save record... (the end panel's)."""

    def ask_for_seat(self) -> None:
        """Ask for a seat (a watcher's)."""

    def sit_here(self) -> None:
        """Sit here (the pause overlay's, a hot seat's)."""

    def give_seat(self, k: int) -> None:
        """Leave my seat to the ``k``-th watcher (the pause overlay's)."""
