"""The backend contract's preparation step and the shared IR -> IR passes.

A node kind no backend lowers and no pass removes is refused by name on
every backend; the passes are pure and keep exactly the answers of the
nodes they replace, counted by brute force on tiny grids.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import pytest
from tiny import cell_model, connected_subsets, grid_of

from gridlang.core.errors import BackendError, Span
from gridlang.ir.backend import SolveOptions, get_backend
from gridlang.ir.model import Clause, Cmp, Connected, EqualBlocks, GraphConnected, Linear, Model, Table
from gridlang.ir.transforms import decompose, decompose_connected_tree, linear_to_clauses


@dataclass(frozen=True, slots=True)
class Knot:
    """A made-up IR node that no backend lowers and no pass removes."""

    lits: tuple[int, ...]
    span: Span | None = field(default=None, compare=False)


def knotted_model() -> Model:
    return cell_model(grid_of(2, 2), [Clause((1,)), Knot((1, 2), Span("knots.grid", 7, 3))])


def test_every_backend_refuses_an_unknown_node_by_name(backend):
    engine = get_backend(backend)
    words = f"backend '{backend}' cannot lower Knot (from knots.grid:7) and no decomposition applies"
    with pytest.raises(BackendError) as e:
        engine.solve(knotted_model(), SolveOptions())
    assert e.value.message == words
    with pytest.raises(BackendError) as e:
        engine.prepare(knotted_model())
    assert e.value.message == words


def test_every_backend_refuses_an_unknown_node_in_files(backend, tmp_path):
    engine = get_backend(backend)
    if not engine.formats:  # auto: the file format picks the backend that writes it
        with pytest.raises(BackendError, match="backend 'auto' writes no files"):
            engine.write(knotted_model(), str(tmp_path / "m.lp"), "lp", SolveOptions())
        return
    fmt = engine.formats[0]
    with pytest.raises(BackendError, match=f"backend '{backend}' cannot lower Knot .from knots.grid:7."):
        engine.write(knotted_model(), str(tmp_path / f"m.{fmt}"), fmt, SolveOptions())


def test_every_backend_declares_its_native_kinds(backend):
    engine = get_backend(backend)
    assert {Clause, GraphConnected} <= engine.native <= {Clause, Linear, Connected, GraphConnected, Table,
                                                         EqualBlocks}
    model = cell_model(grid_of(2, 2), [Clause((1,))])
    assert engine.prepare(model) is model  # nothing to decompose: the model itself


def projections(clauses, num_vars: int) -> set[tuple[bool, ...]]:
    """Assignments of variables ``1 .. num_vars`` that extend to a model of
    ``clauses``, enumerated with a SAT solver and a blocking clause each."""
    from pysat.solvers import Solver

    seen = set()
    with Solver(name="g3", bootstrap_with=[list(c) for c in clauses]) as s:
        while s.solve():
            m = s.get_model()
            values = tuple(v in m for v in range(1, num_vars + 1))
            seen.add(values)
            s.add_clause([-(i + 1) if v else i + 1 for i, v in enumerate(values)])
    return seen


@pytest.mark.parametrize("terms,op,rhs,enforce", [
    (((1, 1), (1, 2), (1, 3), (1, 4), (1, 5)), Cmp.LE, 2, ()),
    (((1, 1), (1, 2), (1, 3), (1, 4), (1, 5)), Cmp.GE, 2, ()),
    (((1, 1), (1, -2), (1, 3), (1, 4), (1, 5)), Cmp.EQ, 3, ()),
    (((2, 1), (3, 2), (-1, 3), (4, -4), (1, 5)), Cmp.LE, 4, ()),
    (((2, 1), (3, 2), (1, 3), (1, 4)), Cmp.GE, 4, (5,)),
    (((1, 1), (1, 2), (1, 3), (1, 4)), Cmp.EQ, 2, (-5,)),
])
def test_linear_to_clauses_keeps_exactly_the_rows_answers(terms, op, rhs, enforce):
    grid = grid_of(1, 5)
    row = Linear(terms, op, rhs, enforce, Span("rows.grid", 4, 1))
    model = cell_model(grid, [row])
    before = (model.variables, model.constraints)
    out = linear_to_clauses(model, "totalizer")
    assert (model.variables, model.constraints) == before  # pure
    assert all(isinstance(c, Clause) and c.span == row.span for c in out.constraints)
    assert out.variables[:5] == model.variables
    assert all(str(v).startswith("aux.card=L4.") for v in out.variables[5:])
    want = set()
    for values in itertools.product((False, True), repeat=5):
        on = all(values[abs(l) - 1] == (l > 0) for l in enforce)
        lhs = sum(c for c, l in terms if values[abs(l) - 1] == (l > 0))
        if not on or op.holds(lhs, rhs):
            want.add(values)
    assert projections([c.lits for c in out.constraints], 5) == want


@pytest.mark.parametrize("rows,cols,roots,size", [
    (2, 3, (), None),
    (2, 3, (0,), None),
    (2, 3, (0, 5), None),
    (3, 3, (), 4),
    (3, 3, (4,), 3),
])
def test_decompose_connected_tree_counts_connected_sets(rows, cols, roots, size):
    grid = grid_of(rows, cols)
    members = tuple((i, i + 1) for i in range(grid.size))
    node = Connected(members, roots, size, "pen", Span("pen.grid", 9, 1))
    cons = [node]
    if size is not None:
        cons.append(Linear(tuple((1, i + 1) for i in range(grid.size)), Cmp.EQ, size))
    model = cell_model(grid, cons)
    out = decompose_connected_tree(model)
    assert model.constraints == tuple(cons)  # pure
    assert not any(isinstance(c, Connected) for c in out.constraints)
    names = [str(v) for v in out.variables[grid.size:]]
    assert len(set(names)) == len(names) and all(n.startswith("tree.") for n in names)
    clausal = linear_to_clauses(out)
    found = projections([c.lits for c in clausal.constraints], grid.size)
    assert len(found) == connected_subsets(grid, roots, size)


def test_decompose_leaves_native_kinds_and_orders_passes():
    grid = grid_of(2, 2)
    members = tuple((i, i + 1) for i in range(4))
    model = cell_model(grid, [Connected(members, (0,), None, "r"), Linear(((1, 1), (1, 2)), Cmp.LE, 1)])
    assert decompose(model, {Clause, Linear, Connected}) is model
    only_tree = decompose(model, {Clause, Linear})
    assert {type(c) for c in only_tree.constraints} == {Clause, Linear}
    clausal = decompose(model, {Clause}, {"linear_to_clauses": {"encoding": "seqcounter"}})
    assert {type(c) for c in clausal.constraints} == {Clause}
