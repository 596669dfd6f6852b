"""The answer of a SAT or MaxSAT solver: ``v`` lines.

Two forms of the ``v`` line are read:

* DIMACS (SAT Competition, and MaxSAT Evaluations before 2022): signed
  literals, possibly over several ``v`` lines, ended by ``0``:
  ``v 1 -2 3 ... 0``;
* MaxSAT Evaluation 2022 and later: one line of ``0``/``1`` characters,
  the ``i``-th giving variable ``i``: ``v 0101...``.

``s`` (status), ``o`` (objective) and ``c`` (comment) lines are skipped;
an ``s`` line saying ``UNSATISFIABLE`` means there is no answer to read.
"""

from __future__ import annotations

from typing import Sequence

from gridlang.core.errors import MapError, Span
from gridlang.formats.answer_text import read_text, tokens


def read_dimacs_solution(path: str, names: Sequence[str]) -> tuple[bool, ...]:
    """The values of variables ``1 .. len(names)`` in a solver's answer file.

    Variables beyond ``len(names)`` (a file's auxiliary variables) are
    read and ignored.

    Args:
        path: the answer file.
        names: the name of each variable the answer must give, variable
            ``v`` being ``names[v - 1]``; used in messages.

    Returns:
        ``values[v - 1]``: the value of variable ``v``.

    Raises:
        MapError: a line that is no ``v``, ``s``, ``o`` or ``c`` line, a
            token that is no literal, a literal after the closing ``0``, a
            variable given both ways, a variable without a value, too few
            characters in the 2022 form, no ``v`` line, or a status saying
            there is no solution; each with the file, line and column.
    """
    text = read_text(path)
    lines = text.splitlines()
    vlines: list[tuple[int, str]] = []
    for no, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped[0] in "cso" and (len(stripped) == 1 or stripped[1].isspace()):
            if stripped.startswith("s") and "UNSAT" in stripped.upper():
                raise MapError("the solver reports no solution: " + stripped, Span(path, no, 1), text)
            continue
        if stripped[0] == "v" and (len(stripped) == 1 or stripped[1].isspace()):
            vlines.append((no, line))
            continue
        col = len(line) - len(line.lstrip()) + 1
        raise MapError("expected a 'v', 's', 'o' or 'c' line in a solver answer", Span(path, no, col), text)
    if not vlines:
        raise MapError("no 'v' line in the solver answer", Span(path, 1, 1), text)
    n = len(names)
    values: list[bool | None] = [None] * n
    found = [(no, tok, col) for no, line in vlines for tok, col in tokens(line)[1:]]
    binary = len(vlines) == 1 and len(found) == 1 and set(found[0][1]) <= {"0", "1"} and (
        len(found[0][1]) >= 2 or n == 1
    )
    if binary:
        no, tok, col = found[0]
        if len(tok) < n:
            raise MapError(f"the 'v' line gives {len(tok)} values but the model has {n} variables",
                           Span(path, no, col + len(tok)), text)
        for i in range(n):
            values[i] = tok[i] == "1"
    else:
        ended = False
        for no, tok, col in found:
            where = Span(path, no, col, col + len(tok))
            try:
                lit = int(tok)
            except ValueError:
                raise MapError(f"{tok!r} is not a literal", where, text) from None
            if ended:
                raise MapError("literal after the closing 0", where, text)
            if lit == 0:
                ended = True
                continue
            v = abs(lit)
            if v > n:
                continue
            if values[v - 1] is not None and values[v - 1] != (lit > 0):
                raise MapError(f"variable {v} ({names[v - 1]}) is given both ways", where, text)
            values[v - 1] = lit > 0
    missing = [i + 1 for i, val in enumerate(values) if val is None]
    if missing:
        no, line = vlines[-1]
        raise MapError(
            f"variable {missing[0]} ({names[missing[0] - 1]}) has no value in the answer"
            + (f" ({len(missing)} missing)" if len(missing) > 1 else ""),
            Span(path, no, max(1, len(line.rstrip()))),
            text,
        )
    return tuple(bool(v) for v in values)
