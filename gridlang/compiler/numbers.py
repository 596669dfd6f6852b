"""Numbers lowered to linear sums: literals, parameters, counts and tile values of cell sets,
degrees and edge values, sums, products with one side known, and the numbers of constructs
(:mod:`gridlang.language.constructs`), each as coefficients on the model's literals and a
constant (mixed into the compiler, :class:`gridlang.compiler.core._Compiler`).
"""

from __future__ import annotations

from gridlang.core.errors import SemanticError
from gridlang.ir.literals import add_literal
from gridlang.language import ast
from gridlang.language.constructs import construct_of


class NumberLowering:
    """The compiler's numbers: ``linear`` and its pieces (``self`` is the compiler)."""

    def linear(self, e: ast.Expr) -> tuple[tuple[tuple[int, int], ...], int]:
        """Return ``(((coef, var), ...), constant)`` with positive literals only."""
        coef: dict[int, int] = {}
        const = self._linear(e, 1, coef)
        terms = tuple((c, v) for v, c in sorted(coef.items()) if c)
        return terms, const

    def _linear(self, e: ast.Expr, scale: int, coef: dict[int, int]) -> int:
        if isinstance(e, ast.IntLit):
            return scale * e.value
        if isinstance(e, ast.Name):
            if e.id in self.env:
                return scale * int(self.env[e.id])
            value = self.params[e.id]
            return scale * int(value)
        if isinstance(e, ast.SumOf) and isinstance(e.operand, ast.ValuesOf):
            return scale * self.list_sum(e.operand)
        if isinstance(e, ast.SumOf):
            return scale * sum(self.params[e.operand.id])
        if isinstance(e, ast.Part):
            return scale * self.part_value(e)
        if isinstance(e, (ast.Distance, ast.IndexOf)):
            return scale * self.geometry(e)
        if isinstance(e, ast.Count) and isinstance(e.operand, ast.ValuesOf):
            return scale * len(self.list_values(e.operand))
        if isinstance(e, ast.At):
            # an integer decision's value at a cell: sum of v * [D = v] (0 off the grid)
            p = self.cell_of(e.cell)
            const = 0
            for value, lit in ((self.enum_lits[e.name.id][p] or {}) if p is not None else {}).items():
                const += add_literal(lit, scale * value, coef)
            return const
        if isinstance(e, ast.Aggregate):
            parts = self.over(e, (lambda body: self.lit_of(body)) if e.fn == "count" else
                              (lambda body: self._linear(body, scale, coef)))
            if e.fn == "count":
                return sum(add_literal(lit, scale, coef) for lit in parts)
            return sum(parts)
        if isinstance(e, ast.Value) and self.is_corners(e.operand):
            return scale * self.corner_number(e)
        if isinstance(e, ast.Value) and self.is_borders(e.operand):
            return scale * self.border_number(e)
        if isinstance(e, (ast.Count, ast.Value)):
            const = 0
            for i, v in sorted(self.members(e.operand).items()):
                w = 1 if isinstance(e, ast.Count) else self.tile_value(i, e.span)
                w *= scale
                if v is False or w == 0:
                    continue
                if v is True:
                    const += w
                elif v > 0:
                    coef[v] = coef.get(v, 0) + w
                else:  # w * (1 - x)
                    const += w
                    coef[-v] = coef.get(-v, 0) - w
            return const
        if isinstance(e, ast.Add):
            return self._linear(e.left, scale, coef) + self._linear(e.right, scale * e.sign, coef)
        if isinstance(e, ast.Neg):
            return self._linear(e.operand, -scale, coef)
        if isinstance(e, ast.Mul):
            # Each side once: trying one side as a constant and then evaluating it again doubled the
            # work at every level of a product, 2**depth in all (51 s for 20 factors).
            sides = []
            for side in (e.left, e.right):
                terms: dict[int, int] = {}
                sides.append((self._linear(side, 1, terms), terms))
            (lc, lt), (rc, rt) = sides
            if not any(lt.values()):
                factor, const, terms = lc, rc, rt
            elif not any(rt.values()):
                factor, const, terms = rc, lc, lt
            else:
                raise SemanticError("a product takes a number known before solving on one side", e.span,
                                    source=self.spec.source)
            for v, c in terms.items():
                if c:
                    coef[v] = coef.get(v, 0) + scale * factor * c
            return scale * factor * const
        construct = construct_of(e)
        if construct is not None:
            return construct.linear(self, e, scale, coef)
        raise SemanticError("expected a number", getattr(e, "span", None), source=self.spec.source)

        if v > 0:
            coef[v] = coef.get(v, 0) + w
            return 0
        coef[-v] = coef.get(-v, 0) - w
        return w

    def constant(self, e: ast.Expr) -> int | None:
        """The value of the number ``e`` when it is known before solving (no decision in it), else None."""
        probe: dict[int, int] = {}
        try:
            value = self._linear(e, 1, probe)
        except SemanticError:
            return None
        return None if any(probe.values()) else value
