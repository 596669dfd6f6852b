"""gridlang imported from a checkout: the folders that install inside the package
(grammars/, exporters/, puzzles/) resolve from the checkout's top level."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

from horse_data import REPO

import gridlang

# What a Python started in the repository's root sees after a plain `pip install .`:
# the checkout's gridlang/ first on the path (the current directory), and no
# editable-install finder to map grammars/, exporters/ and puzzles/ into it.
PLAIN_INSTALL = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "")]
sys.path.insert(0, "")
"""


def in_checkout(code: str) -> dict:
    """Run ``code`` in a fresh Python in the repository's root as a plain install sees it; its printed JSON."""
    out = subprocess.run([sys.executable, "-c", PLAIN_INSTALL + code], capture_output=True, text=True, cwd=REPO,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_the_checkouts_grammar_exporters_and_specs_import_from_its_root():
    seen = in_checkout("""
import json
import gridlang
from gridlang import grammars, exporters, puzzles
import gridlang.exporters.cpsat.backend
from importlib import resources
print(json.dumps({
    "gridlang": gridlang.__file__,
    "grammars": grammars.__file__,
    "cpsat": gridlang.exporters.cpsat.backend.__file__,
    "lark": "start:" in resources.files("gridlang.grammars").joinpath("gridlang.lark").read_text(),
    "horse": resources.files("gridlang.puzzles").joinpath("horse.grid").is_file(),
}))
""")
    assert seen == {"gridlang": str(REPO / "gridlang" / "__init__.py"),
                    "grammars": str(REPO / "grammars" / "__init__.py"),
                    "cpsat": str(REPO / "exporters" / "cpsat" / "backend.py"), "lark": True, "horse": True}


def test_a_spec_solves_from_the_root_of_a_checkout():
    seen = in_checkout("""
import json
import gridlang
spec = gridlang.load_spec("puzzles/nurikabe.grid")
result = gridlang.solve(spec, map="puzzles/instances/nurikabe/pzprjs_5x5.txt", backend="cpsat")
print(json.dumps([result.verified, len(result.decisions["shaded"])]))
""")
    assert seen == [True, 14]


def test_only_the_packages_pyproject_maps_resolve_from_the_checkout():
    mapped = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    assert {k: v for k, v in mapped.items() if k != "gridlang"} == {
        f"gridlang.{folder}": folder for folder in gridlang.CHECKOUT_PACKAGES}
    seen = in_checkout("""
import json, importlib
try:
    importlib.import_module("gridlang.tests")
    found = True
except ImportError:
    found = False
print(json.dumps(found))
""")
    assert seen is False
