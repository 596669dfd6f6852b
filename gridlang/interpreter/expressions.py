"""Sets and numbers of a spec, evaluated on one answer (its conditions: :mod:`gridlang.interpreter.conditions`).

Part of :class:`~gridlang.interpreter.core.Interpreter` (a mixin): plain
sets of cell indices, breadth-first search and integer arithmetic, with the
meanings stated in :mod:`gridlang.interpreter`.
"""

from __future__ import annotations

from collections import deque

from gridlang.core.errors import SemanticError, Span
from gridlang.core.grid import Grid, cell_name, room_label
from gridlang.core.nodes import field_names
from gridlang.core.shapes import polyominoes
from gridlang.interpreter.clues import ClueMeanings
from gridlang.interpreter.conditions import Conditions, _same
from gridlang.interpreter.graph import reached
from gridlang.interpreter.places import Places
from gridlang.interpreter.verdict import _rc
from gridlang.language import ast
from gridlang.language.constructs import construct_of


class Expressions(Conditions, Places):
    """Cell sets, numbers and geometry (a mixin of the interpreter; its conditions are
    :class:`~gridlang.interpreter.conditions.Conditions`'). A set or number is evaluated by the method
    its node's type names in ``_CELLS`` or ``_NUMBERS``: one dictionary look-up per node."""

    def cells(self, e: ast.Expr) -> frozenset[int]:
        """The cell set ``e`` denotes on this answer (cell indices).

        Raises:
            SemanticError: ``e`` is no cell set, or names a region before its ``region`` statement.
        """
        handler = _CELLS.get(type(e))
        if handler is not None:
            return handler(self, e)
        construct = construct_of(e)
        if construct is not None:
            return construct.cells(self, e)
        raise SemanticError("expected a cell set", getattr(e, "span", None), source=self.spec.source)

    def named_cells(self, e: ast.Name) -> frozenset[int]:
        """The cells a name denotes: a ``for each`` cell or set, a tile or tag, a decision, a region."""
        if e.id in self.cellvars:
            return frozenset((self.cellvars[e.id],))
        if e.id in self.setvars:
            return self.setvars[e.id][0]
        if e.id in self.fixed:
            return self.fixed[e.id]
        if e.id in self.bools:
            return self.bools[e.id]
        kind = self.sym.kind_of(e.id)
        if kind in ("tile", "tag"):
            owners = {e.id} if kind == "tile" else set(self.sym.tags[e.id])
            self.fixed[e.id] = frozenset(i for i, t in enumerate(self.grid.tiles) if t in owners)
            return self.fixed[e.id]
        if kind == "decision":
            return self.bools[e.id]
        if kind == "region":
            if e.id not in self.regions:
                raise SemanticError(f"region {e.id!r} is used before its definition", e.span,
                                    source=self.spec.source)
            return self.regions[e.id]
        raise SemanticError(f"{e.id!r} is not a cell set", e.span, source=self.spec.source)

    # one method per kind of set node, in _CELLS ---------------------------------------------------
    def _and_cells(self, e: ast.And) -> frozenset[int]:
        operands = e.operands
        out = self.cells(operands[0])
        for p in operands[1:]:
            out = out & self.cells(p)
        return out

    def _one_cell(self, e: ast.Add) -> frozenset[int]:
        p = self.cell(e)
        return frozenset(() if p is None else (p,))

    def _around_cells(self, e: ast.Around) -> frozenset[int]:
        p = self.cell(e.cell)
        return frozenset() if p is None else self.around(e.kind, p)

    def _line_cells(self, e: ast.LineOf) -> frozenset[int]:
        p = self.cell(e.cell)
        if p is None:
            return frozenset()
        cols = self.grid.cols
        if e.kind == "row":
            return frozenset(range(p - p % cols, p - p % cols + cols))
        if e.kind == "column":
            return frozenset(range(p % cols, self.n, cols))
        return self.room_sets(e.span).get(self.rooms(e.span)[p], frozenset())  # none: a cell in no room

    def _sight_cells(self, e: ast.Sight) -> frozenset[int]:
        start = self.sight_start(e)
        if start is None:
            return frozenset()
        r, c, dr, dc, within = start
        rows, cols = self.grid.rows, self.grid.cols
        seen = []
        while 0 <= r < rows and 0 <= c < cols and r * cols + c in within:
            seen.append(r * cols + c)
            r, c = r + dr, c + dc
        return frozenset(seen)

    def sight_start(self, e: ast.Sight) -> tuple[int, int, int, int, frozenset[int]] | None:
        """Where a sight starts: the row and column of the first cell it looks at (perhaps off the grid),
        the step (rows, columns) and the cells it looks through; None when it sees nothing (its cell or
        direction off the grid).

        Raises:
            SemanticError: ``toward`` a cell not beside the sight's.
        """
        p = self.cell(e.cell)
        if p is None:
            return None
        cols = self.grid.cols
        toward = e.toward
        if type(toward) in _STEPPED or type(toward) is ast.Name and toward.id in self.dirvars:
            q = None
            step = self.step(toward)
            if step is None:
                return None
            dr, dc = step
            r, c = divmod(p, cols)
            r2, c2 = r + dr, c + dc
        else:
            q = self.cell(toward)
            if q is None:
                return None
            (r, c), (r2, c2) = divmod(p, cols), divmod(q, cols)
            dr, dc = r2 - r, c2 - c
        if abs(dr) + abs(dc) != 1:
            raise SemanticError(f"'sight from p toward q' needs q beside p; {_rc(self.grid, q)} is not beside "
                                f"{_rc(self.grid, p)}", e.span, source=self.spec.source)
        return r2, c2, dr, dc, self.cells(e.within)

    def nonempty(self, e: ast.Expr) -> bool:
        """Whether the cell set ``e`` has a cell: ``S and sight from p ...`` walks the sight up to the first
        cell of S (the commonest count compared with 0: seen from p), any other set is made whole."""
        if type(e) is ast.And:
            sights = [o for o in e.operands if type(o) is ast.Sight]
            if sights:
                others = [self.cells(o) for o in e.operands if o is not sights[0]]
                start = self.sight_start(sights[0])
                if start is None:
                    return False
                r, c, dr, dc, within = start
                rows, cols = self.grid.rows, self.grid.cols
                other = others[0] if len(others) == 1 else None  # light and sight ...: one set to look up
                while 0 <= r < rows and 0 <= c < cols and r * cols + c in within:
                    i = r * cols + c
                    if i in other if other is not None else all(i in cells for cells in others):
                        return True
                    r, c = r + dr, c + dc
                return False
        return bool(self.cells(e))

    def _component_cells(self, e: ast.Component) -> frozenset[int]:
        p = self.cell(e.cell)
        within = self.cells(e.within)
        if p is None or p not in within:
            return frozenset()
        # p's piece alone (not every piece of the set): a rule at every cell reads one piece each
        return frozenset(reached(self.adj, (p,), within))

    def _border_cells(self, e: ast.Border) -> frozenset[int]:
        return self.border

    def _all_cells(self, e: ast.AllCells) -> frozenset[int]:
        return self.all

    def _not_cells(self, e: ast.Not) -> frozenset[int]:
        return self.all - self.cells(e.operand)

    def _or_cells(self, e: ast.Or) -> frozenset[int]:
        return frozenset().union(*(self.cells(p) for p in e.operands))

    def _is_cells(self, e: ast.Is) -> frozenset[int]:
        name = e.decision.id
        values = self.enums[name]
        if type(e.value) is ast.TileValue:
            return frozenset(i for i, v in values.items() if _same(v, self.tile_value(i, e.value.span)))
        target = self.resolve(name, e.value, None)
        return frozenset(i for i, v in values.items() if _same(v, target))

    def number(self, e: ast.Expr) -> int:
        """The integer ``e`` denotes on this answer.

        Raises:
            SemanticError: ``e`` is no number, or reads a number the map or the answer does not hold.
        """
        handler = _NUMBERS.get(type(e))
        if handler is not None:
            return handler(self, e)
        construct = construct_of(e)
        if construct is not None:
            return construct.number(self, e)
        raise SemanticError("expected a number", getattr(e, "span", None), source=self.spec.source)

    # one method per kind of number node, in _NUMBERS ------------------------------------------------
    def _int_number(self, e: ast.IntLit) -> int:
        return e.value

    def _at_number(self, e: ast.At) -> int:
        p = self.cell(e.cell)
        if p is None:
            return 0
        value = self.enums[e.name.id].get(p)
        if not isinstance(value, int) or isinstance(value, bool):
            raise SemanticError(f"{e.name.id!r} has no number at {_rc(self.grid, p)}", e.span,
                                source=self.spec.source)
        return value

    def _aggregate_number(self, e: ast.Aggregate) -> int:
        values = self.each(e, self.holds if e.fn == "count" else self.number)
        return sum(1 for v in values if v) if e.fn == "count" else sum(values)

    def _name_number(self, e: ast.Name) -> int:
        if e.id in self.env:
            return int(self.env[e.id])
        return int(self.params[e.id])

    def _count_number(self, e: ast.Count) -> int:
        if type(e.operand) is ast.ValuesOf:
            return self.clue_number(e)
        return len(self.cells(e.operand))

    def _sum_number(self, e: ast.SumOf) -> int:
        if type(e.operand) is ast.ValuesOf:
            return self.clue_number(e)
        return sum(self.int_set(e.operand))

    def _value_number(self, e: ast.Value) -> int:
        if self.is_corners(e.operand):
            return sum(self.corner_value(v, e.span) for v in self.corners(e.operand))
        if self.is_borders(e.operand):
            return sum(self.border_value(k, e.span) for k in self.borders(e.operand))
        return sum(self.tile_value(i, e.span) for i in self.cells(e.operand))

    def _add_number(self, e: ast.Add) -> int:
        return self.number(e.left) + e.sign * self.number(e.right)

    def _mul_number(self, e: ast.Mul) -> int:
        return self.number(e.left) * self.number(e.right)

    def _neg_number(self, e: ast.Neg) -> int:
        return -self.number(e.operand)

    def shapes(self, fam: ast.Shapes) -> list:
        """The shapes of a family, one per entry, as cell offsets."""
        if fam.kind == "var":
            if fam.arg.id in self.shapevars:
                return [self.shapevars[fam.arg.id]]
            return list(self.params[fam.arg.id])  # a `shapes` parameter
        if fam.kind in ("rectangles", "squares"):
            return self.rectangle_shapes(fam)
        if isinstance(fam.arg, ast.Name) and fam.arg.id in self.params and isinstance(self.params[fam.arg.id], tuple):
            sizes = list(self.params[fam.arg.id])
        else:
            sizes = [self.number(fam.arg)]
        out = []
        for k in sizes:
            out.extend(polyominoes(k))
        return out

    def form(self, cells) -> tuple:
        """The free shape of a set of cells (see :func:`_form`), found once per set."""
        key = frozenset(cells)
        found = self.forms.get(key)
        if found is None:
            found = self.forms[key] = _form([divmod(i, self.grid.cols) for i in key])
        return found

    def shape_form(self, shape) -> tuple:
        """The free shape of a shape's (row, col) cells (see :func:`_form`), found once per shape."""
        key = ("shape", tuple(shape))
        found = self.forms.get(key)
        if found is None:
            found = self.forms[key] = _form(shape)
        return found

    def each(self, agg: ast.Aggregate, fn) -> list:
        """``fn(body)`` at each cell (corner, border) of an aggregate's domain, its variable bound to it."""
        var = agg.var.id
        out = []
        table, points = self.aggregate_domain(agg)
        for point in points:
            table[var] = point
            out.append(fn(agg.body))
        table.pop(var, None)
        return out

    def aggregate_domain(self, agg: ast.Aggregate) -> tuple[dict, list]:
        """The table of bindings an aggregate's variable goes in (of cells, corners or borders) and the
        places it is bound to, in order."""
        if type(agg.domain) in _CELLS and type(agg.domain) is not ast.Name and type(agg.domain) is not ast.Add:
            return self.cellvars, sorted(self.cells(agg.domain))  # the commonest (neighbours(p)), as below
        if self.is_borders(agg.domain):
            return self.bordervars, self.borders(agg.domain)
        if self.is_corners(agg.domain):
            return self.cornervars, self.corners(agg.domain)
        return self.cellvars, sorted(self.cells(agg.domain))

    def cell(self, e: ast.Expr) -> int | None:
        """The cell a cell expression stands for: a ``for each`` cell variable, a pair's cell, or
        ``p + d`` (one step from p in direction d; None off the grid)."""
        if type(e) is ast.Name:
            if e.id in self.cellvars:
                return self.cellvars[e.id]
            if e.id in self.pair:
                return self.pair[e.id]
        elif type(e) is ast.Add:
            base = self.cell(e.left)
            if base is None:
                return None
            step = self.step(e.right)
            if step is None:
                return None
            dr, dc = step
            r, c = divmod(base, self.grid.cols)
            r, c = r + e.sign * dr, c + e.sign * dc
            return r * self.grid.cols + c if 0 <= r < self.grid.rows and 0 <= c < self.grid.cols else None
        raise SemanticError("expected one cell (a 'for each' cell variable)", getattr(e, "span", None),
                            source=self.spec.source)

    def step(self, e: ast.Expr) -> tuple[int, int] | None:
        """A direction's step: up (-1, 0), right (0, 1), down (1, 0), left (0, -1); ``direction(c)``
        the arrow's (None off the grid), ``dir[p]`` the answer's direction at p (None at a cell whose
        value is no direction, off the decision's cells or off the grid), ``-d`` the other way."""
        if isinstance(e, ast.DirectionOf):
            return self.arrow(e)
        if isinstance(e, ast.At):  # a decided direction: the answer's value at the cell
            p = self.cell(e.cell)
            return None if p is None else ast.Direction.STEPS.get(self.enums[e.name.id].get(p))
        if isinstance(e, ast.Neg):
            step = self.step(e.operand)
            return None if step is None else (-step[0], -step[1])
        name = e.name if isinstance(e, ast.Direction) else self.dirvars[e.id][0]
        return {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}[name]

    # corners of the lattice: bound by `for each corner v`, stepped by `v + d`, made by a construct's set
    def rooms(self, span: Span | None) -> tuple[int, ...]:
        if self.room_of is None:
            raise SemanticError("rooms come from the map's room layer (a 'rooms:' block under the grid), and "
                                "this map has none", span, source=self.spec.source)
        return self.room_of

    def room_sets(self, span: Span | None) -> dict[int, frozenset[int]]:
        """Each room's cells, by the room's number (grouped once per map)."""
        if self.room_groups is None:
            groups: dict[int, list[int]] = {}
            for i, room in enumerate(self.rooms(span)):
                if room >= 0:
                    groups.setdefault(room, []).append(i)
            self.room_groups = {room: frozenset(cells) for room, cells in groups.items()}
        return self.room_groups

    def over(self, domain) -> tuple[str, list]:
        """A ``for each`` domain's members in order, all of one kind: ``(kind, members)``, kind ``int``,
        ``cell``, ``corner`` (a ``(row, col)`` of the lattice), ``set`` (``(cells, its label)``), ``shape``,
        ``direction`` (``(name, step)``) or ``border``."""
        if type(domain) in _CELLS and type(domain) is not ast.Name and type(domain) is not ast.Add:
            return "cell", sorted(self.cells(domain))  # the commonest (neighbours(p)): no corners or borders
        rows, cols = self.grid.rows, self.grid.cols
        if isinstance(domain, ast.Shapes):
            return "shape", self.shapes(domain)
        if isinstance(domain, ast.Family):
            if domain.kind == "cells":
                return "cell", range(self.n)
            if domain.kind == "corners":
                return "corner", [(r, c) for r in range(rows + 1) for c in range(cols + 1)]
            if domain.kind == "directions":
                return "direction", [("up", (-1, 0)), ("right", (0, 1)), ("down", (1, 0)), ("left", (0, -1))]
            if domain.kind == "rows":
                return "set", [(frozenset(range(r * cols, (r + 1) * cols)), f"row {r + 1}") for r in range(rows)]
            if domain.kind == "columns":
                return "set", [(frozenset(range(c, self.n, cols)), f"column {c + 1}") for c in range(cols)]
            if domain.kind == "rooms":
                rooms = sorted(self.room_sets(domain.span).values(), key=min)
                return "set", [(cells, f"the room at {_rc(self.grid, min(cells))}") for cells in rooms]
            h, w = self.number(domain.height), self.number(domain.width)
            step_r, step_c = (1, 1) if domain.kind == "windows" else (h, w)
            out = []
            for r in range(0, rows - h + 1, step_r):
                for c in range(0, cols - w + 1, step_c):
                    cells = frozenset((r + dr) * cols + c + dc for dr in range(h) for dc in range(w))
                    out.append((cells, f"the {h}x{w} {domain.kind[:-1]} at {cell_name(r, c)}"))
            return "set", out
        if isinstance(domain, ast.Name) and domain.id in self.params:
            return "int", list(self.int_set(domain))
        if self.is_corners(domain):
            return "corner", self.corners(domain)
        if self.is_borders(domain):
            return "border", self.borders(domain)
        return "cell", sorted(self.cells(domain))

    def int_set(self, e: ast.Expr) -> tuple[int, ...]:
        if isinstance(e, ast.Name) and e.id in self.params:
            return tuple(self.params[e.id])
        raise SemanticError("expected a 'set of int' parameter", getattr(e, "span", None), source=self.spec.source)


def _counted(e) -> list:
    """Every ``count(...)`` and ``value(...)`` inside a number expression."""
    if isinstance(e, (ast.Count, ast.Value)):
        return [e]
    if isinstance(e, ast.Compare):
        return _counted(e.left) + _counted(e.right)
    if isinstance(e, (ast.Add, ast.Mul)):
        return _counted(e.left) + _counted(e.right)
    if isinstance(e, ast.Neg):
        return _counted(e.operand)
    construct = construct_of(e)
    if construct is not None:
        return [c for child in construct.children(e) for c in _counted(child)]
    return []






def _rooms_of(grid: Grid, roomless: frozenset[str] = frozenset()) -> tuple[int, ...] | None:
    """Each cell's room number, from the room labels its text carries; None without a room layer.

    A room is a maximal set of cells with equal labels joined through side
    neighbours (links do not join rooms). A cell of a tile of ``roomless``
    (declared ``no room``) is in none, -1, and joins none.
    """
    labels = [room_label(ch) for ch in grid.chars]
    if all(label is None for label in labels):
        return None
    rows, cols = grid.rows, grid.cols
    room: dict[int, int] = {i: -1 for i, tile in enumerate(grid.tiles) if tile in roomless}
    number = -1
    for start in range(rows * cols):
        if start in room:
            continue
        number += 1
        room[start] = number
        queue = deque([start])
        while queue:
            u = queue.popleft()
            r, c = divmod(u, cols)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    v = (r + dr) * cols + c + dc
                    if v not in room and labels[v] == labels[start]:
                        room[v] = number
                        queue.append(v)
    return tuple(room[i] for i in range(rows * cols))


def _form(cells) -> tuple:
    """A set of (row, col) cells up to moves, rotations and reflections: the least of its eight images."""
    images = []
    for flip in (False, True):
        for turn in range(4):
            moved = []
            for r, c in cells:
                if flip:
                    r, c = r, -c
                for _ in range(turn):
                    r, c = c, -r
                moved.append((r, c))
            top = min(r for r, _ in moved)
            left = min(c for _, c in moved)
            images.append(tuple(sorted((r - top, c - left) for r, c in moved)))
    return min(images)





def closed_sets(statements) -> frozenset[int]:
    """The ids of the set nodes (``not S``, ``S and T``, ``S or T``, ``D = V``) of ``statements`` whose
    cells are the same under every binding of one answer: no name inside is one a ``for each``, an
    aggregate, a pair of neighbours or a let binds anywhere in the spec, no construct's node is inside
    and none is inside a construct's node (what a construct reads is its own). The nodes are the spec's,
    alive as long as it is."""
    bound: set[str] = set()
    nodes = []
    for x in _nodes(statements):
        if construct_of(x) is not None:  # a construct's: its own
            continue
        nodes.append(x)
        if type(x) in (ast.ForEach, ast.Aggregate):
            bound.add(x.var.id)
        elif type(x) is ast.ForPairs:
            bound.update((x.a.id, x.b.id))
        elif type(x) is ast.Let:
            bound.update(p.id for p in x.params)
    memo: dict[int, bool] = {}

    def closed(x) -> bool:
        if isinstance(x, (tuple, list)):
            return all(closed(y) for y in x)
        names = field_names(x)
        if not names or isinstance(x, Span):
            return True
        if id(x) not in memo:
            if type(x) is ast.Name:
                memo[id(x)] = x.id not in bound
            else:
                memo[id(x)] = construct_of(x) is None and all(
                    closed(getattr(x, name)) for name in names if name not in ("span", "attr_spans"))
        return memo[id(x)]

    return frozenset(id(x) for x in nodes if type(x) in (ast.Not, ast.And, ast.Or, ast.Is) and closed(x))


def free_of(e, name: str) -> bool:
    """Whether the expression ``e`` names no ``name`` anywhere inside and holds no construct's node."""
    return not any(type(x) is ast.Name and x.id == name or construct_of(x) is not None for x in _nodes(e))


def _nodes(root):
    """Every AST node under ``root`` (tuples and lists flattened, spans left out), each before what
    it holds; a construct's node is given but not entered (what a construct reads is its own)."""
    stack = [root]
    while stack:
        x = stack.pop()
        if isinstance(x, (tuple, list)):
            stack.extend(x)
            continue
        names = field_names(x)
        if not names or isinstance(x, Span):
            continue
        yield x
        if construct_of(x) is None:
            stack.extend(getattr(x, name) for name in names if name not in ("span", "attr_spans"))


def _once_per_answer(method):
    """A set node's method whose value is kept for the rest of the answer (in ``sets``) when the node is
    closed (:func:`closed_sets`): ``not shaded`` is made once, not at every cell that reads it."""

    def cells(self, e) -> frozenset[int]:
        key = id(e)
        if key in self.closed:
            found = self.sets.get(key)
            if found is None:
                found = self.sets[key] = method(self, e)
            return found
        return method(self, e)

    return cells


_CELLS = {ast.And: _once_per_answer(Expressions._and_cells), ast.Name: Expressions.named_cells,
          ast.Add: Expressions._one_cell, ast.Around: Expressions._around_cells,
          ast.LineOf: Expressions._line_cells, ast.Sight: Expressions._sight_cells,
          ast.Component: Expressions._component_cells, ast.Border: Expressions._border_cells,
          ast.AllCells: Expressions._all_cells, ast.Not: _once_per_answer(Expressions._not_cells),
          ast.Or: _once_per_answer(Expressions._or_cells), ast.Is: _once_per_answer(Expressions._is_cells)}
"""A cell set's node type -> the method that evaluates it (a construct's nodes are not here)."""

_NUMBERS = {ast.IntLit: Expressions._int_number, ast.At: Expressions._at_number,
            ast.Aggregate: Expressions._aggregate_number, ast.Name: Expressions._name_number,
            ast.Part: ClueMeanings.clue_number, ast.Distance: ClueMeanings.clue_number,
            ast.IndexOf: ClueMeanings.clue_number, ast.Count: Expressions._count_number,
            ast.SumOf: Expressions._sum_number, ast.Value: Expressions._value_number,
            ast.Add: Expressions._add_number, ast.Mul: Expressions._mul_number, ast.Neg: Expressions._neg_number}
"""A number's node type -> the method that evaluates it (a construct's nodes are not here)."""

_STEPPED = frozenset((ast.Direction, ast.DirectionOf, ast.Neg, ast.At))
"""The nodes ``toward`` of a sight is a direction as (else a cell, or a ``for each direction`` variable)."""
