"""The answer of CP-SAT to an exported model: its response (``CpSolverResponse``) in protobuf text format.

What ``str(solver.response_proto)`` writes, and what the header of a
``pbtxt`` export says to save::

    status: OPTIMAL
    solution: 0
    solution: 1
    ...
    objective_value: 66

The ``i``-th ``solution`` value is proto variable ``i``'s. Only ``status``
and ``solution`` are read, one field per line as the text format writes
them (a packed ``solution: [0, 1, ...]`` is read too); every other field,
nested messages included, is skipped.
"""

from __future__ import annotations

import re

from gridlang.core.errors import MapError, Span
from gridlang.formats.answer_text import read_text

NO_ANSWER = ("INFEASIBLE", "MODEL_INVALID", "UNKNOWN")
"""CP-SAT statuses that come with no solution."""

_FIELD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(:?)\s*(.*?)\s*$")


def read_cpsat_response(path: str, count: int) -> tuple[bool, ...]:
    """The values of the Boolean proto variables ``0 .. count - 1`` in a CP-SAT response.

    Args:
        path: the response file.
        count: how many values the caller needs: the model's own Boolean
            variables, which come first in the proto; later ones (flows,
            depths) are read and ignored.

    Returns:
        ``values[i]``: the value of proto variable ``i``, for ``i < count``.

    Raises:
        MapError: a line that is not a text-format field, a value that is
            no integer, one of the first ``count`` that is neither 0 nor 1,
            a status that comes with no solution, or fewer values than
            ``count``; each with the file, line and column.
    """
    text = read_text(path)
    values: list[tuple[int, int, int]] = []  # (value, line, column)
    status: tuple[str, int] | None = None
    depth = 0
    for no, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if depth:
            depth += stripped.count("{") - stripped.count("}")
            continue
        m = _FIELD.match(line)
        if m is None or not (m.group(2) or m.group(3).startswith("{")):
            col = len(line) - len(line.lstrip()) + 1
            raise MapError("expected a field of CP-SAT's response ('status: OPTIMAL', 'solution: 1')",
                           Span(path, no, col), text)
        name, _, rest = m.groups()
        if rest.startswith("{"):
            depth = rest.count("{") - rest.count("}")
            continue
        if name == "status":
            status = (rest, no)
        elif name == "solution":
            start = m.start(3) + 1
            items = rest[1:-1].split(",") if rest.startswith("[") and rest.endswith("]") else [rest]
            offset = start + (1 if rest.startswith("[") else 0)
            for item in items:
                token = item.strip()
                col = offset + len(item) - len(item.lstrip())
                if not re.fullmatch(r"-?\d+", token):
                    raise MapError(f"a solution value is an integer, not {token!r}",
                                   Span(path, no, col, col + max(len(token), 1)), text)
                values.append((int(token), no, col))
                offset += len(item) + 1
    if status is not None and status[0] in NO_ANSWER and not values:
        raise MapError(f"CP-SAT reports no solution: {status[0]}", Span(path, status[1], 1), text)
    if len(values) < count:
        where = Span(path, values[-1][1], 1) if values else Span(path, 1, 1)
        raise MapError(f"the response gives {len(values)} solution values; the model has {count} variables",
                       where, text)
    for value, no, col in values[:count]:
        if value not in (0, 1):
            raise MapError(f"the model's variables are Boolean, but this one is {value}",
                           Span(path, no, col, col + len(str(value))), text)
    return tuple(bool(v) for v, _, _ in values[:count])
