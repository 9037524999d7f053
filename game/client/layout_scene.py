"""The layout game's (Trash) table: every layout, the stock and the discard pile; the person's
own decisions only (where to draw from, where each wild card goes); everything else plays
itself card by card at the table speed.

Controls: click the stock or the discard pile (keys S and D), then, when a wild card waits,
a highlighted face-down place (keys 1-9 and 0 for place 10). H names the hint (the better
source or place). P pauses, Esc pauses too.

What is shown follows the animations, not the newest view: each event's card flies, and the
layouts and piles change when its flight lands, so a chain reads card by card. When the
timeline is idle the display is the view again (a safety net, and the jump after a reset).

The move log (left of the person's layout, or left of the piles in a narrow window) tells
every turn in words: where the card came from and the chain it set off. The wheel over it,
PgUp / PgDn and Home / End scroll it; L shows the last turn again; F, Space or a click on the
table hurries the animations on this screen.

Two people at one screen (hot seat): Trash has no secret to cover, so the table turns to
whoever is to play (their layout at the bottom) and the status line names them.

(A little over 600 lines: the layout, the animations and the drawing of one table, which
share its rectangles; split, each part would reach into the others'.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.anim import Anim, CardFlight, Group, Serial, Wait, sounded_wait
from game.client.board import draw_peg
from game.client.describe import tell_layout
from game.client.movelog import LogEntry, draw_log
from game.client.table_base import TableScene, seat_label
from game.table import event_duration

if TYPE_CHECKING:
    from game.client.session import Session  # the typed protocol both sessions implement
    from game.client.stage import Stage


#: The move log shows at least this many lines where it sits above one's layout.
LOG_LINES = 5
#: The margin under one's bottom row's place numbers (design px).
PLACE_FOOT = 26


class LayoutTableScene(TableScene):
    name = "layout_table"
    private_keys = ("seat", "legal", "pending")

    def __init__(self, stage: Stage, session: Session) -> None:
        self.shown: dict[str, Any] = {}
        self.place_rects: dict[int, list[pygame.Rect]] = {}
        self.hand_spots: dict[int, tuple[float, float]] = {}
        self.stock_rect = pygame.Rect(0, 0, 0, 0)
        self.discard_rect = pygame.Rect(0, 0, 0, 0)
        self.banner: str | None = None
        self.card_size = (60, 84)
        self.piles_beside = False
        self.pile_pos: tuple[float, float] = (0.0, 0.0)
        self.log_rect = pygame.Rect(0, 0, 0, 0)
        self.reason_rect = pygame.Rect(0, 0, 0, 0)  # where a hint's "Why" goes (see layout)
        self.mouse_at: tuple[int, int] = (-1, -1)  # the pointer, for the wheel over the log
        self.laid_for: int | None = None  # the seat the layout was made for (see update)
        super().__init__(stage, session)
        self.sync()

    # ------------------------------------------------------------------ model
    def sync(self) -> None:
        """Show the view as it is now."""
        v = self.view()
        self.shown = {
            "layouts": [list(x) for x in v.get("layouts", [])],
            "sizes": list(v.get("sizes", [])),
            "won": list(v.get("won", [])),
            "stock": v.get("stock", 0),
            "top": (v.get("discard") or [None])[-1],
            "discards": len(v.get("discard") or []),
            "holding": v.get("holding"),
        }

    def tell(self, msg: Any, before: dict[str, Any]) -> LogEntry | None:
        me = self.screen_seat() if len(self.session.tokens) == 1 else None
        seat = msg.get("seat") if msg.get("type") == "play" else None
        events = list(msg.get("events") or [])
        lines = tell_layout(seat if seat is not None else -1, events, self.names(), me)
        return LogEntry(seat, lines, events, int(msg.get("state_no", 0)), [], before)

    def me(self) -> int:
        """The seat whose layout is at the bottom: the person at this screen whose turn the
        screen shows (a hot seat's: their turn's chain is shown on their own layout, not
        turned away as soon as the table has moved on), else the screen's seat."""
        turn = self.view().get("turn")
        if isinstance(turn, int) and turn in self.session.tokens:
            return turn
        seat = self.screen_seat()
        return seat if seat is not None else 0

    def legal_plays(self) -> list[Any]:
        if not self.my_turn() or not self.timeline.idle:
            return []
        return list(self.view().get("legal") or [])

    # ------------------------------------------------------------------ layout
    def layout(self, w: int, h: int) -> None:
        m = self.px(10)
        n = len(self.session.seats)
        bh = self.px(40)
        self.pause_button.rect = pygame.Rect(w - m - self.px(130), m, self.px(130), bh)
        self.admin_button.rect = pygame.Rect(w - m - self.px(270), m, self.px(130), bh)
        me = self.laid_for = self.me()  # the seat whose layout is at the bottom
        others = [(me + k) % n for k in range(1, n)]
        # my layout: bottom, largest
        my_h = int(h * 0.40)
        # the place numbers under the cards (at least their text's own height at the size
        # drawn, :meth:`number_size`); the bottom row's stay a clear ``foot`` inside the
        # window (they sat 6 px from its edge)
        est = max(12, int(my_h / 2.25) // 7) + 4
        ch = min(int((my_h - 2 * est) / 2.05), int((w * 0.62) / 5 / 0.714 / 1.08))
        label = max(est, self.stage.assets.font(self.number_size(ch)).size("10")[1] + 2)
        foot = max(m, self.px(PLACE_FOOT))
        cw = int(ch * 0.714)
        gap = max(4, cw // 10)
        vgap = max(gap, label + 2)  # room for row 1's numbers between the rows
        total_w = 5 * cw + 4 * gap
        x0 = (w - total_w) // 2
        y0 = h - foot - 2 * ch - vgap - label
        self.card_size = (cw, ch)
        self.place_rects = {me: [pygame.Rect(x0 + (i % 5) * (cw + gap),
                                             y0 + (i // 5) * (ch + vgap), cw, ch)
                                 for i in range(10)]}
        self.hand_spots = {me: (x0 - cw * 0.9, y0 + ch)}
        # stock and discard pile: beside my layout when there is room (the others then get
        # the whole band above it), else between the others and my layout
        pw, ph = int(cw * 0.85), int(ch * 0.85)
        right = x0 + total_w
        self.piles_beside = w - m - right >= 2 * pw + self.px(70)
        if self.piles_beside:
            cxp = (right + w - m) // 2
            py = y0 + (2 * ch + vgap - ph) // 2 - self.px(16)
            self.stock_rect = pygame.Rect(cxp - pw - self.px(12), py, pw, ph)
            self.discard_rect = pygame.Rect(cxp + self.px(12), py, pw, ph)
        else:
            py = y0 - ph - self.px(30)
            self.stock_rect = pygame.Rect(w // 2 - pw - self.px(20), py, pw, ph)
            self.discard_rect = pygame.Rect(w // 2 + self.px(20), py, pw, ph)
        # the others: a grid at the top, over the band between them and my layout (the
        # piles and the move log when the piles are not beside my layout: tall enough for
        # LOG_LINES of the log above my name plate)
        plate = int(max(12, min(self.px(24), int(ch * 0.18))) * 1.3) + 12
        plate_gap = max(self.px(10), plate)
        band_h = self.px(34) if self.piles_beside else max(
            self.px(150), self.log_height(LOG_LINES) + self.px(6) + plate_gap)
        top = m + bh + self.px(8)
        area_h = y0 - top - band_h
        per_row = len(others) if len(others) <= 4 else (len(others) + 1) // 2
        rows = 1 if len(others) <= 4 else 2
        cell_w = (w - 2 * m) // max(1, per_row)
        cell_h = area_h // rows
        for k, seat in enumerate(others):
            r, c = divmod(k, per_row)
            cell = pygame.Rect(m + c * cell_w, top + r * cell_h, cell_w, cell_h)
            label_h = self.px(24)
            mh = min(int((cell.h - label_h) / 2.15), int(cell.w * 0.92 / 5 / 0.714 / 1.08),
                     int(ch * 0.8))  # the person's own layout stays the largest
            mw = int(mh * 0.714)
            g2 = max(2, mw // 10)
            tw = 5 * mw + 4 * g2
            cx = cell.x + (cell.w - tw) // 2
            cy = cell.y + label_h
            self.place_rects[seat] = [pygame.Rect(cx + (i % 5) * (mw + g2),
                                                  cy + (i // 5) * (mh + g2), mw, mh)
                                      for i in range(10)]
            self.hand_spots[seat] = (cell.centerx, cell.y + cell.h * 0.5)
        self.pile_pos = self.discard_rect.center
        self.hand_rect = pygame.Rect(x0, y0, total_w, 2 * ch + vgap)
        # the move log: left of my layout (clear of the held wild card), else left of the
        # piles in the band above my layout
        if self.piles_beside:
            right = int(x0 - cw * 1.5) - gap
            self.log_rect = pygame.Rect(m, y0, max(60, right - m), 2 * ch + vgap)
            # under the others' layouts and the wild cards they hold (at their hand spots)
            others_bottom = max((max(rs[-1].bottom, int(self.hand_spots[st][1] + rs[0].h / 2))
                                 for st, rs in self.place_rects.items() if st != me),
                                default=top)
            band = pygame.Rect(m, others_bottom + self.px(8), w - 2 * m,
                               y0 - self.px(28) - others_bottom - self.px(8))
            lines = band.h // max(1, int(max(12, self.px(17)) * 1.22))
            if self.log_rect.w < self.px(220) and lines >= 4:
                self.log_rect = band  # narrow window: the empty band above my layout
                # a hint's "Why": left of my layout, over the held wild card's spot
                self.reason_rect = pygame.Rect(m, y0, max(40, x0 - m - self.px(14)),
                                               ch // 2 - self.px(6))
            else:  # the band above my layout, clear of the log beside it
                self.reason_rect = pygame.Rect(m, band.y, max(40, x0 - m - self.px(14)),
                                               band.h)
        else:
            band_y = y0 - band_h + self.px(6)
            # down to the top of my name plate (its text and highlight: about 1.3 text sizes)
            self.log_rect = pygame.Rect(m, band_y, max(60, self.stock_rect.x - self.px(24) - m),
                                        max(40, y0 - band_y - plate_gap))
            # a hint's "Why": under the status line, left of the piles
            sr = self.stock_rect
            self.reason_rect = pygame.Rect(self.px(10), self.px(60), max(40, sr.x - self.px(30)),
                                           sr.bottom - self.px(60))
        bw = self.px(260)
        cx2, cy2 = w // 2, h // 2
        self.ready_button.rect = pygame.Rect(cx2 - bw // 2, cy2 + self.px(20), bw, self.px(58))
        self.leave_button.rect = pygame.Rect(cx2 - bw // 2, cy2 + self.px(90), bw, self.px(58))
        self.done_button.rect = pygame.Rect(cx2 - bw // 2, cy2 + self.px(150), bw, self.px(58))

    def number_size(self, card_h: int) -> int:
        """The text size of the place numbers under cards ``card_h`` tall."""
        return max(12, min(card_h // 7, self.px(22)))

    def log_height(self, lines: int) -> int:
        """The move log's height that shows its title and ``lines`` lines (as
        :func:`game.client.movelog.draw_log` lays them out)."""
        size = max(12, self.px(17))
        head = self.stage.assets.font(max(11, size - 2)).size("Tg")[1]
        return 8 + head + 2 + lines * int(size * 1.22)

    # ------------------------------------------------------------------ events
    def _place_centre(self, seat: int, place: int) -> tuple[float, float]:
        rects = self.place_rects.get(seat)
        if not rects or not 1 <= place <= 10:
            return self.hand_spots.get(seat, self.pile_pos)
        return rects[place - 1].center

    def _show_piles(self, stock: int, top: Any) -> None:
        """A fresh pile pair (after a deal or a reshuffle): ``stock`` cards face down and the
        discard pile holding just ``top`` (or nothing)."""
        self.shown["stock"] = stock
        self.shown["top"] = top
        self.shown["discards"] = 1 if top is not None else 0

    def _set(self, key: str, value: Any) -> Any:
        def apply() -> None:
            self.shown[key] = value
        return apply

    def animate(self, events: list[dict[str, Any]]) -> None:
        for ev in events:
            t = ev.get("type")
            dur = max(0.05, event_duration(ev, "normal"))  # the clock runs at the table speed
            raw_seat = ev.get("seat")
            seat = raw_seat if isinstance(raw_seat, int) else -1  # -1: no seat
            card = ev.get("card")
            sprite = theme.card_sprite(card) if isinstance(card, int) else "card_back"
            spot = self.hand_spots.get(seat, self.pile_pos) if seat >= 0 else None
            rects = self.place_rects.get(seat) if seat >= 0 else None
            cw = rects[0].w if rects else self.card_size[0]
            if t == "drawn" and spot is not None:
                src = self.stock_rect.center if ev.get("source") == "stock" else \
                    self.discard_rect.center
                f = CardFlight(sprite, src, spot, cw * 0.85, cw, dur, 0.0, "play")

                def drew(ev: dict[str, Any] = ev) -> None:
                    if ev.get("source") == "stock":
                        self.shown["stock"] = max(0, self.shown["stock"] - 1)
                    else:
                        self.shown["discards"] = max(0, self.shown["discards"] - 1)
                        v = self.view().get("discard") or []
                        self.shown["top"] = v[self.shown["discards"] - 1] if \
                            0 < self.shown["discards"] <= len(v) else None
                f.on_done = drew
                self.timeline.push(f)
            elif t in ("placed", "wild_placed") and spot is not None:
                place = int(ev["place"])
                f = CardFlight(sprite, spot, self._place_centre(seat, place), cw, cw, dur, 0.0,
                               "step")

                def landed(seat: int = seat, place: int = place, card: Any = card) -> None:
                    lay = self.shown["layouts"]
                    if seat < len(lay) and 0 < place <= len(lay[seat]):
                        lay[seat][place - 1] = card
                f.on_done = landed
                self.timeline.push(f)
            elif t in ("revealed", "wild_displaced") and spot is not None:
                place = int(ev["place"])
                f = CardFlight(sprite, self._place_centre(seat, place), spot, cw, cw, dur,
                               -15.0, None)
                self.timeline.push(f)
            elif t == "discarded" and spot is not None:
                f = CardFlight(sprite, spot, self.discard_rect.center, cw, cw * 0.85, dur,
                               10.0, "play")

                def discarded(card: Any = card) -> None:
                    self.shown["top"] = card
                    self.shown["discards"] += 1
                f.on_done = discarded
                self.timeline.push(f)
            elif t == "reshuffled":
                w = Group([CardFlight("card_back", self.discard_rect.center,
                                      self.stock_rect.center, self.card_size[0] * 0.85,
                                      self.card_size[0] * 0.85,
                                      min(dur, 1.0) * (0.5 + 0.1 * k), 0.0, None)
                           for k in range(5)])
                w.cue(0.0, "shuffle")

                def reshuffled(ev: dict[str, Any] = ev) -> None:
                    self._show_piles(ev.get("stock", 0), ev.get("top"))
                w.on_done = reshuffled
                self.timeline.push(w)
            elif t == "completed":
                self.timeline.push(sounded_wait(dur, "home"))
            elif t == "hand_won":
                names = ", ".join(seat_label(self.public["seats"][s]) for s in ev["winners"])
                sizes = ev.get("sizes", [])
                lead = ev.get("leader")
                lead_name = seat_label(self.public["seats"][lead]) if lead is not None else ""
                per = ", ".join(f"{seat_label(self.public['seats'][i])} {x}"
                                for i, x in enumerate(sizes))
                text = (f"{names} won hand {ev.get('hand')}!  Places next hand: {per}. "
                        f"{lead_name} leads.")
                # a reading floor of 0.8 s on screen at the speed it is queued at
                hold = sounded_wait(max(dur, 0.8 / self.clock.scale), "win")

                def won(text: str = text, sizes: list[int] = sizes) -> None:
                    self.banner = None
                    self.shown["sizes"] = list(sizes)
                banner_on = Wait(0.0)
                banner_on.on_done = self._set_banner(text)
                self.timeline.push(banner_on)
                hold.on_done = won
                self.timeline.push(hold)
            elif t == "dealt":
                self.timeline.push(self.deal_sequence(ev))
            elif t == "game_won":
                self.timeline.push(sounded_wait(dur, "win"))

    def deal_sequence(self, ev: dict[str, Any]) -> Serial:
        """The layouts dealt card by card at the table speed: the shuffle, then one card at a
        time face down, place 1 to every seat from the leader on, then place 2, ...; its
        duration is the deal's (a fixed part, then so much a card) and each layout grows as
        its cards land."""
        sizes = [int(n) for n in ev.get("sizes", [])]
        total = event_duration(ev, "normal")
        lead_time = event_duration({"type": ev.get("type", "dealt"), "sizes": []}, "normal")
        n = sum(sizes)
        per = (total - lead_time) / n if n else 0.0
        lead = Wait(lead_time if n else total)
        lead.cue(0.0, "deal")
        stock = int(ev.get("stock", 0))

        def clear() -> None:
            self.shown["layouts"] = [[None] * k for k in sizes]
            self.shown["sizes"] = [0] * len(sizes)
            self._show_piles(stock + n, None)
        lead.on_start = clear
        seats = len(sizes)
        first = int(ev.get("leader", 0)) % max(1, seats)
        flights: list[Anim] = []
        for place in range(1, max(sizes, default=0) + 1):
            for k in range(seats):
                seat = (first + k) % seats
                if sizes[seat] < place:
                    continue
                rects = self.place_rects.get(seat)
                w = rects[0].w if rects else self.card_size[0]
                f = CardFlight("card_back", self.stock_rect.center,
                               self._place_centre(seat, place), self.card_size[0] * 0.85, w,
                               per, 0.0, None)

                def landed(seat: int = seat, place: int = place) -> None:
                    self.shown["sizes"][seat] = max(self.shown["sizes"][seat], place)
                    self.shown["stock"] = max(0, self.shown["stock"] - 1)
                f.on_done = landed
                flights.append(f)
        seq = Serial([lead, *flights])

        def dealt() -> None:
            self.shown["layouts"] = [[None] * k for k in sizes]
            self.shown["sizes"] = list(sizes)
            self._show_piles(stock, ev.get("upcard"))
        seq.on_done = dealt
        return seq

    def _set_banner(self, text: str) -> Any:
        def on() -> None:
            self.banner = text
        return on

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.me() != self.laid_for:  # hot seat: the next person's layout to the bottom
            self.relayout(self.size)
        if self.timeline.idle:
            self.banner = None
            self.sync()

    # ------------------------------------------------------------------ intents
    def choose(self, token: str) -> None:
        if token in self.legal_plays():
            self.submit(token)
        elif self.my_turn():
            self.message = "Not now: " + ("take a card first" if token.startswith("W") else
                                          "choose a face-down place for the wild card")

    def apply_hint(self, tok: str, reason: str) -> None:
        if tok not in self.legal_plays():
            self.message = None
            return
        self.hint = tok
        self.hint_reason = reason or None
        self.message = {"S": "Hint: draw from the stock", "D": "Hint: take the discard"}.get(
            tok, f"Hint: put the wild card on place {tok[1:]}")

    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.MOUSEMOTION:
            self.mouse_at = ev.pos
        if ev.type == pygame.MOUSEWHEEL and self.log_rect.collidepoint(self.mouse_at):
            self.log.scroll_by(int(ev.y))
            return
        super().handle(ev)

    def click(self, pos: tuple[int, int]) -> None:
        if self.hurry():
            return  # a click while the table animates hurries it along
        if self.stock_rect.collidepoint(pos):
            self.choose("S")
        elif self.discard_rect.collidepoint(pos):
            self.choose("D")
        else:
            for i, r in enumerate(self.place_rects.get(self.me(), [])):
                if r.collidepoint(pos):
                    self.choose(f"W{i + 1}")
                    break

    def key(self, ev: pygame.event.Event) -> None:
        k = ev.key
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
        elif k in (pygame.K_f, pygame.K_SPACE):
            self.hurry()
        elif k == pygame.K_s:
            self.choose("S")
        elif k == pygame.K_d:
            self.choose("D")
        elif pygame.K_1 <= k <= pygame.K_9:
            self.choose(f"W{k - pygame.K_0}")
        elif k == pygame.K_0:
            self.choose("W10")
        elif k == pygame.K_h:
            self.show_hint()
        elif k == pygame.K_ESCAPE:
            if self.public["phase"] == "over":
                self.leave_table()
            elif not self.paused():
                self.pause()

    # ------------------------------------------------------------------ drawing
    def is_wild(self, card: Any) -> bool:
        """A face-up wild card (Jacks, or Kings with the Kings-wild option)."""
        if card is None:
            return False
        wild_rank = 13 if self.session.config.get("wild") == "K" else 11
        return (card >> 2) == wild_rank

    def banner_layout(self, w: int, h: int) -> tuple[pygame.Rect, list[str], int]:
        """The hand-won banner: its box, its lines (wrapped, up to three: six seats' places
        make a long line) and their text size (smaller only when three lines are not
        enough)."""
        a = self.stage.assets
        bw = min(int(w * 0.94), self.px(900))
        text = " ".join((self.banner or "").split())
        size = self.px(28)
        lines = a.wrap(text, size, bw - 24)
        while len(lines) > 3 and size > 8:
            size = max(8, int(size * 0.9))
            lines = a.wrap(text, size, bw - 24)
        box = pygame.Rect(0, 0, bw, max(self.px(90), int(size * 1.25) * len(lines) + self.px(40)))
        box.center = (w // 2, h // 2 - self.px(40))
        return box, lines, size

    def _plate(self, seat: int) -> tuple[int, int, str]:
        """A seat's name plate above its layout: the text size, the peg's size, the text."""
        r0 = self.place_rects[seat][0]
        won = self.shown["won"][seat] if seat < len(self.shown["won"]) else 0
        text = seat_label(self.public["seats"][seat]) + (f"   hands won: {won}" if won else "")
        fs = max(12, min(self.px(24), int(r0.h * (0.30 if seat != self.me() else 0.18))))
        return fs, max(10, fs), text  # the peg with its colour's mark: never colour alone

    def plate_rect(self, seat: int) -> pygame.Rect:
        """Where ``seat``'s name plate is drawn (the peg, the text, the turn's highlight)."""
        rects = self.place_rects[seat]
        r0 = rects[0]
        fs, pd, text = self._plate(seat)
        lt = self.stage.assets.fit_text(text, fs, theme.TEXT, rects[4].right - r0.x - pd - 4)
        lr = lt.get_rect(bottomleft=(r0.x + pd + 4, r0.y - 3))
        return lr.union(pygame.Rect(r0.x, lr.y, pd, lr.h)).inflate(10, 4)

    def draw(self, surf: pygame.Surface) -> None:
        self.draw_background(surf)
        a = self.stage.assets
        w, h = surf.get_size()
        pub = self.public
        me = self.me()
        legal = set(self.legal_plays())
        pulse = 0.5 + 0.5 * pygame.math.Vector2(1, 0).rotate(self.t * 300).x
        for seat, rects in self.place_rects.items():
            lay = self.shown["layouts"][seat] if seat < len(self.shown["layouts"]) else []
            size = self.shown["sizes"][seat] if seat < len(self.shown["sizes"]) else 0
            s = pub["seats"][seat]
            col = theme.seat_colour(seat)
            # name plate above the layout
            r0 = rects[0]
            turn = self.view().get("turn") == seat and pub["phase"] == "playing"
            glow = None
            if s["kind"] == "person" and not s.get("local"):
                glow = theme.GOOD if s["connected"] else theme.BAD
            fs, pd, text = self._plate(seat)
            lt = a.fit_text(text, fs, col if not turn else theme.FOCUS,
                            rects[4].right - r0.x - pd - 4)
            lr = lt.get_rect(bottomleft=(r0.x + pd + 4, r0.y - 3))
            if turn or glow:
                pygame.draw.rect(surf, theme.mix(glow or col, theme.BG, 0.5),
                                 lr.union(pygame.Rect(r0.x, lr.y, pd, lr.h)).inflate(10, 4),
                                 border_radius=6)
            draw_peg(surf, a, seat, (r0.x + pd // 2, lr.centery), pd, self.high_contrast)
            surf.blit(lt, lr)
            for i, r in enumerate(rects):
                place = i + 1
                if place > size:
                    pygame.draw.rect(surf, theme.mix(theme.BG2, theme.BG, 0.5), r, 1,
                                     border_radius=max(3, r.w // 10))
                    continue
                card = lay[i] if i < len(lay) else None
                img = a.scaled(theme.card_sprite(card), r.size)
                surf.blit(img, r)
                if self.is_wild(card):
                    pygame.draw.rect(surf, theme.ACCENT2, r.inflate(4, 4), 3,
                                     border_radius=max(3, r.w // 10))
                if seat == me and card is None and f"W{place}" in legal:
                    pygame.draw.rect(surf, theme.ACCENT, r.inflate(6 + int(4 * pulse),
                                                               6 + int(4 * pulse)), 3,
                                     border_radius=max(3, r.w // 8))
                if seat == me and self.hint == f"W{place}":  # the hint's place
                    pygame.draw.rect(surf, theme.FOCUS, r.inflate(14, 14), 4,
                                     border_radius=max(3, r.w // 8))
                if seat == me:
                    n = a.text(str(place), self.number_size(r.h), theme.TEXT_DIM)
                    surf.blit(n, n.get_rect(midtop=(r.centerx, r.bottom + 2)))
        # stock and discard pile
        sr, dr = self.stock_rect, self.discard_rect
        if self.shown["stock"] > 0:
            surf.blit(a.scaled("card_back", sr.size), sr)
        else:
            pygame.draw.rect(surf, theme.BG2, sr, 2, border_radius=8)
        st = a.text(f"Stock {self.shown['stock']}", max(12, self.px(20)), theme.TEXT)
        surf.blit(st, st.get_rect(midtop=(sr.centerx, sr.bottom + 4)))
        if self.shown["top"] is not None and self.shown["discards"] > 0:
            surf.blit(a.scaled(theme.card_sprite(self.shown["top"]), dr.size), dr)
        else:
            pygame.draw.rect(surf, theme.BG2, dr, 2, border_radius=8)
        dt_ = a.text(f"Discards {self.shown['discards']}", max(12, self.px(20)),
                     theme.TEXT)
        surf.blit(dt_, dt_.get_rect(midtop=(dr.centerx, dr.bottom + 4)))
        for name, r in (("S", sr), ("D", dr)):
            if self.hint == name:  # the hint's source
                pygame.draw.rect(surf, theme.FOCUS, r.inflate(18, 18), 4, border_radius=12)
            if name in legal:
                pygame.draw.rect(surf, theme.ACCENT, r.inflate(8 + int(4 * pulse),
                                                           8 + int(4 * pulse)), 3,
                                 border_radius=10)
        draw_log(surf, a, self.log, self.log_rect, max(12, self.px(17)), theme.seat_colour,
                 "Turns so far (L: see the last turn again)")
        holding = self.view().get("holding") if self.timeline.idle else None
        if holding is not None and self.view().get("turn") is not None:
            seat = self.view()["turn"]
            held_at = self.place_rects.get(seat)
            if held_at:
                hx, hy = self.hand_spots[seat]
                r = held_at[0].copy()
                r.center = (round(hx), round(hy))
                pygame.draw.rect(surf, theme.ACCENT, r.inflate(8 + int(4 * pulse),
                                                           8 + int(4 * pulse)), 3,
                                 border_radius=10)
                surf.blit(a.scaled(theme.card_sprite(holding), r.size), r)
                if seat == me:
                    lab = a.text("wild card: pick a place", max(12, self.px(18)), theme.ACCENT)
                    surf.blit(lab, lab.get_rect(midtop=(r.centerx, r.bottom + 6)))
        for c in self.timeline.cards():
            cw = max(8, int(c.width))
            img = a.scaled(c.sprite, (cw, int(cw * 1.4)))
            if c.angle:
                img = pygame.transform.rotate(img, c.angle)
            surf.blit(img, img.get_rect(center=(round(c.pos[0]), round(c.pos[1]))))
        # status line
        turn = self.view().get("turn")
        if pub["phase"] == "over":
            status = f"Game over: {self.results_title()}"
        elif turn is None:
            status = ""
        elif self.my_turn():  # two people at this screen: say whose turn it is
            who = "Your turn" if len(self.session.tokens) == 1 else \
                seat_label(pub["seats"][turn])
            status = who + ": " + ("choose a face-down place for the wild card"
                                   if self.view().get("pending") == "wild" else
                                   "take the stock (S) or the discard (D)")
        elif turn in self.session.tokens and len(self.session.tokens) == 1:
            status = "Your turn"  # (paused, or one's own card still landing)
        else:
            status = f"{seat_label(pub['seats'][turn])}'s turn"
        status = self.status_line() or status
        stt = a.fit_text(status, max(14, self.px(24)),
                         theme.ACCENT if self.my_turn() else theme.TEXT,
                         self.admin_button.rect.x - self.px(20))
        surf.blit(stt, (self.px(10), self.px(14)))
        lead, size = [f"Hand {self.view().get('hand', 1)}"], max(12, self.px(18))
        if self.piles_beside:
            mid = (sr.centerx + dr.centerx) // 2
            self.draw_info(surf, lead, size, 2 * (w - mid) - self.px(20),
                           midtop=(mid, sr.bottom + self.px(32)))
        else:
            x = dr.right + self.px(30)
            self.draw_info(surf, lead, size, w - x - self.px(10), midleft=(x, dr.centery))
        self.form.draw(surf, a)
        if self.watching():  # a watcher (its line is the status): Ask for a seat, top right
            pr = self.pause_button.rect
            self.place_ask_button(surf, pygame.Rect(pr.right - self.px(250), pr.y,
                                                    self.px(250), pr.h))
        self.draw_hint_reason(surf, self.reason_rect)
        if self.banner:
            box, lines, size = self.banner_layout(w, h)
            surf.blit(a.nine_slice("panel", box.size, 14), box)
            step = int(size * 1.25)
            y = box.centery - step * len(lines) // 2
            for line in lines:
                bt = a.fit_text(line, size, theme.ACCENT, box.w - 24)
                surf.blit(bt, bt.get_rect(midtop=(box.centerx, y)))
                y += step
        if self.show_pause():
            self.draw_pause(surf)
        if self.results_shown():
            self.draw_results(surf)
