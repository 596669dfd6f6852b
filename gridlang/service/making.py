"""A puzzle made for a front end at a difficulty: ``gridlang generate``'s puzzle, graded by its hints.

:func:`make` runs :func:`gridlang.service.calls.generate` (an answer, every
clue it allows, clues taken away while the answer stays unique, checked by
a second backend: :mod:`gridlang.why.generation`) and grades each puzzle it
makes by its hint steps (:func:`gridlang.service.calls.hints`; the level of
the hardest step, :mod:`gridlang.why.grade`, calibrated on human ratings of
Sudokus). With a level asked for, it makes puzzles from the seed on, one
seed after the other, until one has that level or the time runs out; then
it gives the puzzle whose level came nearest. When the time runs out before
any puzzle is made, it gives generate's best map so far, with a sentence
saying what is not proved of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gridlang.core.deadline import BuildTimeout, Deadline
from gridlang.formats.maps import parse_map
from gridlang.service.calls import generate, hints
from gridlang.solving.spec import Spec
from gridlang.why.generation import LEVEL_NAMES, UNPROVED, GenerateTimeUp

__all__ = ["LEVELS", "UNPROVED", "Made", "make"]

LEVELS = LEVEL_NAMES
"""The levels a puzzle is graded at (:data:`gridlang.why.grade.LEVELS`), easiest first."""


GRADE_SECONDS = 10.0
"""The most seconds the hints that grade one puzzle may take."""


@dataclass
class Made:
    """A puzzle :func:`make` made.

    Attributes:
        map: the map's text, as a map file holds it.
        url: its puzz.link URL, or None.
        seed: the seed it was made from.
        clues: its number of clue cells.
        seconds: the time all the tries took, seconds.
        tries: the puzzles made (one a seed) to reach it.
        level: its level (:data:`LEVELS`), or None when it was not graded
            (no time left, or its hints did not reach the answer).
        difficulty: the cost of its hardest hint step, or None.
        complete: the puzzle is proved unique and minimal; False for the
            best map at a time limit.
        note: a sentence on what it is not (the level asked for, or what is
            not proved of it), or None.
    """

    map: str
    url: str | None
    seed: int
    clues: int
    seconds: float
    tries: int = 1
    level: str | None = None
    difficulty: float | None = None
    complete: bool = True
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Every attribute by its name."""
        return {
            "map": self.map,
            "url": self.url,
            "seed": self.seed,
            "clues": self.clues,
            "seconds": round(self.seconds, 3),
            "tries": self.tries,
            "level": self.level,
            "difficulty": self.difficulty,
            "complete": self.complete,
            "note": self.note,
        }


def make(
    spec: Spec,
    size: tuple[int, int],
    seed: int,
    params: Mapping[str, object] | None,
    deadline: Deadline,
    symmetry: str = "none",
    difficulty: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> Made:
    """Make a puzzle of ``spec`` at a level, or the nearest one made in time.

    Args:
        spec: the loaded spec.
        size: ``(rows, cols)``, in cells.
        seed: the first seed tried; the next tries take the seeds after it.
        params: the spec's parameters.
        deadline: the whole run's deadline; every try and grade asks it.
        symmetry: ``none``, ``rotational`` or ``mirror`` (clue positions).
        difficulty: a level of :data:`LEVELS`, or None for the first puzzle made.
        progress: told one line per stage (generate's own, and each grade).

    Returns:
        The :class:`Made` puzzle.

    Raises:
        ValueError: ``difficulty`` is no level.
        GenerateError: the spec cannot be generated from, or the time ran
            out with no map at all.
        BuildTimeout: the time ran out while a model was built, with no map.
    """
    if difficulty is not None and difficulty not in LEVELS:
        raise ValueError(
            f"the difficulty is one of {', '.join(LEVELS)}, not {difficulty!r}"
        )
    tell = progress or (lambda line: None)
    best: Made | None = None
    tries = 0
    while True:
        try:
            made = generate(
                spec,
                size,
                seed + tries,
                params,
                deadline=deadline,
                symmetry=symmetry,
                progress=tell,
            )
        except (GenerateTimeUp, BuildTimeout) as e:
            if best is not None:
                break
            if isinstance(e, GenerateTimeUp) and e.best is not None:
                note = f"{deadline.cause()}: this is the best map made, and {UNPROVED[e.proved]}"
                return Made(
                    e.best,
                    None,
                    seed,
                    0,
                    deadline.elapsed(),
                    1,
                    complete=False,
                    note=note,
                )
            raise
        tries += 1
        level, cost = _grade(spec, made.map, params, deadline, tell)
        now = Made(
            made.map,
            made.url,
            made.seed,
            made.clues,
            deadline.elapsed(),
            tries,
            level,
            cost,
        )
        if difficulty is None or level == difficulty:
            return now
        if best is None or _distance(level, difficulty) < _distance(
            best.level, difficulty
        ):
            best = now
        tell(
            f"seed {made.seed}: {level or 'not graded'}, not {difficulty}; the next seed"
        )
        if deadline.expired():
            break
    best.tries, best.seconds = tries, deadline.elapsed()
    best.note = (
        f"{deadline.cause()} before {'an' if difficulty[0] in 'aeiou' else 'a'} {difficulty} puzzle was made: "
        f"this is the nearest of {tries} "
        f"({best.level or 'not graded'})"
    )
    return best


def _grade(
    spec: Spec, text: str, params: Mapping[str, object] | None, deadline: Deadline, tell
) -> tuple[str | None, float | None]:
    """A made map's level and difficulty from its hints, or ``(None, None)`` when they do not reach its
    answer in time."""
    left = deadline.remaining()
    if left is not None and left < 0.5:
        return None, None
    with deadline.slice(GRADE_SECONDS) as part:
        steps = hints(
            spec, parse_map(text, "<generated>"), params=params, deadline=part
        )
    if steps is None or not steps.complete or steps.level is None:
        return None, None
    tell(f"graded: {steps.level} (difficulty {steps.difficulty:g})")
    return steps.level, steps.difficulty


def _distance(level: str | None, wanted: str) -> int:
    """How many levels apart two levels are (an ungraded puzzle farthest)."""
    if level is None:
        return len(LEVELS)
    return abs(LEVELS.index(level) - LEVELS.index(wanted))
