"""Types of the constructs for genres as data (a mixin of the checker).

``value(c)`` of a clue cell and a named part ``down(c)`` are integers known
from the map; ``values(c)`` a list of them; ``direction(c)`` a direction
(``-d`` too); ``distance(p, q)``, ``row index(p)`` and ``column index(p)``
integers; ``N is known`` a condition known from the map. A decision whose
values are cells (``decide owner: clue on all``) is compared with a cell
variable (``owner = c``, ``owner[p] = c``) or with itself at another cell
(``owner[p] = owner[q]``). Statements: ``let`` (declared here; its uses were
substituted by the parser), ``connectivity``, and the clue tiles.
"""

from __future__ import annotations

from gridlang.language import ast
from gridlang.language.checker.symbols import Type

CONSTRUCT_NODES = (ast.Part, ast.ValuesOf, ast.DirectionOf, ast.Distance, ast.IndexOf, ast.IsKnown, ast.Call)
"""The expression nodes typed here."""

STRATEGIES = ("auto", "cuts", "flow", "tree", "reach")
"""The connectivity strategies some backend offers (``gridlang backends`` lists each one's)."""


def is_direction_decision(decl) -> bool:
    """Whether ``decl`` (an ``ast.Decide``, or None) is made on cells and has a direction (``up``,
    ``down``, ``left``, ``right``) among its values: ``p + dir[p]`` steps by its value."""
    return decl is not None and decl.has_directions


class ConstructTypes:
    """Typing of the new constructs (mixed into the checker beside ``ExpressionTypes``)."""

    def construct_type(self, e) -> Type | None:
        """The type of a construct of :data:`CONSTRUCT_NODES`, or None after reporting an error in it."""
        if isinstance(e, ast.Call):
            known = sorted(set(self.sym.lets) | set(self.sym.parts))
            kind = self.sym.kind_of(e.name.id) or self.env.get(e.name.id)
            if kind is not None:
                self.error(f"{e.name.id!r} is {'a ' + kind}, not a function: a call NAME(...) names a let with "
                           f"parameters or a part of a clue tile (tile T numbers A, B)", e.name.span)
            else:
                self.error(f"unknown function {e.name.id!r}" + (f" (the spec's: {', '.join(known)})" if known else
                           " (a call NAME(...) names a let with parameters or a part of a clue tile)"), e.name.span)
            return None
        if isinstance(e, ast.IsKnown):
            t = self.type_of(e.operand)
            if t is not None and t not in (Type.INT, Type.LIST, Type.DIRECTION):
                self.error(f"'is known' asks whether numbers read from the map hold no '?'; this is {t.value}",
                           _span(e.operand))
                return None
            return None if t is None else Type.FACT
        if isinstance(e, ast.Distance):
            ok = self.cell(e.a, "distance(...)") & self.cell(e.b, "distance(...)")
            return Type.INT if ok else None
        what = {ast.Part: f"{getattr(e, 'name', '')}(...)", ast.ValuesOf: "values(...)",
                ast.DirectionOf: "direction(...)", ast.IndexOf: f"{getattr(e, 'kind', '')} index(...)"}[type(e)]
        if not self.cell(e.cell, what):
            return None
        return {ast.ValuesOf: Type.LIST, ast.DirectionOf: Type.DIRECTION}.get(type(e), Type.INT)

    def cell_valued(self, st: ast.Decide) -> bool:
        """Whether ``decide D: S on ...`` takes cells as values: its domain is one tile or tag name."""
        return (isinstance(st.domain, tuple) and len(st.domain) == 1 and isinstance(st.domain[0], ast.Name)
                and self.sym.kind_of(st.domain[0].id) in ("tile", "tag"))

    def cell_value(self, decision: ast.Decide, value) -> None:
        """Check the value compared with a decision whose values are cells: a cell variable."""
        if isinstance(value, ast.Name) and self.env.get(value.id) in ("cell", "pair"):
            return
        shown = value.id if isinstance(value, ast.Name) else "value" if isinstance(value, ast.TileValue) else \
            getattr(value, "value", "this")
        self.error(f"the values of {decision.name!r} are cells of {self.sym.cell_decisions[decision.name]!r}; "
                   f"compare it with a cell variable ({decision.name} = c), not {shown!r}", _span(value))

    def is_direction_expr(self, e) -> bool:
        """Whether ``e`` is ``direction(c)``, a decided direction ``dir[p]`` (a decision whose values
        include a direction) or ``-d`` of a direction (the forms a direction takes besides ``up`` and a
        ``for each direction`` variable). The cell of ``direction(c)`` and of ``dir[p]`` is checked
        here, where a cell or a sight asks whether its step is a direction (an error is reported once)."""
        if isinstance(e, ast.DirectionOf):
            self.type_of(e)
            return True
        if isinstance(e, ast.At) and is_direction_decision(self.sym.decisions.get(e.name.id)) \
                and e.name.id not in self.env:
            self.cell(e.cell, f"{e.name.id}[...]")
            return True
        return isinstance(e, ast.Neg) and self.is_direction(e.operand)

    # statements ----------------------------------------------------------------------------
    def _let(self, st: ast.Let) -> None:
        if self.declare(st.name, st):
            self.sym.lets[st.name] = st
        seen: set[str] = set()
        for p in st.params:
            if p.id in seen:
                self.error(f"parameter {p.id!r} appears twice", p.span)
            elif p.id in self.declared or p.id in ("border", "all"):
                self.error(f"{p.id!r} is already declared; a parameter needs a new name", p.span)
            seen.add(p.id)

    def _connectivity(self, st: ast.Connectivity) -> None:
        if self.sym.connectivity is not None:
            self.error("a spec has at most one 'connectivity' statement; this is the second", st.span)
        elif st.strategy not in STRATEGIES:
            self.error(f"unknown connectivity strategy {st.strategy!r}; the backends offer "
                       f"{', '.join(STRATEGIES)} (gridlang backends)", st.span)
        else:
            self.sym.connectivity = st.strategy

    def clue_tile(self, st: ast.Tile) -> None:
        """Register a tile of numbers or of arrows, and declare its parts."""
        table = self.sym.chars
        attr = "numbers" if st.clue == "numbers" else "arrow"
        word = "numbers" if st.clue == "numbers" else "arrow number"
        if getattr(table, attr) is not None:
            self.error(f"the spec has one '{word}' tile; {getattr(table, attr)!r} is the first", st.span)
            return
        setattr(table, attr, st.name)
        digits = [ch for ch in table if ch.isdigit()]
        if digits:
            self.error(f"a clue tile claims every digit, but {digits[0]!r} is already a {table[digits[0]]!r} tile",
                       st.span)
        for name, span in zip(st.parts, st.attr_spans.get("parts", ())):
            if self.declare(name, _Named(span)):
                self.sym.parts[name] = (st.name, st.parts.index(name))


class _Named:
    """A declaration's location, for the name table (a part of a clue tile)."""

    def __init__(self, span):
        self.span = span


def _span(e):
    return getattr(e, "span", None)
