"""The command line of the track game (python -m game.rules.track)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from test_track_helpers import pos


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game.rules.track", *args], capture_output=True,
                          text=True, timeout=60)


def test_legal_lists_every_play() -> None:
    p = pos("classic", {"a": "s,s,s,10,12"}, "7C")
    out = run("legal", p)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["7:a12+7", "7:a10+1,a12+6", "7:a12+3,a10+4", "7:a12+4,a10+3",
                                  "7:a12+5,a10+2", "7:a12+6,a10+1"]


def test_apply_prints_position_and_events() -> None:
    p = pos("classic", {"a": "s,s,s,s,10", "b": "s,s,s,s,15"}, "5C",
            counts={"b": 5, "c": 5, "d": 5})
    out = run("apply", p, "5:a10+5")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("classic 4 teams2 ") and " a:s,s,s,s,15 " in lines[0]
    assert " b:s,s,s,s,s " in lines[0] and "turn=b" in lines[0]
    events = [json.loads(x) for x in lines[1:]]
    assert [e["type"] for e in events] == ["play", "move", "bump", "turn", "draw"]
    assert events[1]["path"] == [11, 12, 13, 14, 15]


def test_play_prints_a_complete_game_log() -> None:
    out = run("play", "--rules", "classic", "--seats", "4", "--seed", "7")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("# config ")
    assert lines[-1].startswith("# outcome ")
    body = lines[1:-1]
    assert body and all(len(x.split()) == 2 and x.split()[0].isdigit() for x in body)
    # the same seed plays the same game
    assert run("play", "--rules", "classic", "--seats", "4", "--seed", "7").stdout == out.stdout
    tees = run("play", "--rules", "tees", "--seats", "6", "--seed", "2")
    assert tees.returncode == 0 and tees.stdout.splitlines()[-1].startswith("# outcome ")


@pytest.mark.parametrize("args", [
    ("legal", "nonsense"),
    ("legal", "classic 4 teams2 jokers=on seven=on a:s,s,s,s b:s,s,s,s,s"),
    ("apply", pos("classic", {"a": "s,s,s,s,10"}, "5C"), "5:a10+4"),
    ("apply", pos("classic", {"a": "s,s,s,s,10"}, "5C"), "what"),
    ("play", "--rules", "tees", "--seats", "5"),
    ("play", "--rules", "nope"),
    ("frobnicate",),
])
def test_bad_input_one_line_exit_two(args: tuple[str, ...]) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1
    assert out.stderr.startswith("error:")
