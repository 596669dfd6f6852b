"""Puzzles made at a level: generated seed after seed, each graded by its hint steps, until one is
graded at the level asked.

A generator that aims at a difficulty as a setter does (as Batenburg et al. make Nonograms of a
chosen difficulty, and Sudoku makers keep the grids their rater puts in the wanted band): each
puzzle of :func:`~gridlang.why.generation.generate` is explained step by step
(:func:`gridlang.why.solve_hints`, the steps of B. Bogaerts, E. Gamba and T. Guns, Artificial
Intelligence 300, 2021) and graded (:func:`gridlang.why.grade.grade`: the cost of its hardest step,
and the level of :data:`gridlang.why.grade.LEVELS`). One at the level is returned; else the next
seed is tried, and the closest graded so far is kept. When the time runs out first,
:class:`~gridlang.why.generation.records.GenerateTimeUp` carries the closest one, with a sentence
saying its level.

Cost: a generation and a hint sequence per seed tried (a 9x9 Sudoku: seconds each, measured in
docs/benchmarks.md). The levels are calibrated on Sudoku (docs/why.md); on other genres they rank
puzzles by the same cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from gridlang.core.deadline import BuildTimeout, Deadline
from gridlang.formats.maps import parse_map
from gridlang.ir.backend import SolveOptions
from gridlang.solving.pipeline import load_checked
from gridlang.why import solve_hints
from gridlang.why.generation.records import Generated, GenerateError, GenerateTimeUp
from gridlang.why.grade import LEVELS, Grade, grade

LEVEL_NAMES = tuple(name for name, _ in LEVELS)
"""The levels a puzzle can be asked for, easiest first."""


def grade_of(spec, made: Generated, backend: str, deadline: Deadline, seconds: float | None = None
             ) -> Grade | None:
    """The grade of a generated puzzle, from its hint steps on ``backend`` within ``deadline`` (and
    within ``seconds``, when given: a page grading as it makes); None when the time ran out before
    its steps were complete (a partial sequence would grade it too easy)."""
    if seconds is not None:
        with deadline.slice(seconds) as part:
            return grade_of(spec, made, backend, part)
    data = parse_map(made.map, "<generated>", spec.puzzle, spec=spec.ast)
    try:
        model, phases = load_checked(spec.ast, spec.symbols, data, {}, deadline)
    except BuildTimeout:  # the time ran out while its model was built: not graded
        return None
    _, hints = solve_hints(model, backend, SolveOptions(deadline=deadline), phases)
    found = None if hints is None else grade(hints)
    return found if found is not None and found.complete else None


def _distance(found: Grade, level: str) -> tuple[int, float]:
    """How far a grade is from ``level``: the levels between, then the difficulty's distance to the
    level's band."""
    k = LEVEL_NAMES.index(level)
    low = LEVELS[k - 1][1] if k else 0.0
    high = LEVELS[k][1]
    gap = 0.0 if low <= found.difficulty < high else min(abs(found.difficulty - low), abs(found.difficulty - high))
    return abs(LEVEL_NAMES.index(found.level) - k), gap


def generate_at(make: Callable[..., Generated], spec, level: str, seed: int, deadline: Deadline,
                backend: str = "cpsat", progress: Callable[[str], None] | None = None,
                grade_seconds: float | None = None, **options: Mapping) -> tuple[Generated, int]:
    """A puzzle graded at ``level``, made by ``make`` from the seeds ``seed``, ``seed + 1``, ...

    Args:
        make: :func:`gridlang.why.generation.generate`, called as ``make(spec, seed=S,
            deadline=deadline, backend=backend, progress=progress, **options)``.
        spec: a loaded :class:`gridlang.solving.spec.Spec`.
        level: one of :data:`LEVEL_NAMES`.
        seed: the first seed tried.
        deadline: shared by the generations and the gradings.
        backend: the backend that makes the puzzles and explains them.
        progress: told one line per puzzle graded.
        grade_seconds: the most seconds one puzzle's grading may take (None: the deadline's); a
            puzzle not graded in them is passed over.
        options: the rest of ``make``'s arguments (``rows``, ``cols``, ``params``, ``symmetry``...).

    Returns:
        ``(puzzle, next seed)``: the puzzle, its ``difficulty`` and ``level`` set and its ``seconds``
        those of every seed tried and graded, and the seed after the last one tried.

    Raises:
        GenerateError: ``level`` is not a level.
        GenerateTimeUp: the time ran out first; ``best`` is the closest puzzle graded (unique, no
            redundant clue, at another level), ``proved`` is ``"level"``, ``note`` says its grade,
            ``closest`` is that :class:`Generated` (its grade set) and ``tried`` the seeds tried.
    """
    if level not in LEVEL_NAMES:
        raise GenerateError(f"unknown difficulty {level!r}: one of {', '.join(LEVEL_NAMES)}")
    closest: tuple[tuple[int, float], Generated, Grade] | None = None
    start = time.perf_counter()
    first = seed
    while True:
        try:
            made = make(spec, seed=seed, deadline=deadline, backend=backend, progress=progress, **options)
            found = grade_of(spec, made, backend, deadline, grade_seconds)
        except GenerateTimeUp as e:
            raise _closest(e, closest, level, seed - first) from None
        seed += 1
        if found is not None:
            made.difficulty, made.level = found.difficulty, found.level
            if progress is not None:
                progress(f"seed {made.seed}: graded {found.level} (difficulty {found.difficulty:g}), "
                         f"{'as asked' if found.level == level else f'not {level}'}")
            if found.level == level:
                made.seconds = time.perf_counter() - start
                return made, seed
            distance = _distance(found, level)
            if closest is None or distance < closest[0]:
                closest = (distance, made, found)
        if deadline.expired():
            raise _closest(GenerateTimeUp(f"the time ran out before a puzzle graded {level} was made "
                                          f"({deadline.cause()})"), closest, level, seed - first)


def _closest(e: GenerateTimeUp, closest, level: str, tried: int) -> GenerateTimeUp:
    """``e`` with the closest puzzle graded, when there is one (else as it was), and the seeds tried."""
    e.tried = tried
    if closest is not None:
        _, made, found = closest
        e.best, e.proved, e.closest = made.map, "level", made
        e.note = (f"its answer is proved unique and no clue is redundant, but it is graded {found.level} "
                  f"(difficulty {found.difficulty:g}), not {level}: the closest made in time (seed {made.seed})")
    return e
