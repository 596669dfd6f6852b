"""The type of every expression (the types are listed in :mod:`gridlang.language.checker`)."""

from __future__ import annotations

from gridlang.language import ast
from gridlang.language.checker.constructs import (
    CONSTRUCT_NODES,
    ConstructTypes,
    is_direction_decision,
)
from gridlang.language.checker.symbols import Type
from gridlang.language.constructs import comparison_of, construct_of


class ExpressionTypes(ConstructTypes):
    """Typing of expressions, conditions and shape families (a mixin of the checker)."""

    def type_of(self, e: ast.Expr) -> Type | None:
        """The type of ``e``, or None after reporting an error in it."""
        if isinstance(e, (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath, ast.AllDifferent,
                          ast.Implies, ast.IsPiece, ast.ConsistsOf)):
            return self.relation(e)
        construct = construct_of(e)
        if construct is not None and construct.statement:  # a rule of its own: typed before nesting
            return construct.type_of(self, e)
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
            if isinstance(e, ast.Compare) and (owned := comparison_of(e)) is not None:
                construct, own, other = owned
                return construct.compare_type(self, e, own, other)
            if isinstance(e, ast.Compare) and e.op == "==":
                is_equivalence, t = self._equivalence(e)
                if is_equivalence:
                    return t
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
                if decision is not None and decision.lattice is not None:
                    self.error(self.on_edges(decision), e.decision.span)
                elif decision is None or not decision.is_enum:
                    what = self.sym.kind_of(e.decision.id)
                    self.error(f"'all different' takes an enumerated decision; {e.decision.id!r} is "
                               + ("a Boolean decision" if decision is not None else
                                  f"{'a ' + what if what else 'not declared'}"
                                  f"{'' if what else self.suggest(e.decision.id)}"), e.decision.span)
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
            if isinstance(e, ast.IsConnected) and self.names_edges(e.cells):
                if e.diagonal:
                    self.error(f"'is diagonally connected' joins cells by their corners; {e.cells.id!r} is a "
                               "decision on edges (say 'is connected')", e.span)
                if e.size is not None:
                    self.error(f"'with size' counts the cells of a cell set; {e.cells.id!r} is a decision on edges",
                               _span(e.size))
                return Type.BOOL
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
            decl = self.sym.params.get(fam.arg.id)
            if decl is not None and decl.type == "shapes" and fam.arg.id not in self.env:
                return True
            what = self.env.get(fam.arg.id) or self.sym.kind_of(fam.arg.id)
            self.error(f"a family of shapes is tetrominoes, pentominoes, polyominoes(N), a 'shapes' parameter or "
                       f"a 'for each shape' variable; {fam.arg.id!r} is {'a ' + what if what else 'not declared'}"
                       f"{'' if what else self.suggest(fam.arg.id)}", fam.arg.span)
            return False
        if fam.kind in ("rectangles", "squares"):
            t = Type.INT if fam.arg is None else self.type_of(fam.arg)
            if t is not None and t is not Type.INT:
                self.error(f"{fam.kind}(N) takes a number of cells known before solving; this is {t.value}",
                           _span(fam.arg))
            return t is Type.INT
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

    def is_corner(self, e: ast.Expr) -> bool:
        """Whether ``e`` names one corner of the lattice: a ``for each corner`` variable (or one over
        ``corners(p)``), or an offset ``v + d`` of one."""
        if isinstance(e, ast.Name):
            return self.env.get(e.id) == "corner"
        return isinstance(e, ast.Add) and self.is_corner(e.left) and self.is_direction(e.right)

    def is_border(self, e: ast.Expr) -> bool:
        """Whether ``e`` names one border between two cells: a ``for each`` variable over a tile on borders."""
        return isinstance(e, ast.Name) and self.env.get(e.id) == "border"

    def is_direction(self, e: ast.Expr) -> bool:
        """Whether ``e`` is a direction (``up``, ``right``, ... or a ``for each direction`` variable)."""
        return (isinstance(e, ast.Direction) or isinstance(e, ast.Name) and self.env.get(e.id) == "direction"
                or self.is_direction_expr(e))

    def _equivalence(self, e: ast.Compare) -> tuple[bool, Type | None]:
        """``F == G`` (``F = G``) of two conditions, their equivalence: (True, its type, or None after
        an error); (False, None) when the left side is no condition, a comparison the caller types."""
        saved, reported = len(self.errors), set(self.reported)
        left = self.type_of(e.left)
        if left is None or not left.is_cond:  # typed again, and reported, as a comparison
            del self.errors[saved:]
            self.reported = reported
            return False, None
        right = self.type_of(e.right)
        if right is not None and not right.is_cond:
            self.error(f"'=' between a condition and {right.value}: both sides are conditions (their "
                       f"equivalence) or both numbers", _span(e.right))
            return True, None
        return True, None if right is None else _cond(left, right)

    def cell(self, e: ast.Expr, what: str) -> bool:
        """Check that ``e`` names one cell (a ``for each`` cell variable, or ``p + d``); report it otherwise."""
        if self.is_cell(e):
            return True
        if self.is_corner(e):
            self.error(f"{what} takes one cell; this is a corner of the lattice of cell corners (a corner "
                       f"goes where a decision on corner edges is asked about one: degree(line, v), line[v, w])",
                       _span(e))
            return False
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
                if kind == "corner":
                    return Type.CORNERS
                if kind == "border":
                    return Type.BORDERS
                self.error(f"{e.id!r} is a cell of the pair; write S[{e.id}] for a cell set S", e.span)
                return None
            kind = self.sym.kind_of(e.id)
            if kind is None:
                self.error(f"unknown name {e.id!r}{self.suggest(e.id)}", e.span)
                return None
            if kind in ("tile", "tag"):
                return Type.FIXED
            if kind == "corner tile":
                return Type.CORNERS
            if kind == "border tile":
                return Type.BORDERS
            if kind == "param":
                if self.sym.params[e.id].type == "shapes":
                    self.error(f"{e.id!r} is a 'shapes' parameter, a family of shapes: use it after 'is a piece "
                               f"of', 'consists of' or 'for each shape s in'", e.span)
                    return None
                return Type.INT if self.sym.params[e.id].type == "int" else Type.INT_SET
            if kind == "decision" and self.sym.decisions[e.id].lattice is not None:
                self.error(f"{e.id!r} is a decision on edges, not a cell set; use {e.id}[p, q] or "
                           f"degree({e.id}, p)", e.span)
                return None
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
            if t is Type.CORNERS and isinstance(e, ast.Value) and not self.sym.corner_tiles:
                self.error("value(...) of a corner reads the clue on it, and the spec puts no tile on the corners "
                           "of the cells (tile NAME number on corners)", _span(e.operand))
                return None
            if t is Type.LIST and isinstance(e, ast.Count) or t in (Type.CORNERS, Type.BORDERS) and \
                    isinstance(e, ast.Value):
                return Type.INT  # a clue list's length; the numbers on a set of corners or borders
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
            if self.is_corner(e.left) and self.is_direction(e.right):
                return Type.CORNERS
            side = e.left if self.is_direction(e.left) else e.left
            self.error("a direction steps from one cell or corner: write p + d or p - d with p a cell or "
                       "corner variable"
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
            point = self.env.get(e.decision.id)
            if point == "int" or point is None and e.decision.id not in self.sym.decisions and \
                    getattr(self.sym.params.get(e.decision.id), "type", None) == "int":  # k = 3: numbers
                return self.relation(ast.Compare(e.decision, "==", e.value, e.span))
            if point == "cell" and not isinstance(e.value, ast.Name):  # q = p + d
                return Type.FACT if self.cell(e.value, f"'{e.decision.id} = ...'") else None
            if point in ("cell", "corner"):
                if not (isinstance(e.value, ast.Name) and self.env.get(e.value.id) == point):
                    self.error(f"{e.decision.id!r} is a {point}; it equals another {point} variable only",
                               _span(e.value))
                    return None
                return Type.FACT
            decision = self.sym.decisions.get(e.decision.id)
            if decision is not None and decision.lattice is not None:
                self.error(self.on_edges(decision), e.decision.span)
                return None
            if decision is None:
                kind = self.sym.kind_of(e.decision.id)
                self.error(f"'{e.decision.id} = ...' needs an enumerated decision; {e.decision.id!r} is "
                           f"{'a ' + kind if kind else 'not declared'}{'' if kind else self.suggest(e.decision.id)}",
                           e.decision.span)
                return None
            self._enum_value(decision, e.value)
            return Type.CELLS
        if isinstance(e, ast.SumOf):
            t = self.type_of(e.operand)
            if t is not None and t not in (Type.INT_SET, Type.LIST):
                self.error(f"sum(...) takes a set of integers; this is {t.value}", _span(e.operand))
                return None
            return None if t is None else Type.INT
        if isinstance(e, ast.Neg) and self.is_direction(e.operand):
            return Type.DIRECTION
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
                self.error(f"{name!r} is {'an integer' if self.env[name] == 'int' else 'a corner' if self.env[name] == 'corner' else 'a cell'}, not a cell set "
                           f"or a decision", e.name.span)
                return None
            kind = self.sym.kind_of(name)
            if kind is None:
                self.error(f"unknown name {name!r}{self.suggest(name)}", e.name.span)
                return None
            if kind in ("tile", "tag"):
                return Type.FACT if ok else None
            if kind == "decision" and self.sym.decisions[name].lattice is not None:
                self.error(f"{name!r} is a decision on edges; {name}[p, q] names the edge between cells p and q",
                           e.name.span)
                return None
            if kind == "decision" and name in self.sym.cell_decisions:
                self.error(f"{name}[...] is a cell; compare it: {name}[p] = c, or {name}[p] = {name}[q]", e.span)
                return None
            if kind == "decision" and self.sym.decisions[name].is_enum:
                decision = self.sym.decisions[name]
                if is_direction_decision(decision):
                    self.error(f"{name}[...] is a direction, neither a number nor a condition: step by it "
                               f"(p + {name}[p], sight from p toward {name}[p] through S) or say which value "
                               f"({name}[p] = up)", e.span)
                    return None
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
                           f"{'a ' + kind if kind else 'not declared'}{'' if kind else self.suggest(e.name.id)}",
                           e.name.span)
                return None
            if self.sym.decisions[e.name.id].lattice is not None:
                self.error(self.on_edges(self.sym.decisions[e.name.id]), e.name.span)
                return None
            return Type.BOOL if ok else None
        if isinstance(e, ast.AtIs):
            ok = self.cell(e.cell, f"{e.name.id}[...]")
            decision = self.sym.decisions.get(e.name.id)
            if decision is None:
                kind = self.sym.kind_of(e.name.id)
                self.error(f"'{e.name.id}[...] = ...' needs an enumerated decision; {e.name.id!r} is "
                           f"{'a ' + kind if kind else 'not declared'}{'' if kind else self.suggest(e.name.id)}",
                           e.name.span)
                return None
            if decision.lattice is not None:
                self.error(self.on_edges(decision), e.name.span)
                return None
            if isinstance(e.value, ast.DirectionOf):  # dir[p] = direction(c): a decided direction and an arrow
                if not is_direction_decision(decision):
                    self.error(f"'{e.name.id}[...] = direction(c)' compares a decision whose values include the "
                               f"directions up, down, left, right; {e.name.id!r} has none", e.name.span)
                    return None
                return Type.BOOL if ok and self.is_direction(e.value) else None
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
            if t is not None and t not in (Type.FIXED, Type.CORNERS, Type.BORDERS):
                self.error(f"{e.fn}(... for {e.var.id} in S) runs over a cell set known from the map, corners or "
                           f"borders; this is {t.value}", _span(e.domain))
            bound = self._bind(e.var, {Type.CORNERS: "corner", Type.BORDERS: "border"}.get(t, "cell"))
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
        if isinstance(e, CONSTRUCT_NODES):
            return self.construct_type(e)
        if isinstance(e, ast.TileValue):
            self.error("'value' alone compares a decision with each cell's tile value (D = value)", e.span)
            return None
        construct = construct_of(e)
        if construct is not None:
            return construct.type_of(self, e)
        raise TypeError(f"unknown expression node {e!r}")

    def names_edges(self, e: ast.Expr) -> bool:
        """Whether ``e`` is the name of a decision on edges (``line is connected``)."""
        decl = self.sym.decisions.get(e.id) if isinstance(e, ast.Name) and e.id not in self.env else None
        return decl is not None and decl.lattice is not None

    def on_edges(self, decl: ast.Decide) -> str:
        """The error for a decision on edges used as a decision on cells."""
        return (f"{decl.name!r} is a decision on edges: {decl.name}[p, q] is the edge between p and q, "
                f"degree({decl.name}, p) {'the sum of the values' if decl.is_enum else 'the chosen edges'} at p")

    def suggest(self, name: str) -> str:
        """``"; did you mean 'x'?"`` for the declared name or binding closest to ``name``, or ``""``."""
        import difflib

        close = difflib.get_close_matches(name, list(self.declared) + list(self.env) + ["border", "all"], n=1)
        return f"; did you mean {close[0]!r}?" if close else ""


def _span(e: ast.Expr):
    return getattr(e, "span", None)


def _cond(*types: Type) -> Type:
    """FACT when every part is known from the map, else BOOL."""
    return Type.FACT if all(t is Type.FACT for t in types) else Type.BOOL
