"""Types of blocks of equal values and of runs around a cell (a mixin of the checker).

``D = D[p]`` is a cell set that depends on decisions (``CELLS``): D is a
decision on cells, Boolean or enumerated, and p one cell. ``runs of S
around c`` has no type of its own: it stands only on one side of ``==``,
the other side a clue list known from the map (``values(c)``, or one
number), and the comparison is a condition.
"""

from __future__ import annotations

from gridlang.language import ast
from gridlang.language.checker.symbols import Type

BLOCK_NODES = (ast.SameValue, ast.Runs)
"""The expression nodes typed here."""


def runs_side(e) -> tuple[ast.Runs, object] | None:
    """``(runs, other side)`` of a comparison with ``runs of S around c`` on one side, else None."""
    if not isinstance(e, ast.Compare):
        return None
    if isinstance(e.left, ast.Runs):
        return e.left, e.right
    if isinstance(e.right, ast.Runs):
        return e.right, e.left
    return None


class BlockTypes:
    """Typing of ``D = D[p]`` and of comparisons of ``runs of S around c`` (mixed into the checker)."""

    def block_type(self, e) -> Type | None:
        """The type of a node of :data:`BLOCK_NODES` met as an expression, or None after reporting it."""
        if isinstance(e, ast.Runs):
            self.error("'runs of S around c' is compared with a clue list: runs of S around c == values(c) "
                       "(or == N, for a clue of one number)", e.span)
            return None
        ok = self.cell(e.cell, f"{e.decision.id}[...]")
        decision = self.sym.decisions.get(e.decision.id)
        if decision is None:
            kind = self.sym.kind_of(e.decision.id) or self.env.get(e.decision.id)
            self.error(f"'{e.decision.id} = {e.decision.id}[p]' needs a decision on cells; {e.decision.id!r} is "
                       f"{'a ' + kind if kind else 'not declared'}{'' if kind else self.suggest(e.decision.id)}",
                       e.decision.span)
            return None
        if decision.lattice is not None:
            self.error(self.on_edges(decision), e.decision.span)
            return None
        return Type.CELLS if ok else None

    def runs_compare(self, e: ast.Compare) -> Type | None:
        """The type of ``runs of S around c == L``: a condition (BOOL), or None after reporting an error."""
        runs, other = runs_side(e)
        ok = self.cell(runs.cell, "'runs of S around c'")
        t = self.type_of(runs.within)
        if t is not None and not t.is_cells:
            self.error(f"'runs of S around c' takes a cell set S; this is {t.value}", _span(runs.within))
            ok = False
        if isinstance(other, ast.Runs):
            self.error("'runs of S around c' is compared with a clue list, not with other runs", other.span)
            return None
        if e.op != "==":
            self.error(f"'runs of S around c' is compared with '==' only (the lengths equal the clue's as a "
                       f"multiset), not '{e.op}'; 'not (... == ...)' says they differ", e.span)
            ok = False
        t = self.type_of(other)
        if t is not None and t not in (Type.INT, Type.LIST):
            self.error(f"'runs of S around c' is compared with a clue list known from the map, values(c), or one "
                       f"number; this is {t.value}", _span(other))
            return None
        return Type.BOOL if ok and t is not None else None


def _span(e):
    return getattr(e, "span", None)
