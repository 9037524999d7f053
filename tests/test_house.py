"""The house is checked, not hoped for (issue 14): ruff, the import-linter layer contracts and
mypy (strict for ``game/rules`` and ``game/table``) all pass, as configured in pyproject.toml.

They run as part of the README's test command, so CI and a developer see the same verdict.
The tools come with the ``dev`` extra (``pip install -e '.[dev]'``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    """The tool installed beside this Python (the venv's), else on PATH."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[dev]'")
    return found


def _run(*cmd: str) -> None:
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"{' '.join(cmd)} failed:\n{p.stdout[-6000:]}\n{p.stderr[-3000:]}"


def test_ruff_is_clean() -> None:
    _run(_tool("ruff"), "check", ".")


def test_import_layers_hold() -> None:
    _run(_tool("lint-imports"), "--no-cache")


def test_types_check() -> None:
    _run(_tool("mypy"))
