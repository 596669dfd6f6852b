"""The MILP's linear form: the IR as columns and rows, and their Pyomo model.

* :mod:`.form`: columns, rows, the :class:`~.form.LinearForm` holding them;
* :mod:`.lower`: clauses, linear rows and the objective as rows, and the
  choice of connectivity encoding per node (:func:`~.lower.lower_rows`);
* :mod:`.connected`: the connectivity encodings (single-commodity flow,
  depth layers, path positions), with their maths and sources;
* :mod:`.pyomo_model`: the form as a Pyomo model, and as LP and MPS text.

The MILP backend (``gridlang.exporters.milp.backend``) loads the Pyomo model into
HiGHS and runs the lazy-cut loop; nothing here imports a solver.
"""

from __future__ import annotations

from gridlang.exporters.milp.linear.form import (
    BINARY_TOL,
    Column,
    LinearForm,
    Row,
    add_row,
    integral_bound,
    round_assignment,
    sanitize,
)
from gridlang.exporters.milp.linear.lower import (
    AUTO,
    CUTS,
    DEPTHS,
    ENCODING_TEXT,
    FLOW,
    POSITIONS,
    encoding_of,
    lower_row,
    lower_rows,
)
from gridlang.exporters.milp.linear.pyomo_model import (
    DropMessage,
    PyomoModel,
    header_lines,
    sidecar_text,
    write_body,
    write_files,
)
from gridlang.ir.model import affine

__all__ = ["AUTO", "BINARY_TOL", "CUTS", "Column", "DEPTHS", "DropMessage", "ENCODING_TEXT", "FLOW",
           "LinearForm", "POSITIONS", "PyomoModel", "Row", "add_row", "affine", "encoding_of", "header_lines",
           "integral_bound", "lower_row", "lower_rows", "round_assignment", "sanitize", "sidecar_text",
           "write_body", "write_files"]
