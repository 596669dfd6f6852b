"""What the spec-level verifier reports: violations located at their rules."""

from __future__ import annotations

import re
from typing import Sequence

from gridlang.core.errors import Span
from gridlang.core.grid import Cell, Grid, cell_names
from gridlang.core.nodes import Record, field, field_names

_MAX_SHOWN = 12


class Violation(Record, slots=False):
    """One broken rule (or one malformed decision) of one answer.

    Attributes:
        span: where the rule or ``decide`` statement starts in the spec;
            None for a decision the spec does not declare.
        rule_text: the statement's source text, on one line.
        cells: the cells that show the violation, as ``(row, col)``,
            0-based, row 0 at the top.
        reason: one sentence saying what is wrong, with any ``for each``
            binding (``k = 3``).
        region: the cells of the sets a ``for each`` binds (the row, column
            or room the rule failed in), as ``(row, col)``; empty when it binds none.
        borders: the borders a ``for each`` binds, each its two cells
            ``((r1, c1), (r2, c2))``, the left or upper one first.
        corners: the corners a ``for each`` binds, as ``(row, col)`` of the
            ``(rows + 1) x (cols + 1)`` lattice.
        name: the rule's name (``require "NAME": RULE``), or empty; the
            rendering shows it before the rule.
    """

    span: Span | None
    rule_text: str
    cells: tuple[Cell, ...] = ()
    reason: str = ""
    region: tuple[Cell, ...] = ()
    borders: tuple[tuple[Cell, Cell], ...] = ()
    corners: tuple[Cell, ...] = ()
    name: str = ""

    def render(self) -> str:
        """``SPEC:LINE:COL: rule violated: RULE`` (``NAME (RULE)`` for a named rule), then the reason and the cells.

        Returns:
            Two lines: the located head and an indented detail line.
        """
        where = f"{self.span}: " if self.span is not None else ""
        rule = f"{self.name} ({self.rule_text})" if self.name else self.rule_text
        head = f"{where}rule violated: {rule}"
        detail = self.reason
        if self.cells:
            detail += ": " + cell_names(self.cells, _MAX_SHOWN)
        return f"{head}\n    {detail}" if detail else head

    def __str__(self) -> str:
        return self.render()


class SpecVerdict(Record, slots=False):
    """What the spec's rules say of one answer.

    Attributes:
        ok: no violation.
        objective: the objective's value on this answer (an integer, in the
            spec's own units), or None when the spec has no objective.
        violations: every violation, in statement order.
        regions: each region's members (cell indices).
    """

    ok: bool
    objective: int | None
    violations: list[Violation] = field(default_factory=list)
    regions: dict[str, frozenset[int]] = field(default_factory=dict)

    def render(self) -> str:
        """Every violation's rendering, one after the other (empty when ok)."""
        return "\n".join(v.render() for v in self.violations)


def statement_text(source: str, node, elsewhere=()) -> str:
    """A statement's source text, from its first to its last character, on one line.

    The extent is that of every span inside the node (a statement's own span
    stops at the end of its first line when it runs over several), leaving
    out the spans that lie in the text of a node of ``elsewhere``: the lets
    whose expressions were copied into the statement;
    parentheses left open at the end are closed with the text that follows.
    Comments are dropped and runs of white space become one space.

    Args:
        source: the spec's text.
        node: an AST node with spans.
        elsewhere: nodes (``let`` statements) whose text is not the statement's.

    Returns:
        The text, or ``""`` when the node has no span.
    """
    apart = []
    for other in elsewhere:
        inside = list(_spans(other))
        if inside:
            apart.append((min((s.line, s.column) for s in inside),
                          max((s.line, s.end_column or s.column + 1) for s in inside)))
    spans = [s for s in _spans(node) if not any(a <= (s.line, s.column) < b for a, b in apart)]
    if not spans:
        return ""
    lines = source.splitlines()
    start = min((s.line, s.column) for s in spans)
    end = max((s.line, s.end_column if s.end_column else s.column + 1) for s in spans)
    offsets = [0]
    for line in source.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    if start[0] > len(lines):
        return ""
    a = offsets[start[0] - 1] + start[1] - 1
    b = offsets[min(end[0], len(lines)) - 1] + end[1] - 1
    text = source[a:b]
    depth = text.count("(") - text.count(")")
    while depth > 0:
        m = re.compile(r"\s*\)").match(source, b)
        if m is None:
            break
        b, depth = m.end(), depth - 1
    text = re.sub(r"#[^\n]*", "", source[a:b])
    return " ".join(text.split())


def _spans(node):
    if isinstance(node, Span):
        yield node
    elif isinstance(node, (tuple, list)):
        for x in node:
            yield from _spans(x)
    else:
        for name in field_names(node):
            if name != "attr_spans":
                yield from _spans(getattr(node, name))


def _rc(grid: Grid, i: int) -> str:
    """A cell as a person reads it: ``row R, column C``, counted from 1."""
    return grid.cell_name(i)


def _s(items) -> str:
    return "" if len(items) == 1 else "s"


def _show(values: Sequence[object]) -> str:
    return ", ".join(str(v) for v in values)
