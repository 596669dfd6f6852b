"""Independent verifiers, written from each puzzle's published rules.

A verifier reads the raw map (its characters) and the decoded
:class:`~gridlang.solution.Solution`; it never reads the IR or the spec's
constraints, so an encoding bug or a solver bug shows up as a failed check.
It recomputes the score itself, and that score is the one gridlang reports.

Verifiers are found by the spec's ``puzzle "NAME"`` statement (case-insensitive). A puzzle with
no verifier here is checked against the IR alone
(:func:`gridlang.ir.violations`), and reports say so.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

from ..grid import Grid
from ..solution import Solution


@dataclass
class Verdict:
    """The outcome of a verification.

    Attributes:
        ok: every rule holds.
        score: the score computed from the rules (None for puzzles without one).
        problems: one sentence per broken rule.
        verifier: which verifier ran (``enclose.horse``).
        details: figures for the report (``walls``, ``enclosed`` cells...).
    """

    ok: bool
    score: int | None
    problems: list[str] = field(default_factory=list)
    verifier: str = ""
    details: dict[str, object] = field(default_factory=dict)


# puzzle name -> module in this package
_VERIFIERS = {
    "enclose.horse": "horse",
    "snake eggs": "snake_eggs",
}


def find_verifier(puzzle: str) -> Callable[..., Verdict] | None:
    """The ``verify(grid, solution, params, variant)`` function of a puzzle, or None."""
    module = _VERIFIERS.get(puzzle.lower())
    if module is None:
        return None
    return importlib.import_module(f"{__name__}.{module}").verify


def find_renderer(puzzle: str) -> Callable[[Grid, Solution], str] | None:
    """The ``render(grid, solution)`` function of a puzzle, or None."""
    module = _VERIFIERS.get(puzzle.lower())
    if module is None:
        return None
    return getattr(importlib.import_module(f"{__name__}.{module}"), "render", None)
