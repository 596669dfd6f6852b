"""The house's layers, kept by tools rather than hoped for.

The import contracts of ``[tool.importlinter]`` in pyproject.toml (layers,
the independence of the backends and of the front ends) are checked by
import-linter; the rules it does not state are checked here over grimp's
graph of the installed package: no import cycle at all, counting every
import (inside functions too), no private name taken from another package,
no module over 600 lines, and a root of at most 8 modules.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("grimp")
pytest.importorskip("importlinter")

REPO = Path(__file__).resolve().parents[2]


def _docs_packages():
    """docs/packages.py as a module: the whole package's folder and its import graph."""
    spec = importlib.util.spec_from_file_location("docs_packages", REPO / "docs" / "packages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder on whose path ``gridlang`` is the whole package (the install, or a copy of the checkout)."""
    return _docs_packages().whole_package(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def graph(site) -> dict[str, list[str]]:
    """Every module and the modules it imports, every import counted but those under TYPE_CHECKING."""
    return _docs_packages().module_graph(site)


def _modules(site: Path) -> dict[str, Path]:
    """Every module of the package by its dotted name (the exporters' and grammars' folders included)."""
    package = site / "gridlang"
    out = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).with_suffix("")
        parts = ["gridlang", *rel.parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def test_the_graph_holds_every_module(site, graph):
    # The graph must see the whole package (gridlang.exporters installs from another folder
    # of the checkout): a contract over part of it could pass by not looking.
    assert set(graph) == set(_modules(site)) and "gridlang.exporters.cpsat.backend" in graph




def test_every_package_of_the_checkout_is_installed():
    # pyproject.toml lists the packages one by one (grammars/, exporters/ and puzzles/ install inside
    # gridlang); a package left off the list is missing from a user's install, while an editable
    # install and the checkout still find it.
    import tomllib

    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {name: REPO / path for name, path in setuptools["package-dir"].items()}
    found = set()
    for name, folder in folders.items():
        for init in folder.rglob("__init__.py"):
            rel = init.parent.relative_to(folder).parts
            dotted = ".".join((name, *rel))
            if not any(dotted != other and dotted.startswith(other + ".") and init.parent == folders[other]
                       for other in folders):
                found.add(dotted)
    assert set(setuptools["packages"]) == found


def test_no_import_cycle(graph):
    import rustworkx

    index = {m: k for k, m in enumerate(sorted(graph))}
    digraph = rustworkx.PyDiGraph()
    digraph.add_nodes_from(sorted(graph))
    digraph.add_edges_from_no_data([(index[m], index[i]) for m, imported in graph.items() for i in imported
                                    if i in index])
    cycles = sorted(sorted(digraph[k] for k in component)
                    for component in rustworkx.strongly_connected_components(digraph) if len(component) > 1)
    assert cycles == []


def test_no_private_name_crosses_a_package(site):
    modules = _modules(site)
    crossings = []
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or not (node.module or "").startswith("gridlang"):
                continue
            source = node.module
            source_package = source if source in modules and modules[source].name == "__init__.py" \
                else source.rpartition(".")[0]
            if source_package == package:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    crossings.append(f"{module}:{node.lineno} takes {source}.{alias.name}")
    assert crossings == []




def test_no_module_over_600_lines(site):
    long = {m: n for m, p in _modules(site).items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}


def test_the_root_holds_the_face_and_entry_points(site):
    root = sorted(p.name for p in (site / "gridlang").glob("*.py"))
    assert len(root) <= 8, root


def test_the_import_contracts_hold(site):
    # lint-imports in a fresh Python whose path holds the whole package, with the checkout's contracts.
    lint = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
            "sys.exit(lint_imports_command())", "--config", str(REPO / "pyproject.toml"), "--no-cache"]
    done = subprocess.run(lint, env=dict(os.environ, PYTHONPATH=str(site)), cwd=site, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 3 kept, 0 broken." in done.stdout


# Imports inside functions: only where they keep a module out of start-up, each saying so ---------------------


def _module_level_imports(modules: dict[str, Path]) -> tuple[dict[str, set[str]], list[tuple[str, int, list, bool]]]:
    """Each module's imports at module level (not under TYPE_CHECKING), and every import of gridlang
    inside a function as ``(module, line, the modules it loads, whether a comment says why)``."""
    top: dict[str, set[str]] = {}
    inside = []

    def loads(node) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names if a.name.startswith("gridlang")]
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gridlang"):
            return [node.module] + [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules]
        return []

    for module, path in modules.items():
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        top[module] = set()

        def walk(node, in_function: bool, type_checking: bool, body_lines: list):
            for child in ast.iter_child_nodes(node):
                names = loads(child) if isinstance(child, (ast.Import, ast.ImportFrom)) else []
                if names and not type_checking:
                    if in_function:
                        # a comment on its lines, or on the line above it or above the imports it stands with
                        k = child.lineno - 2
                        while k >= 0 and lines[k].strip().startswith(("from ", "import ", ")")) or \
                                k >= 0 and lines[k].startswith(" ") and lines[k].strip().endswith(","):
                            k -= 1
                        said = any("#" in line for line in lines[child.lineno - 1:child.end_lineno]) or \
                            (k >= 0 and lines[k].strip().startswith("#"))
                        inside.append((module, child.lineno, names, said))
                    else:
                        top[module].update(names)
                tc = type_checking or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
                walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)),
                     tc, body_lines)

        walk(ast.parse(text), False, False, lines)
    return top, inside


def _loaded_with(module: str, top: dict[str, set[str]]) -> set[str]:
    """Every module loaded when ``module`` is imported: its module-level imports, theirs, and the
    packages above each."""
    seen: set[str] = set()
    stack = [module]
    while stack:
        m = stack.pop()
        parts = m.split(".")
        for x in [".".join(parts[:i]) for i in range(1, len(parts) + 1)] + sorted(top.get(m, ())):
            if x not in seen:
                seen.add(x)
                stack.append(x)
    return seen


def test_an_import_inside_a_function_keeps_a_module_out_of_start_up_and_says_so(site):
    top, inside = _module_level_imports(_modules(site))
    needless = [f"{m}:{line} imports {names[-1]}, which is loaded with {m} anyway"
                for m, line, names, _ in inside if set(names) <= _loaded_with(m, top)]
    unsaid = [f"{m}:{line}" for m, line, _, said in inside if not said]
    assert needless == [] and unsaid == []
