"""Decided directions: ``p + dir[p]``, a step by the direction an answer gives a cell, stated value by value.

Part of the compiler: functions handed the compiler (:class:`~gridlang.compiler.core._Compiler`), imported
when a spec has a decided direction (``_Compiler.decided_directions``), so that a spec without one
loads neither this module nor the checker's typing of constructs.

A decision on cells whose values include the directions ``up``, ``down``,
``left`` and ``right`` (``decide dir: {none, up, down, left, right} on
all``, pzprjs's spelling of them) is one-hot like every enumeration: a
literal ``x(p, v)`` per cell p and value v. Where a direction is expected
(``p + dir[p]``, ``p - dir[p]``, ``-dir[p]``, ``sight from p toward dir[p]
through S``, ``covers(tri, p, dir[p])``), ``dir[p]`` is the direction p's
value names, and no direction when the value is another (``none``), when p
is off the decision's cells or off the grid: ``p + dir[p]`` is then no
cell, as ``p + up`` is on the top row, so ``S[p + dir[p]]`` is false there.

Lowering. The cell ``p + dir[p]`` depends on the answer, and the compiler
names cells only while it compiles; so the smallest condition F that holds
``dir[p]`` where p is bound (a comparison, ``S[...]``, ``D[...] = V``, ``q =
p + dir[p]``, a construct's condition) is stated once per value, with
``dir[p]`` read as that value's direction (``F[d]``) or as none (``F[-]``):

* as a rule under a guard g: ``g and x(p, d) -> F[d]`` for each direction
  d, and ``g and x(p, none) -> F[-]`` (``x(p, none)`` the ``or`` of the
  values that are no direction), each stated as the compiler states F,
  the case's literal one more enforcement literal;
* as a literal: ``or over d of (x(p, d) and F[d])``, and ``x(p, none) and
  F[-]``, one Tseitin ``and`` per case.

``q = p + dir[p]`` is so the literal ``x(p, d)`` for the one d that steps
from p to q (false when q is not beside p): the cases whose F is constant
fold away. What it costs: up to five copies of F per instance, one per
value of ``dir[p]`` (fewer where a value cannot hold), and the copies'
literals; a step through two decided directions (``dir[p + dir[p]]``)
multiplies the cases. The verifier (:mod:`gridlang.interpreter`) reads the
answer's value at the cell and steps by it; it shares none of this.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from gridlang.compiler.diagnostics import names_in
from gridlang.compiler.tags import HIDDEN
from gridlang.core.errors import SemanticError
from gridlang.core.nodes import field_names, replace
from gridlang.ir.literals import CellValue
from gridlang.language import ast
from gridlang.language.equivalence import is_condition

DIRECTIONS = ("up", "down", "left", "right")
"""The values that are directions, in pzprjs's order (its 1 to 4)."""

_BY_STEP = {step: name for name, step in ast.Direction.STEPS.items()}
"""A direction's name by its step."""

_NUMBERING = itertools.count(1)


def split_rule(compiler, f: ast.Expr, guard: tuple[int, ...]) -> bool:
    """State the rule ``f`` under ``guard`` once per value of the first decided direction it holds
    (the module docstring), and say whether it held one (else the caller states it as it is)."""
    if not compiler.decided_directions or splits_inside(compiler, f, rule=True):
        return False
    found = decided_step(compiler, f)
    if found is None:
        return False
    g, hidden, at = found
    for case in direction_cases(compiler, hidden, at):
        if case is True:
            compiler.assert_formula(g, guard)
        elif case is not False:
            compiler.assert_formula(g, guard if case in guard else guard + (case,))
    return True


def split_lit(compiler, f: ast.Expr) -> CellValue | None:
    """One literal equal to the condition ``f`` through the values of the first decided direction it
    holds (the module docstring); None when it holds none (the caller lowers it as it is)."""
    if not compiler.decided_directions:
        return None
    if isinstance(f, ast.AtIs) and isinstance(f.value, ast.DirectionOf):
        return direction_is(compiler, f)
    if splits_inside(compiler, f):
        return None
    found = decided_step(compiler, f)
    if found is None:
        return None
    g, hidden, at = found
    parts = [
        compiler.combine(True, [case, compiler.lit_of(g)], None)
        for case in direction_cases(compiler, hidden, at)
        if case is not False
    ]
    return compiler.combine(False, parts, None)


def splits_inside(compiler, f: ast.Expr, rule: bool = False) -> bool:
    """Whether ``f``'s parts are split one by one rather than ``f`` whole: ``f`` is the equivalence of
    two conditions, or ``not``, ``and``, ``or``, ``implies`` inside another condition (``rule`` false),
    or as a rule holding more than one decided direction, whose cases would multiply. So
    ``line[p, q] == (q = p + dir[p] or p = q + dir[q])`` is two clauses over two literals, not a copy
    per pair of values, while the rule ``tip(p) implies shaft[p - dir[p]]`` takes each value's
    literal as one more enforcement literal, with no Tseitin variable."""
    if (
        isinstance(f, ast.Compare)
        and f.op == "=="
        and is_condition(f.left, compiler.sym)
    ):
        return True
    if not isinstance(f, (ast.Not, ast.And, ast.Or, ast.Implies)):
        return False
    if not rule:
        return True
    found = compiler.__dict__.setdefault("_step_counts", {})
    entry = found.get(id(f))
    if entry is None or entry[0] is not f:
        steps = _steps(f, compiler.decided_directions, frozenset(), False)
        entry = found[id(f)] = (f, len(set(steps)) > 1)
    return entry[1]


def direction_is(compiler, f: ast.AtIs) -> CellValue:
    """``dir[p] = direction(c)``: the literal of p's value that is the direction of c's arrow (false
    off the grid, or where p may not take that value)."""
    p = compiler.cell_of(f.cell)
    step = compiler.step_of(f.value)
    lits = compiler.enum_lits[f.name.id][p] if p is not None else None
    if not lits or step is None:
        return False
    return lits.get(_BY_STEP[step], False)


def direction_cases(compiler, hidden: str, at: ast.At) -> Iterator[CellValue]:
    """The literal of each value ``dir[p]`` can take (``at``), with the hidden name bound to its
    direction (or to none) while the caller states its case; the binding is undone after the last."""
    p = compiler.cell_of(at.cell)
    lits = compiler.enum_lits[at.name.id][p] if p is not None else None
    saved = compiler.bound.get(hidden)
    try:
        if not lits:  # no value here: no direction
            compiler.bound[hidden] = ("direction", (f"{at.name.id}[...] none", None))
            yield True
            return
        for d in DIRECTIONS:
            if d in lits:
                compiler.bound[hidden] = ("direction", (d, ast.Direction.STEPS[d]))
                yield lits[d]
        others = [lit for v, lit in lits.items() if v not in DIRECTIONS]
        if others:
            compiler.bound[hidden] = ("direction", (f"{at.name.id}[...] none", None))
            yield others[0] if len(others) == 1 else compiler.combine(False, others, p)
    finally:
        if saved is None:
            compiler.bound.pop(hidden, None)
        else:
            compiler.bound[hidden] = saved


def decided_step(compiler, f: ast.Expr) -> tuple[ast.Expr, str, ast.At] | None:
    """``(f with the decided direction read through a hidden name, that name, the decided
    direction)`` for the first decided direction of ``f`` whose cell is bound where f stands (not
    by an aggregate inside f, and holding no other decided direction); None when f has none.
    Found once per node (kept with it, so that its ``id`` stays its own)."""
    found = compiler.__dict__.setdefault("_decided_steps", {})
    entry = found.get(id(f))
    if entry is None or entry[0] is not f:
        at = _first(f, compiler.decided_directions, frozenset(), False)
        result = None
        if at is not None:
            text = at.cell.id if isinstance(at.cell, ast.Name) else "..."
            hidden = f"{at.name.id}[{text}]{HIDDEN}{next(_NUMBERING)}"
            result = (_rewrite(f, at, ast.Name(hidden, at.span)), hidden, at)
        entry = found[id(f)] = (f, result)
    return entry[1]


def unsplit_step(compiler, e: ast.At) -> SemanticError:
    """The error for a decided direction met where no condition holds it whole."""
    name = e.name.id
    return SemanticError(
        f"{name}[...] is a direction the answer decides: a step by it is stated once per value for the "
        f"condition around it, and here no condition holds it whole (it stands in a 'for each' domain, a "
        f"number such as sum(...) over cells, or 'A in B' stated for a whole set); put it inside a "
        f"condition at one cell: S[p + {name}[p]], (p + {name}[p]) in S under 'implies', "
        f"count(S[q + {name}[q]] for q in T)",
        e.span,
        source=compiler.spec.source,
    )


def _is_direction_field(node, name: str) -> bool:
    """Whether the field ``name`` of ``node`` stands where a direction does."""
    return (
        isinstance(node, ast.Add)
        and name == "right"
        or isinstance(node, ast.Neg)
        and name == "operand"
        or isinstance(node, ast.Sight)
        and name == "toward"
        or name == "direction"
    )


def _first(
    x, names: frozenset[str], shadow: frozenset[str], where: bool
) -> ast.At | None:
    """The first decided direction in ``x`` that can be read where ``x`` stands (see
    :func:`decided_step`); ``where``: x stands where a direction does."""
    return next(iter(_steps(x, names, shadow, where)), None)


def _steps(
    x, names: frozenset[str], shadow: frozenset[str], where: bool
) -> list[ast.At]:
    """Every decided direction in ``x`` that can be read where ``x`` stands, in order (see :func:`_first`)."""
    if isinstance(x, tuple):
        return [at for y in x for at in _steps(y, names, shadow, False)]
    fields = field_names(x)
    if not fields or isinstance(x, (ast.Name, ast.IntLit)):
        return []
    if where and isinstance(x, ast.At) and x.name.id in names:
        inner = _steps(x.cell, names, shadow, False)
        if inner:
            return inner
        return [] if shadow and shadow & set(names_in(x.cell)) else [x]
    if isinstance(x, ast.Aggregate):
        return _steps(x.domain, names, shadow, False) + _steps(
            x.body, names, shadow | {x.var.id}, False
        )
    if isinstance(x, (ast.ForEach, ast.ForPairs)):
        return []
    return [
        at
        for name in fields
        if name != "span"
        for at in _steps(getattr(x, name), names, shadow, _is_direction_field(x, name))
    ]


def _rewrite(x, at: ast.At, hidden: ast.Name):
    """``x`` with every ``at`` that stands where a direction does made ``hidden``."""
    if isinstance(x, tuple):
        out = tuple(_rewrite(y, at, hidden) for y in x)
        return x if all(a is b for a, b in zip(out, x)) else out
    fields = field_names(x)
    if not fields or isinstance(x, (ast.Name, ast.IntLit, ast.ForEach, ast.ForPairs)):
        return x
    changes = {}
    for name in fields:
        if name == "span":
            continue
        child = getattr(x, name)
        if _is_direction_field(x, name) and child == at:
            changes[name] = hidden
            continue
        new = _rewrite(child, at, hidden)
        if new is not child:
            changes[name] = new
    return replace(x, **changes) if changes else x
