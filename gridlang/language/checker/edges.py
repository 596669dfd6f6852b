"""Types of the expressions about decisions on edges and the corners of the lattice (a mixin of the checker).

``line[p, q]``, ``straight(line, p)``, ``turn(line, p)`` are conditions
(``bridge[p, q]`` is a number when ``bridge`` takes integers);
``degree(line, p)`` is a number; ``component of p along line`` is a cell
set that depends on decisions; ``line is a loop`` is a rule of its own.
Every one names a decision made ``on edges`` or ``on corner edges``.

The points they take are cells (``for each`` cell variables, ``p + d``)
on a decision between cells, and on a decision on corner edges corners
(``for each corner v``, ``v in corners(p)``, ``v + d``); ``degree`` on
corner edges also takes a cell (the four edges framing it). A corner where
a cell is wanted, or a cell where a corner is, is a located error.
"""

from __future__ import annotations

from gridlang.language import ast
from gridlang.language.checker.symbols import Type

EDGE_NODES = (ast.EdgeAt, ast.Degree, ast.Bend, ast.IsLoop, ast.ComponentAlong)
"""The AST nodes typed here."""


class EdgeTypes:
    """Typing of the edge constructs (mixed into the checker beside ``ExpressionTypes``)."""

    def edge_decision(self, name: ast.Name, what: str, corners: bool) -> ast.Decide | None:
        """The decision on edges ``name`` names (with ``corners``, one on corner edges too); None after an error."""
        decl = self.sym.decisions.get(name.id)
        if decl is not None and decl.lattice is not None:
            if decl.lattice == "corners" and not corners:
                self.error(f"{what} takes a decision on edges between cells; {name.id!r} is on corner edges",
                           name.span)
                return None
            return decl
        kind = self.env.get(name.id) or self.sym.kind_of(name.id)
        if decl is not None:
            kind = "decision on cells"
        self.error(f"{what} takes a decision made 'on edges'; {name.id!r} is "
                   f"{'a ' + kind if kind else 'not declared'}{'' if kind else self.suggest(name.id)}",
                   name.span)
        return None

    def names_edges(self, e: ast.Expr) -> bool:
        """Whether ``e`` is the name of a decision on edges (``line is connected``)."""
        decl = self.sym.decisions.get(e.id) if isinstance(e, ast.Name) and e.id not in self.env else None
        return decl is not None and decl.lattice is not None

    def on_edges(self, decl: ast.Decide) -> str:
        """The error for a decision on edges used as a decision on cells."""
        return (f"{decl.name!r} is a decision on edges: {decl.name}[p, q] is the edge between p and q, "
                f"degree({decl.name}, p) {'the sum of the values' if decl.is_enum else 'the chosen edges'} at p")

    def point(self, e: ast.Expr, what: str, decl: ast.Decide, cells: bool, corners: bool) -> bool:
        """Check that ``e`` is one point ``decl`` can be asked about: a cell (when ``cells``) or a
        corner of the lattice (when ``corners``); report it otherwise."""
        if self.is_cell(e):
            if cells:
                return True
            self.error(f"{what}: {decl.name!r} is on corner edges, so this takes a corner of the lattice (a "
                       f"'for each corner' variable, v in corners(p), or v + d); this is a cell", _span(e))
            return False
        if self.is_corner(e):
            if corners:
                return True
            where = ("is made on edges between cells" if decl.lattice == "edges" else "is on corner edges, "
                     "where this takes a cell (the four edges framing it)")
            self.error(f"{what} takes a cell; this is a corner of the lattice, and {decl.name!r} {where}", _span(e))
            return False
        t = self.type_of(e)
        if t is not None:
            want = " or ".join(w for w, ok in (("one cell (a 'for each' cell variable, or p + d)", cells),
                                               ("one corner (a 'for each corner' variable, or v + d)", corners))
                               if ok)
            self.error(f"{what} takes {want}; this is {t.value}", _span(e))
        return False

    def edge_type(self, e) -> Type | None:
        """The type of an edge construct, or None after reporting an error in it."""
        if isinstance(e, ast.IsLoop):
            if self.nested:
                self.error("'is a loop' is a rule of its own: it cannot stand inside not, and, or, implies or "
                           "an aggregate; state it on its own line", e.span)
                return None
            return Type.BOOL if self.edge_decision(e.name, "'is a loop'", True) else None
        if isinstance(e, ast.EdgeAt):
            what = f"{e.name.id}[p, q]"
            decl = self.edge_decision(e.name, what, True)
            if decl is None:
                return None
            between = decl.lattice == "edges"
            ok = self.point(e.a, what, decl, between, not between) & self.point(e.b, what, decl, between, not between)
            return (Type.LINEAR if decl.is_enum else Type.BOOL) if ok else None
        if isinstance(e, ast.Degree):
            decl = self.edge_decision(e.name, "degree(...)", True)
            if decl is None:
                return None
            return Type.LINEAR if self.point(e.cell, "degree(...)", decl, True, decl.lattice == "corners") else None
        if isinstance(e, ast.Bend):
            what = f"{e.kind}(...)"
            decl = self.edge_decision(e.name, what, True)
            if decl is None:
                return None
            between = decl.lattice == "edges"
            return Type.BOOL if self.point(e.cell, what, decl, between, not between) else None
        ok = self.edge_decision(e.name, "'component of p along'", False) is not None
        if self.is_corner(e.cell):
            self.error("'component of ... along' starts from a cell; this is a corner of the lattice",
                       _span(e.cell))
            return None
        if not self.is_cell(e.cell):
            t = self.type_of(e.cell)
            if t is not None and t is not Type.FIXED:
                self.error(f"'component of ... along' starts from a cell, or a cell set known from the map; this "
                           f"is {t.value}", getattr(e.cell, "span", None))
                return None
            ok &= t is not None
        return Type.CELLS if ok else None


def _span(e):
    return getattr(e, "span", None)
