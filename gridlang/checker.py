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

    @property
    def is_cells(self) -> bool:
        """FIXED or CELLS."""
        return self in (Type.FIXED, Type.CELLS)

    @property
    def is_number(self) -> bool:
        """INT or LINEAR."""
        return self in (Type.INT, Type.LINEAR)


@dataclass
class Symbols:
    """What a spec declares, by name.

    Attributes:
        tiles: tile name -> Tile.
        tags: tag name -> names of the tiles that carry it.
        chars: map character -> tile name.
        params: parameter name -> Param.
        decisions: decision name -> Decide.
        regions: region name -> Region.
    """

    tiles: dict[str, ast.Tile] = field(default_factory=dict)
    tags: dict[str, list[str]] = field(default_factory=dict)
    chars: dict[str, str] = field(default_factory=dict)
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
        # Names bound by `for each`: loop variable -> "int", pair cell -> "cell".
        self.env: dict[str, str] = {}

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
        for spec in st.chars:
            for ch in spec.chars():
                owner = self.sym.chars.get(ch)
                if owner is not None:
                    self.error(f"map character {ch!r} is already a {owner!r} tile", spec.span)
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

    def _avoids(self, st: ast.Avoids) -> None:
        self._cell_rule(st, "avoids")

    def _subset(self, st: ast.Subset) -> None:
        self._cell_rule(st, "in")

    def _cell_rule(self, st, word: str) -> None:
        for side in (st.left, st.right):
            t = self.type_of(side)
            if t is not None and not t.is_cells:
                self.error(f"both sides of '{word}' are cell sets; this is {t.value}", _span(side))

    def _isconnected(self, st: ast.IsConnected) -> None:
        t = self.type_of(st.cells)
        if t is not None and not t.is_cells:
            self.error(f"'is connected' applies to a cell set; this is {t.value}", _span(st.cells))
        if st.size is not None:
            t = self.type_of(st.size)
            if t is not None and t is not Type.INT:
                self.error(f"a size is an integer known before solving; this is {t.value}", _span(st.size))

    def _ispath(self, st: ast.IsPath) -> None:
        t = self.type_of(st.cells)
        if t is not None and not t.is_cells:
            self.error(f"'is a path' applies to a cell set; this is {t.value}", _span(st.cells))
        t = self.type_of(st.ends)
        if t is not None and t is not Type.FIXED:
            self.error(f"a path's ends are a fixed cell set (tiles, tags); this is {t.value}", _span(st.ends))

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
        t = self.type_of(st.domain)
        if t is not None and t is not Type.INT_SET:
            self.error(f"'for each' runs over a set of integers (a 'set of int' parameter); this is {t.value}",
                       _span(st.domain))
        bound = self._bind(st.var, "int")
        handler = getattr(self, "_" + type(st.body).__name__.lower())
        handler(st.body)
        if bound:
            del self.env[st.var.id]

    def _forpairs(self, st: ast.ForPairs) -> None:
        if st.a.id == st.b.id:
            self.error("the two cells of a pair need different names", st.b.span)
            return
        bound = [v for v in (st.a, st.b) if self._bind(v, "cell")]
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
        if self.env.get(ref.cell.id) != "cell":
            bound = [k for k, v in self.env.items() if v == "cell"]
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

    def _compare(self, st: ast.Compare) -> None:
        for side in (st.left, st.right):
            t = self.type_of(side)
            if t is not None and not t.is_number:
                hint = " (use count(...) to count its cells)" if t.is_cells else ""
                self.error(f"a comparison takes numbers; this is {t.value}{hint}", _span(side))

    def _objective(self, st: ast.Objective) -> None:
        t = self.type_of(st.expr)
        if t is not None and not t.is_number:
            hint = " (use value(...) or count(...))" if t.is_cells else ""
            self.error(f"the objective must be a number; this is {t.value}{hint}", _span(st.expr))

    # expressions ----------------------------------------------------------
    def type_of(self, e: ast.Expr) -> Type | None:
        """The type of ``e``, or None after reporting an error in it."""
        if isinstance(e, ast.Name):
            if e.id in self.env:
                if self.env[e.id] == "int":
                    return Type.INT
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
            for p, t in zip(parts, types):
                if not t.is_cells:
                    self.error(f"'{word}' combines cell sets; this is {t.value}", _span(p))
                    return None
            return Type.CELLS if Type.CELLS in types else Type.FIXED
        if isinstance(e, (ast.Count, ast.Value)):
            t = self.type_of(e.operand)
            if t is None:
                return None
            if not t.is_cells:
                fn = "count" if isinstance(e, ast.Count) else "value"
                self.error(f"{fn}(...) takes a cell set; this is {t.value}", _span(e.operand))
                return None
            return Type.INT if t is Type.FIXED else Type.LINEAR
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
        raise TypeError(f"unknown expression node {e!r}")

    def _suggest(self, name: str) -> str:
        import difflib

        close = difflib.get_close_matches(name, list(self.declared) + list(self.env) + ["border", "all"], n=1)
        return f"; did you mean {close[0]!r}?" if close else ""


def _span(e: ast.Expr):
    return getattr(e, "span", None)
