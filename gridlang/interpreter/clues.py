"""Structured clue cells, cells as numbers, decisions whose values are cells, rectangles: their
meaning on one answer (a mixin of the interpreter).

What a clue cell holds is read from its text (:func:`gridlang.core.clues.read_clue`,
the map format); everything else is plain arithmetic on ``(row, col)``:
``distance`` is ``|dr| + |dc|``, ``row index`` and ``column index`` count from
1, a cell value of a decision is the cell's ``(row, col)``, and a set is a
rectangle when it fills its bounding box.
"""

from __future__ import annotations

from gridlang.core.clues import arrow_of, read_clue, why_no_value
from gridlang.core.errors import SemanticError
from gridlang.interpreter.verdict import _rc
from gridlang.language import ast
from gridlang.language.constructs import construct_of

_STEPS = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}


class ClueMeanings:
    """Clues and cells as numbers (mixed into :class:`~gridlang.interpreter.core.Interpreter`)."""

    def tile_value(self, i: int, span) -> int:
        """Map cell ``i``'s value; an error when it holds no single known number (``?``, a list)."""
        value = self.tile_values[i]
        if value is None:
            raise SemanticError(f"at {_rc(self.grid, i)}: {why_no_value(self.grid.chars[i])}", span,
                                source=self.spec.source)
        return value

    def clue_at(self, e, what: str):
        """``(cell, clue)`` of the cell ``e.cell`` names; None off the grid; an error for a cell with no clue."""
        i = self.cell(e.cell)
        if i is None:
            return None
        clue = read_clue(self.grid.chars[i])
        if clue is None:
            raise SemanticError(f"{what} reads a clue cell; {_rc(self.grid, i)} ({self.grid.chars[i]!r}) holds none",
                                e.span, source=self.spec.source)
        return i, clue

    def clue_number(self, e) -> int:
        """A number read from a clue: a part ``down(c)`` (0 off the grid), ``count(values(c))``,
        ``sum(values(c))``, ``distance``, ``row index``, ``column index``."""
        if isinstance(e, ast.Part):
            i = self.cell(e.cell)
            if i is None:
                return 0
            if self.grid.tiles[i] != e.tile:
                raise SemanticError(f"{e.name}(c) reads a part of a {e.tile!r} cell; {_rc(self.grid, i)} is a "
                                    f"{self.grid.tiles[i]!r} cell", e.span, source=self.spec.source)
            entry = read_clue(self.grid.chars[i]).entries[e.index]
            if entry is None:
                raise SemanticError(f"{e.name} is '?' at {_rc(self.grid, i)}", e.span, source=self.spec.source)
            return entry
        if isinstance(e, (ast.Count, ast.SumOf)):
            found = self.clue_at(e.operand, "values(c)")
            entries = () if found is None else found[1].entries
            if isinstance(e, ast.Count):
                return len(entries)
            if None in entries:
                raise SemanticError(f"sum(values(c)) of a list with '?' at {_rc(self.grid, found[0])}", e.span,
                                    source=self.spec.source)
            return sum(entries)
        if isinstance(e, ast.IndexOf):
            i = self.cell(e.cell)
            if i is None:
                raise SemanticError(f"{e.kind} index(...) of a cell off the grid", e.span, source=self.spec.source)
            return (i // self.grid.cols if e.kind == "row" else i % self.grid.cols) + 1
        p, q = self.cell(e.a), self.cell(e.b)
        if p is None or q is None:
            raise SemanticError("distance(p, q) of a cell off the grid", e.span, source=self.spec.source)
        return abs(p // self.grid.cols - q // self.grid.cols) + abs(p % self.grid.cols - q % self.grid.cols)

    def arrow(self, e: ast.DirectionOf) -> tuple[int, int] | None:
        """The step of ``direction(c)``; None off the grid; an error for a clue without an arrow."""
        i = self.cell(e.cell)
        if i is None:
            return None
        direction = arrow_of(self.grid.chars[i])
        if direction is None:
            raise SemanticError(f"direction(c): {_rc(self.grid, i)} ({self.grid.chars[i]!r}) has no arrow", e.span,
                                source=self.spec.source)
        return _STEPS[direction]

    def is_known(self, e) -> bool:
        """``N is known``: no ``?`` in what N reads from the map (an arrow present, for a direction)."""
        construct = construct_of(e)
        if construct is not None:
            return construct.known(self.is_known, e)
        if isinstance(e, ast.Value) and self.is_borders(e.operand):
            return all(self.sym.border_tiles[self.grid.border_tiles[k]].value_of(self.grid.border_chars[k]) is not None
                       for k in self.borders(e.operand))
        if isinstance(e, ast.Value) and self.is_corners(e.operand):
            width = self.grid.cols + 1
            return all(self.sym.corner_tiles[self.grid.corner_tiles[r * width + c]].value_of(
                self.grid.corner_chars[r * width + c]) is not None for r, c in self.corners(e.operand))
        if isinstance(e, ast.Value):
            return all(self.tile_values[i] is not None for i in self.cells(e.operand))
        if isinstance(e, (ast.Part, ast.ValuesOf, ast.DirectionOf)):
            i = self.cell(e.cell)
            if i is None:
                return True
            clue = read_clue(self.grid.chars[i])
            if isinstance(e, ast.Part):
                return self.grid.tiles[i] == e.tile and clue.entries[e.index] is not None
            if isinstance(e, ast.ValuesOf):
                return clue is not None and None not in clue.entries
            return arrow_of(self.grid.chars[i]) is not None
        if isinstance(e, (ast.Add, ast.Mul)):
            return self.is_known(e.left) and self.is_known(e.right)
        if isinstance(e, (ast.Neg, ast.SumOf, ast.Count)):
            return self.is_known(e.operand)
        return True

    def cell_values(self, d: ast.Decide) -> tuple[tuple[int, int], ...]:
        """The values of a decision whose values are cells: its set's cells as ``(row, col)``, row-major."""
        return tuple(divmod(i, self.grid.cols) for i in sorted(self.cells(d.domain[0])))

    def rectangular(self, cells, family: ast.Shapes) -> bool:
        """``S is a piece of rectangles(N)`` (``squares(N)``): S fills its bounding box, of N cells (a square)."""
        if not cells:
            return False
        rows = [i // self.grid.cols for i in cells]
        cols = [i % self.grid.cols for i in cells]
        height, width = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
        if height * width != len(cells) or family.kind == "squares" and height != width:
            return False
        return family.arg is None or len(cells) == self.number(family.arg)

    def rectangle_shapes(self, family: ast.Shapes) -> list[tuple[tuple[int, int], ...]]:
        """The entries of ``rectangles(N)`` / ``squares(N)`` for ``consists of`` and ``for each shape``: one
        per free rectangle (h <= w) of N cells that fits the grid, as cell offsets."""
        rows, cols = self.grid.rows, self.grid.cols
        sizes = range(1, rows * cols + 1) if family.arg is None else [self.number(family.arg)]
        out = []
        for n in sizes:
            for h in range(1, n + 1):
                w, rest = divmod(n, h)
                if rest or h > w or family.kind == "squares" and h != w:
                    continue
                if h <= rows and w <= cols or w <= rows and h <= cols:
                    out.append(tuple((r, c) for r in range(h) for c in range(w)))
        return out
