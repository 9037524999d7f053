"""game.rules must stay a pure library: no pygame, sockets, threads, clocks or files."""

import ast
import pathlib
import subprocess
import sys

RULES = pathlib.Path(__file__).resolve().parents[1] / "game" / "rules"
FORBIDDEN = {
    "pygame", "socket", "asyncio", "threading", "multiprocessing", "msgpack", "sqlite3",
    "time", "datetime", "random", "os", "io", "pathlib", "shutil", "tempfile", "selectors",
    "subprocess", "concurrent", "platformdirs",
}
# The command-line front ends (``__main__.py``) may print and read argv; nothing else may.
ALLOWED_FILES = {"__main__.py"}


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_sources_import_nothing_impure() -> None:
    files = [p for p in RULES.rglob("*.py") if p.name not in ALLOWED_FILES]
    assert files, "no rules sources found"
    bad = {str(p.relative_to(RULES)): sorted(_imports(p) & FORBIDDEN) for p in files}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"impure imports in game.rules: {bad}"


def test_importing_rules_loads_no_impure_module() -> None:
    code = (
        "import sys, importlib, pkgutil, game.rules as r\n"
        "for m in pkgutil.walk_packages(r.__path__, 'game.rules.'):\n"
        "    if not m.name.endswith('__main__'): importlib.import_module(m.name)\n"
        "impure = ('pygame', 'socket', 'asyncio', 'threading', 'msgpack')\n"
        "bad = [n for n in impure if n in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"importing game.rules pulled in: {out.stdout.strip()}"


def _project_imports(path: pathlib.Path) -> set[str]:
    """Every ``game...``/``net...`` module a rules source imports (absolute imports only: the
    rules use no relative ones)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            if node.module:
                names.add(node.module)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
    return {n for n in names if n.split(".")[0] in ("game", "net")}


def test_rules_are_the_bottom_layer() -> None:
    # rules < ai < table < net < client < launch: the rules import only themselves (the
    # layers contract of pyproject.toml, checked here without import-linter; this also sees
    # the lazy importlib imports, which import-linter does not)
    outside = {
        str(p.relative_to(RULES)): sorted(n for n in _project_imports(p)
                                          if not (n == "game.rules" or n.startswith("game.rules.")))
        for p in RULES.rglob("*.py")
    }
    outside = {k: v for k, v in outside.items() if v}
    assert not outside, f"game.rules reaches up into: {outside}"
    # and the registry's lazy imports name rules packages only
    from game.rules.registry import GAMES

    assert all(m.startswith("game.rules.") for m in GAMES.values())
