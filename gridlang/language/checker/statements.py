"""The checker's walk over the statements: names, declarations and rules."""

from __future__ import annotations

from gridlang.core.errors import GridlangError, SemanticError, Span, raise_all
from gridlang.language import ast
from gridlang.language.checker.symbols import BOUND, Symbols, Type
from gridlang.language.checker.types import ExpressionTypes, _span
from gridlang.language.parser.reserved import reserved_message, reserved_use

"""A parameter bound's comparison, as a function of the value and the bound."""


class _Checker(ExpressionTypes):
    def __init__(self, spec: ast.Spec):
        self.spec = spec
        self.sym = Symbols()
        self.errors: list[GridlangError] = []
        self.declared: dict[str, ast.Stmt] = {}
        # Names bound by `for each`: "int", "cell", "set" (a fixed cell set),
        # "pair" (a cell of `for each neighbours a, b`), "corner" (a corner of the lattice).
        self.env: dict[str, str] = {}
        # True while checking a condition nested in another expression.
        self.nested = False
        # `format` statements, checked after every declaration (gridlang/language/checker/formats.py).
        self.formats: list[ast.Format] = []
        self.reported: set = set()
        # `draw` statements, checked after every declaration (gridlang/language/checker/drawing.py).
        self.draws: list[ast.Draw] = []

    def error(self, message: str, span) -> None:
        key = (message, span)
        if key in self.reported:  # a let's expression, copied to each use, reports its error once
            return
        self.reported.add(key)
        self.errors.append(SemanticError(message, span, source=self.spec.source))

    def run(self) -> Symbols:
        puzzles = self.spec.of(ast.Puzzle)
        for extra in puzzles[1:]:
            self.error("a spec has one 'puzzle' statement; this is the second", extra.span)
        objectives = self.spec.of(ast.Objective)
        for extra in objectives[1:]:
            self.error("a spec has at most one objective; this is the second", extra.span)
        if self._reserved_names():
            # Every use of such a name reads as the language's word: the errors there would only follow from it.
            raise_all(self.errors)
        for st in self.spec.statements:
            handler = getattr(self, "_" + type(st).__name__.lower())
            handler(st)
        if self.formats:
            # imported on use, not at start-up
            from gridlang.language.checker.formats import check_formats

            check_formats(self, self.formats)
        for let in self.sym.lets.values():  # uses were checked where they stand; this checks the unused too
            if not let.parens:
                self.nested = False
                self.type_of(let.body)
        if self.draws:
            # imported on use, not at start-up
            from gridlang.language.checker.drawing import check_draws

            check_draws(self, self.draws)
        if not self.errors and not self.sym.decisions:
            self.error("the spec is empty; a spec declares tiles, decides on cells (decide NAME: bool on CELLS) "
                       "and states rules (docs/language.md)" if not self.spec.statements else
                       "the spec decides nothing: without a 'decide' statement there is nothing to solve "
                       "(decide NAME: bool on CELLS)", Span(self.spec.path, 1, 1))
        raise_all(self.errors)
        return self.sym

    def _reserved_names(self) -> bool:
        """One located error for each declaration whose name is a reserved word (:data:`RESERVED`)."""
        kinds = {ast.Tile: "tile", ast.Param: "parameter", ast.Decide: "decision", ast.Region: "region"}
        found = False
        for st in self.spec.statements:
            kind = kinds.get(type(st))
            if kind is None:
                continue
            names = [(st.name, kind, st.span)]
            if isinstance(st, ast.Tile):
                names += [(tag, "tag", st.attr_spans.get("tag", st.span)) for tag in st.tags]
            for name, what, span in names:
                if reserved_use(name) is not None:
                    found = True
                    self.error(reserved_message(name, what), span)
        return found

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

    def _format(self, st: ast.Format) -> None:
        self.formats.append(st)

    def _draw(self, st: ast.Draw) -> None:
        self.draws.append(st)

    def _tile(self, st: ast.Tile) -> None:
        if not self.declare(st.name, st):
            return
        corners = st.place != "cells"  # on corners or on borders: not a set of cells
        tiles, chars = {"cells": (self.sym.tiles, self.sym.chars),
                        "corners": (self.sym.corner_tiles, self.sym.corner_chars),
                        "borders": (self.sym.border_tiles, self.sym.border_chars)}[st.place]
        where = f" on {st.place}" if corners else ""
        if st.place == "borders" and self.sym.border_tiles and st.frame != self.sym.frame_borders:
            first = next(iter(self.sym.border_tiles))
            on = {True: "'on borders and frame'", False: "'on borders'"}
            self.error(f"the borders include the grid's frame for every tile on borders or for none: "
                       f"{first!r} is {on[self.sym.frame_borders]}, {st.name!r} {on[st.frame]}",
                       st.attr_spans.get("place", st.span))
        elif st.place == "borders":
            self.sym.frame_borders = st.frame
        tiles[st.name] = st
        if corners and (st.linked or st.tags):
            self.error(f"a tile on {st.place} takes no tags and is not linked (it is a set of {st.place}, not of "
                       f"cells)", st.attr_spans.get("linked", st.attr_spans.get("tag", st.span)))
        if st.number:
            if chars.number is not None:
                self.error(f"the spec has one number tile{where}; {chars.number!r} is the first", st.span)
            else:
                chars.number = st.name
                digits = [ch for ch, owner in chars.items() if ch.isdigit()]
                if digits:
                    self.error(f"a number tile claims every digit, but {digits[0]!r} is already a "
                               f"{chars[digits[0]]!r} tile{where}", st.span)
        if st.clue is not None:
            self.clue_tile(st)
        for spec in st.chars:
            for ch in spec.chars():
                owner = chars.claimed(ch)
                if owner is not None:
                    self.error(f"map character {ch!r} is already a {owner!r} tile{where}"
                               + (" (a number tile claims every digit)" if ch not in chars else ""),
                               spec.span)
                else:
                    chars[ch] = st.name
        for tag in st.tags if not corners else ():
            if tag in self.declared and self.sym.kind_of(tag) != "tag":
                self.error(f"tag {tag!r} is already declared as a {self.sym.kind_of(tag) or 'name'}",
                           st.attr_spans.get("tag", st.span))
                continue
            self.declared.setdefault(tag, st)
            self.sym.tags.setdefault(tag, []).append(st.name)
        if corners and st.count is not None:
            self.error(f"a tile on {st.place} takes no count (exactly, at most, at least): the map's count is "
                       f"checked for the tiles in cells only", st.attr_spans.get("count", st.span))
        elif st.count is not None and st.count[1] < 0:
            self.error("a tile count cannot be negative", st.attr_spans.get("count", st.span))

    def _param(self, st: ast.Param) -> None:
        if not self.declare(st.name, st):
            return
        self.sym.params[st.name] = st
        if st.default is not None:
            kind = "set of int" if isinstance(st.default, frozenset) else "shapes" if isinstance(st.default, str) \
                else "int"
            if kind != st.type:
                self.error(f"the default of {st.name!r} is not of type {st.type}", st.default_span or st.span)
        if st.bounds and st.type != "int":
            self.error(f"bounds apply to 'int' parameters, not to {st.type!r}", st.span)
        elif isinstance(st.default, int):
            for op, bound in st.bounds:
                if not BOUND[op](st.default, bound):
                    self.error(f"the default {st.name} = {st.default} breaks the bound {st.name} {op} {bound} "
                               "declared with it", st.default_span or st.span)

    def _decide(self, st: ast.Decide) -> None:
        if self.cell_valued(st):
            if st.lattice is not None:
                self.error("a decision on edges takes Boolean or integer values; cells as values are for "
                           "decisions on cells", st.domain[0].span)
            elif self.declare(st.name, st):
                self.sym.cell_decisions[st.name] = st.domain[0].id
                self.sym.decisions[st.name] = st
            t = self.type_of(st.on) if st.on is not None else Type.FIXED
            if t is not None and t is not Type.FIXED:
                self.error(f"a decision is made on a fixed cell set (tiles, tags, border, all); this is {t.value}",
                           _span(st.on))
            return
        if st.is_enum:
            seen: set = set()
            for part in st.domain:
                if isinstance(part, ast.DomainValues):
                    if self.sym.kind_of(part.tile.id) != "tile":
                        what = self.sym.kind_of(part.tile.id)
                        self.error(f"'values of' takes a tile; {part.tile.id!r} is "
                                   f"{'a ' + what if what else 'not declared'}"
                                   f"{'' if what else self.suggest(part.tile.id)}", part.tile.span)
                    continue
                if isinstance(part, ast.Name):
                    decl = self.sym.params.get(part.id)
                    if decl is None or decl.type != "set of int":
                        what = self.sym.kind_of(part.id)
                        self.error(f"a domain takes value lists in braces and 'set of int' parameters; "
                                   f"{part.id!r} is {'a ' + what if what else 'not declared'}"
                                   f"{'' if what else self.suggest(part.id)}", part.span)
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
        if st.lattice is not None and st.is_enum:
            for part in st.domain:
                if isinstance(part, ast.Symbol):
                    self.error(f"a decision on edges takes Boolean or integer values (decide {st.name}: 0..2 on "
                               f"edges); {part.id!r} is a value name", part.span)
        t = self.type_of(st.on) if st.on is not None else Type.FIXED
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
        if reserved_use(var.id) is not None:
            self.error(f"{var.id!r} is {reserved_use(var.id)} in gridlang, so it cannot name a 'for each' variable",
                       var.span)
            return False
        if var.id in self.declared:
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
            return {"cells": "cell", "directions": "direction", "corners": "corner"}.get(domain.kind, "set")
        t = self.type_of(domain)
        if t is None:
            return None
        if t is Type.INT_SET:
            return "int"
        if t is Type.FIXED:
            return "cell"
        if t is Type.CORNERS:
            return "corner"
        if t is Type.BORDERS:
            return "border"
        self.error(f"'for each' runs over a set of integers (a 'set of int' parameter), the cells of a "
                   f"cell set known from the map, corners (corners(p)) or borders (a tile on borders); this is "
                   f"{t.value}", _span(domain))
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
            self.error(f"unknown name {ref.name.id!r}{self.suggest(ref.name.id)}", ref.name.span)
            return None
        if kind == "decision" and self.sym.decisions[ref.name.id].lattice is not None:
            self.error(self.on_edges(self.sym.decisions[ref.name.id]) + " (in 'for each cell p, each q in "
                       "neighbours(p)')", ref.name.span)
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
        if decision.name in self.sym.cell_decisions:
            self.cell_value(decision, value)
            return
        if not decision.is_enum:
            self.error(f"{decision.name!r} is a Boolean decision; use it as a cell set", _span(value))
            return
        if isinstance(value, (ast.IntLit, ast.TileValue)):
            return
        if not isinstance(value, ast.Name):
            self.error(f"'{decision.name} = V' takes for V a value name, an integer, the name of one or "
                       f"'value'; compare a sum at a cell: {decision.name}[p] == ...", _span(value))
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
                   f"a 'for each' variable or an int parameter{self.suggest(value.id)}", value.span)

    def _objective(self, st: ast.Objective) -> None:
        t = self.type_of(st.expr)
        if t is not None and not t.is_number:
            hint = " (use value(...) or count(...))" if t.is_cells else ""
            self.error(f"the objective must be a number; this is {t.value}{hint}", _span(st.expr))

    # expressions ----------------------------------------------------------


