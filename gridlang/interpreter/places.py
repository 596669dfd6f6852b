"""Places other than cells, evaluated on one answer: the corners of the cells (the lattice's crosses),
the borders between two cells and on the frame, their values and names, and the cells around a place.

Part of :class:`~gridlang.interpreter.core.Interpreter` (a mixin of
:class:`~gridlang.interpreter.expressions.Expressions`), with the meanings stated in
:mod:`gridlang.interpreter`.
"""

from __future__ import annotations

from gridlang.core.errors import SemanticError
from gridlang.core.grid import border_places
from gridlang.language import ast
from gridlang.language.constructs import construct_of


class Places:
    """Corners and borders of the grid (a mixin of the interpreter)."""

    def is_corner(self, e: ast.Expr) -> bool:
        """Whether ``e`` stands for a corner: a bound corner variable, or ``v + d``."""
        if isinstance(e, ast.Name):
            return e.id in self.cornervars
        return isinstance(e, ast.Add) and self.is_corner(e.left)

    def corner(self, e: ast.Expr) -> tuple[int, int] | None:
        """The corner ``(row, col)`` ``e`` stands for; None off the lattice."""
        if isinstance(e, ast.Name):
            return self.cornervars[e.id]
        base = self.corner(e.left)
        if base is None:
            return None
        step = self.step(e.right)
        if step is None:  # dir[p] where the answer's value is no direction: no corner
            return None
        dr, dc = step
        r, c = base[0] + e.sign * dr, base[1] + e.sign * dc
        return (r, c) if 0 <= r <= self.grid.rows and 0 <= c <= self.grid.cols else None

    def corners(self, e: ast.Expr) -> list[tuple[int, int]]:
        """A set of corners' (``corners(p)``, its construct's), or one corner's, in order."""
        construct = construct_of(e)
        if construct is not None:
            return construct.corner_points(self, e)
        if self.is_clue_corners(e):
            width = self.grid.cols + 1
            return [divmod(k, width) for k, name in enumerate(self.grid.corner_tiles) if name == e.id]
        v = self.corner(e)
        return [] if v is None else [v]

    def is_corners(self, e: ast.Expr) -> bool:
        """Whether ``e`` is a set of corners (a construct's, ``corners(p)``, a tile on corners, or one corner)."""
        construct = construct_of(e)
        if construct is not None:
            return construct.corners
        if type(e) is not ast.Name and type(e) is not ast.Add:  # the commonest: a set of cells
            return False
        return self.is_corner(e) or self.is_clue_corners(e)

    def is_clue_corners(self, e: ast.Expr) -> bool:
        """Whether ``e`` names a tile on corners, not shadowed by a bound variable."""
        return isinstance(e, ast.Name) and e.id in self.sym.corner_tiles and not any(
            e.id in table for table in (self.cellvars, self.setvars, self.cornervars, self.dirvars, self.bordervars))

    # borders between two cells: bound by `for each b in T` (T a tile on borders), by their index in the layer
    def is_borders(self, e: ast.Expr) -> bool:
        """Whether ``e`` is a set of borders: a bound border variable, or a tile on borders not shadowed."""
        if not isinstance(e, ast.Name):
            return False
        return e.id in self.bordervars or e.id in self.sym.border_tiles and not any(
            e.id in table for table in (self.cellvars, self.setvars, self.cornervars, self.dirvars))

    def borders(self, e: ast.Name) -> list[int]:
        """The borders of a set of borders, by index in the map's border layer, in its order."""
        if e.id in self.bordervars:
            return [self.bordervars[e.id]]
        return [k for k, name in enumerate(self.grid.border_tiles) if name == e.id]

    def border_value(self, k: int, span) -> int:
        """The value of what stands on border ``k`` of the map; an error when it has no known number."""
        ch = self.grid.border_chars[k]
        value = self.sym.border_tiles[self.grid.border_tiles[k]].value_of(ch)
        if value is None:
            raise SemanticError(f"value(...) of {self.grid.border_name(k)}: {ch!r} has no known number",
                                span, source=self.spec.source)
        return value

    def border_cells(self, k: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """Border ``k``'s two places ``(row, col)`` in pzprjs's order of borders: two cells, the left or
        upper one first, or on the frame its cell and the place beyond it off the grid
        (:func:`gridlang.core.grid.border_places`)."""
        return border_places(self.grid.rows, self.grid.cols, k)

    def corner_value(self, v: tuple[int, int], span) -> int:
        """The value of what stands on corner ``v`` of the map; an error when it has no known number."""
        k = v[0] * (self.grid.cols + 1) + v[1]
        ch = self.grid.corner_chars[k]
        value = self.sym.corner_tiles[self.grid.corner_tiles[k]].value_of(ch)
        if value is None:
            raise SemanticError(f"value(...) of the corner at row {v[0] + 1}, column {v[1] + 1}: {ch!r} has no "
                                f"known number", span, source=self.spec.source)
        return value

    def around(self, kind: str, p: int) -> frozenset[int]:
        """``neighbours``: the grid graph's; ``diagonal``/``king``: corner or side-and-corner contact."""
        if kind == "side":
            return frozenset(self.adj[p])
        r, c = divmod(p, self.grid.cols)
        out = set()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr, dc) == (0, 0) or kind == "diagonal" and 0 in (dr, dc):
                    continue
                if 0 <= r + dr < self.grid.rows and 0 <= c + dc < self.grid.cols:
                    out.add((r + dr) * self.grid.cols + c + dc)
        return frozenset(out)
