"""The client has no circle: no scene module imports the app, the router or another scene
module, at the top or inside a function (issue 14 point 4). Only the app and its router map
names to scene classes; scenes ask the stage (``game.client.stage.Stage``)."""

from __future__ import annotations

import ast
from pathlib import Path

CLIENT = Path(__file__).resolve().parent.parent / "game" / "client"
#: Modules scenes may build on: the bases (not scenes themselves). The table's base is
#: built in layers (core, end, seats, base) with its panels (ADMIN, Ask for a seat) beside.
BASES = {"scene", "table_base", "table_core", "table_end", "table_seats", "table_overlays"}
#: Base class names a scene derives from (more are found in the modules themselves).
SCENE_BASES = {"Scene", "TableScene"}
#: Only these map names to scenes.
WIRING = {"app", "router"}


def trees() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(), str(p)) for p in sorted(CLIENT.glob("*.py"))}


def scene_modules(mods: dict[str, ast.Module]) -> set[str]:
    """Modules (other than the bases and the wiring) that define a scene class."""
    bases = set(SCENE_BASES)
    found: set[str] = set()
    changed = True
    while changed:  # a class deriving from a scene class is a scene class too
        changed = False
        for name, tree in mods.items():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in bases and any(
                        (isinstance(b, ast.Name) and b.id in bases) or
                        (isinstance(b, ast.Attribute) and b.attr in bases)
                        for b in node.bases):
                    bases.add(node.name)
                    changed = True
                if isinstance(node, ast.ClassDef) and node.name in bases and \
                        name not in BASES | WIRING:
                    found.add(name)
    return found


def client_imports(tree: ast.Module) -> set[str]:
    """Every ``game.client`` module a file imports anywhere (functions, TYPE_CHECKING too)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("game.client."):
                    out.add(a.name.split(".")[2])
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "game.client":
                out.update(a.name for a in node.names)
            elif node.module.startswith("game.client."):
                out.add(node.module.split(".")[2])
    return out


def test_the_scene_modules_are_found() -> None:
    found = scene_modules(trees())
    # the screens, the lobby and both tables at least (a rename must keep this test honest)
    assert {"screens", "lobby", "table_scene", "layout_scene"} <= found
    assert not found & (BASES | WIRING)


def test_no_scene_module_imports_the_app_the_router_or_another_scene() -> None:
    mods = trees()
    scenes = scene_modules(mods)
    bad = []
    for name in sorted(scenes):
        for target in sorted(client_imports(mods[name])):
            if target in WIRING or (target in scenes and target != name):
                bad.append(f"{name} imports {target}")
    assert bad == []


def test_the_bases_import_no_scene_and_no_wiring() -> None:
    mods = trees()
    scenes = scene_modules(mods)
    for name in BASES:
        if name in mods:
            hit = client_imports(mods[name]) & (scenes | WIRING)
            assert not hit, f"{name} imports {sorted(hit)}"


def test_the_walk_sees_an_import_inside_a_function() -> None:
    tree = ast.parse("def f():\n    from game.client.app import App\n"
                     "    import game.client.lobby\n    from game.client import screens\n")
    assert client_imports(tree) == {"app", "lobby", "screens"}


def test_no_session_is_probed_with_getattr_or_hasattr() -> None:
    """Sessions are read by their declared attributes (``session.remote``, ``is_host``...)."""
    bad = []
    for name, tree in trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("getattr", "hasattr") and node.args:
                target = ast.unparse(node.args[0])
                probe = ast.unparse(node.args[1]) if len(node.args) > 1 else ""
                if "session" in target or probe.strip("'\"") in ("remote", "is_host",
                                                                  "session"):
                    bad.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    assert bad == []
