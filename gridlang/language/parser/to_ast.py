"""Lark's parse tree to the typed AST (:mod:`gridlang.language.ast`), with spans and size checks."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token, v_args

from gridlang.core.errors import GridSyntaxError, Span
from gridlang.core.limits import MAX_SET_SIZE, check_int
from gridlang.language import ast
from gridlang.language.constructs import rule as construct_rule
from gridlang.language.parser.formats import FormatMixin


@dataclass(frozen=True, slots=True)
class _Default:
    """A parameter's default value and where it is written."""

    value: object
    span: Span | None


@dataclass(frozen=True, slots=True)
class _Parts:
    """The named parts of a ``numbers`` tile, with where each is written."""

    names: tuple[tuple[str, Span], ...]


@dataclass(frozen=True, slots=True)
class _Params:
    """A let's parameters."""

    names: tuple[ast.Name, ...]


def _attr_word(kind: str) -> str:
    return {"count": "a count", "value": "a value", "linked": "'linked'", "place": "'on corners' or 'on borders'", "no_room": "'no room'"}.get(kind, kind)


def _char(tok: Token, path: str) -> str:
    body = str(tok)[1:-1]
    if body.startswith("\\"):
        body = {"\\'": "'", "\\\\": "\\", "\\t": "\t"}.get(body, body[1:])
    if len(body) != 1:
        raise GridSyntaxError(f"{str(tok)} is not a single character", _span(path, tok))
    return body


def _span(path: str, meta_or_token) -> Span:
    if isinstance(meta_or_token, Token):
        return Span(path, meta_or_token.line, meta_or_token.column, meta_or_token.end_column)
    m = meta_or_token
    end = m.end_column if m.end_line == m.line else None
    return Span(path, m.line, m.column, end)


@v_args(meta=True)
class _ToAst(FormatMixin):
    """Lark parse tree -> :mod:`gridlang.language.ast` nodes (without recursion, so
    that nesting is measured, not a RecursionError)."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path
        self.names: list[tuple[tuple[int, int], str]] = []  # the rules' names, at their rules' spans

    def sp(self, x) -> Span:
        return _span(self.path, x)

    def __default__(self, data, children, meta):
        """A rule no method here builds: a construct's (:mod:`gridlang.language.constructs`)."""
        build = construct_rule(data)
        if build is not None:
            return build(self, meta, children)
        return super().__default__(data, children, meta)

    def char(self, tok: Token) -> str:
        """A character literal's character (``'a'``, ``'\\''``).

        Raises:
            GridSyntaxError: the literal holds more than one character.
        """
        return _char(tok, self.path)

    def integer(self, tok: Token) -> int:
        """An integer literal, within :data:`~gridlang.core.limits.MAX_INT`."""
        return check_int(str(tok), self.sp(tok), GridSyntaxError)

    def set_size(self, size: int, meta) -> None:
        """Refuse a set of more than :data:`~gridlang.core.limits.MAX_SET_SIZE` integers."""
        if size > MAX_SET_SIZE:
            raise GridSyntaxError(f"this set has {size:,} values; a set of integers has at most "
                                  f"{MAX_SET_SIZE:,}", self.sp(meta))

    def start(self, meta, children):
        return list(children)

    # statements
    def puzzle_stmt(self, meta, c):
        return ast.Puzzle(c[0][1:-1], c[1][1:-1] if len(c) > 1 else None, self.sp(meta))

    def tile_stmt(self, meta, c):
        name = c[0]
        chars = tuple(x for x in c[1:] if isinstance(x, ast.CharSpec))
        kw: dict = {"tags": ()}
        attr_spans = {}
        for kind, val, span in (x for x in c[1:] if isinstance(x, tuple)):
            if kind == "tag":
                kw["tags"] = kw["tags"] + (val,)
            elif kind in kw and kind != "tags":
                raise GridSyntaxError(f"tile {str(name)!r} gives {_attr_word(kind)} twice", span)
            else:
                kw[kind] = val
            attr_spans.setdefault(kind, span)
        if kw.get("value") == "digit":
            kw["value"], kw["digit_value"] = 0, True
        if kw.get("place") == "borders and frame":
            kw["place"], kw["frame"] = "borders", True
        return ast.Tile(str(name), chars, span=self.sp(name), attr_spans=attr_spans, **kw)

    def tile_number(self, meta, c):
        tile = self.tile_stmt(meta, [c[0]] + list(c[1:]))
        if "value" in tile.attr_spans:
            raise GridSyntaxError(f"tile {tile.name!r} is a number tile: each cell's value is its number",
                                  tile.attr_spans["value"])
        return ast.Tile(tile.name, (), linked=tile.linked, count=tile.count, tags=tile.tags, number=True,
                        span=tile.span, attr_spans=tile.attr_spans, place=tile.place, no_room=tile.no_room,
                        frame=tile.frame)

    def _clue_tile(self, meta, c, clue: str):
        parts = next((x for x in c[1:] if isinstance(x, _Parts)), _Parts(()))
        tile = self.tile_stmt(meta, [c[0]] + [x for x in c[1:] if not isinstance(x, _Parts)])
        if "value" in tile.attr_spans:
            raise GridSyntaxError(f"tile {tile.name!r} is a clue tile: its cells hold their own numbers",
                                  tile.attr_spans["value"])
        spans = dict(tile.attr_spans, parts=tuple(span for _, span in parts.names))
        if tile.place != "cells":
            raise GridSyntaxError(f"tile {tile.name!r} is a clue tile of lists or arrows, which stand in cells only",
                                  tile.attr_spans["place"])
        return ast.Tile(tile.name, (), linked=tile.linked, count=tile.count, tags=tile.tags, span=tile.span,
                        attr_spans=spans, clue=clue, parts=tuple(name for name, _ in parts.names),
                        no_room=tile.no_room)

    def tile_numbers(self, meta, c):
        return self._clue_tile(meta, c, "numbers")

    def tile_arrow(self, meta, c):
        return self._clue_tile(meta, c, "arrow")

    def clue_parts(self, meta, c):
        return _Parts(tuple((str(t), self.sp(t)) for t in c))

    def let_stmt(self, meta, c):
        params = c[1] if len(c) == 3 else None
        names = params.names if params is not None else ()
        return ast.Let(str(c[0]), names, c[-1], params is not None, self.sp(c[0]))

    def let_params(self, meta, c):
        return _Params(tuple(ast.Name(str(t), self.sp(t)) for t in c))

    def connectivity_stmt(self, meta, c):
        return ast.Connectivity(str(c[0]), self.sp(c[0]))

    def call(self, meta, c):
        return ast.Call(ast.Name(str(c[0]), self.sp(c[0])), tuple(c[1:]), self.sp(meta))

    def row_index(self, meta, c):
        return ast.IndexOf("row", c[0], self.sp(meta))

    def column_index(self, meta, c):
        return ast.IndexOf("column", c[0], self.sp(meta))

    def known_relation(self, meta, c):
        return ast.IsKnown(c[0], self.sp(meta))

    def fam_rectangles(self, meta, c):
        return ast.Shapes("rectangles", c[0] if c else None, self.sp(meta))

    def fam_squares(self, meta, c):
        return ast.Shapes("squares", c[0] if c else None, self.sp(meta))

    def char_one(self, meta, c):
        ch = _char(c[0], self.path)
        return ast.CharSpec(ch, ch, self.sp(c[0]))

    def char_range(self, meta, c):
        first, last = _char(c[0], self.path), _char(c[1], self.path)
        if ord(last) < ord(first):
            raise GridSyntaxError(f"the range {first!r}-{last!r} is empty", self.sp(meta))
        return ast.CharSpec(first, last, self.sp(meta))

    def attr_value(self, meta, c):
        return ("value", c[0], self.sp(meta))

    def attr_value_digit(self, meta, c):
        return ("value", "digit", self.sp(meta))

    def attr_linked(self, meta, c):
        return ("linked", True, self.sp(meta))

    def attr_exactly(self, meta, c):
        return ("count", ("==", self.integer(c[0])), self.sp(meta))

    def attr_at_most(self, meta, c):
        return ("count", ("<=", self.integer(c[0])), self.sp(meta))

    def attr_at_least(self, meta, c):
        return ("count", (">=", self.integer(c[0])), self.sp(meta))

    def attr_no_room(self, meta, c):
        return ("no_room", True, self.sp(meta))

    def attr_on_corners(self, meta, c):
        return ("place", "corners", self.sp(meta))

    def attr_on_borders(self, meta, c):
        return ("place", "borders", self.sp(meta))

    def attr_on_frame_borders(self, meta, c):
        return ("place", "borders and frame", self.sp(meta))

    def attr_tag(self, meta, c):
        return ("tag", str(c[0]), self.sp(c[0]))

    def param_stmt(self, meta, c):
        name, ptype, *rest = c
        bounds = tuple(x for x in rest if isinstance(x, tuple))
        default = next((x for x in rest if isinstance(x, _Default)), _Default(None, None))
        return ast.Param(str(name), ptype, bounds, default.value, self.sp(name), default.span)

    def type_int(self, meta, c):
        return "int"

    def type_int_set(self, meta, c):
        return "set of int"

    def type_shapes(self, meta, c):
        return "shapes"

    def bound(self, meta, c):
        return (str(c[0]), c[1])

    def pv_int(self, meta, c):
        return _Default(c[0], self.sp(meta))

    def pv_set(self, meta, c):
        self.set_size(len(c), meta)
        return _Default(frozenset(c), self.sp(meta))

    def pv_range(self, meta, c):
        self.set_size(c[1] - c[0] + 1, meta)
        return _Default(frozenset(range(c[0], c[1] + 1)), self.sp(meta))

    def pv_shapes(self, meta, c):
        return _Default(", ".join(c), self.sp(meta))

    def sd_tetrominoes(self, meta, c):
        return "tetrominoes"

    def sd_pentominoes(self, meta, c):
        return "pentominoes"

    def sd_polyominoes(self, meta, c):
        return f"polyominoes({self.integer(c[0])})"

    def signed_int(self, meta, c):
        return -self.integer(c[1]) if len(c) == 2 else self.integer(c[0])

    def decide_stmt(self, meta, c):
        return ast.Decide(str(c[0]), c[1], c[2], self.sp(c[0]))

    def decide_edges(self, meta, c):
        lattice = "corners" if len(c) > 3 else "edges"
        return ast.Decide(str(c[0]), c[1], None, self.sp(c[0]), lattice)

    def decide_on_corners(self, meta, c):
        """``decide NAME: D on corners``: refused in a sentence at ``corners`` (a decision is made on cells, edges or
        corner edges; one per corner of the cells, pzprjs's crosses, is not in the language).

        Raises:
            GridSyntaxError: always.
        """
        end = meta.end_column if meta.end_line == meta.line else None
        span = Span(self.path, meta.end_line, (end or 8) - 7, end)
        raise GridSyntaxError(f"a decision is made on cells (on all, a tile, a tag), on edges or on corner edges; "
                              f"one per corner of the cells (pzprjs's crosses) is not in the language: decide "
                              f"{c[0]}: ... on corner edges decides the lines between corners, and a tile on "
                              f"corners gives clues there", span)

    def dom_bool(self, meta, c):
        return "bool"

    def dom_enum(self, meta, c):
        parts: list = []
        for part in c:
            parts.extend(part if isinstance(part, list) else [part])
        return tuple(parts)

    def dom_list(self, meta, c):
        return [ast.Symbol(x.id, x.span) if isinstance(x, ast.Name) else x for x in c]

    def dom_param(self, meta, c):
        return ast.Name(str(c[0]), self.sp(c[0]))

    def dom_int(self, meta, c):
        return ast.IntLit(c[0], self.sp(meta))

    def dom_char(self, meta, c):
        """A quoted character as a value name (``'/'``, ``'\\\\'``: the slants)."""
        return ast.Symbol(_char(c[0], self.path), self.sp(c[0]))

    def dom_range(self, meta, c):
        bounds = [ast.IntLit(x, self.sp(meta)) if isinstance(x, int) and not isinstance(x, bool) else x for x in c]
        return ast.DomainRange(bounds[0], bounds[1], self.sp(meta))

    def dom_values(self, meta, c):
        return ast.DomainValues(ast.Name(str(c[0]), self.sp(c[0])), self.sp(meta))

    def dom_bound_name(self, meta, c):
        return ast.Name(str(c[0]), self.sp(c[0]))

    def region_stmt(self, meta, c):
        return ast.Region(str(c[0]), c[1], c[2], self.sp(c[0]))

    def require_stmt(self, meta, c):
        if len(c) == 1:
            return c[0]
        name, rule = c
        text = " ".join(str(name)[1:-1].split())
        if not text:
            raise GridSyntaxError("a rule's name is empty: write a short sentence between the quotes, or "
                                  "leave the name and its ':' out", self.sp(name))
        self.names.append(((rule.span.line, rule.span.column), text))
        return rule

    def rule_for(self, meta, c):
        *binders, body = c
        for var, domain in reversed(binders):
            body = ast.ForEach(var, domain, body, self.sp(meta))
        return body

    def rule_expr(self, meta, c):
        e = c[0]
        if isinstance(e, (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath)):
            return e
        return ast.Holds(e, self.sp(meta))


    def bind_in(self, meta, c):
        return (ast.Name(str(c[0]), self.sp(c[0])), c[1])

    def _bind_family(self, meta, kind: str, c, dims=(None, None)):
        return (ast.Name(str(c[-1]), self.sp(c[-1])), ast.Family(kind, dims[0], dims[1], self.sp(meta)))

    def bind_cell(self, meta, c):
        return self._bind_family(meta, "cells", c)

    def bind_row(self, meta, c):
        return self._bind_family(meta, "rows", c)

    def bind_column(self, meta, c):
        return self._bind_family(meta, "columns", c)

    def bind_room(self, meta, c):
        return self._bind_family(meta, "rooms", c)

    def bind_direction(self, meta, c):
        return self._bind_family(meta, "directions", c)

    def bind_corner(self, meta, c):
        return self._bind_family(meta, "corners", c)

    def direction(self, meta, c):
        return ast.Direction(str(c[0]), self.sp(c[0]))

    def bind_window(self, meta, c):
        return self._bind_family(meta, "windows", c, c[0])

    def bind_block(self, meta, c):
        return self._bind_family(meta, "blocks", c, c[0])

    def dims_lit(self, meta, c):
        h, w = str(c[0]).split("x")
        return (ast.IntLit(int(h), self.sp(meta)), ast.IntLit(int(w), self.sp(meta)))

    def dims_pair(self, meta, c):
        return (c[0], c[1])

    def implies(self, meta, c):
        return ast.Implies(c[0], c[1], self.sp(meta))

    def component(self, meta, c):
        return ast.Component(c[0], c[1], self.sp(meta))

    def compare(self, meta, c):
        return ast.Compare(c[0], str(c[1]), c[2], self.sp(meta))

    def subset(self, meta, c):
        return ast.Subset(c[0], c[1], self.sp(meta))

    def avoids(self, meta, c):
        return ast.Avoids(c[0], c[1], self.sp(meta))

    def connected(self, meta, c):
        return ast.IsConnected(c[0], c[1] if len(c) > 1 else None, self.sp(meta))

    def connected_diagonally(self, meta, c):
        return ast.IsConnected(c[0], c[1] if len(c) > 1 else None, self.sp(meta), diagonal=True)

    def is_path(self, meta, c):
        return ast.IsPath(c[0], c[1], self.sp(meta))

    def all_different(self, meta, c):
        return ast.AllDifferent(ast.Name(str(c[0]), self.sp(c[0])), c[1], self.sp(meta))

    def _aggregate(self, fn: str, meta, c):
        return ast.Aggregate(fn, c[0], ast.Name(str(c[1]), self.sp(c[1])), c[2], self.sp(meta))

    def count_for(self, meta, c):
        return self._aggregate("count", meta, c)

    def sum_for(self, meta, c):
        return self._aggregate("sum", meta, c)

    def all_for(self, meta, c):
        return self._aggregate("all", meta, c)

    def any_for(self, meta, c):
        return self._aggregate("any", meta, c)

    def at(self, meta, c):
        return ast.At(ast.Name(str(c[0]), self.sp(c[0])), c[1], self.sp(meta))

    def neighbours(self, meta, c):
        return ast.Around("side", c[0], self.sp(meta))

    def diagonal_neighbours(self, meta, c):
        return ast.Around("diagonal", c[0], self.sp(meta))

    def king_neighbours(self, meta, c):
        return ast.Around("king", c[0], self.sp(meta))

    def row_of(self, meta, c):
        return ast.LineOf("row", c[0], self.sp(meta))

    def column_of(self, meta, c):
        return ast.LineOf("column", c[0], self.sp(meta))

    def room_of(self, meta, c):
        return ast.LineOf("room", c[0], self.sp(meta))

    def bind_shape(self, meta, c):
        return (ast.Name(str(c[0]), self.sp(c[0])), c[1])

    def sight(self, meta, c):
        return ast.Sight(c[0], c[1], c[2], self.sp(meta))

    def is_piece(self, meta, c):
        return ast.IsPiece(c[0], c[1], self.sp(meta))

    def consists_of(self, meta, c):
        return ast.ConsistsOf(c[0], c[1], self.sp(meta))

    def fam_tetrominoes(self, meta, c):
        return ast.Shapes("size", ast.IntLit(4, self.sp(meta)), self.sp(meta))

    def fam_pentominoes(self, meta, c):
        return ast.Shapes("size", ast.IntLit(5, self.sp(meta)), self.sp(meta))

    def fam_polyominoes(self, meta, c):
        return ast.Shapes("size", c[0], self.sp(meta))

    def fam_var(self, meta, c):
        return ast.Shapes("var", ast.Name(str(c[0]), self.sp(c[0])), self.sp(meta))

    def rule_pairs(self, meta, c):
        a, b = (ast.Name(str(t), self.sp(t)) for t in c[:2])
        return ast.ForPairs(a, b, c[2], self.sp(meta))

    # formulas over a pair of cells
    def cellref(self, meta, c):
        return ast.CellRef(ast.Name(str(c[0]), self.sp(c[0])), ast.Name(str(c[1]), self.sp(c[1])), self.sp(meta))

    def p_member(self, meta, c):
        return ast.PMember(c[0], self.sp(meta))

    def p_eq(self, meta, c):
        return ast.PEq(c[0], c[1], self.sp(meta))

    def p_ne(self, meta, c):
        return ast.PNot(ast.PEq(c[0], c[1], self.sp(meta)), self.sp(meta))

    def p_group(self, meta, c):
        return c[0]

    def p_not(self, meta, c):
        return ast.PNot(c[0], self.sp(meta))

    def p_and(self, meta, c):
        return c[0] if len(c) == 1 else ast.PAnd(tuple(c), self.sp(meta))

    def p_or(self, meta, c):
        return c[0] if len(c) == 1 else ast.POr(tuple(c), self.sp(meta))

    def p_implies(self, meta, c):
        return ast.PImplies(c[0], c[1], self.sp(meta))

    def draw_stmt(self, meta, c):
        name, look = c
        return ast.Draw(str(name), str(look), span=self.sp(meta), name_span=self.sp(name), look_span=self.sp(look))

    def draw_blocks(self, meta, c):
        (height, width), look = c
        return ast.Draw(None, str(look), height, width, self.sp(meta), name_span=self.sp(meta),
                        look_span=self.sp(look))

    def objective_stmt(self, meta, c):
        sense = "maximize" if str(c[0]).startswith("max") else "minimize"
        return ast.Objective(sense, c[1], self.sp(meta))

    # expressions
    def or_(self, meta, c):
        return c[0] if len(c) == 1 else ast.Or(tuple(c), self.sp(meta))

    def and_(self, meta, c):
        return c[0] if len(c) == 1 else ast.And(tuple(c), self.sp(meta))

    def not_(self, meta, c):
        return ast.Not(c[0], self.sp(meta))

    def add(self, meta, c):
        return ast.Add(c[0], c[2], 1 if str(c[1]) == "+" else -1, self.sp(meta))

    def mul(self, meta, c):
        return ast.Mul(c[0], c[1], self.sp(meta))

    def neg(self, meta, c):
        return ast.Neg(c[1], self.sp(meta))

    def name(self, meta, c):
        return ast.Name(str(c[0]), self.sp(c[0]))

    def int_(self, meta, c):
        return ast.IntLit(self.integer(c[0]), self.sp(c[0]))

    def border(self, meta, c):
        return ast.Border(self.sp(meta))

    def all_(self, meta, c):
        return ast.AllCells(self.sp(meta))

    def count(self, meta, c):
        return ast.Count(c[0], self.sp(meta))

    def value(self, meta, c):
        return ast.Value(c[0], self.sp(meta))

    def sum_(self, meta, c):
        return ast.SumOf(c[0], self.sp(meta))

    def equals(self, meta, c):
        """``A = B``, by what the two sides are: a decision's value (``kind = snake``, ``digit[p] = 3``,
        ``owner[p] = owner[q]``: :class:`ast.Is`, :class:`ast.AtIs`), one cell (``q = p + right``), the cells
        where D takes its value at p (``D = D[p]``, built by its construct's rule ``same_value``,
        :mod:`gridlang.constructs.blocks`), or else ``A == B``, the equality of two numbers or the
        equivalence of two conditions (the checker tells)."""
        left, right = c
        if isinstance(right, ast.Neg) and isinstance(right.operand, ast.IntLit):  # kind = -1
            right = ast.IntLit(-right.operand.value, right.span)
        if isinstance(right, ast.Direction) and isinstance(left, (ast.Name, ast.At)):  # dir[p] = up: a value name
            right = ast.Name(right.name, right.span)
        if isinstance(left, ast.At) and isinstance(right, ast.Call) and right.name.id == "direction":
            return ast.AtIs(left.name, left.cell, right, self.sp(meta))  # dir[p] = direction(c): an arrow's value
        plain = isinstance(right, (ast.Name, ast.IntLit, ast.TileValue))
        if isinstance(left, ast.Name) and isinstance(right, ast.At):  # D = D[p]: a construct's (gridlang.constructs)
            return construct_rule("same_value")(self, meta, [left, right])
        if isinstance(left, ast.Name) and (plain or isinstance(right, (ast.Add, ast.Neg, ast.Call))):
            return ast.Is(left, right, self.sp(meta))
        if isinstance(left, ast.At) and (plain or isinstance(right, ast.At) and right.name.id == left.name.id):
            return ast.AtIs(left.name, left.cell, right, self.sp(meta))
        return ast.Compare(left, "==", right, self.sp(meta))

    def not_equals(self, meta, c):
        """``A != B``: ``not (A = B)``; between conditions, their exclusive or."""
        return ast.Not(self.equals(meta, c), self.sp(meta))

    def tile_value(self, meta, c):
        return ast.TileValue(self.sp(meta))

    def char_value(self, meta, c):
        """A quoted character on the right of ``=``: the value name it is (``slant[p] = '/'``)."""
        return ast.Name(_char(c[0], self.path), self.sp(c[0]))
