"""Lowering of structured clue cells, cells as numbers, and decisions whose values are cells.

Part of the compiler (a mixin of :class:`~gridlang.compiler.core._Compiler`).
Nothing here adds a node kind: what a map cell holds is a constant while
compiling, and a decision whose values are cells is an enumerated decision.

``value(c)``, ``down(c)``, ``values(c)``, ``count(values(c))``, ``sum(values(c))``
    constants read from the map cell's clue (:mod:`gridlang.core.clues`); no
    variable, no constraint. A ``?`` (or a list where one number is wanted,
    or a cell of another tile) is an error at the map cell when the number
    is used; ``N is known`` (a constant condition) lets a rule say what
    ``?`` means, and ``and``, ``or`` and ``implies`` do not evaluate past a
    constant that decides them.
``direction(c)``, ``-d``
    the arrow's step, or the step reversed, while compiling.
``distance(p, q)``, ``row index(p)``, ``column index(p)``
    constants.
``decide owner: clue on all`` (values are the cells of a fixed set K)
    the one-hot encoding of enumerated decisions with the cells of K, as
    ``(row, col)``, for values: a variable ``owner[r,c]=(r2, c2)`` per cell
    and value and a row ``sum == 1`` per cell. Size: ``|on| x |K|``
    variables, ``|on|`` rows. ``owner = c`` is the set of the literals of
    value c; ``owner[p] = c`` one literal; ``owner[p] = owner[q]`` as for any
    enumeration (value by value, or the ``or`` of ``and``s).
"""

from __future__ import annotations

from gridlang.compiler.diagnostics import names_in
from gridlang.core.clues import Clue, arrow_of, read_clue, why_no_value
from gridlang.core.errors import MapError, SemanticError
from gridlang.language import ast
from gridlang.language.constructs import construct_of


class ClueLowering:
    """What map cells hold, as constants while compiling (a mixin)."""

    def at_map_cell(self, i: int, message: str, span) -> Exception:
        """An error about map cell ``i``: at the cell in the map file, or at ``span`` in the spec."""
        r, c = self.grid.cell(i)
        where = f"row {r + 1}, column {c + 1}"
        st = self.statement
        rule = ""
        if st is not None and st.span:
            rule = (f"the rule 'require {self.rule_text(st)}' ({st.span}) " if self.current is st
                    else f"'{self.rule_text(st)}' ({st.span}) ")
        if self.map_data is not None:
            return MapError(f"{rule}at {where}: {message}", self.map_data.span(r, c), source=self.map_data.source)
        return SemanticError(f"at {where}: {message}", span, source=self.spec.source)

    def tile_value(self, i: int, span=None) -> int:
        """The value of map cell ``i`` (``value(c)``, ``D = value``); an error when it has no single known one."""
        value = self.sym.tiles[self.grid.tiles[i]].value_of(self.grid.chars[i])
        if value is None:
            raise self.at_map_cell(i, why_no_value(self.grid.chars[i]), span)
        return value

    def corner_values(self, corners: list[tuple[int, int]]) -> list[tuple[tuple[int, int], int | None]]:
        """Each corner with the value of what stands on it (None: no single known number, a ``?``)."""
        out = []
        for r, c in corners:
            k = self.grid.corner_index(r, c)
            out.append(((r, c), self.sym.corner_tiles[self.grid.corner_tiles[k]].value_of(self.grid.corner_chars[k])))
        return out

    def corner_number(self, e: ast.Value) -> int:
        """``value(K)`` of a set of corners K (one corner, a tile on corners): the sum of their numbers; an
        error at the corner in the map when one has no known number."""
        corners = self.corner_set(e.operand)
        total = 0
        for (r, c), value in self.corner_values(corners):
            if value is None:
                ch = self.grid.corner_chars[self.grid.corner_index(r, c)]
                message = f"on corner row {r + 1}, column {c + 1}: {why_no_value(ch)}"
                if self.map_data is not None:
                    raise MapError(message, self.map_data.corner_span(r, c), source=self.map_data.source)
                raise SemanticError(message, e.span, source=self.spec.source)
            total += value
        return total

    def border_values(self, borders: list[int]) -> list[tuple[int, int | None]]:
        """Each border by its index, with the value of what stands on it (None: no single known number, a
        ``?``)."""
        out = []
        for k in borders:
            out.append((k, self.sym.border_tiles[self.grid.border_tiles[k]].value_of(self.grid.border_chars[k])))
        return out

    def border_number(self, e: ast.Value) -> int:
        """``value(B)`` of a set of borders B (one border, a tile on borders): the sum of their numbers; an
        error at the border in the map when one has no known number."""
        total = 0
        for k, value in self.border_values(self.border_set(e.operand)):
            if value is None:
                message = f"on {self.grid.border_name(k)}: {why_no_value(self.grid.border_chars[k])}"
                if self.map_data is not None:
                    raise MapError(message, self.map_data.border_span(k), source=self.map_data.source)
                raise SemanticError(message, e.span, source=self.spec.source)
            total += value
        return total

    def clue_of(self, e, what: str) -> tuple[int, Clue] | None:
        """The cell an expression's ``cell`` names and its clue (None off the grid); an error when the
        cell holds no clue."""
        i = self.cell_of(e.cell)
        if i is None:
            return None
        clue = read_clue(self.grid.chars[i])
        if clue is None:
            raise self.at_map_cell(i, f"{what} reads a clue cell; {self.grid.chars[i]!r} holds none", e.span)
        return i, clue

    def part_value(self, e: ast.Part) -> int:
        """``down(c)``: the part's entry (0 off the grid)."""
        i = self.cell_of(e.cell)
        if i is None:
            return 0
        if self.grid.tiles[i] != e.tile:
            raise self.at_map_cell(i, f"{e.name}(c) reads a part of a {e.tile!r} cell; this is a "
                                      f"{self.grid.tiles[i]!r} cell ({self.grid.chars[i]!r})", e.span)
        entry = read_clue(self.grid.chars[i]).entries[e.index]
        if entry is None:
            raise self.at_map_cell(i, f"{e.name} is '?' in {self.grid.chars[i]!r}; say what '?' means, e.g. "
                                      f"'{e.name}(c) is known implies ...'", e.span)
        return entry

    def list_values(self, e: ast.ValuesOf) -> tuple[int | None, ...]:
        """``values(c)``: the clue's entries (empty off the grid)."""
        found = self.clue_of(e, "values(c)")
        return () if found is None else found[1].entries

    def list_sum(self, e: ast.ValuesOf) -> int:
        """``sum(values(c))``; an error when an entry is ``?``."""
        values = self.list_values(e)
        if None in values:
            i = self.cell_of(e.cell)
            raise self.at_map_cell(i, f"{self.grid.chars[i]!r} holds '?'; sum(values(c)) needs every number "
                                      f"('values(c) is known implies ...')", e.span)
        return sum(values)

    def arrow_step(self, e: ast.DirectionOf) -> tuple[int, int] | None:
        """``direction(c)``'s step; None off the grid (no cell follows); an error without an arrow."""
        i = self.cell_of(e.cell)
        if i is None:
            return None
        direction = arrow_of(self.grid.chars[i])
        if direction is None:
            raise self.at_map_cell(i, f"direction(c) reads an arrow (an arrow number, ^2, or an arrow alone, ^ v < "
                                      f">); {self.grid.chars[i]!r} has none (say what a cell without one means: "
                                      f"'direction(c) is known implies ...')", e.span)
        return ast.Direction.STEPS[direction]

    def geometry(self, e) -> int:
        """``distance(p, q)``, ``row index(p)``, ``column index(p)``: constants."""
        if isinstance(e, ast.IndexOf):
            i = self.cell_of(e.cell)
            if i is None:
                raise SemanticError(f"{e.kind} index(...) of a cell off the grid ({self.binding_text()})", e.span,
                                    source=self.spec.source)
            return self.grid.cell(i)[0 if e.kind == "row" else 1] + 1
        p, q = self.cell_of(e.a), self.cell_of(e.b)
        if p is None or q is None:
            raise SemanticError(f"distance(p, q) of a cell off the grid ({self.binding_text()})", e.span,
                                source=self.spec.source)
        (r1, c1), (r2, c2) = self.grid.cell(p), self.grid.cell(q)
        return abs(r1 - r2) + abs(c1 - c2)

    def known(self, e) -> bool:
        """``N is known``: every number, list and arrow N reads from map cells holds no ``?``."""
        construct = construct_of(e)
        if construct is not None:
            return construct.known(self.known, e)
        if isinstance(e, ast.Value) and self.is_corners(e.operand):
            return all(value is not None for _, value in self.corner_values(self.corner_set(e.operand)))
        if isinstance(e, ast.Value) and self.is_borders(e.operand):
            return all(value is not None for _, value in self.border_values(self.border_set(e.operand)))
        if isinstance(e, ast.Value):
            # the same set under the same bindings is read once: `value(clue) is known` under a `for
            # each cell` would read every clue for every cell
            frame = (e.operand, tuple((n, self.bound.get(n), self.env.get(n)) for n in names_in(e.operand)))
            if frame not in self.known_sets:
                self.known_sets[frame] = all(
                    self.sym.tiles[self.grid.tiles[i]].value_of(self.grid.chars[i]) is not None
                    for i, v in self.members(e.operand).items() if v is True)
            return self.known_sets[frame]
        if isinstance(e, ast.Part):
            i = self.cell_of(e.cell)
            return i is None or self.grid.tiles[i] == e.tile and read_clue(self.grid.chars[i]).entries[e.index] \
                is not None
        if isinstance(e, (ast.ValuesOf, ast.DirectionOf)):
            i = self.cell_of(e.cell)
            clue = None if i is None else read_clue(self.grid.chars[i])
            if isinstance(e, ast.ValuesOf):
                return i is None or clue is not None and clue.known
            return i is None or arrow_of(self.grid.chars[i]) is not None
        if isinstance(e, (ast.Add, ast.Mul)):
            return self.known(e.left) and self.known(e.right)
        if isinstance(e, (ast.Neg, ast.SumOf, ast.Count)):
            return self.known(e.operand)
        return True

    def cell_domain(self, st: ast.Decide) -> list[tuple[int, int]]:
        """The values of a decision whose values are cells: the cells of its set, ``(row, col)``, row-major."""
        cells = self.members(st.domain[0])
        return [self.grid.cell(i) for i in sorted(i for i, v in cells.items() if v is True)]

    def cell_value_missing(self, decision: str, value: tuple[int, int], where) -> Exception:
        """The error for ``owner = c`` with c not one of the decision's cells."""
        i = self.grid.index(*value)
        kind = self.sym.cell_decisions[decision]
        return self.at_map_cell(i, f"this cell is not a {kind!r} cell, so no cell takes it as its {decision!r}",
                                getattr(where, "span", None))
