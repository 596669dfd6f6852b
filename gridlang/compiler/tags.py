"""Rule instances: which statement, under which ``for each`` binding, each constraint comes from.

A spec's rule ``require for each c in clue: count(shaded and room(c)) ==
value(c)`` is one statement, but on a map it stands for one *instance* per
clue: the rule about that clue, its room and its number. The tools that say
why (``gridlang.why``: forced cells, explanations of infeasibility, hints)
reason over instances, so the compiler can tag every constraint it makes
with the instance it belongs to. Tagging is off in an ordinary compile (the
model is the same either way: tags live beside it, not in it).

An instance is ``(statement, binding)``:

* ``statement``: the index of the ``require`` statement in the spec;
* ``binding``: ``((name, kind, value), ...)``, the ``for each`` variables
  bound when the constraint was made (``kind`` as in the compiler's
  bindings: ``cell`` with a cell index, ``set`` with ``(cells, label)``,
  ``int``, ``direction``, ``corner``, ``shape``); for ``for each
  neighbours a, b`` the two cells; for a rule stated cell by cell without a
  ``for each`` (``require pen avoids border``, ``require clue in (kind =
  value)``) the cell, under the name None. A statement with neither has the
  empty binding: one instance for the whole rule (``require shaded is
  connected``).

Definitions are not instances. A constraint that only defines an auxiliary
variable, for every value of what it is defined from (a Tseitin ``and`` or
``or``, a reified comparison, the members of ``component of p in S`` or of
a flood fill, the one-hot rows of a decision, the constant true) holds
whatever the rules say, so it is tagged None: always on, never blamed. The
compiler marks the methods that make them with :func:`definition`; each
outermost call of one is a numbered definition, whose constraints and new
variables (its *outputs*) are recorded, so that a solver may leave out a
definition that no rule it checks reads (its outputs can always be set to
fit, since it holds for every value of its inputs).
"""

from __future__ import annotations

import functools
from typing import Callable, TypeVar

from gridlang.core.grid import cell_name
from gridlang.core.limits import BUDGET_TICK
from gridlang.language import ast

F = TypeVar("F", bound=Callable)

Tag = tuple[int, tuple]
"""``(statement index, binding)``; see the module docstring."""

_RULES = (ast.Avoids, ast.Subset, ast.Compare, ast.IsConnected, ast.IsPath, ast.ForEach, ast.ForPairs, ast.Holds)


HIDDEN = "#"
"""What a hidden binding's name holds (no name of a spec can): the value of one ``dir[p]`` in a case of a
decided direction (:mod:`gridlang.compiler.directions`); a binding so named is not shown in a tag."""


class TaggedConstraints(list):
    """The compiler's constraint list, recording the instance of each constraint appended.

    Args:
        compiler: the compiler whose state names the instance (its
            statement, its ``for each`` bindings).

    Attributes:
        tags: one :data:`Tag` (or None, a definition) per constraint, in order.
        definitions: one number per constraint: the definition that made
            it, or None (a rule, or a definition outside :func:`definition`).
        outputs: definition number -> ``(first, last)``, the variables it
            made (numbered from 1, both included; ``first > last`` when none).
        defining: above 0 while a definition is being made (:func:`definition`).
    """

    def __init__(self, compiler):
        super().__init__()
        self.compiler = compiler
        self.tags: list[Tag | None] = []
        self.definitions: list[int | None] = []
        self.outputs: dict[int, tuple[int, int]] = {}
        self.defining = 0
        self.current: int | None = None
        self.index = {id(st): k for k, st in enumerate(compiler.spec.statements)}
        self.mask = BUDGET_TICK  # as often as the compiler's own list reads its budget
        for name in dir(type(compiler)):  # the methods marked by definition(), wrapped on this compiler alone
            method = getattr(type(compiler), name, None)
            if getattr(method, DEFINES, False):
                setattr(compiler, name, self._defining(method.__get__(compiler)))

    def _defining(self, bound: Callable) -> Callable:
        """``bound`` (a compiler's method marked by :func:`definition`) between :meth:`enter` and :meth:`leave`."""

        @functools.wraps(bound)
        def wrapper(*args, **kwargs):
            self.enter()
            try:
                return bound(*args, **kwargs)
            finally:
                self.leave()

        return wrapper

    def append(self, con) -> None:
        super().append(con)
        if not len(self) & self.mask:
            self.compiler.tick()
        self.tags.append(None if self.defining else self.tag(con))
        self.definitions.append(self.current if self.defining else None)

    def enter(self) -> None:
        """A definition starts (an outermost one gets the next number)."""
        if not self.defining:
            self.current = len(self.outputs)
            self.outputs[self.current] = (len(self.compiler.variables) + 1, 0)
        self.defining += 1

    def leave(self) -> None:
        """A definition ends."""
        self.defining -= 1
        if not self.defining:
            first, _ = self.outputs[self.current]
            self.outputs[self.current] = (first, len(self.compiler.variables))
            self.current = None

    def extend(self, cons) -> None:
        for con in cons:
            self.append(con)

    def tag(self, con) -> Tag | None:
        """The instance the compiler is stating now (None outside a rule)."""
        c = self.compiler
        st = c.statement
        if not isinstance(st, _RULES):
            return None
        if isinstance(st, ast.ForPairs):
            binding = tuple((n.id, "cell", c.env[n.id]) for n in (st.a, st.b) if n.id in c.env)
        else:
            binding = tuple((name, kind, value) for name, (kind, value) in c.bound.items()
                            if HIDDEN not in name)  # not a decided direction's case (gridlang.compiler.directions)
        if isinstance(st, (ast.Avoids, ast.Subset)) and not binding:
            cell = _one_cell(c, con)
            if cell is not None:
                binding = ((None, "cell", cell),)
        return self.index[id(st)], binding


def binding_parts(grid, binding, annotate=None) -> list[str]:
    """``p = row 3, column 4``, ``r = row 2``, ...: ``for each`` bindings as a person reads them.

    Args:
        grid: the map's grid.
        binding: ``(name, kind, value)`` triples (:data:`Tag`'s binding); a
            name None is a cell the rule is stated at, shown alone.
        annotate: ``annotate(cell) -> str``, a note put after a cell in
            brackets (empty for none), or None.
    """
    parts = []
    for name, kind, value in binding:
        if kind == "cell":
            note = annotate(value) if annotate is not None else ""
            text = grid.cell_name(value) + (f" ({note})" if note else "")
        elif kind == "set":
            text = value[1]
        elif kind == "direction":
            text = value[0]
        elif kind == "corner":
            text = f"the corner at {cell_name(*value)}"
        elif kind == "border":
            text = grid.border_name(value)
        elif kind == "shape":
            text = f"a shape of {len(value)} cells"
        else:
            text = str(value)
        parts.append(text if name is None else f"{name} = {text}")
    return parts


def _one_cell(compiler, con) -> int | None:
    """The one cell every variable of a clause belongs to, or None."""
    cells = {compiler.variables[abs(lit) - 1].cell for lit in getattr(con, "lits", ())}
    return cells.pop() if len(cells) == 1 else None


DEFINES = "defines_variables"
"""The attribute :func:`definition` sets on a method it marks."""


def definition(method: F) -> F:
    """Mark a compiler method whose constraints define auxiliary variables (tagged None).

    The method is returned as it is, so an ordinary compile calls it at no cost; a compile that
    tags (:class:`TaggedConstraints`) wraps each marked method on its own compiler between
    :meth:`~TaggedConstraints.enter` and :meth:`~TaggedConstraints.leave`.
    """
    setattr(method, DEFINES, True)
    return method
