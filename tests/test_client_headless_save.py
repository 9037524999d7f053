"""A headless host (``main.py --host --headless``) keeps its save in the data folder that
``--data`` / ``$TEE_TABLE_DATA`` names, with the code-and-port note beside it, so the window's
"Reopen a saved table" lists it and reopens it under the same code and port."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.table.savefile import list_saves, read_host_note
from tests.headless_host import ROOT, launch_headless


def launch(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str],
                                                          dict[str, str]]:
    return launch_headless([sys.executable, str(ROOT / "main.py"), "--host", "--headless",
                            "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                            "--sync-cpu", "--autostart", "0", *args], env)


@pytest.mark.parametrize("how", ["--data", "TEE_TABLE_DATA"])
def test_headless_save_goes_to_the_data_folder_with_its_note(tmp_path: Path,
                                                             how: str) -> None:
    data = tmp_path / "data"
    env = dict(os.environ)
    env.pop("TEE_TABLE_DATA", None)
    args = ["--game", "layout", "--seats", "3"]
    if how == "--data":
        args += ["--data", str(data)]
    else:
        env["TEE_TABLE_DATA"] = str(data)
    p, info = launch(args, env)
    try:
        save = Path(info["save"])
        assert save.parent == data / "saves"
        assert save.name.startswith("hosted-") and save.suffix == ".jsonl"
        note = read_host_note(save)
        assert note == {"code": info["code"], "port": int(info["port"])}
        listed = list_saves(data)  # what the window's Reopen screen shows
        assert [s.path for s in listed] == [save]
        assert listed[0].code == info["code"] and listed[0].game == "layout"
        assert listed[0].seats == 3
    finally:
        p.terminate()
        p.wait(15)
        for f in (p.stdout, p.stderr):
            if f is not None:
                f.close()
