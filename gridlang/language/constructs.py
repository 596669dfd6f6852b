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
the model), and nothing here imports one by an import statement. Each
registers a :class:`Construct` for each node type it owns with
:func:`register` when it is imported. A node of a construct exists only
once its module has been imported (by the parser's rule builders, or by
unpickling a cached spec), so :func:`construct_of` is one look-up that
loads nothing; the parser's :func:`rule` scans the package
``gridlang.constructs`` and imports every construct module once
(:func:`load`), as plug-ins are found. A module of the package may be a
subpackage: one construct in several modules.

The hooks a stage calls, each given the stage's own object (so a construct
imports nothing of the compiler or the interpreter, and its lowering and
its evaluation share no code):

* ``rules``: Lark rule name -> ``build(transformer, meta, children)``, the
  node made from a parse-tree rule of ``grammars/gridlang.lark`` (or from a
  form a core rule hands over by name: ``same_value``, ``D = D[p]``, which
  the transformer's ``equals`` tells from the other equalities);
* :meth:`Construct.type_of`: the checker's type of the node, errors
  reported through ``checker.error(message, span)``;
* a number: :meth:`Construct.linear`, the compiler's lowering (its
  constant part returned, its terms added to ``coef``), given the
  compiler's own lowering for the operands; :meth:`Construct.number`, the
  interpreter's value on one answer, given the interpreter's own
  evaluation for the operands;
* a cell set: :meth:`Construct.members`, the compiler's cells that may be
  in it, each with its literal; :meth:`Construct.cells`, the interpreter's
  cells in it on one answer;
* a condition of its own, a comparison with the node on one side
  (``compared``): :meth:`Construct.compare_type` in the checker;
  :meth:`Construct.compare_lit` (one literal equal to it) and
  :meth:`Construct.assert_compare` (stated under a guard) in the compiler;
  :meth:`Construct.compare_violation` in the interpreter; found by
  :func:`comparison_of`;
* a comparison the construct states its own way though it is made of core
  nodes around its node (blocks' sizes): :meth:`Construct.lower_rule`,
  offered every comparison stated as a rule by the constructs of
  :func:`rule_lowerings`, with what it collects finished after the last
  statement by :meth:`Construct.finish`;
* :meth:`Construct.known`: whether the node's value is given (no ``?`` clue
  in it), asked by the compiler and the interpreter alike, each with its
  own ``known`` function for the operands;
* :meth:`Construct.children`: the node's number operands, for the walks
  that look for the counts inside a number.

What a construct may use of the stage's object it is given:

* the checker (``checker``): ``error(message, span)``, ``type_of(e)``,
  ``cell(e, what) -> bool`` (e is one cell, else reported), ``sym`` (the
  symbols), ``env`` (the bindings), ``suggest(name)`` and
  ``on_edges(decision)`` (the words of two common errors);
* the compiler (``compiler``): ``cell_of(e) -> int | None``,
  ``members(e, within) -> {cell: literal}``, ``combine(is_and, literals,
  cell) -> literal``, ``linear(e) -> (terms, constant)``, ``constant(e) ->
  int | None``, ``clause(literals, span)``, ``fails(guard, f, cell)`` (a
  rule that fails whatever the decisions), ``constraints`` (appended to),
  ``collected`` (what :meth:`Construct.lower_rule` keeps, by construct),
  ``current`` (the statement), ``grid``, ``spec``, ``map_data`` and the
  decisions' literals (``decision_lits``: per cell; ``enum_lits``: per cell,
  value -> literal); a literal is ``True``, ``False`` or a variable's
  number, negative when negated;
* the interpreter (``interpreter``): ``cell(e) -> int | None``, ``cells(e)
  -> frozenset``, ``number(e) -> int``, ``grid``, ``spec`` and the
  answer's values (``bools``: a Boolean decision's true cells; ``enums``:
  an enumeration's cell -> value; ``on``: the cells a decision is made on).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Iterator

PACKAGE = "gridlang.constructs"
"""The package whose modules are the constructs, each imported by name on first use."""

_BY_NODE: dict[type, "Construct"] = {}
_BY_RULE: dict[str, Callable[[Any, Any, list], Any]] = {}
_RULE_LOWERINGS: tuple["Construct", ...] = ()
_LOADED = False


class Construct:
    """A construct's hooks. A construct fills the hooks of every stage its node can reach:
    one it leaves raises ``NotImplementedError``, a fault of the construct's, which the
    command line reports as a bug in one sentence.

    Attributes:
        node: the AST node type it owns.
        rules: the parse-tree rules that build it, by Lark rule name.
        compared: whether a comparison with the node on one side is the construct's own
            condition (``runs of S around c == L``), typed, lowered and evaluated by the
            ``compare_*`` hooks, rather than a comparison of two numbers.
    """

    node: type = object
    rules: dict[str, Callable[[Any, Any, list], Any]] = {}
    compared: bool = False

    # ------------------------------------------------------------------ the checker
    def type_of(self, checker, e):
        """The node's :class:`~gridlang.language.checker.symbols.Type`, or None after an error."""
        raise NotImplementedError

    def compare_type(self, checker, e, own, other):
        """The type of the comparison ``e`` (``own`` the construct's side, ``other`` the other): a
        condition's type, or None after reporting an error through ``checker.error``."""
        raise NotImplementedError

    # ----------------------------------------------------------------- the compiler
    def linear(self, lower: Callable, e, scale: int, coef: dict[int, int], source: str | None) -> int:
        """Lower ``scale * e`` to linear terms: add them to ``coef``, return the constant part.

        Args:
            lower: the compiler's lowering of an operand, ``lower(operand, scale, coef) -> constant``.
            source: the spec's text, for located errors.

        Raises:
            SemanticError: the node cannot be lowered here (located).
        """
        raise NotImplementedError

    def members(self, compiler, e, within) -> dict:
        """The cells that may be in the cell set ``e``, each with ``True`` or its literal (a cell
        never in it left out); only the cells of ``within`` when it is not None.

        Raises:
            SemanticError, MapError: the set cannot be made on this map (located).
        """
        raise NotImplementedError

    def compare_lit(self, compiler, e, own, other):
        """One literal (or ``True``/``False``) equal to the comparison ``e``, a condition inside
        ``or``, ``not`` or a count.

        Raises:
            SemanticError, MapError: it cannot be lowered on this map (located).
        """
        raise NotImplementedError

    def assert_compare(self, compiler, e, own, other, guard: tuple[int, ...]) -> None:
        """State the comparison ``e`` as a rule that holds whenever every literal of ``guard`` does:
        constraints added to ``compiler.constraints`` (or through ``compiler.clause``).

        Raises:
            SemanticError, MapError: it fails whatever the decisions, or cannot be lowered (located).
        """
        raise NotImplementedError

    def lower_rule(self, compiler, f, guard: tuple[int, ...]) -> bool:
        """State the comparison ``f`` (a rule under ``guard``) the construct's own way, or return False
        to leave it to the compiler's lowering (the default).

        Offered every comparison stated as a rule while the construct is loaded (:func:`rule_lowerings`),
        it answers only for the forms it knows; what it collects it keeps in
        ``compiler.collected[self]``, handed to :meth:`finish` after the last statement.
        """
        return False

    def finish(self, compiler, collected) -> list:
        """The constraints of what :meth:`lower_rule` collected (``collected``), stated after the
        last statement."""
        return []

    # -------------------------------------------------------------- the interpreter
    def number(self, evaluate: Callable, e, source: str | None) -> int:
        """The node's value on the interpreter's answer, ``evaluate(operand) -> int`` giving the operands'.

        Raises:
            SemanticError: the value is undefined (located).
        """
        raise NotImplementedError

    def cells(self, interpreter, e) -> frozenset[int]:
        """The cells of the cell set ``e`` on the interpreter's answer (cell indices).

        Raises:
            SemanticError: the set is undefined on this answer (located).
        """
        raise NotImplementedError

    def compare_violation(self, interpreter, e, own, other) -> tuple[str, frozenset[int]] | None:
        """None when the comparison ``e`` holds on the interpreter's answer; else what a rule that
        states it reports: a sentence and the cells to show.

        Raises:
            SemanticError: it cannot be evaluated on this answer (located).
        """
        raise NotImplementedError

    # ------------------------------------------------------------------- all stages
    def known(self, is_known: Callable[[Any], bool], e) -> bool:
        """Whether the node's value is given, its operands asked through ``is_known``."""
        return all(is_known(c) for c in self.children(e))

    def children(self, e) -> tuple:
        """The node's number operands (expressions)."""
        return ()


def register(construct: Construct) -> Construct:
    """Make ``construct`` the one of its node type and of its rules.

    Raises:
        ValueError: another construct owns the node type or a rule already.
    """
    global _RULE_LOWERINGS
    if construct.node in _BY_NODE and _BY_NODE[construct.node] is not construct:
        raise ValueError(f"two constructs own the node {construct.node.__name__}")
    for name in construct.rules:
        if name in _BY_RULE and _BY_RULE[name] is not construct.rules[name]:
            raise ValueError(f"two constructs build the rule {name!r}")
    _BY_NODE[construct.node] = construct
    _BY_RULE.update(construct.rules)
    if type(construct).lower_rule is not Construct.lower_rule and construct not in _RULE_LOWERINGS:
        _RULE_LOWERINGS += (construct,)
    return construct


def load() -> None:
    """Import every construct module of :data:`PACKAGE` (once), which registers them."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import pkgutil  # only when a rule is looked up: a spec of the core language never loads the folder

    package = importlib.import_module(PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        importlib.import_module(f"{PACKAGE}.{info.name}")


def construct_of(e) -> Construct | None:
    """The construct that owns the node ``e``, or None for a node of the core language.

    A node of a construct exists only once its module has been imported (by the parser,
    or by unpickling a cached spec), and importing it registers the construct: the answer
    is one look-up, and asking about a node of the core language loads nothing. Should a
    construct's node be met before its construct registered, the node's own module is
    imported by name (``type(e).__module__``) and looked up again: never the whole folder."""
    cls = type(e)
    construct = _BY_NODE.get(cls)
    if construct is None and cls.__module__.startswith(PACKAGE + "."):
        importlib.import_module(cls.__module__)
        construct = _BY_NODE.get(cls)
    return construct


def comparison_of(e) -> tuple[Construct, Any, Any] | None:
    """``(construct, its side, the other side)`` of a comparison ``e`` (an ``ast.Compare``) one of whose
    sides is the node of a construct that owns the comparisons it is in (``compared``), the left
    side first; else None."""
    for own, other in ((e.left, e.right), (e.right, e.left)):
        construct = construct_of(own)
        if construct is not None and construct.compared:
            return construct, own, other
    return None


def rule_lowerings() -> tuple[Construct, ...]:
    """The constructs loaded so far that state some comparisons their own way
    (:meth:`Construct.lower_rule`). Nothing is loaded here: a comparison holding a
    construct's node exists only once the construct's module has been imported."""
    return _RULE_LOWERINGS


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
