"""What :func:`gridlang.why.generation.generate` returns and raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gridlang.core.errors import GridlangError

UNPROVED = {
    "clues": "not all its clues are placed, and its answer is not proved unique",
    "unique": "its clues are placed but its answer is not proved unique",
    "minimal": "its answer is proved unique but it is not proved minimal (some clue may be redundant)",
    "check": "its answer is proved unique and no clue is redundant, but the second backend has not checked it",
}
"""What a map given at a time limit lacks, by what remained to prove of it
(:attr:`GenerateTimeUp.proved`), in the words every front end shows."""


class GenerateError(GridlangError, ValueError):
    """The spec cannot be generated from (no clue tile), or the time ran out before a puzzle was made."""


class NoAnswer(GenerateError):
    """The map an answer is drawn on has none, even with the rules about clues left out."""


class GenerateTimeUp(GenerateError):
    """The time ran out before a puzzle was made (the message names the step): exit 3, not 1.

    Attributes:
        best: the best map made by then, as a map file holds it, or None.
        proved: what was proved of ``best``: ``"clues"``: not all its clues are placed yet;
            ``"unique"`` is not yet (its clues were placed, its
            uniqueness not proved), ``"minimal"`` its answer proved unique but clues not yet taken
            away, ``"check"`` unique and dug but not checked by the second backend, ``"level"`` a
            finished puzzle graded at another level than the one asked.
        note: a sentence saying what ``best`` lacks when the stage alone does not say it (its grade).
        closest: made at a level, the finished puzzle ``best`` is (a :class:`Generated`), or None.
        tried: made at a level, the seeds tried before the time ran out (0 otherwise).
    """

    best: str | None = None
    proved: str | None = None
    note: str | None = None
    closest: Generated | None = None
    tried: int = 0


@dataclass
class Generated:
    """One puzzle made by :func:`generate`.

    Attributes:
        map: the map's text (parameter header lines, then the grid), as a
            map file holds it.
        url: its puzz.link URL when the spec declares a format, else None.
        seed: the seed it was made from (the same seed, spec, size and
            parameters make the same map).
        clues: the number of clue cells.
        seconds: the time it took (made at a level: every seed tried and graded).
        checked_by: the backend that proved it unique and each clue needed.
        tries: the answers (maps, for a spec with an objective) drawn before
            one gave a unique full map.
        objective: for a spec with an objective, the unique optimum's score
            (``clues`` is then 0); None otherwise.
        difficulty, level: its grade (:mod:`gridlang.why.grade`) when it was made at a level
            (:mod:`gridlang.why.generation.aim`); None otherwise.
    """

    map: str
    url: str | None
    seed: int
    clues: int
    seconds: float
    checked_by: str
    tries: int = 1
    grid: list[str] = field(default_factory=list, repr=False)
    objective: int | None = None
    difficulty: float | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"map", "url", "seed", "clues", "seconds", "checked_by"}`` (and ``objective`` for a spec
        with one, ``difficulty`` and ``level`` for a puzzle made at a level), as ``generate --json`` prints."""
        out = {"map": self.map, "url": self.url, "seed": self.seed, "clues": self.clues,
               "seconds": round(self.seconds, 3), "checked_by": self.checked_by}
        if self.objective is not None:
            out["objective"] = self.objective
        if self.level is not None:
            out["difficulty"], out["level"] = self.difficulty, self.level
        return out

