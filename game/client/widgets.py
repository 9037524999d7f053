"""A small widget kit: buttons, toggles, choices, sliders, text input and lists.

Every widget works by mouse and keyboard. A :class:`Form` holds a scene's widgets and moves the
focus: Tab / Shift+Tab and Up / Down move it (a focused list keeps Up / Down for itself),
Left / Right change a choice, toggle or slider (Space steps a choice too), Enter / Space press
the focused button (Enter submits a text input). Enter never changes a value: on a choice or a
slider it moves the focus on, so a row of options is walked with Enter down to the button.
Hover and focus are highlighted. Widgets keep their state; scenes set
``rect`` in their ``layout`` and draw with ``Form.draw``.

A focused widget that is hidden or disabled never receives keys or text: the form first moves
the focus to its ``default_focus`` (when that can take it) or to nothing. With
``click_focuses_buttons`` False (the tables) a button pressed by the mouse does not keep the
keyboard focus, so Enter / Space stay with the scene's own keys. Text input (the IME) is on
exactly while a text box of the shown scene has the focus: scenes call :meth:`Form.shown` when
they become the top of the stack and :meth:`Form.hidden` when they leave it.

A press belongs to what it began on: a widget that takes a mouse press also owns its release
(the form swallows it, so a list acting on the press never lets the release act elsewhere), a
list chooses a row on a whole click, and :meth:`Form.released_here` tells a scene that a
release ends a press begun on the scene itself. (The module is a little over 600 lines: the
widgets and the form share these focus and press rules, and stay together.)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import pygame

from game.client import theme
from game.client.assets import Assets

Callback = Callable[[], object]  # what it returns is ignored


class Widget:
    focusable = True

    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.hovered = False
        self.focused = False
        self.enabled = True
        self.visible = True
        self.pressed = False

    # mouse: return True when the event was used
    def mouse(self, ev: pygame.event.Event) -> bool:
        return False

    # keyboard while focused: return True when the key was used
    def key(self, ev: pygame.event.Event) -> bool:
        return False

    def text_input(self, text: str) -> bool:
        return False

    def draw(self, surf: pygame.Surface, assets: Assets) -> None:
        raise NotImplementedError

    def _frame(self, surf: pygame.Surface, assets: Assets, rect: pygame.Rect,
               active: bool = False) -> None:
        name = "button_down" if (self.pressed or active) else (
            "button_hover" if (self.hovered or self.focused) else "button")
        if not self.enabled:
            name = "panel"
        border = max(4, min(14, rect.h // 3))
        surf.blit(assets.nine_slice(name, rect.size, border), rect)
        if self.focused:
            pygame.draw.rect(surf, theme.FOCUS, rect.inflate(6, 6), 3,
                             border_radius=max(4, rect.h // 3))

    def _label_px(self) -> int:
        return max(12, int(self.rect.h * 0.5))


class Button(Widget):
    def __init__(self, label: str, on_press: Callback, hotkey: int | None = None,
                 sound: str = "click") -> None:
        super().__init__()
        self.label = label
        self.on_press = on_press
        self.hotkey = hotkey
        self.sound = sound
        self._down = False

    def press(self) -> None:
        if self.enabled and self.visible:
            self.on_press()

    def mouse(self, ev: pygame.event.Event) -> bool:
        if not (self.enabled and self.visible):
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.rect.collidepoint(ev.pos):
            self._down = self.pressed = True
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            was = self._down
            self._down = self.pressed = False
            if was and self.rect.collidepoint(ev.pos):
                self.press()
                return True
        return False

    def key(self, ev: pygame.event.Event) -> bool:
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.press()
            return True
        return False

    def draw(self, surf: pygame.Surface, assets: Assets) -> None:
        self._frame(surf, assets, self.rect)
        colour = theme.TEXT if self.enabled else theme.TEXT_DIM
        t = assets.fit_text(self.label, self._label_px(), colour, self.rect.w - 12)
        shadow = assets.fit_text(self.label, self._label_px(), (60, 30, 0), self.rect.w - 12)
        c = self.rect.center
        surf.blit(shadow, shadow.get_rect(center=(c[0] + 1, c[1] + 2)))
        surf.blit(t, t.get_rect(center=c))


class Choice(Widget):
    """A labelled value picked from options with Left / Right or clicks on the arrows
    (a click on the middle steps forward). Options are ``(value, text)`` pairs; an optional
    ``swatches`` list gives a colour per option."""

    def __init__(self, label: str, options: Sequence[tuple[Any, str]], value: Any,
                 on_change: Callable[[Any], None] | None = None,
                 swatches: Sequence[tuple[int, int, int]] | None = None) -> None:
        super().__init__()
        self.label = label
        self.options = list(options)
        self.swatches = list(swatches) if swatches else None
        values = [v for v, _ in self.options]
        self.index = values.index(value) if value in values else 0
        self.on_change = on_change

    @property
    def value(self) -> Any:
        return self.options[self.index][0] if self.options else None

    def set_options(self, options: Sequence[tuple[Any, str]], value: Any = None) -> None:
        keep = self.value if value is None else value
        self.options = list(options)
        values = [v for v, _ in self.options]
        self.index = values.index(keep) if keep in values else 0

    def step(self, d: int) -> None:
        if not self.options or not self.enabled:
            return
        self.index = (self.index + d) % len(self.options)
        if self.on_change:
            self.on_change(self.value)

    def _arrows(self) -> tuple[pygame.Rect, pygame.Rect]:
        body = self._body()
        a = body.h
        return (pygame.Rect(body.x, body.y, a, body.h),
                pygame.Rect(body.right - a, body.y, a, body.h))

    def _body(self) -> pygame.Rect:
        lw = int(self.rect.w * 0.42)
        return pygame.Rect(self.rect.x + lw, self.rect.y, self.rect.w - lw, self.rect.h)

    def mouse(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.rect.collidepoint(ev.pos):
            left, _right = self._arrows()
            self.step(-1 if left.collidepoint(ev.pos) else 1)
            return True
        if ev.type == pygame.MOUSEWHEEL and self.hovered:
            self.step(-1 if ev.y > 0 else 1)
            return True
        return False

    def key(self, ev: pygame.event.Event) -> bool:
        if ev.key == pygame.K_LEFT:
            self.step(-1)
            return True
        if ev.key in (pygame.K_RIGHT, pygame.K_SPACE):  # Enter never changes a value
            self.step(1)
            return True
        return False

    def draw(self, surf: pygame.Surface, assets: Assets) -> None:
        px = self._label_px()
        lab = assets.fit_text(self.label, px, theme.TEXT if self.enabled else theme.TEXT_DIM,
                              int(self.rect.w * 0.4))
        surf.blit(lab, lab.get_rect(midleft=(self.rect.x, self.rect.centery)))
        body = self._body()
        self._frame(surf, assets, body)
        left, right = self._arrows()
        if len(self.options) > 1 and self.enabled:  # no arrows that would do nothing
            for r, pts in ((left, ((0.62, 0.25), (0.32, 0.5), (0.62, 0.75))),
                           (right, ((0.38, 0.25), (0.68, 0.5), (0.38, 0.75)))):
                pygame.draw.polygon(surf, theme.TEXT,
                                    [(r.x + r.w * x, r.y + r.h * y) for x, y in pts])
        if not self.options:
            return
        text = self.options[self.index][1]
        inner_w = body.w - 2 * left.w - 8
        x0 = body.centerx
        if self.swatches:
            sw = int(body.h * 0.45)
            col = self.swatches[self.index % len(self.swatches)]
            t = assets.fit_text(text, px, theme.TEXT, inner_w - sw - 8)
            total = sw + 8 + t.get_width()
            sr = pygame.Rect(0, 0, sw, sw)
            sr.midleft = (x0 - total // 2, body.centery)
            pygame.draw.circle(surf, (0, 0, 0), sr.center, sw // 2 + 2)
            pygame.draw.circle(surf, col, sr.center, sw // 2)
            surf.blit(t, t.get_rect(midleft=(sr.right + 8, body.centery)))
        else:
            t = assets.fit_text(text, px, theme.TEXT, inner_w)
            surf.blit(t, t.get_rect(center=(x0, body.centery)))


class Toggle(Choice):
    def __init__(self, label: str, value: bool,
                 on_change: Callable[[Any], None] | None = None,
                 texts: tuple[str, str] = ("Off", "On")) -> None:
        super().__init__(label, [(False, texts[0]), (True, texts[1])], bool(value), on_change)


class Slider(Widget):
    def __init__(self, label: str, lo: float, hi: float, value: float, step: float,
                 on_change: Callable[[float], None] | None = None,
                 fmt: Callable[[float], str] = lambda v: f"{v:.0f}") -> None:
        super().__init__()
        self.label = label
        self.lo, self.hi, self.step_size = lo, hi, step
        self.value = min(hi, max(lo, value))
        self.on_change = on_change
        self.fmt = fmt
        self._drag = False

    def _track(self) -> pygame.Rect:
        lw = int(self.rect.w * 0.42)
        vw = int(self.rect.w * 0.14)
        return pygame.Rect(self.rect.x + lw + 10, self.rect.centery - max(3, self.rect.h // 10),
                           self.rect.w - lw - vw - 20, max(6, self.rect.h // 5))

    def set(self, v: float) -> None:
        v = round(v / self.step_size) * self.step_size
        v = min(self.hi, max(self.lo, v))
        if v != self.value:
            self.value = v
            if self.on_change:
                self.on_change(v)

    def _from_x(self, x: int) -> None:
        tr = self._track()
        f = (x - tr.x) / max(1, tr.w)
        self.set(self.lo + (self.hi - self.lo) * min(1.0, max(0.0, f)))

    def mouse(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                self._track().inflate(16, self.rect.h).collidepoint(ev.pos):
            self._drag = True
            self._from_x(ev.pos[0])
            return True
        if ev.type == pygame.MOUSEMOTION and self._drag:
            self._from_x(ev.pos[0])
            return True
        if ev.type == pygame.MOUSEBUTTONUP and self._drag:
            self._drag = False
            return True
        return False

    def key(self, ev: pygame.event.Event) -> bool:
        if ev.key == pygame.K_LEFT:
            self.set(self.value - self.step_size)
            return True
        if ev.key == pygame.K_RIGHT:
            self.set(self.value + self.step_size)
            return True
        return False

    def draw(self, surf: pygame.Surface, assets: Assets) -> None:
        px = self._label_px()
        lab = assets.fit_text(self.label, px, theme.TEXT, int(self.rect.w * 0.4))
        surf.blit(lab, lab.get_rect(midleft=(self.rect.x, self.rect.centery)))
        tr = self._track()
        pygame.draw.rect(surf, theme.BG2, tr, border_radius=tr.h // 2)
        f = (self.value - self.lo) / max(1e-9, self.hi - self.lo)
        fill = tr.copy()
        fill.w = int(tr.w * f)
        pygame.draw.rect(surf, theme.ACCENT, fill, border_radius=tr.h // 2)
        knob = (tr.x + int(tr.w * f), tr.centery)
        r = max(6, self.rect.h // 4)
        if self.focused or self.hovered:
            pygame.draw.circle(surf, theme.FOCUS, knob, r + 3)
        pygame.draw.circle(surf, theme.ACCENT, knob, r)
        pygame.draw.circle(surf, (120, 70, 0), knob, r, 2)
        val = assets.text(self.fmt(self.value), px, theme.TEXT)
        surf.blit(val, val.get_rect(midright=(self.rect.right, self.rect.centery)))


class TextInput(Widget):
    def __init__(self, label: str, text: str = "", max_len: int = 24,
                 on_change: Callable[[str], None] | None = None,
                 on_submit: Callable[[str], None] | None = None,
                 placeholder: str = "") -> None:
        super().__init__()
        self.label = label
        self.text = text
        self.max_len = max_len
        self.on_change = on_change
        self.on_submit = on_submit
        self.placeholder = placeholder
        self.blink = 0.0

    def _box(self) -> pygame.Rect:
        if not self.label:
            return self.rect.copy()
        lw = int(self.rect.w * 0.42)
        return pygame.Rect(self.rect.x + lw, self.rect.y, self.rect.w - lw, self.rect.h)

    def set_text(self, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable())[: self.max_len]
        if text != self.text:
            self.text = text
            if self.on_change:
                self.on_change(text)

    def mouse(self, ev: pygame.event.Event) -> bool:
        return ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
            self.rect.collidepoint(ev.pos)

    def text_input(self, text: str) -> bool:
        self.set_text(self.text + text)
        return True

    def key(self, ev: pygame.event.Event) -> bool:
        if ev.key == pygame.K_BACKSPACE:
            self.set_text(self.text[:-1])
            return True
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.on_submit:
                self.on_submit(self.text)
            return True
        if ev.key == pygame.K_v and ev.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            self.set_text(self.text + paste_text())
            return True
        if ev.key == pygame.K_SPACE:  # typed text arrives as TEXTINPUT; keep Space from pressing
            return True
        return bool(ev.unicode) and ev.unicode.isprintable() and ev.key not in (
            pygame.K_TAB, pygame.K_ESCAPE)

    def draw(self, surf: pygame.Surface, assets: Assets) -> None:
        px = self._label_px()
        if self.label:
            lab = assets.fit_text(self.label, px, theme.TEXT, int(self.rect.w * 0.4))
            surf.blit(lab, lab.get_rect(midleft=(self.rect.x, self.rect.centery)))
        box = self._box()
        pygame.draw.rect(surf, (8, 12, 28), box, border_radius=8)
        edge = theme.FOCUS if self.focused else (theme.ACCENT2 if self.hovered else theme.BG2)
        pygame.draw.rect(surf, edge, box, 3 if self.focused else 2, border_radius=8)
        shown = self.text or self.placeholder
        colour = theme.TEXT if self.text else theme.TEXT_DIM
        t = assets.text(shown, px, colour)
        inner = box.inflate(-20, 0)
        x = inner.x
        if t.get_width() > inner.w:
            x = inner.right - t.get_width()  # show the end while typing
        clip = surf.get_clip()
        surf.set_clip(inner.clip(clip) if clip else inner)
        surf.blit(t, t.get_rect(midleft=(x, box.centery)))
        surf.set_clip(clip)
        if self.focused:
            cx = min(inner.right, x + (t.get_width() if self.text else 0) + 2)
            pygame.draw.line(surf, theme.ACCENT, (cx, box.y + box.h * 0.22),
                             (cx, box.bottom - box.h * 0.22), 2)


def paste_text() -> str:
    """Clipboard text, or '' where there is no clipboard (the dummy driver)."""
    try:
        if not pygame.scrap.get_init():
            pygame.scrap.init()
        got = pygame.scrap.get_text()  # type: ignore[attr-defined]
        return (got or "").replace("\n", " ").strip()
    except (pygame.error, AttributeError, NotImplementedError):
        return ""


class ListBox(Widget):
    """Rows of text (optionally with columns), selectable and scrollable by wheel and keys."""

    def __init__(self, rows: Sequence[Sequence[str]], on_select: Callable[[int], None] | None
                 = None, widths: Sequence[float] | None = None,
                 header: Sequence[str] | None = None) -> None:
        super().__init__()
        self.rows = [list(r) for r in rows]
        self.on_select = on_select
        self.widths = list(widths) if widths else None
        self.header = list(header) if header else None
        self.selected = 0 if self.rows else -1
        self.top = 0
        self.row_h = 28
        self._down_row: int | None = None

    def visible_rows(self) -> int:
        extra = 1 if self.header else 0
        return max(1, self.rect.h // max(1, self.row_h) - extra)

    def select(self, i: int) -> None:
        if not self.rows:
            return
        self.selected = min(len(self.rows) - 1, max(0, i))
        n = self.visible_rows()
        if self.selected < self.top:
            self.top = self.selected
        elif self.selected >= self.top + n:
            self.top = self.selected - n + 1

    def mouse(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.MOUSEWHEEL and self.hovered:
            n = self.visible_rows()
            self.top = max(0, min(max(0, len(self.rows) - n), self.top - ev.y))
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.rect.collidepoint(ev.pos):
            i = self._row_at(ev.pos)
            self._down_row = i
            if i is not None:
                self.select(i)
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            # a row is chosen by a whole click: pressed and released on the same row
            down, self._down_row = self._down_row, None
            if down is not None and self.rect.collidepoint(ev.pos) and \
                    self._row_at(ev.pos) == down:
                if self.on_select:
                    self.on_select(down)
                return True
        return False

    def _row_at(self, pos: tuple[int, int]) -> int | None:
        y0 = self.rect.y + (self.row_h if self.header else 0)
        i = self.top + (pos[1] - y0) // max(1, self.row_h)
        return i if 0 <= i < len(self.rows) and pos[1] >= y0 else None

    def key(self, ev: pygame.event.Event) -> bool:
        moves = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -self.visible_rows(),
                 pygame.K_PAGEDOWN: self.visible_rows()}
        if ev.key in moves and self.rows:
            before = self.selected
            self.select(self.selected + moves[ev.key])
            return self.selected != before or ev.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN)
        if ev.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER) and self.on_select \
                and self.selected >= 0:
            self.on_select(self.selected)
            return True
        return False

    def draw(self, surf: pygame.Surface, assets: Assets) -> None:
        pygame.draw.rect(surf, (8, 12, 28), self.rect, border_radius=8)
        edge = theme.FOCUS if self.focused else theme.BG2
        pygame.draw.rect(surf, edge, self.rect, 2, border_radius=8)
        px = max(12, int(self.row_h * 0.7))
        cols = self.widths or [1.0]
        inner = self.rect.inflate(-16, 0)

        def draw_row(cells: Sequence[str], y: int, colour: tuple[int, int, int]) -> None:
            x = inner.x
            for j, cell in enumerate(cells):
                w = int(inner.w * cols[j % len(cols)])
                t = assets.fit_text(cell, px, colour, w - 6)
                surf.blit(t, t.get_rect(midleft=(x, y + self.row_h // 2)))
                x += w

        y = self.rect.y
        if self.header:
            draw_row(self.header, y, theme.ACCENT)
            y += self.row_h
        for i in range(self.top, min(len(self.rows), self.top + self.visible_rows())):
            if i == self.selected and self.focused:
                pygame.draw.rect(surf, theme.BG2, (self.rect.x + 3, y, self.rect.w - 6,
                                                   self.row_h), border_radius=6)
            draw_row(self.rows[i], y, theme.TEXT)
            y += self.row_h


class Form:
    """A scene's widgets, with mouse routing, hover and keyboard focus."""

    def __init__(self, widgets: Sequence[Widget] = ()) -> None:
        self.widgets: list[Widget] = list(widgets)
        self.focus_index = -1
        self.on_sound: Callable[[str], None] | None = None
        #: Where the focus goes when the focused widget is hidden or disabled (None: nowhere).
        self.default_focus: Widget | None = None
        #: False: a mouse press on a button does not give it the keyboard focus.
        self.click_focuses_buttons = True
        #: True while the form's scene is the top of the stack (text input follows it; a
        #: form being built for a scene not shown yet leaves text input alone).
        self.active = False
        #: Mouse buttons whose press a widget took: their release belongs to that widget and
        #: never reaches the scene (a widget acting on the press, then the scene on the release,
        #: would make one click do two things).
        self._captured: set[int] = set()
        #: Mouse buttons pressed on no widget while this form was shown: where each press began.
        self._free: dict[int, tuple[int, int]] = {}
        if self.widgets:
            self.focus_first()

    def add(self, w: Widget) -> Widget:
        self.widgets.append(w)
        if self.focus_index < 0:
            self.focus_first()
        return w

    @staticmethod
    def usable(w: Widget | None) -> bool:
        """True when ``w`` can hold the focus now (focusable, visible and enabled)."""
        return w is not None and w.focusable and w.visible and w.enabled

    def focusables(self) -> list[Widget]:
        return [w for w in self.widgets if self.usable(w)]

    def check_focus(self) -> None:
        """Move the focus off a widget that was hidden or disabled since it got it."""
        f = self.focused
        if f is not None and not self.usable(f):
            d = self.default_focus
            self.focus(d if d is not f and self.usable(d) else None)

    def shown(self) -> None:
        """The scene is the top of the stack again: fix the focus, restart text input."""
        self.active = True
        self.forget_presses()
        self.check_focus()
        self._text_mode()

    def hidden(self) -> None:
        """The scene left the top of the stack: its text box no longer takes typing."""
        self.forget_presses()
        if self.active:
            self.active = False
            with contextlib.suppress(pygame.error):
                pygame.key.stop_text_input()

    def forget_presses(self) -> None:
        """Presses begun before now (in another scene, or before a scene change) are not
        this scene's: their releases do nothing here."""
        self._captured.clear()
        self._free.clear()

    def released_here(self, ev: pygame.event.Event) -> bool:
        """True when ``ev`` is a mouse release whose press began on this form's scene on no
        widget: the scene's own clicks (board, hand) are whole clicks begun on the scene."""
        if ev.type != pygame.MOUSEBUTTONUP:
            return False
        return self._free.pop(ev.button, None) is not None

    def pressed_at(self, button: int = 1) -> tuple[int, int] | None:
        """Where the scene's own press of ``button`` (on no widget) began, or None."""
        return self._free.get(button)

    @property
    def focused(self) -> Widget | None:
        return next((w for w in self.widgets if w.focused), None)

    def focus(self, w: Widget | None) -> None:
        for x in self.widgets:
            x.focused = x is w
        if w is not None:
            self.focus_index = self.widgets.index(w)
        self._text_mode()

    def focus_first(self) -> None:
        f = self.focusables()
        self.focus(f[0] if f else None)

    def move(self, d: int) -> None:
        f = self.focusables()
        if not f:
            return
        cur = self.focused
        i = f.index(cur) if cur in f else (-1 if d > 0 else 0)
        self.focus(f[(i + d) % len(f)])
        if self.on_sound:
            self.on_sound("click")

    def _text_mode(self) -> None:
        # text input events only while a text box of the shown scene has the focus (no IME
        # popups otherwise)
        if not self.active:
            return
        try:
            if isinstance(self.focused, TextInput):
                pygame.key.start_text_input()
            else:
                pygame.key.stop_text_input()
        except pygame.error:
            pass

    def handle(self, ev: pygame.event.Event) -> bool:
        """Route one event; True when a widget or the focus used it."""
        self.check_focus()
        if ev.type == pygame.MOUSEMOTION:
            for w in self.widgets:
                w.hovered = w.visible and w.rect.collidepoint(ev.pos)
            return any(w.visible and w.enabled and w.mouse(ev) for w in self.widgets)
        if ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL):
            used = self._route_mouse(ev)
            if ev.type == pygame.MOUSEBUTTONDOWN:
                if used:
                    self._captured.add(ev.button)
                    self._free.pop(ev.button, None)
                else:
                    self._captured.discard(ev.button)
                    self._free[ev.button] = ev.pos
            elif ev.type == pygame.MOUSEBUTTONUP and ev.button in self._captured:
                self._captured.discard(ev.button)
                self._free.pop(ev.button, None)
                return True  # the release of a widget's press: nothing else acts on it
            return used
        if ev.type == pygame.TEXTINPUT:
            f = self.focused
            return bool(f and f.text_input(ev.text))
        if ev.type == pygame.KEYDOWN:
            f = self.focused
            if f is not None and f.key(ev):
                if isinstance(f, Button) and self.on_sound:
                    self.on_sound(f.sound)
                return True
            if ev.key == pygame.K_TAB:
                self.move(-1 if ev.mod & pygame.KMOD_SHIFT else 1)
                return True
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and \
                    isinstance(f, Choice | Slider):
                self.move(1)  # Enter on a value row moves on (towards the screen's button)
                return True
            if ev.key in (pygame.K_DOWN, pygame.K_UP):
                self.move(1 if ev.key == pygame.K_DOWN else -1)
                return True
            for w in self.widgets:
                if isinstance(w, Button) and w.hotkey == ev.key and w.visible and w.enabled:
                    w.press()
                    return True
        return False

    def _route_mouse(self, ev: pygame.event.Event) -> bool:
        """Give a mouse press, release or wheel to the widgets; True when one used it."""
        for w in self.widgets:
            if not (w.visible and w.enabled):
                continue
            if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                    w.rect.collidepoint(ev.pos) and w.focusable:
                if isinstance(w, Button) and not self.click_focuses_buttons:
                    self.focus(None)
                else:
                    self.focus(w)
            if w.mouse(ev):
                if ev.type == pygame.MOUSEBUTTONDOWN and self.on_sound and \
                        not isinstance(w, Button):
                    self.on_sound("click")
                if isinstance(w, Button) and ev.type == pygame.MOUSEBUTTONUP and \
                        self.on_sound:
                    self.on_sound(w.sound)
                return True
        return False

    def draw(self, surf: pygame.Surface, assets: Assets) -> None:
        for w in self.widgets:
            if w.visible:
                w.draw(surf, assets)
