"""The track game's table: the board, the hand, the pile, whose turn, the moves list; the
table's events as peg and card animations. What every table shares (the session, the
timeline, messages, hints, pause, results, ADMIN, the hot-seat cover) is
:class:`game.client.table_base.TableScene`.

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

The move log above the moves list tells every play and what it caused (the wheel over it,
PgUp / PgDn, Home / End scroll it); the last move's trail is drawn on the board; L shows the
last turn again; F (or Space with nothing chosen, or a click on the board) hurries the
animations on this screen.

This file is over 600 lines because the track table's events-to-animations, choice, input
and drawing belong together; the choice logic itself lives in :mod:`game.client.choice`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import pygame

from game.client import theme
from game.client.anim import (
    Anim,
    CardFlight,
    Group,
    PegFlight,
    PegWalk,
    Serial,
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
    hole_of,
    ring,
    start,
)
from game.client.choice import TrackChoice, is_discard, part, part_tag  # noqa: F401
from game.client.describe import (  # noqa: F401 (re-export)
    describe_play,
    describe_token,
    tell_track,
    why_card_cannot,
    why_no_discard,
)
from game.client.movelog import LogEntry, draw_log
from game.client.table_base import (  # noqa: F401 (re-exported: the table's old names)
    COVER_ARM_SECONDS,
    MESSAGE_SECONDS,
    AdminOverlay,
    TableScene,
    seat_label,
    symbol_sprite,
)
from game.client.widgets import ListBox, Widget
from game.rules.track import RULES as TRACK
from game.rules.track.board import Board
from game.table import event_duration

#: The timeline's peg keys are (colour, peg): where pegs are drawn and how high they are lifted.
PegPlaces = dict[tuple[int, int], tuple[float, float]]
PegLifts = dict[tuple[int, int], float]

if TYPE_CHECKING:
    from game.client.session import Session  # the typed protocol both sessions implement
    from game.client.stage import Stage

#: From this many seats the board's holes are small: a chosen peg gets an enlarged view.
LENS_SEATS = 6
#: The enlarged view's radius (a share of the board's side) and its largest magnification.
LENS_SHARE = 0.21
LENS_MAX_ZOOM = 3.0


class TrackTableScene(TableScene):
    name = "track_table"
    private_keys = ("seat", "hand", "controlled", "position")

    def __init__(self, stage: Stage, session: Session) -> None:
        self.renderer = BoardRenderer(stage.assets)
        self.choice = TrackChoice()
        #: While a deal plays: how many of this screen's cards have landed (None: all).
        self.hand_shown: int | None = None
        self.legal: list[Any] = []
        #: The plays the moves list shows (all legal ones; a split's once its first part is set)
        self.move_plays: list[Any] = []
        self._legal_key: tuple | None = None
        self.geom: BoardGeometry | None = None
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.card_rects: list[pygame.Rect] = []
        self.pile_pos = (0.0, 0.0)
        self.plate_rects: list[pygame.Rect] = []
        self.log_rect = pygame.Rect(0, 0, 0, 0)
        self.mouse_at: tuple[int, int] = (-1, -1)  # the pointer, for the wheel over the log
        self.moves = ListBox([], on_select=self._move_chosen)
        seat = session.screen_seat()
        self.my_side = 0 if seat is None else Board(len(session.seats)).side_of(seat)
        super().__init__(stage, session)

    def leading_widgets(self) -> list[Widget]:
        return [self.moves]

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
        # six cards and their key numbers fit inside the panel (the focus ring too)
        card_w = min(self.px(96), (p.w - 8) // 6 - self.px(6))
        card_h = int(card_w * 1.4)
        num_h = self.stage.assets.font(self.px(18)).get_linesize() + 2
        self.hand_rect = pygame.Rect(p.x, p.bottom - card_h - self.px(10) - num_h, p.w,
                                     card_h + self.px(10) + num_h)
        # seat plates under the banner, the speed line and the message's two lines; two
        # columns when there are many seats
        top = p.y + bh + self.px(94) + self.status_line_h()
        cols = 1 if n <= 4 else 2
        rows = (n + cols - 1) // cols
        ph = min(self.px(36), max(self.px(24), (p.h // 3) // max(1, rows)))
        pw = p.w // cols
        self.plate_rects = []
        for i in range(n):
            r, c = i % rows, i // rows
            self.plate_rects.append(pygame.Rect(p.x + c * pw, top + r * ph, pw - self.px(6),
                                                ph - self.px(4)))
        ltop = top + rows * ph + self.px(6)
        room = max(80, self.hand_rect.y - ltop - self.px(8))
        # the move log above the moves list: a fixed share, so nothing moves when a turn comes
        log_h = max(self.log_size() * 4, int(room * 0.42))
        self.log_rect = pygame.Rect(p.x, ltop, p.w, log_h)
        mtop = ltop + log_h + self.px(24)
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

    def log_size(self) -> int:
        """The move log's text size."""
        return max(12, self.px(17))

    # ------------------------------------------------------------------ the move log
    def tell(self, msg: Any, before: dict[str, Any]) -> LogEntry | None:
        events = list(msg.get("events") or [])
        seat = msg.get("seat") if msg.get("type") == "play" else None
        lines = tell_track(seat if seat is not None else -1, events,
                           before.get("pegs") or msg["view"].get("pegs") or [], self.names(),
                           self.words_seat())
        return LogEntry(seat, lines, events, int(msg.get("state_no", 0)), self.trail_of(events),
                        before)

    def trail_of(self, events: list[dict[str, Any]]) -> list[list[Hole]]:
        """The holes each peg of a play went through (its trail on the board)."""
        out: list[list[Hole]] = []
        for ev in events:
            t = ev.get("type")
            if t not in ("move", "come_out", "bump", "trade"):
                continue
            c, i = int(ev["colour"]), int(ev["peg"])
            if t == "move" and not ev.get("jump"):
                out.append([hole_of(c, i, ev["from"])] +
                           [hole_of(c, i, x) for x in ev.get("path", [])])
            elif t == "trade":
                out.append([ring(int(ev["from"])), ring(int(ev["to"]))])
            else:
                out.append([hole_of(c, i, ev["from"]), hole_of(c, i, ev["to"])])
        return out

    def trail(self) -> list[list[Hole]]:
        """The trail of the last move the screen has shown (none while one animates)."""
        if not self.caught_up() or self.replaying:
            return []
        for e in reversed(self.log.entries):
            if e.trail:
                return e.trail
            if e.events:
                return []  # the last play moved no peg (a discard, a fold)
        return []

    def face_seat(self, seat: int) -> None:
        self.my_side = Board(len(self.session.seats)).side_of(seat)

    def side_panel(self) -> pygame.Rect | None:
        return self.moves.rect

    # ------------------------------------------------------------------ model
    def legal_plays(self) -> list[Any]:
        """Legal plays of this screen's seat, from its own view (cached per state)."""
        if not self.my_turn():
            if self.moves.rows:
                if self.form.focused is self.moves:  # the turn is over: so the next one's
                    self.form.focus(None)  # "Tab then Enter" comes back to the list
                self.moves.rows = []
                self.legal = []
                self.move_plays = []
                self._legal_key = None
            return []
        v = self.view()
        key = (v.get("seat"), v.get("position"), self.public["state_no"])
        if key != self._legal_key:
            state = TRACK.determinize(v, 0)
            self.legal = TRACK.legal_plays(state)
            self._legal_key = key
            self.show_moves(self.legal)
        return self.legal

    def show_moves(self, plays: list[Any]) -> None:
        """The moves list shows ``plays`` (in words), the first selected."""
        self.move_plays = list(plays)
        self.moves.rows = [[self.describe(p)] for p in self.move_plays]
        self.moves.selected = 0 if self.move_plays else -1
        self.moves.top = 0

    def narrow_moves(self) -> None:
        """A split's first part set: the moves list narrows to the plays that begin with it
        (and widens again when it is taken back)."""
        if not self.my_turn():
            return
        want = self.choice.split_plays() if self.choice.first is not None else self.legal
        if [str(p) for p in want] != [str(p) for p in self.move_plays]:
            self.show_moves(want)

    def split_ghost(self) -> dict[tuple[int, int], tuple[float, float]]:
        """While a split's second part is chosen, its first peg stands at its new hole."""
        fp = self.choice.first_part()
        if fp is None or self.geom is None:
            return {}
        return {(fp.colour, fp.peg_no): self.geom.point(hole_of(fp.colour, fp.peg_no, fp.to))}

    def words_seat(self) -> int | None:
        """The seat told as "you" / "your peg" in the moves list, the hint and the move log
        alike: the one person at this screen (a hot seat's people share the log, so there
        every colour is named), None at a replay or for a watcher."""
        if len(self.session.tokens) != 1 or self.session.replay:
            return None
        return self.screen_seat()

    def describe(self, p: Any) -> str:
        """A play for people: ``7: Red's front peg +3, then Blue's peg +4`` (``your front
        peg`` for the person's own colour, :meth:`words_seat`)."""
        return describe_play(p, self.view(), self.words_seat())

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
                         [s["name"] for s in seats], self.high_contrast)

    # ------------------------------------------------------------------ events -> animations
    def seat_anchor(self, seat: int) -> tuple[float, float]:
        """Where a seat's cards come from: its hand (this screen's seat) or its side."""
        if seat == self.screen_seat() and self.card_rects:
            return self.card_rects[2].center
        g = self.geom
        assert g is not None
        side = g.board.side_of(seat)
        return g.local(side, 13, 3.5)

    def animate(self, events: list[dict[str, Any]]) -> None:
        g = self.geom
        assert g is not None
        cw = self.card_rects[0].w if self.card_rects else 60
        for ev in events:
            t = ev.get("type")
            dur = max(0.05, event_duration(ev, "normal"))  # the clock runs at the table speed
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
                f = CardFlight("card_back", self.pile_pos, self.seat_anchor(ev["seat"]), cw,
                               cw * 0.8, dur, -10.0, None)
                if ev["seat"] == self.screen_seat():
                    f.on_done = self._one_more_card
                self.timeline.push(f)
            elif t == "deal":
                self.timeline.push(self.deal_sequence(ev, cw))
            elif t == "reshuffle":
                # the discards fly back onto the draw pile
                src = (self.pile_pos[0] + cw * 1.2, self.pile_pos[1])
                flights = [CardFlight("card_back", (src[0], src[1] + k * 4), self.pile_pos,
                                      cw, cw,
                                      min(dur, 1.0) * (0.5 + 0.1 * k), 0.0, None)
                           for k in range(5)]
                group = Group(flights)
                group.cue(0.0, "shuffle")
                self.timeline.push(group)
            elif t == "fold":
                self.timeline.push(sounded_wait(min(dur, 1.2), "click"))
            elif t == "game_over":
                self.timeline.push(sounded_wait(dur, "win"))

    def deal_sequence(self, ev: dict[str, Any], cw: float) -> Serial:
        """A deal card by card at the table speed: the shuffle, then one card back at a time
        to each seat in turn from the dealer's left (``counts`` cards each). Its duration is
        the deal's (the table's pacing: a fixed part, then so much a card); this screen's
        hand shows its cards as they land."""
        counts = [int(n) for n in ev.get("counts", [])]
        total = event_duration(ev, "normal")
        lead_time = event_duration({"type": ev.get("type", "deal"), "counts": []}, "normal")
        n = sum(counts)
        per = (total - lead_time) / n if n else 0.0
        lead = Wait(lead_time if n else total)
        lead.cue(0.0, "deal")
        me = self.screen_seat()
        if me is not None and me < len(counts) and counts[me]:
            lead.on_start = self._hide_hand
        seats = len(counts)
        first = (int(ev.get("dealer", seats - 1)) + 1) % max(1, seats)
        order = [s for r in range(max(counts, default=0)) for k in range(seats)
                 if counts[s := (first + k) % seats] > r]
        flights: list[Anim] = []
        for seat in order:
            f = CardFlight("card_back", self.pile_pos, self.seat_anchor(seat), cw * 0.8,
                           cw * 0.6, per, 0.0 if self.reduced else 30.0, None)
            if seat == me:
                f.on_done = self._one_more_card
            flights.append(f)
        return Serial([lead, *flights])

    def _hide_hand(self) -> None:
        self.hand_shown = 0

    def _one_more_card(self) -> None:
        if self.hand_shown is not None:
            self.hand_shown += 1

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.timeline.idle:
            self.hand_shown = None  # the deal is over: the whole hand
        self.narrow_moves()

    # ------------------------------------------------------------------ intents
    def clear_choice(self) -> None:
        self.choice.clear()

    def _move_chosen(self, i: int) -> None:
        self.legal_plays()
        if 0 <= i < len(self.move_plays):
            self.submit(self.move_plays[i])

    def pick_card(self, i: int) -> None:
        hand = self.view().get("hand", [])
        if not (0 <= i < len(hand)) or not self.my_turn():
            return
        ok = self.choice.pick_card(i, hand, self.legal_plays())
        self.message = None if ok else self.why_not(hand[i] >> 2)
        self.stage.sound("click")

    # the choice as the board shows it (holes for the choice's target keys)
    def _first_parts(self) -> list[Any]:
        return self.choice.first_parts()

    def split_plays(self) -> list[Any]:
        return self.choice.split_plays()

    def movable_pegs(self) -> set[tuple[int, Any]]:
        return self.choice.movable_pegs()

    def pulsing(self) -> bool:  # (quiet: the pegs and holes of a picked card pulse)
        return bool(self.choice.movable_pegs() or self.choice.targets())

    def targets(self) -> list[tuple[Hole, str, Any]]:
        """Highlighted holes now: (hole, tag, the plays it stands for)."""
        return [(hole_of(*t.where), t.tag, t.plays) for t in self.choice.targets()]

    def _took(self, outcome: tuple[str, Any]) -> None:
        """What a step of the choice gave: a whole play goes to the table."""
        kind, play = outcome
        if kind == "play":
            self.submit(play)
        elif kind == "split":
            self.message = "Split: now pick the second peg and its remainder."
            self.stage.sound("click")
        elif kind == "peg":
            self.stage.sound("click")

    def click_board(self, pos: tuple[int, int]) -> None:
        g = self.geom
        if g is None or self.choice.card is None:
            return
        inside = self.from_lens(pos)
        if inside is not None:
            pos = inside  # a click in the enlarged view: on what it shows
        # a highlighted hole first (the nearest within half a spacing: a target is easy to hit)
        targets = self.choice.targets()
        hit = g.hit_test(pos, [hole_of(*t.where) for t in targets],
                         slack=max(1.45, 0.5 * g.u / max(1e-6, g.hole_r)))
        if hit is not None:
            where = next(t.where for t in targets if hole_of(*t.where) == hit)
            self._took(self.choice.choose_target(where))
            return
        # else a movable peg
        peg_here = self.peg_at(pos)
        if peg_here is not None and self.choice.choose_peg(peg_here):
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
        return [(k, hole_of(*w) if k == "hole" else w) for k, w in self.choice.options()]

    def keyboard_step(self, k: int) -> None:
        """Left / Right move the keyboard cursor, Enter / Space take what it is on."""
        if k in (pygame.K_LEFT, pygame.K_RIGHT):
            if self.choice.move_cursor(1 if k == pygame.K_RIGHT else -1):
                self.stage.sound("click")
            return
        self._took(self.choice.take())

    def keyboard_cursor(self) -> Hole | None:
        got = self.choice.under_cursor()
        if got is None:
            return None
        kind, what = got
        if kind == "hole":
            return hole_of(*what)
        colour, loc = what
        for p in self.pegs():
            if p.seat == colour and self.view()["pegs"][p.seat][p.peg] == loc:
                return p.hole
        return None

    def undo_choice(self) -> None:
        if not self.choice.back() and self.public["config"].get("mode") == "solo":
            r = self.session.undo()
            self.message = r.message
            self.timeline.finish()
        self.stage.sound("click")

    def why_not(self, rank: int) -> str:
        """Why the picked card has no play, in words (the rules' reasons)."""
        try:
            return why_card_cannot(rank, self.view())
        except Exception:  # a reason the words cannot read: still a clear refusal
            return "That card cannot move a peg now."

    def can_discard(self) -> bool:
        """Discarding is a legal play now (no card can move a peg)."""
        return any(is_discard(p) for p in self.legal_plays())

    def discard(self) -> None:
        """D: discard the picked card, when discarding is legal; else say why not."""
        if not self.my_turn():
            self.message = "Not now: it is not your turn."
            return
        if not self.can_discard():
            self.message = why_no_discard(self.view(), self.legal_plays())
            return
        if self.choice.card is None:
            self.message = "No card can move a peg: pick the card to discard (keys 1-6), then D."
            return
        d = self.choice.discard_play()
        if d is not None:
            self.submit(d)
        else:
            self.message = "Pick the card to discard (keys 1-6), then D."

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
            if not is_discard(p):
                self.choice.choose_peg(part(p, 0).peg)
        self.hint = tok
        self.hint_reason = reason or None
        self.message = f"Hint: {self.describe(p)}"

    # ------------------------------------------------------------------ input
    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.MOUSEMOTION:
            self.mouse_at = ev.pos
        if ev.type == pygame.MOUSEWHEEL and self.log_rect.collidepoint(self.mouse_at):
            self.log.scroll_by(int(ev.y))
            return
        super().handle(ev)

    def click(self, pos: tuple[int, int]) -> None:
        if self.board_rect.collidepoint(pos) and self.hurry():
            return  # a click on the board while it animates hurries it along
        for i, r in enumerate(self.card_rects):
            if r.collidepoint(pos):
                self.pick_card(i)
                return
        if self.board_rect.collidepoint(pos):
            self.click_board(pos)

    def key(self, ev: pygame.event.Event) -> None:
        k = ev.key
        if self.log_key(k):
            return
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

    def log_key(self, k: int) -> bool:
        """The move log's keys and the hurry (True when ``k`` was one of them)."""
        if k == pygame.K_PAGEUP:
            self.log.page_up()
        elif k == pygame.K_PAGEDOWN:
            self.log.page_down()
        elif k == pygame.K_HOME:
            self.log.to_oldest()
        elif k == pygame.K_END:
            self.log.to_newest()
        elif k == pygame.K_l:
            self.replay_last()
        elif k == pygame.K_f or (k == pygame.K_SPACE and not self.timeline.idle and
                                 getattr(self, "choice", None) is not None and
                                 self.choice.card is None):
            self.hurry()
        else:
            return False
        return True

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface) -> None:
        self.draw_background(surf)
        g = self.geom
        assert g is not None
        a = self.stage.assets
        where, lift = self.timeline.pegs()
        for k, pt in self.split_ghost().items():
            where.setdefault(k, pt)
        highlights = [Highlight(h, tag) for h, tag, _ in self.targets()]
        sel = None
        ch = self.choice
        movable_keys: list[tuple[int, int]] = []
        pegs = self.pegs()
        want = self.movable_pegs()
        chosen = ch.chosen_peg()
        for p in pegs:
            loc = self.view()["pegs"][p.seat][p.peg]
            if (p.seat, loc) == chosen and sel is None:
                sel = (p.seat, p.peg)
            elif (p.seat, loc) in want:
                movable_keys.append((p.seat, p.peg))
        cursor = self.keyboard_cursor()
        ring_r = g.peg_r * 1.9 + max(2, int(g.u * 0.12))
        avoid = [(g.point(cursor), ring_r)] if cursor is not None else []
        self.renderer.draw(surf, g, self.look(), pegs, cast(PegPlaces, where), highlights, sel,
                           movable_keys, self.t, cast(PegLifts, lift), self.trail(), avoid)
        fp = self.choice.first_part()
        if fp is not None:  # a split's first peg moved: a faint ring where it was
            ox, oy = g.point(hole_of(fp.colour, fp.peg_no, fp.frm))
            pygame.draw.circle(surf, theme.seat_colour(fp.colour), (round(ox), round(oy)),
                               max(3, int(g.peg_r)), max(1, int(g.u * 0.1)))
        if cursor is not None:
            cx, cy = g.point(cursor)
            pygame.draw.circle(surf, theme.ACCENT2, (round(cx), round(cy)),
                               int(g.peg_r * 1.9), max(2, int(g.u * 0.12)))
        self.draw_pile(surf)
        self.draw_lens(surf)
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
        if self.results_shown():
            self.draw_results(surf)

    def lens(self) -> tuple[tuple[float, float], float, tuple[float, float], float] | None:
        """The enlarged view around the chosen peg and its target holes at 6-8 seats:
        (its centre on screen, its radius, the board point it magnifies, the zoom), or None."""
        g = self.geom
        if g is None or len(self.session.seats) < LENS_SEATS or self.choice.card is None:
            return None
        chosen = self.choice.chosen_peg()
        if chosen is None:
            return None
        pts = [g.point(hole_of(*t.where)) for t in self.choice.targets()]
        hole = self.keyboard_hole(chosen)
        if hole is not None:
            pts.append(g.point(hole))
        pts += list(self.split_ghost().values())
        if not pts:
            return None
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        focus = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        src_r = max(g.u * 3.2, max((x - focus[0]) ** 2 + (y - focus[1]) ** 2
                                   for x, y in pts) ** 0.5 + g.u * 1.6)
        radius = self.board_rect.w * LENS_SHARE
        zoom = min(LENS_MAX_ZOOM, radius / src_r)
        if zoom < 1.4:
            return None
        return (g.center, radius, focus, zoom)

    def keyboard_hole(self, peg: tuple[int, Any]) -> Hole | None:
        """The hole of the peg ``(colour, loc)`` on the board now."""
        colour, loc = peg
        for p in self.pegs():
            if p.seat == colour and self.view()["pegs"][p.seat][p.peg] == loc:
                return p.hole
        return None

    def from_lens(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The board point under ``pos`` when ``pos`` is inside the enlarged view."""
        got = self.lens()
        if got is None:
            return None
        (cx, cy), r, (fx, fy), zoom = got
        if (pos[0] - cx) ** 2 + (pos[1] - cy) ** 2 > r * r:
            return None
        return (round(fx + (pos[0] - cx) / zoom), round(fy + (pos[1] - cy) / zoom))

    def draw_lens(self, surf: pygame.Surface) -> None:
        """The enlarged view: the board around the chosen peg, magnified in a circle over the
        board's empty middle (clicks in it land on what it shows)."""
        got = self.lens()
        if got is None:
            return
        (cx, cy), r, (fx, fy), zoom = got
        src_r = r / zoom
        src = pygame.Rect(round(fx - src_r), round(fy - src_r), round(2 * src_r),
                          round(2 * src_r)).clip(surf.get_rect())
        if src.w < 2 or src.h < 2:
            return
        img = pygame.transform.smoothscale(surf.subsurface(src).copy(),
                                           (round(src.w * zoom), round(src.h * zoom)))
        d = round(2 * r)
        lens = pygame.Surface((d, d), pygame.SRCALPHA)
        lens.blit(img, (round((src.x - fx) * zoom + r), round((src.y - fy) * zoom + r)))
        mask = pygame.Surface((d, d), pygame.SRCALPHA)
        pygame.draw.circle(mask, (255, 255, 255, 255), (d // 2, d // 2), d // 2)
        lens.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        centre = (round(cx), round(cy))
        pygame.draw.circle(surf, theme.BG, centre, round(r) + 4)
        surf.blit(lens, (centre[0] - d // 2, centre[1] - d // 2))
        pygame.draw.circle(surf, theme.ACCENT2, centre, round(r) + 2, 3)

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
            banner, col = f"Game over: {self.results_title()}", theme.ACCENT
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
        lead = [f"Turn {pub.get('turns', 0) + 1}"] if pub["config"].get("mode") == "solo" else []
        self.draw_info(surf, lead, self.px(20), p.w,
                       topleft=(p.x, self.pause_button.rect.bottom + self.px(40)))
        # the message (or the connection note) has its own line: the speed stays in view
        status = self.status_line()
        if status:
            size = self.status_size()
            lines = a.wrap(status, size, p.w)
            if len(lines) > 2:  # (a longer message than any the table writes: it shrinks)
                lines = [lines[0], " ".join(lines[1:])]
            y = self.pause_button.rect.bottom + self.px(63)
            for line in lines:
                surf.blit(a.fit_text(line, size, theme.ACCENT2, p.w), (p.x, y))
                y += self.status_line_h()
        counts = self.view().get("hand_counts", [])
        for i, r in enumerate(self.plate_rects):
            self.draw_plate(surf, i, r, turn, counts[i] if i < len(counts) else None,
                            self.look().symbols[i])
        draw_log(surf, a, self.log, self.log_rect, self.log_size(), theme.seat_colour,
                 "Moves so far (L: see the last turn again)")
        if self.moves.rows:
            lab = a.text("Moves (click one, or Tab then Enter)", self.px(18), theme.TEXT_DIM)
            surf.blit(lab, (self.moves.rect.x, self.moves.rect.y - lab.get_height() - 1))

    def status_size(self) -> int:
        """The text size of the message lines (readable at any window: they wrap, not shrink)."""
        return max(13, self.px(20))

    def status_line_h(self) -> int:
        """The height of one message line (the layout keeps room for a second one)."""
        return int(self.status_size() * 1.15)

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
        if self.draw_watching(surf):  # a watcher: no hand, "You are watching", Ask for a seat
            return
        hand = self.view().get("hand", [])
        if self.hand_shown is not None:
            hand = hand[:self.hand_shown]  # the deal is still landing
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

