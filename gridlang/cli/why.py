"""The command line's "why" parts: ``solve --forced``, ``solve --explain`` and ``gridlang hint``.

The methods are in :mod:`gridlang.why`; this module runs them from the
parsed arguments and prints what they found, as text or JSON, and draws it.
"""

from __future__ import annotations

import json
import sys
import time

from gridlang.cli.options import _options, _params, missing_spec
from gridlang.cli.outputs import solver_output_to_stderr, write_canvas
from gridlang.core.errors import ParamError
from gridlang.service.exits import EXIT_INFEASIBLE, EXIT_INTERRUPTED, EXIT_NO_SOLUTION, EXIT_OK


def solve_forced(model, backend, options, seconds):
    """:func:`gridlang.why.solve_forced` (imported when first used)."""
    # imported on use, not at start-up
    from gridlang.why import solve_forced as run

    return run(model, backend, options, seconds)


def load_and_solve_forced(args, options, data):
    """Parse, compile and solve ``args.spec`` on ``args.map`` (or the picture's ``data``), then
    find the forced cells; the times as :func:`gridlang.solving.pipeline.solve` gives them."""
    # imported on use, not at start-up
    from gridlang.solving.pipeline import load

    before = options.deadline.elapsed()
    model, seconds = load(args.spec, args.map, _params(args), data, options.deadline)
    seconds["startup"] = before
    return solve_forced(model, args.backend, options, seconds)


def explain_report(report, deadline):
    """A minimal set of rule instances that cannot hold together, its seconds in ``report.seconds["explain"]``."""
    # imported on use, not at start-up
    from gridlang.why import explain

    t0 = time.perf_counter()
    explanation = explain(report.model, deadline)
    report.seconds["explain"] = time.perf_counter() - t0
    report.seconds["total"] = max(report.seconds.get("total", 0.0), deadline.elapsed())
    return explanation


def why_json(report, args, forced, explanation) -> dict:
    """The keys ``--forced`` and ``--explain`` add to ``solve --json``."""
    if forced is None and not args.explain:
        return {}  # a plain solve: the why tools are not imported
    # imported on use, not at start-up
    from gridlang.why import render

    out = {}
    if forced is not None:
        out.update(render.forced_json(report.model, forced))
    if args.explain:
        out["explanation"] = render.explanation_json(explanation)
        if explanation is not None:
            out["explanation_minimal"] = explanation.minimal
    return out


def why_text(report, args, forced, explanation) -> str:
    """The lines ``--forced`` and ``--explain`` add to ``solve``'s text (each block after a blank line)."""
    if forced is None and not args.explain:
        return ""  # a plain solve: the why tools are not imported
    # imported on use, not at start-up
    from gridlang.ir.backend import Status
    from gridlang.pictures.textdraw import answer_text
    from gridlang.why import render

    parts = []
    if forced is not None:
        parts.append(render.forced_text(report.model, forced, answer_text))
    if args.explain:
        if report.result.status is Status.INFEASIBLE:
            parts.append(render.explanation_text(explanation))
        else:
            parts.append("explain: nothing to explain, the puzzle is not proved infeasible")
    return "".join("\n\n" + p for p in parts)


def write_forced_pictures(args, model, forced) -> None:
    """Draw the forced cells (the open ones greyed) to ``--svg`` and ``--png``."""
    if not (args.svg or args.png):
        return
    if forced.reason is not None:
        print(f"note: no forced cells to draw: {forced.reason}", file=sys.stderr)
        return
    # imported on use, not at start-up
    from gridlang.why.render import forced_picture

    write_canvas(args, forced_picture(model, forced, args.cell))


def _cmd_hint(args) -> int:
    """``gridlang hint``: solve, then explain the answer step by step.

    Exit 0 when the steps reach the whole answer (or the ``--steps`` asked
    for), 3 when the time ran out first (the steps found so far are
    printed), 2 when the puzzle has no answer, 130 after Ctrl-C; open cells
    (several answers) still exit 0.
    """
    # imported on use, not at start-up
    from gridlang.core.deadline import Deadline, catch_interrupt
    from gridlang.core.memory import watch
    from gridlang.ir.backend import Status
    from gridlang.pictures.textdraw import answer_text
    from gridlang.service.text import backend_text
    from gridlang.why import render, solve_hints

    if args.spec is None and not args.url:
        raise missing_spec()
    options = _options(args)
    options.deadline = Deadline(args.time_limit, start=args.started)
    with solver_output_to_stderr(args.json), catch_interrupt(options.deadline), \
            watch(options.deadline, options.memory_limit):
        before = options.deadline.elapsed()
        if args.url:
            # imported on use, not at start-up
            from gridlang.solving.pipeline import compile_url

            model, seconds = compile_url(args.url, args.spec, _params(args), options.deadline)
            args.spec, args.map = model.info["spec"], args.url
        else:
            # imported on use, not at start-up
            from gridlang.solving.pipeline import load

            model, seconds = load(args.spec, args.map, _params(args), None, options.deadline)
        seconds["startup"] = before
        report, hints = solve_hints(model, args.backend, options, seconds, args.steps)
    if hints is not None and (args.svg or args.png) and args.step > len(hints.steps):
        raise ParamError(f"--step {args.step}: there are {len(hints.steps)} steps")
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
        print(render.hints_text(model, hints, answer_text))
    if hints is not None and (args.svg or args.png):
        write_canvas(args, render.step_picture(model, hints, args.step, args.cell))
    if report.interrupted:
        print("interrupted: the steps above are those found before Ctrl-C", file=sys.stderr)
        return EXIT_INTERRUPTED
    if status is Status.INFEASIBLE:
        return EXIT_INFEASIBLE
    if hints is None or hints.unknown and options.deadline.expired():
        return EXIT_NO_SOLUTION
    return EXIT_OK
