"""Acyclicity: ``line has no cycle``, and ``p is on a cycle of slant``.

``NAME has no cycle`` (a rule of its own) says that the graph of a
decision has no cycle, that it is a forest: for a decision on edges (``on
edges``, ``on corner edges``) the graph of its chosen edges (an edge of an
integer decision is chosen when its value is not 0), for a Boolean
decision on cells the graph of its true cells and their side neighbours
among them, for a decision on cells whose values are slants (:mod:`gridlang.constructs.slants`) the
graph on the corners of the cells whose edges are the slants (Gokigen's
"no loop", pzprjs's ``checkSlashLoop``). ``p is on a cycle of slant`` (a
condition) says that the slant in cell p lies on a cycle of that graph, so
that its ends are joined by the other slants (Wagiri's ring, pzprjs's
``isloop`` of a cell); it is false on a cell without a slant. The meaning
is stated in docs/language.md ("Acyclicity"); the lowering, through the
faces of the plane (planar duality), and its size in :mod:`.lower`.

Its parts, one construct: the nodes (:mod:`.nodes`), the type checks
(:mod:`.check`), the lowering (:mod:`.lower`) and the evaluation on an
answer (:mod:`.evaluate`, a union-find on the graph itself), which share
nothing but the nodes; here, the parse-tree builders and the hooks
registered by node type (:mod:`gridlang.language.constructs`).
"""

from __future__ import annotations

from gridlang.constructs.cycles import check, evaluate, lower
from gridlang.constructs.cycles.nodes import NoCycle, OnCycle
from gridlang.core.errors import GridSyntaxError
from gridlang.language import ast
from gridlang.language.constructs import Construct, register

__all__ = ["NoCycle", "OnCycle"]


def _no_cycle(transformer, meta, c: list) -> NoCycle:
    """``NAME has no cycle``: the parse-tree rule ``no_cycle``, ``[NAME]``.

    Raises:
        GridSyntaxError: the left side is not a name.
    """
    if not isinstance(c[0], ast.Name):
        raise GridSyntaxError("'has no cycle' applies to a decision, by its name", transformer.sp(meta))
    return NoCycle(c[0], transformer.sp(meta))


def _on_cycle(transformer, meta, c: list) -> OnCycle:
    """``p is on a cycle of NAME``: the parse-tree rule ``on_cycle``, ``[p, NAME]``."""
    return OnCycle(c[0], ast.Name(str(c[1]), transformer.sp(c[1])), transformer.sp(meta))


def _kept(compiler) -> lower.Kept:
    """The face graphs the compiler made (kept under the construct of ``has no cycle``)."""
    return compiler.collected.setdefault(FACES, lower.Kept())


class NoCycleConstruct(Construct):
    """``NAME has no cycle``: a rule of its own."""

    node = NoCycle
    rules = {"no_cycle": _no_cycle}
    statement = True

    def type_of(self, checker, e: NoCycle):
        return check.no_cycle_type(checker, e)

    def assert_rule(self, compiler, e: NoCycle, guard: tuple[int, ...]) -> None:
        lower.no_cycle(compiler, e, guard, _kept(compiler))

    def rule_violation(self, interpreter, e: NoCycle):
        return evaluate.no_cycle_violation(interpreter, e)


class OnCycleConstruct(Construct):
    """``p is on a cycle of slant``: a condition."""

    node = OnCycle
    rules = {"on_cycle": _on_cycle}

    def type_of(self, checker, e: OnCycle):
        return check.on_cycle_type(checker, e)

    def condition(self, symbols, e: OnCycle) -> bool:
        return True

    def children(self, e: OnCycle) -> tuple:
        return ()

    def lit(self, compiler, e: OnCycle):
        return lower.on_cycle(compiler, e, _kept(compiler))

    def holds(self, interpreter, e: OnCycle) -> bool:
        return evaluate.on_cycle(interpreter, e)


FACES = register(NoCycleConstruct())
"""The construct under which the compiler keeps the face graphs (:class:`.lower.Kept`)."""
register(OnCycleConstruct())
