"""Slants: a cell decision whose values are ``'/'`` and ``'\\'``, the diagonals of Gokigen and Wagiri.

``decide slant: {'/', '\\\\'} on all`` is an enumerated decision like any
other (``slant[p] = '/'``, ``count(slant = '\\\\')``); what makes its values
slants is their geometry, which two corners of the cell each one joins, as
pzprjs's ``Cell.setSideObj`` of ``gokigen.js`` states it: ``'\\'`` (its
``qans`` 31) joins the cell's top-left and bottom-right corners, ``'/'``
(32) its top-right and bottom-left ones. A value that is no slant (a
blank, in a genre that lets a cell stay empty) joins none. With that
geometry the slants are edges of a graph on the lattice of cell corners
(pzprjs's crosses), and rules speak of it:

``degree(slant, v)``
    the number of slants that touch corner v (an end of them is v): up to
    four, one from each cell around v. Gokigen's number on a cross. A
    linear sum of the up to four cells' literals of the value that
    touches v: ``'\\'`` in the cell whose bottom-right corner v is and in
    the one whose top-left it is, ``'/'`` in the two others.
``slant has no cycle``, ``p is on a cycle of slant``
    the graph of the slants (:mod:`gridlang.constructs.cycles`).

This module holds the geometry's two readings, one for the compiler
(:func:`degree_terms`) and one for the verifier (:func:`degree`), which
share no code, and the test of a decision whose values are slants
(:func:`is_slant_decision`); the nodes are those of the constructs that
take a slant decision (``degree``: :mod:`gridlang.constructs.edges`).
"""

from __future__ import annotations

from gridlang.ir.literals import add_literal
from gridlang.language import ast
from gridlang.language.checker.symbols import Type

SLANTS = ("/", "\\")
"""The values that are slants: ``'/'`` joins a cell's top-right and bottom-left corners, ``'\\'`` its
top-left and bottom-right ones."""


def is_slant_decision(decl) -> bool:
    """Whether the decision ``decl`` (an ``ast.Decide``) is made on cells and has a slant among its values."""
    if decl is None or decl.lattice is not None or not decl.is_enum:
        return False
    return any(isinstance(part, ast.Symbol) and part.id in SLANTS for part in decl.domain)


def degree_type(checker, e) -> Type | None:
    """``degree(slant, v)``: ``LINEAR``, or None after reporting a point that is not one corner."""
    if checker.is_corner(e.cell):
        return Type.LINEAR
    what = "a cell" if checker.is_cell(e.cell) else "not one corner"
    checker.error(f"degree({e.name.id}, ...) counts the slants touching a corner of the lattice (a 'for each "
                  f"corner' variable, a tile on corners, v in corners(p), or v + d); this is {what}",
                  getattr(e.cell, "span", None) or e.span)
    return None


# the compiler's reading -------------------------------------------------------------
_TOUCHING = ((-1, -1, "\\"), (-1, 0, "/"), (0, -1, "/"), (0, 0, "\\"))
"""The cells around corner ``(r, c)`` as offsets from it, and the slant of each that touches it: the
cell up-left has v as its bottom-right corner, and so on."""


def degree_terms(compiler, e, scale: int, coef: dict[int, int]) -> int:
    """Add ``scale * degree(slant, v)`` to ``coef`` (the literals of the touching values); return its
    constant part."""
    v = compiler.corner_of(e.cell)
    if v is None:
        return 0
    per_cell = compiler.enum_lits[e.name.id]
    rows, cols = compiler.grid.rows, compiler.grid.cols
    constant = 0
    for dr, dc, value in _TOUCHING:
        r, c = v[0] + dr, v[1] + dc
        if 0 <= r < rows and 0 <= c < cols:
            lits = per_cell[r * cols + c] or {}
            constant += add_literal(lits.get(value, False), scale, coef)
    return constant


# the verifier's reading -------------------------------------------------------------
def ends(value, r: int, c: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The two corners the value ``value`` in cell ``(r, c)`` joins, or None when it is no slant."""
    if value == "/":
        return (r, c + 1), (r + 1, c)
    if value == "\\":
        return (r, c), (r + 1, c + 1)
    return None


def degree(interpreter, e) -> int:
    """``degree(slant, v)`` on the interpreter's answer: the cells around v whose slant has v as an end."""
    v = interpreter.corner(e.cell)
    if v is None:
        return 0
    rows, cols = interpreter.grid.rows, interpreter.grid.cols
    values = interpreter.enums[e.name.id]
    around = [(r, c) for r in (v[0] - 1, v[0]) for c in (v[1] - 1, v[1]) if 0 <= r < rows and 0 <= c < cols]
    return sum(1 for r, c in around if v in (ends(values.get(r * cols + c), r, c) or ()))
