"""What both table scenes share (the track game's board and Trash's layouts build on it):
reading the session every frame and handing its messages to the scene, the animation
timeline and its clock, messages and the status line, hints, seat plates' names, the pause
and results overlays, ADMIN, the seat-picking panel (a watcher's Ask for a seat, the hot
seat's Sit here), the hot-seat cover, and the whole-click rule for the table's
own mouse targets.

A table scene subclasses :class:`TableScene` and fills in: ``layout``, ``draw``,
``animate(events)`` (the table's events as animations on :attr:`TableScene.timeline`),
``legal_plays()``, ``click(pos)`` (a whole left click begun on the scene, on no widget) and
``key(ev)`` (a key no widget took), plus ``clear_choice`` / ``apply_hint`` when it has a choice
in progress or hints.

The model jumps to the newest view; the timeline plays the events on top of it at the table
speed and stops while the table is paused. What the screen *shows* follows the animation
(:meth:`TableScene.public`, :meth:`TableScene.view`): while a play message's animation waits
or plays, whose turn it is (and the state number, the turn count, the outcome) stay those of
the last message whose animation has finished, the board and hand are those of the message
now playing (the hot-seat cover comes at once: a hand is covered as soon as its turn is
over), and no play is taken (:meth:`TableScene.my_turn` is False until the screen has
caught up), so an early Enter never plays from a hand the person has not seen. F or Space
(with nothing chosen) or a click on the board while something animates hurries this screen's
queue along (:data:`HURRY_RATE`), never the table's shared pace. Every play message is told
in words in the move log (:mod:`game.client.movelog`); L replays the last turn here.

The overlays hold the focus while shown: the pause overlay (Enter / Space / R / P / Esc tap
Ready), the end of the game (standings, turns, points; Enter = Rematch, W = Watch again, Save
record..., Esc = Back; the game is kept among Recent games, :mod:`game.client.keep`) and the
questions (``stage.show("confirm")``: Leave table asks first while a game is in progress).
(The module is over 600 lines: both table scenes share these overlays, their keys and the
focus rules with the scene's own input, and the per-frame loop with the shown state, so they
stay in the one base.)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.anim import Anim, TableClock, Timeline, Wait
from game.client.board import draw_peg
from game.client.keep import keep_finished, save_record
from game.client.movelog import LogEntry, MoveLog
from game.client.scene import Scene
from game.client.watchers import cpu_seats, my_ask, seat_words, watcher_line, watching_line
from game.client.widgets import Button, Choice, TextInput, Toggle, Widget
from game.table import SPEEDS

if TYPE_CHECKING:
    from game.client.session import Session
    from game.client.stage import Stage
    from game.table.messages import TableMessage  # the typed protocol both sessions implement

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


class TableScene(Scene):
    """A table on screen: the session, the timeline, the overlays and the cover."""

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
        self.ask_button.visible = self.sit_button.visible = False
        for b in self.give_buttons:
            b.visible = False
        self.form.focus(None)
        # Enter / Space belong to the table unless the keyboard itself moved to a button
        self.form.click_focuses_buttons = False
        if session.screen_seat() is not None:
            stage.hints().warm()  # start the hint worker now, not on the first H
        self._settle()

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

    def record(self) -> None:
        self.recorded = True
        self.keep_record()
        res = self.session.result()
        if not res:
            return
        try:
            if res.get("solo"):
                if self.session.undos:  # undo shows the coming draws: no best from it
                    return
                self.new_best = self.stage.store.record_solo(res["rules"], int(res["turns"]),
                                                           int(res["seed"]))
            elif res.get("people"):
                me, pid = self.stage.settings.name, self.stage.settings.player_id
                people = [dict(p, pid=pid) if pid and p["name"] == me and
                          p["seat"] in self.session.tokens else dict(p) for p in res["people"]]
                self.stage.store.record_game({**res, "people": people})
        except Exception as e:  # records problems are shown, never fatal
            self.message = f"Could not save the records: {e}"

    def keep_record(self) -> None:
        """The finished game's record among Recent games (a table this program holds: local or
        hosted; a guest keeps none, see :mod:`game.client.keep`)."""
        try:
            self.kept = keep_finished(self.session, self.stage.store.folder)
            self.layout_results(*self.stage.size)
        except Exception as e:  # records problems are shown, never fatal
            self.message = f"Could not keep this game's record: {e}"

    def watch_again(self) -> None:
        """Watch again (W): the replay viewer over this game's record."""
        if self.kept is not None:
            self.message = self.stage.open_replay(self.kept)

    def save_record(self) -> None:
        """Save record...: a copy in the documents folder; the message says where."""
        if self.kept is not None:
            self.message = save_record(self.kept)

    # ------------------------------------------------------------------ intents
    def pause(self) -> None:
        r = self.session.pause()
        self.message = None if r.ok else r.message
        self.stage.sound("pause")

    def ready(self) -> None:
        self.session.ready()

    def admin(self) -> None:
        self.stage.push(AdminOverlay(self.stage, self.session))

    # ------------------------------------------------------------------ watchers
    def watching(self) -> bool:
        """This screen watches: it holds no seat (a watcher's public view, no hand). A table
        screen (the room's display: everyone plays on a phone) is not a watcher here: it asks
        for no seat and shows no watcher's panel."""
        return self.session.watcher is not None and not self.session.tokens and \
            not self.session.table_screen

    def ask_for_seat(self) -> None:
        """A watcher picks a CPU seat to ask the host for."""
        self.stage.push(SeatPickOverlay(self.stage, self.session, hot=False,
                                        on_done=self._said))

    def sit_here(self) -> None:
        """Hot seat (Pause on a local table): a second person takes a CPU seat."""
        self.stage.push(SeatPickOverlay(self.stage, self.session, hot=True,
                                        on_done=self._said))

    def _said(self, text: str) -> None:
        self.message = text

    def give_seat(self, k: int) -> None:
        """Leave this screen's seat for good to the ``k``-th watcher listed in Pause."""
        seat = self.screen_seat()
        if seat is None or k >= len(self._give_to):
            return
        w = self._give_to[k]
        r = self.session.hand_to_watcher(seat, int(w["watcher"]))
        self.message = f"Your seat goes to {w['name']} at its next turn" if r.ok else r.message

    def _pause_extras(self, show: bool) -> None:
        """Which of Sit here / Leave my seat to ... the pause overlay offers, and where."""
        s = self.session
        playing = self.public["phase"] == "playing"
        self.sit_button.visible = show and playing and not s.remote and bool(s.tokens) and \
            bool(cpu_seats(s))
        mine = self.screen_seat()
        can_give = show and playing and s.remote and mine is not None and \
            not self.public["seats"][mine].get("host")
        self._give_to = s.watchers()[:len(self.give_buttons)] if can_give else []
        lr = self.leave_button.rect
        y = lr.bottom + self.px(12)
        for b in [self.sit_button, *self.give_buttons]:
            if b is not self.sit_button:
                k = self.give_buttons.index(b)
                b.visible = k < len(self._give_to)
                if b.visible:
                    b.label = f"Leave my seat to {self._give_to[k]['name']}"
            if b.visible:
                w = max(lr.w, self.px(360))
                b.rect = pygame.Rect(lr.centerx - w // 2, y, w, lr.h)
                y += lr.h + self.px(10)
        ask = my_ask(s)
        self.ask_button.visible = self.watching() and playing and not show and \
            bool(cpu_seats(s)) and not (ask is not None and ask.get("accepted"))

    def watching_text(self) -> str | None:
        """Who is watching, for the table's info line (None: nobody)."""
        return watching_line(self.session.public)

    def info_text(self, lead: Sequence[str] = ()) -> str:
        """The table's info line: the scene's own ``lead`` (``Hand 2``, a solo ``Turn 5``),
        the table speed, and who is watching (issue 17) when anyone is."""
        parts = [*lead, f"Speed: {self.public.get('speed', '')}"]
        watching = self.watching_text()
        if watching:
            parts.append(watching)
        return "   ".join(parts)

    def draw_info(self, surf: pygame.Surface, lead: Sequence[str], size: int, width: int,
                  **where: tuple[int, int]) -> pygame.Rect:
        """Draw :meth:`info_text` at ``size`` (shrunk to ``width``), placed by ``where`` (a
        ``get_rect`` anchor: ``topleft=``, ``midtop=``...); returns where it went."""
        t = self.stage.assets.fit_text(self.info_text(lead), size, theme.TEXT_DIM, width)
        r = t.get_rect(**where)
        surf.blit(t, r)
        return r

    #: A local table nobody at this screen plays any more (their seats handed to CPUs).
    WATCHING_ON = "You are watching: CPUs play every seat"

    def watching_on(self) -> bool:
        """A local table where nobody at this screen holds a seat (the last person here
        handed theirs to a CPU): the screen watches on, its move log following the table
        (the table takes a hot seat only from someone seated here: Pause, Leave table is
        the way out)."""
        s = self.session
        return not s.remote and not s.replay and not s.tokens and not s.table_screen and \
            self.public["phase"] == "playing"

    def draw_watching(self, surf: pygame.Surface) -> bool:
        """A watcher's hand area: "You are watching" (or its request's state) and Ask for
        a seat. True when drawn (this screen watches: there is no hand to draw)."""
        line = watcher_line(self.session) if self.watching() else (
            self.WATCHING_ON if self.watching_on() else None)
        if line is None:
            return False
        a = self.stage.assets
        r = self.hand_rect
        surf.blit(a.nine_slice("panel", r.size, 14), r)
        size = max(13, self.px(22))
        y = r.y + self.px(8)
        lines = a.wrap(line, size, r.w - 20)[:2]
        if len(lines) * int(size * 1.2) + self.px(64) > r.h:  # a small window: the short line
            lines = a.wrap(str(watcher_line(self.session, short=True)), size, r.w - 20)[:1]
        for text in lines:
            t = a.text(text, size, theme.ACCENT)
            surf.blit(t, t.get_rect(midtop=(r.centerx, y)))
            y += int(size * 1.2)
        bw = min(self.px(300), r.w - 20)
        by = max(y + self.px(4), r.bottom - self.px(60))
        self.ask_button.rect = pygame.Rect(r.centerx - bw // 2, by, bw,
                                           max(self.px(30), min(self.px(48), r.bottom - by - 4)))
        if self.ask_button.visible:
            self.ask_button.draw(surf, a)
        return True

    def place_ask_button(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        """Ask for a seat at ``rect`` (a scene whose hand area shows a seat's public cards)."""
        self.ask_button.rect = rect
        if self.ask_button.visible:
            self.ask_button.draw(surf, self.stage.assets)

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

    def can_rematch(self) -> bool:
        """Rematch (same seats, new deal) is offered at a table played on this screen."""
        return not self.session.remote

    def rematch(self) -> None:
        """A new table with the same config and seats (people, CPU levels), a new deal."""
        problem = self.stage.rematch(self.session)
        if problem:
            self.message = problem

    def standings(self) -> list[tuple[int, str, str, str]]:
        """The end screen's rows, best first: (seat, name, standing, points gained)."""
        pub = self.public
        out = pub.get("outcome") or {}
        winners = [int(w) for w in out.get("winners", [])]
        pts = pub.get("points") or {}
        seats = pub["seats"]
        view = self.view()
        rows: list[tuple[int, int, int, str, str, str]] = []
        for s in seats:
            i = int(s["seat"])
            if self.session.game == "layout":
                sizes = out.get("sizes") or []
                size = int(sizes[i]) if i < len(sizes) else 0
                start = int(pub["config"].get("layout_size", 10))
                won = start - size
                standing = (f"{won} hand{'s' if won != 1 else ''} won, "
                            f"layout of {size}" if size else
                            f"{won} hand{'s' if won != 1 else ''} won, layout cleared")
                key = size
            else:
                pegs = (view.get("pegs") or [])
                mine = pegs[i] if i < len(pegs) else []
                home = sum(1 for x in mine if isinstance(x, str) and x.startswith("h"))
                standing = f"{home} of {len(mine)} pegs home"
                key = -home
            gained = pts.get(str(i))
            if s["kind"] != "person":
                points = ""
            elif gained:
                points = f"+{gained} point" + ("s" if int(gained) != 1 else "")
            else:
                points = "no points"
            name = seat_label(s) + (" (won)" if i in winners else "")
            rows.append((0 if i in winners else 1, key, i, name, standing, points))
        rows.sort()
        return [(i, name, st, p) for _, _, i, name, st, p in rows]

    def relayout(self, size: tuple[int, int]) -> None:
        super().relayout(size)
        self.layout_results(*size)

    def results_shown(self) -> bool:
        """The end screen is up: the game is over and its last animations played. Never at a
        replay (``Session.replay``): its End is the last position, and the viewer on top
        takes every key and click, so Back and Rematch would be dead buttons over it."""
        return (self.public["phase"] == "over" and self.timeline.idle
                and not self.session.replay)

    def layout_results(self, w: int, h: int) -> None:
        """The end screen: a panel with the standings; Back, Watch again, Save record... (when
        the game was kept) and Rematch along its bottom."""
        n = len(self.public.get("seats") or [])
        row = self.px(34)
        bh = self.px(150) + (n + 1) * row + self.px(90)
        bw = min(int(w * 0.94), self.px(900))
        self.results_box = pygame.Rect((w - bw) // 2, max(4, (h - bh) // 2), bw, min(bh, h - 8))
        row_of = [self.done_button] + (
            [self.watch_button, self.save_button] if self.kept is not None else []) + (
            [self.rematch_button] if self.can_rematch() else [])
        gap = self.px(14)
        b = min(self.px(220), (bw - self.px(40) - gap * (len(row_of) - 1)) // len(row_of))
        y = self.results_box.bottom - self.px(78)
        x = self.results_box.centerx - (b * len(row_of) + gap * (len(row_of) - 1)) // 2
        for k, btn in enumerate(row_of):
            btn.rect = pygame.Rect(x + k * (b + gap), y, b, self.px(58))

    def handle_results_key(self, ev: pygame.event.Event, fresh: bool) -> bool:
        """Keys on the end screen: Enter / Space press the focused button (Rematch first),
        Left / Right move between the buttons, Esc is Back; nothing reaches the board."""
        if ev.type != pygame.KEYDOWN or not self.done_button.visible:
            return False
        if ev.key in (pygame.K_LEFT, pygame.K_RIGHT):
            self.form.move(1)
            return True
        if ev.key == pygame.K_ESCAPE:
            self.leave_table()
            return True
        if ev.key == pygame.K_w:
            if fresh and self.watch_button.visible:
                self.watch_again()
            return True
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if not fresh:
                return True  # a key held from the last play is no answer
            f = self.form.focused
            target = f if isinstance(f, Button) and f.visible else (
                self.rematch_button if self.rematch_button.visible else self.done_button)
            target.press()
            return True
        return ev.key not in (pygame.K_TAB, pygame.K_UP, pygame.K_DOWN, pygame.K_F11)

    def leave_now(self) -> None:
        self.session.close()
        self.stage.back_to("title")

    # ------------------------------------------------------------------ hints
    THINKING = "Hint: thinking..."

    def show_hint(self) -> None:
        """H: ask the hint worker (never in this frame); :meth:`poll_hint` shows the answer."""
        legal = self.legal_plays()
        if not legal:
            return
        state_no = self.public["state_no"]
        if self._hint_job is not None and self._hint_job[0] == state_no:
            return  # already thinking about this position
        fut = self.stage.hints().ask(self.session.game, self.view(), [str(p) for p in legal],
                                   state_no)
        self._hint_job = (state_no, fut)
        self.hint = None
        self.hint_reason = None
        self.message = self.THINKING

    def hint_status(self) -> dict[str, Any] | str | None:
        """For the end-to-end hook: ``"thinking"``, the shown hint, or None."""
        if self._hint_job is not None:
            return "thinking"
        if self.hint is not None:
            return {"play": self.hint, "reason": self.hint_reason}
        return None

    def cancel_hint(self) -> None:
        if self._hint_job is not None:
            self._hint_job[1].cancel()
            self._hint_job = None
        if self.message is not None and self.message.startswith("Hint:"):
            self.message = None  # a hint belongs to the position it was asked in
        self.hint = None
        self.hint_reason = None

    def poll_hint(self) -> None:
        job = self._hint_job
        if job is None or not job[1].done():
            return
        self._hint_job = None
        if job[0] != self.public["state_no"] or not self.my_turn():
            if self.message == self.THINKING:
                self.message = None
            return
        try:
            tok, reason = job[1].result()
        except Exception as e:  # the hint's own failure is shown, never fatal
            self.message = f"No hint this time ({type(e).__name__}: {e})"
            return
        self.apply_hint(str(tok), str(reason))

    # ------------------------------------------------------------------ the hot-seat cover
    def _watch_cover(self) -> bool:
        """True while the hand is covered; notes when the cover came (a tap-in counts only
        from a gesture begun on the cover after :data:`COVER_ARM_SECONDS`)."""
        covered = bool(self.public.get("cover"))
        if covered and not self._covered:
            self._cover_since = self.t
            self._cover_press = None
        self._covered = covered
        return covered

    def _cover_armed(self) -> bool:
        return self.t - self._cover_since >= COVER_ARM_SECONDS

    def handle_cover(self, ev: pygame.event.Event, fresh: bool) -> bool:
        """A gesture on the cover; True when it was one (nothing else then sees it).

        A tap-in is a whole gesture that began on the cover once it was armed: the left button
        pressed on the covered hand and released there, or Enter / Space pressed afresh (not a
        key repeat, not a key held from the turn before) and released. So the click, key or
        double-click that finished one person's turn can never uncover the next hand."""
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                self.hand_rect.collidepoint(ev.pos):
            self._cover_press = "mouse" if self._cover_armed() else None
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self._cover_press == "mouse":
            self._cover_press = None
            if self.hand_rect.collidepoint(ev.pos):
                self._tap_in()
            return True
        if ev.type == pygame.KEYDOWN and ev.key in COVER_KEYS:
            self._cover_press = ev.key if fresh and self._cover_armed() else None
            return True  # never a play key while covered, repeats included
        if ev.type == pygame.KEYUP and ev.key in COVER_KEYS:
            if self._cover_press == ev.key:
                self._cover_press = None
                self._tap_in()
            return True
        return False

    def _tap_in(self) -> None:
        owner = self.public.get("screen_owner")
        if owner is not None:
            self.session.tap_in(owner)

    def _key_fresh(self, ev: pygame.event.Event) -> bool:
        """Track the keys held; True for a KEYDOWN of a key not already down (not a repeat)."""
        if ev.type == pygame.KEYUP:
            self._keys_down.discard(ev.key)
            return False
        if ev.type != pygame.KEYDOWN:
            return False
        fresh = ev.key not in self._keys_down
        self._keys_down.add(ev.key)
        return fresh

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
            ct = a.text(f"{count} cards", max(12, int(r.h * 0.5)), theme.TEXT_DIM)
            surf.blit(ct, ct.get_rect(midright=(r.right - 6, r.centery)))

    def draw_hint_reason(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        """The hint's reason in a box along the bottom of ``rect`` (wrapped, up to 3 lines)."""
        if not self.hint_reason or self.hint is None:
            return
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

    def draw_pause(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        self._dim(surf)
        w, h = surf.get_size()
        reason = self.manual_pause()
        seats = self.public["seats"]
        if reason is not None:
            title, sub = "Paused", f"by {reason.get('name', '')}"
        else:
            title = "Ready up"
            sub = "Waiting for " + ", ".join(seat_label(seats[i]) for i in self.waiting_for()
                                             if i < len(seats))
        t = a.text(title, self.px(72), theme.ACCENT)
        surf.blit(t, t.get_rect(center=(w // 2, h // 2 - self.px(90))))
        by = a.fit_text(sub, self.px(30), theme.TEXT, int(w * 0.9))
        surf.blit(by, by.get_rect(center=(w // 2, h // 2 - self.px(30))))
        if self.ready_button.visible:
            keys = a.fit_text("Enter, Space, R, P or Esc: Ready, play on", self.px(22),
                              theme.TEXT_DIM, int(w * 0.9))
            surf.blit(keys, keys.get_rect(midtop=(w // 2, self.leave_button.rect.bottom +
                                                  self.px(14))))
        self._pause_extras(True)
        for b in (self.ready_button, self.leave_button, self.sit_button, *self.give_buttons):
            if b.visible:
                b.draw(surf, a)

    def results_title(self) -> str:
        """The end panel's headline: who won (solo: the turns it took)."""
        pub = self.public
        winners = (pub.get("outcome") or {}).get("winners", [])
        if pub["config"].get("mode") == "solo":
            turns = int(pub.get("turns") or 0)
            return f"All home in {turns} turn{'s' if turns != 1 else ''}!"
        names = [seat_label(pub["seats"][i]) for i in winners]
        return " and ".join(names) + (" win!" if len(names) > 1 else " wins!")

    def results_subtitle(self) -> str:
        """The end panel's line under the headline: the game's length (solo: the best)."""
        pub = self.public
        turns = int(pub.get("turns") or 0)
        if pub["config"].get("mode") == "solo":
            if self.session.undos:
                return "Undo was used: this game does not count for the best."
            return "A new best!" if self.new_best else "Rematch deals a new seed."
        if self.session.game == "layout":
            hands = int((pub.get("outcome") or {}).get("hands") or 0)
            return (f"{hands} hand{'s' if hands != 1 else ''}, "
                    f"{turns} turn{'s' if turns != 1 else ''}")
        return f"{turns} turn{'s' if turns != 1 else ''}"

    def draw_results(self, surf: pygame.Surface) -> None:
        """The end of the game: who won, the turns, each seat's standing and points gained,
        Rematch and Back. The board behind is shaded almost away: nothing dealt after the
        end shows through."""
        a = self.stage.assets
        w, h = surf.get_size()
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 215))
        surf.blit(shade, (0, 0))
        if self.results_box.w == 0:
            self.layout_results(w, h)
        box = self.results_box
        pub = self.public
        winners = (pub.get("outcome") or {}).get("winners", [])
        title, sub = self.results_title(), self.results_subtitle()
        pygame.draw.rect(surf, theme.BG, box, border_radius=14)
        surf.blit(a.nine_slice("panel", box.size, 14), box)
        t = a.fit_text(title, self.px(52), theme.ACCENT, box.w - 24)
        surf.blit(t, t.get_rect(midtop=(box.centerx, box.y + self.px(16))))
        st = a.fit_text(sub, self.px(28), theme.TEXT, box.w - 24)
        surf.blit(st, st.get_rect(midtop=(box.centerx, box.y + self.px(78))))
        row = self.px(34)
        x0 = box.x + self.px(28)
        cols = (x0, x0 + int(box.w * 0.42), box.right - self.px(28))
        y = box.y + self.px(124)
        size = self.px(24)
        for k, text in enumerate(("Seat", "Standing", "Points")):
            ht = a.text(text, self.px(20), theme.TEXT_DIM)
            surf.blit(ht, ht.get_rect(topright=(cols[2], y)) if k == 2 else (cols[k], y))
        y += row
        for i, name, standing, points in self.standings():
            pygame.draw.circle(surf, theme.seat_colour(i % 8), (x0 - self.px(12), y + row // 2 - 2),
                               max(4, self.px(8)))
            colour = theme.ACCENT if i in winners else theme.TEXT
            nt = a.fit_text(name, size, colour, cols[1] - cols[0] - 8)
            surf.blit(nt, (cols[0] + self.px(4), y))
            sd = a.fit_text(standing, size, theme.TEXT, int(box.w * 0.36))
            surf.blit(sd, (cols[1], y))
            pt = a.text(points, size, theme.GOOD if points.startswith("+") else theme.TEXT_DIM)
            surf.blit(pt, pt.get_rect(topright=(cols[2], y)))
            y += row
        if self.message:
            good = self.message.startswith("Record saved")
            m = a.fit_text(self.message, self.px(22), theme.GOOD if good else theme.BAD,
                           box.w - 24)
            surf.blit(m, m.get_rect(midbottom=(box.centerx, self.done_button.rect.y - 6)))
        self.rematch_button.draw(surf, a)
        self.done_button.draw(surf, a)
        if self.watch_button.visible:
            self.watch_button.draw(surf, a)
            self.save_button.draw(surf, a)

    # ------------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        self._watch_cover()  # a cover that came since the last frame came at its start
        self.t += dt
        before = self.public["state_no"]
        for msg in self.session.poll():
            self.on_message(msg)
        if self.public["state_no"] != before:
            self.cancel_hint()
        self.poll_hint()
        self.expire_message()
        self.follow_speed()
        self.follow_clocks(dt)
        self.clock.paused = self.paused()
        step = self.clock.tick(dt)
        if self.hurrying and not self.paused():
            step = max(step, dt) * HURRY_RATE  # this screen only: the table keeps its pace
        for name in self.timeline.update(step):
            self.stage.sound(name)
        if self.timeline.idle:
            self.hurrying = False
            self.replaying = False
        over = self.public["phase"] == "over"
        if over and self.timeline.idle and not self.recorded:
            self.record()
        show = self.show_pause()
        self.ready_button.visible = show and self.i_must_ready()
        self.leave_button.visible = show
        ended = self.results_shown()
        if ended and not self.done_button.visible:  # the end screen opens: Enter is Rematch
            self.form.focus(self.rematch_button if self.can_rematch() else self.done_button)
        self.done_button.visible = ended
        self.rematch_button.visible = ended and self.can_rematch()
        self.watch_button.visible = self.save_button.visible = ended and self.kept is not None
        # an overlay (pause, end of game) holds the focus: nothing under it takes Tab or keys
        overlay = show or over
        self.pause_button.visible = not overlay and not self.watching()  # watchers: no Pause
        self.admin_button.visible = self.session.is_host and not overlay
        self._pause_extras(show and not over)
        for w in self.leading_widgets():
            w.enabled = not overlay
        if self.caught_up():
            self._settle()
        self.legal_plays()

    def follow_speed(self) -> None:
        """The timeline's clock runs at the table speed: animations are queued in
        normal-speed seconds, so a speed change rescales all that is still to play."""
        speed = self.public.get("speed") or "normal"
        if speed != self.clock.speed_name:
            with contextlib.suppress(ValueError):  # an unknown name keeps the speed it had
                self.clock.set_speed(str(speed))

    def on_message(self, msg: TableMessage) -> None:
        """One message of the session (the same for a local and a remote table)."""
        if msg["type"] == "start":  # once, when the game starts: the opening deal, card by card
            self._stage(msg)
        elif msg["type"] == "play":
            self._stage(msg)
            self.clear_choice()
        elif msg["type"] in ("reset", "snapshot"):
            self.replaying = False
            self.timeline.finish()
            self.clear_choice()
            self._last_view = self.session.view(self._event_seat())
            if msg["type"] == "reset" and self.session.replay:
                self.log.clear()  # the viewer jumped: the list starts again from here
                turns = int(self.session.public.get("turns") or 0)
                if turns:  # (an empty list would say "Nothing played yet.")
                    self.log.add(LogEntry(None, [
                        f"Jumped here: {turns} turn{'s' if turns != 1 else ''} played"]))
            elif msg["type"] == "reset":
                self.log.add(LogEntry(None, ["The table went back to an earlier turn"]))

    # ------------------------------------------------------------------ the shown state
    def tell(self, msg: Any, before: dict[str, Any]) -> LogEntry | None:
        """The move log's entry for a play (or start) message; ``before`` is the view the
        play was made in."""
        return None

    def names(self) -> list[str]:
        """The seats' names for people, by seat."""
        return [seat_label(s) for s in self.session.public.get("seats", [])]

    def _stage(self, msg: Any) -> None:
        """Queue a play (or start) message's animations; the screen shows its view when they
        begin and its turn when they end."""
        if self.replaying:  # a replay gives way to what really happens
            self.timeline.finish()
        before = self._last_view
        self._last_view = msg["view"]
        seat = msg["view"].get("seat")
        self._msg_seat = int(seat) if isinstance(seat, int) else None
        entry = self.tell(msg, before)  # told when its animation begins
        if self._staged == 0:
            self._shown_pub = dict(self._settled)
            self._stage_view = self._settled_view
        n0 = len(self.timeline.queue)
        self.animate(msg["events"])
        new: list[Anim] = list(self.timeline.queue)[n0:]
        if not new:
            new = [Wait(0.0)]
            self.timeline.push(new[0])
        self._staged += 1
        shown = {k: msg[k] for k in SHOWN_FIELDS if k in msg}
        if msg.get("outcome") is not None:
            shown["phase"] = "over"

        def begin(view: dict[str, Any] = msg["view"]) -> None:
            self._stage_view = view
            if entry is not None:
                self.log.add(entry)

        def end() -> None:
            self._staged = max(0, self._staged - 1)
            if self._shown_pub is not None:
                self._shown_pub.update(shown)
            if self._staged == 0:
                self._shown_pub = None
                self._stage_view = None

        new[0].on_start = _chain(new[0].on_start, begin)
        new[-1].on_done = _chain(new[-1].on_done, end)

    def hurry(self) -> bool:
        """Play this screen's queued animations fast (True when there was something to
        hurry); the table's shared pace is not touched."""
        if self.timeline.idle:
            return False
        self.hurrying = True
        return True

    def replay_last(self) -> bool:
        """L: play the last turn's animations again here (the moves since this screen's
        person last played, else the last one); the board then is the newest again."""
        if not self.caught_up() or not self.timeline.idle:
            return False
        entries = self.log.since(self.screen_seat())
        events = [ev for e in entries for ev in e.events if ev.get("type") in REPLAYED]
        if not events:
            self.message = "Nothing to show again yet."
            return False
        self.replaying = True
        self.animate(events)
        if self.timeline.idle:
            self.replaying = False
            return False
        self.message = "Showing the last turn again (F to hurry)"
        return True

    def submit(self, play: Any) -> None:
        """Send a complete play of this screen's seat."""
        seat = self.screen_seat()
        if not self.my_turn():
            return  # never a play from a state the screen has not shown
        if seat is None:
            return
        r = self.session.play(seat, str(play))
        self.message = None if r.ok else r.message
        self.clear_choice()
        self.cancel_hint()

    def status_line(self) -> str | None:
        """The status line: the message, else what the connection is doing (LAN), else the
        table's fresh notice, else the turn clock running low, else a watcher's own line
        ("You are watching"), else None."""
        return self.message or self.connection_note() or self.notice_text() or \
            self.clock_note() or (watcher_line(self.session, short=True) if self.watching()
                                  else self.WATCHING_ON if self.watching_on() else None)

    #: Keys that tap Ready on the pause overlay (Esc too: back to the game).
    READY_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_r, pygame.K_p,
                  pygame.K_ESCAPE)

    def handle_pause_key(self, ev: pygame.event.Event, fresh: bool) -> bool:
        """Keys on the pause overlay; True when the overlay took the key. Enter / Space press
        the focused overlay button (Ready when none is focused); R, P and Esc tap Ready.
        A key repeat or a key held since the pause is no answer (P held must not resume)."""
        if ev.type != pygame.KEYDOWN or not self.show_pause():
            return False
        focused = self.form.focused
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and \
                isinstance(focused, Button) and focused.visible:
            return False  # Leave table (or Ready) has the focus: the form presses it
        if ev.key in self.READY_KEYS:
            if fresh and self.ready_button.visible:
                self.ready()
                self.stage.sound("click")
            return True
        return ev.key not in (pygame.K_TAB, pygame.K_UP, pygame.K_DOWN, pygame.K_F11)

    def handle(self, ev: pygame.event.Event) -> None:
        fresh = self._key_fresh(ev)
        if self._watch_cover() and self.handle_cover(ev, fresh):
            return
        if self.handle_pause_key(ev, fresh) or self.handle_results_key(ev, fresh):
            return
        if self.form.handle(ev):
            return
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            # a whole click begun here: never the release of a widget's press, nor of one
            # begun before this scene was shown
            if self.form.released_here(ev):
                self.click(ev.pos)
            return
        if ev.type == pygame.KEYDOWN:
            self.key(ev)


#: The events a replay plays again (the board's and the pile's, never a deal or a draw).
REPLAYED = frozenset({"move", "come_out", "bump", "trade", "home", "play", "discard", "fold",
                      "drawn", "placed", "wild_placed", "revealed", "wild_displaced",
                      "discarded", "completed"})


def _chain(first: Any, then: Any) -> Any:
    """A callback that runs ``first`` (if any), then ``then``."""
    if first is None:
        return then

    def both() -> None:
        first()
        then()
    return both


def stack_in_panel(scene: Scene, shown: Sequence[Widget], w: int, h: int, bw: int, *,
                   min_row: int, reserve: int, message: bool = False) -> pygame.Rect:
    """Lay ``shown`` out one a row in a centred panel ``bw`` wide (the overlays' shared form):
    the title (:data:`PANEL_TOP` design px), rows of 62 design px squeezed down to
    ``min_row`` when the window is short (``reserve``: what the title and margins take),
    then :data:`PANEL_FOOT` px under the last row, and a line for a ``message`` when there
    is one: the panel is as tall as its rows, never taller."""
    step = min(scene.px(62), max(scene.px(min_row), (h - scene.px(reserve)) // len(shown)))
    gap = scene.px(12)  # between rows (the last row's own gap is not kept under it)
    bh = scene.px(PANEL_TOP) + len(shown) * step - gap + scene.px(PANEL_FOOT) + (
        scene.px(PANEL_MESSAGE) if message else 0)
    box = pygame.Rect((w - bw) // 2, max(0, (h - bh) // 2), bw, min(bh, h))
    y = box.y + scene.px(PANEL_TOP)
    for wd in shown:
        wd.rect = pygame.Rect(box.x + scene.px(20), y, bw - scene.px(40), step - gap)
        y += step
    return box


#: The panels' title band, the margin under their last row and their message line (design
#: px, :func:`stack_in_panel`).
PANEL_TOP = 70
PANEL_FOOT = 18
PANEL_MESSAGE = 30


class PanelOverlay(Scene):
    """A panel of rows over the table (ADMIN, Ask for a seat / Sit here): a title, the rows
    :meth:`rows` gives one under another (:func:`stack_in_panel`), and the latest message on
    a line of its own at the panel's foot (the panel grows by it only while there is one).
    Subclasses give ``title``, :meth:`rows` and their sizes."""

    overlay = True
    #: The panel's width, its rows' least height and what its title and margins take
    #: (design px).
    panel_width = 560
    min_row = 40
    reserve = 150

    def __init__(self, stage: Stage) -> None:
        super().__init__(stage)
        self._message: str | None = None
        self.box = pygame.Rect(0, 0, 0, 0)

    @property
    def message(self) -> str | None:
        """The line at the panel's foot (a refusal, what was done), or None / ""."""
        return self._message

    @message.setter
    def message(self, text: str | None) -> None:
        grew = bool(text) != bool(self._message)
        self._message = text
        if grew and self.box.w:
            self.relayout(self.size)  # the panel gains (or gives back) its message line

    def rows(self) -> list[Widget]:
        """The widgets shown, top to bottom."""
        return []

    def layout(self, w: int, h: int) -> None:
        bw = min(self.px(self.panel_width), int(w * 0.9))
        self.box = stack_in_panel(self, self.rows(), w, h, bw, min_row=self.min_row,
                                  reserve=self.reserve, message=bool(self._message))

    def draw(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surf.blit(shade, (0, 0))
        pygame.draw.rect(surf, theme.BG, self.box, border_radius=14)
        surf.blit(a.nine_slice("panel", self.box.size, 14), self.box)
        t = a.fit_text(self.title, self.px(40), theme.ACCENT, self.box.w - 20)
        surf.blit(t, t.get_rect(midtop=(self.box.centerx, self.box.y + self.px(14))))
        self.form.draw(surf, a)
        if self._message:
            m = a.fit_text(self._message, self.px(20), theme.ACCENT2, self.box.w - 20)
            surf.blit(m, m.get_rect(midbottom=(self.box.centerx,
                                               self.box.bottom - self.px(10))))


class SeatPickOverlay(PanelOverlay):
    """Pick a CPU seat: a watcher asks for it (``hot=False``), or a person at this screen
    types a name and sits in it at its next turn (``hot=True``, ``Session.take_seat``)."""

    name = "seat_pick"
    session: Session

    def __init__(self, stage: Stage, session: Session, hot: bool = False,
                 on_done: Callable[[str], None] | None = None) -> None:
        super().__init__(stage)
        self.session = session
        self.hot = hot
        self.on_done = on_done
        self.title = "Sit here" if hot else "Ask for a seat"
        self.name_input: TextInput | None = None
        if hot:
            self.name_input = TextInput("Your name", "", 16, placeholder="type a name",
                                        on_change=self._typed)
            self.form.add(self.name_input)
        self.seat_buttons: list[tuple[int, Button]] = []
        for i in cpu_seats(session):
            label = ("Sit at " if hot else "Ask for ") + seat_words(session.seats[i])
            b = Button(label, partial(self.pick, i))
            self.seat_buttons.append((i, b))
            self.form.add(b)
        self.close_button = Button("Close", self.back)
        self.form.add(self.close_button)
        self.message = "" if self.seat_buttons else "No CPU seat is free to take."
        if self.name_input is not None:
            self.form.focus(self.name_input)

    def _typed(self, _text: str) -> None:
        self.message = ""

    def pick(self, seat: int) -> None:
        colour = theme.SEAT_COLOUR_NAMES[seat % 8]
        if self.hot:
            name = self.name_input.text.strip() if self.name_input is not None else ""
            if not name:
                self.message = "Type your name first."
                return
            r = self.session.take_seat(seat, name)
            if not r.ok:
                self.message = r.message
                return
            done = f"{name} takes {colour} at its next turn"
        else:
            r = self.session.ask_seat(seat)
            if not r.ok:
                self.message = r.message
                return
            done = f"Asked for {colour}: waiting for the host"
        if self.on_done is not None:
            self.on_done(done)
        if self.stage.top is self:
            self.stage.pop()

    def rows(self) -> list[Widget]:
        return [*([self.name_input] if self.name_input is not None else []),
                *[b for _, b in self.seat_buttons], self.close_button]


#: The turn clock's choices in ADMIN: seconds at normal speed (the table scales them by its
#: speed), or None: no clock.
TURN_CLOCKS: tuple[tuple[float | None, str], ...] = (
    (None, "Off"), (45.0, "45 s"), (90.0, "90 s"), (180.0, "3 min"), (300.0, "5 min"))


class AdminOverlay(PanelOverlay):
    """ADMIN (the host): the table speed, the turn clock, ending a pause, and for each other
    person: hand the seat to a CPU (they take it back by rejoining) or remove them (they may
    come back only to watch). On a LAN table, watchers too (``docs/seats.md``): Let people
    watch, Seat watchers by themselves, each request for a seat (Accept / Decline) and Show X
    out for each watcher; these rows follow the table while ADMIN is open."""

    name = "admin"
    title = "ADMIN"
    session: Session
    panel_width = 620
    min_row = 34
    reserve = 110

    def __init__(self, stage: Stage, session: Session) -> None:
        super().__init__(stage)
        self.session = session
        speeds = [(name, name.title()) for name in SPEEDS]
        self.speed = Choice("Table speed", speeds, session.public.get("speed", "normal"),
                            self._speed)
        self.form.add(self.speed)
        pub = session.public
        clocks = list(TURN_CLOCKS)
        now = pub.get("turn_clock", 90.0)
        if all(v != now for v, _ in clocks):
            clocks.append((now, f"{now:g} s"))
        self.turn_clock = Choice("Turn clock", clocks, now, self._turn_clock)
        self.form.add(self.turn_clock)
        self.end_pause = Button("End the pause: play on", self._end_pause)
        self.end_pause.visible = any(r.get("reason") in ("paused", "ready", "joining")
                                     for r in pub.get("pause") or [])
        self.form.add(self.end_pause)
        self.hand_buttons: list[tuple[int, Button]] = []
        for s in session.seats:
            if s["kind"] == "person" and not s.get("local") and s["seat"] not in \
                    session.tokens:
                seat = int(s["seat"])
                b = Button(f"Hand {s['name']} to a CPU", partial(self._hand, seat))
                self.hand_buttons.append((seat, b))
                self.form.add(b)
                r = Button(f"Remove {s['name']} from the table", partial(self._remove, seat))
                self.hand_buttons.append((seat, r))
                self.form.add(r)
        self.watch_toggles: list[Widget] = []
        if session.remote:
            self.allow = Toggle("Let people watch", bool(pub.get("allow_watchers", True)),
                                self._allow)
            self.auto = Toggle("Seat watchers by themselves", bool(pub.get("auto_seat")),
                               self._auto)
            self.watch_toggles = [self.allow, self.auto]
            for wd in self.watch_toggles:
                self.form.add(wd)
        #: The rows that follow the table: (what, seat or watcher number, button).
        self.watch_rows: list[tuple[str, int, Button]] = []
        self._rows_key: object = None
        self.close_button = Button("Close", self.back)
        self.form.add(self.close_button)
        self._sync_rows()

    # ------------------------------------------------------------------ watchers
    def _sync_rows(self) -> bool:
        """Rebuild the request and watcher rows when the table's asks or watchers changed;
        True when they did."""
        pub = self.session.public
        asks = [(int(a["seat"]), str(a["name"])) for a in pub.get("asks") or []
                if not a.get("accepted")]
        watchers = [(int(w["watcher"]), str(w["name"])) for w in self.session.watchers()]
        key = (tuple(asks), tuple(watchers))
        if key == self._rows_key:
            return False
        self._rows_key = key
        for _, _, b in self.watch_rows:
            b.visible = False
            if b in self.form.widgets:
                self.form.widgets.remove(b)
        self.watch_rows = []
        for seat, name in asks:
            colour = theme.SEAT_COLOUR_NAMES[seat % 8]
            self.watch_rows.append(("accept", seat, Button(f"Accept {name} for {colour}",
                                                           partial(self._accept, seat))))
            self.watch_rows.append(("decline", seat, Button(f"Decline {name}'s request",
                                                            partial(self._decline, seat))))
        for number, name in watchers:
            self.watch_rows.append(("out", number, Button(f"Show {name} out",
                                                          partial(self._show_out, number))))
        close = self.close_button in self.form.widgets
        if close:
            self.form.widgets.remove(self.close_button)
        for _, _, b in self.watch_rows:
            self.form.add(b)
        self.form.add(self.close_button)
        if self.box.w:
            self.relayout(self.size)
        return True

    def _allow(self, on: Any) -> None:
        r = self.session.allow_watchers(bool(on))
        self.message = ("People may watch." if on else "Nobody may watch now.") if r.ok \
            else r.message

    def _auto(self, on: Any) -> None:
        r = self.session.auto_seat(bool(on))
        self.message = ("A seat asked for is given at once." if on else
                        "You accept each request here.") if r.ok else r.message

    def _accept(self, seat: int) -> None:
        r = self.session.accept_seat(seat)
        colour = theme.SEAT_COLOUR_NAMES[seat % 8]
        self.message = f"{colour} changes hands at its next turn." if r.ok else r.message

    def _decline(self, seat: int) -> None:
        r = self.session.decline_seat(seat)
        self.message = "Declined: they go on watching." if r.ok else r.message

    def _show_out(self, number: int) -> None:
        r = self.session.remove_watcher(number)
        self.message = "Shown out: they may not watch again." if r.ok else r.message

    def update(self, dt: float) -> None:
        super().update(dt)
        if self._sync_rows():
            self.mark_dirty()

    def _speed(self, name: Any) -> None:
        r = self.session.set_speed(str(name))
        self.message = None if r.ok else r.message

    def _seat_name(self, seat: int) -> str:
        return str(self.session.seats[seat]["name"])

    def _done_with(self, seat: int) -> None:
        """The seat is a CPU's now: its buttons go."""
        for s, b in self.hand_buttons:
            if s == seat:
                b.visible = False
        self.hand_buttons = [(s, b) for s, b in self.hand_buttons if s != seat]
        self.relayout(self.size)

    def _hand(self, seat: int) -> None:
        name = self._seat_name(seat)
        r = self.session.hand_to_cpu(seat)
        if r.ok:
            self.message = f"A CPU plays {name}'s seat now; {name} takes it back by rejoining."
            self._done_with(seat)
        else:
            self.message = r.message

    def _remove(self, seat: int) -> None:
        name = self._seat_name(seat)
        r = self.session.remove(seat)
        if r.ok:
            self.message = f"{name} is off the table (a CPU plays the seat); they may come " \
                           f"back only to watch."
            self._done_with(seat)
        else:
            self.message = r.message

    def _turn_clock(self, seconds: Any) -> None:
        r = self.session.set_turn_clock(None if seconds is None else float(seconds))
        self.message = None if r.ok else r.message

    def _end_pause(self) -> None:
        r = self.session.end_pause()
        self.message = r.message
        if r.ok:
            self.end_pause.visible = False
            self.relayout(self.size)

    def rows(self) -> list[Widget]:
        return [self.speed, self.turn_clock, *([self.end_pause] if self.end_pause.visible
                                               else []),
                *[b for _, b in self.hand_buttons], *self.watch_toggles,
                *[b for _, _, b in self.watch_rows], self.close_button]
