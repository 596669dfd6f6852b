"""Rule instances and decision entries in the spec's own terms.

A rule instance (:mod:`gridlang.compiler.tags`) is shown as the place of
its statement in the spec, the statement's text, the ``for each`` binding
it stands for and the map cells and parameters it reads::

    puzzles/sudoku.grid:21:9: digit[g] == value(g)  [g = row 1, column 3: given 1]
    puzzles/horse.grid:25:9: count(wall) <= budget  [budget = 0]

A decision *entry* is one cell (or edge) of one decision; a *fact* is an
entry with its value, as one literal of the model: a Boolean decision's
variable or its negation, an enumeration's one-hot variable of the value.

A puzzle with an objective has one instance more once its optimum is
proved (:func:`with_optimum`): the ``maximize`` (or ``minimize``) statement
bound to the optimum, "the score is N", a fact of the puzzle as its clues
are::

    puzzles/horse.grid:29:1: maximize value(pen)  [the best score is 66]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Hashable

from gridlang.compiler.diagnostics import names_in
from gridlang.compiler.tags import binding_parts
from gridlang.core.errors import show_set
from gridlang.core.grid import cell_name
from gridlang.core.nodes import replace
from gridlang.formats import catalog
from gridlang.ir.model import Assignment, Cmp, Linear, Model, Sense
from gridlang.language import ast

OPTIMUM = "optimum"
"""The binding kind of the optimum's instance (:func:`with_optimum`): ``(None, OPTIMUM, score)``."""


@dataclass(frozen=True)
class Entry:
    """One cell (or edge) of one decision.

    Attributes:
        decision: the decision's name.
        key: a cell index, or an edge ``((r1, c1), (r2, c2))``.
        options: ``(value, literal)`` pairs: ``((True, lit),)`` for a
            Boolean decision, one pair per value for an enumeration.
        kind: the decision's kind: ``cells``, ``edges`` (between side
            neighbours) or ``corners`` (edges of the lattice of corners).
    """

    decision: str
    key: Hashable
    options: tuple[tuple[object, int], ...]
    kind: str = "cells"

    @property
    def boolean(self) -> bool:
        return len(self.options) == 1

    def literal(self, value: object) -> int:
        """The literal that says this entry has ``value`` (a Boolean's False is the negated variable)."""
        if self.boolean:
            lit = self.options[0][1]
            return lit if value is True else -lit
        return dict(self.options)[value]

    def value_in(self, assignment: Assignment) -> object:
        """The entry's value in a full assignment (None for an enumeration with no value true)."""
        if self.boolean:
            return assignment.holds(self.options[0][1])
        for value, lit in self.options:
            if assignment.holds(lit):
                return value
        return None

    def value_of(self, lit: int) -> object:
        """The value a literal of this entry (from :meth:`literal`) stands for."""
        if self.boolean:
            return lit > 0
        return next(value for value, l in self.options if l == lit)


def entries(model: Model) -> list[Entry]:
    """Every decision entry of a model, in the order of its decisions and cells."""
    return [Entry(d.name, key, tuple(options), d.kind) for d in model.decisions for key, options in d.cells]


@dataclass(frozen=True)
class Tagging:
    """A model's rule instances, as :class:`~gridlang.why.oracle.Oracle` reads them.

    Attributes:
        tags: one tag per constraint of the model, None for a definition.
        definitions: one definition number (or None) per constraint.
        outputs: definition number -> ``(first, last)``, the variables it made.
    """

    tags: tuple
    definitions: tuple
    outputs: dict


def with_optimum(model: Model, tagging, score: int) -> tuple[Model, Tagging]:
    """A tagged model with its proved optimum as one more rule instance: "the best score is ``score``".

    The instance is the linear constraint "the objective is at least
    ``score``" (at most, when minimising), tagged ``(the objective
    statement's index, ((None, OPTIMUM, score),))``: an instance over the
    whole grid, which a step uses, pays for and names as it does a rule.
    With every rule, no answer scores more than the optimum, so the answers
    of every instance together are the optimal answers: what a hint on a
    puzzle with an objective explains. The bound is one-sided, not "equal
    to ``score``" as :mod:`~gridlang.why.backbone` fixes it: the other side
    follows from the rules, and the oracle's calls under a one-sided bound
    are the faster (on the daily of 2026-01-10, 4 s for the whole hint
    instead of 30 s).

    Args:
        model: a model compiled with tags (:func:`gridlang.compiler.compile_tagged`), with an objective.
        tagging: its :class:`~gridlang.compiler.tags.TaggedConstraints` (``tags``,
            ``definitions``, ``outputs``).
        score: the proved optimum, in the objective's units (its constant included).

    Returns:
        The model with the constraint appended, and its :class:`Tagging`.

    Raises:
        ValueError: the model has no objective, or no spec with an objective statement.
    """
    spec = model.source[0] if model.source is not None else None
    index = next((k for k, st in enumerate(spec.statements) if isinstance(st, ast.Objective)), None) \
        if spec is not None else None
    if model.objective is None or index is None:
        raise ValueError("the model has no objective to fix at its optimum")
    objective = model.objective
    op = Cmp.GE if objective.sense is Sense.MAXIMIZE else Cmp.LE
    fixed = replace(model, constraints=tuple(model.constraints) +
                    (Linear(objective.terms, op, score - objective.constant, span=objective.span),))
    tag = (index, ((None, OPTIMUM, score),))
    return fixed, Tagging(tuple(tagging.tags) + (tag,), tuple(tagging.definitions) + (None,),
                          dict(tagging.outputs))


def where(model: Model, key: Hashable) -> list:
    """An entry's key in JSON: ``[r, c]`` for a cell, ``[[r1, c1], [r2, c2]]`` for an edge."""
    if isinstance(key, tuple):
        return [list(end) for end in key]
    return list(model.grid.cell(key))


def entry_text(model: Model, entry: Entry, value: object) -> str:
    """``row 2, column 3 is shaded``, ``... is not shaded``, ``digit 5 at ...``, ``line from ... to ...``."""
    if isinstance(entry.key, tuple):
        (r1, c1), (r2, c2) = entry.key
        place = f"{entry.decision} from {cell_name(r1, c1)} to {cell_name(r2, c2)}"
        if entry.boolean:
            return f"{place} is {'drawn' if value else 'not drawn'}"
        return f"{place} is {value}"
    place = model.grid.cell_name(entry.key)
    if entry.boolean:
        return f"{place} is {'' if value else 'not '}{entry.decision}"
    return f"{place} is {entry.decision} {value}"


@dataclass(frozen=True, repr=False)
class Instance:
    """One rule instance, described.

    Attributes:
        tag: its tag (:mod:`gridlang.compiler.tags`).
        file, line, col: where its statement is in the spec (1-based).
        rule: the statement's text (its lines joined, comments left out).
        cells: the cells it is about (``(r, c)``, from 0): the cells and
            cell sets its ``for each`` variables are bound to.
        binding: its ``for each`` variables as text (``c = row 2, column
            4 (clue 3)``), or empty.
        clues: the map cells its binding names whose tile is not the
            spec's first (the plain cell), as text (``clue 3 at row 2,
            column 4``).
        params: the parameters the statement reads, by name.
        name: the rule's name (``require "NAME": RULE``), or empty; the text shows it in place
            of the rule.
    """

    tag: Hashable
    file: str
    line: int
    col: int
    rule: str
    cells: tuple[tuple[int, int], ...] = ()
    binding: str = ""
    clues: tuple[str, ...] = ()
    params: dict[str, object] = field(default_factory=dict)
    name: str = ""

    def __repr__(self) -> str:
        return f"<Instance {self.text()}>"

    def text(self) -> str:
        """``SPEC:LINE:COL: RULE  [BINDING; PARAMS]`` (the rule's name in place of RULE when it has one),
        the spec named as :func:`shown_path` names it."""
        extra = [self.binding] if self.binding else []
        extra += [f"{k} = {v}" for k, v in self.params.items()]
        tail = f"  [{'; '.join(extra)}]" if extra else ""
        return f"{shown_path(self.file)}:{self.line}:{self.col}: {self.name or self.rule}{tail}"

    def to_json(self) -> dict:
        """``{"file", "line", "col", "rule", "name", "cells", "binding", "clues", "params"}`` (cells ``[r, c]``
        from 0; ``name`` null for a rule without one)."""
        return {"file": self.file, "line": self.line, "col": self.col, "rule": self.rule, "name": self.name or None,
                "cells": [list(c) for c in self.cells], "binding": self.binding, "clues": list(self.clues),
                "params": dict(self.params)}


def shown_path(path: str) -> str:
    """A spec's path as a person reads it: relative to the current directory when the file is under
    it; else, for a bundled spec (``gridlang solve --url`` takes one), its file name in the bundled
    specs (``nurikabe.grid``, found by ``gridlang.bundled("nurikabe")``); else as given. JSON keeps
    the path as given."""
    try:
        file = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return path
    here = Path.cwd().resolve()
    if file.is_relative_to(here):
        return str(file.relative_to(here))
    try:
        bundled = catalog.puzzles_folder().resolve()
    except catalog.NotBundledError:
        return path
    return file.name if file.parent == bundled else path


def describe(model: Model, tag: Hashable) -> Instance:
    """The :class:`Instance` of a tag of ``model`` (compiled by :func:`~gridlang.compiler.compile_tagged`)."""
    spec, symbols = model.source
    index, binding = tag
    st = spec.statements[index]
    grid = model.grid
    cells: list[int] = []
    for _name, kind, value in binding:
        if kind == "cell":
            cells.append(value)
        elif kind == "set":
            cells.extend(sorted(value[0]))
    cells = list(dict.fromkeys(cells))
    if any(kind == OPTIMUM for _name, kind, _value in binding):
        score = next(value for _name, kind, value in binding if kind == OPTIMUM)
        return Instance(tag, st.span.file, st.span.line, st.span.column,
                        statement_text(spec.source, st.span.line, st.span.column), (),
                        _optimum_text(model, score))
    parts = binding_parts(grid, binding, lambda cell: _clue(model, cell))
    named = [c for _name, kind, c in binding if kind == "cell"]
    clues = tuple(f"{_clue(model, c)} at {grid.cell_name(c)}" for c in dict.fromkeys(named) if _clue(model, c))
    params = {n: _param_text(model.params[n]) for n in names_in(st) if n in model.params}
    span = st.span
    return Instance(tag, span.file, span.line, span.column, statement_text(spec.source, span.line, span.column),
                    tuple(grid.cell(c) for c in cells), "; ".join(parts), clues, params, spec.name_of(st))


def _optimum_text(model: Model, score: object) -> str:
    """``the best score is 66, so the answer scores at least 66`` (``at most`` when minimising)."""
    bound = "at least" if model.objective is None or model.objective.sense is Sense.MAXIMIZE else "at most"
    return f"the best score is {score}, so the answer scores {bound} {score}"


def is_clue(model: Model, cell: int) -> bool:
    """Whether the map's tile at ``cell`` (an index) is a clue: any tile but the spec's first (the plain cell)."""
    return bool(_clue(model, cell))


def _clue(model: Model, cell: int) -> str:
    """``clue 3``, ``given 1`` or ``black``: a cell's tile (with its number), or empty for the
    spec's first tile (the plain cell: ``blank``, ``cell``)."""
    spec, symbols = model.source
    name = model.grid.tiles[cell]
    tile = symbols.tiles.get(name)
    if tile is None or name == next(iter(symbols.tiles)):
        return ""
    if tile.number or tile.digit_value:
        return f"{name} {tile.value_of(model.grid.chars[cell])}"
    return name


def _param_text(value: object) -> object:
    if isinstance(value, (tuple, list, frozenset, set)):
        return show_set(value)
    return value


def statement_text(source: str, line: int, column: int) -> str:
    """The text of the statement at ``line:column`` of ``source``: its first line from the column,
    and the indented lines that continue it, joined by single spaces, comments left out."""
    lines = source.splitlines()
    parts = [_uncomment(lines[line - 1][column - 1:])]
    for more in lines[line:]:
        if not more.strip() or not more[0].isspace() or more.strip().startswith("#"):
            break
        parts.append(_uncomment(more))
    return " ".join(" ".join(p.split()) for p in parts if p.strip())


def _uncomment(text: str) -> str:
    """``text`` up to a ``#`` that is not inside quotes."""
    quote = None
    for k, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return text[:k]
    return text
