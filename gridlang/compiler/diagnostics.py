"""Errors the compiler locates: in the spec, in the map, or in a parameter.

A rule instance that fails whatever the decisions on this map (two clues
of 2 on a 1x3 Nurikabe: its cells cannot hold both islands) makes the puzzle
infeasible, as a conflict found by the solver does: the instance becomes the
empty clause, so that ``--explain`` and the other why-tools name it. A rule
that fails whatever the map (a constant comparison, or one of parameters
only) is an error in the spec or the parameter, located there; a model past
the size limits is refused at the statement that made it so. Part of :class:`gridlang.compiler.core._Compiler`
(a mixin).
"""

from __future__ import annotations

from gridlang.core.errors import GridlangError, MapError, ParamError, SemanticError, Span, show_set
from gridlang.core.limits import MAX_CONSTRAINTS, MAX_ROW_MAGNITUDE, MAX_VARIABLES
from gridlang.core.nodes import field_names
from gridlang.ir.model import Clause
from gridlang.language import ast


class Diagnostics:
    """The compiler's located errors (a mixin of :class:`~gridlang.compiler.core._Compiler`)."""

    def check_size(self) -> None:
        """Refuse a model past :data:`~gridlang.core.limits.MAX_VARIABLES` or
        :data:`~gridlang.core.limits.MAX_CONSTRAINTS`, at the statement being compiled.

        Raises:
            SemanticError: the model is too large, located at the statement.
        """
        for count, limit, what in ((len(self.variables), MAX_VARIABLES, "variables"),
                                   (len(self.constraints), MAX_CONSTRAINTS, "constraints")):
            if count >= limit:
                raise self.size_error(count, limit, what)

    def size_error(self, count: int, limit: int, what: str) -> SemanticError:
        """The error for a model of ``count`` (or more) ``what``, at the statement being compiled."""
        return SemanticError(f"on this {self.grid.rows}x{self.grid.cols} map the statement makes the model "
                             f"larger than {limit:,} {what}, the most gridlang builds",
                             getattr(self.statement, "span", None), source=self.spec.source)

    def check_row(self, terms: tuple[tuple[int, int], ...], constant: int, span: Span | None, what: str) -> None:
        """Refuse a row or objective beyond :data:`~gridlang.core.limits.MAX_ROW_MAGNITUDE`.

        Raises:
            SemanticError: its coefficients and constant add up to more, in
                magnitude; located at the statement.
        """
        total = sum(abs(c) for c, _ in terms) + abs(constant)
        if total > MAX_ROW_MAGNITUDE:
            raise SemanticError(
                f"{what}'s coefficients and constant add up to {_magnitude(total)} on this map, beyond the "
                f"limit of {MAX_ROW_MAGNITUDE:,} up to which every backend computes exactly",
                span, source=self.spec.source)

    def spec_text(self, span: Span) -> str:
        """The spec's text under a one-line span (``0..budget``)."""
        line = self.spec.source.splitlines()[span.line - 1]
        return line[span.column - 1 : (span.end_column or span.column + 1) - 1]

    def rule_text(self, st) -> str:
        sp = st.span
        line = self.spec.source.splitlines()[sp.line - 1]
        end = sp.end_column if sp.end_column else len(line) + 1
        return line[sp.column - 1 : end - 1].strip()

    def cell_error(self, st, cell: int, reason: str | None) -> GridlangError:
        r, c = self.grid.cell(cell)
        ch = self.grid.chars[cell]
        msg = (f"the rule 'require {self.rule_text(st)}' ({st.span}) cannot hold at row {r + 1}, column {c + 1} "
               f"({ch!r})" + (f": {reason}" if reason else ""))
        if self.map_data is not None:
            return MapError(msg, self.map_data.span(r, c), source=self.map_data.source)
        return SemanticError(msg, st.span, source=self.spec.source)

    def why_not(self, e: ast.Expr, cell: int) -> str | None:
        """Why the cell set ``e`` can never hold ``cell``, when that is simple to say."""
        if isinstance(e, ast.Is):
            value = self.resolve_value(e.decision.id, e.value, cell)
            per_cell = self.enum_lits[e.decision.id][cell]
            if per_cell is None:
                return f"{e.decision.id!r} is not decided on this cell"
            values = list(per_cell)
            return f"{value!r} is not a value of {e.decision.id!r} ({show_set(values)})"
        return None

    def ends_error(self, st: ast.IsPath, ends: list[int]) -> GridlangError:
        msg = (f"the rule 'require {self.rule_text(st)}' ({st.span}) needs exactly two end cells; "
               f"the map has {len(ends)}")
        if self.map_data is None:
            return SemanticError(msg, st.span, source=self.spec.source)
        r, c = self.grid.cell(ends[2]) if len(ends) > 2 else (0, 0)
        return MapError(msg, self.map_data.span(r, c), source=self.map_data.source)

    def param_error(self, name: str, message: str, fallback: Span | None) -> GridlangError:
        """An error about parameter ``name``, located where its value was given."""
        if self.map_data is not None and name in self.map_data.params:
            return ParamError(message, self.map_data.params[name][1], source=self.map_data.source)
        return ParamError(message, fallback, source=self.spec.source if fallback else None)

    def false_instance(self, st) -> None:
        """The rule instance being compiled holds in no answer on this map: the empty clause, made
        under the instance (tagged with it by :func:`gridlang.compiler.compile_tagged`), so the solver
        finds the puzzle infeasible and a minimal explanation names the instance."""
        self.constraints.append(Clause((), getattr(st, "span", None)))

    def fails_by_map(self, st) -> bool:
        """Whether a statement that fails owes it to the map alone: it names a tile, a ``for each``
        variable or a decision, and no parameter (a failing rule that reads a parameter is that
        parameter's error, located where its value was given; one of constants, the spec's)."""
        names = names_in(st)
        return any(n not in self.params for n in names) and not any(n in self.params for n in names)

    def constant_rule_error(self, st: ast.Compare, left: int, right: int) -> GridlangError:
        names = [n for n in names_in(st) if n in self.params]
        msg = (f"the rule 'require {self.rule_text(st)}' ({st.span}) fails whatever the decisions: "
               f"{left} {st.op} {right} is false")
        if names:
            values = ", ".join(f"{n} = {show_set(self.params[n]) if isinstance(self.params[n], tuple) else self.params[n]}"
                               for n in names)
            msg += f" with {values}"
            given = [n for n in names if self.map_data is not None and n in self.map_data.params]
            if given:
                return self.param_error(given[0], msg, st.span)
        return SemanticError(msg, st.span, source=self.spec.source)

    def describe(self, e: ast.Expr) -> str:
        """A short name for a cell set, for connectivity nodes: ``kind=3``."""
        if isinstance(e, ast.Is):
            value = e.value
            if isinstance(value, ast.Name):
                return f"{e.decision.id}={self.resolve_value(e.decision.id, value, None)}"
            if isinstance(value, ast.IntLit):
                return f"{e.decision.id}={value.value}"
            return f"{e.decision.id}=value"
        if isinstance(e, ast.Name):
            return e.id
        return "region"


def _magnitude(n: int) -> str:
    """A large integer as digits with separators, or as a power of ten when longer."""
    return f"{n:,}" if n < 10**21 else f"about 10**{len(str(n)) - 1}"


def names_in(node) -> list[str]:
    """Every name an AST node mentions, in order, without repeats."""
    out: list[str] = []

    def walk(x) -> None:
        if isinstance(x, ast.Name):
            out.append(x.id)
        elif isinstance(x, tuple):
            for y in x:
                walk(y)
        else:
            for f in field_names(x):
                if f != "span":
                    walk(getattr(x, f))

    walk(node)
    return list(dict.fromkeys(out))
