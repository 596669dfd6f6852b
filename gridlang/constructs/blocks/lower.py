"""The compiler's lowering of blocks of equal values and of runs around a cell.

Each function is given the compiler (:mod:`gridlang.compiler`, its methods
as :mod:`gridlang.language.constructs` lists them) and imports nothing of
it; a literal is ``True``, ``False`` or a variable's number, negative when
negated.

``D = D[p]``
    at each cell q on which D is made, the literal of ``D[q] = D[p]`` (the
    ``or`` over D's values of ``D[q]=v and D[p]=v``); True at p itself;
    empty when D is not made at p.
``count(component of p in (D = D[p])) OP N`` as a rule (no guard)
    with N a number known before solving or a sum in ``D[p]`` alone
    (``== D[p]``, ``<= 3``; D's open value m, :mod:`.domains`, bounded by
    ``(p, m, m, None)``): not lowered cell by cell, but collected, for
    each value v of D at p, into the bound ``(p, v, lo, hi)`` of one
    :class:`~gridlang.ir.model.EqualBlocks` node per decision, stated after the
    last statement: p's block, when D[p] = v, has between lo and hi cells.
    Bounds of several rules on the same cell and value are intersected; a
    value that no block size can meet is excluded by a unit clause. The
    node is one per decision, not one connectivity per cell and value;
    each backend lowers it as its docstring says. Any other use of
    ``component of p in (D = D[p])`` (under a guard, in a sum, compared with
    another decision) is an ordinary ``component of`` (one region per
    cell p, :mod:`gridlang.compiler.cellsets`): exact, and much dearer.
``runs of S around c == L`` (L a clue list: one number, or ``values(c)``)
    the ring's cells' literals in S (off the grid: not in S); every
    assignment of the free literals (at most 2^8) is judged, and the rule
    is the :class:`~gridlang.ir.model.Table` of the allowed rows (CP-SAT takes it
    natively; the other backends get clauses forbidding the other rows,
    :mod:`gridlang.ir.transforms.table`). Under a guard it is those clauses
    with the guard; as a condition (inside ``or``, ``not``) a literal
    equal to the ``or`` of the allowed rows. A ring with no free literal
    is decided while compiling (an error at the map cell when it fails).
"""

from __future__ import annotations

from itertools import product

from gridlang.constructs.blocks.nodes import RING, Runs, SameValue
from gridlang.core.errors import MapError, SemanticError
from gridlang.ir.model import Clause, EqualBlocks, Table
from gridlang.language import ast


class BlockBounds:
    """What the rules on blocks' sizes collected (kept in ``compiler.collected``).

    Attributes:
        bounds: decision -> ``{(cell, value): (lo, hi)}``, ``hi`` None for no upper bound.
        spans: decision -> the span of the first such rule on it.
        open: decision -> its open value (:mod:`.domains`), standing for every value from it up.
    """

    def __init__(self) -> None:
        self.bounds: dict[str, dict[tuple, tuple[int, int | None]]] = {}
        self.spans: dict = {}
        self.open: dict[str, object] = {}


# ------------------------------------------------------------------ D = D[p]
def same_value_members(compiler, e: SameValue, within) -> dict:
    """The cells that may be in ``D = D[p]``, each with True or its literal (only those of ``within``
    when it is not None)."""
    p = compiler.cell_of(e.cell)
    name = e.decision.id
    if p is None or not _labels(compiler, name, p):
        return {}
    out: dict = {}
    cells = range(compiler.grid.size) if within is None else sorted(within)
    for q in cells:
        if q == p:
            out[q] = True
            continue
        if not _labels(compiler, name, q):
            continue
        right = _labels(compiler, name, q)
        both = [compiler.combine(True, [x, right[v]], q) for v, x in _labels(compiler, name, p).items() if v in right]
        v = compiler.combine(False, both, q)
        if v is not False:
            out[q] = v
    return out


def _labels(compiler, name: str, cell: int) -> dict:
    """Value -> literal of decision ``name`` at ``cell`` (a Boolean: True and False); empty off its cells."""
    if name in compiler.enum_lits:
        return dict(compiler.enum_lits[name][cell] or {})
    lit = compiler.decision_lits[name][cell]
    return {} if lit is False else {True: lit, False: False if lit is True else -lit}


# -------------------------------------------------------------- block sizes
def block_rule(compiler, f: ast.Compare, guard: tuple[int, ...], collected: BlockBounds) -> bool:
    """Collect ``count(component of p in (D = D[p])) OP N`` into ``collected`` as bounds of D's blocks;
    False when ``f`` is not of that form, or under a guard (it is then lowered as any comparison)."""
    if guard:
        return False
    found = _block_count(f)
    if found is None:
        return False
    component, other, op = found
    p = compiler.cell_of(component.cell)
    name = component.within.decision.id
    if p is None or p != compiler.cell_of(component.within.cell):
        return False
    labels = _labels(compiler, name, p)
    if not labels:
        return False
    terms, const = compiler.linear(other)
    own = {abs(lit): value for value, lit in labels.items() if not isinstance(lit, bool)}
    if any(abs(lit) not in own for _, lit in terms):
        return False  # compared with other decisions: an ordinary comparison
    bounds = collected.bounds.setdefault(name, {})
    collected.spans.setdefault(name, compiler.current.span if compiler.current is not None else f.span)
    for value, lit in labels.items():
        n = const + sum(c for c, l in terms if own.get(abs(l)) == value and l > 0)
        lo, hi = {"==": (n, n), "<=": (1, n), "<": (1, n - 1), ">=": (n, None), ">": (n + 1, None)}[op]
        if collected.open.get(name) == value:
            lo, hi = n, None  # the open value: a block of any size from it up (.domains)
        old_lo, old_hi = bounds.get((p, value), (1, None))
        lo, hi = max(lo, old_lo, 1), hi if old_hi is None else old_hi if hi is None else min(hi, old_hi)
        bounds[(p, value)] = (lo, hi)
    return True


def equal_blocks(compiler, collected: BlockBounds) -> list:
    """The :class:`~gridlang.ir.model.EqualBlocks` node of each decision whose blocks' sizes rules bound,
    and a unit clause for each value a bound leaves impossible."""
    out: list = []
    for name, bounds in collected.bounds.items():
        span = collected.spans[name]
        cells = []
        for cell in range(compiler.grid.size):
            labels = _labels(compiler, name, cell)
            options = tuple((value, lit) for value, lit in labels.items() if lit is not False)
            if options:
                cells.append((cell, options))
        rows = []
        for (cell, value), (lo, hi) in sorted(bounds.items(), key=lambda kv: (kv[0][0], _order(kv[0][1]))):
            lit = _labels(compiler, name, cell)[value]  # never False: p's labels are the cell's options
            if hi is not None and hi < lo or lo > len(cells):
                out.append(Clause((-lit,), span) if lit is not True else Clause((), span))
                continue
            rows.append((cell, value, lo, hi))
        out.append(EqualBlocks(tuple(cells), tuple(rows), name, span))
    return out


def _block_count(f: ast.Compare):
    """``(component, other side, op with the count on the left)`` of ``count(component of p in (D =
    D[p])) OP N`` (either way round), else None."""
    flip = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "=="}
    for side, other, op in ((f.left, f.right, f.op), (f.right, f.left, flip[f.op])):
        if (isinstance(side, ast.Count) and isinstance(side.operand, ast.Component)
                and isinstance(side.operand.within, SameValue)):
            return side.operand, other, op
    return None


def _order(value) -> tuple:
    """A sort key for values of any kind (numbers, names, True/False)."""
    return (type(value).__name__, str(value)) if not isinstance(value, int) or isinstance(value, bool) \
        else ("int", value)


# ---------------------------------------------------------------------- runs
def ring_runs(bits) -> list[int]:
    """The lengths of the maximal runs of True in a cyclic sequence of eight truth values (a full ring: [8])."""
    bits = list(bits)
    if all(bits):
        return [len(bits)]
    k = bits.index(False)
    out, run = [], 0
    for b in bits[k + 1:] + bits[:k + 1]:
        if b:
            run += 1
        elif run:
            out.append(run)
            run = 0
    return out


def runs_match(lengths: list[int], clue: tuple[int | None, ...]) -> bool:
    """Whether run lengths meet a clue list: equal as multisets, a ``None`` (``?``) matching any
    length; no run at all counts as the one length 0 (pzprjs Tapa), so ``[0]`` and ``[?]`` match it."""
    left = list(lengths) or [0]
    if len(left) != len(clue):
        return False
    for entry in clue:
        if entry is None:
            continue
        if entry not in left:
            return False
        left.remove(entry)
    return True


def runs_table(compiler, runs: Runs, other) -> tuple[int | None, list[int], list[tuple[bool, ...]]]:
    """The ring of ``runs of S around c == L``: ``(c, free literals, allowed rows of them)``.

    Raises:
        MapError, SemanticError: L is no clue list (located at the map cell, or in the spec).
    """
    c = compiler.cell_of(runs.cell)
    clue = clue_list(compiler, other)
    ring: list = [False] * 8
    if c is not None:
        grid = compiler.grid
        r0, c0 = grid.cell(c)
        where = {}
        for k, (dr, dc) in enumerate(RING):
            r, col = r0 + dr, c0 + dc
            if 0 <= r < grid.rows and 0 <= col < grid.cols:
                where[grid.index(r, col)] = k
        inside = compiler.members(runs.within, set(where))
        for cell, k in where.items():
            ring[k] = inside.get(cell, False)
    variables = sorted({abs(v) for v in ring if not isinstance(v, bool)})
    allowed = []
    for values in product((False, True), repeat=len(variables)):
        value = dict(zip(variables, values))
        bits = [v if isinstance(v, bool) else value[abs(v)] == (v > 0) for v in ring]
        if runs_match(ring_runs(bits), clue):
            allowed.append(values)
    return c, variables, allowed


def clue_list(compiler, e) -> tuple[int | None, ...]:
    """The clue list a runs comparison reads: the numbers of ``values(c)``'s cell, separated by
    commas in its text (``?`` an unknown entry), or one number known before solving.

    Raises:
        MapError: the cell of ``values(c)`` holds no clue list (at the map cell).
        SemanticError: ``e`` is not known before solving.
    """
    if isinstance(e, ast.ValuesOf):
        i = compiler.cell_of(e.cell)
        text = "" if i is None else str(compiler.grid.chars[i])
        entries = text.split(",")
        if not entries or not all(x == "?" or x.isascii() and x.isdigit() for x in entries):
            raise _map_error(compiler, i, f"values(c) reads a clue list; {text!r} holds none", e)
        return tuple(None if x == "?" else int(x) for x in entries)
    n = compiler.constant(e)
    if n is None:
        raise SemanticError("'runs of S around c' is compared with a clue list known from the map",
                            getattr(e, "span", None), source=compiler.spec.source)
    return (n,)


def _map_error(compiler, i: int | None, message: str, e) -> Exception:
    if i is not None and compiler.map_data is not None:
        r, c = compiler.grid.cell(i)
        return MapError(f"row {r + 1}, column {c + 1}: {message}", compiler.map_data.span(r, c),
                        source=compiler.map_data.source)
    return SemanticError(message, getattr(e, "span", None), source=compiler.spec.source)


def assert_runs(compiler, f: ast.Compare, runs: Runs, other, guard: tuple[int, ...]) -> None:
    """State ``runs of S around c == L`` under ``guard``: a table, or clauses with the guard.

    Raises:
        MapError, SemanticError: no ring meets the clue, whatever the decisions (through
            ``compiler.fails``), or L is no clue list.
    """
    c, variables, allowed = runs_table(compiler, runs, other)
    if len(allowed) == 2 ** len(variables):
        return
    if not allowed:
        compiler.fails(guard, f, c)
        return
    span = compiler.current.span if compiler.current is not None else f.span
    if not guard:
        name = f"runs around {compiler.grid.cell_name(c)}" if c is not None else "runs"
        compiler.constraints.append(Table(tuple(variables), tuple(allowed), name, span))
        return
    # Here only: importing gridlang.ir.transforms (its encodings, 10 ms) is for the backends that decompose.
    from gridlang.ir.transforms.table import forbidden_clauses

    for clause in forbidden_clauses(tuple(variables), tuple(allowed)):
        compiler.clause([-g for g in guard] + list(clause), span)


def runs_lit(compiler, runs: Runs, other):
    """One literal equal to ``runs of S around c == L``: the ``or`` of its allowed rows."""
    _, variables, allowed = runs_table(compiler, runs, other)
    rows = [compiler.combine(True, [v if bit else -v for v, bit in zip(variables, row)], None) for row in allowed]
    return compiler.combine(False, rows, None)
