"""Types of the expressions about decisions on edges (a mixin of the checker).

``line[p, q]``, ``straight(line, p)``, ``turn(line, p)`` are conditions;
``degree(line, p)`` is a number; ``component of p along line`` is a cell
set that depends on decisions; ``line is a loop`` is a rule of its own.
Every one names a Boolean decision made ``on edges`` (``degree`` and
``is a loop`` also one ``on corner edges``) and takes cells as ``for
each`` cell variables or ``p + d``.
"""

from __future__ import annotations

from .. import ast
from .symbols import Type

EDGE_NODES = (ast.EdgeAt, ast.Degree, ast.Bend, ast.IsLoop, ast.ComponentAlong)
"""The AST nodes typed here."""


class EdgeTypes:
    """Typing of the edge constructs (mixed into the checker beside ``ExpressionTypes``)."""

    def edge_decision(self, name: ast.Name, what: str, corners: bool) -> bool:
        """Check that ``name`` is a Boolean decision on edges (or, with ``corners``, on corner edges too)."""
        decl = self.sym.decisions.get(name.id)
        if decl is not None and decl.lattice is not None and not decl.is_enum:
            if decl.lattice == "corners" and not corners:
                self.error(f"{what} takes a decision on edges between cells; {name.id!r} is on corner edges",
                           name.span)
                return False
            return True
        kind = self.env.get(name.id) or self.sym.kind_of(name.id)
        if decl is not None:
            kind = "decision on cells" if decl.lattice is None else "enumerated decision"
        self.error(f"{what} takes a Boolean decision made 'on edges'; {name.id!r} is "
                   f"{'a ' + kind if kind else 'not declared'}{'' if kind else self._suggest(name.id)}",
                   name.span)
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
            ok = self.edge_decision(e.name, f"{e.name.id}[p, q]", False)
            ok &= self.cell(e.a, f"{e.name.id}[p, q]") & self.cell(e.b, f"{e.name.id}[p, q]")
            return Type.BOOL if ok else None
        if isinstance(e, ast.Degree):
            ok = self.edge_decision(e.name, "degree(...)", True) & self.cell(e.cell, "degree(...)")
            return Type.LINEAR if ok else None
        if isinstance(e, ast.Bend):
            ok = self.edge_decision(e.name, f"{e.kind}(...)", False) & self.cell(e.cell, f"{e.kind}(...)")
            return Type.BOOL if ok else None
        ok = self.edge_decision(e.name, "'component of p along'", False)
        if not self.is_cell(e.cell):
            t = self.type_of(e.cell)
            if t is not None and t is not Type.FIXED:
                self.error(f"'component of ... along' starts from a cell, or a cell set known from the map; this "
                           f"is {t.value}", getattr(e.cell, "span", None))
                return None
            ok &= t is not None
        return Type.CELLS if ok else None
