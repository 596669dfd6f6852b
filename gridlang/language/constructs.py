"""The registry of constructs: each piece of the language found by its AST node's type.

A construct (:mod:`gridlang.constructs`) is one module that holds what a
piece of the language is everywhere: its AST node, the parse-tree rules
that build it, its type check, its lowering to the model, and its
evaluation on an answer for the spec-level verifier. The stages that meet
it (the parser, the checker, the compiler, the interpreter) do not name it:
they ask :func:`construct_of` for the node in hand and call the hook of
their stage, so that adding a construct touches its module, the grammar,
and its tests and docs.

The construct modules sit above the language in the layers (they lower to
the model); they are found by scanning the package ``gridlang.constructs``
and imported by name on first use (:func:`load`), as plug-ins are, never
by an import statement here. Each registers a :class:`Construct` for each
node type it owns with :func:`register`.

The hooks a stage calls, each given the stage's own object (so a construct
imports nothing of the compiler or the interpreter, and its lowering and
its evaluation share no code):

* ``rules``: Lark rule name -> ``build(transformer, meta, children)``, the
  node made from a parse-tree rule of ``grammars/gridlang.lark``;
* :meth:`Construct.type_of`: the checker's type of the node, errors
  reported through ``checker.error(message, span)``;
* :meth:`Construct.linear`: the compiler's lowering of a number (its
  constant part returned, its terms added to ``coef``), given the
  compiler's own lowering for the operands;
* :meth:`Construct.number`: the interpreter's value of the node on one
  answer, given the interpreter's own evaluation for the operands;
* :meth:`Construct.known`: whether the node's value is given (no ``?`` clue
  in it), asked by the compiler and the interpreter alike, each with its
  own ``known`` function for the operands;
* :meth:`Construct.children`: the node's operands, for the walks that look
  for the counts inside a number.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Iterator

PACKAGE = "gridlang.constructs"
"""The package whose modules are the constructs, each imported by name on first use."""

_BY_NODE: dict[type, "Construct"] = {}
_BY_RULE: dict[str, Callable[[Any, Any, list], Any]] = {}
_LOADED = False


class Construct:
    """A construct's hooks. A construct fills the hooks of every stage its node can reach:
    one it leaves raises ``NotImplementedError``, a fault of the construct's, which the
    command line reports as a bug in one sentence.

    Attributes:
        node: the AST node type it owns.
        rules: the parse-tree rules that build it, by Lark rule name.
    """

    node: type = object
    rules: dict[str, Callable[[Any, Any, list], Any]] = {}

    def type_of(self, checker, e):
        """The node's :class:`~gridlang.language.checker.symbols.Type`, or None after an error."""
        raise NotImplementedError

    def linear(self, lower: Callable, e, scale: int, coef: dict[int, int], source: str | None) -> int:
        """Lower ``scale * e`` to linear terms: add them to ``coef``, return the constant part.

        Args:
            lower: the compiler's lowering of an operand, ``lower(operand, scale, coef) -> constant``.
            source: the spec's text, for located errors.

        Raises:
            SemanticError: the node cannot be lowered here (located).
        """
        raise NotImplementedError

    def number(self, evaluate: Callable, e, source: str | None) -> int:
        """The node's value on the interpreter's answer, ``evaluate(operand) -> int`` giving the operands'.

        Raises:
            SemanticError: the value is undefined (located).
        """
        raise NotImplementedError

    def known(self, is_known: Callable[[Any], bool], e) -> bool:
        """Whether the node's value is given, its operands asked through ``is_known``."""
        return all(is_known(c) for c in self.children(e))

    def children(self, e) -> tuple:
        """The node's operands (expressions)."""
        return ()


def register(construct: Construct) -> Construct:
    """Make ``construct`` the one of its node type and of its rules.

    Raises:
        ValueError: another construct owns the node type or a rule already.
    """
    if construct.node in _BY_NODE and _BY_NODE[construct.node] is not construct:
        raise ValueError(f"two constructs own the node {construct.node.__name__}")
    for name in construct.rules:
        if name in _BY_RULE and _BY_RULE[name] is not construct.rules[name]:
            raise ValueError(f"two constructs build the rule {name!r}")
    _BY_NODE[construct.node] = construct
    _BY_RULE.update(construct.rules)
    return construct


def load() -> None:
    """Import every construct module of :data:`PACKAGE` (once), which registers them."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import pkgutil  # only when a construct is met: a spec of the core language never loads the folder

    package = importlib.import_module(PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        importlib.import_module(f"{PACKAGE}.{info.name}")


def construct_of(e) -> Construct | None:
    """The construct that owns the node ``e``, or None for a node of the core language.

    A node of the core language is told by its class's module alone, so that asking
    about it never loads the constructs: a node of a construct exists only once its
    module has been imported (by the parser, or by unpickling a cached spec)."""
    cls = type(e)
    if not cls.__module__.startswith(PACKAGE + "."):
        return None
    if not _LOADED:
        load()
    return _BY_NODE.get(cls)


def rule(name: str) -> Callable[[Any, Any, list], Any] | None:
    """The builder of the parse-tree rule ``name``, or None when no construct has it."""
    if not _LOADED:
        load()
    return _BY_RULE.get(name)


def constructs() -> Iterator[Construct]:
    """Every registered construct, each once."""
    load()
    seen: list[Construct] = []
    for c in _BY_NODE.values():
        if c not in seen:
            seen.append(c)
            yield c
