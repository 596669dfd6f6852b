"""Semantic checks of a parsed spec, and its symbol table.

The checker resolves every name, gives every expression a type and reports
all the problems it finds in one :class:`~gridlang.errors.MultipleErrors`
(or the single error), each located in the spec:

* a name used but not declared, or declared twice;
* a map character claimed by two tiles;
* a type mismatch (a cell set where a number is expected, a product of two
  decision-dependent sums, ...);
* a region whose roots depend on decisions;
* an enumerated decision used as a plain cell set (``kind`` instead of
  ``kind = snake``), a value that is not in its domain, a loop variable
  that shadows a declared name.

Types:

``FIXED``
    a cell set known from the map alone (tiles, tags, ``border``, ``all``).
``CELLS``
    a cell set that depends on decisions (a Boolean decision, a region).
``INT``
    an integer constant (literals, ``int`` parameters).
``LINEAR``
    a linear sum over decisions (``count(wall)``, ``value(pen) - 6``).
``INT_SET``
    a set of integers (``set of int`` parameters).
``FACT``
    a condition known from the map alone (``value(p) == value(q)``, ``p in
    clue``, ``room(p) != room(q)``).
``BOOL``
    a condition that depends on decisions (``star[p]``, ``count(star and r)
    == 1``, ``shaded[p] implies not shaded[q]``).

A ``for each`` variable is an integer, a cell (usable wherever a fixed cell
set is: it is the set of that one cell) or a fixed cell set (a row, a
column, a room, a window, a block).
"""

from __future__ import annotations

import enum
import operator
from dataclasses import dataclass, field

from . import ast
from .errors import GridlangError, SemanticError, Span, raise_all

_BOUND = {"<=": operator.le, ">=": operator.ge, "==": operator.eq, "<": operator.lt, ">": operator.gt}
"""A parameter bound's comparison, as a function of the value and the bound."""


class Type(enum.Enum):
    """The type of an expression."""

    FIXED = "a fixed cell set"
    CELLS = "a cell set"
    INT = "an integer"
    LINEAR = "a linear sum"
    INT_SET = "a set of integers"
    FACT = "a condition known from the map"
    BOOL = "a condition"
    DIRECTION = "a direction"

    @property
    def is_cond(self) -> bool:
        """FACT or BOOL."""
        return self in (Type.FACT, Type.BOOL)

    @property
    def is_cells(self) -> bool:
        """FIXED or CELLS."""
        return self in (Type.FIXED, Type.CELLS)

    @property
    def is_number(self) -> bool:
        """INT or LINEAR."""
        return self in (Type.INT, Type.LINEAR)


class TileTable(dict):
    """Map character -> tile name, and the tile of the cells that hold a number.

    ``get(text)`` answers for a single character as a dict does; for a
    cell's text that is a whole number (``7``, ``12``) not claimed by a
    character of its own, it answers the ``number`` tile, when the spec
    declares one.

    Attributes:
        number: the name of the ``number`` tile, or None.
    """

    number: str | None = None

    def get(self, key, default=None):
        """The tile of a cell's text, or ``default``."""
        if key in self:
            return self[key]
        if self.number is not None and isinstance(key, str) and key.isascii() and key.isdigit():
            return self.number
        return default


@dataclass
class Symbols:
    """What a spec declares, by name.

    Attributes:
        tiles: tile name -> Tile.
        tags: tag name -> names of the tiles that carry it.
        chars: map character -> tile name (a :class:`TileTable`, which also
            answers the ``number`` tile for a cell's number).
        params: parameter name -> Param.
        decisions: decision name -> Decide.
        regions: region name -> Region.
    """

    tiles: dict[str, ast.Tile] = field(default_factory=dict)
    tags: dict[str, list[str]] = field(default_factory=dict)
    chars: TileTable = field(default_factory=TileTable)
    params: dict[str, ast.Param] = field(default_factory=dict)
    decisions: dict[str, ast.Decide] = field(default_factory=dict)
    regions: dict[str, ast.Region] = field(default_factory=dict)

    def kind_of(self, name: str) -> str | None:
        """``tile``, ``tag``, ``param``, ``decision``, ``region`` or None."""
        for kind, table in (("tile", self.tiles), ("tag", self.tags), ("param", self.params),
                            ("decision", self.decisions), ("region", self.regions)):
            if name in table:
                return kind
        return None


def check(spec: ast.Spec) -> Symbols:
    """Check ``spec`` and build its symbol table.

    Returns:
        The symbols.

    Raises:
        SemanticError: one problem.
        MultipleErrors: several, in source order.
    """
    return _Checker(spec).run()


class _Checker:
    def __init__(self, spec: ast.Spec):
        self.spec = spec
        self.sym = Symbols()
        self.errors: list[GridlangError] = []
        self.declared: dict[str, ast.Stmt] = {}
        # Names bound by `for each`: "int", "cell", "set" (a fixed cell set),
        # "pair" (a cell of `for each neighbours a, b`).
        self.env: dict[str, str] = {}
        # True while checking a condition nested in another expression.
        self.nested = False

    def error(self, message: str, span) -> None:
        self.errors.append(SemanticError(message, span, source=self.spec.source))

    def run(self) -> Symbols:
        puzzles = self.spec.of(ast.Puzzle)
        for extra in puzzles[1:]:
            self.error("a spec has one 'puzzle' statement; this is the second", extra.span)
        objectives = self.spec.of(ast.Objective)
        for extra in objectives[1:]:
            self.error("a spec has at most one objective; this is the second", extra.span)
        for st in self.spec.statements:
            handler = getattr(self, "_" + type(st).__name__.lower())
            handler(st)
        if not self.errors and not self.sym.decisions:
            self.error("the spec is empty; a spec declares tiles, decides on cells (decide NAME: bool on CELLS) "
                       "and states rules (docs/language.md)" if not self.spec.statements else
                       "the spec decides nothing: without a 'decide' statement there is nothing to solve "
                       "(decide NAME: bool on CELLS)", Span(self.spec.path, 1, 1))
        raise_all(self.errors)
        return self.sym

    def declare(self, name: str, st) -> bool:
        if name in self.declared:
            prev = self.declared[name]
            where = f"line {prev.span.line}" if prev.span else "above"
            self.error(f"{name!r} is already declared ({where})", st.span)
            return False
        self.declared[name] = st
        return True

    # statements -----------------------------------------------------------
    def _puzzle(self, st: ast.Puzzle) -> None:
        pass

    def _tile(self, st: ast.Tile) -> None:
        if not self.declare(st.name, st):
            return
        self.sym.tiles[st.name] = st
        if st.number:
            if self.sym.chars.number is not None:
                self.error(f"the spec has one number tile; {self.sym.chars.number!r} is the first", st.span)
            else:
                self.sym.chars.number = st.name
                digits = [ch for ch, owner in self.sym.chars.items() if ch.isdigit()]
                if digits:
                    self.error(f"a number tile claims every digit, but {digits[0]!r} is already a "
                               f"{self.sym.chars[digits[0]]!r} tile", st.span)
        for spec in st.chars:
            for ch in spec.chars():
                owner = self.sym.chars.get(ch)
                if owner is not None:
                    self.error(f"map character {ch!r} is already a {owner!r} tile"
                               + (" (a number tile claims every digit)" if ch not in self.sym.chars else ""),
                               spec.span)
                else:
                    self.sym.chars[ch] = st.name
        for tag in st.tags:
            if tag in self.declared and self.sym.kind_of(tag) != "tag":
                self.error(f"tag {tag!r} is already declared as a {self.sym.kind_of(tag) or 'name'}",
                           st.attr_spans.get("tag", st.span))
                continue
            self.declared.setdefault(tag, st)
            self.sym.tags.setdefault(tag, []).append(st.name)
        if st.count is not None and st.count[1] < 0:
            self.error("a tile count cannot be negative", st.attr_spans.get("count", st.span))

    def _param(self, st: ast.Param) -> None:
        if not self.declare(st.name, st):
            return
        self.sym.params[st.name] = st
        if st.default is not None:
            is_set = isinstance(st.default, frozenset)
            if is_set != (st.type == "set of int"):
                self.error(f"the default of {st.name!r} is not of type {st.type}", st.span)
        if st.bounds and st.type != "int":
            self.error(f"bounds apply to 'int' parameters, not to {st.type!r}", st.span)
        elif isinstance(st.default, int):
            for op, bound in st.bounds:
                if not _BOUND[op](st.default, bound):
                    self.error(f"the default {st.name} = {st.default} breaks the bound {st.name} {op} {bound} "
                               "declared with it", st.default_span or st.span)

    def _decide(self, st: ast.Decide) -> None:
        if st.is_enum:
            seen: set = set()
            for part in st.domain:
                if isinstance(part, ast.Name):
                    decl = self.sym.params.get(part.id)
                    if decl is None or decl.type != "set of int":
                        what = self.sym.kind_of(part.id)
                        self.error(f"a domain takes value lists in braces and 'set of int' parameters; "
                                   f"{part.id!r} is {'a ' + what if what else 'not declared'}"
                                   f"{'' if what else self._suggest(part.id)}", part.span)
                    continue
                if isinstance(part, ast.DomainRange):
                    for bound in (part.low, part.high):
                        t = self.type_of(bound)
                        if t is not None and t is not Type.INT:
                            self.error(f"a range's bounds are integers known before solving; this is {t.value}",
                                       _span(bound))
                    continue
                key = part.id if isinstance(part, ast.Symbol) else part.value
                if key in seen:
                    self.error(f"{key!r} appears twice in the domain of {st.name!r}", part.span)
                seen.add(key)
        t = self.type_of(st.on)
        if t is not None and t is not Type.FIXED:
            self.error(f"a decision is made on a fixed cell set (tiles, tags, border, all); this is {t.value}",
                       _span(st.on))
        if self.declare(st.name, st):
            self.sym.decisions[st.name] = st

    def _region(self, st: ast.Region) -> None:
        t = self.type_of(st.roots)
        if t is not None and t is not Type.FIXED:
            self.error("a region grows from a fixed cell set (tiles, tags); this one depends on decisions",
                       _span(st.roots))
        t = self.type_of(st.through)
        if t is not None and not t.is_cells:
            self.error(f"'through' takes a cell set; this is {t.value}", _span(st.through))
        if self.declare(st.name, st):
            self.sym.regions[st.name] = st

    # rules -----------------------------------------------------------------
    def _avoids(self, st: ast.Avoids) -> None:
        self.rule(st)

    def _subset(self, st: ast.Subset) -> None:
        self.rule(st)

    def _compare(self, st: ast.Compare) -> None:
        self.rule(st)

    def _isconnected(self, st: ast.IsConnected) -> None:
        self.rule(st)

    def _ispath(self, st: ast.IsPath) -> None:
        self.rule(st)

    def _holds(self, st: ast.Holds) -> None:
        self.rule(st.formula)

    def rule(self, e) -> None:
        """Check a rule's condition (a ``require`` or the body of a ``for each``)."""
        self.nested = False
        t = self.type_of(e)
        if t is not None and not t.is_cond:
            hint = {Type.INT: " (compare it: count(...) == N)", Type.LINEAR: " (compare it: count(...) == N)",
                    Type.CELLS: " (relate it: S in T, S avoids T, S is connected)",
                    Type.FIXED: " (relate it: S in T, S avoids T, S is connected)"}.get(t, "")
            self.error(f"a rule is a condition; this is {t.value}{hint}", _span(e))

    def _bind(self, var: ast.Name, kind: str) -> bool:
        if var.id in self.declared or var.id in ("border", "all"):
            self.error(f"{var.id!r} is already declared; a 'for each' variable needs a new name", var.span)
            return False
        if var.id in self.env:
            self.error(f"{var.id!r} is already bound by an enclosing 'for each'", var.span)
            return False
        self.env[var.id] = kind
        return True

    def _foreach(self, st: ast.ForEach) -> None:
        kind = self.domain_kind(st.domain)
        bound = kind is not None and self._bind(st.var, kind)
        handler = getattr(self, "_" + type(st.body).__name__.lower())
        handler(st.body)
        if bound:
            del self.env[st.var.id]

    def domain_kind(self, domain) -> str | None:
        """What a ``for each`` variable over ``domain`` is: ``int``, ``cell``, ``set`` or ``shape``; None after an error."""
        if isinstance(domain, ast.Shapes):
            return "shape" if self.family(domain) else None
        if isinstance(domain, ast.Family):
            for dim in (domain.height, domain.width):
                if dim is None:
                    continue
                t = self.type_of(dim)
                if t is not None and t is not Type.INT:
                    self.error(f"a window's or block's size is an integer known before solving; this is {t.value}",
                               _span(dim))
                    return None
            return {"cells": "cell", "directions": "direction"}.get(domain.kind, "set")
        t = self.type_of(domain)
        if t is None:
            return None
        if t is Type.INT_SET:
            return "int"
        if t is Type.FIXED:
            return "cell"
        self.error(f"'for each' runs over a set of integers (a 'set of int' parameter) or the cells of a "
                   f"cell set known from the map; this is {t.value}", _span(domain))
        return None

    def _forpairs(self, st: ast.ForPairs) -> None:
        if st.a.id == st.b.id:
            self.error("the two cells of a pair need different names", st.b.span)
            return
        bound = [v for v in (st.a, st.b) if self._bind(v, "pair")]
        self._formula(st.body)
        for v in bound:
            del self.env[v.id]

    def _formula(self, f) -> None:
        if isinstance(f, ast.PMember):
            self._cellref(f.ref, member=True)
        elif isinstance(f, ast.PEq):
            decision = self._cellref(f.left, member=False)
            if isinstance(f.right, ast.CellRef):
                other = self._cellref(f.right, member=False)
                if decision is not None and other is not None and decision.name != other.name:
                    self.error(f"{decision.name}[...] = {other.name}[...]: both sides must name the same decision",
                               f.span)
            elif decision is not None:
                self._enum_value(decision, f.right)
        elif isinstance(f, ast.PNot):
            self._formula(f.operand)
        elif isinstance(f, (ast.PAnd, ast.POr)):
            for g in f.operands:
                self._formula(g)
        elif isinstance(f, ast.PImplies):
            self._formula(f.left)
            self._formula(f.right)
        else:
            raise TypeError(f"unknown formula node {f!r}")

    def _cellref(self, ref: ast.CellRef, member: bool) -> ast.Decide | None:
        """Check ``S[a]``; return the decision it names (for ``D[a] = ...``)."""
        if self.env.get(ref.cell.id) != "pair":
            bound = [k for k, v in self.env.items() if v == "pair"]
            self.error(f"{ref.cell.id!r} is not a cell of the pair (write {ref.name.id}[{bound[0] if bound else 'a'}])",
                       ref.cell.span)
        kind = self.sym.kind_of(ref.name.id)
        if kind is None:
            self.error(f"unknown name {ref.name.id!r}{self._suggest(ref.name.id)}", ref.name.span)
            return None
        if member:
            if kind == "param" or (kind == "decision" and self.sym.decisions[ref.name.id].is_enum):
                what = "an enumerated decision; say which value, e.g. " + f"{ref.name.id}[{ref.cell.id}] = VALUE" \
                    if kind == "decision" else "a parameter, not a cell set"
                self.error(f"{ref.name.id!r} is {what}", ref.name.span)
            return None
        if kind != "decision":
            self.error(f"{ref.name.id!r} is a {kind}; only a decision has a value at a cell", ref.name.span)
            return None
        return self.sym.decisions[ref.name.id]

    def _enum_value(self, decision: ast.Decide, value) -> None:
        """Check the value compared with an enumerated decision."""
        if not decision.is_enum:
            self.error(f"{decision.name!r} is a Boolean decision; use it as a cell set", _span(value))
            return
        if isinstance(value, (ast.IntLit, ast.TileValue)):
            return
        symbols = {p.id for p in decision.domain if isinstance(p, ast.Symbol)}
        if value.id in symbols:
            return
        if self.env.get(value.id) == "int":
            return
        decl = self.sym.params.get(value.id)
        if decl is not None and decl.type == "int":
            return
        names = ", ".join(sorted(symbols)) or "none"
        self.error(f"{value.id!r} is not a value of {decision.name!r} (its value names: {names}), "
                   f"a 'for each' variable or an int parameter{self._suggest(value.id)}", value.span)

    def _objective(self, st: ast.Objective) -> None:
        t = self.type_of(st.expr)
        if t is not None and not t.is_number:
            hint = " (use value(...) or count(...))" if t.is_cells else ""
            self.error(f"the objective must be a number; this is {t.value}{hint}", _span(st.expr))

    # expressions ----------------------------------------------------------
    def type_of(self, e: ast.Expr) -> Type | None:
        """The type of ``e``, or None after reporting an error in it."""
        if isinstance(e, (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath, ast.AllDifferent,
                          ast.Implies, ast.IsPiece, ast.ConsistsOf)):
            return self.relation(e)
        nested, self.nested = self.nested, True
        try:
            return self._type_of(e)
        finally:
            self.nested = nested

    def relation(self, e) -> Type | None:
        """The type of a relation (a condition); errors name the relation's word."""
        nested, self.nested = self.nested, True
        try:
            if isinstance(e, ast.Implies):
                tl, tr = self.type_of(e.left), self.type_of(e.right)
                for side, t in ((e.left, tl), (e.right, tr)):
                    if t is not None and not t.is_cond:
                        self.error(f"'implies' joins two conditions; this is {t.value}", _span(side))
                        return None
                return None if None in (tl, tr) else _cond(tl, tr)
            if isinstance(e, (ast.Avoids, ast.Subset)):
                word = "avoids" if isinstance(e, ast.Avoids) else "in"
                types = []
                for side in (e.left, e.right):
                    t = self.type_of(side)
                    if t is not None and not t.is_cells:
                        self.error(f"both sides of '{word}' are cell sets; this is {t.value}", _span(side))
                        t = None
                    types.append(t)
                return None if None in types else (Type.FACT if types == [Type.FIXED, Type.FIXED] else Type.BOOL)
            if isinstance(e, ast.Compare):
                types = []
                for side in (e.left, e.right):
                    t = self.type_of(side)
                    if t is not None and not t.is_number:
                        hint = " (use count(...) to count its cells)" if t.is_cells else ""
                        self.error(f"a comparison takes numbers; this is {t.value}{hint}", _span(side))
                        t = None
                    types.append(t)
                return None if None in types else (Type.FACT if types == [Type.INT, Type.INT] else Type.BOOL)
            if isinstance(e, ast.AllDifferent):
                decision = self.sym.decisions.get(e.decision.id)
                if decision is None or not decision.is_enum:
                    what = self.sym.kind_of(e.decision.id)
                    self.error(f"'all different' takes an enumerated decision; {e.decision.id!r} is "
                               + ("a Boolean decision" if decision is not None else
                                  f"{'a ' + what if what else 'not declared'}"
                                  f"{'' if what else self._suggest(e.decision.id)}"), e.decision.span)
                t = self.type_of(e.cells)
                if t is not None and t is not Type.FIXED:
                    self.error(f"'all different' runs over a cell set known from the map; this is {t.value}",
                               _span(e.cells))
                return Type.BOOL
            if isinstance(e, ast.IsPiece) or isinstance(e, ast.ConsistsOf) and not nested:
                t = self.type_of(e.cells)
                ok = self.family(e.family)
                word = "is a piece of" if isinstance(e, ast.IsPiece) else "consists of"
                if t is not None and not t.is_cells:
                    self.error(f"'{word}' applies to a cell set; this is {t.value}", _span(e.cells))
                    return None
                return None if t is None or not ok else (Type.FACT if t is Type.FIXED else Type.BOOL)
            if nested:
                word = {ast.IsConnected: "is connected", ast.IsPath: "is a path",
                        ast.ConsistsOf: "consists of"}[type(e)]
                self.error(f"'{word}' is a rule of its own: it cannot stand inside not, and, or, implies or "
                           f"an aggregate; state it on its own line", e.span)
                return None
            if isinstance(e, ast.IsConnected):
                t = self.type_of(e.cells)
                if t is not None and not t.is_cells:
                    self.error(f"'is connected' applies to a cell set; this is {t.value}", _span(e.cells))
                if e.size is not None:
                    t = self.type_of(e.size)
                    if t is not None and t is not Type.INT:
                        self.error(f"a size is an integer known before solving; this is {t.value}", _span(e.size))
                return Type.BOOL
            t = self.type_of(e.cells)
            if t is not None and not t.is_cells:
                self.error(f"'is a path' applies to a cell set; this is {t.value}", _span(e.cells))
            t = self.type_of(e.ends)
            if t is not None and t is not Type.FIXED:
                self.error(f"a path's ends are a fixed cell set (tiles, tags); this is {t.value}", _span(e.ends))
            return Type.BOOL
        finally:
            self.nested = nested

    def family(self, fam: ast.Shapes) -> bool:
        """Check a family of polyominoes; report it and return False when it is wrong."""
        if fam.kind == "var":
            if self.env.get(fam.arg.id) == "shape":
                return True
            what = self.env.get(fam.arg.id) or self.sym.kind_of(fam.arg.id)
            self.error(f"a family of shapes is tetrominoes, pentominoes, polyominoes(N) or a 'for each shape' "
                       f"variable; {fam.arg.id!r} is {'a ' + what if what else 'not declared'}"
                       f"{'' if what else self._suggest(fam.arg.id)}", fam.arg.span)
            return False
        t = self.type_of(fam.arg)
        if t is not None and t not in (Type.INT, Type.INT_SET):
            self.error(f"polyominoes(...) takes a number of cells, or a set of them; this is {t.value}",
                       _span(fam.arg))
            return False
        return t is not None

    def is_cell(self, e: ast.Expr) -> bool:
        """Whether ``e`` names one cell: a ``for each`` cell variable, or an offset ``p + d`` of one."""
        if isinstance(e, ast.Name):
            return self.env.get(e.id) in ("cell", "pair")
        return isinstance(e, ast.Add) and self.is_cell(e.left) and self.is_direction(e.right)

    def is_direction(self, e: ast.Expr) -> bool:
        """Whether ``e`` is a direction (``up``, ``right``, ... or a ``for each direction`` variable)."""
        return isinstance(e, ast.Direction) or isinstance(e, ast.Name) and self.env.get(e.id) == "direction"

    def cell(self, e: ast.Expr, what: str) -> bool:
        """Check that ``e`` names one cell (a ``for each`` cell variable, or ``p + d``); report it otherwise."""
        if self.is_cell(e):
            return True
        t = self.type_of(e)
        if t is not None:
            self.error(f"{what} takes one cell (a 'for each' cell variable, or p + d); this is {t.value}", _span(e))
        return False

    def _type_of(self, e: ast.Expr) -> Type | None:
        if isinstance(e, ast.Name):
            if e.id in self.env:
                kind = self.env[e.id]
                if kind == "int":
                    return Type.INT
                if kind in ("cell", "set"):
                    return Type.FIXED
                if kind == "shape":
                    self.error(f"{e.id!r} is a shape; use it as 'S is a piece of {e.id}'", e.span)
                    return None
                if kind == "direction":
                    return Type.DIRECTION
                self.error(f"{e.id!r} is a cell of the pair; write S[{e.id}] for a cell set S", e.span)
                return None
            kind = self.sym.kind_of(e.id)
            if kind is None:
                self.error(f"unknown name {e.id!r}{self._suggest(e.id)}", e.span)
                return None
            if kind in ("tile", "tag"):
                return Type.FIXED
            if kind == "param":
                return Type.INT if self.sym.params[e.id].type == "int" else Type.INT_SET
            if kind == "decision" and self.sym.decisions[e.id].is_enum:
                self.error(f"{e.id!r} is an enumerated decision; say which value, e.g. {e.id} = VALUE", e.span)
                return None
            return Type.CELLS
        if isinstance(e, ast.IntLit):
            return Type.INT
        if isinstance(e, (ast.Border, ast.AllCells)):
            return Type.FIXED
        if isinstance(e, (ast.Not, ast.And, ast.Or)):
            parts = [e.operand] if isinstance(e, ast.Not) else list(e.operands)
            types = [self.type_of(p) for p in parts]
            if None in types:
                return None
            word = {ast.Not: "not", ast.And: "and", ast.Or: "or"}[type(e)]
            if all(t.is_cond for t in types):
                return _cond(*types)
            if all(t.is_cells for t in types):
                return Type.CELLS if Type.CELLS in types else Type.FIXED
            kinds = ["cell sets" if t.is_cells else "conditions" if t.is_cond else None for t in types]
            want = kinds[0]
            for p, t, k in zip(parts, types, kinds):
                if k is None or k != want:
                    what = want or "cell sets or conditions"
                    self.error(f"'{word}' combines {what}; this is {t.value}", _span(p))
                    return None
            return None
        if isinstance(e, (ast.Count, ast.Value)):
            t = self.type_of(e.operand)
            if t is None:
                return None
            if not t.is_cells:
                fn = "count" if isinstance(e, ast.Count) else "value"
                hint = f" (count the cells where it holds: {fn}(... for q in S))" if t.is_cond else ""
                self.error(f"{fn}(...) takes a cell set; this is {t.value}{hint}", _span(e.operand))
                return None
            return Type.INT if t is Type.FIXED else Type.LINEAR
        if isinstance(e, ast.Direction):
            return Type.DIRECTION
        if isinstance(e, ast.Add) and (self.is_direction(e.right) or self.is_direction(e.left)):
            if self.is_cell(e.left) and self.is_direction(e.right):
                return Type.FIXED
            side = e.left if self.is_direction(e.left) else e.left
            self.error("a direction steps from one cell: write p + d or p - d with p a cell variable"
                       if self.is_direction(e.right) else "write the cell first: p + d", _span(side))
            return None
        if isinstance(e, (ast.Add, ast.Mul)):
            tl, tr = self.type_of(e.left), self.type_of(e.right)
            if tl is None or tr is None:
                return None
            for side, t in ((e.left, tl), (e.right, tr)):
                if not t.is_number:
                    op = "+" if isinstance(e, ast.Add) else "*"
                    self.error(f"'{op}' takes numbers; this is {t.value}", _span(side))
                    return None
            if isinstance(e, ast.Mul) and tl is Type.LINEAR and tr is Type.LINEAR:
                self.error("a product of two sums that depend on decisions is not linear", e.span)
                return None
            return Type.LINEAR if Type.LINEAR in (tl, tr) else Type.INT
        if isinstance(e, ast.Is):
            if self.env.get(e.decision.id) == "cell":
                if not (isinstance(e.value, ast.Name) and self.env.get(e.value.id) == "cell"):
                    self.error(f"{e.decision.id!r} is a cell; it equals another cell variable only", _span(e.value))
                    return None
                return Type.FACT
            decision = self.sym.decisions.get(e.decision.id)
            if decision is None:
                kind = self.sym.kind_of(e.decision.id)
                self.error(f"'{e.decision.id} = ...' needs an enumerated decision; {e.decision.id!r} is "
                           f"{'a ' + kind if kind else 'not declared'}{'' if kind else self._suggest(e.decision.id)}",
                           e.decision.span)
                return None
            self._enum_value(decision, e.value)
            return Type.CELLS
        if isinstance(e, ast.SumOf):
            t = self.type_of(e.operand)
            if t is not None and t is not Type.INT_SET:
                self.error(f"sum(...) takes a set of integers; this is {t.value}", _span(e.operand))
                return None
            return None if t is None else Type.INT
        if isinstance(e, ast.Neg):
            t = self.type_of(e.operand)
            if t is not None and not t.is_number:
                self.error(f"'-' takes a number; this is {t.value}", _span(e.operand))
                return None
            return t
        if isinstance(e, ast.At):
            ok = self.cell(e.cell, f"{e.name.id}[...]")
            name = e.name.id
            if name in self.env:
                if self.env[name] in ("cell", "set"):
                    return Type.FACT if ok else None
                self.error(f"{name!r} is {'an integer' if self.env[name] == 'int' else 'a cell'}, not a cell set "
                           f"or a decision", e.name.span)
                return None
            kind = self.sym.kind_of(name)
            if kind is None:
                self.error(f"unknown name {name!r}{self._suggest(name)}", e.name.span)
                return None
            if kind in ("tile", "tag"):
                return Type.FACT if ok else None
            if kind == "decision" and self.sym.decisions[name].is_enum:
                decision = self.sym.decisions[name]
                if any(isinstance(p, ast.Symbol) for p in decision.domain):
                    self.error(f"{name!r} has value names; say which value, e.g. {name}[...] = VALUE", e.name.span)
                    return None
                return Type.LINEAR if ok else None
            if kind in ("decision", "region"):
                return Type.BOOL if ok else None
            self.error(f"{name!r} is a parameter, not a cell set or a decision", e.name.span)
            return None
        if isinstance(e, ast.AtIs) and isinstance(e.value, ast.At):
            ok = self.cell(e.cell, f"{e.name.id}[...]") & self.cell(e.value.cell, f"{e.value.name.id}[...]")
            if e.value.name.id != e.name.id:
                self.error(f"{e.name.id}[...] = {e.value.name.id}[...]: both sides must name the same decision",
                           e.value.name.span)
                return None
            if self.sym.decisions.get(e.name.id) is None:
                kind = self.sym.kind_of(e.name.id) or self.env.get(e.name.id)
                self.error(f"'{e.name.id}[p] = {e.name.id}[q]' compares a decision at two cells; {e.name.id!r} is "
                           f"{'a ' + kind if kind else 'not declared'}{'' if kind else self._suggest(e.name.id)}",
                           e.name.span)
                return None
            return Type.BOOL if ok else None
        if isinstance(e, ast.AtIs):
            ok = self.cell(e.cell, f"{e.name.id}[...]")
            decision = self.sym.decisions.get(e.name.id)
            if decision is None:
                kind = self.sym.kind_of(e.name.id)
                self.error(f"'{e.name.id}[...] = ...' needs an enumerated decision; {e.name.id!r} is "
                           f"{'a ' + kind if kind else 'not declared'}{'' if kind else self._suggest(e.name.id)}",
                           e.name.span)
                return None
            self._enum_value(decision, e.value)
            return Type.BOOL if ok else None
        if isinstance(e, (ast.Around, ast.LineOf)):
            word = {"side": "neighbours", "diagonal": "diagonal neighbours", "king": "king neighbours"}.get(e.kind, e.kind)
            return Type.FIXED if self.cell(e.cell, f"{word}(...)") else None
        if isinstance(e, ast.Sight):
            ok = self.cell(e.cell, "'sight from'")
            ok &= self.is_direction(e.toward) or self.cell(e.toward, "'sight ... toward' (or a direction)")
            t = self.type_of(e.within)
            if t is not None and not t.is_cells:
                self.error(f"'sight ... through S' takes a cell set S; this is {t.value}", _span(e.within))
                return None
            return None if t is None or not ok else t
        if isinstance(e, ast.Component):
            ok = self.cell(e.cell, "'component of'")
            t = self.type_of(e.within)
            if t is not None and not t.is_cells:
                self.error(f"'component of p in S' takes a cell set S; this is {t.value}", _span(e.within))
                return None
            return None if t is None or not ok else t
        if isinstance(e, ast.Aggregate):
            t = self.type_of(e.domain)
            if t is not None and t is not Type.FIXED:
                self.error(f"{e.fn}(... for {e.var.id} in S) runs over a cell set known from the map; this is "
                           f"{t.value}", _span(e.domain))
            bound = self._bind(e.var, "cell")
            body = self.type_of(e.body)
            if bound:
                del self.env[e.var.id]
            if body is None or t is None:
                return None
            if e.fn == "sum":
                if not body.is_number:
                    self.error(f"sum(N for {e.var.id} in S) adds numbers; this is {body.value}", _span(e.body))
                    return None
                return body
            if not body.is_cond:
                hint = f" (write {e.fn}(S) to count a set's cells)" if body.is_cells and e.fn == "count" else ""
                self.error(f"{e.fn}(F for {e.var.id} in S) takes a condition F; this is {body.value}{hint}",
                           _span(e.body))
                return None
            if e.fn == "count":
                return Type.INT if body is Type.FACT else Type.LINEAR
            return body
        if isinstance(e, ast.TileValue):
            self.error("'value' alone compares a decision with each cell's tile value (D = value)", e.span)
            return None
        raise TypeError(f"unknown expression node {e!r}")

    def _suggest(self, name: str) -> str:
        import difflib

        close = difflib.get_close_matches(name, list(self.declared) + list(self.env) + ["border", "all"], n=1)
        return f"; did you mean {close[0]!r}?" if close else ""


def _span(e: ast.Expr):
    return getattr(e, "span", None)


def _cond(*types: Type) -> Type:
    """FACT when every part is known from the map, else BOOL."""
    return Type.FACT if all(t is Type.FACT for t in types) else Type.BOOL
