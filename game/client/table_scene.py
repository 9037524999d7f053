"""The track game's table: the board, the hand, the pile, whose turn, the moves list, pause,
ADMIN, hot-seat cover, results; animations played from the table's events.

Controls (spec table.md section 7): pick a card (click, or keys 1-6), then a highlighted peg,
then a highlighted hole (each tagged with its count, +3 ahead, -6 back); by keyboard, Left /
Right move a cursor over the pegs, then over the holes, and Enter takes it. Choosing a hole short
of a 7 or 9 starts a split: the board then asks for the second peg and its remainder. The moves
list beside the board chooses a play by name, in words a person reads without hole numbers
(``Joker: a Red peg from start jumps onto Blue's back peg``, see :mod:`game.client.describe`;
click, or select and Enter). H asks for the hint: it is thought out in a worker (never in a
frame; "Hint: thinking..." meanwhile), then its card and peg are picked and the reason shown;
D discards the picked card (when discarding is the play), U undoes the choice in progress (in
solo with nothing chosen, it takes back the last turn), Esc clears the choice (with nothing
chosen it pauses). Nothing is sent to the table until a play is complete.

The model jumps to the newest view; the animation timeline plays the events on top of it at
the table speed and stops while the table is paused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.anim import (
    CardFlight,
    Group,
    PegFlight,
    PegWalk,
    TableClock,
    Timeline,
    Wait,
    sounded_wait,
)
from game.client.board import (
    BoardGeometry,
    BoardLook,
    BoardRenderer,
    Highlight,
    Hole,
    PegDraw,
    home,
    ring,
    start,
)
from game.client.describe import describe_play
from game.client.scene import Scene
from game.client.widgets import Button, Choice, ListBox
from game.rules.track import RULES as TRACK
from game.rules.track.engine import loc_event
from game.table import event_duration

if TYPE_CHECKING:
    from game.client.session import LocalSession
    from game.client.stage import Stage

COLOUR_LETTERS = "abcdefgh"
#: Table seconds a message (a refusal, a prompt) stays on screen; it also goes at the next play.
#: Hints stay while their position lasts; messages on the results screen stay.
MESSAGE_SECONDS = 4.0
#: Seconds after the hot-seat cover appears before it takes a tap-in (a double-click or a
#: double Enter that finished the turn before cannot uncover the next hand).
COVER_ARM_SECONDS = 0.4
#: The keys that tap in on the cover.
COVER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


def hole_of(colour: int, peg: int, loc: Any) -> Hole:
    """A view/event location (``"s"``, ring int, ``"h3"``) of peg ``peg`` of ``colour``."""
    if loc == "s":
        return start(colour, peg)
    if isinstance(loc, str) and loc.startswith("h"):
        return home(colour, int(loc[1:]))
    return ring(int(loc))


def describe_token(tok: str, view: dict[str, Any]) -> str:
    """A play token in words for the position of ``view`` (see :mod:`game.client.describe`):
    ``JK:as>36`` -> ``Joker: a Red peg from start jumps onto Blue's back peg``."""
    state = TRACK.determinize(view, 0)
    return describe_play(TRACK.parse_play(state, tok), view)


def seat_label(seat: dict[str, Any]) -> str:
    """A seat's name for people: the person's name, or ``Blue CPU`` (CPUs by colour)."""
    if seat["kind"] == "person":
        return str(seat["name"])
    return f"{theme.SEAT_COLOUR_NAMES[seat['seat'] % 8]} CPU"


def symbol_sprite(name: str | None) -> str | None:
    if name is None:
        return None
    return name if name in theme.SYMBOLS else "ring"


@dataclass
class Choice_:
    """The choice in progress: card index, then part 1 (peg, hole), then part 2."""

    card: int | None = None
    peg: tuple[int, Any] | None = None  # (colour, loc)
    first: tuple[tuple[int, Any], Any] | None = None  # ((colour, from), to) of part 1
    peg2: tuple[int, Any] | None = None
    plays: list[Any] = field(default_factory=list)  # plays still possible


def part_info(p: Any, k: int) -> tuple[str, int, Any, Any, int]:
    kind, pid, frm, to, n = p.parts[k]
    return kind, pid, loc_event(frm), loc_event(to), n


def part_tag(kind: str, n: int) -> str:
    return {"f": f"+{n}", "b": f"-{n}", "o": "out", "j": "jump", "t": "swap",
            "x": "discard"}.get(kind, "")


class TrackTableScene(Scene):
    name = "track_table"

    def __init__(self, stage: Stage, session: LocalSession) -> None:
        super().__init__(stage)
        self.session = session
        self.renderer = BoardRenderer(stage.assets)
        self.clock = TableClock()
        self.timeline = Timeline(backlog=2)
        self.t = 0.0
        self.choice = Choice_()
        self.kb_index = 0
        self._covered = False
        self._cover_since = 0.0
        self._cover_press: str | int | None = None  # the gesture begun on the cover
        self._keys_down: set[int] = set()
        self._message: str | None = None
        self._message_at = 0.0
        self._message_state = -1
        self.hint: str | None = None
        self.hint_reason: str | None = None
        self._hint_job: tuple[int, Any] | None = None
        self.legal: list[Any] = []
        self._legal_key: tuple | None = None
        self.recorded = False
        self.new_best = False
        self.geom: BoardGeometry | None = None
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.hand_rect = pygame.Rect(0, 0, 0, 0)
        self.card_rects: list[pygame.Rect] = []
        self.pile_pos = (0.0, 0.0)
        self.plate_rects: list[pygame.Rect] = []
        self.moves = ListBox([], on_select=self._move_chosen)
        self.pause_button = Button("Pause", self.pause, hotkey=pygame.K_p)
        self.admin_button = Button("ADMIN", self.admin)
        self.ready_button = Button("Ready", self.ready)
        self.leave_button = Button("Leave table", self.leave_table)
        self.done_button = Button("Back to title", self.leave_table)
        for w in (self.moves, self.pause_button, self.admin_button, self.ready_button,
                  self.leave_button, self.done_button):
            self.form.add(w)
        self.form.focus(None)
        # Enter / Space belong to the board unless the keyboard itself moved to a button
        self.form.click_focuses_buttons = False
        seat = session.screen_seat()
        self.my_side = 0
        if seat is not None:
            from game.rules.track.board import Board

            self.my_side = Board(len(session.seats)).side_of(seat)
        if seat is not None:
            stage.hints().warm()  # start the hint worker now, not on the first H
        # the opening deal
        self.timeline.push(Wait(0.4))
        self.timeline.queue[-1].cue(0.0, "deal")

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        super().enter()
        if isinstance(self.form.focused, Button):  # back from ADMIN: the keys go to the board
            self.form.focus(None)

    def background(self, dt: float) -> None:
        """Under ADMIN (or any overlay): the table keeps up, animations included."""
        self.update(dt)

    # ------------------------------------------------------------------ layout
    def layout(self, w: int, h: int) -> None:
        m = self.px(8)
        side = min(h - 2 * m, w - max(self.px(330), int(w * 0.36)))
        self.board_rect = pygame.Rect(m, (h - side) // 2, side, side)
        n = len(self.session.seats)
        self.geom = BoardGeometry(n, self.board_rect, bottom_side=self.my_side)
        px = self.board_rect.right + self.px(14)
        self.panel = pygame.Rect(px, m, w - px - m, h - 2 * m)
        p = self.panel
        bh = self.px(40)
        self.pause_button.rect = pygame.Rect(p.right - self.px(130), p.y, self.px(130), bh)
        self.admin_button.rect = pygame.Rect(p.right - self.px(270), p.y, self.px(130), bh)
        # hand at the bottom
        card_w = min(self.px(96), (p.w - self.px(10)) // 6 - self.px(6))
        card_h = int(card_w * 1.4)
        self.hand_rect = pygame.Rect(p.x, p.bottom - card_h - self.px(10), p.w,
                                     card_h + self.px(10))
        # seat plates under the banner, the speed line and the message line; two columns
        # when there are many seats
        top = p.y + bh + self.px(94)
        cols = 1 if n <= 4 else 2
        rows = (n + cols - 1) // cols
        ph = min(self.px(36), max(self.px(24), (p.h // 3) // max(1, rows)))
        pw = p.w // cols
        self.plate_rects = []
        for i in range(n):
            r, c = i % rows, i // rows
            self.plate_rects.append(pygame.Rect(p.x + c * pw, top + r * ph, pw - self.px(6),
                                                ph - self.px(4)))
        mtop = top + rows * ph + self.px(8)
        self.moves.row_h = max(self.px(24), 18)
        self.moves.rect = pygame.Rect(p.x, mtop, p.w, max(40, self.hand_rect.y - mtop - self.px(8)))
        cw = card_w + self.px(6)
        x0 = p.x + (p.w - 6 * cw) // 2
        self.card_rects = [pygame.Rect(x0 + i * cw, self.hand_rect.y + self.px(8), card_w,
                                       card_h) for i in range(6)]
        self.pile_pos = (self.geom.center[0], self.geom.center[1])
        bw = self.px(260)
        cx, cy = w // 2, h // 2
        self.ready_button.rect = pygame.Rect(cx - bw // 2, cy + self.px(20), bw, self.px(58))
        self.leave_button.rect = pygame.Rect(cx - bw // 2, cy + self.px(90), bw, self.px(58))
        self.done_button.rect = pygame.Rect(cx - bw // 2, cy + self.px(150), bw, self.px(58))

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
        return self.session.public

    def view(self) -> dict[str, Any]:
        return self.session.view()

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
        seat = self.session.screen_seat()
        v = self.view()
        return (seat is not None and seat in self.session.tokens and v.get("turn") == seat
                and self.public["phase"] == "playing" and not self.paused()
                and not self.public.get("cover"))

    def legal_plays(self) -> list[Any]:
        """Legal plays of this screen's seat, from its own view (cached per state)."""
        if not self.my_turn():
            if self.moves.rows:
                self.moves.rows = []
                self.legal = []
                self._legal_key = None
            return []
        v = self.view()
        key = (v.get("seat"), v.get("position"), self.public["state_no"])
        if key != self._legal_key:
            state = TRACK.determinize(v, 0)
            self.legal = TRACK.legal_plays(state)
            self._legal_key = key
            self.moves.rows = [[self.describe(p)] for p in self.legal]
            self.moves.selected = 0 if self.legal else -1
            self.moves.top = 0
        return self.legal

    def describe(self, p: Any) -> str:
        """A play for people: ``7: Red's front peg +3, then Blue's peg +4``."""
        return describe_play(p, self.view())

    def pegs(self) -> list[PegDraw]:
        out = []
        for c, locs in enumerate(self.view()["pegs"]):
            for i, loc in enumerate(locs):
                out.append(PegDraw(c, i, hole_of(c, i, loc)))
        return out

    def look(self) -> BoardLook:
        teams = self.public["config"].get("mode") == "teams"
        seats = self.public["seats"]
        return BoardLook(list(range(len(seats))),
                         [symbol_sprite(s.get("symbol")) if teams else None for s in seats],
                         [s["name"] for s in seats])

    @property
    def reduced(self) -> bool:
        """The local animation preference: ``reduced`` keeps motion plain (no hops, no spin);
        the timing is the table speed either way."""
        return self.stage.settings.animation == "reduced"

    # ------------------------------------------------------------------ events -> animations
    def seat_anchor(self, seat: int) -> tuple[float, float]:
        """Where a seat's cards come from: its hand (this screen's seat) or its side."""
        if seat == self.session.screen_seat() and self.card_rects:
            return self.card_rects[2].center
        g = self.geom
        assert g is not None
        side = g.board.side_of(seat)
        return g.local(side, 13, 3.5)

    def animate(self, events: list[dict[str, Any]]) -> None:
        g = self.geom
        assert g is not None
        speed = self.public.get("speed", "normal")
        cw = self.card_rects[0].w if self.card_rects else 60
        for ev in events:
            t = ev.get("type")
            dur = max(0.05, event_duration(ev, speed))
            if t == "move":
                c, i = ev["colour"], ev["peg"]
                a = hole_of(c, i, ev["from"])
                if ev.get("jump"):
                    self.timeline.push(PegFlight((c, i), g.point(a),
                                                 g.point(hole_of(c, i, ev["to"])), dur, "play"))
                    continue
                path = [g.point(a)] + [g.point(hole_of(c, i, x)) for x in ev.get("path", [])]
                self.timeline.push(PegWalk((c, i), path, dur / max(1, len(path) - 1),
                                           hop=0.0 if self.reduced else 0.25))
            elif t == "come_out":
                c, i = ev["colour"], ev["peg"]
                self.timeline.push(PegFlight((c, i), g.point(start(c, i)),
                                             g.point(hole_of(c, i, ev["to"])), dur, "step"))
            elif t == "bump":
                c, i = ev["colour"], ev["peg"]
                self.timeline.push(PegFlight((c, i), g.point(hole_of(c, i, ev["from"])),
                                             g.point(hole_of(c, i, ev["to"])), dur, "bump"))
            elif t == "trade":
                c, i = ev["colour"], ev["peg"]
                oc, oi = ev["other_colour"], ev["other_peg"]
                pa, pb = g.point(ring(ev["from"])), g.point(ring(ev["to"]))
                self.timeline.push(Group([PegFlight((c, i), pa, pb, dur, "play"),
                                          PegFlight((oc, oi), pb, pa, dur, None)]))
            elif t == "home":
                self.timeline.push(sounded_wait(dur, "home"))
            elif t in ("play", "discard"):
                card = ev.get("card")
                if t == "play" and ev.get("token", "").endswith(":x"):
                    continue  # the discard event that follows flies the card
                sprite = theme.card_sprite(card) if isinstance(card, int) else "card_back"
                self.timeline.push(CardFlight(sprite, self.seat_anchor(ev["seat"]),
                                              self.pile_pos, cw * 0.8, cw, dur,
                                              0.0 if self.reduced else 20.0, "play"))
            elif t == "draw":
                self.timeline.push(CardFlight("card_back", self.pile_pos,
                                              self.seat_anchor(ev["seat"]), cw, cw * 0.8,
                                              dur, -10.0, None))
            elif t == "deal":
                # a card back flies to every seat that was dealt cards
                seats = [i for i, n in enumerate(ev.get("counts", [])) if n]
                flights: list[Any] = [
                    CardFlight("card_back", self.pile_pos, self.seat_anchor(i), cw * 0.8,
                               cw * 0.6, min(dur, 1.2), 0.0 if self.reduced else 30.0, None)
                    for i in seats]
                group = Group(flights) if flights else Wait(min(dur, 1.2))
                group.cue(0.0, "deal")
                self.timeline.push(group)
            elif t == "reshuffle":
                # the discards fly back onto the draw pile
                a, b = (self.pile_pos[0] + cw * 1.2, self.pile_pos[1]), self.pile_pos
                flights = [CardFlight("card_back", (a[0], a[1] + k * 4), b, cw, cw,
                                      min(dur, 1.0) * (0.5 + 0.1 * k), 0.0, None)
                           for k in range(5)]
                group = Group(flights)
                group.cue(0.0, "shuffle")
                self.timeline.push(group)
            elif t == "fold":
                self.timeline.push(sounded_wait(min(dur, 1.2), "click"))
            elif t == "game_over":
                self.timeline.push(sounded_wait(dur, "win"))

    # ------------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        self.t += dt
        self._watch_cover()
        before = self.public["state_no"]
        for msg in self.session.poll():
            if msg.get("type") == "play":
                self.animate(msg.get("events", []))
                if self.choice.card is not None:
                    self.clear_choice()
            elif msg.get("type") == "reset":
                self.timeline.finish()
                self.clear_choice()
        if self.public["state_no"] != before:
            self.cancel_hint()
        self.poll_hint()
        self.expire_message()
        self.clock.paused = self.paused()
        for name in self.timeline.update(self.clock.tick(dt)):
            self.stage.sound(name)
        over = self.public["phase"] == "over"
        if over and self.timeline.idle and not self.recorded:
            self.record()
        show = self.show_pause()
        self.ready_button.visible = show and self.i_must_ready()
        self.leave_button.visible = show
        self.done_button.visible = over and self.timeline.idle
        self.pause_button.visible = not over
        self.admin_button.visible = self.session.is_host and not over
        self.legal_plays()

    def record(self) -> None:
        self.recorded = True
        res = self.session.result()
        if not res:
            return
        try:
            if res.get("solo"):
                self.new_best = self.stage.store.record_solo(res["rules"], int(res["turns"]),
                                                           int(res["seed"]))
            elif res.get("people"):
                self.stage.store.record_game(res)
        except Exception as e:  # records problems are shown, never fatal
            self.message = f"Could not save the records: {e}"

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
        self.session.close()
        self.stage.back_to("title")

    def clear_choice(self) -> None:
        self.choice = Choice_()
        self.kb_index = 0

    def submit(self, play: Any) -> None:
        seat = self.session.screen_seat()
        if seat is None:
            return
        r = self.session.play(seat, str(play))
        self.message = None if r.ok else r.message
        self.clear_choice()
        self.cancel_hint()

    def _move_chosen(self, i: int) -> None:
        legal = self.legal_plays()
        if 0 <= i < len(legal):
            self.submit(legal[i])

    def pick_card(self, i: int) -> None:
        hand = self.view().get("hand", [])
        if not (0 <= i < len(hand)) or not self.my_turn():
            return
        rank = hand[i] >> 2
        plays = [p for p in self.legal_plays() if p.rank == rank]
        self.choice = Choice_(card=i, plays=plays)
        self.message = None if plays else "That card cannot move a peg now."
        self.stage.sound("click")

    def _first_parts(self) -> list[Any]:
        return [p for p in self.choice.plays if p.parts[0][0] != "x"]

    def movable_pegs(self) -> set[tuple[int, Any]]:
        ch = self.choice
        if ch.card is None:
            return set()
        if ch.first is None:
            return {(part_info(p, 0)[1] // 5, part_info(p, 0)[2]) for p in self._first_parts()}
        return {(part_info(p, 1)[1] // 5, part_info(p, 1)[2]) for p in self.split_plays()}

    def split_plays(self) -> list[Any]:
        ch = self.choice
        if ch.first is None:
            return []
        (peg, to) = ch.first
        return [p for p in self.choice.plays if len(p.parts) > 1 and
                (part_info(p, 0)[1] // 5, part_info(p, 0)[2]) == peg and
                part_info(p, 0)[3] == to]

    def targets(self) -> list[tuple[Hole, str, Any]]:
        """Highlighted holes now: (hole, tag, the plays it stands for)."""
        ch = self.choice
        out: dict[Hole, tuple[str, list[Any]]] = {}
        if ch.card is None:
            return []
        if ch.first is None and ch.peg is not None:
            parts, i, peg = self._first_parts(), 0, ch.peg
        elif ch.first is not None and ch.peg2 is not None:
            parts, i, peg = self.split_plays(), 1, ch.peg2
        else:
            parts, i, peg = [], 0, None
        # each play's part ``i`` that moves ``peg``: grouped by the hole it lands in
        for p in parts:
            kind, pid, frm, to, n = part_info(p, i)
            if (pid // 5, frm) != peg:
                continue
            h = hole_of(pid // 5, pid % 5, to)
            out.setdefault(h, (part_tag(kind, n), []))[1].append(p)

        def order(item: tuple[Hole, tuple[str, list[Any]]]) -> tuple[int, str]:
            tag = item[1][0]
            return (int(tag) if tag[1:].isdigit() else 0, str(item[0]))

        return [(h, tag, plays) for h, (tag, plays) in sorted(out.items(), key=order)]

    def click_board(self, pos: tuple[int, int]) -> None:
        g = self.geom
        if g is None or self.choice.card is None:
            return
        # a highlighted hole first
        targets = self.targets()
        hit = g.hit_test(pos, [h for h, _, _ in targets])
        if hit is not None:
            plays = next(ps for h, _, ps in targets if h == hit)
            if self.choice.first is None:
                whole = [p for p in plays if len(p.parts) == 1]
                if whole:
                    self.submit(whole[0])
                    return
                p0 = plays[0]
                _, pid, frm, to, _ = part_info(p0, 0)
                self.choice.first = ((pid // 5, frm), to)
                self.message = "Split: now pick the second peg and its remainder."
                self.stage.sound("click")
                seconds = {(part_info(p, 1)[1] // 5, part_info(p, 1)[2])
                           for p in self.split_plays()}
                if len(seconds) == 1:
                    self.choice.peg2 = next(iter(seconds))
                return
            self.submit(plays[0])
            return
        # else a movable peg
        movable = self.movable_pegs()
        peg_here = self.peg_at(pos)
        if peg_here is not None and peg_here in movable:
            if self.choice.first is None:
                self.choice.peg = peg_here
            else:
                self.choice.peg2 = peg_here
            self.stage.sound("click")

    def peg_at(self, pos: tuple[int, int]) -> tuple[int, Any] | None:
        g = self.geom
        assert g is not None
        pegs = self.pegs()
        hit = g.hit_test(pos, [p.hole for p in pegs], slack=1.7)
        if hit is None:
            return None
        for p in pegs:
            if p.hole == hit:
                loc = self.view()["pegs"][p.seat][p.peg]
                return (p.seat, loc)
        return None

    def keyboard_options(self) -> list[tuple[str, Any]]:
        """What Left / Right cycle through now: the highlighted holes once a peg is chosen,
        else the movable pegs."""
        targets = self.targets()
        if targets:
            return [("hole", h) for h, _, _ in targets]
        return [("peg", p) for p in sorted(self.movable_pegs(), key=str)]

    def keyboard_step(self, k: int) -> None:
        """Left / Right move the keyboard cursor, Enter / Space take what it is on."""
        options = self.keyboard_options()
        if not options:
            return
        if k in (pygame.K_LEFT, pygame.K_RIGHT):
            self.kb_index = (self.kb_index + (1 if k == pygame.K_RIGHT else -1)) % len(options)
            self.stage.sound("click")
            return
        kind, what = options[self.kb_index % len(options)]
        self.kb_index = 0
        g = self.geom
        assert g is not None
        if kind == "hole":
            x, y = g.point(what)
            self.click_board((round(x), round(y)))
        elif self.choice.first is None:
            self.choice.peg = what
        else:
            self.choice.peg2 = what

    def keyboard_cursor(self) -> Hole | None:
        options = self.keyboard_options()
        if not options or self.choice.card is None:
            return None
        kind, what = options[self.kb_index % len(options)]
        if kind == "hole":
            return what
        colour, loc = what
        for p in self.pegs():
            if p.seat == colour and self.view()["pegs"][p.seat][p.peg] == loc:
                return p.hole
        return None

    def undo_choice(self) -> None:
        ch = self.choice
        if ch.peg2 is not None:
            ch.peg2 = None
        elif ch.first is not None:
            ch.first = None
        elif ch.peg is not None:
            ch.peg = None
        elif ch.card is not None:
            self.clear_choice()
        elif self.public["config"].get("mode") == "solo":
            r = self.session.undo()
            self.message = r.message
            self.timeline.finish()
        self.stage.sound("click")

    def discard(self) -> None:
        ch = self.choice
        if ch.card is None:
            self.message = "Pick the card to discard first (keys 1-6)."
            return
        d = [p for p in ch.plays if p.parts[0][0] == "x"]
        if d:
            self.submit(d[0])
        else:
            self.message = "You can only discard when no card can move a peg."

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

    def apply_hint(self, tok: str, reason: str) -> None:
        """Show the hint: pick its card and peg on the board, say what and why."""
        legal = self.legal_plays()
        p = next((p for p in legal if str(p) == tok), None)
        if p is None:
            self.message = None
            return
        hand = self.view().get("hand", [])
        idx = next((i for i, c in enumerate(hand) if c >> 2 == p.rank), None)
        if idx is not None:
            self.pick_card(idx)
            if p.parts[0][0] != "x":
                _, pid, frm, _, _ = part_info(p, 0)
                self.choice.peg = (pid // 5, frm)
        self.hint = tok
        self.hint_reason = reason or None
        self.message = f"Hint: {self.describe(p)}"

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

    def handle(self, ev: pygame.event.Event) -> None:
        fresh = self._key_fresh(ev)
        if self._watch_cover() and self.handle_cover(ev, fresh):
            return
        if self.form.handle(ev):
            return
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            if not self.form.released_here(ev):
                return  # a release whose press began elsewhere (or on a widget) does nothing
            for i, r in enumerate(self.card_rects):
                if r.collidepoint(ev.pos):
                    self.pick_card(i)
                    return
            if self.board_rect.collidepoint(ev.pos):
                self.click_board(ev.pos)
            return
        if ev.type != pygame.KEYDOWN:
            return
        k = ev.key
        if self.choice.card is not None and k in (pygame.K_LEFT, pygame.K_RIGHT,
                                                  pygame.K_RETURN, pygame.K_SPACE,
                                                  pygame.K_KP_ENTER):
            self.keyboard_step(k)
            return
        if pygame.K_1 <= k <= pygame.K_6:
            self.pick_card(k - pygame.K_1)
        elif k == pygame.K_h:
            self.show_hint()
        elif k == pygame.K_d:
            self.discard()
        elif k == pygame.K_u:
            self.undo_choice()
        elif k == pygame.K_ESCAPE:
            if self.choice.card is not None:
                self.clear_choice()
            elif self.public["phase"] == "over":
                self.leave_table()
            elif not self.paused():
                self.pause()
        elif k == pygame.K_TAB:
            self.form.focus(self.moves)

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface) -> None:
        self.draw_background(surf)
        g = self.geom
        assert g is not None
        a = self.stage.assets
        where, lift = self.timeline.pegs()
        highlights = [Highlight(h, tag) for h, tag, _ in self.targets()]
        sel = None
        ch = self.choice
        movable_keys: list[tuple[int, int]] = []
        pegs = self.pegs()
        want = self.movable_pegs()
        chosen = ch.peg2 if ch.first is not None else ch.peg
        for p in pegs:
            loc = self.view()["pegs"][p.seat][p.peg]
            if (p.seat, loc) == chosen and sel is None:
                sel = (p.seat, p.peg)
            elif (p.seat, loc) in want:
                movable_keys.append((p.seat, p.peg))
        self.renderer.draw(surf, g, self.look(), pegs, where, highlights, sel, movable_keys,
                           self.t, lift)
        cursor = self.keyboard_cursor()
        if cursor is not None:
            cx, cy = g.point(cursor)
            pygame.draw.circle(surf, theme.ACCENT2, (round(cx), round(cy)),
                               int(g.peg_r * 1.9), max(2, int(g.u * 0.12)))
        self.draw_pile(surf)
        for c in self.timeline.cards():
            w = max(8, int(c.width))
            img = a.scaled(c.sprite, (w, int(w * 1.4)))
            if c.angle:
                img = pygame.transform.rotate(img, c.angle)
            surf.blit(img, img.get_rect(center=(round(c.pos[0]), round(c.pos[1]))))
        self.draw_panel(surf)
        self.draw_hand(surf)
        self.form.draw(surf, a)
        self.draw_hint_reason(surf, self.moves.rect)
        if self.show_pause():
            self.draw_pause(surf)
        if self.public["phase"] == "over" and self.timeline.idle:
            self.draw_results(surf)

    def draw_pile(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        g = self.geom
        assert g is not None
        v = self.view()
        cw = max(24, int(g.u * 2.6))
        ch = int(cw * 1.4)
        cx, cy = self.pile_pos
        if v.get("pile", 0) > 0:
            back = a.scaled("card_back", (cw, ch))
            surf.blit(back, back.get_rect(center=(round(cx - cw * 0.6), round(cy))))
            n = a.text(str(v["pile"]), max(14, cw // 3), theme.TEXT)
            surf.blit(n, n.get_rect(midtop=(round(cx - cw * 0.6), round(cy + ch / 2 + 4))))
        discards = v.get("discards") or []
        if discards:
            top = a.scaled(theme.card_sprite(discards[-1]), (cw, ch))
            surf.blit(top, top.get_rect(center=(round(cx + cw * 0.6), round(cy))))

    def draw_panel(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        p = self.panel
        pub = self.public
        seats = pub["seats"]
        turn = self.view().get("turn")
        # banner: whose turn
        if pub["phase"] == "over":
            banner, col = "Game over", theme.ACCENT
        elif turn is None:
            banner, col = "", theme.TEXT
        else:
            who = seats[turn]
            mine = turn in self.session.tokens
            banner = "Your turn" if mine and len(self.session.tokens) == 1 else \
                f"{seat_label(who)}'s turn"
            col = theme.seat_colour(turn)
        t = a.fit_text(banner, self.px(34), col, p.w)
        surf.blit(t, (p.x, self.pause_button.rect.bottom + self.px(4)))
        info = []
        if pub["config"].get("mode") == "solo":
            info.append(f"Turn {pub.get('turns', 0) + 1}")
        info.append(f"Speed: {pub.get('speed', '')}")
        it = a.fit_text("   ".join(info), self.px(20), theme.TEXT_DIM, p.w)
        surf.blit(it, (p.x, self.pause_button.rect.bottom + self.px(40)))
        # the message (or the connection note) has its own line: the speed stays in view
        status = self.message or self.connection_note()
        if status:
            st = a.fit_text(status, self.px(20), theme.ACCENT2, p.w)
            surf.blit(st, (p.x, self.pause_button.rect.bottom + self.px(63)))
        counts = self.view().get("hand_counts", [])
        for i, r in enumerate(self.plate_rects):
            s = seats[i]
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
            surf.blit(a.scaled(f"peg_{i % 8}", (d, d)), (r.x + 4, r.y + 3))
            sym = self.look().symbols[i]
            if sym:
                surf.blit(a.scaled(f"sym_{sym}", (d // 2, d // 2)), (r.x + 4 + d // 4,
                                                                     r.y + 3 + d // 4))
            name = seat_label(s)
            if s["kind"] == "cpu" and r.w > self.px(330):
                name += f" ({s['level'].capitalize()})"
            if s.get("standin"):
                name += " (CPU stand-in)"
            nc = theme.BAD if glow == theme.BAD else theme.TEXT
            nt = a.fit_text(name, max(13, int(r.h * 0.62)), nc,
                            r.w - d - a.font(max(12, int(r.h * 0.5))).size("0 cards")[0] - 16)
            surf.blit(nt, nt.get_rect(midleft=(r.x + d + 10, r.centery)))
            if i < len(counts):
                ct = a.text(f"{counts[i]} cards", max(12, int(r.h * 0.5)), theme.TEXT_DIM)
                surf.blit(ct, ct.get_rect(midright=(r.right - 6, r.centery)))
        if self.moves.rows:
            lab = a.text("Moves (click one, or Tab then Enter)", self.px(18), theme.TEXT_DIM)
            surf.blit(lab, (self.moves.rect.x, self.moves.rect.y - lab.get_height() - 1))

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
        status = getattr(self.session, "status", "connected")
        if not getattr(self.session, "remote", False) or status == "connected":
            return None
        if status == "failed":
            return ("Lost the host. When its table is back, join again (or reopen the "
                    "program): you get your own seat back.")
        return f"Connection: {status} - the game goes on; you catch up when it is back"

    def empty_hand_note(self, hand: list[int]) -> str | None:
        """What an empty hand means, so a folded seat is not left wondering (tees deals in
        rounds: a seat whose cards are played, or folded because none could move, waits)."""
        v = self.view()
        if hand or v.get("seat") is None or self.public["phase"] != "playing":
            return None
        if v.get("outcome") is not None or v.get("config", {}).get("rules") != "tees":
            return None
        return "No cards in hand: you sit out until the next deal."

    def draw_hand(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        hand = self.view().get("hand", [])
        if self.public.get("cover"):
            r = self.hand_rect
            surf.blit(a.nine_slice("panel", r.size, 14), r)
            owner = self.public.get("screen_owner")
            name = self.public["seats"][owner]["name"] if owner is not None else ""
            t = a.fit_text(f"{name}: tap here to show your hand", self.px(28), theme.ACCENT,
                           r.w - 20)
            surf.blit(t, t.get_rect(center=r.center))
            return
        note = self.empty_hand_note(hand)
        if note:
            r = self.hand_rect
            t = a.fit_text(note, self.px(22), theme.TEXT_DIM, r.w - 20)
            surf.blit(t, t.get_rect(center=r.center))
        legal_ranks = {p.rank for p in self.legal} if self.my_turn() else set()
        for i, card in enumerate(hand[:6]):
            r = self.card_rects[i].copy()
            playable = (card >> 2) in legal_ranks
            if i == self.choice.card:
                r.y -= self.px(14)
            img = a.scaled(theme.card_sprite(card), r.size)
            surf.blit(img, r)
            if i == self.choice.card:
                pygame.draw.rect(surf, theme.FOCUS, r.inflate(6, 6), 3, border_radius=8)
            elif playable:
                pygame.draw.rect(surf, theme.ACCENT, r.inflate(4, 4), 2, border_radius=8)
            k = a.text(str(i + 1), self.px(18), theme.TEXT_DIM)
            surf.blit(k, k.get_rect(midtop=(r.centerx, r.bottom + 1)))

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
        for b in (self.ready_button, self.leave_button):
            b.draw(surf, a)

    def draw_results(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        self._dim(surf)
        w, h = surf.get_size()
        pub = self.public
        out = pub.get("outcome") or {}
        winners = out.get("winners", [])
        names = [seat_label(pub["seats"][i]) for i in winners]
        if pub["config"].get("mode") == "solo":
            title = f"All home in {pub.get('turns', 0)} turns!"
            sub = "A new best!" if self.new_best else "Try the same seat again from Solo."
        else:
            title = " and ".join(names) + (" win!" if len(names) > 1 else " wins!")
            pts = pub.get("points", {})
            sub = ", ".join(f"{pub['seats'][int(k)]['name']} +{v} points"
                            for k, v in pts.items()) or "No points this time."
        box = pygame.Rect(0, 0, min(int(w * 0.94), self.px(820)), self.px(340))
        box.center = (w // 2, h // 2 + self.px(20))
        surf.blit(a.nine_slice("panel", box.size, 14), box)
        t = a.fit_text(title, self.px(56), theme.ACCENT, box.w - 24)
        surf.blit(t, t.get_rect(center=(w // 2, h // 2 - self.px(80))))
        s = a.fit_text(sub, self.px(30), theme.TEXT, box.w - 24)
        surf.blit(s, s.get_rect(center=(w // 2, h // 2 - self.px(20))))
        if self.message:
            m = a.fit_text(self.message, self.px(22), theme.BAD, int(w * 0.9))
            surf.blit(m, m.get_rect(center=(w // 2, h // 2 + self.px(20))))
        self.done_button.draw(surf, a)


class AdminOverlay(Scene):
    """ADMIN (the host): the table speed, and handing a missing person's seat to a CPU."""

    overlay = True
    name = "admin"

    def __init__(self, stage: Stage, session: LocalSession) -> None:
        super().__init__(stage)
        self.session = session
        speeds = [("relaxed", "Relaxed"), ("normal", "Normal"), ("brisk", "Brisk"),
                  ("blitz", "Blitz")]
        self.speed = Choice("Table speed", speeds, session.public.get("speed", "normal"),
                            self._speed)
        self.form.add(self.speed)
        self.hand_buttons: list[tuple[int, Button]] = []
        for s in session.seats:
            if s["kind"] == "person" and not s.get("local") and s["seat"] not in \
                    session.tokens:
                b = Button(f"Hand {s['name']} to a CPU", lambda i=s["seat"]: self._hand(i))
                self.hand_buttons.append((s["seat"], b))
                self.form.add(b)
        self.close_button = Button("Close", self.back)
        self.form.add(self.close_button)
        self.message: str | None = None
        self.box = pygame.Rect(0, 0, 0, 0)

    def _speed(self, name: Any) -> None:
        r = self.session.set_speed(str(name))
        self.message = None if r.ok else r.message

    def _hand(self, seat: int) -> None:
        r = self.session.hand_to_cpu(seat)
        self.message = r.message

    def layout(self, w: int, h: int) -> None:
        bw = min(self.px(620), int(w * 0.9))
        n = 2 + len(self.hand_buttons)
        bh = self.px(90) + n * self.px(62)
        self.box = pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)
        y = self.box.y + self.px(70)
        for wd in [self.speed, *[b for _, b in self.hand_buttons], self.close_button]:
            wd.rect = pygame.Rect(self.box.x + self.px(20), y, bw - self.px(40), self.px(50))
            y += self.px(62)

    def draw(self, surf: pygame.Surface) -> None:
        a = self.stage.assets
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surf.blit(shade, (0, 0))
        surf.blit(a.nine_slice("panel", self.box.size, 14), self.box)
        t = a.text("ADMIN", self.px(40), theme.ACCENT)
        surf.blit(t, t.get_rect(midtop=(self.box.centerx, self.box.y + self.px(14))))
        self.form.draw(surf, a)
        if self.message:
            m = a.fit_text(self.message, self.px(20), theme.ACCENT2, self.box.w - 20)
            surf.blit(m, m.get_rect(midtop=(self.box.centerx, self.box.bottom + 6)))
