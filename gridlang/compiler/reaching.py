"""Every cell of a set reaching a fixed set through it: one connectivity node, not a component per cell.

Part of the compiler: :func:`reach_rule` is offered each ``for each``
statement before its bindings are lowered one by one.

The rule

    ``require for each p in X: S[p] implies count(T and component of p in S) > 0``

(T a fixed cell set, S a cell set; Cave's "every shaded cell is joined to
the edge of the grid through shaded cells", T the border) says that every
S-cell of X is joined to some cell of T through S. Lowered binding by
binding it is a component of p in S for every cell p of X, each over the
whole grid: quadratic in the cells (Cave's 25x25, 4.3 CPU s of building).

When every cell S may hold is in X or in T, the rule says the same as one
:class:`~gridlang.ir.model.GraphConnected` node over the cells with one
vertex more, the *outside*: its vertices the cells S may hold (active when
they are in S) and the outside (always active, the root), its edges the
grid edges between them and an edge from the outside to each cell of T,
each chosen when both its ends are active (the and of two cells' literals).
Every active vertex reached from the root is exactly every S-cell joined to
T through S (an S-cell of T reaches T at once, so the cells outside X ask
nothing more). Size: one vertex per cell and one more, one edge per grid
edge and per cell of T, and a variable (the and) per grid edge between two
cells S may hold. Each backend lowers the node as it
lowers any rooted connectivity on a graph (lazy cuts, or reachability on
clingo).

Not in a tagged compile (:func:`gridlang.compiler.compile_tagged`, for the
explanations and hints), whose rule instances are one per binding.
"""

from __future__ import annotations

from gridlang.compiler.diagnostics import names_in
from gridlang.ir.model import GraphConnected
from gridlang.language import ast

OUTSIDE = 0
"""The vertex of the outside; cell ``c`` is vertex ``c + 1``."""


def reach_rule(compiler, st: ast.ForEach) -> bool:
    """State ``st`` as one :class:`~gridlang.ir.model.GraphConnected` node when it is the rule above
    and every cell S may hold is in X or T; False (nothing stated) otherwise."""
    found = _form(st)
    if found is None:
        return False
    within, fixed = found
    if st.var.id in names_in(fixed):
        return False  # T changes with p
    target = compiler.members(fixed)
    if any(v is not True for v in target.values()):
        return False  # T depends on the decisions
    bound = {
        value for kind, value in compiler.bindings(st.var, st.domain) if kind == "cell"
    }
    cells = {c: lit for c, lit in compiler.members(within).items() if lit is not False}
    if any(c not in bound and c not in target for c in cells):
        return False
    true = compiler.lit(True)
    members = ((OUTSIDE, true),) + tuple(
        (c + 1, compiler.lit(cells[c])) for c in sorted(cells)
    )
    # An edge counts when both its ends are active, and the cut loop reads an edge's literal as
    # that: the outside's edge to a cell of T is the cell's literal, a grid edge the and of two.
    edges = [
        (OUTSIDE, c + 1, compiler.lit(cells[c])) for c in sorted(cells) if c in target
    ]
    for u in sorted(cells):
        edges += [
            (
                u + 1,
                w + 1,
                compiler.lit(compiler.combine(True, [cells[u], cells[w]], None)),
            )
            for w in compiler.grid.neighbours[u]
            if w > u and w in cells
        ]
    name = within.id if isinstance(within, ast.Name) else "reach"
    span = compiler.current.span if compiler.current is not None else st.span
    compiler.constraints.append(
        GraphConnected(members, tuple(edges), (OUTSIDE,), False, name, span)
    )
    return True


def reaches(rule) -> bool:
    """Whether a rule statement has the form :func:`reach_rule` may state as one node (``for each p
    in X: S[p] implies count(T and component of p in S) > 0``); whether it does also depends on the
    map (T fixed, every cell S may hold in X or T). A tagged compile lowers it binding by binding."""
    return isinstance(rule, ast.ForEach) and _form(rule) is not None


def _form(st: ast.ForEach):
    """``(S, T)`` of ``for each p in X: S[p] implies count(T and component of p in S) > 0`` (or
    ``>= 1``, the component first or second), else None."""
    var = st.var.id
    body = st.body.formula if isinstance(st.body, ast.Holds) else st.body
    if not (
        isinstance(body, ast.Implies)
        and isinstance(body.left, ast.At)
        and _is(body.left.cell, var)
    ):
        return None
    within = body.left.name
    f = body.right
    if not (
        isinstance(f, ast.Compare)
        and isinstance(f.left, ast.Count)
        and isinstance(f.right, ast.IntLit)
    ):
        return None
    if (f.op, f.right.value) not in ((">", 0), (">=", 1)):
        return None
    operand = f.left.operand
    if not (isinstance(operand, ast.And) and len(operand.operands) == 2):
        return None
    for component, fixed in (operand.operands, operand.operands[::-1]):
        if (
            isinstance(component, ast.Component)
            and _is(component.cell, var)
            and isinstance(component.within, ast.Name)
            and component.within.id == within.id
        ):
            return within, fixed
    return None


def _is(e, var: str) -> bool:
    return isinstance(e, ast.Name) and e.id == var
