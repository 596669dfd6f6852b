"""Shared fixtures. The tests are grouped by layer: language/ (parsing,
errors, start-up, fuzzing), compiler/ (constructs and IR passes),
encodings/ (each backend's encodings on tiny IR models, counted against
brute force), backends/ (real maps and instances per backend, limits,
settings), verifier/ (the spec-level and published-rules verifiers),
puzzles/ (the genres, puzz.link, Snake Eggs end to end) and cli/ (the
commands, pictures, batch, packaging).

This file's directory is put on ``sys.path`` by pytest, so the helpers
beside it (``horse_data``, ``snake_data``, ``tiny``) import from any layer.
"""

from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from gridlang.core.deadline import wait_for_left_behind
from gridlang.ir.backend import backend_names


def pytest_configure(config) -> None:
    """Keep the parser's and the specs' caches (``$XDG_CACHE_HOME/gridlang``)
    in a directory of this run, not the user's, and remove it afterwards;
    the commands the tests start inherit it."""
    config._gridlang_cache = tempfile.mkdtemp(prefix="gridlang-tests-cache-")
    config._gridlang_cache_was = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = config._gridlang_cache
    _compile_checkout()


def _compile_checkout() -> None:
    """Write the bytecode of the checkout's packages once, before the tests start commands.

    A command the tests start (``python -m gridlang`` in the checkout's root)
    imports the checkout's ``gridlang/``, not the installed copy, and where
    ``PYTHONDONTWRITEBYTECODE`` is set (as on the CI machine) no import
    writes its bytecode: each command compiled some 80 modules again, 0.2 s
    of a 0.25 s solve at rest, as no installed gridlang does (pip writes the
    bytecode at install). ``compileall`` writes it whatever that variable
    says; a checkout that cannot be written is left as it is.
    """
    root = Path(__file__).resolve().parent.parent
    for name in ("gridlang", "grammars", "exporters", "puzzles"):
        if (root / name).is_dir():
            compileall.compile_dir(root / name, quiet=2)


def pytest_unconfigure(config) -> None:
    if getattr(config, "_gridlang_cache", None) is None:
        return
    if config._gridlang_cache_was is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = config._gridlang_cache_was
    shutil.rmtree(config._gridlang_cache, ignore_errors=True)


@pytest.fixture(params=[n if n != "auto" else pytest.param(n, marks=pytest.mark.slow) for n in backend_names()])
def backend(request) -> str:
    """Each registered backend's name in turn (cpsat, milp, maxsat, asp, and
    auto under ``-m slow``: it runs one of the others, and
    tests/backends/test_auto.py covers its choices by default): the
    cross-backend cases run once per backend."""
    return request.param


@pytest.fixture(autouse=True)
def _no_solver_left_behind_from_an_earlier_test():
    """A solver an earlier test left behind (a HiGHS run past its time limit) ends while this one
    runs and puts back the standard streams it found: that earlier test's captures, closed since
    ("I/O operation on closed file"). It is waited for here, and the streams are this test's."""
    streams = sys.stdout, sys.stderr
    wait_for_left_behind(60.0)
    sys.stdout, sys.stderr = streams
    yield
