"""main.py: bad arguments fail fast with one clear line; the window opens and closes cleanly."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def run_main(*args: str, data: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--data", str(data), *args],
        capture_output=True, text=True, env=ENV, timeout=120,
    )


def test_window_opens_draws_and_closes(tmp_path: pathlib.Path) -> None:
    r = run_main("--frames", "5", "--size", "800x600", data=tmp_path)
    assert r.returncode == 0, r.stderr


def test_bad_size_is_refused_before_any_window(tmp_path: pathlib.Path) -> None:
    r = run_main("--size", "huge", data=tmp_path)
    assert r.returncode == 2
    assert "--size wants WIDTHxHEIGHT" in r.stderr.strip().splitlines()[-1]


def test_bad_join_link_is_refused(tmp_path: pathlib.Path) -> None:
    r = run_main("--join", "ftp://nowhere", data=tmp_path)
    assert r.returncode == 2
    assert "--join" in r.stderr.strip().splitlines()[-1]


def test_headless_needs_host(tmp_path: pathlib.Path) -> None:
    r = run_main("--headless", data=tmp_path)
    assert r.returncode == 2
    assert "--headless goes with --host" in r.stderr


# --- start-up: the window path loads no networking ------------------------------------------

HEAVY = ("asyncio", "net", "net.host", "net.codes", "game.table.table", "game.table.savefile",
         "game.table.cpu", "game.cpu_worker",
         "game.rules.track", "game.rules.layout", "multiprocessing", "game.launch.headless")


def loaded_after(code: str, tmp_path: pathlib.Path) -> set[str]:
    """Which of HEAVY are in sys.modules after running ``code`` in a fresh interpreter."""
    script = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=ENV, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    return set(r.stdout.split())


def test_building_and_parsing_window_options_imports_no_network(tmp_path: pathlib.Path) -> None:
    code = ("from game.launch.options import build_parser\n"
            "a = build_parser().parse_args(['--size', '800x600', '--fullscreen', "
            f"'--data', {str(tmp_path)!r}])\n"
            "assert a.size == '800x600' and a.fullscreen and not a.host and a.port is None")
    assert loaded_after(code, tmp_path) == set()
    # and the package itself, as main.py imports it
    assert loaded_after("import game.launch; game.launch.build_parser().parse_args([])",
                        tmp_path) == set()


def test_window_path_reaches_its_frames_without_network_or_engines(
        tmp_path: pathlib.Path) -> None:
    code = ("import os\nos.environ['PYGAME_HIDE_SUPPORT_PROMPT'] = '1'\n"
            "from game.launch import main\n"
            f"assert main(['--frames', '3', '--size', '800x600', '--data', {str(tmp_path)!r}]) "
            "== 0")
    assert loaded_after(code, tmp_path) == set()


def test_help_shows_the_ports_of_net_codes(tmp_path: pathlib.Path) -> None:
    from net.codes import DEFAULT_PORT, DISCOVERY_PORT

    r = run_main("--help", data=tmp_path)
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert f"TCP port to serve on (default {DEFAULT_PORT}; 0: any free port)" in text
    assert f"UDP port answering code look-ups (default {DISCOVERY_PORT})" in text


# --- the headless host's --resume -----------------------------------------------------------

HEADLESS = ["--host", "--headless", "--bind", "127.0.0.1", "--no-discovery", "--sync-cpu",
            "--autostart", "0"]


def headless(tmp_path: pathlib.Path, *args: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    from tests.headless_host import launch_headless

    return launch_headless([sys.executable, str(ROOT / "main.py"), "--data", str(tmp_path),
                            *HEADLESS, *args], ENV)


def stop(p: subprocess.Popen[str]) -> str:
    """SIGTERM a headless host; what it printed after ``ready``."""
    p.terminate()
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 0
    return out


def test_resume_without_code_reuses_the_code_noted_beside_the_save(
        tmp_path: pathlib.Path) -> None:
    save = tmp_path / "t.jsonl"
    p, info = headless(tmp_path, "--game", "layout", "--seats", "3", "--port", "0",
                       "--save", str(save))
    stop(p)
    code = info["code"]
    assert len(code) == 4 and (tmp_path / "t.jsonl.host.json").is_file()
    p, info2 = headless(tmp_path, "--resume", str(save), "--port", "0")
    try:
        assert info2["code"] == code  # not a fresh one: guests' codes and links still work
        assert any(k.startswith(f"resuming with the code {code}") for k in info2)
    finally:
        stop(p)
    # --code still wins over the note
    p, info3 = headless(tmp_path, "--resume", str(save), "--port", "0", "--code", "MNPQ")
    stop(p)
    assert info3["code"] == "MNPQ"


def test_resume_without_a_note_says_it_gives_a_new_code(tmp_path: pathlib.Path) -> None:
    save = tmp_path / "t.jsonl"
    p, info = headless(tmp_path, "--game", "layout", "--seats", "3", "--port", "0",
                       "--save", str(save))
    stop(p)
    (tmp_path / "t.jsonl.host.json").unlink()
    p, info2 = headless(tmp_path, "--resume", str(save), "--port", "0")
    stop(p)
    warning = info2["warning"]  # the line "warning: no code noted beside the save ..."
    assert warning.startswith("no code noted beside the save")
    assert "giving the table a new code" in warning and str(save) in warning
    assert len(info2["code"]) == 4 and info2["code"] != info["code"]  # alike 1 in 23**4


def test_serve_address_takes_what_was_not_given_from_the_note(tmp_path: pathlib.Path) -> None:
    from game.client.saves import write_host_note
    from game.launch.headless import serve_address
    from game.launch.options import build_parser
    from net.codes import DEFAULT_PORT

    save = tmp_path / "t.jsonl"
    write_host_note(save, "KQXF", 47999)
    parse = build_parser().parse_args
    a = serve_address(parse(["--host", "--headless", "--resume", str(save)]))
    assert (a.code, a.port) == ("KQXF", 47999)
    a = serve_address(parse(["--host", "--headless", "--resume", str(save), "--port", "0",
                             "--code", "mn-pq"]))
    assert (a.code, a.port, a.notice) == ("MNPQ", 0, None)
    a = serve_address(parse(["--host", "--headless", "--game", "layout"]))  # a new table
    assert (a.code, a.port, a.notice) == (None, DEFAULT_PORT, None)
    (tmp_path / "t.jsonl.host.json").write_text('{"code": "K0XF", "port": 47999}')
    a = serve_address(parse(["--host", "--headless", "--resume", str(save)]))
    assert a.code is None and a.port == 47999  # a damaged code is no code
    assert a.notice is not None and "new code" in a.notice


def run_resume(save: pathlib.Path, tmp_path: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return run_main(*HEADLESS, "--resume", str(save), "--port", "0", data=tmp_path)


def test_a_damaged_save_is_named_with_its_cause_and_left_alone(tmp_path: pathlib.Path) -> None:
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("this is not a save\n")
    r = run_resume(garbage, tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith("cannot host: ") and str(garbage) in line
    assert "not JSON" in line  # the cause, not just "damaged"
    assert garbage.read_text() == "this is not a save\n"


def test_a_save_whose_seats_do_not_match_its_game_is_named(tmp_path: pathlib.Path) -> None:
    import json

    save = tmp_path / "t.jsonl"
    p, _ = headless(tmp_path, "--game", "layout", "--seats", "3", "--port", "0",
                    "--save", str(save))
    stop(p)
    lines = save.read_text().splitlines()
    header = json.loads(lines[0])
    header["seats"] = header["seats"][:2]  # three-seat game, two seats listed
    damaged = "\n".join([json.dumps(header), *lines[1:]]) + "\n"
    save.write_text(damaged)
    r = run_resume(save, tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith("cannot host: ") and str(save) in line
    assert save.read_text() == damaged


def test_a_missing_save_and_a_bad_code_are_refused(tmp_path: pathlib.Path) -> None:
    r = run_resume(tmp_path / "missing.jsonl", tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert str(tmp_path / "missing.jsonl") in r.stderr
    r = run_main(*HEADLESS, "--port", "0", "--code", "K0XF", data=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("cannot host: ")
    assert not (tmp_path / "saves").exists()  # refused before any save file was made


def test_turn_clock_and_pause_limit_from_the_command_line(tmp_path: pathlib.Path) -> None:
    """``--turn-clock`` and ``--pause-limit`` set the table's clocks (saved, so a resume keeps
    them); ``off`` switches one off; a value the table refuses is one clear line."""
    import json

    save = tmp_path / "t.jsonl"
    p, _info = headless(tmp_path, "--game", "layout", "--seats", "3", "--port", "0",
                        "--save", str(save), "--turn-clock", "45", "--pause-limit", "off")
    stop(p)
    records = [json.loads(line) for line in save.read_text().splitlines()[1:]]
    assert {"t": "turn_clock", "seconds": 45.0} in records
    assert {"t": "pause_limit", "seconds": None} in records
    r = run_main(*HEADLESS, "--port", "0", "--turn-clock", "2", data=tmp_path)
    assert r.returncode != 0 and "cannot host" in r.stderr and "turn clock" in r.stderr
    assert "Traceback" not in r.stderr
    r = run_main(*HEADLESS, "--port", "0", "--pause-limit", "soon", data=tmp_path)
    assert r.returncode == 2 and "'off'" in r.stderr
