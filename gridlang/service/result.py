"""What the Python API returns for one answer: :class:`SolveResult`.

Its fields are plain Python (decisions keyed by ``(row, col)`` counted from
0, row 0 at the top); :meth:`SolveResult.picture` draws the answer with
:func:`gridlang.pictures.draw.picture` (the same drawing as ``gridlang solve --svg``
and ``--png``), and Jupyter shows that picture for a result at the end of a
cell (``_repr_html_``, ``_repr_svg_``).
"""

from __future__ import annotations

from typing import Any

from gridlang.core.nodes import Record, field, replace
from gridlang.ir.solution import Solution
from gridlang.plugins import Verdict
from gridlang.service.solve import PICTURE_FORMATS
from gridlang.solving.pipeline import Report


class SolveResult(Record, frozen=False, slots=False):
    """What one solve proved, decoded and verified.

    Attributes:
        status: what the solve proved (:attr:`gridlang.solving.pipeline.Report.status`):
            ``OPTIMAL`` (an objective proved optimal), ``SOLVED`` (an answer
            to a puzzle without an objective), ``FEASIBLE``, ``INFEASIBLE``,
            ``UNKNOWN``.
        objective: the objective value of the answer, as the verifier
            scores it (None without an objective or an answer).
        bound: the best proved bound on it (None if unknown).
        decisions: decision name -> ``{(row, col): value}``, rows and
            columns counted from 0 (a decision on edges is keyed by the
            pair of cells); a Boolean decision lists its true cells (value
            True). Empty when there is no answer.
        verified: the answer passed every check (model, spec rules, the
            puzzle's published rules); False when there is no answer.
        unique: True when proved unique, False when a second answer was
            found, None when not asked or not proved in time.
        seconds: wall-clock seconds per phase (``startup``, ``parse``,
            ``compile``, ``solve``, ``verify``, ``total``).
        backend: the backend asked for (``auto`` by default).
        chosen: the backend that answered: ``backend`` itself, or the one
            ``auto`` picked (or whose proof came first in its race).
        report: the full pipeline report (model, raw result, every solution).
    """

    status: str
    objective: int | None
    bound: float | None
    decisions: dict[str, dict[Any, object]]
    verified: bool
    unique: bool | None
    seconds: dict[str, float]
    backend: str
    chosen: str
    report: Report = field(compare=False)

    @property
    def puzzle(self) -> str | None:
        """The ``puzzle "NAME"`` of the spec solved."""
        return self.report.model.name

    @property
    def size(self) -> tuple[int, int]:
        """The map's ``(rows, cols)``."""
        return self.report.model.grid.rows, self.report.model.grid.cols

    def to_json(self, spec: str | None = None, map: str | None = None) -> dict[str, Any]:
        """The object ``gridlang solve --json`` prints (see the README)."""
        # imported on use, not at start-up
        from gridlang.service.json_report import report_json

        return report_json(self.report, spec, map)

    # ---------------------------------------------------------------- pictures

    def picture(self, format: str = "svg", cell: int = 32) -> str | bytes:
        """The answer drawn as ``gridlang solve --svg``/``--png`` draws it.

        Args:
            format: ``svg`` (text) or ``png`` (bytes).
            cell: side of a cell, pixels (at least 4).

        Returns:
            The SVG 1.1 document as text, or the PNG file's bytes; the bare
            map when there is no answer.

        Raises:
            ValueError: an unknown format, or a cell under 4 pixels.
        """
        # imported on use, not at start-up
        from gridlang.pictures.draw import picture, picture_data

        if format not in PICTURE_FORMATS:
            raise ValueError(f"unknown picture format {format!r}; choose one of {', '.join(PICTURE_FORMATS)}")
        return picture_data(picture(self.report.model, self.report.solution, cell), format)

    def _repr_svg_(self) -> str:
        """Jupyter's picture of the result: the SVG without its XML declaration."""
        return _inline(self.picture("svg"))

    def _repr_html_(self) -> str:
        """Jupyter's view: the picture above a caption of :meth:`summary`."""
        import html  # a notebook's, not every solve's --json path

        return (f"<figure>{self._repr_svg_()}<figcaption>{html.escape(self.summary())}</figcaption></figure>")

    def summary(self) -> str:
        """One line: status, objective, verification, backend (``auto: cpsat``: the one ``auto`` chose)."""
        parts = [self.status]
        if self.objective is not None:
            parts.append(f"objective {self.objective}")
        parts.append("verified" if self.verified else "no answer")
        if self.unique is not None:
            parts.append("unique" if self.unique else "not unique")
        backend = self.backend if self.chosen == self.backend else f"{self.backend}: {self.chosen}"
        return ", ".join(parts) + f"; backend {backend}"

    def __repr__(self) -> str:
        rows, cols = self.size
        cells = ", ".join(f"{name!r}: {len(values)}" for name, values in self.decisions.items())
        return (f"<SolveResult {self.puzzle or 'puzzle'} {rows}x{cols}: {self.summary()}; "
                f"decisions {{{cells}}}>")


def result_of(report: Report, solution: Solution | None = None, verdict: Verdict | None = None) -> SolveResult:
    """The :class:`SolveResult` of a pipeline :class:`~gridlang.solving.pipeline.Report`.

    Args:
        report: the report.
        solution: one of ``report.solutions`` to describe instead of the
            first, with its ``verdict``.
        verdict: the puzzle verifier's verdict on ``solution``.
    """
    # imported on use, not at start-up
    from gridlang.service.json_report import uniqueness

    if solution is not None:
        report = replace(report, solution=solution, verdict=verdict)
    grid = report.model.grid
    decisions = {}
    if report.solution is not None:
        decisions = {name: {grid.cell(c) if isinstance(c, int) else c: v for c, v in sorted(cells.items())}
                     for name, cells in report.solution.decisions.items()}
    res = report.result
    return SolveResult(report.status, report.score if report.solution is not None else None, res.bound,
                       decisions, report.solution is not None, uniqueness(report), dict(report.seconds),
                       report.backend, str(res.stats.get("chosen", report.backend)), report)


def _inline(svg: str) -> str:
    """An SVG document without its XML declaration, to sit inside HTML."""
    return svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg
