"""Which side of ``A == B`` (``A = B``, ``A != B``) is a condition, for the compiler and the interpreter.

Between two conditions ``==`` is their equivalence and ``!=`` (parsed as
``not (A == B)``) their exclusive or; between two numbers it is the
comparison. The checker has typed both sides alike (a mixture is an error),
so the left side's form tells which: a relation, a connective, a value test
or membership ``S[p]`` is a condition, and so is ``D[p]`` of a decision
whose values are not numbers, that is a Boolean one; a construct's node is
one when its construct says so (``line[p, q]`` of a Boolean decision on
edges, ``straight(line, p)``: :meth:`~gridlang.language.constructs.Construct.condition`).
"""

from __future__ import annotations

from gridlang.language import ast
from gridlang.language.checker.symbols import Symbols
from gridlang.language.constructs import construct_of

_CONDITIONS = (ast.Not, ast.And, ast.Or, ast.Implies, ast.Compare, ast.Subset, ast.Avoids, ast.AtIs, ast.Is,
               ast.IsKnown, ast.IsPiece, ast.AllDifferent)


def is_condition(e: ast.Expr, symbols: Symbols) -> bool:
    """Whether ``e``, one side of a checked ``==``, is a condition (else it is a number).

    Args:
        e: the left side of an :class:`ast.Compare` with ``op == "=="``.
        symbols: the checked spec's symbols (which decisions take numbers).
    """
    if isinstance(e, ast.At):
        decision = symbols.decisions.get(e.name.id)
        return decision is None or not decision.is_enum
    if isinstance(e, ast.Aggregate):
        return e.fn in ("all", "any")
    construct = construct_of(e)
    if construct is not None:
        return construct.condition(symbols, e)  # line[p, q], straight(line, p)
    return isinstance(e, _CONDITIONS)


def is_number(name: ast.Name, symbols: Symbols, bound_int: bool) -> bool:
    """Whether ``name`` on the left of ``name = V`` is a number (``k = 3`` with k a ``for each``
    integer or an ``int`` parameter, a comparison) rather than a decision or a cell.

    Args:
        name: the left side of an :class:`ast.Is`.
        symbols: the checked spec's symbols.
        bound_int: whether a ``for each`` integer variable of that name is in scope.
    """
    param = symbols.params.get(name.id)
    return bound_int or name.id not in symbols.decisions and param is not None and param.type == "int"


__all__ = ["is_condition", "is_number"]
