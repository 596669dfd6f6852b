"""The checker's types of point symmetry: both forms are rules of their own.

``S is symmetric about x`` takes a cell set and one point (a cell, a
border bound by ``for each b in T``, a corner); ``wall divides S into
regions symmetric about T, ...`` a Boolean decision on edges between
cells, a fixed cell set and tiles (on cells, borders or corners). Anything
else is a located error, reported through the checker's ``error(message,
span)`` (:mod:`gridlang.language.checker`).
"""

from __future__ import annotations

from gridlang.constructs.symmetry.nodes import Divides, Symmetric
from gridlang.language import ast
from gridlang.language.checker.symbols import Type

POINT_TILES = ("tile", "border tile", "corner tile")
"""The kinds of name whose places are points: tiles in cells, on borders, on corners."""


def _where(e):
    return getattr(e, "span", None)


def _own_line(checker, e, words: str) -> bool:
    """Report ``e`` standing inside a condition; True when it stands as a rule."""
    if checker.nested:
        checker.error(f"'{words}' is a rule of its own: it cannot stand inside not, and, or, implies or an "
                      f"aggregate; state it on its own line", e.span)
        return False
    return True


def symmetric_type(checker, e: Symmetric) -> Type | None:
    """``BOOL`` for ``S is symmetric about x`` stated as a rule, or None after an error."""
    if not _own_line(checker, e, "is symmetric about"):
        return None
    ok = True
    if not (checker.is_cell(e.point) or checker.is_corner(e.point) or checker.is_border(e.point)):
        t = checker.type_of(e.point)
        what = t.value if t is not None else "not a point"
        checker.error(f"'is symmetric about' takes a point: one cell (a 'for each' cell variable, p + d), one "
                      f"border (for each b in a tile on borders) or one corner (for each corner v, a tile on "
                      f"corners, v + d); this is {what}", _where(e.point) or e.span)
        ok = False
    t = checker.type_of(e.region)
    if t is not None and not t.is_cells:
        checker.error(f"'is symmetric about' applies to a set of cells; this is {t.value}", _where(e.region) or e.span)
        ok = False
    return Type.BOOL if ok and t is not None else None


def divides_type(checker, e: Divides) -> Type | None:
    """``BOOL`` for ``wall divides S into regions symmetric about T, ...``, or None after an error."""
    if not _own_line(checker, e, "divides ... into regions"):
        return None
    ok = True
    decl = checker.sym.decisions.get(e.wall.id) if isinstance(e.wall, ast.Name) else None
    if decl is None or decl.lattice != "edges" or decl.domain != "bool":
        what = ("a decision on corner edges" if decl is not None and decl.lattice == "corners" else
                "a decision with values" if decl is not None and decl.lattice == "edges" else
                "a decision on cells" if decl is not None else
                f"a {checker.sym.kind_of(e.wall.id)}" if isinstance(e.wall, ast.Name) and checker.sym.kind_of(e.wall.id)
                else "not a decision")
        checker.error(f"'divides ... into regions' takes a Boolean decision on edges between cells (decide wall: "
                      f"bool on edges), the borders drawn; this is {what}", _where(e.wall) or e.span)
        ok = False
    t = checker.type_of(e.cells)
    if t is not None and t is not Type.FIXED:
        checker.error(f"'divides ... into regions' cuts a fixed cell set (tiles, tags, all); this is {t.value}",
                      _where(e.cells) or e.span)
        ok = False
    for p in e.points:
        kind = checker.sym.kind_of(p.id)
        if kind not in POINT_TILES:
            checker.error(f"'symmetric about' names the tiles that hold the regions' points, in cells, on borders "
                          f"or on corners; {p.id!r} is {'a ' + kind if kind else 'not declared'}"
                          f"{'' if kind else checker.suggest(p.id)}", p.span)
            ok = False
    return Type.BOOL if ok and t is not None else None
