"""The sizes gridlang accepts, and the checks that enforce them.

Every limit is refused with a located error before the work it bounds
starts, so that no input makes a command hang or run out of memory before
the time limit can stop it. ``docs/reliability.md`` lists them with the
measurements behind each value.

Files (refused by :func:`gridlang.core.errors.read_source` before they are read
whole, rows and cells by :func:`gridlang.formats.maps.read_map`):

* a spec: at most :data:`MAX_SPEC_BYTES` bytes and :data:`MAX_STATEMENTS`
  statements;
* a map or instance: at most :data:`MAX_MAP_BYTES` bytes,
  :data:`MAX_ROWS` rows, :data:`MAX_COLS` columns and :data:`MAX_CELLS` cells;
  a JSON map record at most :data:`MAX_RECORD_KEYS` keys;
* an answer or an external solver's solution file: at most
  :data:`MAX_ANSWER_BYTES` bytes.

Numbers:

* an integer written in a spec, a map header or a parameter value: at most
  :data:`MAX_INT` in magnitude (:func:`check_int`);
* a ``set of int`` value: at most :data:`MAX_SET_SIZE` values;
* an expression: at most :data:`MAX_NESTING` nested operators;
* a compiled model: at most :data:`MAX_VARIABLES` variables and
  :data:`MAX_CONSTRAINTS` constraints, refused at the statement that
  crosses either while the compiler builds it;
* a compiled row or objective: coefficients and constant adding up to at
  most :data:`MAX_ROW_MAGNITUDE` in magnitude, the range in which every
  backend computes exactly (HiGHS in doubles, which hold every integer up
  to 2**53; CP-SAT in 64-bit integers; the MaxSAT encodings in 64-bit
  weights).
"""

from __future__ import annotations

from gridlang.core.errors import GridlangError, Span

MAX_SPEC_BYTES = 65_536
"""Bytes in a ``.grid`` spec (the shipped specs have 2,000 at most)."""

MAX_STATEMENTS = 2_000
"""Statements in a spec."""

MAX_MAP_BYTES = 4_194_304
"""Bytes in a map or instance file (4 MiB)."""

MAX_ROWS = 1_000
"""Rows of a map's grid."""

MAX_COLS = 1_000
"""Columns of a map's grid."""

MAX_CELLS = 40_000
"""Cells of a map's grid (rows times columns)."""

MAX_RECORD_KEYS = 1_000
"""Keys of a JSON map record: ``"map"``, the parameters and the level's own fields."""

MAX_ANSWER_BYTES = 16_777_216
"""Bytes in an answer file or an external solver's solution file (16 MiB)."""

MAX_INT = 10**9
"""Magnitude of an integer in a spec, a map header or a parameter value."""

MAX_SET_SIZE = 10_000
"""Values in a ``set of int`` parameter."""

MAX_NESTING = 100
"""Nested operators in one expression or rule (parentheses alone add none)."""

MAX_VARIABLES = 1_000_000
"""Variables of a compiled model."""

MAX_CONSTRAINTS = 2_000_000
"""Constraints of a compiled model (clauses, rows, connectivity nodes)."""

MAX_ROW_MAGNITUDE = 10**15
"""Sum of the magnitudes of a compiled row's (or the objective's)
coefficients and constant."""


def check_int(text: str, span: Span | None, error: type[GridlangError], source: str | None = None) -> int:
    """Read a decimal integer that must lie within :data:`MAX_INT` in magnitude.

    Args:
        text: the digits, with an optional sign.
        span: where they stand, for the error.
        error: the error class to raise.
        source: the text of the file ``span`` points into.

    Returns:
        The integer.

    Raises:
        error: the integer is larger than :data:`MAX_INT` in magnitude (the
            message shows a long one shortened, with its number of digits).
    """
    digits = text.strip().lstrip("+-")
    if len(digits.lstrip("0")) > len(str(MAX_INT)) or int(digits) > MAX_INT:
        raise error(f"the integer {shorten(text.strip())} is too large: "
                    f"gridlang takes integers of at most {MAX_INT:,} in magnitude", span, source=source)
    return int(text)


def shorten(digits: str) -> str:
    """A long run of digits shown as its first and last few, with its length."""
    if len(digits) <= 24:
        return digits
    return f"{digits[:10]}...{digits[-4:]} ({len(digits.lstrip('+-'))} digits)"


BUDGET_TICK = 0xFFF
"""The compiler reads its budget (the deadline and the model's size) every
``BUDGET_TICK + 1`` variables and every ``BUDGET_TICK + 1`` constraints, and
at steps that make neither."""
