"""The map of the house for docs/architecture.md: gridlang's packages and the imports between them.

``docs/generate.py`` writes the block ``<!-- generated: packages PICTURE -->``
from here: a table of the packages (each with the first line of its
docstring and the packages it imports) and a picture of the same graph,
drawn layer by layer in the order of the layers contract of
``[tool.importlinter]`` in pyproject.toml, so that both stay what the code
is (``tests/cli/test_docs.py`` checks them).

The graph is grimp's, of the installed package, every import counted (those
inside functions too) but those under ``if TYPE_CHECKING:``, as in the
contracts; a module's imports count for its package: ``gridlang.X`` for the
stages, ``gridlang.exporters.Y`` for each backend, and ``gridlang`` for the
package's face and entry points.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_of(module: str) -> str:
    """The package a module counts for (see the module's docstring)."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "exporters":
        return ".".join(parts[:3])
    if len(parts) >= 2 and parts[1] not in ("console", "__main__"):
        return ".".join(parts[:2])
    return "gridlang"


GRAPH = """
import json, sys
import grimp
graph = grimp.build_graph("gridlang", include_external_packages=False, exclude_type_checking_imports=True)
json.dump({m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}, sys.stdout)
"""


def whole_package(into: Path) -> Path:
    """A folder on whose path ``gridlang`` is the whole package, as an install lays it out.

    The installed package when it is whole; else (an editable install, or a
    checkout) a copy of the checkout's ``gridlang/`` with ``exporters/``,
    ``grammars/`` and ``puzzles/`` inside it (their ``package-dir``), written
    under ``into``: an import graph of the checkout's folders alone would not
    see the backends.
    """
    import shutil

    spec = importlib.util.find_spec("gridlang")
    installed = Path(spec.origin).parent if spec is not None and spec.origin else None
    if installed is not None and (installed / "exporters" / "__init__.py").is_file():
        return installed.parent
    target = into / "gridlang"
    shutil.copytree(ROOT / "gridlang", target, ignore=shutil.ignore_patterns("__pycache__", "static", "*.json"))
    for name in ("exporters", "grammars", "puzzles"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.txt", "*.json"))
    return into


def module_graph(site: Path) -> dict[str, list[str]]:
    """Every module of the package under ``site`` and the modules it imports (grimp, in a
    fresh Python, so that the ``gridlang`` already imported here does not stand in)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run([sys.executable, "-c", GRAPH], env=env, cwd=site, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def edges(graph: dict[str, list[str]] | None = None) -> dict[str, set[str]]:
    """Each package and the packages its modules import (itself left out)."""
    if graph is None:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            graph = module_graph(whole_package(Path(folder)))
    out: dict[str, set[str]] = {}
    for module, imported in graph.items():
        source = package_of(module)
        if source == "gridlang.exporters":  # the backends' folder itself holds nothing
            continue
        out.setdefault(source, set())
        for name in imported:
            target = package_of(name)
            if target != source:
                out[source].add(target)
    return out


def layers(root: Path = ROOT) -> list[list[str]]:
    """The layers of the first ``layers`` contract of pyproject.toml, highest first, each a
    list of the packages in it (``gridlang.console`` and ``gridlang.__main__`` as ``gridlang``)."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    out: list[list[str]] = [["gridlang"]]
    for layer in contract["layers"]:
        names = [p for p in (package_of(n.strip()) for n in layer.split("|")) if p != "gridlang"]
        if names:
            out.append(names)
    return out


def job(package: str) -> str:
    """The first sentence of a package's docstring (read from its file, not imported)."""
    parts = package.split(".")
    top = parts[1] if len(parts) > 1 and parts[1] in ("exporters", "grammars", "puzzles") else None
    base = ROOT / top if top else ROOT / "gridlang"
    path = base.joinpath(*parts[2 if top else 1:], "__init__.py")
    if not path.is_file():
        return ""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = doc.split("\n\n")[0].replace("\n", " ").strip()
    return first.split(": ", 1)[-1].capitalize() if package == "gridlang" else first


def table(graph: dict[str, set[str]], order: list[list[str]]) -> str:
    """The Markdown table of the block: a row per package, highest layer first."""
    rows = ["| package | its job | imports |", "| --- | --- | --- |"]
    flat = [p for row in placed(graph, order) for p in row]
    for package in flat:
        imports = ", ".join(f"`{short(p)}`" for p in sorted(graph.get(package, ()), key=flat.index))
        rows.append(f"| `{package}` | {job(package).replace('|', '/')} | {imports} |")
    return "\n" + "\n".join(rows) + "\n\n"


def short(package: str) -> str:
    """A package's name without ``gridlang.`` (the face stays ``gridlang``)."""
    return package.removeprefix("gridlang.") if package != "gridlang" else package


def placed(graph: dict[str, set[str]], order: list[list[str]]) -> list[list[str]]:
    """The rows of packages, highest first: the layers, then a row of the packages no layer
    names (the data a package reads: ``grammars``, ``puzzles``)."""
    rows = [_expanded(layer, graph) for layer in order]
    seen = {p for row in rows for p in row}
    rest = sorted(({p for p in graph} | {t for ts in graph.values() for t in ts}) - seen)
    return rows + ([rest] if rest else [])


def _expanded(layer: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A layer's packages, ``gridlang.exporters`` standing for each backend's folder."""
    out = []
    for name in layer:
        if name == "gridlang.exporters":
            out += sorted(p for p in graph if p.startswith("gridlang.exporters."))
        else:
            out.append(name)
    return out


def picture(graph: dict[str, set[str]], order: list[list[str]]) -> bytes:
    """The graph drawn as a PNG: a row per layer, highest at the top, an arrow from each
    package to each package it imports."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = placed(graph, order)
    where: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(rows):
        for k, name in enumerate(row):
            # A layer of one package stands left or right of the middle in turn, so that the arrows
            # between layers of one package each do not all lie on one vertical line.
            x = (k + 1) / (len(row) + 1) if len(row) > 1 else (0.38 if r % 2 else 0.62)
            where[name] = (x, 1 - r / max(1, len(rows) - 1))
    fig, ax = plt.subplots(figsize=(9, 11), dpi=80)
    fig.subplots_adjust(left=0.01, right=0.99, top=0.99, bottom=0.01)
    ax.set_axis_off()
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(-0.03, 1.03)
    for source in sorted(graph):
        for target in sorted(graph[source]):
            if source in where and target in where:
                ax.annotate("", xy=where[target], xytext=where[source],
                            arrowprops={"arrowstyle": "-|>", "color": "#7f93ab", "lw": 0.7, "shrinkA": 9,
                                        "shrinkB": 9, "alpha": 0.6, "mutation_scale": 8,
                                        "connectionstyle": "arc3,rad=0.12"})
    for name, (x, y) in where.items():
        ax.text(x, y, short(name), ha="center", va="center", fontsize=9,
                bbox={"boxstyle": "round,pad=0.3", "facecolor": "#fbf3d5", "edgecolor": "#6b5b2a"})
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(fig)
    return buffer.getvalue()
