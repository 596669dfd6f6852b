"""The Python API: docs/api.md runs as a doctest, from the repository's root."""

from __future__ import annotations

import doctest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_docs_api_examples_hold(monkeypatch):
    monkeypatch.chdir(REPO)
    failures, tried = doctest.testfile(str(REPO / "docs" / "api.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried >= 15
    assert failures == 0


def test_module_docstring_example_holds(monkeypatch):
    import gridlang.api

    monkeypatch.chdir(REPO)
    failures, tried = doctest.testmod(gridlang.api)
    assert (failures, tried) == (0, 5)
