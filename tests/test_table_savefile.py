"""The save file: a failed write never leaves the table half-applied, a damaged save is named.

Write errors are injected at the system call (``os.write``/``os.fsync`` on the save's own file
descriptor) and, as root, made real with a tiny tmpfs that fills up. Damaged headers are made
by hand for every field the table reads, then fuzzed.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import json
import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.table import CorruptSave, ForeignSave, SaveError, SeatSpec, Table
from game.table import savefile as sf
from game.table.cpu import SyncCpu


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def people_table(path: Path, clock: Clock) -> Table:
    """Trash for two people on one screen, saved (fsync on: the real path)."""
    return Table.create("layout", {"seats": 2, "layout_size": 3}, 17,
                        [SeatSpec("person", "Ann", local=True), SeatSpec("person", "Bo",
                                                                         local=True)],
                        clock=clock, host_seat=0, save_path=path, cpu=SyncCpu())


def play_one(t: Table) -> None:
    mover = t.to_move()
    assert mover is not None
    r = t.submit(t.token(mover), t.rules.legal_tokens(t.state)[0], t.state_no)
    assert r.ok, r


def fail_on_fd(monkeypatch: pytest.MonkeyPatch, name: str, fd: int, err: int,
               calls: list[int], partial: bool = False) -> None:
    real = getattr(os, name)

    def broken(f: int, *args: Any) -> Any:
        if f != fd:
            return real(f, *args)
        calls.append(f)
        if partial and len(calls) == 1 and args:  # half a line reaches the disk first
            data = bytes(args[0])
            real(f, data[: len(data) // 2])
        raise OSError(err, os.strerror(err))

    monkeypatch.setattr(os, name, broken)


@pytest.mark.parametrize(("call", "err", "partial"), [
    ("write", errno.ENOSPC, False),  # disk full
    ("write", errno.ENOSPC, True),  # disk full half way through a line: a torn tail
    ("fsync", errno.EIO, False),  # the disk went away
])
def test_a_failed_save_stops_saving_and_the_play_stands_for_everyone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str, err: int, partial: bool
) -> None:
    clock = Clock()
    path = tmp_path / "t.jsonl"
    t = people_table(path, clock)
    t.snapshot(0)
    t.snapshot(1)
    t.start(t.host_token)
    play_one(t)
    play_one(t)
    good = t.log
    fd = t._save._fd  # type: ignore[union-attr]  # the save's own descriptor
    assert fd is not None
    t.drain(0)
    t.drain(1)
    calls: list[int] = []
    fail_on_fd(monkeypatch, call, fd, err, calls, partial)
    before = t.state_no
    play_one(t)  # the play that cannot be saved: it is applied, and everyone is told
    assert t.state_no == before + 1 and len(t.log) == len(good) + 1
    for seat in (0, 1):
        msgs = t.drain(seat)
        plays = [m for m in msgs if m["type"] == "play"]
        assert [m["state_no"] for m in plays] == [before + 1]
        summaries = [m for m in msgs if m["type"] == "table"]
        assert summaries and summaries[-1]["save_error"] == t.save_error  # on every screen
    assert t.save_error is not None and os.strerror(err) in t.save_error
    assert str(path) in t.save_error and t.public()["save_error"] == t.save_error
    assert t.save_path is None
    n_calls = len(calls)
    for _ in range(3):  # the game goes on; no later write is even attempted
        play_one(t)
    assert len(calls) == n_calls
    monkeypatch.undo()
    t.close()
    again = Table.resume(path, clock=clock, cpu=SyncCpu())
    # fsync failing after the write: the line may be on disk; else the last good play
    assert again.log in (good, t.log[: len(good) + 1])
    if partial:
        assert any("cut short" in w for w in again.warnings)
    again.close()


@contextlib.contextmanager
def tiny_tmpfs(where: Path) -> Iterator[Path]:
    where.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                              capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as e:
        pytest.skip(f"cannot mount a tmpfs here ({e})")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode().strip()})")
    try:
        yield where
    finally:  # lazily, so a file still open after a failed assertion cannot keep it mounted
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=10)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="mounting needs root")
def test_a_real_full_disk_mid_game(tmp_path: Path) -> None:
    with tiny_tmpfs(tmp_path / "disk") as disk:
        clock = Clock()
        path = disk / "t.jsonl"
        t = Table.create("layout", {"seats": 4, "layout_size": 10}, 23,
                         [SeatSpec("person", "Ann", local=True)] + [SeatSpec("cpu", level="easy")
                                                                    for _ in range(3)],
                         clock=clock, host_seat=0, save_path=path, cpu=SyncCpu())
        # fill the disk: the save can still grow inside the page it has, then no more
        fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
        with contextlib.suppress(OSError):
            for _ in range(80):
                os.write(fd, b"x" * 1024)
        os.close(fd)
        t.start(t.host_token)
        for _ in range(3000):  # bounded: a game of 4 x 10 ends well within it
            if t.phase == "over":
                break
            clock.t += 5.0
            if t.to_move() == 0:
                play_one(t)
            else:
                t.tick()
        assert t.save_error is not None and "No space left" in t.save_error
        assert t.phase == "over"  # the game went on, unsaved, to its end
        played = t.log
        t.close()
        os.unlink(disk / "filler")
        again = Table.resume(path, clock=clock, cpu=SyncCpu())  # the last good play
        assert 0 < len(again.log) < len(played) and again.log == played[: len(again.log)]
        again.close()


# ------------------------------------------------------------------ damaged saves


@pytest.fixture(scope="module")
def good_save(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[str]]:
    path = tmp_path_factory.mktemp("good") / "t.jsonl"
    clock = Clock()
    t = Table.create("track", {"rules": "classic", "seats": 4}, 99,
                     [SeatSpec("person", "Ann", local=True)] + [SeatSpec() for _ in range(3)],
                     clock=clock, host_seat=0, save_path=path, cpu=SyncCpu(), fsync=False)
    t.start(t.host_token)
    for _ in range(40):
        clock.t += 5.0
        if t.to_move() == 0:
            play_one(t)
        else:
            t.tick()
    t.close()
    lines = path.read_text().splitlines()
    return json.loads(lines[0]), lines[1:]


def write(path: Path, header: Any, records: list[str]) -> Path:
    path.write_text("\n".join([json.dumps(header), *records]) + "\n")
    return path


def _seat(h: dict[str, Any], i: int, **kw: Any) -> dict[str, Any]:
    h = copy.deepcopy(h)
    h["seats"][i].update(kw)
    return h


def _drop(h: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in h.items() if k != key}


def damaged(h: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(what is wrong, the damaged header), one per fault the table must name."""
    out: list[tuple[str, dict[str, Any]]] = []
    for key in ("game", "config", "seed", "table_id", "host_token", "host_seat", "speed",
                "seats", "version"):
        out.append((f"no {key}", _drop(h, key)))
    out += [
        ("seats: one too few (the IndexError of issue 15)", {**h, "seats": h["seats"][:3]}),
        ("seats: one too many", {**h, "seats": [*h["seats"], {**h["seats"][3], "seat": 4}]}),
        ("seats: empty", {**h, "seats": []}),
        ("seats: not a list", {**h, "seats": {"0": h["seats"][0]}}),
        ("seats: a seat is not a record", {**h, "seats": [*h["seats"][:3], "cpu"]}),
        ("config: fewer seats than the seat list", {**h, "config": {**h["config"], "seats": 2}}),
        ("config: more seats than the seat list", {**h, "config": {**h["config"], "seats": 6}}),
        ("config: unknown rules", {**h, "config": {**h["config"], "rules": "chess"}}),
        ("config: not a map", {**h, "config": ["classic"]}),
        ("game: unknown", {**h, "game": "chess"}),
        ("game: not text", {**h, "game": 5}),
        ("seed: negative", {**h, "seed": -1}),
        ("seed: text", {**h, "seed": "99"}),
        ("seed: too big", {**h, "seed": 2**64}),
        ("speed: unknown", {**h, "speed": "warp"}),
        ("speed: a number", {**h, "speed": 1}),
        ("version: zero", {**h, "version": 0}),
        ("version: text", {**h, "version": "1"}),
        ("host_seat: out of range", {**h, "host_seat": 9}),
        ("host_seat: a CPU", {**h, "host_seat": 1}),
        ("host_seat: text", {**h, "host_seat": "0"}),
        ("table_id: a number", {**h, "table_id": 7}),
        ("host_token: empty", {**h, "host_token": ""}),
        ("seat: wrong number", _seat(h, 2, seat=3)),
        ("seat: kind unknown", _seat(h, 1, kind="robot")),
        ("seat: level unknown", _seat(h, 1, level="godlike")),
        ("seat: token not text", _seat(h, 0, token=12)),
        ("seat: name not text", _seat(h, 0, name=None)),
        ("seat: left not text", _seat(h, 1, left=3)),
    ]
    for key in ("seat", "kind", "name", "level", "token", "local"):
        bad = copy.deepcopy(h)
        del bad["seats"][1][key]
        out.append((f"seat: no {key}", bad))
    return out


def test_every_damaged_header_is_a_corrupt_save_naming_the_file(
    tmp_path: Path, good_save: tuple[dict[str, Any], list[str]]
) -> None:
    header, records = good_save
    ok = write(tmp_path / "good.jsonl", header, records)
    Table.resume(ok, clock=Clock(), cpu=SyncCpu()).close()  # the undamaged save resumes
    cases = damaged(header)
    assert len(cases) > 40
    for i, (what, bad) in enumerate(cases):
        path = write(tmp_path / f"bad{i}.jsonl", bad, records)
        before = path.read_bytes()
        with pytest.raises(CorruptSave) as e:
            Table.resume(path, clock=Clock(), cpu=SyncCpu())
        assert str(path) in str(e.value), what
        assert path.read_bytes() == before, what  # never written to
        assert sf.inspect_save(path) is None or isinstance(sf.inspect_save(path), sf.SaveInfo)


def test_damaged_records_are_named_by_line(tmp_path: Path,
                                           good_save: tuple[dict[str, Any], list[str]]) -> None:
    header, records = good_save
    plays = [i for i, r in enumerate(records) if json.loads(r)["t"] == "play"]
    k = plays[2]
    for what, rec in [
        ("a seat record for a seat that is not there", {"t": "seat", "seat": 9, "kind": "cpu"}),
        ("a play by a seat that is not to move", {**json.loads(records[k]), "seat": 7}),
        ("a play with a text state number", {**json.loads(records[k]), "n": "3"}),
        ("an undo outside solo with nothing", {"t": "undo"}),
        ("a record type nobody wrote", {"t": "teleport"}),
    ]:
        bad = [*records[:k], json.dumps(rec), *records[k + 1:]]
        path = write(tmp_path / "bad.jsonl", header, bad)
        with pytest.raises(CorruptSave, match=f"line {k + 2}"):
            Table.resume(path, clock=Clock(), cpu=SyncCpu())
        path.unlink()
        assert what


def _mutate(rng: random.Random, value: Any, depth: int = 0) -> Any:
    junk = [None, True, -1, 0, 3, 2**70, 1.5, "", "x", "tricky", [], {}, [0], {"seat": 0}]
    if isinstance(value, dict) and value and depth < 3 and rng.random() < 0.7:
        out = dict(value)
        key = rng.choice(sorted(out))
        if rng.random() < 0.2:
            del out[key]
        else:
            out[key] = _mutate(rng, out[key], depth + 1)
        return out
    if isinstance(value, list) and value and depth < 3 and rng.random() < 0.7:
        out_l = list(value)
        i = rng.randrange(len(out_l))
        if rng.random() < 0.2:
            del out_l[i]
        else:
            out_l[i] = _mutate(rng, out_l[i], depth + 1)
        return out_l
    return rng.choice(junk)


def test_fuzzed_headers_never_give_anything_but_a_save_error(
    tmp_path: Path, good_save: tuple[dict[str, Any], list[str]]
) -> None:
    header, records = good_save
    rng = random.Random(2026)
    path = tmp_path / "fuzz.jsonl"
    outcomes = {"resumed": 0, "refused": 0}
    for _ in range(300):  # bounded
        bad = _mutate(rng, header)
        write(path, bad, records)
        try:
            Table.resume(path, clock=Clock(), cpu=SyncCpu()).close()
            outcomes["resumed"] += 1
        except (CorruptSave, ForeignSave, SaveError) as e:
            assert str(path) in str(e)
            outcomes["refused"] += 1
        assert sf.inspect_save(path) is None or sf.inspect_save(path).seats >= 1
    assert outcomes["refused"] > 200  # nearly every mutation breaks something the table needs


def test_a_header_that_cannot_be_written_leaves_no_file(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write

    def full(fd: int, data: Any) -> int:
        if bytes(data).startswith(b'{"config"'):  # the header line (keys sorted)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", full)
    path = tmp_path / "t.jsonl"
    with pytest.raises(SaveError, match="No space left"):
        people_table(path, Clock())
    monkeypatch.undo()
    assert not path.exists()  # a later try may use the same name
    people_table(path, Clock()).close()
