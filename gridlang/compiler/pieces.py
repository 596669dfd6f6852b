"""Shapes: polyomino placements for ``is a piece of`` and ``consists of``.

Part of the compiler: functions of the compiler (:class:`~gridlang.compiler.core._Compiler`) it is
handed, imported by the lowering of a node of shapes when it meets one, so that a spec without
shapes loads neither this module nor :mod:`gridlang.core.shapes`.

``S is a piece of F``
    P ranges over the placements (any rotation or reflection) of F's shapes
    on the cells S may hold that hold every cell S surely holds (a fixed
    cell, or a literal a rule's one-literal clause fixed: Shikaku's
    ``owner[c] = c`` leaves the rectangles through c). Stated as a rule:
    one new variable ``y(P)`` per placement, ``sum y == 1`` and ``s(c) == sum of y(P) over P holding c``
    for every such cell. As a condition: the ``or`` over P of ``S == P``,
    which is ``s(c)`` for the k cells c of P and ``count(S) <= k`` (one
    reified count per set and size, shared by the placements), or, when
    the rule above already holds for the same set, the ``or`` of the
    ``y(P)`` of the shapes asked for.
``S consists of F``
    one variable per entry k of F and placement P: ``sum over P of y(k, P) ==
    1`` for each k; ``s(c) == sum of y(k, P) over the (k, P) holding c``;
    and ``~y(k, P) | ~s(v)`` for every cell v that shares a side with P
    without being in it, so two pieces never touch.

Size and time: linear in the placements and their cells. The placements
are counted (or, where the set may hold every cell, computed) before their
variables are made, and the rim clauses before they are written, so that a
family too large for the map is refused at its statement
(:data:`~gridlang.core.limits.MAX_VARIABLES`,
:data:`~gridlang.core.limits.MAX_CONSTRAINTS`) without being built; the
compiler's budget (:meth:`~gridlang.compiler.core._Compiler.tick`) is read
while they are generated.
"""

from __future__ import annotations

from gridlang.core import shapes as polyomino
from gridlang.core.errors import SemanticError
from gridlang.core.limits import MAX_CONSTRAINTS, MAX_VARIABLES
from gridlang.ir.literals import CellValue, neg
from gridlang.ir.model import Cmp, Linear
from gridlang.language import ast

Placement = tuple[int, ...]
"""A placement's cell indices, ascending."""

TICK = 0xFFF
"""The compiler's budget is read every ``TICK + 1`` placements generated."""


def family_shapes(compiler, fam: ast.Shapes) -> list[tuple[tuple[int, int], ...]]:
    """The shapes of a family, one per entry (canonical forms; an entry of a listed size twice, twice)."""
    if fam.kind == "var":
        if fam.arg.id in compiler.bound:
            return [compiler.bound[fam.arg.id][1]]
        return list(compiler.params[fam.arg.id])  # a `shapes` parameter: canonical shapes
    if fam.kind in ("rectangles", "squares"):
        sizes = range(1, compiler.grid.size + 1) if fam.arg is None else [compiler.constant(fam.arg)]
        make = polyomino.rectangles if fam.kind == "rectangles" else polyomino.squares
        return [shape for n in sizes for shape in make(n, compiler.grid.rows, compiler.grid.cols)]
    if isinstance(fam.arg, ast.Name) and compiler.sym.params.get(fam.arg.id) is not None \
            and compiler.sym.params[fam.arg.id].type == "set of int":
        sizes = list(compiler.params[fam.arg.id])
    else:
        sizes = [compiler.constant(fam.arg)]
    out = []
    for k in sizes:
        try:
            out.extend(polyomino.polyominoes(k))
        except ValueError as e:
            raise SemanticError(str(e), fam.span, source=compiler.spec.source) from e
    return out


def piece_placements(compiler, cand: dict[int, CellValue], shapes, one: bool = False
                     ) -> list[tuple[int, Placement]]:
    """``(entry, placement)`` for each entry of ``shapes`` and each of its placements on the cells of ``cand``.

    With ``one`` (the set is one piece), only the placements that hold every cell the set surely
    holds: True, or a literal a rule's one-literal clause made true (``owner[c] = c``). The others
    could only be chosen with that cell out of the set, so leaving them out changes no answer; for
    Shikaku's ``(owner = c) is a piece of rectangles(N)`` it keeps the rectangles through c, which
    are the only ones tried.

    Raises:
        SemanticError: more placements than the model has variables left
            (:data:`~gridlang.core.limits.MAX_VARIABLES`), at the statement;
            computed before any is made when the set may hold every
            cell and surely holds none, else counted as they are made.
        BuildTimeout: the deadline passed (or the memory limit was reached) meanwhile.
    """
    room = MAX_VARIABLES - len(compiler.variables)
    rows, cols = compiler.grid.rows, compiler.grid.cols
    surely = sorted(i for i, v in cand.items() if v is True or v in compiler.units) if one else []
    if len(cand) == rows * cols and not surely:
        total = sum(polyomino.count_placements(shape, rows, cols) for shape in shapes)
        if total > room:
            raise compiler.size_error(len(compiler.variables) + total, MAX_VARIABLES, "variables")
    allowed = frozenset(cand)
    through = surely[0] if surely else None
    out: list[tuple[int, Placement]] = []
    for k, shape in enumerate(shapes):
        for cells in polyomino.placements(shape, rows, cols, allowed, through):
            if len(surely) > 1 and not set(surely) <= set(cells):
                continue
            out.append((k, cells))
            if not len(out) & TICK:
                if len(out) > room:
                    raise compiler.size_error(len(compiler.variables) + len(out), MAX_VARIABLES, "variables")
                compiler.tick()
    if len(out) > room:
        raise compiler.size_error(len(compiler.variables) + len(out), MAX_VARIABLES, "variables")
    return out


def piece_set(compiler, e: ast.Expr) -> tuple[dict[int, CellValue], tuple]:
    """``(members, key)`` of the set S of ``S is a piece of F``: its cells with their literals, and the
    sorted (cell, literal) pairs that :attr:`pieces` is keyed by. Evaluated once per node and values of
    the ``for each`` names it mentions (:meth:`binding_key`): LITS's "same shapes do not touch" asks
    for a room's piece of each of five shapes at every pair of cells, the same set each time."""
    frame = compiler.binding_key(e)
    found = compiler.piece_sets.get(frame)
    if found is None:
        cand = compiler.members(e)
        found = compiler.piece_sets[frame] = (cand, tuple(sorted(cand.items())))
    return found


def piece_lit(compiler, f: ast.IsPiece) -> CellValue:
    """The literal of ``S is a piece of F`` (see the module docstring)."""
    cand, key = piece_set(compiler, f.cells)
    wanted = frozenset(family_shapes(compiler, f.family))
    chosen = compiler.pieces.get(key)
    if chosen is not None:  # the or of the chosen placements' variables, once per set and shapes
        found = compiler.piece_lits.get((key, wanted))
        if found is None or found[0] is not chosen:
            lit = compiler.combine(False, [y for shape, y in chosen if shape in wanted], None)
            found = compiler.piece_lits[key, wanted] = (chosen, lit)
        return found[1]
    shapes = list(dict.fromkeys(family_shapes(compiler, f.family)))
    sizes = {len(shape) for shape in shapes}
    # count(S) <= k, once per size: with the k cells of P in S, S == P.
    terms = tuple((1, v) for _, v in sorted(cand.items()) if v is not True)
    fixed = sum(v is True for v in cand.values())
    at_most = {k: compiler.reify(terms, Cmp.LE, k - fixed) for k in sizes}
    options = [compiler.combine(True, [cand[i] for i in cells] + [at_most[len(cells)]], None)
               for _, cells in piece_placements(compiler, cand, shapes, one=True)]
    return compiler.combine(False, options, None)


def assert_piece(compiler, f: ast.IsPiece, guard: tuple[int, ...]) -> None:
    """``S is a piece of F`` as a rule: one-hot over the placements."""
    span = compiler.current.span if compiler.current is not None else None
    cand = compiler.members(f.cells)
    shapes = list(dict.fromkeys(family_shapes(compiler, f.family)))
    options = piece_placements(compiler, cand, shapes, one=True)
    if not options:
        compiler.clause_under(guard, [], f)
        return
    compiler.piece_count += 1
    placed = [(cells, compiler.new_var("piece", None, f"{compiler.piece_count}.{n}"))
              for n, (_, cells) in enumerate(options)]
    compiler.constraints.append(Linear(tuple((1, y) for _, y in placed), Cmp.EQ, 1, guard, span))
    cover(compiler, cand, placed, guard, span)
    if not guard:
        compiler.pieces[tuple(sorted(cand.items()))] = [(shapes[k], y) for (k, _), (_, y) in zip(options, placed)]


def cover(compiler, cand: dict[int, CellValue], placed: list[tuple[Placement, int]], guard, span) -> None:
    """``s(c) == sum of y over the placements holding c``, for every cell S may hold."""
    holding: dict[int, list[int]] = {}
    for cells, y in placed:
        for i in cells:
            holding.setdefault(i, []).append(y)
    for i, v in sorted(cand.items()):
        terms = [(-1, y) for y in holding.get(i, ())]
        rhs = 0
        if v is True:
            rhs = -1
        else:
            terms.append((1, v))
        if not terms:
            compiler.clause_under(guard, [neg(v)], None)
            continue
        compiler.constraints.append(Linear(tuple(terms), Cmp.EQ, rhs, guard, span))


def assert_consists(compiler, f: ast.ConsistsOf) -> None:
    """``S consists of F`` (a rule on its own line): one placement per entry, apart."""
    span = compiler.current.span if compiler.current is not None else None
    cand = compiler.members(f.cells)
    shapes = family_shapes(compiler, f.family)
    options = piece_placements(compiler, cand, shapes)
    cols, rows = compiler.grid.cols, compiler.grid.rows
    rims = []
    total = len(compiler.constraints)
    for n, (_, cells) in enumerate(options):
        inside = set(cells)
        rim = set()
        for i in cells:
            r, c = divmod(i, cols)
            for v, ok in ((i - cols, r > 0), (i + cols, r < rows - 1), (i - 1, c > 0), (i + 1, c < cols - 1)):
                if ok and v not in inside and v in cand:
                    rim.add(v)
        rims.append(sorted(rim))
        total += len(rim)
        if not (n + 1) & TICK:
            compiler.tick()
        if total > MAX_CONSTRAINTS:
            raise compiler.size_error(total, MAX_CONSTRAINTS, "constraints")
    compiler.piece_count += 1
    placed: list[tuple[Placement, int]] = []
    per_entry: dict[int, list[int]] = {k: [] for k in range(len(shapes))}
    for n, (k, cells) in enumerate(options):
        y = compiler.new_var("piece", None, f"{compiler.piece_count}.{k}.{n}")
        placed.append((cells, y))
        per_entry[k].append(y)
    for k, ys in per_entry.items():
        if not ys:
            compiler.fails((), f)
        compiler.constraints.append(Linear(tuple((1, y) for y in ys), Cmp.EQ, 1, (), span))
    cover(compiler, cand, placed, (), span)
    for (cells, y), rim in zip(placed, rims):
        for v in rim:
            compiler.clause([-y, neg(cand[v])], span)
