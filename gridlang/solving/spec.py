"""A spec loaded for solving: parsed, checked and kept with its path.

The Python API hands a :class:`Spec` to its callers (:mod:`gridlang.api`),
and generation takes one (:mod:`gridlang.why.generation`); both load it here.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from gridlang.core.nodes import Record, field
from gridlang.language import ast
from gridlang.language.checker import Symbols
from gridlang.language.parser import parse_and_check_file

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib


class Spec(Record, slots=False):
    """A parsed and checked ``.grid`` spec.

    Attributes:
        path: the file it was read from.
        ast: its statements (:class:`gridlang.language.ast.Spec`).
        symbols: its names and types (:class:`gridlang.language.checker.Symbols`).
    """

    path: str
    ast: ast.Spec = field(repr=False)
    symbols: Symbols = field(repr=False)

    @property
    def puzzle(self) -> str | None:
        """The ``puzzle "NAME"`` of the spec, or None."""
        return self.ast.puzzle.name if self.ast.puzzle else None

    @property
    def params(self) -> tuple[str, ...]:
        """The names of the spec's parameters (``budget``), in the order declared."""
        return tuple(self.symbols.params)

    @property
    def decisions(self) -> tuple[str, ...]:
        """The names of the spec's decisions (``wall``, ``shaded``), in the order declared."""
        return tuple(self.symbols.decisions)

    def __repr__(self) -> str:
        return f"<Spec {self.puzzle or os.path.splitext(os.path.basename(self.path))[0]!r} from {self.path}>"


def load_spec(path: str | Path) -> Spec:
    """Parse and check a spec.

    Raises:
        GridlangError: the file is missing or the spec is wrong (located).
    """
    tree, symbols = parse_and_check_file(path)
    return Spec(str(path), tree, symbols)


def spec_of(spec: "Spec | str | Path") -> Spec:
    """A spec given as a :class:`Spec`, a path (it holds a ``/`` or ends in ``.grid``) or a bundled
    spec's name (:func:`bundled`).

    Raises:
        GridlangError: as :func:`load_spec` or :func:`bundled`.
    """
    if isinstance(spec, Spec):
        return spec
    text = str(spec)
    return load_spec(spec) if "/" in text or text.endswith(".grid") else bundled(text)


def bundled(name: str) -> Spec:
    """A spec shipped with gridlang, parsed and checked, from any directory.

    Args:
        name: the spec's name, its file name in the repository's
            ``puzzles/`` without ``.grid`` (``horse``, ``horse_lovebirds``,
            ``nurikabe``, ``snake_eggs``; :func:`bundled_specs` lists them),
            or a puzz.link genre alias (``mashu``, ``slither``).

    Raises:
        NotBundledError: no shipped spec has that name (a
            :class:`~gridlang.core.errors.GridlangError` and a ``LookupError``;
            the message names the closest).
    """
    # imported on use, not at start-up: a solve of a spec's path never looks in the catalogue
    from gridlang.formats import catalog

    return load_spec(catalog.spec_path(name))
