"""The linear form as a Pyomo model, and as LP and MPS files through Pyomo's own writers.

:class:`PyomoModel` builds one ``ConcreteModel`` from a
:class:`~gridlang.exporters.milp.linear.form.LinearForm` (Pyomo's ``LinearExpression``
nodes, a bare column for a unit coefficient) with gridlang's labels for
every column and row (``wall_3_4``, ``flow_pen_3_4_3_5``,
``clause_12_L22``), so that HiGHS (through Pyomo's persistent interface)
and the LP and MPS writers see the same model. :func:`write_body`,
:func:`header_lines` and :func:`sidecar_text` make a file's text, its
header comment and its ``.vars.json`` sidecar, byte-for-byte the same for
the same model. Pyomo is imported inside the functions that need it.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from gridlang.exporters.milp.linear.form import LinearForm, Row, sanitize
from gridlang.exporters.milp.linear.lower import CUTS, ENCODING_TEXT, FLOW
from gridlang.ir.backend import run_lines
from gridlang.ir.model import Assignment, Model, Sense


class PyomoModel:
    """A :class:`LinearForm` model as a Pyomo ConcreteModel.

    Attributes:
        pm: the ConcreteModel; columns are ``pm.x[j]``, rows ``pm.rows[i]``,
            lazy cuts ``pm.cuts[k]``, rows lowered later (a session's
            blocking clauses) ``pm.added[k]``.
        labels: ``id(component data) -> label`` for the writers' labeler.
    """

    def __init__(self, low: LinearForm, for_file: bool = False):
        import pyomo.core as pe
        from pyomo.core.expr.numeric_expr import LinearExpression, MonomialTermExpression

        self._pe = pe
        self._linear = LinearExpression
        self._mono = MonomialTermExpression
        self.low = low
        pm = pe.ConcreteModel(name=sanitize(low.model.name) or "gridlang")
        cols = low.columns
        pm.x = pe.Var(
            range(len(cols)),
            domain=lambda m, j: pe.Binary if cols[j].binary else pe.Reals,
            bounds=lambda m, j: (cols[j].lb, cols[j].ub),
        )
        self.x = [pm.x[j] for j in range(len(cols))]
        rows = low.rows
        pm.rows = pe.Constraint(range(len(rows)), rule=lambda m, i: self._relation(rows[i]))
        if low.infeasible:
            # A row that can never hold keeps its place (and name) in files.
            pm.never = pe.Constraint(expr=self._expr({0: 0}) >= 1) if cols else None
        if low.objective is not None:
            sense, coefs, const = low.objective
            pm.obj = pe.Objective(
                expr=self._expr(coefs, const),
                sense=pe.maximize if sense is Sense.MAXIMIZE else pe.minimize,
            )
        elif for_file and cols:
            # MPS needs an objective; a puzzle without one gets "minimize 0".
            pm.obj = pe.Objective(expr=self._expr({0: 0}), sense=pe.minimize)
        pm.cuts = pe.ConstraintList()
        pm.added = pe.ConstraintList()
        self.pm = pm
        self.labels: dict[int, str] = {}
        for j, col in enumerate(cols):
            self.labels[id(self.x[j])] = col.name
        for i, row in enumerate(rows):
            self.labels[id(pm.rows[i])] = row.name
        if low.infeasible and cols:
            self.labels[id(pm.never)] = sanitize(low.infeasible[0])
        if low.objective is not None:
            self.labels[id(pm.obj)] = "score" if low.objective[0] is Sense.MAXIMIZE else "cost"
        elif for_file and cols:
            self.labels[id(pm.obj)] = "feasibility"

    def _expr(self, coefs: dict[int, int], const: int = 0) -> Any:
        x, mono = self.x, self._mono
        args = [const] if const else []
        # A bare column for a unit coefficient: one node fewer for every
        # walker (Pyomo's standard repn, the persistent solver's row setup).
        args.extend(x[j] if a == 1 else mono((a, x[j])) for j, a in coefs.items())
        return self._linear(args)

    def _relation(self, row: Row) -> Any:
        body = self._expr(row.coefs)
        if row.lo is not None and row.hi is not None:
            if row.lo == row.hi:
                return body == row.lo
            return self._pe.inequality(row.lo, body, row.hi)
        if row.lo is not None:
            return body >= row.lo
        return body <= row.hi

    def add_cut(self, name: str, coefs: dict[int, int], const: int, hi: int) -> Any:
        """Append the row ``coefs.x + const <= hi`` to ``pm.cuts``; return its data."""
        con = self.pm.cuts.add(self._expr(coefs) <= hi - const)
        self.labels[id(con)] = name
        return con

    def add_row(self, row: Row) -> Any:
        """Append ``row`` (lowered after the build) to ``pm.added``; return its data."""
        con = self.pm.added.add(self._relation(row))
        self.labels[id(con)] = row.name
        return con

    def labeler(self, obj: Any) -> str:
        """Label for the Pyomo writers: gridlang's names, Pyomo's for the rest."""
        name = self.labels.get(id(obj))
        return name if name is not None else sanitize(obj.name)

    def set_values(self, assignment: Assignment) -> None:
        """Give the IR columns the values of ``assignment`` (a warm start)."""
        for v, val in enumerate(assignment.values):
            self.x[v].set_value(1 if val else 0, skip_validation=True)

    def values(self) -> list[float | None]:
        """Current values of all columns (None where the solver left none)."""
        return [v.value for v in self.x]


def header_lines(model: Model, low: LinearForm, requested: str, fmt: str = "lp") -> list[str]:
    """The header comment of a file: the puzzle, its provenance and parameters, the
    encoding of each region (``requested``: the strategy asked for), and how to solve
    the file and read the answer back (``fmt``: ``lp`` or ``mps``)."""
    lines = [f"gridlang model of puzzle {model.name!r}"] + model.provenance()
    used = sorted(set(low.encodings.values()))
    if used in ([], [FLOW]):
        enc = "connectivity: " + ENCODING_TEXT[FLOW]
    else:
        # Name the regions of each encoding: "path positions (kind_snake); ...".
        enc = "connectivity: " + "; ".join(
            f"{ENCODING_TEXT[e]} ({', '.join(k for k, v in low.encodings.items() if v == e)})"
            for e in used)
    if requested == CUTS:
        enc += f" (requested: {ENCODING_TEXT[requested]}, which cannot live in a file)"
    lines.append(enc)
    lines.append("columns: see the sidecar .vars.json; rows end in _L<line> of the spec")
    # The highspy wheel ships no highs executable; its module solves the file as well.
    lines += run_lines(fmt, "python -c \"import highspy; h = highspy.Highs(); h.readModel('FILE'); "
                            "h.run(); h.writeSolution('ANSWER', 1)\"")
    lines.append("(any MIP solver will do: HiGHS, Gurobi, SCIP and CBC solution files are read)")
    # One line per header entry, whatever the values hold.
    return [" ".join(line.split()) for line in lines]


def write_body(pyo: PyomoModel, fmt: str) -> str:
    """The LP or MPS text of ``pyo`` from Pyomo's own writers, with gridlang's labels."""
    import io
    import os
    import tempfile

    import pyomo.environ  # noqa: F401 - registers Pyomo's plugins, the writers among them

    if fmt == "lp":
        from pyomo.repn.plugins.lp_writer import LPWriter

        buf = io.StringIO()
        LPWriter().write(pyo.pm, buf, labeler=pyo.labeler)
        return buf.getvalue()
    from pyomo.opt import WriterFactory

    writer = WriterFactory("mps")
    fd, tmp = tempfile.mkstemp(suffix=".mps")
    os.close(fd)
    # A puzzle without objective is written as "minimize 0"; the MPS writer
    # warns about the constant objective, which says nothing to the user.
    quiet = DropMessage("Constant objective detected")
    pyomo_log = logging.getLogger("pyomo.core")
    pyomo_log.addFilter(quiet)
    try:
        writer(pyo.pm, tmp, lambda capability: True, {"labeler": pyo.labeler})
        with open(tmp, encoding="utf-8") as fh:
            return fh.read()
    finally:
        pyomo_log.removeFilter(quiet)
        os.unlink(tmp)


class DropMessage(logging.Filter):
    """Drop log records whose message starts with ``prefix``."""

    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.prefix)


def sidecar_text(low: LinearForm, has_constant: bool) -> str:
    """The ``.vars.json`` sidecar: every column a file holds, by label, with its record.

    Each record is ``{"var", "family", "cell": [row, col] or null, "value",
    "aux"}`` (``aux`` marks flow, position, depth and root-selection
    columns; IR columns also carry ``index``, the IR variable number), one
    column per line.
    """
    used = low.used_columns()
    table: dict[str, dict[str, object]] = {}
    for j, col in enumerate(low.columns):
        if j in used:
            table[col.name] = col.entry
    if has_constant:
        table["ONE_VAR_CONSTANT"] = {"var": "constant 1 (carries the objective constant)",
                                     "family": "constant", "cell": None, "value": None, "aux": True}
    # One column per line: readable, diffable, and still one JSON object.
    lines = [f" {json.dumps(name)}: {json.dumps(entry)}" for name, entry in table.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_files(path: str, fmt: str, model: Model, low: LinearForm, requested: str) -> list[str]:
    """Write ``low`` as an LP or MPS file with its header, and its ``.vars.json`` sidecar.

    Args:
        path: the model file.
        fmt: ``lp`` (CPLEX LP, Pyomo's LP writer) or ``mps`` (free MPS,
            Pyomo's MPS writer).
        model: the compiled puzzle (for the header).
        low: its linear form, lowered for a file.
        requested: the connectivity strategy asked for (named in the header).

    Returns:
        ``[path, path + ".vars.json"]``.
    """
    body = write_body(PyomoModel(low, for_file=True), fmt)
    mark = "\\ " if fmt == "lp" else "* "
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("".join(f"{mark}{line}\n" for line in header_lines(model, low, requested, fmt)) + body)
    sidecar = str(path) + ".vars.json"
    with open(sidecar, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(sidecar_text(low, "ONE_VAR_CONSTANT" in body))
    return [str(path), sidecar]
