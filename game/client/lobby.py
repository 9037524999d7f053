"""The lobby: seats drawn as the board's colours; tap a colour to sit there (tap again to stand
up; tap more colours for a hot-seat game), set each CPU's difficulty right there, see the team
symbols, then Start. A hosted table that serves phones shows their QR code and short address
at the right (issue 18, ``docs/web.md``).

Keys: Left / Right pick a seat, Space sits or stands there, 1 / 2 / 3 set the picked CPU's
level to Easy / Tricky / Nasty, Enter (or S) starts (a guest: Enter is Ready), Esc goes back.
Enter never stands you up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.client import theme
from game.client.scene import Scene
from game.client.watchers import watcher_line, watching_line
from game.client.widgets import Button, TextInput

if TYPE_CHECKING:
    from game.client.session import Session  # the typed protocol both sessions implement
    from game.client.stage import Stage

LEVELS = ("easy", "tricky", "nasty")
LEVEL_TEXT = {"easy": "Easy", "tricky": "Tricky", "nasty": "Nasty"}


def describe(config: dict[str, Any], game: str) -> str:
    if game == "layout":
        opts = [f"{config.get('seats')} players", "Kings wild" if config.get("wild") == "K"
                else "Jacks wild"]
        if config.get("last_chance"):
            opts.append("last chance")
        if config.get("upcard"):
            opts.append("upcard")
        if config.get("layout_size", 10) != 10:
            opts.append(f"layout of {config.get('layout_size')}")
        return "Trash: " + ", ".join(opts)
    mode = {"teams": f"{config.get('teams')} teams", "h2h": "head to head",
            "ffa": "free-for-all", "solo": "solo"}.get(str(config.get("mode")), "")
    return f"{str(config.get('rules', '')).capitalize()}: {config.get('seats')} seats, {mode}"


class LobbyScene(Scene):
    name = "lobby"
    session: Session
    title = "The table"

    def __init__(self, stage: Stage, session: Session, kind: str = "local") -> None:
        super().__init__(stage)
        self.session = session
        self.kind = kind
        self.pick = 0
        self.error: str | None = None
        self.seat_rects: list[pygame.Rect] = []
        self.level_rects: list[list[pygame.Rect]] = []
        self.start_button = Button("Start", self.start, hotkey=pygame.K_s)
        self.ready_button = Button("Ready", self.ready, hotkey=pygame.K_r)
        self.ready_button.visible = False
        self.back_button = Button("Back", self.back)
        self.qr_rect = pygame.Rect(0, 0, 0, 0)  # the phones' QR code (issue 18)
        # hot seat: the name of the person at the picked local seat (shown with 2+ of them)
        self.name_input = TextInput("Name", "", 24, self._typed, lambda _t: self.commit_name(),
                                    placeholder="who sits here? then Enter")
        self.name_input.visible = False
        self.name_seat: int | None = None
        self.form.add(self.start_button)
        self.form.add(self.ready_button)
        self.form.add(self.back_button)
        self.form.add(self.name_input)
        self.form.focus(None)
        self.waiting_start = False
        self._held: set[int] = set()
        # the person sits at their preferred colour, else the first seat (a local table; on
        # the LAN the host's table gives each newcomer a seat)
        if not session.local_seats and not session.remote:
            pref = stage.settings.colour
            names = [n.lower() for n in theme.SEAT_COLOUR_NAMES]
            want = names.index(pref) if pref in names else 0
            seat = want if want < len(session.seats) else 0
            session.sit(seat, stage.settings.name)
            self.pick = seat

    def colour_of(self, seat: int) -> int:
        return seat % 8

    def layout(self, w: int, h: int) -> None:
        n = len(self.session.seats)
        cols = max(1, n if n <= 4 else (n + 1) // 2)
        rows = 1 if n <= 4 else 2
        self.layout_phones(w, h)
        sw = self.qr_rect.x if self.qr_rect.w else w  # the seats' width: left of the QR code
        cw = min(self.px(250), int(sw * 0.92) // cols)
        ch = min(self.px(210), int(h * 0.62) // rows)
        x0 = (sw - cw * cols) // 2
        y0 = self.px(120)
        self.seat_rects = []
        self.level_rects = []
        for i in range(n):
            r, c = divmod(i, cols)
            cell = pygame.Rect(x0 + c * cw, y0 + r * ch, cw, ch).inflate(-self.px(12),
                                                                        -self.px(12))
            self.seat_rects.append(cell)
            lw = (cell.w - self.px(16)) // 3
            ly = cell.bottom - self.px(44)
            self.level_rects.append([pygame.Rect(cell.x + self.px(8) + k * lw, ly, lw - 4,
                                                 self.px(36)) for k in range(3)])
        bw = self.px(240)
        by = h - self.px(90)
        self.back_button.rect = pygame.Rect(w // 2 - bw - self.px(20), by, bw, self.px(62))
        self.start_button.rect = pygame.Rect(w // 2 + self.px(20), by, bw, self.px(62))
        self.ready_button.rect = self.start_button.rect.copy()
        self.place_back()
        nw = min(self.px(560), int(w * 0.9))
        self.name_input.rect = pygame.Rect((w - nw) // 2, by - self.px(118), nw, self.px(46))

    def place_back(self) -> None:
        """Back beside Start (or Ready) on the left; in the middle when it is alone (a guest
        still connecting, or ready and waiting for the host)."""
        other = self.start_button.rect
        alone = not self.start_button.visible and not self.ready_button.visible
        bw = self.back_button.rect.w
        self.back_button.rect.x = (other.x - self.px(20) - bw // 2 if alone
                                   else other.x - self.px(40) - bw)

    # phones --------------------------------------------------------------------
    def web_url(self) -> str | None:
        """The phones' link when this program hosts a table that serves them, else None."""
        ht = self.session.host_thread if self.session.remote else None
        url = ht.web_url if ht is not None else None
        return str(url) if url else None

    def layout_phones(self, w: int, h: int) -> None:
        """The QR code's column at the right (none when the table serves no phones)."""
        if self.web_url() is None:
            self.qr_rect = pygame.Rect(0, 0, 0, 0)
            return
        from game.client.qr import qr_surface

        room = max(min(self.px(270), h - self.px(330)), min(215, w // 3))  # 200+ px at 800
        side = qr_surface(str(self.web_url()), room).get_width()  # whole pixels per module
        self.qr_rect = pygame.Rect(w - side - self.px(16), self.px(112), side, side)

    def draw_phones(self, surf: pygame.Surface) -> None:
        """The QR code of the phones' link, the short address under it."""
        url = self.web_url()
        if url is None or not self.qr_rect.w:
            return
        from game.client.qr import qr_surface, short_url

        a = self.stage.assets
        img = qr_surface(url, self.qr_rect.w)
        surf.blit(img, self.qr_rect)
        cx, width = self.qr_rect.centerx, self.qr_rect.w + self.px(20)
        t = a.fit_text("Phones: scan, or open", self.px(20), theme.TEXT_DIM, width)
        surf.blit(t, t.get_rect(midtop=(cx, self.qr_rect.bottom + self.px(6))))
        t = a.fit_text(short_url(url), self.px(22), theme.ACCENT, width)
        surf.blit(t, t.get_rect(midtop=(cx, self.qr_rect.bottom + self.px(30))))
        if self.session.table_screen:  # the host plays on a phone too
            t = a.fit_text("Table screen: this screen shows the board", self.px(18),
                           theme.TEXT_DIM, width)
            surf.blit(t, t.get_rect(midtop=(cx, self.qr_rect.bottom + self.px(58))))

    # hot-seat names ------------------------------------------------------------
    def hot_seat(self) -> bool:
        """A table on this screen with two or more people at it."""
        return not self.session.remote and len(self.session.local_seats) > 1

    def sync_name(self) -> None:
        """Show the name box for the picked seat when it is a hot-seat person's."""
        show = self.hot_seat() and self.pick in self.session.tokens
        if not show:
            if self.name_input.visible:
                self.name_input.visible = False
                self.form.check_focus()
            self.name_seat = None
            return
        self.name_input.visible = True
        if self.name_seat != self.pick:
            self.name_seat = self.pick
            self.name_input.label = f"{theme.SEAT_COLOUR_NAMES[self.colour_of(self.pick)]}'s name"
            self.name_input.text = str(self.session.seats[self.pick]["name"])

    def _typed(self, _text: str) -> None:
        self.error = None

    def commit_name(self) -> None:
        """Give the picked seat the typed name (Enter, tapping a colour, or Start)."""
        seat = self.name_seat
        if seat is None or seat not in self.session.tokens:
            return
        text = " ".join(self.name_input.text.split())
        if text and text != self.session.seats[seat]["name"]:
            r = self.session.rename(seat, text)
            self.error = None if r.ok else r.message
        self.name_input.text = str(self.session.seats[seat]["name"])
        if self.form.focused is self.name_input:
            self.form.focus(None)

    # intents -----------------------------------------------------------------
    def toggle(self, seat: int) -> None:
        if seat >= len(self.session.seats):
            return
        self.commit_name()
        here = self.session.seats[seat]
        if seat not in self.session.tokens and here["kind"] == "person" and \
                not here.get("connected", True) and self.session.is_host:
            # someone who joined and dropped off before the start: the host frees the seat
            r = self.session.hand_to_cpu(seat)  # the stand-in level
            self.error = None if r.ok else r.message
            self.stage.sound("click")
            return
        if seat in self.session.tokens:
            r = self.session.leave(seat)
        else:
            taken = {str(s["name"]) for s in self.session.seats if s["kind"] == "person"}
            mine = len(self.session.local_seats)
            name = self.stage.settings.name if mine == 0 else f"Player {mine + 1}"
            k = mine + 1
            while name in taken:
                k += 1
                name = f"Player {k}"
            r = self.session.sit(seat, name)
            if r.ok and mine > 0 and not self.session.remote:
                # a second person at this screen: ask their name at once
                self.pick = seat
                self.sync_name()
                self.name_input.text = ""
                self.form.focus(self.name_input)
        self.error = None if r.ok else r.message
        self.sync_name()
        self.stage.sound("click")

    def set_level(self, seat: int, level: str) -> None:
        r = self.session.set_cpu(seat, level)
        self.error = None if r.ok else r.message
        self.stage.sound("click")

    def start(self) -> None:
        self.commit_name()
        seatless = self.session.table_screen and self.session.is_host  # all on phones
        if not self.session.local_seats and not seatless:
            self.error = "Tap a colour to sit there first."
            return
        if not self.session.is_host:
            self.error = "The host starts the game."
            return
        r = self.session.start()
        if not r.ok:
            self.error = r.message
            return
        if self.session.remote:
            self.waiting_start = True  # the table scene opens when the host says so
            return
        self.open_table()

    def ready(self) -> None:
        r = self.session.ready()
        self.error = None if r.ok else r.message

    def open_table(self) -> None:
        self.stage.open_table(self.session, replace=True)

    def update(self, dt: float) -> None:
        self.sync_name()
        if not self.session.remote:
            return
        self.session.poll()
        failure = self.session.failure
        if failure is not None:
            reason, detail = failure
            choices = list(self.session.choices)
            self.session.close()
            self.stage.join_failed(reason, detail, choices)
            return
        remote_guest = not self.session.is_host
        self.start_button.visible = not remote_guest
        mine = [self.session.seats[i] for i in self.session.tokens
                if i < len(self.session.seats)]
        self.ready_button.visible = remote_guest and any(not s.get("ready") for s in mine)
        self.place_back()
        refusal = self.session.refusal
        if refusal:
            self.error = refusal
        if self.session.phase != "lobby" and self.session.seats:
            self.open_table()

    def redraw_key(self) -> object:  # (quiet: what makes the lobby draw again while idle)
        se = self.session
        return (super().redraw_key(), str(se.seats), se.status, se.code,
                se.link, str(se.config), self.error, self.pick, self.waiting_start)

    def background(self, dt: float) -> None:
        # covered: keep reading the host (no navigation from under another scene)
        if self.session.remote:
            self.session.poll()

    def back(self) -> None:
        # a local table and a hosted one have a save file here; a joined one has none
        remote = self.session.remote
        save = self.session.save_path
        owner = not remote or self.session.host_thread is not None
        self.session.close()
        if owner and save is not None:
            from game.client import saves

            if saves.never_started(save):  # left in the lobby: nothing to reopen
                saves.discard_save(save)
        self.stage.pop()

    # events ------------------------------------------------------------------
    def enter(self) -> None:
        super().enter()
        try:  # Enter still held from the Start that opened the lobby must not start the game
            held = pygame.key.get_pressed()
            self._held = {k for k in (pygame.K_RETURN, pygame.K_KP_ENTER) if held[k]}
        except (pygame.error, IndexError):
            self._held = set()

    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.KEYUP:
            self._held.discard(ev.key)
        if ev.type == pygame.KEYDOWN and self.form.focused is self.name_input:
            if ev.key == pygame.K_ESCAPE:  # keep the name it had; the lobby keys work again
                self.name_input.text = ""
                self.commit_name()
                return
            if ev.key in (pygame.K_LEFT, pygame.K_RIGHT):
                return
        if self.form.handle(ev):
            return
        n = max(1, len(self.session.seats))
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            if not self.form.released_here(ev):
                return  # a whole click begun here, not the release of another press
            for i, rects in enumerate(self.level_rects):
                if self.session.seats[i]["kind"] == "cpu":
                    for k, r in enumerate(rects):
                        if r.collidepoint(ev.pos):
                            self.pick = i
                            self.set_level(i, LEVELS[k])
                            return
            for i, r in enumerate(self.seat_rects):
                if r.collidepoint(ev.pos):
                    self.pick = i
                    self.toggle(i)
                    return
        elif ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.form.focus(None)
                self.pick = (self.pick + (1 if ev.key == pygame.K_RIGHT else -1)) % n
            elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                # the lobby's main action, never a stand-up: Start (Ready for a guest); a key
                # held from the screen before is no press here
                if ev.key not in self._held:
                    if self.ready_button.visible:
                        self.ready()
                    elif self.start_button.visible:
                        self.start()
            elif ev.key == pygame.K_SPACE:
                self.toggle(self.pick)
            elif ev.key in (pygame.K_1, pygame.K_2, pygame.K_3):
                if self.session.seats[self.pick]["kind"] == "cpu":
                    self.set_level(self.pick, LEVELS[ev.key - pygame.K_1])
            elif ev.key == pygame.K_ESCAPE:
                self.back()

    # drawing -----------------------------------------------------------------
    def draw(self, surf: pygame.Surface) -> None:
        super().draw(surf)
        a = self.stage.assets
        w, _h = surf.get_size()
        if len(self.seat_rects) != len(self.session.seats):
            self.layout(*surf.get_size())
        self.sync_name()
        if not self.session.seats:
            status = self.session.status if self.session.remote else "connecting"
            words = "Connecting to the table" + (f" ({status})" if status != "connecting"
                                                 else "")  # (it said "(connecting)" too)
            t = a.text(words + "...", self.px(30), theme.ACCENT2)
            surf.blit(t, t.get_rect(center=(w // 2, surf.get_height() // 2)))
            return
        sub = a.text(describe(self.session.config, self.session.game), self.px(26),
                     theme.TEXT_DIM)
        surf.blit(sub, sub.get_rect(center=(w // 2, self.px(92))))
        code = self.session.code if self.session.remote else ""
        if code:
            link = self.session.link
            # beside the phones' QR code when there is one
            tw = self.qr_rect.x - self.px(16) if self.qr_rect.w else w
            ct = a.fit_text(f"Code  {code}", self.px(48), theme.ACCENT, int(tw * 0.94))
            surf.blit(ct, ct.get_rect(center=(tw // 2, self.start_button.rect.y -
                                               self.px(110))))
            lt = a.fit_text(f"Link  {link}", self.px(26), theme.TEXT, int(tw * 0.94))
            surf.blit(lt, lt.get_rect(center=(tw // 2, self.start_button.rect.y -
                                               self.px(70))))
        self.draw_phones(surf)
        for i, s in enumerate(self.session.seats):
            cell = self.seat_rects[i]
            colour = theme.seat_colour(self.colour_of(i))
            surf.blit(a.nine_slice("panel", cell.size, 14), cell)
            if i == self.pick and self.form.focused in (None, self.name_input):
                pygame.draw.rect(surf, theme.FOCUS, cell.inflate(6, 6), 3, border_radius=16)
            d = min(cell.w // 3, cell.h // 3)
            c = (cell.centerx, cell.y + self.px(14) + d // 2)
            mine = i in self.session.tokens
            if mine:
                pygame.draw.circle(surf, theme.GOOD, c, d // 2 + self.px(7), self.px(4))
            surf.blit(a.scaled(f"peg_{self.colour_of(i)}", (d, d)), (c[0] - d // 2,
                                                                     c[1] - d // 2))
            if s.get("symbol") and self.session.config.get("mode") == "teams" and \
                    self.session.game == "track":
                sd = d // 2
                sym = s["symbol"] if s["symbol"] in theme.SYMBOLS else "ring"
                surf.blit(a.scaled(f"sym_{sym}", (sd, sd)), (c[0] - sd // 2, c[1] - sd // 2))
            label = s["name"] if s["kind"] == "person" else "CPU"
            t = a.fit_text(label, self.px(26), colour if not mine else theme.TEXT, cell.w - 12)
            surf.blit(t, t.get_rect(center=(cell.centerx, c[1] + d // 2 + self.px(18))))
            if s["kind"] == "cpu":
                for k, r in enumerate(self.level_rects[i]):
                    on = s["level"] == LEVELS[k]
                    pygame.draw.rect(surf, theme.ACCENT if on else theme.BG2, r,
                                     border_radius=8)
                    lt = a.fit_text(LEVEL_TEXT[LEVELS[k]], self.px(20),
                                    (40, 20, 0) if on else theme.TEXT, r.w - 4)
                    surf.blit(lt, lt.get_rect(center=r.center))
            else:
                remote = self.session.remote
                if mine:
                    first = self.session.local_seats[:1] == [i]
                    hint = "You" if remote else (
                        "You - tap to stand up" if first else "Here - tap to stand up")
                elif not s.get("connected", True):
                    hint = "Dropped off - tap to free" if self.session.is_host else \
                        "Dropped off"
                else:
                    hint = ("Ready" if s.get("ready") else "Not ready") if remote else \
                        "On this screen"
                ht = a.text(hint, self.px(18), theme.TEXT_DIM)
                surf.blit(ht, ht.get_rect(center=(cell.centerx, self.level_rects[i][0].centery)))
        # who is watching, under the plates (issue 17)
        watching = watching_line(self.session.public)
        if watching and self.seat_rects:
            wt = a.fit_text(watching, self.px(22), theme.ACCENT2, int(w * 0.9))
            surf.blit(wt, wt.get_rect(midtop=(w // 2, max(r.bottom for r in self.seat_rects) +
                                              self.px(8))))
        y = self.start_button.rect.y - self.px(30)
        if self.session.remote and not self.session.table_screen and \
                watcher_line(self.session):
            tip = str(watcher_line(self.session))
        elif self.session.remote:
            tip = ("Share the code or the link: whoever joins takes a free colour."
                   if self.session.is_host else "Tap a free colour to move there; tap Ready.")
        elif self.name_input.visible:
            tip = ("Type the name of the person at the picked colour and press Enter; "
                   "Left / Right then pick another seat.")
        else:
            tip = ("Tap a colour (or Left / Right, Space) to sit there; more colours for a "
                   "hot-seat game. Enter starts.")
        msg = self.error or tip
        t = a.fit_text(msg, self.px(22), theme.BAD if self.error else theme.TEXT_DIM,
                       int(w * 0.9))
        surf.blit(t, t.get_rect(center=(w // 2, y)))
