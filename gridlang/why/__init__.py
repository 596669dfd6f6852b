"""Why, not just what: forced cells, explanations of infeasibility, step-by-step hints.

Three questions a person who writes or tests a puzzle asks after "what is
the answer", each answered in the spec's own terms (rule instances: a
statement of the spec under one binding of its ``for each`` variables,
:mod:`gridlang.compiler.tags`):

* **forced cells** (:mod:`.backbone`): which decisions hold the same value
  in every answer (every optimal one, with an objective), and which are
  open. ``gridlang solve --forced``.
* **explanations** (:mod:`.mus`): for a puzzle with no answer, a minimal
  set of rule instances that cannot hold together. ``gridlang solve
  --explain``.
* **hints** (:mod:`.hints`): the answer explained one deduction at a time,
  easiest first, each step naming the rule instances and known cells it
  follows from (with an objective, the optimal answer, the proved optimum
  one instance more). ``gridlang hint``.

Forced cells run on the backend that solved the puzzle. Explanations and
hints run on :class:`~.oracle.Oracle`, one incremental SAT solver (PySAT)
over the model's clauses with a selector per rule instance, whatever
backend found the answer. :mod:`.render` gives text, JSON and pictures.
docs/why.md states the methods, their cost and their sources.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridlang.compiler import compile_tagged
from gridlang.core.deadline import Deadline
from gridlang.core.nodes import replace
from gridlang.ir.backend import DEFAULT_BACKEND, SolveOptions, Status
from gridlang.ir.model import Model
from gridlang.solving.pipeline import Report, finish, first_answer
from gridlang.why.backbone import Forced, forced_entries
from gridlang.why.instances import Entry, Instance, entries, with_optimum
from gridlang.why.mus import Explanation, explain

if TYPE_CHECKING:
    from gridlang.why.hints import Hints

__all__ = ["Entry", "Explanation", "Forced", "Hints", "Instance", "Step", "explain", "explain_steps",
           "forced_entries", "solve_forced", "solve_hints"]


NOT_PROVED = "the optimum is not proved (the time limit, or a limit given to the solver, ran out first; the best " \
             "answer found scores {score}), and a hint explains the optimal answers"
"""The hints' ``reason`` when the objective's optimum was not proved (``{score}``: the best score found)."""


def __getattr__(name: str):
    """``Hints``, ``Step`` and ``explain_steps`` (:mod:`.hints`), imported when first asked for: the
    hints' search (and NumPy, which it needs) stays off the path of ``--forced`` and ``--explain``.

    Raises:
        AttributeError: another name.
    """
    if name in ("Hints", "Step", "explain_steps"):
        # imported on use, not at start-up
        from gridlang.why import hints

        return getattr(hints, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _options(options: SolveOptions | None) -> SolveOptions:
    options = options or SolveOptions()
    if options.deadline is None:
        options = replace(options, deadline=Deadline(options.time_limit))
    return options


def solve_forced(model: Model, backend: str = DEFAULT_BACKEND, options: SolveOptions | None = None,
                 seconds: dict | None = None) -> tuple[Report, Forced]:
    """Solve a model, then find its forced entries on the same backend.

    Args:
        model: the compiled model.
        backend: the backend's name.
        options: solver options; one deadline covers the solve and the search.
        seconds: the seconds of the phases before (parse, compile), added to.

    Returns:
        The report of the first answer (``unique`` set when the search
        settled it; the search's time in ``seconds["forced"]``) and the
        forced entries.

    Raises:
        GridlangError: as :func:`gridlang.solving.pipeline.first_answer`; an answer
            found on the way that fails verification.
    """
    options = _options(options)
    report, session = first_answer(model, backend, options, 2, seconds)
    forced = forced_entries(report, session)
    report.seconds["forced"] = forced.seconds
    if forced.second is not None:
        report.solutions.append(forced.second)  # shown as --unique shows a second answer
        report.unique = False
    elif forced.complete:
        report.unique = True
    finish(report, options)
    return report, forced


def solve_hints(model: Model, backend: str = DEFAULT_BACKEND, options: SolveOptions | None = None,
                seconds: dict | None = None, max_steps: int | None = None) -> tuple[Report, Hints | None]:
    """Solve a model, then explain its answer step by step.

    With an objective, the answer explained is an optimal one and the steps
    are about the optimal answers, as the forced cells are: the optimum is
    proved first, then "the best score is N" is one more rule instance the
    steps may use (:func:`~gridlang.why.instances.with_optimum`), named in
    a step that does. An optimum not proved (the time limit, or a limit
    given to the solver, ran out first) leaves no steps: the hints'
    ``reason`` says so (:data:`NOT_PROVED`) and every entry is ``unknown``.

    Args:
        model: the compiled model.
        backend: the backend that finds (and verifies) the answer explained.
        options: solver options; one deadline covers the solve and the steps.
        seconds: the seconds of the phases before, added to.
        max_steps: stop after this many steps (None: until the answer is complete).

    Returns:
        The report of the answer (the steps' time in ``seconds["hints"]``)
        and the steps, or None when there is no answer to explain.
    """
    # imported on use, not at start-up
    from gridlang.why.hints import Hints, explain_steps

    options = _options(options)
    report, _session = first_answer(model, backend, options, 1, seconds)
    hints = None
    if report.solution is not None and model.objective is not None and report.result.status is not Status.OPTIMAL:
        hints = Hints([], False, unknown=entries(model), reason=NOT_PROVED.format(score=report.result.objective))
    elif report.solution is not None:
        tagged, tagging = compile_tagged(model)
        if model.objective is not None:
            tagged, tagging = with_optimum(tagged, tagging, report.result.objective)
        hints = explain_steps(tagged, tagging, report.result.assignment, options.deadline, max_steps)
        report.seconds["hints"] = hints.seconds
        if hints.open:
            report.unique = False  # an open entry takes another value in some (optimal) answer
        elif hints.complete:
            report.unique = True  # every entry follows from the rules (and the optimum)
    finish(report, options)
    return report, hints
