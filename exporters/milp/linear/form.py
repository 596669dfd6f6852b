"""The MILP as columns and rows, before any solver or modelling library sees it; a solver's values read back.

Every Boolean IR variable ``v`` is a binary column ``x_v`` (column
``v - 1``); a negative literal ``-v`` stands for ``1 - x_v``. Auxiliary
columns (flows, root picks, depths, positions) follow the IR's. A row is
``lo <= sum(coef * column) <= hi`` with integer coefficients, named for
files (``clause_12_L22``: the 12th constraint, from line 22 of the spec).

A solver's answer comes back through :func:`round_assignment` (binary
columns within :data:`BINARY_TOL` of 0 or 1) and :func:`integral_bound`
(its dual bound rounded towards the incumbent: every IR coefficient is an
integer, so the objective is one).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gridlang.core.errors import BackendError, Span
from gridlang.ir.backend import integral_bound  # noqa: F401 - shared with every backend, kept here too
from gridlang.ir.model import Assignment, Connected, Model, Sense

BINARY_TOL = 1e-4
"""How far a solver value may sit from 0 or 1 and still count as binary."""


@dataclass(slots=True)
class Column:
    """One column of the MILP.

    Attributes:
        name: the label written to files (``wall_3_4``).
        lb, ub: bounds.
        binary: integral 0/1 column.
        entry: the sidecar record (``var``, ``family``, ``cell``, ``value``...).
    """

    name: str
    lb: int
    ub: int
    binary: bool
    entry: dict[str, object]


@dataclass(slots=True)
class Row:
    """``lo <= sum(coef * column) <= hi``; either side may be None."""

    name: str
    coefs: dict[int, int]
    lo: float | None
    hi: float | None


@dataclass(slots=True)
class LinearForm:
    """The model as columns and rows, before any Pyomo object exists.

    Columns ``0 .. num_vars - 1`` are the IR variables ``1 .. num_vars`` in
    order; auxiliary columns (flow, root selection) follow.
    """

    model: Model
    strategy: str
    columns: list[Column]
    rows: list[Row] = field(default_factory=list)
    objective: tuple[Sense, dict[int, int], int] | None = None
    regions: list[tuple[str, Connected]] = field(default_factory=list)
    lazy: list[tuple[str, Connected]] = field(default_factory=list)
    """The regions left to the cut loop (encoding ``cuts``)."""
    encodings: dict[str, str] = field(default_factory=dict)
    """Region key -> the encoding it got (``cuts``, ``flow`` or ``positions``)."""
    infeasible: list[str] = field(default_factory=list)
    """Rows with no columns that can never hold (the model is infeasible)."""
    names: set[str] = field(default_factory=set)

    def fresh(self, name: str) -> str:
        """``name``, made unique among the column labels so far."""
        base = sanitize(name) or "col"
        name, k = base, 1
        while name in self.names:
            k += 1
            name = f"{base}_{k}"
        self.names.add(name)
        return name

    def used_columns(self) -> set[int]:
        """Columns with a nonzero coefficient somewhere (the ones a file holds)."""
        used = {j for row in self.rows for j in row.coefs}
        if self.objective is not None:
            used.update(self.objective[1])
        return used


def sanitize(text: str) -> str:
    """``text`` with every character that is not a letter, digit or ``_`` made ``_`` (a file label)."""
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in text)


def add_row(low: LinearForm, name: str, coefs: dict[int, int], const: int,
            lo: float | None, hi: float | None) -> None:
    """Add ``lo <= coefs.x + const <= hi``; rows without columns are checked now."""
    coefs = {j: a for j, a in coefs.items() if a != 0}
    if not coefs:
        if (lo is not None and const < lo) or (hi is not None and const > hi):
            low.infeasible.append(name)
        return
    low.rows.append(Row(
        name,
        coefs,
        None if lo is None else lo - const,
        None if hi is None else hi - const,
    ))


def span_tag(span: Span | None) -> str:
    """``_L<line>`` of the spec line a row comes from, or nothing."""
    return f"_L{span.line}" if span is not None else ""


def round_assignment(model: Model, values: list[float | None]) -> Assignment:
    """Round the IR columns of a solver answer to an assignment.

    Raises:
        BackendError: a binary column is fractional beyond the tolerance.
    """
    out = []
    for v in range(model.num_vars):
        val = values[v]
        if val is None:
            out.append(False)  # in no row and not in the objective: free
            continue
        if abs(val - round(val)) > BINARY_TOL:
            raise BackendError(f"variable {model.variables[v]} has the fractional value {val}")
        out.append(val > 0.5)
    return Assignment(tuple(out))

