"""A decision's largest values as one, when its blocks are as large as their value.

A decision D on cells with integer values, whose blocks must have as many
cells as their value (Fillomino's rule, unguarded, at every cell D is made
on)::

    require for each cell p: count(component of p in (D = D[p])) == D[p]

and which every other rule reads only by comparing ``D[x]`` with a number
known before solving (``D[g] == value(g)``, ``D[p] <= 3``, ``D[p] = 3``), is made with
the values up to K, the largest such number, and one value m = K + 1
standing for every value from m up (the *open value*,
:attr:`gridlang.ir.model.Decision.open_value`). The block rule bounds a
block of the open value from below only (:class:`~.lower.BlockBounds`,
``(p, m, m, None)``): at least m cells. An answer is read back with each
block of the open value given its own size (:func:`gridlang.ir.solution.decode`).

Why it is exact. An answer of the spec maps to one of the model by writing
m for every value above K: blocks of values up to K are unchanged, the
cells above K form groups of at least m cells each (each a union of
blocks of m cells or more), and no other rule tells values from m up apart.
Back, a group of open cells is one block of its own size, at least m and
no more than the cells D is made on, which the domain must reach (else
nothing is opened): an answer of the spec again. So the model has an
answer exactly when the spec has one, under any set of its rule instances
and any values up to K assumed or excluded: what ``gridlang hint``,
``--forced`` and ``--explain`` ask. What the model does not tell apart are
answers that differ only in how a group of open cells splits into blocks
of m cells or more, of different sizes where they touch, so a group of
at most 2m cells stands for one answer alone, and a larger one may stand
for several: the enumeration (``--unique``, ``--count``,
:func:`gridlang.solving.pipeline.more_answers`) writes out each split
:func:`gridlang.ir.solution.split_answers` finds as an answer of its own,
and is not called complete when a search ran out of steps; ``--forced``
does not call a cell held at m forced at one size unless the answer is
the only one (:mod:`gridlang.why.backbone`).

What it costs: cells times (K + 1) one-hot variables, where the domain
``1..(count(all))`` made cells times cells (a 50x64 map: 51,200 against
10,240,000); deciding is a walk over the spec and one evaluation of each
compared number per binding of its ``for each``.
"""

from __future__ import annotations

from gridlang.constructs.blocks.nodes import SameValue
from gridlang.core.errors import GridlangError
from gridlang.core.nodes import field_names
from gridlang.language import ast


def open_domain(compiler, st, values: list) -> tuple[list, int] | None:
    """The values to make of the decision ``st`` when its largest values may stand as one.

    Args:
        compiler: the compiler, before any rule is stated (its spec, map,
            grid and parameters are read; it states nothing).
        st: the ``decide`` statement.
        values: its domain, in order.

    Returns:
        ``(values kept, the open value m)``: the values up to K in the
        domain's order, then m; None when the spec is not of the form the module docstring states,
        the values above K are not every integer from m to the largest, the
        largest is below the number of cells D is made on, or nothing would
        be saved (one value above K at most).
    """
    if st.lattice is not None or st.name in compiler.sym.cell_decisions:
        return None
    if not values or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        return None
    name = st.name
    made = {i for i, v in enumerate(compiler.cells(st.on)) if v is not False}
    sized, compared = _uses(compiler, name)
    if sized is None or not made <= sized or compared is None:
        return None
    k = _largest(compiler, compared)
    if k is None:
        return None
    above = sorted(v for v in values if v > k)
    if (
        len(above) < 2
        or above != list(range(above[0], above[-1] + 1))
        or above[-1] < len(made)
    ):
        return None
    m = above[0]
    return [v for v in values if v <= k] + [m], m


def _uses(compiler, name: str) -> tuple[set[int] | None, list | None]:
    """Decision ``name``'s uses in the spec's statements: ``(the cells p of its block rules, the
    comparisons with numbers known before solving as (for-each statement or None, the number))``;
    None for the cells when no block rule ``== D[p]`` covers any, None for the comparisons when some
    other use reads D otherwise."""
    sized: set[int] | None = None
    compared: list = []
    ok = True
    for st in compiler.spec.statements:
        if isinstance(st, (ast.Decide, ast.Draw)):
            continue
        if _is_block_rule(st, name):
            cells = {
                value
                for kind, value in compiler.bindings(st.var, st.domain)
                if kind == "cell"
            }
            sized = cells if sized is None else sized | cells
            continue
        top = st if isinstance(st, ast.ForEach) else None
        ok = ok and _walk(compiler, st, name, top, compared)
    return sized, compared if ok else None


def _walk(compiler, x, name: str, top, compared: list) -> bool:
    """Whether every use of decision ``name`` in ``x`` is ``D[c] OP N`` (N mentioning no decision,
    region or let) or ``D[c] = K`` (K an integer), each N appended to ``compared`` with ``top``, the
    statement's ``for each``."""
    if isinstance(x, ast.Name):
        return x.id != name
    if isinstance(x, tuple):
        return all(_walk(compiler, y, name, top, compared) for y in x)
    if isinstance(x, ast.AtIs) and x.name.id == name:  # D[c] = 3, D[c] != 3
        if not isinstance(x.value, ast.IntLit) or not _walk(
            compiler, x.cell, name, top, compared
        ):
            return False
        compared.append((None, x.value))
        return True
    if isinstance(x, ast.Compare):
        for own, other in ((x.left, x.right), (x.right, x.left)):
            if isinstance(own, ast.At) and own.name.id == name:
                if not _walk(
                    compiler, own.cell, name, top, compared
                ) or _mentions_unknown(compiler, other):
                    return False
                compared.append((top, other))
                return True
    return all(
        _walk(compiler, getattr(x, f), name, top, compared)
        for f in field_names(x)
        if f != "span"
    )


def _mentions_unknown(compiler, e) -> bool:
    """Whether ``e`` mentions a decision, a region or a let: a number not known before solving."""
    sym = compiler.sym
    unknown = set(sym.decisions) | set(sym.regions) | set(sym.lets)

    def walk(x) -> bool:
        if isinstance(x, ast.Name):
            return x.id in unknown
        if isinstance(x, tuple):
            return any(walk(y) for y in x)
        return any(walk(getattr(x, f)) for f in field_names(x) if f != "span")

    return walk(e)


def _largest(compiler, compared: list) -> int | None:
    """The largest of the numbers ``compared`` (each under every binding of its ``for each``), 0 for
    none; None when one of them is not known before solving."""
    largest = 0
    for top, other in compared:
        try:
            if top is None or not _mentions(other, top.var.id):
                values = [compiler.constant(other)]
            else:
                values = []
                for kind, value in compiler.bindings(top.var, top.domain):
                    compiler.bind(top.var.id, kind, value)
                    try:
                        values.append(compiler.constant(other))
                    finally:
                        compiler.unbind(top.var.id)
        except (GridlangError, LookupError, TypeError, ValueError):
            return None
        if any(v is None for v in values):
            return None
        largest = max([largest, *values])
    return largest


def _mentions(e, var: str) -> bool:
    """Whether the AST node ``e`` mentions the name ``var``."""
    if isinstance(e, ast.Name):
        return e.id == var
    if isinstance(e, tuple):
        return any(_mentions(x, var) for x in e)
    return any(_mentions(getattr(e, f), var) for f in field_names(e) if f != "span")


def _is_block_rule(st, name: str) -> bool:
    """Whether ``st`` is ``require for each p in X: count(component of p in (D = D[p])) == D[p]``
    (either side first) on decision ``name``."""
    if not (
        isinstance(st, ast.ForEach)
        and isinstance(st.body, ast.Compare)
        and st.body.op == "=="
    ):
        return False
    var = st.var.id

    def is_var(e) -> bool:
        return isinstance(e, ast.Name) and e.id == var

    for side, other in ((st.body.left, st.body.right), (st.body.right, st.body.left)):
        if (
            isinstance(side, ast.Count)
            and isinstance(side.operand, ast.Component)
            and isinstance(side.operand.within, SameValue)
            and side.operand.within.decision.id == name
            and is_var(side.operand.cell)
            and is_var(side.operand.within.cell)
            and isinstance(other, ast.At)
            and other.name.id == name
            and is_var(other.cell)
        ):
            return True
    return False
