"""The intermediate representation: a constraint graph over Boolean variables.

A :class:`Model` is what the compiler produces from a spec and a map, and what
every backend lowers. It is deliberately small:

* **Variables** are Boolean, numbered from 1. A *literal* is ``+v`` (variable
  ``v`` is true) or ``-v`` (it is false), as in DIMACS. Every variable has a
  structured, deterministic name such as ``wall[3,4]`` or ``kind[0,2]=snake``
  (:class:`Var`), and the two-way map between names and numbers is the model's
  ``variables`` tuple.
* **Constraints** are :class:`Clause` (a disjunction of literals),
  :class:`Linear` (a weighted sum of literals compared with a constant,
  optionally enforced only when some literals hold) and :class:`Connected`
  (a set of cells is connected in the grid graph and contains its roots).
  Connectivity is first-class: how it is lowered (single-commodity flow, lazy
  separator cuts, layered reachability) is each backend's choice.
  :class:`GraphConnected` is connectivity over an explicit graph whose
  vertices and edges carry literals (the lines of loop and path genres).
* The **objective** is a weighted sum of literals plus a constant, to be
  maximised or minimised, or absent (find a solution, count, prove unique).

Constants never reach the IR: the compiler folds them. A term ``a * (-v)``
means ``a * (1 - x_v)``.

Nodes are frozen records (:func:`gridlang.core.nodes.node`) with tuple children; each keeps the span of the
spec line it came from (ignored by ``==``) so errors and exported rows can
point back at the ``.grid`` file.
"""

from __future__ import annotations

import enum
from typing import Iterable, Mapping, Union

from gridlang.core.errors import Span
from gridlang.core.grid import Grid
from gridlang.core.nodes import Record, field

_put = object.__setattr__
"""Sets a field of a frozen node in a hand-written ``__init__`` (the constraints are made by the
thousand: a generated ``__init__`` would take twice as long)."""


class Cmp(enum.Enum):
    """Comparison of a :class:`Linear` constraint."""

    LE = "<="
    GE = ">="
    EQ = "=="

    def holds(self, lhs: int, rhs: int) -> bool:
        """Evaluate ``lhs OP rhs``."""
        if self is Cmp.LE:
            return lhs <= rhs
        if self is Cmp.GE:
            return lhs >= rhs
        return lhs == rhs


class Sense(enum.Enum):
    """Direction of the objective."""

    MAXIMIZE = "maximize"
    MINIMIZE = "minimize"


class Var(Record):
    """A Boolean variable's structured name.

    Attributes:
        family: the spec name it comes from (``wall``, ``pen``), or an internal
            family in angle-free lower case (``aux``).
        cell: the cell index it belongs to, or None for a global variable.
        value: for one-hot enumerations, the value this variable stands for
            (``snake``, ``3``); None for plain Booleans.
        rowcol: ``(row, col)`` of ``cell``, for naming; None when ``cell`` is.
    """

    family: str
    cell: int | None = None
    value: str | int | None = None
    rowcol: tuple[int, int] | None = None

    def __init__(self, family: str, cell: int | None = None, value: str | int | None = None,
                 rowcol: tuple[int, int] | None = None) -> None:
        _put(self, "family", family)
        _put(self, "cell", cell)
        _put(self, "value", value)
        _put(self, "rowcol", rowcol)

    def __str__(self) -> str:
        s = self.family
        if self.rowcol is not None:
            s += f"[{self.rowcol[0]},{self.rowcol[1]}]"
        if self.value is not None:
            s += f"={self.value}"
        return s

    def identifier(self) -> str:
        """A name safe for LP/MPS/CP-SAT files: ``wall_3_4``, ``kind_0_2_snake``."""
        s = self.family
        if self.rowcol is not None:
            s += f"_{self.rowcol[0]}_{self.rowcol[1]}"
        if self.value is not None:
            s += f"_{self.value}"
        return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in s)


class Clause(Record):
    """At least one of ``lits`` is true. An empty clause is unsatisfiable."""

    lits: tuple[int, ...]
    span: Span | None = field(default=None, compare=False)

    def __init__(self, lits: tuple[int, ...], span: Span | None = None) -> None:
        _put(self, "lits", lits)
        _put(self, "span", span)


class Linear(Record):
    """``sum(coef * lit) OP rhs``, enforced only when every ``enforce`` literal holds.

    Attributes:
        terms: ``(coef, lit)`` pairs; a negative literal stands for ``1 - x``.
        op: the comparison.
        rhs: the constant right-hand side.
        enforce: literals whose conjunction switches the constraint on (a
            half-reification); empty means always on.
    """

    terms: tuple[tuple[int, int], ...]
    op: Cmp
    rhs: int
    enforce: tuple[int, ...] = ()
    span: Span | None = field(default=None, compare=False)

    def __init__(self, terms: tuple[tuple[int, int], ...], op: Cmp, rhs: int, enforce: tuple[int, ...] = (),
                 span: Span | None = None) -> None:
        _put(self, "terms", terms)
        _put(self, "op", op)
        _put(self, "rhs", rhs)
        _put(self, "enforce", enforce)
        _put(self, "span", span)


class Connected(Record):
    """The cells whose member literal is true are connected (to their roots).

    The graph is the model's :class:`~gridlang.core.grid.Grid` (4-neighbours and
    links), restricted to the cells listed in ``members``; a cell absent from
    ``members`` is never a member.

    * With ``roots``: every root is a member (the compiler also states that
      as unit clauses) and every member is reached from some root inside the
      set, so the set is exactly what the roots reach. With one root it is
      connected; with several it may fall into one component per root, as a
      flood fill from several cells does.
    * Without roots: the members induce one connected subgraph. The empty
      set is connected.
    * With ``path``: the node comes from a path rule, whose degree
      constraints the model states separately (two roots with one member
      neighbour, every other member with two); together they make the
      members one induced simple path from ``roots[0]`` to ``roots[1]`` (two
      members are adjacent only when consecutive on it). The flag adds no
      meaning to the model: it lets a backend lower the node with what holds
      for such a path, by a native circuit constraint (CP-SAT's
      ``AddCircuit``) or by the positions along it (the MILP, when ``size``
      gives its length); MaxSAT treats it as plain connectivity.
    * With ``through`` (a ``region R = reach from A through P`` rule): the
      members are exactly the cells the roots reach by stepping onto
      passable candidates, a flood fill. The compiler states this fully as
      clauses (a member's passable neighbour is a member; a member is
      passable) plus this node, so the field too adds no meaning: it lets a
      backend define the members instead of choosing them (the asp
      backend's least-fixpoint rules).

    Attributes:
        members: ``(cell, lit)`` pairs, ascending by cell.
        roots: cells that are members and from which all members are reached.
        size: the exact number of members when the model fixes it (a
            :class:`Linear` says so too); backends may use it for stronger
            cuts. None when not fixed.
        name: the region's name in the spec, for messages and statistics.
        path: the members form a path between the two roots (see above).
        through: None for any other connectivity rule; for a flood fill,
            ``(cell, lit)`` pairs, ascending by cell: the candidates that
            are passable only when ``lit`` holds. A candidate not listed
            is always passable.
    """

    members: tuple[tuple[int, int], ...]
    roots: tuple[int, ...] = ()
    size: int | None = None
    name: str = ""
    span: Span | None = field(default=None, compare=False)
    path: bool = False
    through: tuple[tuple[int, int], ...] | None = None


class GraphConnected(Record):
    """On an explicit graph, the active vertices joined by active edges are connected (to their roots).

    The graph is given here, not taken from the grid: its vertices are
    numbered by the compiler (cells, or the corners of the cell lattice,
    ``r * (cols + 1) + c``), each with a literal saying it is active, and
    each edge carries a literal saying it is chosen. An edge counts only
    when it is chosen and both its ends are active (the compiler states
    ``edge -> both ends`` where it means that).

    * Without roots: the active vertices form one connected graph through
      the counted edges. No active vertex is connected.
    * With ``roots``: every root is active, and every active vertex is
      reached from a root through counted edges.
    * With ``loop``: the node comes from ``is a loop``, whose degree rows
      (every active vertex has two chosen edges, an inactive one none) the
      model states separately; together they make the chosen edges one
      single cycle. The flag adds no meaning: it lets CP-SAT lower the node
      by ``AddCircuit``.

    The lazy cut of a stray component ``S`` (an active vertex ``u`` in it,
    an active ``v`` outside, no counted edge between): ``~u | ~v | OR(edge
    literals crossing S)``, :func:`gridlang.ir.connectivity.graph.graph_cuts`.

    Attributes:
        members: ``(vertex, lit)`` pairs, ascending by vertex.
        edges: ``(u, v, lit)`` with ``u < v``, members both.
        roots: vertices that are active and reach every active vertex.
        loop: the node comes from a single-loop rule (see above).
        name: the rule's decision name, for messages and statistics.
    """

    members: tuple[tuple[int, int], ...]
    edges: tuple[tuple[int, int, int], ...]
    roots: tuple[int, ...] = ()
    loop: bool = False
    name: str = ""
    span: Span | None = field(default=None, compare=False)

    def reached(self, assignment: "Assignment") -> tuple[set[int], list[set[int]]]:
        """The active vertices and their components through the counted edges.

        Returns:
            ``(active, components)``: components as vertex sets, the ones
            holding a root first, then by smallest vertex.
        """
        active = {v for v, lit in self.members if assignment.holds(lit)}
        adj: dict[int, list[int]] = {v: [] for v in active}
        for u, v, lit in self.edges:
            if u in active and v in active and assignment.holds(lit):
                adj[u].append(v)
                adj[v].append(u)
        seen: set[int] = set()
        comps: list[set[int]] = []
        for start in [r for r in self.roots if r in active] + sorted(active):
            if start in seen:
                continue
            comp, stack = {start}, [start]
            while stack:
                for w in adj[stack.pop()]:
                    if w not in comp:
                        comp.add(w)
                        stack.append(w)
            seen |= comp
            comps.append(comp)
        return active, comps


class Table(Record):
    """The literals take one of the allowed rows of truth values (a table constraint).

    Attributes:
        lits: the literals, in order.
        allowed: the rows of truth values ``lits`` may take, each as long
            as ``lits``, without repeats; an empty tuple allows nothing.
        name: what the table comes from, for messages.
    """

    lits: tuple[int, ...]
    allowed: tuple[tuple[bool, ...], ...]
    name: str = ""
    span: Span | None = field(default=None, compare=False)

    def __init__(self, lits: tuple[int, ...], allowed: tuple[tuple[bool, ...], ...], name: str = "",
                 span: Span | None = None) -> None:
        _put(self, "lits", lits)
        _put(self, "allowed", allowed)
        _put(self, "name", name)
        _put(self, "span", span)

    def holds(self, assignment: "Assignment") -> bool:
        """Whether the literals' values under ``assignment`` are an allowed row."""
        return tuple(assignment.holds(l) for l in self.lits) in set(self.allowed)


class EqualBlocks(Record):
    """A labelling of cells whose blocks (side-connected groups of equal labels) have bounded sizes.

    Each listed cell takes exactly one of its labels (the model states the
    one-hot rows as :class:`Linear` nodes; this node assumes them). A
    *block* is a maximal set of listed cells with equal labels joined
    through the grid graph's edges (4-neighbours and links) between them.
    For each bound ``(cell, label, lo, hi)``: when ``cell`` takes ``label``,
    its block has at least ``lo`` and at most ``hi`` cells (``hi`` None: no
    upper bound). Fillomino's rule "every block has as many cells as its
    number" is the bounds ``(p, v, v, v)`` for every cell p and value v.

    Lowered natively by CP-SAT and the MILP (a single-commodity flow inside
    each block from its one root, the block's lowest cell), by clingo
    (reachability inside blocks, counted), and by MaxSAT's lazy cut loop
    (:func:`gridlang.ir.connectivity.blocks.block_cuts`); elsewhere by
    :func:`gridlang.ir.transforms.equal_blocks.decompose_equal_blocks`.

    Attributes:
        cells: ``(cell, ((label, lit), ...))`` ascending by cell.
        bounds: ``(cell, label, lo, hi)``, ascending, at most one per cell and label.
        name: the decision's name in the spec, for messages and statistics.
    """

    cells: tuple[tuple[int, tuple[tuple[object, int], ...]], ...]
    bounds: tuple[tuple[int, object, int, int | None], ...]
    name: str = ""
    span: Span | None = field(default=None, compare=False)

    def labels(self, assignment: "Assignment") -> dict[int, object]:
        """Each listed cell's label under ``assignment`` (the first true literal; a cell with none is left out)."""
        out: dict[int, object] = {}
        for cell, options in self.cells:
            for label, lit in options:
                if assignment.holds(lit):
                    out[cell] = label
                    break
        return out

    @staticmethod
    def blocks(grid: Grid, labels: Mapping[int, object]) -> list[list[int]]:
        """The blocks of a labelling (cells of equal labels joined through the grid's edges), each
        ascending, by their lowest cell."""
        seen: set[int] = set()
        out: list[list[int]] = []
        for start in sorted(labels):
            if start in seen:
                continue
            block, stack = {start}, [start]
            while stack:
                u = stack.pop()
                for v in grid.neighbours[u]:
                    if v not in block and v in labels and labels[v] == labels[start] \
                            and isinstance(labels[v], bool) == isinstance(labels[start], bool):
                        block.add(v)
                        stack.append(v)
            seen |= block
            out.append(sorted(block))
        return out

    def broken(self, grid: Grid, assignment: "Assignment") -> list[tuple[list[int], int, object, int, int | None]]:
        """The blocks whose size breaks a bound: ``(block, cell, label, lo, hi)`` per broken bound's block."""
        labels = self.labels(assignment)
        block_of: dict[int, list[int]] = {}
        for block in self.blocks(grid, labels):
            for cell in block:
                block_of[cell] = block
        out, reported = [], set()
        for cell, label, lo, hi in self.bounds:
            if cell not in labels or labels[cell] != label or isinstance(label, bool) != isinstance(labels[cell], bool):
                continue
            block = block_of[cell]
            if (len(block) < lo or hi is not None and len(block) > hi) and block[0] not in reported:
                reported.add(block[0])
                out.append((block, cell, label, lo, hi))
        return out


Constraint = Union[Clause, Linear, Connected, GraphConnected, Table, EqualBlocks]


class Objective(Record):
    """``sense`` of ``sum(coef * lit) + constant``."""

    sense: Sense
    terms: tuple[tuple[int, int], ...]
    constant: int = 0
    span: Span | None = field(default=None, compare=False)

    def value(self, assignment: "Assignment") -> int:
        """The objective's value under a full assignment."""
        return self.constant + sum(c for c, lit in self.terms if assignment.holds(lit))


class Decision(Record):
    """A spec-level decision, for decoding answers.

    Attributes:
        name: the spec name (``wall``, ``kind``).
        values: for a Boolean decision ``(True,)``; for an enumeration its
            values in declaration order.
        cells: ``(cell, ((value, lit), ...))`` for every cell it is made on;
            for a decision on edges, ``(edge, ((True, lit),))`` with
            ``edge = ((r1, c1), (r2, c2))`` its two ends (cells, or lattice
            corners), the smaller first.
        kind: ``"cells"``, ``"edges"`` (between side neighbours) or
            ``"corners"`` (edges of the lattice of cell corners).
        open_value: None, or the last of ``values`` standing for itself and
            every larger value of the spec's domain: a cell that takes it
            is decoded as the number of cells of its block (the side-
            connected cells around it that take it too), as the spec's rule
            that every block has as many cells as its value says
            (:mod:`gridlang.constructs.blocks.domains`).
    """

    name: str
    values: tuple[object, ...]
    cells: tuple[tuple[object, tuple[tuple[object, int], ...]], ...]
    kind: str = "cells"
    open_value: object = None

    def takes(self, value: object) -> bool:
        """Whether a cell of the decision may hold ``value``: one of :attr:`values`, or a number from
        :attr:`open_value` to the number of places it is made on (the most cells a block may have)."""
        if value in self.values:
            return True
        return (self.open_value is not None and isinstance(value, int) and not isinstance(value, bool)
                and self.open_value <= value <= len(self.cells))


class Model(Record):
    """A compiled puzzle: grid, variables, constraints, objective.

    Attributes:
        name: the puzzle's name from the spec (``enclose.horse``).
        grid: the map's graph.
        variables: ``variables[v - 1]`` names variable ``v``.
        constraints: every constraint, in source order.
        objective: what to optimise, or None.
        decisions: the spec's decisions, for decoding.
        regions: ``name -> ((cell, lit), ...)`` for each derived region
            (a cell absent from the tuple is never a member).
        params: the parameter values the model was compiled with.
        info: provenance (spec path, map path, variant) for headers.
        source: the spec's AST and symbols the model was compiled from
            (``(ast.Spec, checker.Symbols)``), so that an answer can be
            checked against the spec's own rules (:mod:`gridlang.interpreter`);
            None for a model built by hand.
    """

    name: str
    grid: Grid
    variables: tuple[Var, ...]
    constraints: tuple[Constraint, ...]
    objective: Objective | None
    decisions: tuple[Decision, ...] = ()
    regions: Mapping[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    params: Mapping[str, object] = field(default_factory=dict)
    info: Mapping[str, str] = field(default_factory=dict)
    source: object = field(default=None, compare=False, repr=False)

    @property
    def num_vars(self) -> int:
        """Number of Boolean variables."""
        return len(self.variables)

    def var(self, lit: int) -> Var:
        """The name of the variable behind literal ``lit``."""
        return self.variables[abs(lit) - 1]

    def lit_name(self, lit: int) -> str:
        """``wall[3,4]`` or ``~wall[3,4]``."""
        return ("" if lit > 0 else "~") + str(self.var(lit))

    def with_constraints(self, extra: tuple[Constraint, ...]) -> "Model":
        """A copy with ``extra`` constraints appended (for blocking clauses)."""
        return Model(
            self.name, self.grid, self.variables, self.constraints + tuple(extra),
            self.objective, self.decisions, self.regions, self.params, self.info, self.source,
        )

    def kinds(self) -> set[str]:
        """Names of the constraint node types the model uses."""
        return {type(c).__name__ for c in self.constraints}

    def provenance(self) -> list[str]:
        """The header lines every written file opens with, after its title:
        ``KEY: VALUE`` per :attr:`info` entry, then ``param NAME = VALUE``,
        sorted, each on one line (runs of white space become one space)."""
        lines = [f"{key}: {self.info[key]}" for key in sorted(self.info)]
        lines += [f"param {key} = {self.params[key]}" for key in sorted(self.params)]
        return [" ".join(line.split()) for line in lines]

    def variable_record(self, v: int) -> dict[str, object]:
        """The ``.vars.json`` record of variable ``v`` (1-based): ``{"var",
        "family", "cell": [row, col] or None, "value"}``, the cell from the
        variable's own row and column, else from its cell index."""
        var = self.variables[v - 1]
        rowcol = var.rowcol or (self.grid.cell(var.cell) if var.cell is not None else None)
        return {"var": str(var), "family": var.family, "cell": list(rowcol) if rowcol is not None else None,
                "value": var.value}


class Assignment(Record):
    """A full truth assignment: ``values[v - 1]`` is variable ``v``'s value."""

    values: tuple[bool, ...]

    def holds(self, lit: int) -> bool:
        """Whether literal ``lit`` is true."""
        v = self.values[abs(lit) - 1]
        return v if lit > 0 else not v

    def true_cells(self, members: tuple[tuple[int, int], ...]) -> list[int]:
        """The cells of a ``(cell, lit)`` tuple whose literal holds."""
        return [cell for cell, lit in members if self.holds(lit)]


def affine(terms: Iterable[tuple[int, int]]) -> tuple[dict[int, int], int]:
    """``sum coef * lit`` over literals as ``(variable index -> coef, constant)``.

    Indices are 0-based (variable ``v`` is index ``v - 1``); a negative
    literal ``-v`` contributes ``coef * (1 - x_v)``; zero coefficients are
    dropped. The MILP's rows and CP-SAT's linear constraints are built from it.
    """
    coefs: dict[int, int] = {}
    const = 0
    for coef, lit in terms:
        j = abs(lit) - 1
        if lit > 0:
            coefs[j] = coefs.get(j, 0) + coef
        else:
            coefs[j] = coefs.get(j, 0) - coef
            const += coef
    return {j: a for j, a in coefs.items() if a != 0}, const
