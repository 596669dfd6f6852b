"""The work a ``gridlang serve`` worker process does for one request, through gridlang's own API.

Each task is a function ``task(ctx, ...)`` run in a worker of
:mod:`gridlang.web.pool`; ``ctx`` (:class:`~gridlang.web.pool.Context`)
makes the request's :class:`~gridlang.core.deadline.Deadline` (so that the
page's Stop, or a request the browser cancelled, stops the search as
Ctrl-C does) and sends progress to the page. What a task returns goes back
to the server as it is; a :class:`~gridlang.core.errors.GridlangError` goes back
as the command line's located message.

A solve is the command line's: the spec and map read by gridlang's
readers, then one :class:`~gridlang.service.solve.Request` run by
:func:`gridlang.service.solve.run` (compiled, solved and verified) under the
deadline and the memory limit (the estimate up front and the watchdog of
:func:`gridlang.core.memory.watch`); the tools (forced cells, an
explanation, hints) go through the same request by way of
:mod:`gridlang.service.calls`. A solve is reported by
:func:`gridlang.service.json_report.report_json`: the object ``gridlang solve --json``
prints. No solving logic lives here.
"""

from __future__ import annotations

import base64
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from gridlang.core.errors import ImageError
from gridlang.web.inputs import Problem, load, load_spec, spec_info

MAX_PICTURE_SIDE = 4096
"""The longest side, in pixels, of the PNG a solve returns for the page (cells shrink to fit, down to 4)."""

CELL = 32
"""Pixels a cell, as ``--svg`` draws by default."""

EXPORTS = {"lp": "lp", "mps": "mps", "wcnf": "wcnf", "asp": "asp.lp"}
"""The export formats the page offers, and the suffix of each file (``asp``: a gringo ``.lp`` program)."""

TOOLS = {"forced": "forced", "explain": "explain", "hint": "hints"}
"""The page's tools and the :mod:`gridlang.service.calls` function each calls, when that function exists."""


def warm() -> None:
    """Import what every solve needs once, before the first request: gridlang's pipeline, the
    solver libraries of the default backend's choices, the drawing."""
    import gridlang.pictures.draw  # noqa: F401
    import gridlang.service.calls  # noqa: F401
    import gridlang.service.solve  # noqa: F401
    import gridlang.solving.pipeline  # noqa: F401

    for module in ("ortools.sat.python.cp_model", "clingo", "gridlang.exporters.cpsat.backend", "gridlang.exporters.asp.backend"):
        try:
            __import__(module)
        except ImportError:  # a missing solver is reported by the solve that needs it
            pass


def solve(ctx, problem: Problem, memory_limit: int | None, pictures: bool = False) -> dict[str, Any]:
    """Solve a problem as ``gridlang solve --json`` does.

    Args:
        ctx: the worker's context for this request.
        problem: the checked request.
        memory_limit: bytes the worker may hold (None: no limit).
        pictures: also draw the answer for the page.

    Returns:
        ``{"json": ..., "exit": CODE, "text": ..., "status_line": ...}``:
        ``json`` is what ``solve --json`` prints (with ``"spec"`` the
        bundled spec's ``puzzles/NAME.grid`` or ``<spec>``, ``"map"`` the
        URL or ``<map>``), ``exit`` the command line's exit code, ``text``
        and ``status_line`` its text output. With ``pictures``: ``svg``
        (the answer as ``--svg`` draws it, the differing cells outlined
        when a second answer was found), ``png`` (base64), and
        ``second_svg`` for a second answer.

    Raises:
        GridlangError: bad input, located; a failed verification.
    """
    # imported on use, not at start-up
    from gridlang.core.deadline import BuildTimeout
    from gridlang.core.memory import watch
    from gridlang.ir.backend import SolveOptions, Status
    from gridlang.service.exits import EXIT_INFEASIBLE, EXIT_INTERRUPTED, EXIT_NO_SOLUTION, EXIT_OK
    from gridlang.service.json_report import report_json, timeout_json
    from gridlang.service.solve import Request, run
    from gridlang.service.text import report_text, status_line
    from gridlang.solving.spec import Spec

    deadline = ctx.deadline(problem.time_limit)
    options = SolveOptions(time_limit=problem.time_limit, deadline=deadline, memory_limit=memory_limit)
    with watch(deadline, memory_limit):
        t0 = time.perf_counter()
        loaded = load(problem)
        # The worker started before the request: no start-up is counted but the solver library's import;
        # reading the spec and the map here is part of parsing.
        request = Request(spec=Spec(loaded.spec_name, loaded.tree, loaded.symbols), map=loaded.data,
                          params=problem.params, backend=problem.backend, options=options, unique=problem.unique,
                          parse_seconds=time.perf_counter() - t0)
        try:
            report = run(request, progress=lambda phase: ctx.progress(phase=phase)).report
        except BuildTimeout:
            record = timeout_json(loaded.spec_name, loaded.map_name, problem.backend, deadline,
                                  f"{deadline.cause()} while the model was compiled")
            stopped = deadline.interrupted and deadline.reason is None
            line = f"status UNKNOWN   backend {problem.backend}"
            return {"json": record, "exit": EXIT_INTERRUPTED if stopped else EXIT_NO_SOLUTION,
                    "text": f"{line}\nno solution found: {record['stats']['reason']}", "status_line": line}
    status = report.result.status
    code = (EXIT_INTERRUPTED if report.interrupted else EXIT_INFEASIBLE if status is Status.INFEASIBLE
            else EXIT_NO_SOLUTION if not status.has_solution else EXIT_OK)
    out = {"json": report_json(report, loaded.spec_name, loaded.map_name), "exit": code,
           "text": report_text(report, problem.time_limit), "status_line": status_line(report)}
    if pictures:
        out.update(_pictures(report))
    return out


def _pictures(report) -> dict[str, str]:
    """The answer (and a second one) drawn as ``--svg`` and ``--png`` draw them, for the page."""
    # imported on use, not at start-up
    from gridlang.ir.solution import differing
    from gridlang.pictures.draw import picture

    model = report.model
    cell = max(4, min(CELL, MAX_PICTURE_SIDE // max(model.grid.rows, model.grid.cols, 1)))
    differ = []
    if report.unique is False and len(report.solutions) > 1:
        differ = differing(report.solutions[0], report.solutions[1])
    canvas = picture(model, report.solution, cell)
    _outline(canvas, model, differ, cell)
    out = {"svg": canvas.to_svg(), "png": _png(canvas)}
    if differ:
        second = picture(model, report.solutions[1], cell)
        _outline(second, model, differ, cell)
        out["second_svg"] = second.to_svg()
    return out


def _png(canvas) -> str:
    """A canvas painted as PNG, base64."""
    import io

    buffer = io.BytesIO()
    canvas.to_image().save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _outline(canvas, model, keys: list, cell: int) -> None:
    """Outline the cells (and edges) where two answers differ, in a group of class ``differ``."""
    if not keys:
        return
    grid = model.grid
    pad = (canvas.width - grid.cols * cell) / 2
    corners = any(d.kind == "corners" for d in model.decisions)
    at = 0.0 if corners else cell / 2
    colour = "#d0006f"
    with canvas.group("differ"):
        for key in keys:
            if isinstance(key, int):
                r, c = grid.cell(key)
                canvas.rect(pad + c * cell + 1.5, pad + r * cell + 1.5, cell - 3, cell - 3, stroke=colour,
                            width=3, cls="differ")
            else:
                (r1, c1), (r2, c2) = key
                canvas.line([(pad + c1 * cell + at, pad + r1 * cell + at), (pad + c2 * cell + at, pad + r2 * cell + at)],
                            colour, max(2.0, cell / 6), cls="differ")


def export(ctx, problem: Problem, fmt: str) -> dict[str, str]:
    """Write a problem's model in a file format for another solver (``gridlang export``).

    Args:
        ctx: the worker's context.
        problem: the checked request.
        fmt: ``lp``, ``mps``, ``wcnf`` or ``asp`` (:data:`EXPORTS`).

    Returns:
        ``{"name": FILE NAME, "text": the file, "vars": the sidecar mapping variables to cells}``.

    Raises:
        GridlangError: bad input, located.
    """
    # imported on use, not at start-up
    from gridlang.service.calls import export as write
    from gridlang.solving.spec import Spec

    loaded = load(problem)
    ctx.progress(phase="compiling")
    spec = Spec(loaded.spec_name, loaded.tree, loaded.symbols)
    name = f"{_stem(loaded)}.{EXPORTS[fmt]}"
    with tempfile.TemporaryDirectory(prefix="gridlang-export-") as folder:
        path = Path(folder) / name
        write(spec, loaded.data, fmt, path, problem.params)
        sidecar = Path(f"{path}.vars.json")
        return {"name": name, "text": path.read_text(encoding="utf-8"),
                "vars": sidecar.read_text(encoding="utf-8") if sidecar.exists() else ""}


def _stem(loaded) -> str:
    """A file name for a problem's downloads: the spec's name (``horse``), else ``puzzle``."""
    stem = Path(loaded.spec_name).stem if loaded.spec_name.endswith(".grid") else "puzzle"
    return stem or "puzzle"


def read_picture(ctx, picture: bytes, label: str, puzzle: str | None, time_limit: float,
                 memory_limit: int | None) -> dict[str, str]:
    """Read a map off a screenshot (``gridlang import-image``), within the time and memory limits.

    Args:
        ctx: the worker's context.
        picture: the file's bytes (the server caps them).
        label: what messages call the picture (the uploaded file's name; never opened).
        puzzle: the ``puzzle "NAME"`` whose plug-in reads it, or None for the one plug-in that reads pictures.
        time_limit: seconds.
        memory_limit: bytes, or None.

    Returns:
        ``{"map": TEXT}``: the map's rows, one a line.

    Raises:
        ImageError: the picture cannot be read, named by ``label``.
    """
    # imported on use, not at start-up
    from gridlang.core.deadline import BuildTimeout
    from gridlang.core.memory import watch
    from gridlang.formats.screens.picture import Budget
    from gridlang.plugins import Plugin, all_plugins, find_plugin

    deadline = ctx.deadline(time_limit)
    plugin = find_plugin(puzzle) if puzzle else None
    if plugin is None or type(plugin).read_image is Plugin.read_image:
        readers = [p for p in all_plugins() if type(p).read_image is not Plugin.read_image]
        if len(readers) != 1:
            raise ImageError(f"no puzzle plug-in reads pictures of {puzzle or 'this spec'}", path=label)
        plugin = readers[0]
    with tempfile.TemporaryDirectory(prefix="gridlang-picture-") as folder:
        path = Path(folder) / "screenshot"
        path.write_bytes(picture)
        try:
            with watch(deadline, memory_limit):
                rows = plugin.read_image(str(path), None, Budget(deadline, memory_limit))
        except ImageError as e:
            e.path = label
            raise
        except BuildTimeout:
            raise ImageError(f"{deadline.cause()} while the picture was read ({deadline.elapsed():.1f} s)",
                             path=label) from None
    return {"map": "\n".join(rows or []) + "\n"}


def available_tools() -> dict[str, bool]:
    """Which of the page's tools (:data:`TOOLS`) this gridlang has: a :mod:`gridlang.service.calls` function of that name."""
    # imported on use, not at start-up
    from gridlang.service import calls

    return {tool: callable(getattr(calls, function, None)) for tool, function in TOOLS.items()}


def tool(ctx, name: str, problem: Problem) -> dict[str, Any]:
    """Run one of the page's tools (forced cells, an explanation, hints) through its API function.

    The function is called as :func:`gridlang.service.calls.solve` is, with the
    spec, the map, the parameters, the backend and the request's deadline;
    what it returns is sent as JSON (its ``to_json()`` when it has one),
    with its ``picture()`` as ``svg`` when it has one: hints with no step
    (every cell open, or an optimum not proved) have none to draw, and are
    sent without it.

    Raises:
        GridlangError: bad input, located.
        LookupError: this gridlang has no such tool.
    """
    # imported on use, not at start-up
    from gridlang.service import calls

    function = getattr(calls, TOOLS.get(name, ""), None)
    if not callable(function):
        raise LookupError(f"this gridlang has no {name} tool")
    loaded = load(problem)
    spec = calls.Spec(loaded.spec_name, loaded.tree, loaded.symbols)
    deadline = ctx.deadline(problem.time_limit)
    result = function(spec, map=loaded.data, params=problem.params, backend=problem.backend, deadline=deadline)
    if result is None:  # hints of a puzzle with no answer
        return {"json": None, "text": "hints: the puzzle has no answer, so there is nothing to explain step by "
                                      "step (Explain says which rules cannot hold together)"}
    record = result.to_json(loaded.spec_name, loaded.map_name)
    out: dict[str, Any] = {"json": record, "text": _relative(_tool_text(name, result), loaded)}
    if hasattr(result, "picture") and getattr(result, "steps", True):
        out["svg"] = result.picture()  # hints are drawn at their first step: none without a step
    if name == "hint":
        out["steps"] = [{"svg": result.picture(k), "text": _relative(result.step_text(k), loaded)}
                        for k in range(1, min(len(result.steps), MAX_STEPS_DRAWN) + 1)]
    return out


MAX_STEPS_DRAWN = 200
"""The most steps of a hint drawn for the page's stepper (each is a picture of the whole board)."""


def _tool_text(name: str, result) -> str:
    """A tool's answer in words: the steps, the explanation, or what the forced cells are."""
    if name != "forced":
        return result.text()
    n = sum(len(values) for values in result.forced.values())
    if result.result.status == "INFEASIBLE":
        return "forced: the puzzle has no answer"
    if not result.complete:
        return f"forced: {n} entries settled, {len(result.unknown)} not settled in time, {len(result.open)} open"
    if not result.open:
        return f"forced: every one of the {n} entries is forced: the answer is unique"
    return f"forced: {n} entries are forced; {len(result.open)} differ between answers (greyed, with a ?)"


def _relative(text: str, loaded) -> str:
    """A text with the bundled spec's installed path written as ``puzzles/NAME.grid``."""
    path = str(getattr(loaded.tree, "path", "") or "")
    return text.replace(path, loaded.spec_name) if path and path != loaded.spec_name else text


def board(ctx, problem: Problem) -> dict[str, Any]:
    """The puzzle drawn before any solve, for the page's board (:func:`gridlang.service.board.board`).

    Returns:
        The board's JSON (``svg``, ``rows``, ``cols``, ``cell``, ``pad``,
        ``width``, ``height``, ``decisions``, ``lattice``, ``url``,
        ``url_error``), with ``spec`` (the spec used: a URL of another genre
        takes its genre's) and ``map`` (the map's text: a URL's decoded).

    Raises:
        GridlangError: bad input, located.
    """
    # imported on use, not at start-up
    from gridlang.service.board import board as draw_board
    from gridlang.solving.spec import Spec

    deadline = ctx.deadline(problem.time_limit)
    loaded = load(problem)
    spec = Spec(loaded.spec_name, loaded.tree, loaded.symbols)
    drawn = draw_board(spec, loaded.data, problem.params, CELL, deadline)
    out = drawn.to_json()
    if out["problem"]:
        out["problem"] = _relative(out["problem"], loaded)
    return {**out, "spec": loaded.spec_name, "map": loaded.text}


def check(ctx, problem: Problem, answer: dict[str, Any]) -> dict[str, Any]:
    """Judge a player's answer by the spec's rules (:func:`gridlang.service.board.judge`).

    Args:
        ctx: the worker's context.
        problem: the checked request.
        answer: decision name -> ``[[[row, col], value], ...]``, as ``solve --json`` lists decisions
            (``[[[r1, c1], [r2, c2]], value]`` for an edge).

    Returns:
        ``{"ok", "empty", "violations", "objective", "text"}``, the spec's
        lines named ``line N``.

    Raises:
        GridlangError: bad input, located; an answer the spec cannot read, in a sentence.
    """
    # imported on use, not at start-up
    from gridlang.service.board import judge
    from gridlang.solving.spec import Spec

    deadline = ctx.deadline(problem.time_limit)
    loaded = load(problem)
    spec = Spec(loaded.spec_name, loaded.tree, loaded.symbols)
    entries = {name: {_place(where): value for where, value in pairs} for name, pairs in answer.items()}
    return judge(spec, loaded.data, entries, problem.params, deadline).to_json()


def _place(where) -> tuple:
    """An answer's key as a tuple: a cell ``(row, col)`` or an edge ``((r1, c1), (r2, c2))``."""
    if isinstance(where[0], list):
        return tuple((int(r), int(c)) for r, c in where)
    r, c = where
    return int(r), int(c)


def describe(problem_spec: str | None, bundled: str | None) -> dict[str, Any]:
    """A spec's :func:`~gridlang.web.inputs.spec_info` (run in the server: parsing a spec is bounded by its size).

    Raises:
        GridlangError: the spec is wrong, located in ``<spec>``.
    """

    problem = Problem(bundled, problem_spec, "-")
    tree, symbols, _ = load_spec(problem)
    return spec_info(tree, symbols)


def pid() -> int:
    """This process's id (a task for tests of the pool)."""
    return os.getpid()


def generate(ctx, problem: Problem, rows: int, cols: int, seed: int, symmetry: str = "none",
             difficulty: str | None = None) -> dict[str, Any]:
    """Make a puzzle of the problem's spec at a level (``gridlang generate``, graded by its hints:
    :func:`gridlang.service.making.make`), each stage sent as progress (``stage``).

    Args:
        ctx: the worker's context (its deadline: the request's time limit; the page's Stop keeps the best
            map made, its Cancel drops the job).
        problem: the spec, the parameters and the time limit.
        rows, cols: the size, in cells.
        seed: the random seed (the same seed makes the same puzzle).
        symmetry: ``none``, ``rotational`` or ``mirror``: the clue positions' symmetry.
        difficulty: ``easy``, ``medium``, ``hard`` or ``expert``, or None for the first puzzle made.

    Returns:
        :meth:`gridlang.service.making.Made.to_json`: ``{"map", "url", "seed", "clues", "seconds", "tries",
        "level", "difficulty", "complete", "note"}``.

    Raises:
        GridlangError: a bad spec or parameter; a spec with no clue tile, or the time ran out before any
            map, in a sentence.
    """
    # imported on use, not at start-up
    from gridlang.service.making import make
    from gridlang.solving.spec import Spec

    deadline = ctx.deadline(problem.time_limit)
    tree, symbols, name = load_spec(problem)
    made = make(Spec(name, tree, symbols), (rows, cols), seed, problem.params, deadline, symmetry, difficulty,
                progress=lambda line: ctx.progress(stage=line))
    return made.to_json()
