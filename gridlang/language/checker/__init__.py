"""Semantic checks of a parsed spec, and its symbol table.

The checker resolves every name, gives every expression a type and reports
all the problems it finds in one :class:`~gridlang.core.errors.MultipleErrors`
(or the single error), each located in the spec:

* a name used but not declared, or declared twice;
* a map character claimed by two tiles;
* a type mismatch (a cell set where a number is expected, a product of two
  decision-dependent sums, ...);
* a region whose roots depend on decisions;
* an enumerated decision used as a plain cell set (``kind`` instead of
  ``kind = snake``), a value that is not in its domain, a loop variable
  that shadows a declared name.

Types:

``FIXED``
    a cell set known from the map alone (tiles, tags, ``border``, ``all``).
``CELLS``
    a cell set that depends on decisions (a Boolean decision, a region).
``INT``
    an integer constant (literals, ``int`` parameters).
``LINEAR``
    a linear sum over decisions (``count(wall)``, ``value(pen) - 6``).
``INT_SET``
    a set of integers (``set of int`` parameters).
``FACT``
    a condition known from the map alone (``value(p) == value(q)``, ``p in
    clue``, ``room(p) != room(q)``).
``BOOL``
    a condition that depends on decisions (``star[p]``, ``count(star and r)
    == 1``, ``shaded[p] implies not shaded[q]``).

``CORNERS``
    corners of the lattice of cell corners (``corners(p)``, a ``for each
    corner`` variable): what ``for each`` and the aggregates run over, and
    what ``degree``, ``straight``, ``turn`` and ``line[v, w]`` take on a
    decision on corner edges. Never a cell set.
``LIST``
    the numbers a clue cell holds, in order (``values(c)``): what
    ``count(...)`` and ``sum(...)`` take, and ``is known`` asks about.

A ``for each`` variable is an integer, a cell (usable wherever a fixed cell
set is: it is the set of that one cell), a corner, or a fixed cell set (a
row, a column, a room, a window, a block).
"""
from __future__ import annotations

from gridlang.language import ast
from gridlang.language.checker.symbols import Symbols, TileTable, Type

__all__ = ["Symbols", "TileTable", "Type", "check"]


def check(spec: ast.Spec) -> Symbols:
    """Check ``spec`` and build its symbol table.

    Returns:
        The symbols.

    Raises:
        SemanticError: one problem.
        MultipleErrors: several, in source order.
    """
    # imported on use, not at start-up: the symbol table's types load without the checks, and a
    # spec served with its symbols from the spec cache never runs them
    from gridlang.language.checker.statements import _Checker

    return _Checker(spec).run()
