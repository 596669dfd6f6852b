"""The installed package holds every module and the grammar."""

from __future__ import annotations

import pkgutil
import tomllib
from importlib import resources

from horse_data import REPO

import gridlang


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"gridlang"} | {f"gridlang.{m.name}" for m in pkgutil.iter_modules(gridlang.__path__) if m.ispkg}
    assert found <= listed


def test_grammar_is_package_data():
    text = resources.files("gridlang.grammars").joinpath("gridlang.lark").read_text()
    assert "start:" in text


def test_the_console_script_is_console_entry_and_a_ctrl_c_while_it_loads_is_quiet():
    """A Ctrl-C once :mod:`gridlang.console` is imported and before the command
    runs (gridlang's own imports) ends with "interrupted" and 130, no traceback."""
    import subprocess
    import sys

    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"gridlang": "gridlang.console:entry"}
    done = subprocess.run([sys.executable, "-c", "import os, signal, gridlang.console; os.kill(os.getpid(), "
                           "signal.SIGINT); print('not reached')"], capture_output=True, text=True, timeout=60,
                          cwd=REPO.parent)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "interrupted\n")
