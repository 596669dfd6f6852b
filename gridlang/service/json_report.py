"""The one JSON object of ``gridlang solve --json`` for a report, and the pieces it is made of.

Apart from :mod:`gridlang.api` (which re-exports :func:`report_json`), so
that a solve printing ``--json`` does not import the Python API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gridlang.core.errors import GridlangError, MultipleErrors
from gridlang.ir.solution import differing
from gridlang.plugins import find_plugin

if TYPE_CHECKING:
    from gridlang.solving.pipeline import Report


def report_json(report: Report, spec: str | None = None, map: str | None = None) -> dict[str, Any]:
    """The one JSON object of ``solve --json`` for a report.

    Keys: ``puzzle``, ``spec``, ``map``, ``size`` (``[rows, cols]``),
    ``status``, ``objective``, ``bound``, ``verified``, ``verified_score``,
    ``verifier``, ``decisions`` (name -> ``[[[row, col], value], ...]``, a
    Boolean decision listing its true cells with value 1; None without an
    answer), the plug-in's extras under its name, ``unique`` (true, false,
    or null when not proved), ``params``, ``backend``, ``chosen`` (the
    backend that answered: itself, or the one ``auto`` picked or whose
    proof came first in its race), ``connectivity``,
    ``seconds`` and ``stats``; with ``--count``/``--unique`` also
    ``solutions_found``, ``complete`` (no answer is left out) and
    ``solutions`` (each in the shape of ``decisions``), and when a second
    answer was found, ``second`` (the shape of ``decisions``) and ``differ``
    (the ``[r, c]`` cells or ``[[r1, c1], [r2, c2]]`` edges whose values
    differ). The shape is the JSON Schema ``gridlang/data/schemas/solve.json``.
    """
    res = report.result
    verdict = report.verdict
    model = report.model
    out: dict[str, Any] = {
        "puzzle": model.name,
        "spec": spec if spec is not None else model.info.get("spec"),
        "map": map if map is not None else model.info.get("map"),
        "size": [model.grid.rows, model.grid.cols],
        "status": report.status,
        "objective": res.objective,
        "bound": res.bound,
        "verified": report.solution is not None,
        "verified_score": verdict.score if verdict else None,
        "verifier": verdict.verifier if verdict else "spec",
        "decisions": None,
    }
    if report.solution is not None:
        out["decisions"] = decisions_json(model, report.solution)
    plugin = find_plugin(model.name)
    extras = plugin.extras(model, report.solution)
    if plugin.name and extras:
        out[plugin.name] = extras
    out.update({
        "unique": uniqueness(report),
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in model.params.items()},
        "backend": report.backend,
        "chosen": res.stats.get("chosen", report.backend),
        "connectivity": report.connectivity,
        "seconds": {k: round(v, 4) for k, v in report.seconds.items()},
        "stats": {k: v for k, v in res.stats.items() if isinstance(v, (int, float, str, bool))},
    })
    if report.complete is not None:
        out["solutions_found"] = len(report.solutions)
        out["complete"] = report.complete
        out["solutions"] = [decisions_json(model, solution) for solution in report.solutions]
        if report.unique is False and len(report.solutions) > 1:
            out["second"] = out["solutions"][1]
            out["differ"] = [_where(model, key) for key in differing(report.solutions[0], report.solutions[1])]
    if report.interrupted:
        out["interrupted"] = True
    return out


def decisions_json(model, solution) -> dict[str, list]:
    """An answer as ``--json`` gives it: decision name -> ``[[[r, c], value], ...]`` (cells from 0),
    ``[[[r1, c1], [r2, c2]], value]`` for an edge, a Boolean decision listing its true keys with value 1."""
    return {name: sorted([_where(model, c), v if not isinstance(v, bool) else 1] for c, v in cells.items())
            for name, cells in solution.decisions.items()}


def uniqueness(report: Report) -> bool | None:
    """True when proved unique, False when a second answer exists, else None."""
    if report.unique is not None:
        return report.unique
    if len(report.solutions) > 1:
        return False
    if report.complete and len(report.solutions) == 1:
        return True
    return None


def _where(model, key) -> list:
    """A decision's key in JSON: ``[r, c]`` for a cell, ``[[r1, c1], [r2, c2]]`` for an edge."""
    if isinstance(key, tuple):
        return [list(end) for end in key]
    return list(model.grid.cell(key))


def timeout_json(spec: str, map: str, backend: str, deadline, reason: str) -> dict:
    """What ``solve --json`` prints when the time or memory limit ran out before there was a model.

    Args:
        spec: the spec as named on the command line.
        map: the map as named.
        backend: the backend asked for.
        deadline: the command's :class:`~gridlang.core.deadline.Deadline`.
        reason: why (``"the time limit ran out while the model was compiled"``).
    """
    return {"spec": spec, "map": map, "status": "UNKNOWN", "objective": None, "bound": None, "verified": False,
            "decisions": None, "unique": None, "backend": backend,
            "seconds": {"total": round(deadline.elapsed(), 4)}, "stats": {"reason": reason}}


def error_json(error: BaseException, exit_code: int) -> dict[str, Any]:
    """What a command given ``--json`` prints when it cannot do its work: one JSON object
    (schema ``error``, :mod:`gridlang.service.schemas`) with the status ``ERROR``, the exit
    status, the text the command line prints, and each error with its place.

    Args:
        error: a :class:`~gridlang.core.errors.GridlangError` (several when it is a
            ``MultipleErrors``), or another exception, reported by its text alone.
        exit_code: the command's exit status.
    """

    if isinstance(error, MultipleErrors):
        errors = list(error.errors)
    else:
        errors = [error]
    located = []
    for e in errors:
        span = getattr(e, "span", None) if isinstance(e, GridlangError) else None
        located.append({"kind": e.kind if isinstance(e, GridlangError) else "error",
                        "message": e.message if isinstance(e, GridlangError) else str(error),
                        "file": span.file if span is not None else None,
                        "line": span.line if span is not None else None,
                        "column": span.column if span is not None else None,
                        "end_column": span.end_column if span is not None else None})
    text = error.render() if isinstance(error, GridlangError) else f"error: {error}"
    return {"status": "ERROR", "exit": exit_code, "message": text, "errors": located}
