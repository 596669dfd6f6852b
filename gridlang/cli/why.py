"""The command line's "why" parts: ``solve --forced``, ``solve --explain`` and ``gridlang hint``.

The methods are in :mod:`gridlang.why`, run by the service for a
:class:`~gridlang.service.solve.Request` that asks for them; this module
makes the request from the parsed arguments and prints what was found, as
text or JSON (and draws a hint's step).
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

from gridlang.cli.options import _options, _params, missing_spec
from gridlang.cli.outputs import solver_output_to_stderr, write_canvas
from gridlang.core.errors import ParamError
from gridlang.service.exits import (
    EXIT_INFEASIBLE,
    EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION,
    EXIT_OK,
)

if TYPE_CHECKING:
    from pathlib import Path  # annotations only: a solve does not import pathlib


def why_json(outcome) -> dict:
    """The keys ``--forced`` and ``--explain`` add to ``solve --json``, from the service's
    :class:`~gridlang.service.solve.Outcome`."""
    request, report = outcome.request, outcome.report
    if not (request.forced or request.explain):
        return {}  # a plain solve: the why tools are not imported
    # imported on use, not at start-up
    from gridlang.why import render

    out = {}
    if outcome.forced is not None:
        out.update(render.forced_json(report.model, outcome.forced))
    if request.explain:
        out["explanation"] = render.explanation_json(outcome.explanation)
        if outcome.explanation is not None:
            out["explanation_minimal"] = outcome.explanation.minimal
    return out


def why_text(outcome) -> str:
    """The lines ``--forced`` and ``--explain`` add to ``solve``'s text (each block after a blank line),
    from the service's :class:`~gridlang.service.solve.Outcome`."""
    request, report = outcome.request, outcome.report
    if not (request.forced or request.explain):
        return ""  # a plain solve: the why tools are not imported
    # imported on use, not at start-up
    from gridlang.ir.backend import Status
    from gridlang.pictures.textdraw import answer_text
    from gridlang.why import render

    parts = []
    if outcome.forced is not None:
        parts.append(render.forced_text(report.model, outcome.forced, answer_text))
    if request.explain:
        if report.result.status is Status.INFEASIBLE:
            parts.append(render.explanation_text(outcome.explanation))
        else:
            parts.append("explain: nothing to explain, the puzzle is not proved infeasible")
    return "".join("\n\n" + p for p in parts)


def _cmd_hint(args) -> int:
    """``gridlang hint``: solve, then explain the answer step by step.

    Exit 0 when the steps reach the whole answer (or the ``--steps`` asked
    for), 3 when the time ran out first (the steps found so far are
    printed; also when the search's solver calls ran out of their
    conflicts with cells left, and, with an objective, when the optimum was
    not proved, so no step was searched), 2 when the puzzle has no answer, 130 after
    Ctrl-C; open cells (several answers) still exit 0; 1 for a ``--step K``
    beyond the steps, or an ``--svg``/``--png`` whose folder does not exist or
    cannot be written (found before the run). ``--step all`` draws every step,
    each to a numbered file (:func:`step_files`).
    """
    # imported on use, not at start-up
    from gridlang.core.deadline import Deadline, catch_interrupt
    from gridlang.core.memory import watch
    from gridlang.ir.backend import Status
    from gridlang.pictures.textdraw import answer_text
    from gridlang.service.solve import Request, run
    from gridlang.service.text import backend_text
    from gridlang.why import render

    if args.spec is None and not args.url:
        raise missing_spec()
    _check_folders(args)  # before the run: a picture that cannot be written is bad input, found at once
    options = _options(args)
    options.deadline = Deadline(args.time_limit, start=args.started)
    with solver_output_to_stderr(args.json), catch_interrupt(options.deadline), \
            watch(options.deadline, options.memory_limit):
        outcome = run(Request(spec=args.spec, map=None if args.url else args.map, url=args.url or None,
                              params=_params(args), backend=args.backend, options=options, hints=True,
                              max_steps=args.steps, startup=True))
    report, hints, model = outcome.report, outcome.hints, outcome.report.model
    if args.url:
        args.spec, args.map = model.info["spec"], args.url
    draw = hints is not None and hints.reason is None and bool(args.svg or args.png)
    n = len(hints.steps) if hints is not None else 0
    if draw and args.step != "all" and args.step > n:
        raise ParamError(f"--step {args.step}: there {'is' if n == 1 else 'are'} {n} step{'' if n == 1 else 's'}")
    status = report.result.status
    if args.json:
        # imported on use, not at start-up
        from gridlang.service.json_report import report_json

        out = report_json(report, str(args.spec), str(args.map))
        out.update(render.hints_json(model, hints) if hints is not None else
                   {"steps": None, "complete": False, "open": [], "unknown": []})
        print(json.dumps(out))
    elif hints is None:
        print(f"status {report.status}   {backend_text(report)}\nno answer to explain")
    else:
        print(render.hints_text(model, hints, answer_text, report.solution))
    if draw and args.step == "all":
        _write_steps(args, model, hints)
    elif draw:
        write_canvas(args, render.step_picture(model, hints, args.step, args.cell))
    if report.interrupted:
        print("interrupted: the steps above are those found before Ctrl-C", file=sys.stderr)
        return EXIT_INTERRUPTED
    if status is Status.INFEASIBLE:
        return EXIT_INFEASIBLE
    if hints is None or hints.reason is not None or hints.unknown and (options.deadline.expired() or hints.gave_up):
        return EXIT_NO_SOLUTION
    return EXIT_OK


def step_files(path: str, n: int, suffix: str) -> list[Path]:
    """The files ``--step all`` writes for ``n`` steps: in a folder ``path``, ``step-01.svg``,
    ``step-02.svg``, ... (``suffix`` ``.svg`` or ``.png``); else ``path``'s name numbered
    (``steps.svg``: ``steps-01.svg``, ...; ``steps``: ``steps-01.svg``, the format's suffix added). Numbers have two figures at least, as many as ``n`` has."""
    from pathlib import Path  # imported on use: a solve does not import pathlib

    width = max(2, len(str(n)))
    base = Path(path)
    if base.is_dir():
        return [base / f"step-{k:0{width}d}{suffix}" for k in range(1, n + 1)]
    return [base.with_name(f"{base.stem}-{k:0{width}d}{base.suffix or suffix}") for k in range(1, n + 1)]


def _check_folders(args) -> None:
    """Refuse an ``--svg``/``--png`` whose folder does not exist or cannot be written, in a sentence.

    Raises:
        ParamError: naming the option, the file and the folder.
    """
    from pathlib import Path  # imported on use: a solve does not import pathlib

    for flag, path in (("--svg", args.svg), ("--png", args.png)):
        if not path:
            continue
        folder = Path(path) if args.step == "all" and Path(path).is_dir() else Path(path).parent
        if path.endswith(("/", os.sep)) and not Path(path).is_dir():  # a folder meant: 'out/'
            folder = Path(path)
        if not folder.is_dir():
            raise ParamError(f"{flag} {path}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise ParamError(f"{flag} {path}: the folder {folder} cannot be written")


def _write_steps(args, model, hints) -> None:
    """``--step all``: every step's picture to its numbered file (:func:`step_files`), each named on stderr."""
    # imported on use, not at start-up
    from gridlang.pictures.draw import write_picture
    from gridlang.why import render

    n = len(hints.steps)
    for flag, suffix in ((args.svg, ".svg"), (args.png, ".png")):
        if not flag:
            continue
        files = step_files(flag, n, suffix)
        for k, file in enumerate(files, start=1):
            write_picture(render.step_picture(model, hints, k, args.cell), file, suffix[1:])
        print(f"wrote {n} step{'' if n == 1 else 's'}: {files[0]} to {files[-1]}" if files else
              "no step to draw", file=sys.stderr)
