"""HiGHS glue shared by the MILP backend: its options checked, its threads, its saved solutions.

highspy is imported by the caller and passed in (or reached through the
solver object), so importing this module imports no solver.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from ..errors import BackendError
from ..ir import Assignment, Model
from .form import BINARY_TOL
from .pyomo_model import PyomoModel

_scheduler_threads: int | None = None
"""Threads HiGHS's global scheduler was started with in this process."""

POOL_LIMIT = 20
"""At most this many of HiGHS's saved solutions are separated per round."""


def check_highs_options(highspy: Any, options: Mapping[str, object]) -> None:
    """Refuse HiGHS options that HiGHS does not have or whose value it refuses.

    Pyomo's HiGHS interface ignores a refused option without a word, so a
    misspelt name would silently change nothing; a scratch ``Highs``
    instance tries each one first.

    Raises:
        BackendError: an unknown option name or a value HiGHS refuses.
    """
    scratch = highspy.Highs()
    scratch.setOptionValue("output_flag", False)
    for name, value in options.items():
        status, _ = scratch.getOptionType(name)
        if status != highspy.HighsStatus.kOk:
            raise BackendError(f"HiGHS has no option {name!r}")
        try:
            accepted = scratch.setOptionValue(name, value) == highspy.HighsStatus.kOk
        except TypeError:  # a value of no type HiGHS knows (a list, a dict)
            accepted = False
        if not accepted:
            raise BackendError(f"HiGHS refuses the value {value!r} for its option {name!r}")
        why = _refused(name, value)
        if why:
            raise BackendError(f"HiGHS option {name!r} = {value!r} is refused: {why}")


REFUSED_OPTIONS: dict[str, tuple[tuple[object, ...], str]] = {
    "solve_relaxation": ((False, "off", "false"),
                         "HiGHS would solve the LP relaxation, whose answer is fractional, not a puzzle's answer"),
    "objective_bound": ((math.inf, "inf"),
                        "HiGHS prunes every answer past it, and reports the best one left as optimal "
                        "(on daily-2026-01-07, -70 gave an 'optimal' 54, the optimum being 66)"),
}
"""HiGHS options that change what its answers or statuses mean: name -> (the values
allowed, HiGHS's defaults; the reason for refusing any other). Options that only
stop the search early (``mip_rel_gap``, ``mip_abs_gap``, ``mip_max_nodes``,
``objective_target``, ``time_limit``...) are allowed: the answer is then
FEASIBLE with HiGHS's bound."""

TOLERANCES = ("mip_feasibility_tolerance", "primal_feasibility_tolerance")
"""Tolerances that would let HiGHS answer with fractional binary columns when loose."""


def _refused(name: str, value: object) -> str | None:
    """Why HiGHS option ``name = value`` is refused, or None."""
    if name in REFUSED_OPTIONS and value not in REFUSED_OPTIONS[name][0]:
        return REFUSED_OPTIONS[name][1]
    if name in TOLERANCES and isinstance(value, (int, float)) and value > BINARY_TOL:
        return (f"gridlang reads a binary column within {BINARY_TOL:g} of 0 or 1; a looser tolerance lets "
                "HiGHS answer with fractions")
    return None


def option_value(highs: Any, name: str) -> object:
    """HiGHS's current value of option ``name`` (highspy returns ``(status, value)`` or the value)."""
    got = highs.getOptionValue(name)
    return got[1] if isinstance(got, tuple) else got


def set_threads(highs: Any, threads: int | None) -> None:
    """Ask for ``threads`` HiGHS threads (None: leave HiGHS's default).

    HiGHS keeps one task scheduler per process and refuses a run whose
    ``threads`` option differs from the running scheduler's, so the scheduler
    is restarted whenever an explicit count differs from the last one set
    here (or none was set here: another caller may have started it).
    """
    global _scheduler_threads
    if threads is None:
        return
    if _scheduler_threads != threads:
        highs.resetGlobalScheduler(True)
        _scheduler_threads = threads
    highs.setOptionValue("threads", threads)


def saved_answers(opt: Any, pyo: PyomoModel, model: Model, limit: int) -> list[Assignment]:
    """The improving solutions HiGHS saved in its last run, as assignments.

    Needs the HiGHS option ``mip_improving_solution_save``. Columns the
    persistent interface never loaded (in no row yet) count as false;
    fractional or malformed entries are skipped.
    """
    col_of = opt._pyomo_var_to_solver_var_map
    index = [col_of.get(id(pyo.x[v])) for v in range(model.num_vars)]
    out = []
    for sol in list(opt._solver_model.getSavedMipSolutions())[-limit:]:
        values = sol.col_value
        try:
            out.append(Assignment(tuple(i is not None and values[i] > 0.5 for i in index)))
        except (IndexError, TypeError):
            continue
    return out
