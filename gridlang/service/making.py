"""A puzzle made for a front end at a difficulty: ``gridlang generate``'s puzzle, graded by its hints.

:func:`make` runs :func:`gridlang.why.generation.generate` (an answer, every
clue it allows, clues taken away while the answer stays unique, checked by
a second backend) and grades the puzzle by its hint steps
(:func:`gridlang.why.generation.aim.grade_of`; the level of the hardest step,
:mod:`gridlang.why.grade`, calibrated on human ratings of Sudokus). With a
level asked for, the seeds are tried one after the other as ``gridlang
generate --difficulty`` tries them (:func:`gridlang.why.generation.generate_at`),
until one has that level or the time runs out; then it gives the puzzle whose
level came nearest. When the time runs out before any puzzle is made, it
gives generate's best map so far, with a sentence saying what is not proved
of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gridlang.core.deadline import BuildTimeout, Deadline
from gridlang.solving.spec import Spec
from gridlang.why.generation import (
    LEVEL_NAMES,
    UNPROVED,
    GenerateTimeUp,
    generate,
    generate_at,
)
from gridlang.why.generation.aim import grade_of

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
    rows, cols = size
    options = {"rows": rows, "cols": cols, "params": params, "symmetry": symmetry}
    try:
        if difficulty is None:
            made = generate(spec, seed=seed, deadline=deadline, progress=tell, **options)
            found = _graded(spec, made, deadline, tell)
            made.level, made.difficulty = (None, None) if found is None else (found.level, found.difficulty)
            tries = 1
        else:
            made, after = generate_at(generate, spec, difficulty, seed, deadline, progress=tell,
                                      grade_seconds=GRADE_SECONDS, **options)
            tries = after - seed
    except (GenerateTimeUp, BuildTimeout) as e:
        closest = getattr(e, "closest", None)
        if closest is not None:  # made at a level: the nearest graded, with how many were tried
            return Made(closest.map, closest.url, closest.seed, closest.clues, deadline.elapsed(), e.tried,
                        closest.level, closest.difficulty,
                        note=f"{deadline.cause()} before {'an' if difficulty[0] in 'aeiou' else 'a'} "
                             f"{difficulty} puzzle was made: this is the nearest of {e.tried} ({closest.level})")
        if isinstance(e, GenerateTimeUp) and e.best is not None:
            note = f"{deadline.cause()}: this is the best map made, and {UNPROVED[e.proved]}"
            # the map of the seed under way, after the seeds tried at a level before it
            return Made(e.best, None, seed + e.tried, 0, deadline.elapsed(), 1, complete=False, note=note)
        raise
    return Made(made.map, made.url, made.seed, made.clues, deadline.elapsed(), tries, made.level, made.difficulty)


def _graded(spec: Spec, made, deadline: Deadline, tell):
    """The grade of a puzzle made (:func:`grade_of`, within :data:`GRADE_SECONDS`), told; None when its
    hints do not reach its answer in time."""
    left = deadline.remaining()
    if left is not None and left < 0.5:
        return None
    found = grade_of(spec, made, "cpsat", deadline, GRADE_SECONDS)
    if found is not None:
        tell(f"graded: {found.level} (difficulty {found.difficulty:g})")
    return found
