"""The menu screens: Title, New table (Host a game has "Reopen a saved table"), Reopen, Join,
Settings, Records, Rules.

Each is a :class:`~game.client.scene.Scene` laid out relative to the window size. The table
screens (lobby, track table, layout table) live in their own modules and are reached through
:meth:`NewTableScene.start` and :meth:`JoinScene.submit`. The title shows Continue (the newest
unfinished table, local or hosted); Esc there asks before quitting.

(The module is over 600 lines: the menus share their drawing helpers and the one set of screen
names the router maps, and no scene module may import another, so splitting them would copy
the helpers into each.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.client import rules_text, theme
from game.client.scene import Scene
from game.client.widgets import Button, Choice, ListBox, Slider, TextInput, Toggle, Widget
from game.table.pacing import SPEEDS  # the one speed table (a small module)

if TYPE_CHECKING:
    from game.client.stage import Stage



def draw_panel(scene: Scene, surf: pygame.Surface, rect: pygame.Rect) -> None:
    surf.blit(scene.stage.assets.nine_slice("panel", rect.size, 16), rect)


def draw_message(scene: Scene, surf: pygame.Surface, text: str, y: int,
                 colour: tuple[int, int, int] = theme.ACCENT) -> None:
    a = scene.stage.assets
    w = surf.get_width()
    lines = a.wrap(text, scene.px(26), int(w * 0.8))
    for i, line in enumerate(lines[:3]):
        t = a.text(line, scene.px(26), colour)
        surf.blit(t, t.get_rect(center=(w // 2, y + i * scene.px(28))))


# ---------------------------------------------------------------------------- title
class TitleScene(Scene):
    name = "title"

    def __init__(self, stage: Stage) -> None:
        super().__init__(stage)
        items: list[tuple[str, Callable[[], object]]] = [
            ("Play", lambda: stage.show("new_table", kind="local")),
            ("Host a game", lambda: stage.show("new_table", kind="host")),
            ("Join a game", lambda: stage.show("join")),
            ("Solo", lambda: stage.show("new_table", kind="solo")),
            ("Records", lambda: stage.show("records")),
            ("Settings", lambda: stage.show("settings")),
            ("Rules", lambda: stage.show("rules")),
            ("Quit", stage.quit),
        ]
        #: The table Continue reopens (the newest unfinished one, local or hosted), or None.
        self.resume_save: Any = None
        self.continue_button = Button("Continue", self.continue_table)
        self.continue_button.visible = False
        self.form.add(self.continue_button)
        self.buttons = [Button(t, f) for t, f in items]
        for b in self.buttons:
            self.form.add(b)
        self.t = 0.0
        self.find_continue()

    def find_continue(self) -> None:
        """Show Continue for the newest table that was started and is not finished."""
        self.resume_save = None
        folder = Path(self.stage.store.folder)
        try:  # no saves, no import of the table package (the first frame stays light)
            any_saves = any(p.suffix == ".jsonl" for p in (folder / "saves").iterdir())
        except OSError:
            any_saves = False
        if any_saves:
            from game.client.saves import list_saves, never_started

            for info in list_saves(folder, limit=20):
                if not info.finished and (info.plays or not never_started(info.path)):
                    self.resume_save = info
                    break
        had = self.continue_button.visible
        self.continue_button.visible = self.resume_save is not None
        if self.resume_save is not None:
            info = self.resume_save
            self.continue_button.label = f"Continue: {info.title()}"
            if not had:
                self.form.focus(self.continue_button)
        self.form.check_focus()
        if self.form.focused is None:
            self.form.focus_first()

    def continue_table(self) -> None:
        info = self.resume_save
        if info is None:
            return
        problem = self.stage.reopen_table(info.path)
        if problem:
            self.stage.message = problem

    def enter(self) -> None:
        self.find_continue()  # back from a table: it may be finished now, or new
        super().enter()

    def layout(self, w: int, h: int) -> None:
        bw, bh, gap = self.px(340), self.px(62), self.px(18)
        col_gap = self.px(40)
        x0 = w // 2 - bw - col_gap // 2
        top = int(h * 0.40)
        if self.continue_button.visible:
            bh, gap = self.px(54), self.px(12)
            top = int(h * 0.37)
            self.continue_button.rect = pygame.Rect(x0, top, 2 * bw + col_gap, bh)
            top += bh + gap
        for i, b in enumerate(self.buttons):
            col, row = divmod(i, 4)
            b.rect = pygame.Rect(x0 + col * (bw + col_gap), top + row * (bh + gap), bw, bh)

    def update(self, dt: float) -> None:
        self.t += dt

    def back(self) -> None:
        """Esc on the title asks before quitting (Enter quits, Esc stays)."""
        self.stage.show("confirm", question="Quit Tee Table?",
                        detail="Every table in progress is saved; Continue brings it back.",
                        yes="Quit", no="Stay", on_yes=self.stage.quit, kind="quit")

    def draw(self, surf: pygame.Surface) -> None:
        self.draw_background(surf)
        w, h = surf.get_size()
        a = self.stage.assets
        logo = a.image("logo")
        lw = min(int(w * 0.72), int(h * 0.30 * logo.get_width() / logo.get_height()))
        lh = int(lw * logo.get_height() / logo.get_width())
        surf.blit(a.scaled("logo", (lw, lh)), ((w - lw) // 2, int(h * 0.05)))
        self.form.draw(surf, a)
        hint = a.text("Arrows or Tab to move, Enter to choose, F11 fullscreen, Esc to quit",
                      self.px(20), theme.TEXT_DIM)
        surf.blit(hint, hint.get_rect(midbottom=(w // 2, h - self.px(12))))
        if self.stage.message:
            draw_message(self, surf, self.stage.message, int(h * 0.36), theme.BAD)


# ---------------------------------------------------------------------------- new table
TRACK_RULES = (("tees", "Tees"), ("classic", "Classic"), ("team", "Team"))
MODE_TEXT = {"teams": "Teams", "h2h": "Head to head", "ffa": "Free-for-all",
             "solo": "Solo"}


def track_modes(rules: str) -> list[str]:
    """Modes a rule set offers (spec track.md section 2)."""
    if rules == "tees":
        return ["teams"]
    return ["teams", "h2h", "ffa", "solo"]


def track_seat_options(rules: str, mode: str) -> list[int]:
    if mode == "solo":
        return [1] if rules != "tees" else []
    if mode == "h2h":
        return [2] if rules != "tees" else []
    if mode == "ffa":
        return list(range(3, 9)) if rules != "tees" else []
    return [4, 6] if rules == "tees" else [4, 6, 8]


def track_team_options(rules: str, seats: int) -> list[int]:
    """Numbers of teams for a teams game of ``seats`` (4: 2x2; 6: 2x3 or 3x2; 8: 2x4 or 4x2)."""
    if rules == "tees":
        return {4: [2], 6: [3]}.get(seats, [])
    return {4: [2], 6: [2, 3], 8: [2, 4]}.get(seats, [])


#: One line under each option of the New table screen saying what it does (by value).
OPTION_HELP: dict[str, dict[Any, str]] = {
    "game": {"track": "Race your five pegs out of start, once round and into home, moved by "
                      "the cards you play.",
             "layout": "Trash: turn your face-down layout into Ace to 10 before anyone else."},
    "rules": {"tees": "Tees: one deck, no jokers, always in teams of two; a Jack swaps two "
                      "pegs.",
              "classic": "Classic (Pegs and Jokers): draw, then play; a 7 splits, an 8 goes "
                         "back, a joker jumps.",
              "team": "Team: like Classic, but every turn you may move any peg of your "
                      "team."},
    "mode": {"teams": "Teams: partners sit apart and win together when all their pegs are "
                      "home.",
             "h2h": "Head to head: two players, each for themselves.",
             "ffa": "Free-for-all: every colour for itself.",
             "solo": "Solo: you alone, nobody to bump: all five pegs home in as few turns as "
                     "you can."},
    "wild": {"J": "Jacks are wild: you choose the place for each; a Queen or King ends the "
                  "turn.",
             "K": "Kings are wild: you choose the place for each; a Jack or Queen ends the "
                  "turn."},
    "last_chance": {False: "Last chance off: the hand ends as soon as someone fills their "
                           "layout.",
                    True: "Last chance on: when someone fills their layout, everyone else "
                          "has one more turn."},
    "upcard": {False: "Starting upcard off: the discard pile starts empty.",
               True: "Starting upcard on: one card is turned up to start the discard pile."},
}
#: Host a game's "Phones can join" (issue 18, ``docs/web.md``).
PHONES = [("off", "Off"), ("on", "On"), ("screen", "On, table screen")]
PHONES_HELP = {
    "off": "Off: only Tee Table programs join (by the code or the link).",
    "on": "On: the lobby shows a QR code; a phone that scans it plays in its browser.",
    "screen": "Table screen: everyone plays on a phone, you too; this screen shows the board.",
}
#: A seed deals the same game again (Table.create takes 0..2**64-1; new ones are 63 bits).
SEED_MAX = 2**64 - 1


class NewTableScene(Scene):
    """Choose the game and its options. ``kind``: ``local`` (Play), ``host`` or ``solo``.

    The last choices are kept in the settings (``setup``: per game, and the game per kind) and
    come back next time. Each option has a line under it saying what it does; rows keep their
    places when Mode changes (Teams keeps its slot while hidden). Solo shows only what can be
    chosen: rule set, speed and a seed (blank: a new deal; a number deals that game again,
    ``seed=`` fills it in, from Records)."""

    name = "new_table"

    def __init__(self, stage: Stage, kind: str = "local", seed: int | None = None,
                 rules: str | None = None) -> None:
        super().__init__(stage)
        if kind not in ("local", "host", "solo"):
            raise ValueError(f"unknown table kind {kind!r}")
        self.kind = kind
        self.title = {"local": "New table", "host": "Host a game", "solo": "Solo"}[kind]
        self.error: str | None = None
        solo = kind == "solo"
        self.game = Choice("Game", [("track", "Track (pegs)"), ("layout", "Trash (cards)")],
                           "track", self._changed)
        rule_sets = [r for r in TRACK_RULES if not (solo and r[0] == "tees")]
        self.rules = Choice("Rule set", rule_sets, "classic" if solo else "tees", self._changed)
        self.mode = Choice("Mode", [], "solo" if solo else "teams", self._changed)
        self.seats = Choice("Seats", [], 1 if solo else 4, self._changed)
        self.teams = Choice("Teams", [], 2, self._changed)
        self.wild = Choice("Wild card", [("J", "Jacks"), ("K", "Kings")], "J")
        self.last_chance = Toggle("Last chance", False)
        self.upcard = Toggle("Starting upcard", False)
        self.layout_size = Choice("Layout size", [(n, str(n)) for n in range(10, 0, -1)], 10)
        speed = stage.settings.table_speed
        self.speed = Choice("Table speed", [(k, s.title) for k, s in SPEEDS.items()], speed)
        self.seed = TextInput("Seed", "" if seed is None else str(seed), 20, self._typed,
                              lambda _t: self.start(), placeholder="blank: a new deal")
        self.seed.visible = solo
        #: Host a game: phones on the LAN may join from their browsers (docs/web.md); "screen":
        #: everyone plays on a phone and this window shows only the board (table screen).
        self.phones = Choice("Phones can join", PHONES, "on")
        self.phones.visible = kind == "host"
        self.start_button = Button("Start" if kind != "host" else "Open the table", self.start)
        self.back_button = Button("Back", self.back)
        self.reopen_button = Button("Reopen a saved table", lambda: stage.show("reopen"))
        for w in (self.game, self.rules, self.mode, self.seats, self.teams, self.wild,
                  self.last_chance, self.upcard, self.layout_size, self.speed, self.seed,
                  self.phones, self.start_button, self.back_button, self.reopen_button):
            self.form.add(w)
        if solo:
            self.game.enabled = False
        self._changed(None)
        self.restore(rules)
        self.form.focus(self.start_button if solo else self.game)

    # ------------------------------------------------------------------ remembered choices
    def _memory(self, name: str) -> dict[str, Any]:
        mem = self.stage.settings.setup.get(name)
        return dict(mem) if isinstance(mem, dict) else {}

    def restore(self, rules: str | None = None) -> None:
        """The last choices (settings ``setup``) back on the rows; ``rules`` overrides."""
        solo = self.kind == "solo"
        if not solo:
            game = self._memory("last").get(self.kind)
            if game in ("track", "layout"):
                self.game.set_options(self.game.options, game)
                self._changed(None)
        mem = self._memory("solo" if solo else "track")
        if rules is not None:
            mem["rules"] = rules
        for w, k in ((self.rules, "rules"), (self.mode, "mode"), (self.seats, "seats"),
                     (self.teams, "teams")):
            if k in mem and not (solo and k in ("mode", "seats")):
                w.set_options(w.options, mem[k])
                self._changed(None)
        lay = self._memory("layout")
        for w, k in ((self.seats, "seats"), (self.wild, "wild"),
                     (self.last_chance, "last_chance"), (self.upcard, "upcard"),
                     (self.layout_size, "layout_size")):
            if k in lay and self.game.value == "layout":
                w.set_options(w.options, lay[k])
        phones = self._memory("host").get("phones")
        if self.kind == "host" and phones in dict(PHONES):
            self.phones.set_options(self.phones.options, phones)
        self._changed(None)

    def remember(self) -> None:
        """Keep these choices for next time (a failure to save is shown, never fatal)."""
        setup = {k: dict(v) for k, v in self.stage.settings.setup.items()
                 if isinstance(v, dict)}
        cfg = {k: v for k, v in self.config().items()
               if k not in ("game", "web", "table_screen")}
        if self.kind == "host":
            setup["host"] = {"phones": str(self.phones.value)}
        if self.kind == "solo":
            setup["solo"] = {"rules": cfg["rules"]}
        else:
            setup[self.game.value] = cfg
            setup["last"] = {**setup.get("last", {}), self.kind: self.game.value}
        self.stage.save_settings(setup=setup, table_speed=self.speed.value)

    # ------------------------------------------------------------------ choices
    def _typed(self, _text: str) -> None:
        self.error = None

    def _changed(self, _value: Any) -> None:
        track = self.game.value == "track"
        solo = self.kind == "solo"
        if track:
            rules = self.rules.value
            modes = ["solo"] if solo else [m for m in track_modes(rules) if m != "solo"]
            self.mode.set_options([(m, MODE_TEXT[m]) for m in modes])
            seats = track_seat_options(rules, self.mode.value)
            self.seats.set_options([(n, str(n)) for n in seats])
            teams = track_team_options(rules, self.seats.value) if self.mode.value == "teams" \
                else []
            per = self.seats.value or 0
            self.teams.set_options([(t, f"{t} teams of {per // t}") for t in teams])
        else:
            self.seats.set_options([(n, str(n)) for n in range(2, 9)])
        # solo has one game, one mode and one seat: no rows whose arrows do nothing
        self.game.visible = not solo
        self.rules.visible = track
        self.mode.visible = track and not solo
        self.seats.visible = not solo
        self.teams.visible = track and self.mode.value == "teams"
        for w in (self.wild, self.last_chance, self.upcard, self.layout_size):
            w.visible = not track
        self.form.check_focus()
        self.layout(*self.size)

    def slots(self) -> list[Widget]:
        """The option rows in their places (hidden ones keep theirs: nothing moves under the
        mouse when Mode changes)."""
        if self.kind == "solo":
            return [self.rules, self.speed, self.seed]
        host = [self.phones] if self.kind == "host" else []
        if self.game.value == "track":
            return [self.game, self.rules, self.mode, self.seats, self.teams, self.speed, *host]
        return [self.game, self.seats, self.wild, self.last_chance, self.upcard,
                self.layout_size, self.speed, *host]

    def help_for(self, w: Widget) -> str:
        """The line under a row: what the option (at its value) does."""
        if w is self.speed:
            sp = SPEEDS.get(str(self.speed.value))
            return f"{sp.title}: {sp.about}" if sp is not None else ""
        if w is self.seed:
            return ("Blank deals a new game; a number deals that game again (Records lists "
                    "your best seeds).")
        if w is self.seats:
            if self.game.value == "layout":
                return f"{self.seats.value} players: people sit in the lobby, CPUs take the rest."
            return (f"{self.seats.value} colours round the board: people sit in the lobby, "
                    "CPUs take the rest.")
        if w is self.teams:
            return "How the seats split into teams: partners win together."
        if w is self.phones:
            return PHONES_HELP[str(self.phones.value)]
        if w is self.layout_size:
            n = self.layout_size.value
            return ("A layout of 10: the full game." if n == 10 else
                    f"A layout of {n}: a shorter game (places Ace to {n}).")
        names = {id(self.game): "game", id(self.rules): "rules", id(self.mode): "mode",
                 id(self.wild): "wild", id(self.last_chance): "last_chance",
                 id(self.upcard): "upcard"}
        key = names.get(id(w))
        if key is None or not isinstance(w, Choice):
            return ""
        return OPTION_HELP[key].get(w.value, "")

    def config(self) -> dict[str, Any]:
        """The game configuration these choices describe (hosting: with ``web``, whether
        phones can join, and ``table_screen``, which ``host_table`` takes out of it)."""
        cfg: dict[str, Any]
        if self.game.value == "layout":
            cfg = {"game": "layout", "seats": self.seats.value, "wild": self.wild.value,
                   "last_chance": self.last_chance.value, "upcard": self.upcard.value,
                   "layout_size": self.layout_size.value}
        else:
            cfg = {"game": "track", "rules": self.rules.value, "mode": self.mode.value,
                   "seats": self.seats.value}
            if self.mode.value == "teams":
                cfg["teams"] = self.teams.value
        if self.kind == "host":
            cfg["web"] = self.phones.value != "off"
            cfg["table_screen"] = self.phones.value == "screen"
        return cfg

    def chosen_seed(self) -> tuple[bool, int | None]:
        """(ok, seed): the Seed box's number, None when blank; not ok when it is no seed."""
        text = self.seed.text.strip() if self.kind == "solo" else ""
        if not text:
            return True, None
        if not text.isdigit() or int(text) > SEED_MAX:
            self.error = ("A seed is a whole number (Records shows the seeds of your best "
                          "games), or leave it blank for a new deal.")
            return False, None
        return True, int(text)

    def start(self) -> None:
        ok, seed = self.chosen_seed()
        if not ok:
            return
        self.remember()
        if seed is None:
            self.error = self.stage.start_table(self.config(), self.kind, self.speed.value)
        else:
            self.error = self.stage.start_table(self.config(), self.kind, self.speed.value,
                                                seed=seed)

    def layout(self, w: int, h: int) -> None:
        fw = min(self.px(720), int(w * 0.9))
        rh = self.px(42)
        pitch = rh + self.px(22) + self.px(6)
        x = (w - fw) // 2
        y = self.px(96)
        # every row above the buttons (hosting Trash has eight)
        pitch = max(rh + self.px(20), min(pitch, (h - self.px(100) - y) // len(self.slots())))
        for wd in self.slots():
            wd.rect = pygame.Rect(x, y, fw, rh)
            y += pitch
        for wd in (self.game, self.rules, self.mode, self.seats, self.teams, self.wild,
                   self.last_chance, self.upcard, self.layout_size, self.speed, self.seed,
                   self.phones):
            if wd not in self.slots():
                wd.rect = pygame.Rect(0, 0, 0, 0)
        bw = self.px(260)
        by = h - self.px(90)
        self.back_button.rect = pygame.Rect(w // 2 - bw - self.px(20), by, bw, self.px(62))
        self.start_button.rect = pygame.Rect(w // 2 + self.px(20), by, bw, self.px(62))
        # reopen a saved table, top right (out of the options' column)
        rw = min(self.px(300), max(self.px(200), (w - fw) // 2 - self.px(24)))
        self.reopen_button.rect = pygame.Rect(w - rw - self.px(16), self.px(16), rw,
                                              self.px(52))

    def draw(self, surf: pygame.Surface) -> None:
        super().draw(surf)
        a = self.stage.assets
        for wd in self.slots():
            if not wd.visible:
                continue
            text = self.help_for(wd)
            if text:
                t = a.fit_text(text, self.px(19), theme.TEXT_DIM, wd.rect.w)
                surf.blit(t, (wd.rect.x, wd.rect.bottom + self.px(3)))
        if self.error:
            draw_message(self, surf, self.error, self.start_button.rect.y - self.px(30),
                         theme.BAD)


# ---------------------------------------------------------------------------- reopen
class ReopenScene(Scene):
    """Reopen a saved table (from New table / Host a game): the tables this program played or
    hosted (saved in the data folder), newest first, with game, rules, seats, people and date.
    A local one (Play, Solo, hot seat) resumes here with its people back on this screen; a
    hosted one reopens under the same code and port: every joined program rejoins by itself."""

    name = "reopen"
    title = "Reopen a saved table"

    def __init__(self, stage: Stage) -> None:
        super().__init__(stage)
        from game.client.saves import list_saves
        from game.client.session import is_local_save

        self.error: str | None = None
        self.saves = list_saves(stage.store.folder)
        rows = []
        for info in self.saves:
            when, who, plays = info.detail().split(" - ", 2)
            where = "here" if is_local_save(info.path) else "hosted"
            rows.append([when, f"{info.title()} ({where})", who, plays])
        self.table = ListBox(rows, on_select=self.reopen, widths=(0.24, 0.28, 0.32, 0.16),
                             header=("Saved", "Game", "People", "Progress"))
        self.back_button = Button("Back", self.back)
        #: Watch (W): the replay viewer over the chosen table's game (its record, exported
        #: from the save); Save record... (S): that record into the documents folder.
        self.watch_button = Button("Watch", self.watch)
        self.save_button = Button("Save record...", self.save)
        self.note: str | None = None
        self.form.add(self.table)
        for b in (self.watch_button, self.save_button):
            b.visible = bool(rows)
            self.form.add(b)
        self.form.add(self.back_button)
        self.form.focus(self.table if rows else self.back_button)

    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.KEYDOWN and self.saves and ev.key in (pygame.K_w, pygame.K_s):
            (self.watch if ev.key == pygame.K_w else self.save)()
            return
        super().handle(ev)

    def watch(self) -> None:
        """The chosen saved table's game in the replay viewer (nothing of the save changes)."""
        from game.table import TableError
        from game.table.record import record_text

        i = self.table.selected
        if not 0 <= i < len(self.saves):
            return
        self.note = None
        try:
            text = record_text(self.saves[i].path)
        except (OSError, TableError, ValueError) as e:
            self.error = f"Cannot watch this table: {e}"
            return
        self.error = self.stage.open_replay(text)

    def save(self) -> None:
        from game.client.keep import save_record

        i = self.table.selected
        if 0 <= i < len(self.saves):
            said = save_record(self.saves[i].path, from_save=True)
            ok = said.startswith("Record saved")
            self.note, self.error = (said, None) if ok else (None, said)

    def reopen(self, i: int) -> None:
        if not 0 <= i < len(self.saves):
            return
        problem = self.stage.reopen_table(self.saves[i].path)
        self.error = problem

    def layout(self, w: int, h: int) -> None:
        tw = min(self.px(1100), int(w * 0.94))
        top = self.px(100)
        self.table.row_h = max(20, self.px(38))
        self.table.rect = pygame.Rect((w - tw) // 2, top, tw, h - top - self.px(190))
        bw = min(self.px(260), (tw - self.px(40)) // 3)
        gap = self.px(20)
        x = (w - 3 * bw - 2 * gap) // 2
        for k, b in enumerate((self.watch_button, self.save_button, self.back_button)):
            b.rect = pygame.Rect(x + k * (bw + gap), h - self.px(90), bw, self.px(62))
        if not self.saves:
            self.back_button.rect = pygame.Rect((w - bw) // 2, h - self.px(90), bw, self.px(62))

    def draw(self, surf: pygame.Surface) -> None:
        super().draw(surf)
        a = self.stage.assets
        w = surf.get_width()
        if not self.saves:
            msg = a.fit_text("No saved tables yet: every table you play or host is saved here.",
                             self.px(26), theme.TEXT_DIM, self.table.rect.w - 20)
            surf.blit(msg, msg.get_rect(center=self.table.rect.center))
        tip = a.fit_text("Click a table (or Up / Down, then Enter) to reopen it: a table played "
                         "here resumes here; at a hosted one everyone rejoins their seat. "
                         "W watches its game, S saves its record.",
                         self.px(22), theme.TEXT_DIM,
                         int(w * 0.94))
        surf.blit(tip, tip.get_rect(center=(w // 2, self.table.rect.bottom + self.px(24))))
        if self.note:
            draw_message(self, surf, self.note, self.table.rect.bottom + self.px(60), theme.GOOD)
        if self.error:
            draw_message(self, surf, self.error, self.table.rect.bottom + self.px(60),
                         theme.BAD)


# ---------------------------------------------------------------------------- join
JOIN_MESSAGES = {
    "wrong_code": "That code is not the table's code. Check the letters and try again.",
    "not_found": "No table with that code answered on this network. Is the host's game open? "
                 "You can also paste the host's link or address.",
    "table_full": "That table is full: every seat is taken.",
    "version": "The host runs a different version of Tee Table. Both need the same version.",
    "host_gone": "The host has stopped answering. They may have closed the game; "
                 "try again when it is back.",
    "unreachable": "Could not reach the host at that address. Check the address and that "
                   "you are on the same network.",
    "bad_token": "The host does not know this seat (a different table?).",
    "busy": "The host is busy letting people in. Try again in a moment.",
    "wrong_host": "The table that answered is not the one you joined before (it does not hold "
                  "that table's key). Ask the host for a new link.",
    "several_tables": "More than one table answered that code. Choose yours below, or paste "
                      "the host's link.",
    "update": "The host runs another version of Tee Table. Update Tee Table on the older "
              "machine.",
}


def join_message(reason: str | None, detail: str = "") -> str:
    """A message for people for a join failure ``reason`` code (net.client reasons)."""
    if reason in JOIN_MESSAGES:
        return JOIN_MESSAGES[reason]
    return detail or "Could not join that table."


class JoinScene(Scene):
    name = "join"
    title = "Join a game"

    def __init__(self, stage: Stage, join: str | None = None) -> None:
        """``join``: a code, link or address to join at once (``main.py --join LINK``)."""
        super().__init__(stage)
        self.error: str | None = None
        self.status: str | None = None
        self.entry = TextInput("", join or "", 80, self._typed, lambda _t: self.submit(),
                               placeholder="Code (like KQXF), link or address:port")
        self.join_button = Button("Join", self.submit)
        self.back_button = Button("Back", self.back)
        for w in (self.entry, self.join_button, self.back_button):
            self.form.add(w)
        self.target: Any = None
        self._join_now = join is not None
        #: The tables that answered a code, when more than one did: (a line, its link).
        self.choices: list[tuple[str, str]] = []
        self.tables = ListBox([], on_select=self._choose)
        self.tables.visible = False
        self.form.add(self.tables)

    def enter(self) -> None:
        super().enter()
        if self._join_now:
            self._join_now = False
            self.submit()

    def _typed(self, _text: str) -> None:
        self.error = None

    def submit(self) -> None:
        from net.codes import LinkError, parse_join_target

        try:
            target = parse_join_target(self.entry.text)
        except LinkError as e:
            self.error = str(e)[:1].upper() + str(e)[1:]
            self.status = None
            return
        self.target = target
        self.error = None
        problem = self.stage.join_table(target)
        if problem:
            self.error = join_message(problem)

    def join_failed(self, reason: str, detail: str = "",
                    choices: Sequence[tuple[str, str]] = ()) -> None:
        self.fail(reason, detail)
        self.choices = list(choices)
        self.tables.rows = [[label] for label, _link in self.choices]
        self.tables.selected = 0 if self.choices else -1
        self.tables.visible = bool(self.choices)
        if self.choices:
            self.form.focus(self.tables)

    def _choose(self, i: int) -> None:
        """Join the table the person chose among those that answered the code."""
        if 0 <= i < len(self.choices):
            self.entry.set_text(self.choices[i][1])
            self.tables.visible = False
            self.choices = []
            self.submit()

    def fail(self, reason: str, detail: str = "") -> None:
        """Show a join failure (called by the connection when it gives up)."""
        self.status = None
        self.error = join_message(reason, detail)

    def layout(self, w: int, h: int) -> None:
        fw = min(self.px(760), int(w * 0.9))
        self.entry.rect = pygame.Rect((w - fw) // 2, int(h * 0.36), fw, self.px(60))
        bw = self.px(240)
        by = int(h * 0.36) + self.px(100)
        self.back_button.rect = pygame.Rect(w // 2 - bw - self.px(20), by, bw, self.px(62))
        self.join_button.rect = pygame.Rect(w // 2 + self.px(20), by, bw, self.px(62))
        self.tables.row_h = self.px(40)
        self.tables.rect = pygame.Rect((w - fw) // 2, by + self.px(150), fw, self.px(40) * 4)

    def draw(self, surf: pygame.Surface) -> None:
        super().draw(surf)
        w, h = surf.get_size()
        a = self.stage.assets
        lines = ["Type the table's code (the host's screen shows it),",
                 "or paste the link or address:port the host sent you."]
        for i, line in enumerate(lines):
            t = a.text(line, self.px(26), theme.TEXT_DIM)
            surf.blit(t, t.get_rect(center=(w // 2, int(h * 0.22) + i * self.px(32))))
        y = self.join_button.rect.bottom + self.px(40)
        if self.status:
            draw_message(self, surf, self.status, y, theme.ACCENT2)
            y += self.px(34)
        if self.error:
            draw_message(self, surf, self.error, y, theme.BAD)


# ---------------------------------------------------------------------------- settings
COLOUR_KEYS = tuple(n.lower() for n in theme.SEAT_COLOUR_NAMES)


class SettingsScene(Scene):
    name = "settings"
    title = "Settings"

    def __init__(self, stage: Stage) -> None:
        super().__init__(stage)
        s = stage.settings
        self.error: str | None = None
        self.name_input = TextInput("Name", s.name, 24, self._name,
                                    lambda _t: self._save_name())
        colours = [(None, "No preference"), *zip(COLOUR_KEYS, theme.SEAT_COLOUR_NAMES,
                                                 strict=True)]
        self.colour = Choice("Colour", colours, s.colour, self._colour,
                             swatches=[(90, 90, 100), *theme.SEAT_COLOURS])
        self.sound = Toggle("Sound", s.sound, lambda v: self._save(sound=v))
        self.volume = Slider("Volume", 0, 100, round(s.volume * 100), 5,
                             lambda v: self._save(volume=round(v) / 100),
                             fmt=lambda v: f"{v:.0f}%")
        self.animation = Choice("Animation", [("full", "Full"), ("reduced", "Reduced")],
                                s.animation, lambda v: self._save(animation=v))
        self.fullscreen = Toggle("Fullscreen", stage.fullscreen, self._fullscreen)
        #: High contrast for the tables (stronger outlines and colours; the tables read it).
        self.high_contrast = Toggle("High contrast", s.high_contrast,
                                    lambda v: self._save(high_contrast=bool(v)))
        self.back_button = Button("Back", self.back)
        for w in (self.name_input, self.colour, self.sound, self.volume, self.animation,
                  self.fullscreen, self.high_contrast, self.back_button):
            self.form.add(w)

    def _save(self, **changes: Any) -> None:
        self.error = self.stage.save_settings(**changes)

    def _name(self, text: str) -> None:
        self.error = None if text.strip() else "Your name cannot be empty."

    def _save_name(self) -> None:
        """Keep the typed name (on Enter and when leaving the screen); an empty name is not
        saved."""
        name = self.name_input.text.strip()
        old = self.stage.settings.name
        if name and name != old:
            self._save(name=name)
            pid = self.stage.settings.player_id
            if self.error is None and pid:
                try:  # the records follow the player to the new name (old ones claimed first)
                    self.stage.store.follow(pid, old)
                    self.stage.store.follow(pid, name)
                except Exception as e:  # records problems are shown, never fatal
                    self.error = f"Your records stay under the old name: {e}"

    def leave(self) -> None:
        self._save_name()
        super().leave()

    def _colour(self, value: Any) -> None:
        self._save(colour=value)

    def _fullscreen(self, on: Any) -> None:
        self.stage.set_fullscreen(bool(on))
        self.fullscreen.index = 1 if self.stage.fullscreen else 0

    def enter(self) -> None:
        super().enter()
        self.fullscreen.index = 1 if self.stage.fullscreen else 0

    def layout(self, w: int, h: int) -> None:
        fw = min(self.px(640), int(w * 0.86))
        self.column([self.name_input, self.colour, self.sound, self.volume, self.animation,
                     self.fullscreen, self.high_contrast], (w - fw) // 2, self.px(110), fw,
                    self.px(50), self.px(14))
        bw = self.px(260)
        self.back_button.rect = pygame.Rect((w - bw) // 2, h - self.px(100), bw, self.px(62))

    def draw(self, surf: pygame.Surface) -> None:
        super().draw(surf)
        if self.error:
            draw_message(self, surf, self.error, self.back_button.rect.y - self.px(30),
                         theme.BAD)
        line = engine_line()
        t = self.stage.assets.fit_text(line, self.px(18), theme.TEXT_DIM, surf.get_width() - 20)
        surf.blit(t, t.get_rect(midbottom=(surf.get_width() // 2,
                                           surf.get_height() - self.px(8))))


def engine_line() -> str:
    """The About line: which track engine runs (the Nasty CPU searches about twice as many
    deals with the C core as on the pure-Python engine, docs/ai.md)."""
    from game.rules.track import engine_kind

    if engine_kind() == "C core":
        return "Track engine: the C core (full strength for the Nasty CPU)"
    return ("Track engine: Python only (no C compiler at install): the Nasty CPU searches "
            "about half as many deals")


# ---------------------------------------------------------------------------- records
SOLO_RULES = ("classic", "team")


def recent_rows(folder: str | Path) -> tuple[list[Any], list[list[str]]]:
    """Records' "Recent games": the kept records (newest first) and their rows (date, game,
    seats, result: the winners' names, or "not over")."""
    from game.rules.record import RecordError, parse_record
    from game.table.recent import list_recent

    infos = list_recent(folder)
    rows: list[list[str]] = []
    for info in infos:
        result = "not over"
        if info.result != "*":
            try:
                rec = parse_record(info.path.read_text(encoding="utf-8"))
                names = {st.index: st.name for st in rec.seats}
                won = [names.get(int(x), f"seat {x}") for x in info.result.split(",") if x]
                result = " and ".join(won) + " won"
            except (OSError, UnicodeDecodeError, RecordError, ValueError):
                result = "over"
        who = ", ".join(info.people) if info.people else "CPUs only"
        rows.append([info.date, info.title(), who, result])
    return infos, rows


class RecordsScene(Scene):
    name = "records"
    title = "Records"

    def __init__(self, stage: Stage) -> None:
        super().__init__(stage)
        self.error: str | None = None
        rows: list[list[str]] = []
        bests: dict[str, tuple[int, int]] = {}
        try:
            pid = stage.settings.player_id
            if pid:  # records kept by name before the ids: this player claims theirs
                stage.store.follow(pid, stage.settings.name)
            rows = [[r.name, str(r.points), str(r.played), str(r.won)]
                    for r in stage.store.points()]
            bests = stage.store.solo_bests()
        except Exception as e:  # RecordsError, sqlite errors: show, never crash
            self.error = str(e)
        self.bests = bests
        self.table = ListBox(rows, widths=(0.46, 0.18, 0.18, 0.18),
                             header=("Name", "Points", "Played", "Won"))
        self.back_button = Button("Back", self.back)
        self.table_w = 0
        self.best_rect = pygame.Rect(0, 0, 0, 0)
        self.form.add(self.table)
        #: Recent games (the last 50 kept records): Enter / click watches one; Save record...
        self.note: str | None = None
        self.recent_infos: list[Any] = []
        recent: list[list[str]] = []
        try:
            self.recent_infos, recent = recent_rows(stage.store.folder)
        except Exception as e:  # an unreadable folder: shown, never a crash
            self.error = str(e)
        self.recent = ListBox(recent, on_select=self.watch, widths=(0.16, 0.30, 0.26, 0.28),
                              header=("Date", "Game", "People", "Result"))
        self.watch_button = Button("Watch", lambda: self.watch(self.recent.selected))
        self.save_button = Button("Save record...", self.save)
        self.form.add(self.recent)
        #: "Play seed N again" for each solo best: Solo setup with that seed filled in.
        self.again: dict[str, Button] = {}
        for r in SOLO_RULES:
            best = bests.get(r)
            if best is not None:
                b = Button(f"Play seed {best[1]} again", partial(self.play_again, r, best[1]))
                self.again[r] = b
                self.form.add(b)
        for b in (self.watch_button, self.save_button):
            b.visible = bool(recent)
            self.form.add(b)
        self.form.add(self.back_button)
        self.form.focus(self.recent if recent else self.back_button)

    def watch(self, i: int) -> None:
        """Recent game ``i`` in the replay viewer."""
        if 0 <= i < len(self.recent_infos):
            self.note = None
            self.error = self.stage.open_replay(self.recent_infos[i].path)

    def save(self) -> None:
        """Save record...: the chosen recent game's record into the documents folder."""
        from game.client.keep import save_record

        i = self.recent.selected
        if 0 <= i < len(self.recent_infos):
            said = save_record(self.recent_infos[i].path)
            ok = said.startswith("Record saved")
            self.note, self.error = (said, None) if ok else (None, said)

    def play_again(self, rules: str, seed: int) -> None:
        """Solo setup with the rule set and the seed of a best game: the same deal again."""
        self.stage.show("new_table", kind="solo", seed=seed, rules=rules)

    def layout(self, w: int, h: int) -> None:
        tw = self.table_w = min(self.px(1100), int(w * 0.94))
        top = self.px(96)
        self.table.row_h = self.px(30)
        self.table.rect = pygame.Rect((w - tw) // 2, top, int(tw * 0.6), self.px(236))
        self.recent.row_h = self.px(30)
        rt = self.table.rect.bottom + self.px(44)
        self.recent.rect = pygame.Rect((w - tw) // 2, rt, tw, h - rt - self.px(96))
        bw = self.px(240)
        gap = self.px(20)
        x = (w - 3 * bw - 2 * gap) // 2
        for k, btn in enumerate((self.watch_button, self.save_button, self.back_button)):
            btn.rect = pygame.Rect(x + k * (bw + gap), h - self.px(82), bw, self.px(58))
        if not self.recent.rows:
            self.back_button.rect = pygame.Rect((w - bw) // 2, h - self.px(82), bw, self.px(58))
        t = self.table.rect
        x = t.right + self.px(24)
        self.best_rect = pygame.Rect(x, t.y, self.table_w - (x - t.x), t.h)
        y = self.best_rect.y + self.px(10 + 40)
        for r in SOLO_RULES:
            y += self.px(32)
            b = self.again.get(r)
            if b is not None:
                b.rect = pygame.Rect(self.best_rect.x + self.px(16), y,
                                     self.best_rect.w - self.px(32), self.px(38))
                y += self.px(44)

    def draw(self, surf: pygame.Surface) -> None:
        self.draw_background(surf)
        self.draw_title(surf, self.title)
        a = self.stage.assets
        right = self.best_rect
        draw_panel(self, surf, right)
        self.form.draw(surf, a)
        y = right.y + self.px(10)
        head = a.text("Solo best", self.px(30), theme.ACCENT)
        surf.blit(head, (right.x + self.px(16), y))
        y += self.px(40)
        for r in SOLO_RULES:
            best = self.bests.get(r)
            label = a.text(r.capitalize(), self.px(26), theme.TEXT)
            surf.blit(label, (right.x + self.px(16), y))
            val = f"{best[0]} turns" if best else "-"
            v = a.text(val, self.px(26), theme.TEXT)
            surf.blit(v, v.get_rect(topright=(right.right - self.px(16), y)))
            y += self.px(32)
            if r in self.again:
                y += self.px(44)
        if not self.table.rows:
            msg = a.text("No games recorded yet: play one!", self.px(24), theme.TEXT_DIM)
            surf.blit(msg, msg.get_rect(center=self.table.rect.center))
        rr = self.recent.rect
        head = a.text("Recent games", self.px(28), theme.ACCENT)
        surf.blit(head, (rr.x, rr.y - self.px(36)))
        tip = a.fit_text("Click one (or Enter) to watch it again", self.px(20), theme.TEXT_DIM,
                         rr.w - head.get_width() - self.px(30))
        surf.blit(tip, tip.get_rect(bottomright=(rr.right, rr.y - self.px(8))))
        if not self.recent.rows:
            msg = a.fit_text("Every game you finish here is kept: the last 50 are listed.",
                             self.px(24), theme.TEXT_DIM, rr.w - 20)
            surf.blit(msg, msg.get_rect(center=rr.center))
        if self.note:
            draw_message(self, surf, self.note, self.back_button.rect.y - self.px(34),
                         theme.GOOD)
        if self.error:
            draw_message(self, surf, self.error, self.back_button.rect.y - self.px(34),
                         theme.BAD)


# ---------------------------------------------------------------------------- rules
class RulesScene(Scene):
    name = "rules"

    def __init__(self, stage: Stage, page: str = "tees") -> None:
        super().__init__(stage)
        self.page = Choice("Rule set", [(k, rules_text.PAGES[k][0]) for k in
                                        rules_text.ORDER], page)
        self.back_button = Button("Back", self.back)
        self.form.add(self.page)
        self.form.add(self.back_button)
        self.text_rect = pygame.Rect(0, 0, 0, 0)
        self._fitted: dict[tuple[str, int, int], list[tuple[str, bool, int]]] = {}

    def layout(self, w: int, h: int) -> None:
        fw = min(self.px(760), int(w * 0.9))
        # the screen's title (as every menu screen has), the rule set under it, then the page
        self.page.rect = pygame.Rect((w - fw) // 2, self.px(96), fw, self.px(48))
        top = self.px(156)
        self.text_rect = pygame.Rect(int(w * 0.05), top, int(w * 0.9), h - top - self.px(96))
        bw = self.px(240)
        self.back_button.rect = pygame.Rect((w - bw) // 2, h - self.px(80), bw, self.px(58))

    def _lines(self, px: int) -> list[tuple[str, bool, int]]:
        a = self.stage.assets
        out: list[tuple[str, bool, int]] = []
        inner = self.text_rect.w - self.px(40)
        for raw in rules_text.paragraphs(self.page.value):
            if raw.startswith("# "):
                hp = int(px * 1.15)
                out += [(line, True, hp) for line in a.wrap(raw[2:], hp, inner)]
                continue
            bullet = raw.startswith("- ")
            text = raw[2:] if bullet else raw
            for i, line in enumerate(a.wrap(text, px, inner - (self.px(24) if bullet else 0))):
                prefix = "- " if bullet and i == 0 else ("   " if bullet else "")
                out.append((prefix + line, False, px))
        return out

    def fitted_lines(self) -> list[tuple[str, bool, int]]:
        """The page's lines at the largest text size at which they fit the panel (cached)."""
        key = (self.page.value, self.text_rect.w, self.text_rect.h)
        if key not in self._fitted:
            px = self.px(28)
            lines = self._lines(px)
            while px > 10:
                height = sum(int(p * 1.2) + (self.px(8) if head else 0) for _, head, p in lines)
                if height <= self.text_rect.h - self.px(32):
                    break
                px -= 1
                lines = self._lines(px)
            self._fitted[key] = lines
        return self._fitted[key]

    def draw(self, surf: pygame.Surface) -> None:
        self.draw_background(surf)
        self.draw_title(surf, "Rules")
        draw_panel(self, surf, self.text_rect)
        a = self.stage.assets
        lines = self.fitted_lines()
        y = self.text_rect.y + self.px(16)
        for text, head, p in lines:
            if head:
                y += self.px(8)
            t = a.text(text, p, theme.ACCENT if head else theme.TEXT)
            surf.blit(t, (self.text_rect.x + self.px(20), y))
            y += int(p * 1.2)
        self.form.draw(surf, a)
