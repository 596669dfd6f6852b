"""What the Python API's ``forced``, ``explain`` and ``hints`` return.

Plain Python, as :class:`~gridlang.service.result.SolveResult`: cells keyed by
``(row, col)`` counted from 0, an edge by its pair of cells; a Boolean
entry's value is True or False (a forced or decided False is listed, unlike
``decisions``, which lists only the true cells). Each has ``to_json()``
(what the command line's ``--json`` prints) and, where there is something
to draw, ``picture()``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gridlang.ir.model import Model
from gridlang.service.result import SolveResult
from gridlang.service.solve import PICTURE_FORMATS
from gridlang.why import render
from gridlang.why.backbone import Forced
from gridlang.why.instances import Entry, Instance
from gridlang.why.mus import Explanation

if TYPE_CHECKING:  # the hints' modules (and NumPy) are imported by hints_of, not by forced and explain
    from gridlang.why.hints import Hints as Run
    from gridlang.why.hints import Step


def _key(model: Model, key) -> Any:
    return model.grid.cell(key) if isinstance(key, int) else key


def _by_decision(model: Model, pairs: Iterable[tuple[Entry, object]]) -> dict[str, dict[Any, object]]:
    out: dict[str, dict[Any, object]] = {}
    for e, v in pairs:
        out.setdefault(e.decision, {})[_key(model, e.key)] = v
    return {name: dict(sorted(values.items())) for name, values in out.items()}


def _keys(model: Model, ents: Iterable[Entry]) -> list:
    """Entries' keys, each once: cells ``(r, c)`` first, then edges ``((r1, c1), (r2, c2))``, each sorted."""
    return sorted({_key(model, e.key) for e in ents}, key=lambda k: (isinstance(k[0], tuple), k))


def _draw(canvas, format: str) -> str | bytes:
    if format not in PICTURE_FORMATS:
        raise ValueError(f"unknown picture format {format!r}; choose one of {', '.join(PICTURE_FORMATS)}")
    # imported on use, not at start-up
    from gridlang.pictures.draw import picture_data

    return picture_data(canvas, format)


@dataclass(repr=False)
class ForcedCells:
    """The forced cells of a puzzle (:func:`gridlang.forced`).

    Attributes:
        forced: decision name -> ``{(row, col): value}``: every entry that
            holds the same value in every answer (every optimal one), a
            Boolean's False included; empty when not settled.
        open: the cells (or edges) seen with another value in a verified answer.
        unknown: those the time limit left unsettled.
        complete: every entry is forced or open.
        result: the first answer (its ``unique`` settled by the search).
        seconds: the time the search took after the first answer.
    """

    forced: dict[str, dict[Any, object]]
    open: list
    unknown: list
    complete: bool
    result: SolveResult
    seconds: float
    details: Forced = field(compare=False)

    def to_json(self, spec: str | None = None, map: str | None = None) -> dict[str, Any]:
        """What ``gridlang solve --forced --json`` prints. (``spec`` and ``map``: the names recorded, as
        :meth:`gridlang.SolveResult.to_json` takes them)."""
        return self.result.to_json(spec, map) | render.forced_json(self.result.report.model, self.details)

    def picture(self, format: str = "svg", cell: int = 32) -> str | bytes:
        """The forced cells drawn as an answer, the open ones greyed with a ``?`` (``solve --forced --svg``)."""
        return _draw(render.forced_picture(self.result.report.model, self.details, cell), format)

    def __repr__(self) -> str:
        n = sum(len(v) for v in self.forced.values())
        state = "complete" if self.complete else f"{len(self.unknown)} unknown"
        return f"<ForcedCells {self.result.puzzle or 'puzzle'}: {n} forced, {len(self.open)} open, {state}>"


def forced_cells(result: SolveResult, forced: Forced) -> ForcedCells:
    """The :class:`ForcedCells` of a search."""
    model = result.report.model
    return ForcedCells(_by_decision(model, forced.forced), _keys(model, forced.open), _keys(model, forced.unknown),
                       forced.complete, result, forced.seconds, forced)


@dataclass(repr=False)
class Why:
    """Why a puzzle has no answer (:func:`gridlang.explain`).

    Attributes:
        instances: the rule instances that cannot hold together
            (:class:`~gridlang.why.instances.Instance`: ``file``, ``line``,
            ``col``, ``rule``, ``cells``, ``binding``, ``clues``,
            ``params``; ``text()`` gives ``SPEC:LINE:COL: RULE [...]``);
            empty when the puzzle has an answer.
        minimal: dropping any one of them leaves an answer.
        result: the solve that proved the puzzle infeasible.
    """

    instances: list[Instance]
    minimal: bool
    result: SolveResult

    def text(self) -> str:
        """The explanation as ``gridlang solve --explain`` prints it."""
        if self.result.status != "INFEASIBLE":
            return "nothing to explain: the puzzle is not proved infeasible"
        return render.explanation_text(Explanation(self.instances, self.minimal) if self.instances else None)

    def to_json(self, spec: str | None = None, map: str | None = None) -> dict[str, Any]:
        """What ``gridlang solve --explain --json`` prints. (``spec`` and ``map``: the names recorded, as
        :meth:`gridlang.SolveResult.to_json` takes them)."""
        out = self.result.to_json(spec, map)
        out["explanation"] = [i.to_json() for i in self.instances] or None
        if self.instances:
            out["explanation_minimal"] = self.minimal
        return out

    def __repr__(self) -> str:
        return f"<Why {self.result.puzzle or 'puzzle'}: {self.result.status}, {len(self.instances)} instances>"


@dataclass(frozen=True)
class Hint:
    """One step of :class:`HintSteps`.

    Attributes:
        decides: decision name -> ``{(row, col): value}``, what the step decides.
        rules: the rule instances it follows from.
        known: decision name -> ``{(row, col): value}``, the known entries it follows from.
        cost: ``(rule instances, known entries)``.
        difficulty: the step's cost as one number, rule instances + 0.25 per known entry
            (:func:`gridlang.why.grade.step_cost`).
    """

    decides: dict[str, dict[Any, object]]
    rules: list[Instance]
    known: dict[str, dict[Any, object]]
    cost: tuple[int, int]
    difficulty: float = 0.0


@dataclass(repr=False)
class HintSteps:
    """A puzzle's answer explained step by step (:func:`gridlang.hints`).

    Attributes:
        steps: the :class:`Hint` steps, easiest deductions first.
        complete: the steps decide every entry.
        open: cells (or edges) no step decides: they differ between answers.
        unknown: those left when the time limit (or ``max_steps``) stopped the run.
        result: the answer explained.
        reason: why no step was searched (with an objective: its optimum not
            proved before a limit ran out), or None.
        difficulty: the hardest step's cost (larger is harder), or None without a step
            (:mod:`gridlang.why.grade`, calibrated on human ratings of Sudokus).
        level: ``easy``, ``medium``, ``hard`` or ``expert``, or None without a step.
        hardest: the hardest step's number, from 1, or None.
    """

    steps: list[Hint]
    complete: bool
    open: list
    unknown: list
    result: SolveResult
    details: Run = field(compare=False)
    reason: str | None = None
    difficulty: float | None = None
    level: str | None = None
    hardest: int | None = None

    def text(self) -> str:
        """The steps as ``gridlang hint`` prints them."""
        # imported on use, not at start-up
        from gridlang.pictures.textdraw import answer_text

        return render.hints_text(self.result.report.model, self.details, answer_text, self.result.report.solution)

    def to_json(self, spec: str | None = None, map: str | None = None) -> dict[str, Any]:
        """What ``gridlang hint --json`` prints. (``spec`` and ``map``: the names recorded, as
        :meth:`gridlang.SolveResult.to_json` takes them)."""
        return self.result.to_json(spec, map) | render.hints_json(self.result.report.model, self.details)

    def step_text(self, step: int) -> str:
        """Step ``step`` (from 1) in words, as ``gridlang hint`` prints it: what it decides, then
        the rule instances and the known entries it follows from.

        Raises:
            IndexError: there is no such step.
        """
        if not 1 <= step <= len(self.steps):
            raise IndexError(f"step {step}: there are {len(self.steps)} steps, from 1")
        return render.step_text(self.result.report.model, step, self.details.steps[step - 1])

    def picture(self, step: int = 1, format: str = "svg", cell: int = 32) -> str | bytes:
        """Step ``step`` (from 1) drawn as ``gridlang hint --step K --svg`` draws it: the cells known
        before it, its rules' cells outlined blue, its known cells green, what it decides orange.

        Raises:
            IndexError: there is no such step.
        """
        if not 1 <= step <= len(self.steps):
            raise IndexError(f"step {step}: there are {len(self.steps)} steps, from 1")
        return _draw(render.step_picture(self.result.report.model, self.details, step, cell), format)

    def __repr__(self) -> str:
        state = "complete" if self.complete else f"{len(self.open)} open, {len(self.unknown)} unknown"
        graded = "" if self.difficulty is None else f", difficulty {self.difficulty:g} ({self.level})"
        return f"<HintSteps {self.result.puzzle or 'puzzle'}: {len(self.steps)} steps, {state}{graded}>"


def hints_of(result: SolveResult, hints: Run) -> HintSteps:
    """The API's :class:`HintSteps` of a run of :func:`gridlang.why.hints.explain_steps`."""
    # imported on use, not at start-up (the grade needs the hints' modules, and NumPy)
    from gridlang.why.grade import grade, step_cost

    model = result.report.model

    def hint(step: Step) -> Hint:
        return Hint(_by_decision(model, step.decides), list(step.instances), _by_decision(model, step.known),
                    step.cost, step_cost(step))

    graded = grade(hints)
    return HintSteps([hint(s) for s in hints.steps], hints.complete, _keys(model, hints.open),
                     _keys(model, hints.unknown), result, hints, hints.reason,
                     *((graded.difficulty, graded.level, graded.hardest) if graded is not None else ()))
