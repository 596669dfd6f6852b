"""gridlang: state a grid puzzle's rules once, solve it with MILP, CP-SAT, MaxSAT or ASP.

The Python API (:mod:`gridlang.api`, see docs/api.md)::

    spec = gridlang.load_spec("puzzles/horse.grid")
    result = gridlang.solve(spec, map="daily.txt", backend="cpsat", time_limit=10)

Its names are imported on first use, so that ``import gridlang`` (and
``gridlang check``) stays fast.
"""

from __future__ import annotations

import time

__version__ = "0.1.0"

IMPORTED = time.perf_counter()
"""When this process imported gridlang (``time.perf_counter``): the
``gridlang`` command starts its clock there, so that its ``startup``
seconds hold gridlang's own imports."""

_API = ("load_spec", "solve", "export", "verify", "Spec", "SolveResult")


def __getattr__(name: str):
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'gridlang' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
