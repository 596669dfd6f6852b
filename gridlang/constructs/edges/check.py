"""The checker's types of the expressions about decisions on edges and the corners of the lattice.

``line[p, q]``, ``straight(line, p)``, ``turn(line, p)`` are conditions
(``bridge[p, q]`` is a number when ``bridge`` takes integers);
``degree(line, p)`` is a number; ``component of p along line`` is a cell
set that depends on decisions; ``line is a loop`` is a rule of its own;
``corners(p)`` is a set of corners. Every one but the last names a
decision made ``on edges`` or ``on corner edges``.

The points they take are cells (``for each`` cell variables, ``p + d``)
on a decision between cells, and on a decision on corner edges corners
(``for each corner v``, ``v in corners(p)``, ``v + d``); ``degree`` on
corner edges also takes a cell (the four edges framing it). A corner where
a cell is wanted, or a cell where a corner is, is a located error. Each
function is given the checker (:mod:`gridlang.language.checker`) and
reports through its ``error(message, span)``.
"""

from __future__ import annotations

from gridlang.constructs.edges.nodes import Bend, ComponentAlong, CornersOf, Degree, EdgeAt, IsLoop
from gridlang.language import ast
from gridlang.language.checker.symbols import Type


def edge_decision(checker, name: ast.Name, what: str, corners: bool) -> ast.Decide | None:
    """The decision on edges ``name`` names (with ``corners``, one on corner edges too); None after an error."""
    decl = checker.sym.decisions.get(name.id)
    if decl is not None and decl.lattice is not None:
        if decl.lattice == "corners" and not corners:
            checker.error(f"{what} takes a decision on edges between cells; {name.id!r} is on corner edges",
                          name.span)
            return None
        return decl
    kind = checker.env.get(name.id) or checker.sym.kind_of(name.id)
    if decl is not None:
        kind = "decision on cells"
    checker.error(f"{what} takes a decision made 'on edges'; {name.id!r} is "
                  f"{'a ' + kind if kind else 'not declared'}{'' if kind else checker.suggest(name.id)}",
                  name.span)
    return None


def point(checker, e: ast.Expr, what: str, decl: ast.Decide, cells: bool, corners: bool) -> bool:
    """Check that ``e`` is one point ``decl`` can be asked about: a cell (when ``cells``) or a
    corner of the lattice (when ``corners``); report it otherwise."""
    if checker.is_cell(e):
        if cells:
            return True
        checker.error(f"{what}: {decl.name!r} is on corner edges, so this takes a corner of the lattice (a "
                      f"'for each corner' variable, v in corners(p), or v + d); this is a cell", _span(e))
        return False
    if checker.is_corner(e):
        if corners:
            return True
        where = ("is made on edges between cells" if decl.lattice == "edges" else "is on corner edges, "
                 "where this takes a cell (the four edges framing it)")
        checker.error(f"{what} takes a cell; this is a corner of the lattice, and {decl.name!r} {where}", _span(e))
        return False
    t = checker.type_of(e)
    if t is not None:
        want = " or ".join(w for w, ok in (("one cell (a 'for each' cell variable, or p + d)", cells),
                                           ("one corner (a 'for each corner' variable, or v + d)", corners))
                           if ok)
        checker.error(f"{what} takes {want}; this is {t.value}", _span(e))
    return False


def loop_type(checker, e: IsLoop) -> Type | None:
    """``BOOL`` for ``line is a loop`` stated as a rule of its own, or None after an error."""
    if checker.nested:
        checker.error("'is a loop' is a rule of its own: it cannot stand inside not, and, or, implies or "
                      "an aggregate; state it on its own line", e.span)
        return None
    return Type.BOOL if edge_decision(checker, e.name, "'is a loop'", True) else None


def edge_type(checker, e: EdgeAt) -> Type | None:
    """``line[p, q]``: ``BOOL`` (``LINEAR`` for an integer decision), or None after an error."""
    what = f"{e.name.id}[p, q]"
    decl = edge_decision(checker, e.name, what, True)
    if decl is None:
        return None
    between = decl.lattice == "edges"
    ok = point(checker, e.a, what, decl, between, not between) & point(checker, e.b, what, decl, between,
                                                                       not between)
    return (Type.LINEAR if decl.is_enum else Type.BOOL) if ok else None


def degree_type(checker, e: Degree) -> Type | None:
    """``degree(line, p)``: ``LINEAR``, or None after an error."""
    decl = edge_decision(checker, e.name, "degree(...)", True)
    if decl is None:
        return None
    return Type.LINEAR if point(checker, e.cell, "degree(...)", decl, True, decl.lattice == "corners") else None


def bend_type(checker, e: Bend) -> Type | None:
    """``straight(line, p)``, ``turn(line, p)``: ``BOOL``, or None after an error."""
    what = f"{e.kind}(...)"
    decl = edge_decision(checker, e.name, what, True)
    if decl is None:
        return None
    between = decl.lattice == "edges"
    return Type.BOOL if point(checker, e.cell, what, decl, between, not between) else None


def along_type(checker, e: ComponentAlong) -> Type | None:
    """``component of p along line``: ``CELLS``, or None after an error."""
    ok = edge_decision(checker, e.name, "'component of p along'", False) is not None
    if checker.is_corner(e.cell):
        checker.error("'component of ... along' starts from a cell; this is a corner of the lattice",
                      _span(e.cell))
        return None
    if not checker.is_cell(e.cell):
        t = checker.type_of(e.cell)
        if t is not None and t is not Type.FIXED:
            checker.error(f"'component of ... along' starts from a cell, or a cell set known from the map; this "
                          f"is {t.value}", getattr(e.cell, "span", None))
            return None
        ok &= t is not None
    return Type.CELLS if ok else None


def corners_type(checker, e: CornersOf) -> Type | None:
    """``corners(p)``, ``corners(b)``: ``CORNERS``, or None after reporting p that is not one cell or one
    border."""
    if checker.is_border(e.cell):
        return Type.CORNERS
    return Type.CORNERS if checker.cell(e.cell, "corners(...)") else None


def _span(e):
    return getattr(e, "span", None)
