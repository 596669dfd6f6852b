"""Conditions of a spec, evaluated on one answer.

Part of :class:`~gridlang.interpreter.core.Interpreter` (a mixin of
:class:`~gridlang.interpreter.expressions.Expressions`), with the meanings
stated in :mod:`gridlang.interpreter`. A condition is evaluated by the
method its node's type (``type(f)``) names in ``_HOLDS``: one dictionary
look-up, not a chain of ``isinstance`` tests, since a rule instance of a
large map asks many thousand times.
"""

from __future__ import annotations

from collections import deque

from gridlang.core.errors import SemanticError
from gridlang.language import ast
from gridlang.language.constructs import comparison_of, construct_of
from gridlang.language.equivalence import is_condition, is_number


class Conditions:
    """Whether a condition holds (a mixin of the interpreter: ``cells``, ``number`` and the rest are its)."""

    def holds(self, f: ast.Expr) -> bool:
        """Whether the condition ``f`` holds on this answer under the current bindings.

        Raises:
            SemanticError: ``f`` is no condition.
        """
        handler = _HOLDS.get(type(f))
        if handler is not None:
            return handler(self, f)
        construct = construct_of(f)
        if construct is not None:
            return construct.holds(self, f)
        raise SemanticError("expected a condition", getattr(f, "span", None), source=self.spec.source)

    def owns_rule(self, f: ast.Expr) -> bool:
        """Whether a construct states ``require f`` as a rule of its own (``line is a loop``), found once
        per node."""
        found = self.facts.get(id(f))
        if found is None or found[0] is not f:
            construct = construct_of(f)
            found = self.facts[id(f)] = (f, construct is not None and construct.statement)
        return found[1]

    def owner(self, f: ast.Compare):
        """``comparison_of(f)``, found once per node (the node kept, so that its ``id`` stays its own)."""
        found = self.owners.get(id(f))
        if found is None or found[0] is not f:
            found = self.owners[id(f)] = (f, comparison_of(f))
        return found[1]

    def of_numbers(self, f: ast.Compare) -> bool:
        """Whether ``f`` compares two numbers (no construct owns it, and it is no equivalence of
        conditions), found once per node."""
        return self.numbers_fact(f)[1]

    def numbers_fact(self, f: ast.Compare) -> tuple:
        """``(f, of_numbers, S, left)``, found once per node: whether ``f`` compares two numbers, and when
        it compares ``count(S)`` with the literal 0, S (else None) and whether the count is on the left."""
        found = self.numeric.get(id(f))
        if found is None or found[0] is not f:
            plain = self.owner(f) is None and not (f.op == "==" and is_condition(f.left, self.sym))
            counted, left = None, True
            for count, zero, on_left in ((f.left, f.right, True), (f.right, f.left, False)):
                if plain and type(count) is ast.Count and type(count.operand) is not ast.ValuesOf and \
                        type(zero) is ast.IntLit and zero.value == 0:
                    counted, left = count.operand, on_left
                    break
            found = self.numeric[id(f)] = (f, plain, counted, left)
        return found

    # one method per kind of node, in _HOLDS -------------------------------------------------------
    def _compare_holds(self, f: ast.Compare) -> bool:
        _, plain, counted, left = self.numbers_fact(f)
        if counted is not None:  # count(S) OP 0: a count is never below 0, so whether S has a cell decides
            some = 1 if self.nonempty(counted) else 0
            return _COMPARE[f.op](some, 0) if left else _COMPARE[f.op](0, some)
        if plain:
            return _COMPARE[f.op](self.number(f.left), self.number(f.right))
        owned = self.owner(f)
        if owned is not None:
            construct, own, other = owned
            return construct.compare_violation(self, f, own, other) is None
        return self.holds(f.left) == self.holds(f.right)  # '==' of two conditions (of_numbers says so)

    def _implies_holds(self, f: ast.Implies) -> bool:
        return not self.holds(f.left) or self.holds(f.right)

    def _at_holds(self, f: ast.At) -> bool:
        p = self.cell(f.cell)
        return p is not None and p in self.cells(f.name)

    def _at_is_holds(self, f: ast.AtIs) -> bool:
        value = f.value
        if type(value) is ast.At:
            p, q = self.cell(f.cell), self.cell(value.cell)
            name = f.name.id
            if name in self.enums:
                a, b = self.enums[name].get(p), self.enums[name].get(q)
                return _same(a, b) if a is not None and b is not None else a is None and b is None
            return (p is not None and p in self.bools[name]) == (q is not None and q in self.bools[name])
        if type(value) is ast.DirectionOf:  # dir[p] = direction(c)
            p, step = self.cell(f.cell), self.step(value)
            got = self.enums[f.name.id].get(p) if p is not None else None
            return step is not None and got in ast.Direction.STEPS and ast.Direction.STEPS[got] == step
        p = self.cell(f.cell)
        if p is None or p not in self.enums[f.name.id]:
            return False
        return _same(self.enums[f.name.id][p], self.resolve(f.name.id, value, p))

    def _is_holds(self, f: ast.Is) -> bool:
        if is_number(f.decision, self.sym, isinstance(self.env.get(f.decision.id), int)):
            return self.number(f.decision) == self.number(f.value)  # k = 3
        if self.is_corner(f.decision):
            return self.corner(f.decision) == self.corner(f.value)
        return self.cell(f.decision) == self.cell(f.value)

    def _not_holds(self, f: ast.Not) -> bool:
        return not self.holds(f.operand)

    def _and_holds(self, f: ast.And) -> bool:
        for g in f.operands:
            if not self.holds(g):
                return False
        return True

    def _or_holds(self, f: ast.Or) -> bool:
        for g in f.operands:
            if self.holds(g):
                return True
        return False

    def _subset_holds(self, f: ast.Subset) -> bool:
        right = f.right
        if type(right) is ast.Not and id(right) not in self.closed:  # `q in not room(p)`: no complement made
            cells = self.cells(f.left)
            return cells.isdisjoint(self.cells(right.operand)) and cells <= self.all
        return self.cells(f.left) <= self.cells(right)

    def _avoids_holds(self, f: ast.Avoids) -> bool:
        return not (self.cells(f.left) & self.cells(f.right))

    def _all_different_holds(self, f: ast.AllDifferent) -> bool:
        values = [self.enums[f.decision.id][i] for i in sorted(self.cells(f.cells))
                  if i in self.enums[f.decision.id]]
        return len(values) == len({(type(v), v) for v in values})

    def _aggregate_holds(self, f: ast.Aggregate) -> bool:
        """``all(F for q in S)``, ``any(F for q in S)``: F at each cell of S in turn, up to the first that
        decides (false for ``all``, true for ``any``), as ``and`` and ``or`` of conditions stop."""
        if f.fn not in ("all", "any"):
            raise SemanticError("expected a condition", f.span, source=self.spec.source)
        decides = f.fn == "any"
        var, body = f.var.id, f.body
        table, points = self.aggregate_domain(f)
        found = not decides
        for point in points:
            table[var] = point
            if bool(self.holds(body)) is decides:
                found = decides
                break
        table.pop(var, None)
        return found

    def _is_piece_holds(self, f: ast.IsPiece) -> bool:
        if f.family.kind in ("rectangles", "squares"):
            return self.rectangular(self.cells(f.cells), f.family)
        cells = self.cells(f.cells)
        return bool(cells) and self.form(cells) in {self.shape_form(s) for s in self.shapes(f.family)}

    def _is_known_holds(self, f: ast.IsKnown) -> bool:
        return self.is_known(f.operand)

    def _consists_of_holds(self, f: ast.ConsistsOf) -> bool:
        parts = _side_pieces(self.cells(f.cells), self.grid.rows, self.grid.cols)
        return sorted(self.form(p) for p in parts) == sorted(self.shape_form(s) for s in self.shapes(f.family))


_HOLDS = {ast.Compare: Conditions._compare_holds, ast.Implies: Conditions._implies_holds,
          ast.At: Conditions._at_holds, ast.AtIs: Conditions._at_is_holds, ast.Is: Conditions._is_holds,
          ast.Not: Conditions._not_holds, ast.And: Conditions._and_holds, ast.Or: Conditions._or_holds,
          ast.Subset: Conditions._subset_holds, ast.Avoids: Conditions._avoids_holds,
          ast.AllDifferent: Conditions._all_different_holds, ast.Aggregate: Conditions._aggregate_holds,
          ast.IsPiece: Conditions._is_piece_holds, ast.IsKnown: Conditions._is_known_holds,
          ast.ConsistsOf: Conditions._consists_of_holds}
"""A condition's node type -> the method that evaluates it (a construct's nodes are not here)."""

_COMPARE = {"<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "==": lambda a, b: a == b,
            "<": lambda a, b: a < b, ">": lambda a, b: a > b}
"""A comparison's operator -> the test of two integers."""


def _same(a: object, b: object) -> bool:
    """Equal values of one kind: ``True`` is not the integer 1 here."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _compare(left: int, op: str, right: int) -> bool:
    return _COMPARE[op](left, right)


def _side_pieces(cells, rows: int, cols: int) -> list[list[int]]:
    """The pieces of a cell set joined through shared sides (links do not join pieces)."""
    left = set(cells)
    out = []
    while left:
        start = min(left)
        piece, queue = {start}, deque([start])
        left.discard(start)
        while queue:
            u = queue.popleft()
            r, c = divmod(u, cols)
            for v, ok in ((u - cols, r > 0), (u + cols, r < rows - 1), (u - 1, c > 0), (u + 1, c < cols - 1)):
                if ok and v in left:
                    left.discard(v)
                    piece.add(v)
                    queue.append(v)
        out.append(sorted(piece))
    return out
