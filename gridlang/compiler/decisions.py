"""Decisions made: ``decide NAME: ... on ...`` lowered to the IR's variables, one per cell for a
Boolean decision and one-hot per cell for an enumeration, within the model-size limit.

Part of :class:`~gridlang.compiler.core._Compiler` (a mixin); the lowering is stated in the
package's docstring (:mod:`gridlang.compiler`).
"""

from __future__ import annotations

from gridlang.core.errors import SemanticError, Span, show_set
from gridlang.core.limits import MAX_VARIABLES
from gridlang.ir.literals import CellValue
from gridlang.ir.model import Cmp, Decision, Linear
from gridlang.language import ast
from gridlang.language.constructs import decision_of, rule_lowerings


class DecisionLowering:
    """The compiler's methods for ``decide`` statements (a mixin)."""

    def decide(self, st: ast.Decide) -> None:
        if st.lattice is not None:  # decide line: bool on edges, a construct's
            decision_of(st.lattice).decide(self, st)
            return
        if st.is_enum:
            self.decide_enum(st)
            return
        on = self.cells(st.on)
        lits: list[CellValue] = [False] * self.grid.size
        cells = []
        for i, v in enumerate(on):
            if v is True:
                lits[i] = self.new_var(st.name, i)
                cells.append((i, ((True, lits[i]),)))
        self.decision_lits[st.name] = lits
        self.decisions.append(Decision(st.name, (True,), tuple(cells)))

    def decide_enum(self, st: ast.Decide) -> None:
        on = self.cells(st.on)
        places = sum(v is True for v in on)
        # A construct may let a decision's largest values stand as one (blocks as large as their
        # value): the domain is then measured once they are.
        try:
            values, top, refused = self.domain_of(st, places), None, None
        except SemanticError as e:
            if not rule_lowerings():
                raise
            values, top, refused = self.domain_of(st, 1), None, e
        opened = next((o for c in rule_lowerings() if (o := c.open_domain(self, st, values)) is not None), None)
        if opened is not None:
            values, top = opened
        elif refused is not None:
            raise refused
        per_cell: list[dict[object, int] | None] = [None] * self.grid.size
        cells = []
        self.reserve(places * len(values))
        for i, v in enumerate(on):
            if v is True:
                lits = self.one_hot(st.name, i, values, st.span)
                per_cell[i] = lits
                cells.append((i, tuple(lits.items())))
        self.enum_lits[st.name] = per_cell
        self.decisions.append(Decision(st.name, tuple(values), tuple(cells), open_value=top))

    def reserve(self, count: int) -> None:
        """Refuse, before making them, ``count`` more variables than the model may hold."""
        if len(self.variables) + count >= MAX_VARIABLES:
            raise self.size_error(len(self.variables) + count, MAX_VARIABLES, "variables")

    def one_hot(self, name: str, cell: int | None, values: list, span: Span | None, label: str | None = None
                ) -> dict[object, int]:
        """One variable per value, ``name[r,c]=v`` (or ``name=LABEL=v`` for an edge), and the row
        ``sum == 1``: the one-hot encoding every enumerated decision shares. Returns value -> literal."""
        lits = {value: self.new_var(name, cell, value if label is None else f"{label}={value}") for value in values}
        self.constraints.append(Linear(tuple((1, l) for l in lits.values()), Cmp.EQ, 1, (), span))
        return lits

    def domain_of(self, st: ast.Decide, places: int) -> list[object]:
        """The values of an enumerated decision, in order (the union of its domain's parts).

        Linear in the number of values, which is held to what the model can
        take: ``places`` (the cells or edges the decision is made on) times
        the values must fit in :data:`~gridlang.core.limits.MAX_VARIABLES` with
        the variables made so far, and a range is measured before any of its
        values is made.

        Args:
            st: the ``decide`` statement.
            places: the cells or edges it is made on.

        Raises:
            SemanticError: a range is empty or repeats a value, or the
                values cannot fit in the model (located at the part that
                makes them too many).
            ParamError: a parameter repeats a value.
        """
        values: list[object] = []
        seen: set[object] = set()
        room = (MAX_VARIABLES - len(self.variables)) // max(places, 1)

        def fits(count: int, part, what: str) -> None:
            total = len(values) + count
            if total > room:
                where = f"{places:,} {'edges' if st.lattice else 'cells'}" if places else "no cell"
                raise SemanticError(
                    f"with {what}, {st.name!r} has {total:,} values on {where} of this map: "
                    f"{total * max(places, 1):,} variables, more than the {MAX_VARIABLES:,} a model holds",
                    part.span, source=self.spec.source)

        if st.name in self.sym.cell_decisions:
            cells = self.cell_domain(st)
            fits(len(cells), st.domain[0], f"the cells of {self.spec_text(st.domain[0].span)}")
            values.extend(cells)
            st_domain: tuple = ()
        else:
            st_domain = st.domain
        for part in st_domain:
            mark = len(values)
            if isinstance(part, ast.Symbol):
                values.append(part.id)
            elif isinstance(part, ast.IntLit):
                values.append(part.value)
            elif isinstance(part, ast.DomainRange):
                low, high = (self.constant(b) for b in (part.low, part.high))
                if high < low:
                    raise SemanticError(f"the range {low}..{high} is empty", part.span, source=self.spec.source)
                fits(high - low + 1, part, f"the range {self.spec_text(part.span)} ({low:,}..{high:,})")
                repeated = next((v for v in range(low, high + 1) if v in seen), None)
                if repeated is not None:
                    raise SemanticError(f"the range {low}..{high} repeats the value {repeated} of {st.name!r}",
                                        part.span, source=self.spec.source)
                values.extend(range(low, high + 1))
            elif isinstance(part, ast.DomainValues):  # the map's values of a tile, each once
                tile = self.sym.tiles[part.tile.id]
                found = {tile.value_of(ch) for ch, t in zip(self.grid.chars, self.grid.tiles) if t == part.tile.id}
                new = [v for v in sorted(found - {None}) if v not in seen]  # a '?' is no value
                fits(len(new), part, f"'values of {part.tile.id}'")
                values.extend(new)
            else:
                given: set[object] = set()
                for v in self.params[part.id]:
                    if v in given or v in seen:
                        raise self.param_error(
                            part.id, f"{part.id} = {show_set(self.params[part.id])} repeats the value {v}, but the "
                            f"values of the enumerated decision {st.name!r} must be distinct", part.span)
                    given.add(v)
                fits(len(self.params[part.id]), part, f"{part.id}")
                values.extend(self.params[part.id])
            seen.update(values[mark:])
        self.domain_values[st.name] = tuple(values)
        self.domain_sets[st.name] = frozenset(values)
        return values
