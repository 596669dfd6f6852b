"""Blocks of equal values and runs around a cell: ``D = D[p]`` and ``runs of S around c == L``.

``D = D[p]`` (:class:`~.nodes.SameValue`), with D a decision on cells (an
integer, an enumeration of names, or Boolean) and p one cell, is the cell
set of the cells where D is made and takes the value it takes at p (empty
when D is not made at p); ``component of p in (D = D[p])`` is then p's
*block*, the side-connected group of equal values that holds p
(Fillomino's regions). ``runs of S around c`` (:class:`~.nodes.Runs`) is
the multiset of the lengths of the runs of S-cells in the ring of eight
cells around c, compared with ``==`` to a clue list known from the map
(``values(c)``, or one number): a condition of its own (Tapa). The meaning
is stated in docs/language.md ("Blocks and runs").

What it costs: ``D = D[p]`` as a cell set, one literal per cell q (the
``or`` over D's values of ``D[q]=v and D[p]=v``, an auxiliary variable and
its Tseitin clauses where two literals meet). The rules ``count(component
of p in (D = D[p])) OP N``, unguarded, add no variable while compiling:
one :class:`~gridlang.ir.model.EqualBlocks` node per decision, a bound per
cell and value, each backend lowering it its own way (reachability, lazy
cuts or a flow); when every block is as large as its value, the values
above the largest number other rules compare the decision with are made
as one value (:mod:`.domains`: cells times that number, not cells times
cells); any other use of that component is an ordinary ``component
of``, one region per cell. ``runs of S around c == L`` adds no variable:
one :class:`~gridlang.ir.model.Table` of the ring's allowed rows (at most
2^8 judged while compiling), or its forbidding clauses under a guard, or
one literal for the ``or`` of the rows as a condition.

Its parts, one construct: the nodes (:mod:`.nodes`), the type checks
(:mod:`.check`), the lowering (:mod:`.lower`) and the evaluation on an
answer (:mod:`.evaluate`), which share nothing but the nodes; here, the
parse-tree builders and the hooks registered by node type
(:mod:`gridlang.language.constructs`).
"""

from __future__ import annotations

from gridlang.constructs.blocks import check, domains, evaluate, lower
from gridlang.constructs.blocks.nodes import RING, Runs, SameValue
from gridlang.core.errors import GridSyntaxError
from gridlang.language.constructs import Construct, register

__all__ = ["RING", "Runs", "SameValue", "SameValueConstruct", "RunsConstruct"]


def _same_value(transformer, meta, children: list) -> SameValue:
    """``D = D[p]``, handed over by the transformer's ``equals``: ``[D (a Name), D[p] (an At)]``.

    Raises:
        GridSyntaxError: the two names differ (``digit = other[p]``), at the second.
    """
    left, right = children
    if right.name.id != left.id:
        raise GridSyntaxError(f"'{left.id} = {right.name.id}[...]' compares two decisions; the cells where "
                              f"a decision takes its value at p are written {left.id} = {left.id}[p]",
                              right.name.span)
    return SameValue(left, right.cell, transformer.sp(meta))


def _runs(transformer, meta, children: list) -> Runs:
    """``runs of S around c``: the parse-tree rule ``runs``, ``[S, c]``."""
    within, cell = children
    return Runs(within, cell, transformer.sp(meta))


class SameValueConstruct(Construct):
    """The hooks of :class:`~.nodes.SameValue`, a cell set (see :mod:`gridlang.language.constructs`);
    its block's sizes (``count(component of p in (D = D[p])) OP N``) stated as
    :class:`~gridlang.ir.model.EqualBlocks`."""

    node = SameValue
    rules = {"same_value": _same_value}

    def type_of(self, checker, e: SameValue):
        return check.same_value_type(checker, e)

    def members(self, compiler, e: SameValue, within) -> dict:
        return lower.same_value_members(compiler, e, within)

    def lower_rule(self, compiler, f, guard: tuple[int, ...]) -> bool:
        return lower.block_rule(compiler, f, guard, compiler.collected.setdefault(self, lower.BlockBounds()))

    def open_domain(self, compiler, st, values: list) -> tuple[list, object] | None:
        opened = domains.open_domain(compiler, st, values)
        if opened is not None:
            compiler.collected.setdefault(self, lower.BlockBounds()).open[st.name] = opened[1]
        return opened

    def finish(self, compiler, collected: lower.BlockBounds) -> list:
        return lower.equal_blocks(compiler, collected)

    def cells(self, interpreter, e: SameValue) -> frozenset[int]:
        return evaluate.same_value_cells(interpreter, e)


class RunsConstruct(Construct):
    """The hooks of :class:`~.nodes.Runs`, only ever a side of ``==`` with a clue list (see
    :mod:`gridlang.language.constructs`)."""

    node = Runs
    rules = {"runs": _runs}
    compared = True

    def type_of(self, checker, e: Runs):
        return check.runs_alone(checker, e)

    def compare_type(self, checker, e, own: Runs, other):
        return check.runs_compare_type(checker, e, own, other)

    def compare_lit(self, compiler, e, own: Runs, other):
        return lower.runs_lit(compiler, own, other)

    def assert_compare(self, compiler, e, own: Runs, other, guard: tuple[int, ...]) -> None:
        lower.assert_runs(compiler, e, own, other, guard)

    def compare_violation(self, interpreter, e, own: Runs, other):
        return evaluate.runs_violation(interpreter, own, other)


register(SameValueConstruct())
register(RunsConstruct())
