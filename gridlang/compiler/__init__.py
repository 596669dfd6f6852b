"""Compile a checked spec and a map into the IR (:mod:`gridlang.ir.model`).

The lowering of each construct:

``decide D: bool on S``
    one variable ``D[r,c]`` per cell of S.
Cell-set expressions
    evaluated cell by cell to ``True``, ``False`` or a literal; constants
    are folded, and a compound of two or more literals gets one auxiliary
    variable per cell, defined by its Tseitin clauses (``aux[r,c]=k``).
``region R = reach from A through P`` (the flood fill)
    one member variable ``R[r,c]`` per cell that can be a member, with
    (``m`` the member literal, ``p`` the cell's P literal)::

        m(a) = 1                        for every cell a of A
        m(v) -> p(v)                    for every other cell
        m(u) & p(v) -> m(v)             for every edge (u, v)
        Connected(m, roots=A)

    The first three make the set closed (a superset of the flood fill); the
    connectivity node makes it the flood fill itself. Without it a solver
    would count sealed pockets the roots cannot reach.
``require A avoids B`` / ``require A in B``
    one clause per cell: ``~a | ~b`` / ``~a | b``.
``require L OP R``, ``maximize E``
    a :class:`~gridlang.ir.model.Linear` or the objective, with constants moved to
    the right-hand side (``<`` becomes ``<= -1``).
``decide D: {a, b} | P on S`` (an enumeration)
    one-hot: one variable ``D[r,c]=v`` per cell of S and value v, and an
    exactly-one :class:`~gridlang.ir.model.Linear` per cell. ``D = v`` is then the
    cell set of those literals; ``D = value`` picks, at each cell, the literal
    of that cell's own tile value (False where it is not in the domain).
``require S is connected [with size N]``
    ``Connected(S, size=N)`` and, with a size, ``count(S) == N``. A set of at
    most one cell needs no connectivity node. A cell that S always contains
    becomes the node's (single) root.
``require S is a path between E`` (E: exactly two fixed cells)
    ``s(e) = 1`` for both ends; ``sum of s over e's neighbours == 1`` for each
    end; ``s(u) -> sum of s over u's neighbours == 2`` (a Linear with
    enforcement literal ``s(u)``) for every other cell; ``Connected(S,
    roots=E, path=True)``. The degrees leave only one path from one end to the other
    plus closed cycles; connectivity to the ends removes the cycles. (With
    two roots the IR would allow one piece per root, but a piece holding
    only one end would have one cell of odd degree, which no graph has.) Also the
    redundant clause ``~(s(p) & s(q) & s(r) & s(t))`` for each 2x2 block (a
    full block would be a cycle, or give an end two neighbours in S), and the
    chessboard colour count of a path (:meth:`_Compiler.path_parity`).
``require for each k in P: RULE``
    RULE compiled once per value of P, with ``k`` bound to it.
``decide line: bool on edges`` / ``on corner edges``, ``0..2 on edges``, ``line is a loop``, ...
    one variable per edge (one-hot per edge and value for integers);
    degrees as linear terms, bends as Tseitin definitions, a loop, a
    connected line and a component along the line through
    :class:`~gridlang.ir.model.GraphConnected`; corners bound while compiling
    (a construct's, stated in :mod:`gridlang.constructs.edges.lower`, reached
    through the hooks of :mod:`gridlang.language.constructs`).
``require for each neighbours a, b: F``
    for every ordered pair (u, v) of adjacent cells, F with a = u and b = v
    turned into clauses by distribution (NNF, then CNF, no auxiliaries);
    ``D[a] = D[b]`` is ``D[a]=x <-> D[b]=x`` for every value x.

After lowering, one exact strengthening pass (:func:`anchor_connected`):
an unrooted ``Connected`` node with a member fixed true by a unit clause is
rooted there, and with a size N every cell farther than N - 1 steps from
that root (inside the candidate cells) is excluded.

A rule instance that fails whatever the decisions on this map (a clue too
large for its cells, a fixed cell of A that can never be in B) is the empty
clause of that instance: the puzzle is infeasible, as when the solver finds
the conflict, and ``--explain`` names the instance. A failing rule that reads
a parameter, or only constants, and a map value a decision does not have, are
errors located in the parameter's value, the spec or the map cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridlang.compiler.core import _Compiler
from gridlang.compiler.regions import anchor_connected
from gridlang.compiler.tags import TaggedConstraints
from gridlang.core.deadline import Deadline
from gridlang.core.grid import Grid
from gridlang.core.memory import fewer_collections
from gridlang.formats.maps import MapData, build_grid, read_map
from gridlang.formats.params import resolve_params
from gridlang.ir.model import Model
from gridlang.language import ast
from gridlang.language.checker import Symbols
from gridlang.language.parser import parse_and_check_file

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib

__all__ = ["compile_puzzle", "compile_spec", "compile_tagged", "anchor_connected"]


def compile_puzzle(spec_path: str | Path, map_path: str | Path, params: dict[str, str] | None = None) -> Model:
    """Parse, check and compile a spec against a map.

    Args:
        spec_path: the ``.grid`` file.
        map_path: the map or instance file.
        params: parameter values from the command line, as text, by name.

    Returns:
        The compiled model.

    Raises:
        GridlangError: any problem in the spec, the map or the parameters,
            located in its file.
    """
    spec, symbols = parse_and_check_file(spec_path)
    data = read_map(map_path, spec=spec)
    grid = build_grid(symbols, data)
    values = resolve_params(symbols, data, params)
    return compile_spec(spec, symbols, grid, values, map_path=str(map_path), map_data=data)


def compile_spec(spec: ast.Spec, symbols: Symbols, grid: Grid, params: dict[str, object],
                 map_path: str = "", map_data: MapData | None = None, deadline: Deadline | None = None,
                 files: bool = False) -> Model:
    """Compile a checked spec over a built grid.

    Args:
        spec: the parsed spec.
        symbols: its symbol table (from :func:`gridlang.language.checker.check`).
        grid: the map's graph.
        params: every parameter's value.
        map_path: recorded in ``Model.info``.
        map_data: the map as read, used to locate errors in it (a rule
            that cannot hold at a map cell, a parameter from its header).
        deadline: the command's deadline, or None.
        files: the model is to be written to a file: a rule is not stated as a node that only
            the solvers' cut loops lower (the outside vertex of :mod:`.reaching`).

    Returns:
        The model.

    Raises:
        SemanticError: a construct that cannot be compiled (a region used
            before its definition, a negated ``D[a] = D[b]``).
        MapError: a rule cannot hold at some map cell (a clue whose size is
            not in the domain), or a path does not have exactly two ends.
        ParamError: a parameter value makes a rule fail whatever the
            decisions (sizes that leave no room for a path), or repeats a
            value of an enumerated domain.
        BuildTimeout: ``deadline`` (read every 4,096 variables and constraints, and by every step
            that grows with a domain or the grid) passed first, or was stopped (Ctrl-C, the
            memory limit).
    """
    compiler = _Compiler(spec, symbols, grid, params, map_path, map_data)
    compiler.deadline = deadline
    compiler.files = files
    # The cyclic collector stays on while the model is built, run less often (gridlang.core.memory):
    # paused, garbage the compiler leaves in cycles piled up between the memory watchdog's looks.
    with fewer_collections():
        return compiler.run()


def compile_tagged(model: Model) -> tuple[Model, TaggedConstraints]:
    """Compile a model's spec again, each constraint tagged with its rule instance.

    The rule instances (:mod:`.tags`) are what :mod:`gridlang.why` reasons
    over. The pass :func:`anchor_connected` is left out: it strengthens a
    connectivity node with a unit clause of another rule (a root, a size),
    which would tie one instance to another; the model means the same
    without it.

    Args:
        model: a compiled model (its ``source``, grid and parameters are read).

    Returns:
        The model, and the compiler's :class:`~.tags.TaggedConstraints`
        (``tags``: one per constraint, None for a definition;
        ``definitions`` and ``outputs``: which definition made each
        constraint, and its variables).

    Raises:
        ValueError: the model was built by hand (no ``source``).
    """
    if model.source is None:
        raise ValueError("the model has no spec to compile again")
    spec, symbols = model.source
    compiler = _Compiler(spec, symbols, model.grid, dict(model.params), model.info.get("map", ""))
    compiler.anchor = False
    compiler.constraints = TaggedConstraints(compiler)
    compiler.cap_components = False  # an instance left out must not leave its cap behind
    tagged = compiler.run()
    return Model(tagged.name, tagged.grid, tagged.variables, tagged.constraints, tagged.objective,
                 tagged.decisions, tagged.regions, tagged.params, dict(model.info), tagged.source), \
        compiler.constraints
