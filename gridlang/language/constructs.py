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
  constant part returned, its terms added to ``coef``);
  :meth:`Construct.number`, the interpreter's value on one answer;
* a condition of its own (``line[p, q]``, ``straight(line, p)``):
  :meth:`Construct.lit` in the compiler, :meth:`Construct.holds` in the
  interpreter; :meth:`Construct.condition` tells a condition from a number
  on a side of ``A == B``;
* a rule of its own (``statement``: ``line is a loop``), never inside a
  condition: :meth:`Construct.assert_rule` in the compiler,
  :meth:`Construct.rule_violation` in the interpreter;
* a set of corners of the lattice of cell corners (``corners``:
  ``corners(p)``), what ``for each`` and the aggregates run over:
  :meth:`Construct.corner_members` in the compiler,
  :meth:`Construct.corner_points` in the interpreter;
* a decision of its own, ``decide NAME: D on L`` for a lattice L of
  ``lattices`` (``edges``, ``corners``), found by :func:`decision_of`:
  :meth:`Construct.decide` makes its variables in the compiler,
  :meth:`Construct.read` reads an answer's values in the interpreter, and
  ``NAME is connected`` is :meth:`Construct.connect` and
  :meth:`Construct.connected_violation`;
* a cell set: :meth:`Construct.members`, the compiler's cells that may be
  in it, each with its literal; :meth:`Construct.cells`, the interpreter's
  cells in it on one answer;
* a condition of its own, a comparison with the node on one side
  (``compared``): :meth:`Construct.compare_type` in the checker;
  :meth:`Construct.compare_lit` (one literal equal to it) and
  :meth:`Construct.assert_compare` (stated under a guard) in the compiler;
  :meth:`Construct.compare_violation` in the interpreter; found by
  :func:`comparison_of`; and a comparison of two numbers with the node on
  one side the construct looks at before the compiler lowers it
  (:meth:`Construct.check_compare`: ``bridge[p, q] == 3`` with no value 3);
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
  ``cell(e, what) -> bool`` (e is one cell, else reported), ``is_cell(e)``
  and ``is_corner(e)`` (whether e stands for one cell, one corner),
  ``nested`` (whether the node stands inside a condition), ``sym`` (the
  symbols), ``env`` (the bindings), ``suggest(name)`` and
  ``on_edges(decision)`` (the words of two common errors);
* the compiler (``compiler``): ``cell_of(e) -> int | None``,
  ``members(e, within) -> {cell: literal}``, ``combine(is_and, literals,
  cell) -> literal``, ``linear(e) -> (terms, constant)``, ``constant(e) ->
  int | None``, ``clause(literals, span)``, ``fails(guard, f, cell)`` (a
  rule that fails whatever the decisions), ``constraints`` (appended to),
  ``collected`` (what a construct keeps while compiling, by construct:
  what :meth:`Construct.lower_rule` collects, a decision's variables),
  ``define(make, *args)`` (``make(*args)``, whose constraints define
  auxiliary variables), ``new_var(family, cell, value)``, ``lit(literal)``
  (a literal, never True or False), ``one_hot(name, cell, values, span,
  label)``, ``domain_of(decision, places)``, ``reserve(count)``,
  ``decisions`` (appended to), ``is_corner(e)`` and ``corner_of(e)`` (a
  bound corner, ``v + d``), ``domain_values`` and ``domain_sets`` (an
  enumeration's values), ``mentions_cell_value(e)``, ``rule_text(st)``
  (a statement's text), ``current`` (the statement), ``grid``, ``spec``, ``map_data`` and the decisions' literals
  (``decision_lits``: per cell; ``enum_lits``: per cell, value ->
  literal); a literal is ``True``, ``False`` or a variable's number,
  negative when negated;
* the interpreter (``interpreter``): ``cell(e) -> int | None``, ``cells(e)
  -> frozenset``, ``number(e) -> int``, ``is_corner(e)`` and ``corner(e)``
  (a bound corner, ``v + d``), ``fail(sentence, cells)`` (a fault of the
  answer, reported), ``grid``, ``spec``, ``sym``, ``domains`` (an
  enumeration's values), ``kept`` (what a construct keeps of one answer,
  by construct: a decision's values) and the answer's values (``bools``:
  a Boolean decision's true cells; ``enums``: an enumeration's cell ->
  value; ``on``: the cells a decision is made on).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Iterator

PACKAGE = "gridlang.constructs"
"""The package whose modules are the constructs, each imported by name on first use."""

_BY_NODE: dict[type, "Construct"] = {}
_BY_RULE: dict[str, Callable[[Any, Any, list], Any]] = {}
_BY_LATTICE: dict[str, "Construct"] = {}
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
        statement: whether the node is a rule of its own (``line is a loop``): typed as a
            rule is, before ``checker.nested`` is set, and stated by :meth:`assert_rule` and
            judged by :meth:`rule_violation` rather than as a condition.
        corners: whether the node is a set of corners of the lattice of cell corners
            (``corners(p)``): :meth:`corner_members`, :meth:`corner_points`.
        lattices: the ``L`` of the decisions ``decide NAME: D on L`` the construct makes
            (``"edges"``, ``"corners"``; :func:`decision_of`).
    """

    node: type = object
    rules: dict[str, Callable[[Any, Any, list], Any]] = {}
    compared: bool = False
    statement: bool = False
    corners: bool = False
    lattices: tuple[str, ...] = ()

    # ------------------------------------------------------------------ the checker
    def type_of(self, checker, e):
        """The node's :class:`~gridlang.language.checker.symbols.Type`, or None after an error."""
        raise NotImplementedError

    def compare_type(self, checker, e, own, other):
        """The type of the comparison ``e`` (``own`` the construct's side, ``other`` the other): a
        condition's type, or None after reporting an error through ``checker.error``."""
        raise NotImplementedError

    # ----------------------------------------------------------------- the compiler
    def linear(self, compiler, e, scale: int, coef: dict[int, int]) -> int:
        """Lower ``scale * e`` to linear terms: add them to ``coef`` (variable -> coefficient), return
        the constant part; the operands lowered through ``compiler.linear``.

        Raises:
            SemanticError: the node cannot be lowered here (located).
        """
        raise NotImplementedError

    def lit(self, compiler, e):
        """One literal (or ``True``/``False``) equal to the condition ``e``.

        Raises:
            SemanticError: it cannot be lowered here (located).
        """
        raise NotImplementedError

    def assert_rule(self, compiler, e, guard: tuple[int, ...]) -> None:
        """State the rule of its own ``e`` (``statement``) under ``guard``: constraints added to
        ``compiler.constraints`` (or through ``compiler.clause``).

        Raises:
            SemanticError: it cannot stand under a guard, or be lowered (located).
        """
        raise NotImplementedError

    def check_compare(self, compiler, f, own, other) -> None:
        """Look at the comparison of two numbers ``f`` (``own`` the node's side) before the compiler
        lowers it: nothing by default.

        Raises:
            SemanticError, MapError: it can never hold (located in the spec, or at the map cell).
        """

    def decide(self, compiler, st) -> None:
        """Make the variables of ``decide NAME: D on L`` (``st``, an ``ast.Decide`` whose lattice is one of
        ``lattices``): kept in ``compiler.collected``, its ``Decision`` appended to ``compiler.decisions``.

        Raises:
            SemanticError: its values do not fit in a model (located).
        """
        raise NotImplementedError

    def connect(self, compiler, st) -> None:
        """State ``NAME is connected`` (``st``, an ``ast.IsConnected``) for a decision NAME the construct
        made (:meth:`decide`)."""
        raise NotImplementedError

    def corner_members(self, compiler, e) -> list[tuple[int, int]]:
        """The corners ``(row, col)`` of the set of corners ``e`` (``corners``), in order; none off the map."""
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

    def open_domain(self, compiler, st, values: list) -> tuple[list, object] | None:
        """The values to make of the enumerated decision ``st`` (an ``ast.Decide``, its domain
        ``values``) when the construct's rules let its largest values stand as one, with that
        value (the last of them, read back by :attr:`gridlang.ir.model.Decision.open_value`);
        None to make every value (the default). Asked of the constructs of
        :func:`rule_lowerings` while the decision is made, before any rule is stated."""
        return None

    def finish(self, compiler, collected) -> list:
        """The constraints of what :meth:`lower_rule` collected (``collected``), stated after the
        last statement."""
        return []

    # -------------------------------------------------------------- the interpreter
    def number(self, interpreter, e) -> int:
        """The node's value on the interpreter's answer, the operands' given by ``interpreter.number``.

        Raises:
            SemanticError: the value is undefined (located).
        """
        raise NotImplementedError

    def holds(self, interpreter, e) -> bool:
        """Whether the condition ``e`` holds on the interpreter's answer.

        Raises:
            SemanticError: it cannot be evaluated on this answer (located).
        """
        raise NotImplementedError

    def rule_violation(self, interpreter, e) -> tuple | None:
        """None when the rule of its own ``e`` (``statement``) holds on the interpreter's answer; else
        a sentence and the cells to show (indices), and optionally the corners to show (``(row,
        col)`` of the lattice)."""
        raise NotImplementedError

    def read(self, interpreter, st, given: dict) -> None:
        """Read the answer's values ``given`` of ``decide NAME: D on L`` (``st``) into
        ``interpreter.kept``, reporting malformed ones through ``interpreter.fail``."""
        raise NotImplementedError

    def connected_violation(self, interpreter, st) -> tuple[str, frozenset[int]] | None:
        """None when ``NAME is connected`` (``st``) holds on the interpreter's answer for a decision the
        construct made (:meth:`read`); else a sentence and the cells to show."""
        raise NotImplementedError

    def corner_points(self, interpreter, e) -> list[tuple[int, int]]:
        """The corners ``(row, col)`` of the set of corners ``e`` (``corners``) on the interpreter's map."""
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
    def condition(self, symbols, e) -> bool:
        """Whether the node ``e`` is a condition (else a number or a set), on a side of ``A == B``;
        ``symbols`` the checked spec's (:class:`~gridlang.language.checker.Symbols`)."""
        return False

    def known(self, is_known: Callable[[Any], bool], e) -> bool:
        """Whether the node's value is given, its operands asked through ``is_known``."""
        return all(is_known(c) for c in self.children(e))

    def children(self, e) -> tuple:
        """The node's number operands (expressions)."""
        return ()


def register(construct: Construct) -> Construct:
    """Make ``construct`` the one of its node type and of its rules.

    Raises:
        ValueError: another construct owns the node type, a rule or a lattice already.
    """
    global _RULE_LOWERINGS
    if construct.node in _BY_NODE and _BY_NODE[construct.node] is not construct:
        raise ValueError(f"two constructs own the node {construct.node.__name__}")
    for name in construct.rules:
        if name in _BY_RULE and _BY_RULE[name] is not construct.rules[name]:
            raise ValueError(f"two constructs build the rule {name!r}")
    for lattice in construct.lattices:
        if lattice in _BY_LATTICE and _BY_LATTICE[lattice] is not construct:
            raise ValueError(f"two constructs make the decisions on {lattice}")
    _BY_NODE[construct.node] = construct
    _BY_RULE.update(construct.rules)
    _BY_LATTICE.update(dict.fromkeys(construct.lattices, construct))
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


def decision_of(lattice: str) -> Construct:
    """The construct that makes the decisions ``decide NAME: D on lattice`` (``"edges"``,
    ``"corners"``). A spec of the core language has none; one that has, read from the cache
    with no node of the construct in it, has the folder loaded here (:func:`load`).

    Raises:
        KeyError: no construct makes them.
    """
    if lattice not in _BY_LATTICE:
        load()
    return _BY_LATTICE[lattice]


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
