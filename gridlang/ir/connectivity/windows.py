"""The window start: a first answer for a large flood fill, from the same model confined to balls around its roots.

On a large open map, "maximise what a flood fill from the roots reaches"
(enclose.horse's pen) is slow to solve mostly because good answers are
slow to find: on the near-empty 30x30 maps of the ``hard-tail`` set, with a
budget of 30 walls, CP-SAT's incumbent climbs from 144 at 9 s to the
optimum 157 at about 60 s, while proving that nothing beats 157, once that
is known, takes it some 25 to 30 s.

The same model with one more rule, "no member farther than ``R`` steps from
the roots" (unit clauses ``~x_v`` for the cells beyond), is a
*restriction*: each of its answers is an answer of the full model, whose
constraints it keeps. Around the roots, such windows are small models that
solve in seconds, and a window a little larger than the best pen holds that
pen. :func:`window_start` solves a few windows of growing radius, each
under its share of the time, and returns the best answer; the backend then
asks only for answers that beat it (an objective cutoff), so its search
goes to the proof at once.

Measured on the ``hard-tail`` maps (CP-SAT, this 2-core machine, budget 30
/ 35 / 40): windows holding 15, 30 and 50 % of the region's candidate
cells (radii 8, 11 and 14) found 157 / 187 / 248 in 6 / 7 to 11 / 5 s
(optima 157, 191, 252), and the cutoff search proved every optimum
within 36 to 41 s in all, against 54 to 75 s (budget 30, mostly
unproved at 60 s), 39 to 56 s and 26 to 31 s without them.
Given as a hint instead of a cutoff, the same answers left the proofs
near 60 s. MaxSAT's linear search, whose every call already asks for an
answer better than the incumbent, gets the same start: within 30 s it
ends at 111 and 177 on budgets 30 and 40 with it, 76 and 121 without;
within 600 s budget 40 stays unproved either way (209 with it).

The technique is large-neighbourhood search's fixing of variables by
distance (D. Pisinger, S. Ropke, "Large neighborhood search", Handbook of
Metaheuristics, 2010), done once, before the search, as a primal
heuristic.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Callable

from gridlang.core.deadline import Deadline
from gridlang.core.nodes import Record, field, replace
from gridlang.ir.backend import Result, Status
from gridlang.ir.model import Assignment, Clause, Connected, Model, Sense

if TYPE_CHECKING:  # pragma: no cover
    from gridlang.ir.backend import SolveOptions

WINDOW_MIN_CELLS = 700
"""A flood fill with fewer candidate cells gets no window start. No map of
the game's sets has more than 367 (weekly-03, which CP-SAT proves in
under a second without); the ``hard-tail`` maps have 760. Between the two
the threshold is a choice, not a measurement: no real map lies there."""

WINDOW_SHARES = (0.15, 0.30, 0.50)
"""The windows, as shares of the region's candidate cells they hold (each
the smallest ball around the roots holding at least that share). On the
hard tail, two runs each, the slowest of the three maps: 38 and 41 s with
these; 43 s with 20, 35 and 55 %; 43 and 45 s with 20 and 40 %, which
found less on budgets 35 and 40 (178 and 207)."""

WINDOW_TIME_SHARE = 0.25
"""Of the time left when the start begins, the share all windows may take."""

WINDOW_SECONDS = 10.0
"""Each window's limit, in seconds, when the command has none (or a long one)."""


class WindowStart(Record, frozen=False, slots=False):
    """What :func:`window_start` found.

    Attributes:
        assignment: the best answer of any window (an answer of the full
            model), or None.
        objective: its objective value, or None.
        radii: the windows solved, as BFS radii in steps from the roots.
        seconds: wall-clock seconds spent on the windows.
        statuses: each window's status (``OPTIMAL``, ``FEASIBLE``, ...).
    """

    assignment: Assignment | None = None
    objective: int | None = None
    radii: list[int] = field(default_factory=list)
    seconds: float = 0.0
    statuses: list[str] = field(default_factory=list)

    def stats(self) -> dict[str, object]:
        """The figures a backend adds to its ``stats`` (``--json``): ``window_radii`` and
        ``window_statuses`` (comma-separated, one per window), ``window_objective`` (None:
        no answer) and ``window_seconds``."""
        return {"window_radii": ", ".join(map(str, self.radii)), "window_statuses": ", ".join(self.statuses),
                "window_objective": self.objective, "window_seconds": round(self.seconds, 3)}


def windowed_region(model: Model) -> Connected | None:
    """The flood fill a window start applies to, or None.

    It applies to a model with an objective and exactly one flood fill
    (:class:`~gridlang.ir.model.Connected` with ``through`` and roots) of at
    least :data:`WINDOW_MIN_CELLS` candidate cells.
    """
    if model.objective is None:
        return None
    fills = [c for c in model.constraints if isinstance(c, Connected) and c.through is not None and c.roots]
    if len(fills) != 1 or len(fills[0].members) < WINDOW_MIN_CELLS:
        return None
    return fills[0]


def window_radii(model: Model, con: Connected) -> tuple[dict[int, int], list[int]]:
    """Steps from the roots to each candidate cell, and the radii of the windows.

    Steps are breadth-first over the candidate cells and the grid's
    adjacency (4-neighbours and links). The radii are the smallest balls
    holding :data:`WINDOW_SHARES` of the candidate cells, without repeats,
    each short of the farthest cell (a window holding every cell is the
    full model).

    Returns:
        ``(steps, radii)``: ``steps[cell]`` for every reached candidate;
        the radii ascending.
    """
    member = {c for c, _ in con.members}
    steps = model.grid.distances(member, [r for r in con.roots if r in member])
    ordered = sorted(steps.values())
    farthest = ordered[-1] if ordered else 0
    radii: list[int] = []
    for share in WINDOW_SHARES:
        r = ordered[min(int(share * len(member)), len(ordered) - 1)] if ordered else 0
        if r < farthest and r not in radii:
            radii.append(r)
    return steps, radii


def window(con: Connected, steps: dict[int, int], radius: int) -> tuple[Clause, ...]:
    """The unit clauses that confine ``con`` to the cells within ``radius`` steps of its roots."""
    return tuple(Clause((-lit,)) for cell, lit in con.members if steps.get(cell, radius + 1) > radius)


def window_start(model: Model, solve: Callable[[Model, Deadline], Result], deadline: Deadline,
                 con: Connected | None = None, log: Callable[[str], None] | None = None) -> WindowStart:
    """Solve ``model`` confined to windows of growing radius; the best answer.

    Each window gets an even part of :data:`WINDOW_TIME_SHARE` of the time
    left (at most :data:`WINDOW_SECONDS`); a window that runs out of time
    ends the start, since larger ones would take longer still.

    Args:
        model: the full model.
        solve: the backend's solve of a model under a deadline (without a
            window start of its own).
        deadline: the command's deadline; each window runs under a
            :meth:`~gridlang.core.deadline.Deadline.slice` of it.
        con: the flood fill (default: :func:`windowed_region`).
        log: prints one line per window (``--log``), or None.

    Returns:
        The start; its assignment, if any, meets every constraint of
        ``model``.
    """
    begun = time.perf_counter()
    out = WindowStart()
    con = con if con is not None else windowed_region(model)
    if con is None:
        return out
    steps, radii = window_radii(model, con)
    left = deadline.remaining()
    budget = WINDOW_SECONDS * len(radii) if left is None else WINDOW_TIME_SHARE * left
    maximize = model.objective is not None and model.objective.sense is Sense.MAXIMIZE
    for k, radius in enumerate(radii):
        spent = time.perf_counter() - begun
        share = min((budget - spent) / (len(radii) - k), WINDOW_SECONDS)
        if share <= 0 or deadline.expired():
            break
        with deadline.slice(share) as part:
            result = solve(model.with_constraints(window(con, steps, radius)), part)
        out.radii.append(radius)
        out.statuses.append(result.status.name)
        if log is not None:
            log(f"radius {radius} ({sum(1 for d in steps.values() if d <= radius)} of "
                f"{len(con.members)} cells): {result.status.name}, objective {result.objective}, "
                f"{time.perf_counter() - begun:.2f} s into the start")
        if result.assignment is not None and result.objective is not None and (
                out.objective is None or (result.objective > out.objective if maximize
                                          else result.objective < out.objective)):
            out.assignment, out.objective = result.assignment, result.objective
        if result.status is not Status.OPTIMAL:
            break
    out.seconds = time.perf_counter() - begun
    return out


def solve_with_window_start(model: Model, options: "SolveOptions", enabled: bool,
                            solve: Callable[[Model, "SolveOptions", WindowStart | None], Result]) -> Result:
    """A backend's solve, after a window start where one applies.

    The start runs when ``enabled`` (the backend's ``window`` setting),
    one solution is asked for (not ``--unique`` or ``--count``) and
    :func:`windowed_region` finds a flood fill; each window is
    ``solve(confined_model, options_with_the_window's_deadline, None)``.

    Args:
        model: the full model.
        options: the command's options; their deadline covers the start too.
        enabled: the backend's setting.
        solve: the backend's own solve of a model, from a start's answer
            (or None) as the first incumbent.

    Returns:
        The full solve's result: its ``seconds`` include the start's, and
        its ``stats`` the start's figures (:meth:`WindowStart.stats`).
        When the full solve ends with no answer (the time ran out while
        its model was built), the start's answer is the result, FEASIBLE.
    """
    window = None
    if enabled and options.solutions == 1 and windowed_region(model) is not None:
        if options.deadline is None:  # one clock for the windows and the solve after them
            options = replace(options, deadline=options.clock())
        window = window_start(model, lambda m, part: solve(m, replace(options, deadline=part), None),
                              options.deadline, log=_log if options.log else None)
    result = solve(model, options, window)
    if window is not None:
        if result.assignment is None and window.assignment is not None:
            result.status, result.assignment, result.objective = Status.FEASIBLE, window.assignment, window.objective
        result.seconds += window.seconds
        result.stats.update(window.stats())
    return result


def _log(line: str) -> None:
    """A window's line of ``--log``, on stderr with the solvers' own."""
    print("window start: " + line, file=sys.stderr, flush=True)
