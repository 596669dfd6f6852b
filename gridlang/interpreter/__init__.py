"""The spec's rules, evaluated on one complete answer: the spec-level verifier.

An answer (each decision's value on each cell) is checked by walking the
spec's AST (:mod:`gridlang.language.ast`) over the map with plain sets and
breadth-first search. Nothing here reads the compiled model, so a mistake in
the compiler, an encoding or a solver cannot hide behind the same mistake in
the check. The meaning of every construct is the one stated in
``docs/language.md`` and in the design notes' "Exact semantics":

Grid graph
    Cells are numbered row-major (cell ``i`` is row ``i // cols``, column
    ``i % cols``). Two cells are adjacent when they share a side, or when
    both are cells of one ``linked`` tile kind written with the same map
    character (portals). The adjacency is built here from the map's
    characters and the spec's tiles, not taken from :class:`Grid`'s own.
Cell sets
    A tile's name: its cells. A tag: the cells of every tile carrying it.
    ``border``: the first and last row and column. ``all``: every cell.
    ``not S``, ``S and T``, ``S or T``: complement, intersection, union. A
    Boolean decision's name: the cells where it is true. A region's name:
    its members. ``D = V``: the cells where the enumerated decision D takes
    the value V; V is a value name of D's domain, an integer, a ``for each``
    variable or an ``int`` parameter (looked up in that order), or ``value``,
    each cell's own tile value. A cell D is not made on is never in
    ``D = V``, so it is in ``D != V``.
Numbers
    Integer literals, ``int`` parameters and ``for each`` variables;
    ``count(S)``: cells of S; ``value(S)``: the sum of S's tile values
    (``value N``, or for ``value digit`` the character read in base 36);
    ``sum(P)``: the sum of a ``set of int`` parameter's entries; ``+``,
    ``-``, ``*``, negation.
``region R = reach from A through P``
    The flood fill: the smallest set that holds every cell of A and every
    cell of P adjacent to a member. A cell of A is a member even when it is
    not in P, and its P-neighbours join. No cell of A: the region is empty.
    Regions are computed in statement order; naming one before its
    ``region`` statement is an error, as in the compiler.
Decisions on edges
    An answer lists each chosen edge as its two ends (cells, or lattice
    corners), or for an integer decision every edge with its value (an
    edge is chosen when its value is not 0); degrees are the sums of the
    values at a cell or corner, bends read off the two chosen sides, ``line
    is a loop``, ``line is connected`` and ``component of p along line``
    traced by breadth-first search over the chosen edges (a construct's:
    :mod:`gridlang.constructs.edges`).
    Corners are ``(r, c)`` from ``(0, 0)`` to ``(rows, cols)``, corner
    ``(r, c)`` the top-left one of cell ``(r, c)``; ``corners(p)`` are its
    four.
Rules
    ``A avoids B``: no cell in both. ``A in B``: every cell of A in B.
    ``X OP Y``: the comparison of two integers. ``S is connected [with size
    N]``: S induces a connected subgraph (the empty set and a single cell
    are connected) and, with a size, has exactly N cells. ``S is a path
    between E``: E has exactly two cells; both are in S and have exactly one
    neighbour in S; every other cell of S has exactly two; S is connected
    (an induced simple path). ``for each k in P: RULE``: RULE for every
    entry of P, in order (a repeated entry repeats the rule). ``for each
    neighbours a, b: F``: F holds for every ordered pair of adjacent cells.
``for each``
    Over a ``set of int`` parameter (an integer variable), over the cells of
    a cell set known from the map, or over a family: ``cell p`` (every
    cell), ``row r``, ``column k`` (each row, column, as a set of cells),
    ``room m`` (each room: a maximal orthogonally connected group of cells
    with equal labels in the map's room layer), ``H x W window w`` (every
    H-by-W rectangle inside the grid), ``H x W block b`` (the rectangles
    that tile the grid from its top-left corner). A cell variable is the set
    of its one cell.
Geometry
    ``neighbours(p)``: p's neighbours in the grid graph; ``diagonal
    neighbours(p)``: the cells sharing only a corner with p; ``king
    neighbours(p)``: both, the eight king moves; ``row(p)``, ``column(p)``,
    ``room(p)``: the line or room holding p. ``p + d`` (``p - d``): the cell
    one step from p in direction d (``up``, ``right``, ``down``, ``left``, or a
    ``for each direction`` variable); off the grid, no cell: ``S[p + d]`` is
    false, ``D[p + d]`` is 0, and sets around it are empty. ``component of p in S``: the
    cells of S joined to p by a path inside S (the empty set when p is not
    in S).
Conditions
    ``S[p]``: p is in S; ``D[p]``: an integer decision's value at p (a
    number); ``D[p] = V``; ``p = q``: the same cell; relations (``A in B``,
    ``A avoids B``, comparisons, ``all different D in S``: no value of D
    twice among the cells of S) combined with ``not``, ``and``, ``or``,
    ``implies``. ``count(F for q in S)``: the cells q of S where F holds;
    ``sum(N for q in S)``; ``all(F for q in S)``, ``any(F for q in S)``. A
    rule that is a condition is broken for each binding of its ``for each``
    variables that makes it false.
Sight and shapes
    ``sight from p toward q through S``: walking from p over its side
    neighbour q and on in that direction, the cells met before the first
    cell not in S (or the edge). ``S is a piece of F``: S's cells, moved,
    rotated or reflected, are one shape of the family F (``tetrominoes``,
    ``pentominoes``, ``polyominoes(k)``: every free polyomino of k cells,
    or one shape bound by ``for each shape s in F``). ``S consists of F``:
    the side-connected pieces of S are, shape for shape, the entries of F
    (as many of each as F lists).
Formulas over a pair of cells
    ``S[a]``: cell a is in S (a tile, tag, Boolean decision or region).
    ``D[a] = V``: the enumerated decision D takes value V at a (false where
    D is not made). ``D[a] = D[b]``: D's values at the two cells are equal,
    where a cell D is not made on has no value (two such cells are equal)
    and, for a Boolean D, a cell counts as true only where D is true.
    ``not``, ``and``, ``or``, ``implies``.
Objective
    ``maximize E`` / ``minimize E``: the integer E on this answer.
Constructs
    A node of a construct (``a div b``, ``D = D[p]``, ``runs of S around c
    == L``, ``degree(line, p)``), and a decision on edges, is evaluated by
    its module of :mod:`gridlang.constructs`,
    through the hooks of :mod:`gridlang.language.constructs`, given this
    interpreter; the meaning is stated there.

The answer itself is checked first, against the ``decide`` statements: a
Boolean decision true on a cell it is not made on, an enumerated decision
with a value outside its domain, with no value on one of its cells or with a
value on a cell it is not made on, and a decision name the spec does not
declare are each a violation located at the ``decide`` statement. Values on
cells a decision is not made on are then ignored, as the decision does not
exist there.

A broken rule becomes a :class:`Violation` located at its ``require``
statement, with the cells that show it: the cells in both sets, the cells
missing from the superset, the pieces off the largest component, the cells
of wrong degree, the pair of neighbours. The objective is computed whether
or not the rules hold.
"""

from __future__ import annotations

from gridlang.interpreter.core import Decisions, Interpreter
from gridlang.interpreter.graph import adjacency, components
from gridlang.interpreter.verdict import SpecVerdict, Violation, statement_text

__all__ = ["Decisions", "Interpreter", "SpecVerdict", "Violation", "adjacency", "components", "evaluate",
           "statement_text"]

from typing import Mapping

from gridlang.core.grid import Grid
from gridlang.language import ast
from gridlang.language.checker import Symbols


def evaluate(spec: ast.Spec, symbols: Symbols, grid: Grid, params: Mapping[str, object],
             decisions: Decisions) -> SpecVerdict:
    """Evaluate a spec's rules and objective on a complete answer.

    Args:
        spec: the parsed spec (its source gives each violation's text).
        symbols: its symbol table (:func:`gridlang.language.checker.check`).
        grid: the map; its ``rows``, ``cols``, ``chars`` and ``tiles`` are
            read.
        params: every parameter's value (int, or a tuple of ints for
            ``set of int``), as :func:`gridlang.formats.params.resolve_params` gives.
        decisions: decision name -> {cell index: value}, as in
            :attr:`gridlang.ir.solution.Solution.decisions`.

    Returns:
        The verdict.

    Raises:
        ParamError: a parameter of the spec has no value in ``params``.
        SemanticError: a region is named before its ``region`` statement.
    """
    return Interpreter(spec, symbols, grid, params).evaluate(decisions)
