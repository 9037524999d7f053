"""The command line: ``python -m game.rules.layout legal|apply|play``."""

from __future__ import annotations

import subprocess
import sys

import pytest

P1 = "?AS,?2S,?3S,?4S,?5S,?6D,?7S,?8S,?9D,?TD"
START = (
    "layout seats=2 wild=J lastchance=0 upcard=0 size=10 first=- seed=0 hand=1 leader=0 turn=0"
    " phase=source hold=- passes=0 ply=0 rng=1 last=- sizes=10,10"
    f" p0=?7H,?5C,?2H,?9S,?TS,?QH,?4D,?8C,?6S,?KD p1={P1} stock=4H,3D discard=2C"
)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game.rules.layout", *args],
        capture_output=True, text=True, timeout=60,
    )


def test_legal() -> None:
    out = cli("legal", START)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["S", "D"]


def test_apply_prints_the_new_position_then_the_events() -> None:
    out = cli("apply", START, "S")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # 3D -> 3 (hides 2H) -> 2 (hides 5C) -> 5 (hides TS) -> 10 (hides KD) -> stop
    assert lines[0] == START.replace("turn=0", "turn=1").replace("ply=0", "ply=1").replace(
        "p0=?7H,?5C,?2H,?9S,?TS,?QH,?4D,?8C,?6S,?KD", "p0=?7H,2H,3D,?9S,5C,?QH,?4D,?8C,?6S,TS"
    ).replace("stock=4H,3D discard=2C", "stock=4H discard=2C,KD")
    assert lines[1:] == [
        "drawn seat=0 source=stock card=3D",
        "placed seat=0 place=3 card=3D", "revealed seat=0 place=3 card=2H",
        "placed seat=0 place=2 card=2H", "revealed seat=0 place=2 card=5C",
        "placed seat=0 place=5 card=5C", "revealed seat=0 place=5 card=TS",
        "placed seat=0 place=10 card=TS", "revealed seat=0 place=10 card=KD",
        "discarded seat=0 card=KD reason=stopper",
        "turn seat=1",
    ]


def test_play_a_random_game() -> None:
    out = cli("play", "--seats", "4", "--seed", "7", "--size", "2", "--last-chance",
              "--upcard", "--wild", "K")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("config seats=4 wild=K last_chance=True upcard=True")
    assert lines[1] == "seed 7" and lines[2].startswith("start layout seats=4 ")
    assert lines[-1].startswith("result winners=")
    plays = [ln for ln in lines if ln.startswith("play ")]
    assert plays and lines[-1].endswith(f"plays={len(plays)}")
    again = cli("play", "--seats", "4", "--seed", "7", "--size", "2", "--last-chance",
                "--upcard", "--wild", "K")
    assert again.stdout == out.stdout  # a seed makes the same game


@pytest.mark.parametrize(
    "args",
    [
        ("legal", "layout nonsense"),
        ("legal", "not a position"),
        ("apply", START, "X9"),
        ("apply", START, "D2"),
        ("apply", START.replace("discard=2C", "discard=-"), "D"),
        ("play", "--seats", "9"),
        ("play", "--seats", "four"),
        ("play", "--wild", "Q"),
        ("frobnicate",),
        (),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    out = cli(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and out.stderr.startswith("error: ")
