"""Counts along a line of sight tested against zero, lowered as one suffix chain per line.

``count(X and sight from p toward q through S) == 0`` (or ``> 0``, ``>= 1``,
``<= 0``, ``< 1``) asks whether any cell of X stands in p's line of sight.
Lowered as a sum, every cell looks along its whole line: a line of L cells
costs each of its cells a row (or an ``or``) of up to L literals, L squared
in all, and Akari's "every white cell is lit" is such a test from every
white cell in each of four directions ("no light shines on another" in two).

Here the test is the literal ``a(c1)`` of a chain built from the far end of
the line c1, c2, ..., ck: ``a(ck) = m(ck)``, ``a(ci) = m(ci) or a(ci+1)``,
where ``m(c)`` is c's membership of the counted set (X's literal at c, and
with S not known from the map also S's chain to c). Each ``or`` is a Tseitin
definition hash-consed on its two literals (``combine``), so the lines from
p and from p + d in the same direction share every link after the first:
the lines of one segment of cells known to be in S (a row or column run
between black cells) cost one auxiliary variable and three clauses per cell
and direction, linear in the cells, where the sum cost L squared. The
meaning is the same (a count of 0/1 members is positive exactly when their
``or`` holds), and unit propagation is as strong: a true ``m(ci)`` makes
every ``a`` before it true, a false ``a(ci)`` every member after it false.
This is the segment formulation of Light Up used by SAT and CP models (one
variable per cell and direction saying "a light lies this way"), found by
the compiler from any spec that counts along a sight line.

Part of the compiler: functions handed the compiler (:class:`~gridlang.compiler.core._Compiler`),
imported by :meth:`~gridlang.compiler.formulas.FormulaLowering.sight_test` and
:meth:`~gridlang.compiler.formulas.FormulaLowering.subset_left` for a rule that counts, or states
``in``, along a line of sight: a spec that never does loads none of this.
"""

from __future__ import annotations

from gridlang.compiler.diagnostics import names_in
from gridlang.ir.literals import CellValue, neg
from gridlang.language import ast

# The comparisons of a count c with a known k that mean "c >= 1" (True) or "c <= 0" (False), by
# the count's side: left (c OP k) or right (k OP c).
_ANY = {
    "left": {
        (">", 0): True,
        (">=", 1): True,
        ("==", 0): False,
        ("<=", 0): False,
        ("<", 1): False,
    },
    "right": {
        ("<", 0): True,
        ("<=", 1): True,
        ("==", 0): False,
        (">=", 0): False,
        (">", 1): False,
    },
}


def sight_test(compiler, f: ast.Compare) -> CellValue | None:
    """The literal (or constant) of ``count(E) OP k`` when E lies on one line of sight and the
    comparison asks only whether E has a member, else None (the caller lowers it as a sum).

    E is ``sight from p toward q through S`` or an ``and`` with one such operand; k is known
    before solving. The literal is the first link of the suffix chain of E's members along the
    line (the module's docstring), shared with every line that ends the same way. Which side is
    the count, and k when it names no ``for each`` variable, are found once per node.
    """
    plans = compiler.__dict__.setdefault("_sight_tests", {})
    entry = plans.get(id(f))
    if entry is None or entry[0] is not f:
        entry = plans[id(f)] = (f, _sight_plan(compiler, f))
    if entry[1] is None:
        return None
    operand, shape, other, name, k = entry[1]
    if k is None:
        k = compiler.constant(other)
    if k is None or (f.op, k) not in _ANY[name]:
        return None
    seen = _any_on_line(compiler, operand, shape)
    return seen if _ANY[name][f.op, k] else neg(seen)


def _sight_plan(compiler, f: ast.Compare) -> tuple | None:
    """``(E, its line's shape, the other side, "left" or "right", k or None)`` of a count along one
    sight line compared with the other side, else None; k is given when that side names nothing."""
    for side, other, name in (
        (f.left, f.right, "left"),
        (f.right, f.left, "right"),
    ):
        if not isinstance(side, ast.Count):
            continue
        shape = _line_shape(compiler, side.operand)
        if shape is None:
            continue
        return (
            side.operand,
            shape,
            other,
            name,
            None if names_in(other) else compiler.constant(other),
        )
    return None


def _line_shape(compiler, e: ast.Expr) -> tuple | None:
    """``(sight, rest, chain key, names)`` of a set bounded by one sight line, else None; found once
    per AST node (the node is kept with it, so its ``id`` stays its own), the key an integer
    shared by every node of the same structure (the AST is hashed once, not per rule instance)."""
    shapes = compiler.__dict__.setdefault("_sight_shapes", {})
    entry = shapes.get(id(e))
    if entry is None or entry[0] is not e:
        sight = _sight_of(e)
        shape = None
        if sight is not None:
            rest = (
                tuple(g for g in e.operands if g is not sight)
                if isinstance(e, ast.And)
                else ()
            )
            keys = compiler.__dict__.setdefault("_sight_keys", {})
            key = keys.setdefault((rest, sight.within), len(keys))
            shape = (sight, rest, key, frozenset(names_in(rest + (sight.within,))))
        entry = shapes[id(e)] = (e, shape)
    return entry[1]


def _any_on_line(compiler, e: ast.Expr, shape: tuple) -> CellValue:
    sight, rest, key, names = shape
    p = compiler.cell_of(sight.cell)
    if p is None:
        return False
    if names and not (names.isdisjoint(compiler.bound) and names.isdisjoint(compiler.env)):
        # a set that depends on the bindings: its members on this line, folded from the far end
        members = compiler.members(e)
        acc: CellValue = False
        for i in sorted(members, key=lambda i: abs(i - p), reverse=True):
            acc = compiler.combine(False, [members[i], acc], i)
        return acc
    toward = compiler.bound.get(sight.toward.id) if type(sight.toward) is ast.Name else None
    if toward is not None and toward[0] == "cell":  # toward a bound cell (Akari's q): its step by index
        step = _side_step(p, toward[1], compiler.grid.cols)
        if step is None:
            compiler.line_beyond(p, toward[1], sight.span)  # the located error: q is not beside p
    elif _steps_from(sight):  # toward p + right, the cell from which it looks: that step (off the grid, no line)
        step = sight.toward.right.step
    elif compiler.is_direction(sight.toward):
        step = compiler.step_of(sight.toward)
    else:
        q = compiler.cell_of(sight.toward)
        step = None
        if q is not None:
            (r, c), (r2, c2) = compiler.grid.cell(p), compiler.grid.cell(q)
            step = (r2 - r, c2 - c)
            if abs(step[0]) + abs(step[1]) != 1:
                compiler.line_beyond(
                    p, q, sight.span
                )  # the located error: q is not beside p
    if step is None:
        return False
    starts = compiler.__dict__.setdefault(
        "_sight_starts", {}
    )  # (set, direction, p) -> its chain's first link
    start = starts.get((key, step, p))
    if start is None:
        start = starts[key, step, p] = _chain(compiler, 
            rest, sight.within, (key, step), p
        )
    return start


def _chain(compiler, rest: tuple, within: ast.Expr, key: tuple, p: int) -> CellValue:
    """``a(c)`` for the first cell c of the line from p: ``a(c) = S(c) and (X(c) or a(c + d))``,
    each link made once per (set, direction, cell) and looked up after. A set that is a name (a
    tile, a decision, a region: nothing to make) is read whole once per chain key, not a cell at
    a time."""
    links = compiler.__dict__.setdefault("_sight_links", {})
    read = compiler.__dict__.setdefault("_sight_read", {})
    sets = read.get(key[0])
    if sets is None:
        sets = read[key[0]] = [
            compiler.members(g) if isinstance(g, (ast.Name, ast.AllCells)) else None
            for g in (within, *rest)
        ]

    def at(k: int, g: ast.Expr, c: int) -> CellValue:
        whole = sets[k]
        return (
            whole.get(c, False)
            if whole is not None
            else compiler.members(g, {c}).get(c, False)
        )

    line = compiler.line_range(p, key[1])
    todo = []
    acc: CellValue = False
    for c in line:
        if (key, c) in links:
            acc = links[key, c]
            break
        inside = at(0, within, c)
        todo.append((c, inside))
        if inside is False:
            break
    for c, inside in reversed(todo):
        if inside is False:
            acc = False
        else:
            if not rest:
                here = True
            elif len(rest) == 1:
                here = at(1, rest[0], c)
            else:
                here = compiler.combine(
                    True, [at(k, g, c) for k, g in enumerate(rest, 1)], c
                )
            acc = compiler.combine(False, [here, acc], c)
            if inside is not True:
                acc = compiler.combine(True, [inside, acc], c)
        links[key, c] = acc
    return acc


def subset_left(compiler, f: ast.Subset) -> dict[int, CellValue]:
    """The members of ``f.left`` that ``f`` (``A in B``, ``A avoids B``) must be stated on, for
    ``(sight from p toward q through S) in B``: the line up to its first cell surely out of B:
    the chain makes every later cell seen only if that one is, so their clauses follow from its
    (Heyawake's "no unshaded run spans more than two rooms" looks into the next room and one
    cell beyond, not to the edge of the grid).
    """
    line = compiler.sight_line(f.left)
    within = compiler.members(f.right, set(line))
    cut = next(
        (k for k, i in enumerate(line) if within.get(i, False) is False), len(line)
    )
    return compiler.members(f.left, set(line[: cut + 1]))


def _sight_of(e: ast.Expr) -> ast.Sight | None:
    """The one line of sight that bounds the set ``e`` (``e`` itself, or one operand of an ``and``)."""
    if isinstance(e, ast.Sight):
        return e
    if isinstance(e, ast.And):
        sights = [g for g in e.operands if isinstance(g, ast.Sight)]
        return sights[0] if len(sights) == 1 else None
    return None


def _side_step(p: int, q: int, cols: int) -> tuple[int, int] | None:
    """The ``(rows, columns)`` step from cell p to cell q on a grid ``cols`` wide when q is p's side
    neighbour, else None."""
    d = q - p
    if d == cols or d == -cols:
        return (d // cols, 0)
    if (d == 1 or d == -1) and p // cols == q // cols:
        return (0, d)
    return None


def _steps_from(sight: ast.Sight) -> bool:
    """Whether ``sight`` looks from a cell variable p toward ``p + d`` with d a direction literal."""
    toward, cell = sight.toward, sight.cell
    return (type(toward) is ast.Add and type(toward.right) is ast.Direction and type(toward.left) is ast.Name
            and type(cell) is ast.Name and toward.left.id == cell.id)
