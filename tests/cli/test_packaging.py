"""The installed package holds every module and the grammar."""

from __future__ import annotations

import pkgutil
import tomllib
from importlib import resources

import gridlang

from horse_data import REPO


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"gridlang"} | {f"gridlang.{m.name}" for m in pkgutil.iter_modules(gridlang.__path__) if m.ispkg}
    assert found <= listed


def test_grammar_is_package_data():
    text = resources.files("gridlang.grammars").joinpath("gridlang.lark").read_text()
    assert "start:" in text
