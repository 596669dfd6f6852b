"""Decisions on edges and the corners of the lattice: lines, loops, bridges, bends and degrees.

``decide line: bool on edges`` (or ``0..2``, or ``on corner edges``) is a
decision made on every edge between two side neighbours, or on every edge
of the lattice of cell corners; this construct makes its variables and
reads an answer's values of it (:func:`~gridlang.language.constructs.decision_of`),
and ``line is connected`` on it. Its nodes (:mod:`.nodes`): ``line[p, q]``
(:class:`~.nodes.EdgeAt`, a condition, or a number for an integer
decision), ``degree(line, p)`` (:class:`~.nodes.Degree`, a number),
``straight(line, p)`` and ``turn(line, p)`` (:class:`~.nodes.Bend`,
conditions), ``line is a loop`` (:class:`~.nodes.IsLoop`, a rule of its
own), ``component of p along line`` (:class:`~.nodes.ComponentAlong`, a
cell set) and ``corners(p)`` (:class:`~.nodes.CornersOf`, a set of
corners that ``for each`` and the aggregates run over). The meaning is
stated in docs/language.md ("Edges"); what each lowers to and costs, in
:mod:`.lower`.

Its parts, one construct: the nodes (:mod:`.nodes`), the type checks
(:mod:`.check`), the lowering (:mod:`.lower`) and the evaluation on an
answer (:mod:`.evaluate`), which share nothing but the nodes; here, the
parse-tree builders and the hooks registered by node type
(:mod:`gridlang.language.constructs`). A binding of a corner (``for each
corner v``, ``v + d``) is the stages' own, as every binding is.
"""

from __future__ import annotations

from gridlang.constructs import slants
from gridlang.constructs.edges import check, evaluate, lower
from gridlang.constructs.edges.nodes import Bend, ComponentAlong, CornersOf, Degree, EdgeAt, IsLoop
from gridlang.core.errors import GridSyntaxError
from gridlang.language import ast
from gridlang.language.constructs import Construct, register

__all__ = ["Bend", "ComponentAlong", "CornersOf", "Degree", "EdgeAt", "IsLoop"]


def _name(transformer, token) -> ast.Name:
    return ast.Name(str(token), transformer.sp(token))


def _bend(kind: str):
    def build(transformer, meta, c: list) -> Bend:
        """``straight(line, p)`` or ``turn(line, p)``: the parse-tree rule of that name, ``[NAME, p]``."""
        return Bend(kind, _name(transformer, c[0]), c[1], transformer.sp(meta))
    return build


def _is_loop(transformer, meta, c: list) -> IsLoop:
    """``line is a loop``: the parse-tree rule ``is_loop``, ``[line]``.

    Raises:
        GridSyntaxError: the left side is not a name.
    """
    e = c[0]
    if not isinstance(e, ast.Name):
        raise GridSyntaxError("'is a loop' applies to a decision on edges, by its name", transformer.sp(meta))
    return IsLoop(e, transformer.sp(meta))


def _edges(compiler) -> lower.Edges:
    """The edges the compiler made (kept under the construct of the decisions)."""
    return compiler.collected.setdefault(DECISIONS, lower.Edges())


def _lines(interpreter) -> evaluate.Lines:
    """The edges of the interpreter's answer (kept under the construct of the decisions)."""
    return interpreter.kept.setdefault(DECISIONS, evaluate.Lines())


class EdgeAtConstruct(Construct):
    """``line[p, q]``: a condition, or a number for an integer decision (``bridge[p, q]``); also the
    decisions ``on edges`` and ``on corner edges`` themselves (``lattices``)."""

    node = EdgeAt
    rules = {"at_edge": lambda t, meta, c: EdgeAt(_name(t, c[0]), c[1], c[2], t.sp(meta))}
    lattices = ("edges", "corners")

    def type_of(self, checker, e: EdgeAt):
        return check.edge_type(checker, e)

    def condition(self, symbols, e: EdgeAt) -> bool:
        decision = symbols.decisions.get(e.name.id)
        return decision is None or not decision.is_enum


    def decide(self, compiler, st) -> None:
        lower.decide_edges(compiler, st, _edges(compiler))

    def connect(self, compiler, st) -> None:
        lower.lines_connected(compiler, st, _edges(compiler))

    def lit(self, compiler, e: EdgeAt):
        return lower.edge_at(compiler, e, _edges(compiler))

    def linear(self, compiler, e: EdgeAt, scale: int, coef: dict[int, int]) -> int:
        return lower.edge_terms(compiler, e, scale, coef, _edges(compiler))

    def check_compare(self, compiler, f, own: EdgeAt, other) -> None:
        lower.check_value(compiler, f, own, other, _edges(compiler))

    def read(self, interpreter, st, given: dict) -> None:
        evaluate.read(interpreter, st, given, _lines(interpreter))

    def connected_violation(self, interpreter, st):
        return evaluate.connected_violation(st, _lines(interpreter))

    def holds(self, interpreter, e: EdgeAt) -> bool:
        return evaluate.edge_value(interpreter, e, _lines(interpreter)) != 0

    def number(self, interpreter, e: EdgeAt) -> int:
        return evaluate.edge_value(interpreter, e, _lines(interpreter))


class DegreeConstruct(Construct):
    """``degree(line, p)``: a number; ``degree(slant, v)`` for a decision whose values are slants, the
    slants touching corner v (:mod:`gridlang.constructs.slants`)."""

    node = Degree
    rules = {"degree": lambda t, meta, c: Degree(_name(t, c[0]), c[1], t.sp(meta))}

    def type_of(self, checker, e: Degree):
        if slants.is_slant_decision(checker.sym.decisions.get(e.name.id)):
            return slants.degree_type(checker, e)
        return check.degree_type(checker, e)

    def linear(self, compiler, e: Degree, scale: int, coef: dict[int, int]) -> int:
        if e.name.id in compiler.enum_lits:
            return slants.degree_terms(compiler, e, scale, coef)
        return lower.degree_terms(compiler, e, scale, coef, _edges(compiler))

    def number(self, interpreter, e: Degree) -> int:
        if e.name.id in interpreter.enums:
            return slants.degree(interpreter, e)
        return evaluate.degree(interpreter, e, _lines(interpreter))


class BendConstruct(Construct):
    """``straight(line, p)``, ``turn(line, p)``: conditions."""

    node = Bend
    rules = {"straight": _bend("straight"), "turn": _bend("turn")}

    def type_of(self, checker, e: Bend):
        return check.bend_type(checker, e)

    def condition(self, symbols, e: Bend) -> bool:
        return True


    def lit(self, compiler, e: Bend):
        return lower.bend_lit(compiler, e, _edges(compiler))

    def holds(self, interpreter, e: Bend) -> bool:
        return evaluate.bend_holds(interpreter, e, _lines(interpreter))


class IsLoopConstruct(Construct):
    """``line is a loop``: a rule of its own."""

    node = IsLoop
    rules = {"is_loop": _is_loop}
    statement = True

    def type_of(self, checker, e: IsLoop):
        return check.loop_type(checker, e)

    def assert_rule(self, compiler, e: IsLoop, guard: tuple[int, ...]) -> None:
        lower.is_loop(compiler, e, guard, _edges(compiler))

    def rule_violation(self, interpreter, e: IsLoop):
        lattice = interpreter.lattice_of(e.name)
        return evaluate.loop_violation(e, _lines(interpreter), lattice, interpreter.grid.cols)


class AlongConstruct(Construct):
    """``component of p along line``: a cell set."""

    node = ComponentAlong
    rules = {"component_along": lambda t, meta, c: ComponentAlong(c[0], _name(t, c[1]), t.sp(meta))}

    def type_of(self, checker, e: ComponentAlong):
        return check.along_type(checker, e)

    def members(self, compiler, e: ComponentAlong, within) -> dict:
        return compiler.define(lower.component_along, compiler, e, within, _edges(compiler))

    def cells(self, interpreter, e: ComponentAlong) -> frozenset[int]:
        return evaluate.along(interpreter, e, _lines(interpreter))


class CornersConstruct(Construct):
    """``corners(p)``: the four corners of cell p, a set of corners."""

    node = CornersOf
    rules = {"corners_of": lambda t, meta, c: CornersOf(c[0], t.sp(meta))}
    corners = True

    def type_of(self, checker, e: CornersOf):
        return check.corners_type(checker, e)

    def corner_members(self, compiler, e: CornersOf) -> list[tuple[int, int]]:
        return lower.corner_members(compiler, e)

    def corner_points(self, interpreter, e: CornersOf) -> list[tuple[int, int]]:
        return evaluate.corner_points(interpreter, e)


DECISIONS = register(EdgeAtConstruct())
"""The construct of the decisions on edges, under which the compiler and the interpreter keep their edges."""
register(DegreeConstruct())
register(BendConstruct())
register(IsLoopConstruct())
register(AlongConstruct())
register(CornersConstruct())
