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

The scene is built in layers, one module each: :mod:`game.client.table_core` (the shown
state, messages, clocks, plates), :mod:`game.client.table_end` (the end panel, records),
:mod:`game.client.table_seats` (pause, cover, watchers, the info and status lines) and this
module's :class:`TableScene` (the per-frame loop, the messages' staging, hints, L and F,
input); the panels over the table are :mod:`game.client.table_overlays`. Every name the
scenes and tests import from here stays importable here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.client.anim import Anim, Wait
from game.client.movelog import LogEntry
from game.client.table_core import (  # noqa: F401 (re-exported: the table's names)
    COVER_ARM_SECONDS,
    COVER_KEYS,
    HURRY_RATE,
    MESSAGE_SECONDS,
    PULSE_FPS,
    SHOWN_FIELDS,
    TableCore,
    seat_label,
    symbol_sprite,
)
from game.client.table_end import TableEnd  # noqa: F401 (re-exported)
from game.client.table_overlays import (  # noqa: F401 (re-exported)
    PANEL_FOOT,
    PANEL_MESSAGE,
    PANEL_TOP,
    TURN_CLOCKS,
    AdminOverlay,
    PanelOverlay,
    SeatPickOverlay,
    stack_in_panel,
)
from game.client.table_seats import TableSeats

if TYPE_CHECKING:
    from game.table.messages import TableMessage  # the typed protocol both sessions implement


class TableScene(TableSeats):
    """A table on screen: the session, the timeline, the overlays and the cover."""

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
