"""The house in order: no import circle in companion/, no import up the house's floors, pure rules, short modules, a
top level that is only the frame.

The import graph is read from the source (every import statement, those inside functions too): an
import dodged by moving it into a function is still an arrow, and a circle is still a circle.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"
# The app's frame: the factory, its settings, its extensions, its models, its database handling, its entry point.
FRAME = {"__init__", "config", "extensions", "models", "database", "commits", "wsgi"}
LONGEST = 300
# The house's floors, the lowest first (docs/architecture.md, "The floors"): a module imports from its own floor
# and those below it, never from one above. The rules know nothing of the app; the data knows no request; what
# records a change announces it (``table.signals``) and the live machinery, above, listens; the live region is
# rendered by ``live.page`` for the views' answers and the pushes alike; the app's factory and its processes' entry
# points are the roof.
FLOORS = [
    ["rules"],
    ["i18n", "inputs"],
    ["config", "extensions", "models", "database", "commits"],
    ["table"],
    ["groups"],
    ["review"],
    ["library"],
    ["web"],
    ["forms"],
    ["live"],
    ["views"],
    ["companion", "wsgi", "server"],
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py") if "migrations" not in path.parts}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module ``name`` imports, anywhere in it, as absolute names.

    ``from .x import y`` imports the module ``x.y`` if there is one, else a name of ``x``; the package a
    module sits in is loaded first by Python, but that is not an arrow of the module's own.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found |= {f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target
                      for alias in node.names}
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The companion modules ``name`` imports."""
    return {module for module in imported(name, path, known) if module in known and module != name}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each a circle of imports."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_no_module_of_companion_imports_itself_back_round_a_circle():
    assert circles(graph()) == []


def test_the_circle_check_finds_a_circle_and_one_dodged_inside_a_function(tmp_path):
    # The check itself: a circle made only by an import inside a function is still found.
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [["a", "b", "c"]]
    source = tmp_path / "companion" / "x.py"
    source.parent.mkdir()
    source.write_text("def later():\n    from . import y\n")
    (tmp_path / "companion" / "y.py").write_text("from .x import later\n")
    (tmp_path / "companion" / "__init__.py").write_text("")
    assert imports_of("companion.x", source, {"companion.x", "companion.y"}) == {"companion.y"}


def floor(module: str) -> int:
    """The floor of a companion module: that of its package, or of the frame's module it is."""
    parts = module.split(".")
    place = parts[1] if len(parts) > 1 else parts[0]
    return next(number for number, floor in enumerate(FLOORS) if place in floor)


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import from a lower floor to a higher one, as "importer -> imported"."""
    return sorted(f"{importer} -> {other}" for importer, others in edges.items() for other in others
                  if floor(importer) < floor(other))


def test_no_import_runs_from_a_lower_floor_to_a_higher_one():
    assert upward(graph()) == []


def test_every_package_and_module_of_the_top_stands_on_a_floor():
    top = {path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__"} | {
        path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}
    assert top <= {place for floor in FLOORS for place in floor}


def test_the_floor_check_finds_an_import_up_the_house_even_inside_a_function(tmp_path):
    # The check itself: what records a change calling the live machinery, from inside a function.
    source = tmp_path / "companion" / "table" / "recording.py"
    source.parent.mkdir(parents=True)
    source.write_text("def record():\n    from ..live import heads\n    heads.changed(1)\n")
    known = {"companion.table.recording", "companion.live.heads", "companion.rules"}
    edges = {"companion.table.recording": imports_of("companion.table.recording", source, known),
             "companion.live.heads": {"companion.rules"}}
    assert upward(edges) == ["companion.table.recording -> companion.live.heads"]


def test_the_rules_import_nothing_but_the_standard_library_and_themselves():
    outside = {}
    for name, path in modules().items():
        if name.startswith("companion.rules"):
            found = {module for module in imported(name, path, set(modules()))
                     if not module.startswith("companion.rules") and module.split(".")[0] not in sys.stdlib_module_names}
            if found:
                outside[name] = sorted(found)
    assert outside == {}


def test_no_module_outside_the_rules_is_longer_than_about_300_lines():
    long = {name: lines for name, path in modules().items()
            if not name.startswith("companion.rules") and (lines := len(path.read_text().splitlines())) > LONGEST}
    assert long == {}


def test_the_top_of_the_package_holds_only_the_apps_frame():
    top = {path.stem for path in PACKAGE.glob("*.py")}
    assert top == FRAME
    packages = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}
    assert packages == {"rules", "table", "live", "i18n", "inputs", "web", "server", "forms", "views", "review", "groups",
                        "library"}


@pytest.mark.parametrize("package", ["table", "live", "i18n", "inputs", "web", "server", "forms", "views", "review",
                                     "groups", "library"])
def test_every_package_says_what_it_holds(package):
    assert ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text()))


def test_every_package_has_its_tests_beside_the_others():
    tests = Path(__file__).resolve().parent
    for package in ("table", "live", "i18n", "inputs", "web", "server", "forms", "views", "review", "rules", "groups",
                    "library"):
        assert list((tests / package).glob("test_*.py")) or list((tests / package).glob("*/test_*.py")), package
