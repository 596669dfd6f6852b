"""The solution file of a MIP solver: column values by name.

One reader for the dialects the solvers of an LP or MPS file write,
recognised from the text:

* HiGHS raw (``highs --solution_file``, ``Highs.writeSolution(path, 0)``):
  ``Model status`` then ``# Primal solution values``, ``Feasible``,
  ``# Columns N`` and ``N`` lines of ``name value``;
* HiGHS pretty (``writeSolution(path, 1)``): a ``Columns`` table whose
  last field is the name and whose third number is the primal value;
* SCIP (the shell's ``write solution``: ``solution status:`` then
  ``objective value:``; ``SCIPwriteSol``: ``objective value:`` alone),
  then ``name value (obj:c)`` lines of the nonzero columns;
* CBC: ``Optimal - objective value ...`` then ``index name value
  reduced-cost`` lines of the nonzero columns;
* Gurobi, and any other ``name value`` list: ``#`` starts a comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from gridlang.core.errors import MapError, Span
from gridlang.formats.answer_text import read_text

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|infinity|nan)$", re.I)


class Located(NamedTuple):
    """A column's value and where the file gives it (1-based line and column of its name)."""

    value: float
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class MipSolution:
    """A solution file read: column values by name, and where to point at.

    Attributes:
        path: the file as given.
        text: its text (for the context of errors about it).
        dialect: ``highs-raw``, ``highs-pretty``, ``scip``, ``cbc`` or ``pairs``.
        values: column name -> :class:`Located` value, in file order.
        columns_line: the line that opens the column list (where an error
            about a column the file lacks points).
        sparse: the dialect lists only nonzero columns (SCIP, CBC), so a
            column it lacks is 0.
    """

    path: str
    text: str
    dialect: str
    values: dict[str, Located]
    columns_line: int
    sparse: bool

    def error(self, message: str, line: int, column: int = 1, end: int | None = None) -> MapError:
        """A :class:`MapError` located in this file, showing the line."""
        return MapError(message, Span(self.path, line, column, end), self.text)


def read_mip_solution(path: str) -> MipSolution:
    """Read a MIP solver's solution file, whatever its dialect (see the module docstring).

    Args:
        path: the solution file.

    Returns:
        The column values with their locations.

    Raises:
        MapError: the file cannot be read, a line is malformed, a name
            appears twice, a value is not a number, or the file holds no
            primal solution; located at the offending line and column.
    """
    path = str(path)
    text = read_text(path)
    lines = text.splitlines()
    stripped = [line.strip() for line in lines]
    if any(s == "# Primal solution values" for s in stripped) or (stripped and stripped[0] == "Model status"):
        values, at = _highs_raw(path, text, lines)
        return MipSolution(path, text, "highs-raw", values, at, False)
    if any(s == "Columns" for s in stripped) and any(s.startswith("Model status:") for s in stripped):
        values, at = _highs_pretty(path, text, lines)
        return MipSolution(path, text, "highs-pretty", values, at, False)
    first = next((i for i, s in enumerate(stripped) if s), 0)
    head = stripped[first] if stripped else ""
    if head.startswith(("solution status:", "objective value:")):
        return MipSolution(path, text, "scip", _scip(path, text, lines, first), first + 1, True)
    if re.match(r"^[A-Za-z ]+- objective value", head):
        return MipSolution(path, text, "cbc", _cbc(path, text, lines, first), first + 1, True)
    return MipSolution(path, text, "pairs", _pairs(path, text, lines, 0, len(lines)), 1, False)


def _scip(path: str, text: str, lines: list[str], first: int) -> dict[str, Located]:
    # The shell's "write solution" opens with the status, then the
    # objective; SCIPwriteSol (pyscipopt's writeSol) with the objective.
    body = first
    status = "given"
    if lines[body].strip().startswith("solution status:"):
        status = lines[body].split(":", 1)[1].strip()
        body += 1
    if body < len(lines) and lines[body].strip().startswith("objective value:"):
        body += 1
    elif "infeasible" in status or any(line.strip() == "no solution available" for line in lines):
        raise MapError(f"the solution file holds no primal solution (status {status!r})",
                       Span(path, first + 1, 1), text)
    # Drop SCIP's "(obj:c)" annotation, keep the columns where they were.
    cleaned = [re.sub(r"\(obj:[^)]*\)", "", line) for line in lines]
    return _pairs(path, text, cleaned, body, len(lines))


def _cbc(path: str, text: str, lines: list[str], first: int) -> dict[str, Located]:
    status = lines[first].split("-", 1)[0].strip()
    if status.lower().startswith("infeasible") or status.lower().startswith("integer infeasible"):
        raise MapError(f"the solution file holds no primal solution (status {status!r})",
                       Span(path, first + 1, 1), text)
    out: dict[str, Located] = {}
    for i in range(first + 1, len(lines)):
        fields = lines[i].replace("**", " ").split()
        if not fields:
            continue
        if len(fields) != 4 or not fields[0].isdigit() or not _NUMBER.match(fields[2]):
            raise MapError("expected 'index name value reduced-cost'", Span(path, i + 1, 1), text)
        name = fields[1]
        col = lines[i].find(name) + 1
        if name in out:
            raise MapError(f"column {name!r} appears twice", Span(path, i + 1, col, col + len(name)), text)
        out[name] = Located(float(fields[2]), i + 1, col)
    return out


def _highs_raw(path: str, text: str, lines: list[str]) -> tuple[dict[str, Located], int]:
    start = None
    for i, line in enumerate(lines):
        if line.strip() == "# Primal solution values":
            start = i
            break
    if start is None or start + 1 >= len(lines) or lines[start + 1].strip() != "Feasible":
        status = lines[1].strip() if len(lines) > 1 else "unknown"
        at = start + 2 if start is not None else 1
        raise MapError(f"the solution file holds no feasible primal solution (model status {status!r})",
                       Span(path, at, 1), text)
    for i in range(start + 2, len(lines)):
        m = re.match(r"#\s*Columns\s+(\d+)\s*$", lines[i].strip())
        if m:
            n = int(m.group(1))
            if i + 1 + n > len(lines):
                raise MapError(f"the file announces {n} columns but ends first", Span(path, len(lines), 1), text)
            return _pairs(path, text, lines, i + 1, i + 1 + n), i + 1
    raise MapError("the solution file has no '# Columns' section", Span(path, start + 1, 1), text)


def _highs_pretty(path: str, text: str, lines: list[str]) -> tuple[dict[str, Located], int]:
    start = next(i for i, line in enumerate(lines) if line.strip() == "Columns")
    out: dict[str, Located] = {}
    header = lines[start + 1].split() if start + 1 < len(lines) else []
    if "Primal" not in header or "Name" not in header:
        raise MapError("unrecognised HiGHS solution table header", Span(path, start + 2, 1), text)
    i = start + 2
    while i < len(lines) and lines[i].strip() and lines[i].strip() != "Rows":
        fields = lines[i].split()
        name = fields[-1]
        # Status may be blank, so count the primal value from the right:
        # ... Primal Dual Type Name, with Dual possibly blank too.
        nums = [f for f in fields[1:-1] if _NUMBER.match(f)]
        if len(nums) < 3:
            raise MapError("cannot read this row of the column table", Span(path, i + 1, 1), text)
        col = lines[i].rfind(name) + 1
        if name in out:
            raise MapError(f"column {name!r} appears twice", Span(path, i + 1, col), text)
        out[name] = Located(float(nums[2]), i + 1, col)
        i += 1
    return out, start + 1


def _pairs(path: str, text: str, lines: list[str], lo: int, hi: int) -> dict[str, Located]:
    """``name value`` lines in ``lines[lo:hi]``; ``#`` starts a comment."""
    out: dict[str, Located] = {}
    for i in range(lo, hi):
        content = lines[i].split("#", 1)[0]
        if not content.strip():
            continue
        col = len(content) - len(content.lstrip()) + 1
        fields = content.split()
        if len(fields) != 2:
            raise MapError("expected a column name and a value", Span(path, i + 1, col), text)
        name, value = fields
        if not _NUMBER.match(value):
            vcol = content.find(value, col - 1 + len(name)) + 1
            raise MapError(f"{value!r} is not a number", Span(path, i + 1, vcol, vcol + len(value)), text)
        if name in out:
            raise MapError(f"column {name!r} appears twice", Span(path, i + 1, col, col + len(name)), text)
        out[name] = Located(float(value), i + 1, col)
    return out
