"""The end-to-end harness's own checks (fast, no root, no screen): it fails loudly, never
passes silently, when its tools are missing; screenshots and the observer's rank text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.e2e import harness  # noqa: E402


def test_missing_tools_without_apt_get_fail_with_the_packages_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(harness.shutil, "which", lambda _cmd: None)
    with pytest.raises(pytest.fail.Exception) as e:
        harness.ensure_tools()
    text = str(e.value)
    for name in ("Xvfb", "xdotool", "ip", "xvfb", "iproute2", "apt-get is not available"):
        assert name in text, text


def test_missing_tools_without_root_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    present = {"apt-get": "/usr/bin/apt-get"}
    monkeypatch.setattr(harness.shutil, "which", lambda cmd: present.get(cmd))
    monkeypatch.setattr(harness.os, "geteuid", lambda: 1000)
    with pytest.raises(pytest.fail.Exception, match="needs root"):
        harness.ensure_tools()


def test_present_tools_need_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    monkeypatch.setattr(harness.shutil, "which", lambda cmd: f"/usr/bin/{cmd}")
    monkeypatch.setattr(harness.subprocess, "run", lambda *a, **k: calls.append(a))
    harness.ensure_tools()
    assert calls == []


def test_rank_text_matches_the_play_tokens() -> None:
    # cards are rank * 4 + suit (game/rules/cards.py), the joker 0
    assert [harness.rank_text(c) for c in (0, 4, 7, 8, 40, 44, 48, 52, 55)] == \
        ["JK", "A", "A", "2", "T", "J", "Q", "K", "K"]


def test_summary_of_an_empty_and_a_table_state() -> None:
    assert harness.summary({}) == "(no state reported yet)"
    s = {"scenes": [{"name": "track_table", "session": {
        "status": "connected", "my_seats": [2], "view": {"turn": 1},
        "public": {"phase": "playing", "state_no": 7, "speed": "blitz", "pause": [],
                   "seats": [{"seat": 0, "kind": "person", "name": "Ann", "connected": False}]}}}]}
    text = harness.summary(s)
    assert "state_no=7" in text and "0:person:Ann:down" in text and "turn=1" in text
