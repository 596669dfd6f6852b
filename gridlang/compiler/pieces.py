"""Shapes: polyomino placements for ``is a piece of`` and ``consists of``.

Part of the compiler (a mixin of :class:`~gridlang.compiler.core._Compiler`).

``S is a piece of F``
    P ranges over the placements (any rotation or reflection) of F's shapes
    on the cells S may hold that hold every cell S surely holds (a fixed
    cell, or a literal a rule's one-literal clause fixed: Shikaku's
    ``owner[c] = c`` leaves the rectangles through c). Stated as a rule: one new variable ``y(P)`` per
    placement, ``sum y == 1`` and ``s(c) == sum of y(P) over P holding c``
    for every such cell. As a condition: the ``or`` over P of ``s == P`` on
    those cells, or, when the rule above already holds for the same set,
    the ``or`` of the ``y(P)`` of the shapes asked for.
``S consists of F``
    one variable per entry k of F and placement P: ``sum over P of y(k, P) ==
    1`` for each k; ``s(c) == sum of y(k, P) over the (k, P) holding c``;
    and ``~y(k, P) | ~s(v)`` for every cell v that shares a side with P
    without being in it, so two pieces never touch.
"""

from __future__ import annotations

from .. import ast
from .. import shapes as polyomino
from ..errors import SemanticError
from ..ir import Cmp, Linear
from .cellsets import CellValue, neg


class PieceLowering:
    """Placements of shapes on the cells a set may hold (a mixin)."""

    def family_shapes(self, fam: ast.Shapes) -> list[tuple[tuple[int, int], ...]]:
        """The shapes of a family, one per entry (canonical forms; an entry of a listed size twice, twice)."""
        if fam.kind == "var":
            if fam.arg.id in self.bound:
                return [self.bound[fam.arg.id][1]]
            return list(self.params[fam.arg.id])  # a `shapes` parameter: canonical shapes
        if fam.kind in ("rectangles", "squares"):
            sizes = range(1, self.grid.size + 1) if fam.arg is None else [self._constant(fam.arg)]
            make = polyomino.rectangles if fam.kind == "rectangles" else polyomino.squares
            return [shape for n in sizes for shape in make(n, self.grid.rows, self.grid.cols)]
        if isinstance(fam.arg, ast.Name) and self.sym.params.get(fam.arg.id) is not None \
                and self.sym.params[fam.arg.id].type == "set of int":
            sizes = list(self.params[fam.arg.id])
        else:
            sizes = [self._constant(fam.arg)]
        out = []
        for k in sizes:
            try:
                out.extend(polyomino.polyominoes(k))
            except ValueError as e:
                raise SemanticError(str(e), fam.span, source=self.spec.source) from e
        return out

    def piece_placements(self, cand: dict[int, CellValue], shapes, one: bool = False
                         ) -> list[tuple[int, frozenset[int]]]:
        """``(entry, placement)`` for each entry of ``shapes`` and each of its placements on the cells of ``cand``.

        With ``one`` (the set is one piece), only the placements that hold every cell the set surely
        holds: True, or a literal a rule's one-literal clause made true (``owner[c] = c``). The others
        could only be chosen with that cell out of the set, so leaving them out changes no answer; for
        Shikaku's ``(owner = c) is a piece of rectangles(N)`` it keeps the rectangles through c.
        """
        allowed = set(cand)
        surely = {i for i, v in cand.items() if v is True or v in self.units} if one else set()
        out = []
        for k, shape in enumerate(shapes):
            out.extend((k, cells) for cells in polyomino.placements(shape, self.grid.rows, self.grid.cols, allowed)
                       if surely <= cells)
        return out

    def piece_lit(self, f: ast.IsPiece) -> CellValue:
        """The literal of ``S is a piece of F`` (see the module docstring)."""
        cand = self.members(f.cells)
        wanted = set(self.family_shapes(f.family))
        key = tuple(sorted(cand.items()))
        chosen = self.pieces.get(key)
        if chosen is not None:
            lits = [y for cells, y in chosen.items() if self.form_of(cells) in wanted]
            return self.combine(False, lits, None)
        options = []
        for _, cells in self.piece_placements(cand, list(dict.fromkeys(self.family_shapes(f.family))), one=True):
            options.append(self.combine(True, [cand[i] if i in cells else neg(cand[i]) for i in cand], None))
        return self.combine(False, options, None)

    def form_of(self, cells: frozenset[int]) -> tuple:
        """The free shape of a placement (its canonical form), computed once per placement."""
        form = self.forms.get(cells)
        if form is None:
            form = self.forms[cells] = polyomino.canonical(self.grid.cell(i) for i in cells)
        return form

    def assert_piece(self, f: ast.IsPiece, guard: tuple[int, ...]) -> None:
        """``S is a piece of F`` as a rule: one-hot over the placements."""
        span = self.current.span if self.current is not None else None
        cand = self.members(f.cells)
        shapes = list(dict.fromkeys(self.family_shapes(f.family)))
        options = self.piece_placements(cand, shapes, one=True)
        if not options:
            self.clause_under(guard, [], f)
            return
        chosen: dict[frozenset[int], int] = {}
        self.piece_count += 1
        for n, (_, cells) in enumerate(options):
            chosen[cells] = self.new_var("piece", None, f"{self.piece_count}.{n}")
        self.constraints.append(Linear(tuple((1, y) for y in chosen.values()), Cmp.EQ, 1, guard, span))
        self.cover(cand, [(cells, y) for cells, y in chosen.items()], guard, span)
        if not guard:
            self.pieces[tuple(sorted(cand.items()))] = chosen

    def cover(self, cand: dict[int, CellValue], placed: list[tuple[frozenset[int], int]], guard, span) -> None:
        """``s(c) == sum of y over the placements holding c``, for every cell S may hold."""
        for i, v in sorted(cand.items()):
            terms = [(-1, y) for cells, y in placed if i in cells]
            rhs = 0
            if v is True:
                rhs = -1
            else:
                terms.append((1, v))
            if not terms:
                self.clause_under(guard, [neg(v)], None)
                continue
            self.constraints.append(Linear(tuple(terms), Cmp.EQ, rhs, guard, span))

    def assert_consists(self, f: ast.ConsistsOf) -> None:
        """``S consists of F`` (a rule on its own line): one placement per entry, apart."""
        span = self.current.span if self.current is not None else None
        cand = self.members(f.cells)
        shapes = self.family_shapes(f.family)
        options = self.piece_placements(cand, shapes)
        self.piece_count += 1
        placed: list[tuple[frozenset[int], int]] = []
        per_entry: dict[int, list[int]] = {k: [] for k in range(len(shapes))}
        for n, (k, cells) in enumerate(options):
            y = self.new_var("piece", None, f"{self.piece_count}.{k}.{n}")
            placed.append((cells, y))
            per_entry[k].append(y)
        for k, ys in per_entry.items():
            if not ys:
                self.fails((), f)
            self.constraints.append(Linear(tuple((1, y) for y in ys), Cmp.EQ, 1, (), span))
        self.cover(cand, placed, (), span)
        cols = self.grid.cols
        for cells, y in placed:
            rim = set()
            for i in cells:
                r, c = divmod(i, cols)
                for v, ok in ((i - cols, r > 0), (i + cols, r < self.grid.rows - 1), (i - 1, c > 0),
                              (i + 1, c < cols - 1)):
                    if ok and v not in cells and v in cand:
                        rim.add(v)
            for v in sorted(rim):
                self.clause([-y, neg(cand[v])], span)
