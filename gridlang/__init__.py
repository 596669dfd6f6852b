"""gridlang: state a grid puzzle's rules once, solve it with MILP, CP-SAT, MaxSAT or ASP.

The Python API (:mod:`gridlang.api`, see docs/api.md)::

    spec = gridlang.bundled("horse")                 # or gridlang.load_spec("path/to/spec.grid")
    result = gridlang.solve(spec, map="daily.txt", backend="cpsat", time_limit=10)
    for answer in gridlang.solutions(gridlang.bundled("nurikabe"), url="https://puzz.link/p?nurikabe/..."):
        ...

Its names are imported on first use, so that ``import gridlang`` (and
``gridlang check``) stays fast.
"""

from __future__ import annotations

import time

from gridlang.core.version import VERSION as __version__  # noqa: F401 - the face names it

IMPORTED = time.perf_counter()
"""When this process imported gridlang (``time.perf_counter``): the
``gridlang`` command starts its clock there, so that its ``startup``
seconds hold gridlang's own imports."""

CHECKOUT_PACKAGES = ("grammars", "exporters", "puzzles")
"""The folders of a checkout's top level that install inside the package as
``gridlang.NAME`` (``[tool.setuptools] package-dir`` in pyproject.toml)."""


class _CheckoutFinder:
    """Finds ``gridlang.grammars``, ``gridlang.exporters`` and
    ``gridlang.puzzles`` in the checkout gridlang was imported from.

    A Python started in a checkout's root imports the checkout's
    ``gridlang/`` (the current directory comes first on ``sys.path``), which
    does not hold those three: an install puts them inside the package
    through ``package-dir``, an editable install through setuptools' own
    finder of the same mapping. This finder applies that mapping to the
    checkout, for those three names only, after every other finder, so an
    install is never overridden and nothing else of the checkout's top
    level (``tests``, ``docs``, ``gridlang`` itself) becomes a part of the
    package, as it would if the top level were added to ``__path__``.
    """

    root: str = ""

    @classmethod
    def find_spec(cls, fullname: str, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in CHECKOUT_PACKAGES:
            return None
        from importlib.machinery import PathFinder

        return PathFinder.find_spec(fullname, [cls.root])


def _find_checkout_packages() -> None:
    """Install :class:`_CheckoutFinder` when this package is a checkout's
    ``gridlang/`` (beside its ``pyproject.toml`` and ``grammars/``)."""
    import os
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not (os.path.isfile(os.path.join(root, "pyproject.toml"))
            and os.path.isfile(os.path.join(root, "grammars", "gridlang.lark"))):
        return
    _CheckoutFinder.root = root
    if not any(getattr(f, "__qualname__", "") == _CheckoutFinder.__qualname__
               and getattr(f, "__module__", "") == __name__ for f in sys.meta_path):
        sys.meta_path.append(_CheckoutFinder)


_find_checkout_packages()

_API = ("load_spec", "bundled", "bundled_specs", "bundled_map", "bundled_maps", "solve", "solutions", "export",
        "verify", "Spec", "SolveResult", "Answers", "forced", "explain", "hints", "generate")


def __getattr__(name: str):
    if name in _API:
        # imported on use, not at start-up
        from gridlang import api

        return getattr(api, name)
    raise AttributeError(f"module 'gridlang' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
