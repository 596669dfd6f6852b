"""Named expressions: every use of a ``let`` replaced by its expression, hygienically.

``let NAME = EXPR`` and ``let NAME(P, ...) = EXPR`` are macros of the
language: right after parsing, each use (``NAME``, ``NAME(ARGS)``) is
replaced by a copy of EXPR with the arguments in place of the parameters,
so the checker types the copy where it stands (a let is type-checked at
each use) and the compiler and the verifier never meet a let. ``S[p]`` with
S a let of a cell set is ``count(p) == 1 and p in (S)``: false off the grid,
as for a declared set. A call ``down(c)`` of a part of a structured tile
(``tile sum numbers down, across``) becomes a :class:`~gridlang.language.ast.Part`,
and the calls ``values(c)`` and ``distance(p, q)``, ``direction(c)`` their
nodes (they are no keywords there, so a
decision may be called ``distance``; a let or a part of that name comes
first).

Hygiene, as in Scheme's ``syntax-rules``: a let sees the declared names and
its own parameters, never the ``for each`` variables of the place it is
used in (such a name in its expression is an error at that name); and a
variable the expression binds itself (``count(F for q in S)``) is renamed
in the copy when the place of use, or an argument, has a variable of the
same name, so neither captures the other. The renamed variable is written
with a prime (``q'``), which no spec can write.

A let that refers to itself, directly or through others, is an error at the
use that closes the circle; so is a use with the wrong number of arguments,
and a parameter passed where a name is needed (``kind = k``) with an
argument that is not one. A copy of a copy is bounded: a statement whose
expansion passes :data:`MAX_EXPANSION` nodes is refused.
"""

from __future__ import annotations

import functools

from gridlang.core.errors import GridlangError, SemanticError, raise_all
from gridlang.core.nodes import field_types, replace
from gridlang.language import ast

_BUILTINS = {"values": ("values(c)", ast.ValuesOf), "direction": ("direction(c)", ast.DirectionOf),
             "distance": ("distance(p, q)", ast.Distance)}
"""The calls that are constructs of the language, by name: how they are written, and their node."""

MAX_EXPANSION = 50_000
"""The most AST nodes the statements of a spec may grow to through lets, all
together (a shipped spec: 412 at most, Geradeweg). Each statement bounded
alone by 200,000, a spec of many took a minute to expand, past any time
limit (12 uses of a chain of 15 lets that each double the last: 800,000
nodes); 50,000 take about 1.5 s."""

_RULE_NODES = (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath)
"""Relations that stand as rules of their own (the parser makes them so when written in place)."""


def expand_lets(statements: list, source: str) -> list:
    """The statements with every let and part call resolved (:class:`~gridlang.language.ast.Let` statements kept,
    for the checker to declare).

    Args:
        statements: the parsed statements, in order.
        source: the spec's text, for error messages.

    Returns:
        The statements, each with its uses of lets replaced.

    Raises:
        SemanticError: a let that refers to itself, a call with the wrong
            number of arguments, a name a let cannot see, an expansion past
            :data:`MAX_EXPANSION` nodes in all or too deep to follow; MultipleErrors
            for several.
    """
    lets: dict[str, ast.Let] = {}
    for st in statements:
        if isinstance(st, ast.Let):
            lets.setdefault(st.name, st)
    parts = {name: (st.name, k) for st in statements if isinstance(st, ast.Tile) for k, name in enumerate(st.parts)}
    if not lets and not parts and not any(_has_call(st) for st in statements):
        return statements
    expander = _Expander(lets, parts, source)
    out = []
    for st in statements:
        if isinstance(st, (ast.Let, ast.Tile, ast.Param, ast.Puzzle, ast.Connectivity)):
            out.append(st)
            continue
        before = expander.size
        try:
            out.append(expander.walk(st, frozenset(), False))
        except (_TooLarge, RecursionError) as e:
            if isinstance(e, RecursionError):
                expander.report("through its lets this statement nests deeper than gridlang follows; name a "
                                "region or split the rule", st.span)
                out.append(st)
                continue
            expander.report(f"through their lets this statement and those before it grow past {MAX_EXPANSION:,} "
                            f"nodes ({before:,} before it), the most gridlang expands in a spec; name a region or "
                            "use fewer copies of the lets", st.span)
            raise_all(expander.errors)
    raise_all(expander.errors)
    return out


def _has_call(node) -> bool:
    """Whether a ``NAME(ARGS)`` call stands anywhere in ``node`` (so that parts need resolving)."""
    if isinstance(node, ast.Call):
        return True
    if isinstance(node, tuple):
        return any(_has_call(x) for x in node)
    if _is_node(node) and not isinstance(node, (ast.Name, ast.IntLit)):
        return any(_has_call(getattr(node, f)) for f in _fields(type(node)))
    return False


def _is_node(x) -> bool:
    """Whether ``x`` is an AST node (made by :func:`gridlang.core.nodes.node`)."""
    return isinstance(getattr(type(x), "_fields", None), tuple) and not isinstance(x, tuple)


@functools.lru_cache(maxsize=None)
def _fields(cls: type) -> tuple[str, ...]:
    """The fields of an AST node class that may hold other nodes."""
    return tuple(name for name in cls._fields if name != "span")


@functools.lru_cache(maxsize=None)
def _expression_fields(cls: type) -> frozenset[str]:
    """The fields of an AST node class that hold expressions (a name there is a value, not a
    decision's or a set's name)."""
    return frozenset(name for name, kind in field_types(cls).items() if "Expr" in kind)


class _TooLarge(Exception):
    """The statement's expansion passed :data:`MAX_EXPANSION` nodes."""


class _Expander:
    def __init__(self, lets: dict[str, ast.Let], parts: dict[str, tuple[str, int]], source: str):
        self.lets = lets
        self.parts = parts
        self.source = source
        self.errors: list[GridlangError] = []
        self.seen: set = set()
        self.stack: list[str] = []
        self.size = 0
        self.primes = 0
        self.scope: frozenset[str] = frozenset()  # the variables bound where the let being copied is used

    def report(self, message: str, span) -> None:
        key = (message, span)
        if key not in self.seen:
            self.seen.add(key)
            self.errors.append(SemanticError(message, span, source=self.source))

    # the walk over the place of use ------------------------------------------------------
    def walk(self, node, scope: frozenset[str], expr: bool):
        """``node`` with its lets and calls resolved; ``scope``: the variables bound around it;
        ``expr``: it stands where an expression does."""
        if isinstance(node, tuple):
            return tuple(self.walk(x, scope, expr) for x in node)
        if isinstance(node, ast.Name):
            if expr and node.id in self.lets and node.id not in scope:
                return self.use(self.lets[node.id], None, node, scope)
            return node
        if not _is_node(node) or isinstance(node, (ast.IntLit, ast.Symbol, ast.Let)):
            return node
        self.size += 1
        if self.size > MAX_EXPANSION:
            raise _TooLarge
        if isinstance(node, ast.Call):
            return self.call(node, scope)
        if isinstance(node, ast.At) and expr and node.name.id in self.lets and node.name.id not in scope:
            cells = self.use(self.lets[node.name.id], None, node.name, scope)
            cell = self.walk(node.cell, scope, True)
            # p is one cell, or none off the grid: there S[p] is false, as for a declared set (an
            # empty set is a subset of every set, so the subset alone would hold there).
            on_grid = ast.Compare(ast.Count(cell, node.span), "==", ast.IntLit(1, node.span), node.span)
            return ast.And((on_grid, ast.Subset(cell, cells, node.span)), node.span)
        if isinstance(node, (ast.Aggregate, ast.ForEach)):
            inner = scope | {node.var.id}
            domain = self.walk(node.domain, scope, True)
            body = self.walk(node.body, inner, isinstance(node, ast.Aggregate))
            out = replace(node, domain=domain, body=body)
        elif isinstance(node, ast.ForPairs):
            return node  # its formulas name decisions and the pair's cells only
        else:
            out = self.rebuild(node, lambda child, is_expr: self.walk(child, scope, is_expr))
        if isinstance(out, ast.Holds) and isinstance(out.formula, _RULE_NODES):
            return replace(out.formula, span=out.span)  # as the parser makes `require A in B`
        return out

    @staticmethod
    def rebuild(node, fn):
        """``node`` with ``fn(child, is_expression_field)`` applied to each child."""
        cls = type(node)
        exprs = _expression_fields(cls)
        changes = {}
        for name in _fields(cls):
            child = getattr(node, name)
            is_expr = name in exprs and not (isinstance(node, ast.Shapes) and node.kind == "var")
            new = fn(child, is_expr)
            if new is not child:
                changes[name] = new
        return replace(node, **changes) if changes else node

    def call(self, node: ast.Call, scope: frozenset[str]):
        name = node.name.id
        args = tuple(self.walk(a, scope, True) for a in node.args)
        if name in self.lets and name not in scope:
            return self.use(self.lets[name], args, node, scope)
        if name in self.parts:
            if len(args) != 1:
                self.report(f"{name}(c) reads a part of one cell; this call has {len(args)} arguments", node.span)
                return replace(node, args=args)
            tile, index = self.parts[name]
            return ast.Part(name, tile, index, args[0], node.span)
        if name in _BUILTINS:
            form, make = _BUILTINS[name]
            if len(args) != form.count(",") + 1:
                self.report(f"{form} takes {form.count(',') + 1} argument{'s' if ',' in form else ''}; this call "
                            f"has {len(args)}", node.span)
                return replace(node, args=args)
            return make(*args, node.span)
        return replace(node, args=args)

    # one use of a let --------------------------------------------------------------------
    def use(self, let: ast.Let, args: tuple | None, at, scope: frozenset[str]):
        """The let's expression in place of ``at`` (a name, or a call with ``args``)."""
        given = 0 if args is None else len(args)
        if let.parens and args is None:
            self.report(f"{let.name!r} takes {len(let.params)} argument{'s' if len(let.params) != 1 else ''}: "
                        f"write {let.name}({', '.join(p.id for p in let.params)})", at.span)
            return at
        if not let.parens and args is not None or given != len(let.params) and args is not None:
            want = f"{len(let.params)} argument{'s' if len(let.params) != 1 else ''}" if let.parens \
                else "no arguments: write it without parentheses"
            self.report(f"let {let.name!r} (line {let.span.line}) takes {want}; this use gives {given}", at.span)
            return at
        if let.name in self.stack:
            circle = " -> ".join(self.stack[self.stack.index(let.name):] + [let.name])
            self.report(f"let {let.name!r} refers to itself ({circle}); a let cannot be recursive", at.span)
            return at
        binding = dict(zip((p.id for p in let.params), args or ()))
        avoid = scope | frozenset().union(*(_free(a) for a in binding.values())) if binding else scope
        self.scope = scope
        body = self.copy(let, let.body, binding, avoid, frozenset())
        self.stack.append(let.name)
        try:
            return self.walk(body, scope, True)
        finally:
            self.stack.pop()

    def copy(self, let: ast.Let, node, binding: dict, avoid: frozenset[str], inner: frozenset[str]):
        """The let's expression with the arguments in place of the parameters and its own variables
        renamed where they would meet the place of use's (``avoid``)."""
        if isinstance(node, tuple):
            return tuple(self.copy(let, x, binding, avoid, inner) for x in node)
        if isinstance(node, ast.Name):
            return self.copy_name(let, node, binding, avoid, inner, expr=True)
        if not _is_node(node) or isinstance(node, (ast.IntLit, ast.Symbol)):
            return node
        if isinstance(node, ast.Aggregate):
            var = node.var
            domain = self.copy(let, node.domain, binding, avoid, inner)
            binding = {k: v for k, v in binding.items() if k != var.id}
            if var.id in avoid:
                self.primes += 1
                fresh = ast.Name(var.id + "'" * self.primes, var.span)
                binding[var.id] = fresh
                var = fresh
            body = self.copy(let, node.body, binding, avoid, inner | {node.var.id})
            return replace(node, var=var, domain=domain, body=body)

        def child(value, is_expr):
            if isinstance(value, ast.Name):
                return self.copy_name(let, value, binding, avoid, inner, is_expr)
            return self.copy(let, value, binding, avoid, inner)

        return self.rebuild(node, child)

    def copy_name(self, let: ast.Let, name: ast.Name, binding: dict, avoid: frozenset[str], inner: frozenset[str],
                  expr: bool):
        if name.id in binding:
            value = binding[name.id]
            if expr or isinstance(value, ast.Name):
                return value
            self.report(f"parameter {name.id!r} of let {let.name!r} stands where a name is needed; this use passes "
                        f"an expression (pass a variable)", getattr(value, "span", None) or name.span)
            return name
        if name.id in self.scope and name.id not in inner:
            self.report(f"{name.id!r} in let {let.name!r} is not one of its parameters: a let sees the declared "
                        f"names and its parameters, not the variables of the rule that uses it (add a parameter)",
                        name.span)
        return name


def _free(node) -> frozenset[str]:
    """The names mentioned in an argument (a superset of its free variables is enough here)."""
    if isinstance(node, ast.Name):
        return frozenset((node.id,))
    if isinstance(node, tuple):
        return frozenset().union(*(_free(x) for x in node)) if node else frozenset()
    if _is_node(node) and not isinstance(node, ast.IntLit):
        return frozenset().union(*(_free(getattr(node, f)) for f in _fields(type(node))))
    return frozenset()
