"""The checker's types of blocks of equal values and of runs around a cell.

``D = D[p]`` is a cell set that depends on decisions (``CELLS``): D is a
decision on cells, Boolean or enumerated, and p one cell. ``runs of S
around c`` has no type of its own: it stands only on one side of ``==``,
the other side a clue list known from the map (``values(c)``, or one
number), and the comparison is a condition (``BOOL``). Each function is
given the checker (:mod:`gridlang.language.checker`) and reports through
its ``error(message, span)``.
"""

from __future__ import annotations

from gridlang.constructs.blocks.nodes import Runs, SameValue
from gridlang.language import ast
from gridlang.language.checker.symbols import Type


def same_value_type(checker, e: SameValue) -> Type | None:
    """``CELLS`` for ``D = D[p]``, or None after reporting p that is not a cell, or D that is not a
    decision on cells."""
    ok = checker.cell(e.cell, f"{e.decision.id}[...]")
    decision = checker.sym.decisions.get(e.decision.id)
    if decision is None:
        kind = checker.sym.kind_of(e.decision.id) or checker.env.get(e.decision.id)
        checker.error(f"'{e.decision.id} = {e.decision.id}[p]' needs a decision on cells; {e.decision.id!r} is "
                      f"{'a ' + kind if kind else 'not declared'}{'' if kind else checker.suggest(e.decision.id)}",
                      e.decision.span)
        return None
    if decision.lattice is not None:
        checker.error(checker.on_edges(decision), e.decision.span)
        return None
    return Type.CELLS if ok else None


def runs_alone(checker, e: Runs) -> None:
    """None, after reporting ``runs of S around c`` met outside a comparison with a clue list."""
    checker.error("'runs of S around c' is compared with a clue list: runs of S around c == values(c) "
                  "(or == N, for a clue of one number)", e.span)
    return None


def runs_compare_type(checker, e: ast.Compare, runs: Runs, other) -> Type | None:
    """``BOOL`` for ``runs of S around c == L``, or None after reporting an error: c not a cell, S not a
    cell set, an operator other than ``==``, or L not a number or a clue list known from the map."""
    ok = checker.cell(runs.cell, "'runs of S around c'")
    t = checker.type_of(runs.within)
    if t is not None and not t.is_cells:
        checker.error(f"'runs of S around c' takes a cell set S; this is {t.value}", _span(runs.within))
        ok = False
    if isinstance(other, Runs):
        checker.error("'runs of S around c' is compared with a clue list, not with other runs", other.span)
        return None
    if e.op != "==":
        checker.error(f"'runs of S around c' is compared with '==' only (the lengths equal the clue's as a "
                      f"multiset), not '{e.op}'; 'not (... == ...)' says they differ", e.span)
        ok = False
    t = checker.type_of(other)
    if t is not None and t not in (Type.INT, Type.LIST):
        checker.error(f"'runs of S around c' is compared with a clue list known from the map, values(c), or one "
                      f"number; this is {t.value}", _span(other))
        return None
    return Type.BOOL if ok and t is not None else None


def _span(e):
    return getattr(e, "span", None)
