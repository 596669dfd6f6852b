"""The Python API: load a spec once, solve, export and verify maps with it.

    >>> import gridlang
    >>> spec = gridlang.load_spec("puzzles/horse.grid")
    >>> result = gridlang.solve(spec, map="puzzles/maps/daily-2026-01-07.txt", backend="maxsat")
    >>> result.status, result.objective, result.verified
    ('OPTIMAL', 66, True)
    >>> len(result.decisions["wall"])
    12

The command line and the batch workers are built on these functions; the
JSON a ``solve --json`` prints is :meth:`SolveResult.to_json`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from . import ast
from .backend import DEFAULT_BACKEND, SolveOptions, get_backend
from .checker import Symbols, check
from .deadline import Deadline
from .errors import BackendError
from .maps import MapData, parse_map, read_map
from .parser import parse_file
from .pipeline import Report, load_checked, solve_model
from .plugins import find_plugin


@dataclass(frozen=True)
class Spec:
    """A parsed and checked ``.grid`` spec.

    Attributes:
        path: the file it was read from.
        ast: its statements (:class:`gridlang.ast.Spec`).
        symbols: its names and types (:class:`gridlang.checker.Symbols`).
    """

    path: str
    ast: ast.Spec
    symbols: Symbols

    @property
    def puzzle(self) -> str | None:
        """The ``puzzle "NAME"`` of the spec, or None."""
        return self.ast.puzzle.name if self.ast.puzzle else None


def load_spec(path: str | Path) -> Spec:
    """Parse and check a spec.

    Raises:
        GridlangError: the file is missing or the spec is wrong (located).
    """
    tree = parse_file(path)
    return Spec(str(path), tree, check(tree))


def read(spec: Spec, map: str | Path | MapData) -> MapData:
    """A map for ``spec``: a file path, the map's text (any string holding a
    line break), or an already read :class:`MapData`.

    Raises:
        MapError: the map cannot be read (located).
    """
    if isinstance(map, MapData):
        return map
    if isinstance(map, str) and "\n" in map:
        return parse_map(map, "<map>", spec.puzzle, spec=spec.ast)
    return read_map(map, spec.puzzle, spec=spec.ast)


@dataclass
class SolveResult:
    """What one solve proved, decoded and verified.

    Attributes:
        status: ``OPTIMAL``, ``FEASIBLE``, ``INFEASIBLE`` or ``UNKNOWN``.
        objective: the objective value of the answer (None without one).
        bound: the best proved bound on it (None if unknown).
        decisions: decision name -> {(row, col): value}; a Boolean decision
            lists its true cells (value True).
        verified: the answer passed every check (model, spec rules, the
            puzzle's published rules); False when there is no answer.
        unique: True when proved unique, False when a second answer was
            found, None when not asked or not proved in time.
        seconds: wall-clock seconds per phase (``startup``, ``parse``,
            ``compile``, ``solve``, ``verify``, ``total``).
        backend: the backend that solved it.
        report: the full pipeline report (model, raw result, every solution).
    """

    status: str
    objective: int | None
    bound: float | None
    decisions: dict[str, dict[tuple[int, int], object]]
    verified: bool
    unique: bool | None
    seconds: dict[str, float]
    backend: str
    report: Report = field(repr=False)

    def to_json(self, spec: str | None = None, map: str | None = None) -> dict[str, Any]:
        """The object ``gridlang solve --json`` prints (see the README)."""
        return report_json(self.report, spec, map)


def solve(spec: Spec | str | Path, map: str | Path | MapData, backend: str = DEFAULT_BACKEND,
          time_limit: float | None = None, params: Mapping[str, object] | None = None,
          unique: bool = False, count: int | None = None, settings: Mapping[str, object] | None = None,
          connectivity: str | None = None, workers: int | None = None,
          deadline: Deadline | None = None) -> SolveResult:
    """Solve one map of a spec, decode the answer and verify it.

    Args:
        spec: a :class:`Spec` (parsed once, reused) or a spec path.
        map: the map: a path, its text, or a :class:`MapData`.
        backend: ``auto`` (the default: picks per map, :mod:`gridlang.auto`), ``cpsat``, ``milp``,
            ``maxsat`` or ``asp``.
        time_limit: seconds for the whole call (every solve shares them).
        params: parameter values (``{"budget": 12}``), as numbers or text.
        unique: prove the answer unique or find a second one.
        count: enumerate up to this many answers.
        settings: backend settings, ``{"maxsat.algorithm": "rc2"}``.
        connectivity: a connectivity strategy of the backend.
        workers: solver threads.
        deadline: a shared :class:`~gridlang.deadline.Deadline` (overrides
            ``time_limit``; Ctrl-C handling goes through it).

    Returns:
        The result.

    Raises:
        GridlangError: bad input (located), a missing backend, or an answer
            that fails verification (:class:`~gridlang.errors.VerificationError`).
    """
    start = time.perf_counter()
    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    data = read(spec, map)
    text_params = {k: _param_text(v) for k, v in (params or {}).items()}
    options = SolveOptions(time_limit=time_limit, connectivity=connectivity, workers=workers,
                           extra=dict(settings or {}))
    options.deadline = deadline if deadline is not None else Deadline(time_limit, start=start)
    model, seconds = load_checked(spec.ast, spec.symbols, data, text_params)
    seconds["parse"] = seconds.pop("read")
    report = solve_model(model, backend, options, count, unique, seconds)
    return result_of(report)


def result_of(report: Report) -> SolveResult:
    """The :class:`SolveResult` of a pipeline :class:`~gridlang.pipeline.Report`."""
    grid = report.model.grid
    decisions = {}
    if report.solution is not None:
        decisions = {name: {grid.cell(c) if isinstance(c, int) else c: v for c, v in sorted(cells.items())}
                     for name, cells in report.solution.decisions.items()}
    return SolveResult(report.result.status.value, report.score if report.solution is not None else None,
                       report.result.bound, decisions, report.solution is not None, _unique(report),
                       dict(report.seconds), report.backend, report)


def export(spec: Spec | str | Path, map: str | Path | MapData, format: str, path: str | Path,
           params: Mapping[str, object] | None = None, connectivity: str | None = None) -> list[str]:
    """Write the model for an external solver (``lp``, ``mps``, ``wcnf``, ``cnf``, ``pbtxt``, ``asp``).

    Returns:
        The paths written (the model file and its ``.vars.json`` sidecar).

    Raises:
        GridlangError: bad input, or a format no backend writes.
    """
    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    backend = FORMAT_BACKEND.get(format.lower())
    if backend is None:
        raise BackendError(f"unknown format {format!r}; choose one of {', '.join(FORMAT_BACKEND)}")
    model, _ = load_checked(spec.ast, spec.symbols, read(spec, map),
                            {k: _param_text(v) for k, v in (params or {}).items()})
    engine = get_backend(backend)
    return engine.write(model, str(path), format.lower(), SolveOptions(connectivity=connectivity))


def verify(spec: Spec | str | Path, map: str | Path | MapData, answer: Mapping[str, object] | str | Path,
           params: Mapping[str, object] | None = None):
    """Judge an answer by the spec's own rules (:mod:`gridlang.interpreter`).

    Args:
        spec: the spec.
        map: the map.
        answer: a path to what ``solve --json`` prints (or its
            ``decisions``), or the decisions as a mapping
            ``{name: {(row, col): value}}``.
        params: parameter values.

    Returns:
        The :class:`~gridlang.interpreter.SpecVerdict`: ``ok``,
        ``objective``, ``violations`` (each rendering as
        ``SPEC:LINE:COL: rule violated: ...``).

    Raises:
        GridlangError: bad input, located.
    """
    from .answers import read_answer
    from .interpreter import evaluate
    from .maps import build_grid
    from .params import resolve_params

    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    data = read(spec, map)
    grid = build_grid(spec.symbols, data)
    values = resolve_params(spec.symbols, data, {k: _param_text(v) for k, v in (params or {}).items()})
    if isinstance(answer, Mapping):
        decisions = {name: {grid.index(*cell): value for cell, value in cells.items()}
                     for name, cells in answer.items()}
    else:
        decisions = read_answer(answer, grid, spec.symbols, values)
    return evaluate(spec.ast, spec.symbols, grid, values, decisions)


FORMAT_BACKEND = {"lp": "milp", "mps": "milp", "wcnf": "maxsat", "cnf": "maxsat", "pbtxt": "cpsat", "asp": "asp"}
"""Which backend writes each file format."""


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
    ``solutions_found`` and ``complete``.
    """
    res = report.result
    verdict = report.verdict
    model = report.model
    out: dict[str, Any] = {
        "puzzle": model.name,
        "spec": spec if spec is not None else model.info.get("spec"),
        "map": map if map is not None else model.info.get("map"),
        "size": [model.grid.rows, model.grid.cols],
        "status": res.status.value,
        "objective": res.objective,
        "bound": res.bound,
        "verified": report.solution is not None,
        "verified_score": verdict.score if verdict else None,
        "verifier": verdict.verifier if verdict else "spec",
        "decisions": None,
    }
    if report.solution is not None:
        out["decisions"] = {
            name: sorted([_where(model, c), v if not isinstance(v, bool) else 1] for c, v in cells.items())
            for name, cells in report.solution.decisions.items()
        }
    plugin = find_plugin(model.name)
    extras = plugin.extras(model, report.solution)
    if plugin.name and extras:
        out[plugin.name] = extras
    out.update({
        "unique": _unique(report),
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in model.params.items()},
        "backend": report.backend,
        "chosen": res.stats.get("chosen", report.backend),
        "connectivity": res.stats.get("connectivity"),
        "seconds": {k: round(v, 4) for k, v in report.seconds.items()},
        "stats": {k: v for k, v in res.stats.items() if isinstance(v, (int, float, str, bool))},
    })
    if report.complete is not None:
        out["solutions_found"] = len(report.solutions)
        out["complete"] = report.complete
    if report.interrupted:
        out["interrupted"] = True
    return out


def _unique(report: Report) -> bool | None:
    """True when proved unique, False when a second answer exists, else None."""
    if report.unique is not None:
        return report.unique
    if len(report.solutions) > 1:
        return False
    if report.complete and len(report.solutions) == 1:
        return True
    return None


def _param_text(value: object) -> str:
    """A parameter value as the command line gives it (``12``, ``1,2,3``)."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(v) for v in value)
    return str(value)


__all__ = ["FORMAT_BACKEND", "SolveResult", "Spec", "export", "load_spec", "read", "report_json", "result_of",
           "solve", "verify"]


def _where(model, key) -> list:
    """A decision's key in JSON: ``[r, c]`` for a cell, ``[[r1, c1], [r2, c2]]`` for an edge."""
    if isinstance(key, tuple):
        return [list(end) for end in key]
    return list(model.grid.cell(key))
