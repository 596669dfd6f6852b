"""HiGHS glue shared by the MILP backend: its options checked, its threads, its saved solutions.

highspy is imported by the caller and passed in (or reached through the
solver object), so importing this module imports no solver.
"""

from __future__ import annotations

from typing import Any, Mapping

from gridlang.core.errors import BackendError
from gridlang.exporters.milp.linear.pyomo_model import PyomoModel
from gridlang.ir.model import Assignment, Model

_scheduler_threads: int | None = None
"""Threads HiGHS's global scheduler was started with in this process."""

POOL_LIMIT = 20
"""At most this many of HiGHS's saved solutions are separated per round."""


def check_highs_options(highspy: Any, options: Mapping[str, object]) -> None:
    """Refuse HiGHS options that HiGHS does not have, values it refuses, and
    options that change the model it solves or what its statuses mean.

    Pyomo's HiGHS interface ignores a refused option without a word, so a
    misspelt name would silently change nothing; a scratch ``Highs``
    instance tries each one first. Then :func:`refusal` decides: HiGHS has
    some ninety options and more in each release, so the ones passed on are
    listed (:data:`SEARCH_OPTIONS`, :data:`TIGHTER_ONLY`) and any other is
    refused unless given its HiGHS default.

    Raises:
        BackendError: an unknown option name, a value HiGHS refuses, or an
            option :func:`refusal` refuses.
    """
    scratch = highspy.Highs()
    scratch.setOptionValue("output_flag", False)
    for name, value in options.items():
        status, _ = scratch.getOptionType(name)
        if status != highspy.HighsStatus.kOk:
            raise BackendError(f"HiGHS has no option {name!r}")
        default = option_value(scratch, name)
        if _names_a_file(name) and value != default:  # HiGHS opens a log file as the option is set
            raise BackendError(f"HiGHS option {name!r} = {value!r} is refused: {FILES_REFUSED}")
        try:
            accepted = scratch.setOptionValue(name, value) == highspy.HighsStatus.kOk
        except TypeError:  # a value of no type HiGHS knows (a list, a dict)
            accepted = False
        if not accepted:
            raise BackendError(f"HiGHS refuses the value {value!r} for its option {name!r}")
        why = refusal(name, option_value(scratch, name), default)
        if why:
            raise BackendError(f"HiGHS option {name!r} = {value!r} is refused: {why}")


SEARCH_OPTIONS = frozenset({
    "presolve", "solver", "parallel", "run_crossover", "time_limit", "ranging", "random_seed", "threads",
    "objective_target", "blend_multi_objectives", "output_flag", "log_to_console", "iis_strategy",
    "simplex_strategy", "simplex_scale_strategy", "simplex_dual_edge_weight_strategy",
    "simplex_primal_edge_weight_strategy", "simplex_iteration_limit", "simplex_update_limit",
    "simplex_max_concurrency", "ipm_iteration_limit", "pdlp_scaling", "pdlp_iteration_limit",
    "pdlp_e_restart_method", "qp_iteration_limit", "qp_nullspace_limit", "qp_regularization_value",
    "hipo_system", "hipo_parallel_type", "hipo_block_size",
    "mip_detect_symmetry", "mip_allow_restart", "mip_max_nodes", "mip_max_stall_nodes", "mip_max_start_nodes",
    "mip_root_presolve_only", "mip_lifting_for_probing", "mip_max_leaves", "mip_max_improving_sols",
    "mip_lp_age_limit", "mip_pool_age_limit", "mip_pool_soft_limit", "mip_pscost_minreliable",
    "mip_min_cliquetable_entries_for_parallelism", "mip_heuristic_effort", "mip_heuristic_run_feasibility_jump",
    "mip_heuristic_run_rins", "mip_heuristic_run_rens", "mip_heuristic_run_root_reduced_cost",
    "mip_heuristic_run_zi_round", "mip_heuristic_run_shifting", "mip_rel_gap", "mip_abs_gap",
    "mip_min_logging_interval", "mip_lp_solver", "mip_ipm_solver",
})
"""HiGHS options (of those ``Highs.writeOptions`` lists, HiGHS 1.12) that
steer or stop the search, or its console output, and nothing else. One that
stops the search early (a gap, a node limit, ``objective_target``) leaves
the answer FEASIBLE with HiGHS's bound (:func:`gridlang.exporters.milp.linear.form.integral_bound`)."""

TIGHTER_ONLY = frozenset({
    "kkt_tolerance", "primal_feasibility_tolerance", "dual_feasibility_tolerance", "primal_residual_tolerance",
    "dual_residual_tolerance", "optimality_tolerance", "ipm_optimality_tolerance", "pdlp_optimality_tolerance",
    "mip_feasibility_tolerance",
})
"""Tolerances passed on at HiGHS's default or tighter: a looser one lets
HiGHS call an LP solved, and so prove a bound, that is not one."""

REFUSED_OPTIONS: dict[str, str] = {
    "solve_relaxation": "HiGHS would solve the LP relaxation, whose answer is fractional, not a puzzle's answer",
    "objective_bound": "HiGHS prunes every answer past it, and reports the best one left as optimal "
                       "(on daily-2026-01-07, -70 gave an 'optimal' 54, the optimum being 66)",
    "small_matrix_value": "HiGHS drops the coefficients below it, so it solves another model "
                          "(on daily-2026-01-07, 0.5 gave an 'optimal' 1, the optimum being 66)",
    "large_matrix_value": "HiGHS refuses or misreads a model with coefficients above it",
    "infinite_bound": "HiGHS reads the bounds beyond it as infinite, so it solves another model",
    "infinite_cost": "HiGHS reads the costs beyond it as infinite, so it solves another model",
    "user_objective_scale": "HiGHS scales the objective by a power of two and judges its gaps in the scaled "
                            "units (on daily-2026-01-07, -10 gave an 'optimal' 2, the optimum being 66)",
    "user_bound_scale": "HiGHS scales the bounds by a power of two and judges its tolerances in the scaled "
                        "units (on daily-2026-01-07, -10 gave an 'optimal' 2, the optimum being 66)",
    "allow_unbounded_or_infeasible": "HiGHS may then answer 'unbounded or infeasible' where gridlang needs "
                                     "to know which",
}
"""HiGHS options that change the model HiGHS solves or what its statuses
mean, each with the reason; any value but HiGHS's default is refused."""

OWN_OPTIONS: dict[str, str] = {
    "mip_improving_solution_save": "gridlang sets it to read HiGHS's improving solutions itself",
}
"""HiGHS options gridlang sets itself, refused at any value."""

FILES_REFUSED = "HiGHS would read or write files of its own; `gridlang export` writes the model (LP, MPS)"
"""Why HiGHS's options naming files are refused (:func:`_names_a_file`)."""


def _names_a_file(name: str) -> bool:
    """Whether HiGHS option ``name`` reads or writes a file, or shapes one."""
    return name.startswith(("write_", "read_")) or name.endswith("_file") or name == "glpsol_cost_row_location"


def refusal(name: str, value: object, default: object) -> str | None:
    """Why HiGHS option ``name`` set to ``value`` is refused, or None.

    Args:
        name: a HiGHS option's name.
        value: the value HiGHS took (read back, so ``"off"`` and ``False`` agree).
        default: HiGHS's default for it, read from a fresh ``Highs``.
    """
    if name in OWN_OPTIONS:
        return OWN_OPTIONS[name]
    if name in SEARCH_OPTIONS:
        return None
    if name in TIGHTER_ONLY:
        if isinstance(value, (int, float)) and isinstance(default, (int, float)) and value > default:
            return (f"it is looser than HiGHS's default {default:g}, which lets HiGHS answer with fractional "
                    f"columns or prove a bound that is not one")
        return None
    if value == default:
        return None
    if name in REFUSED_OPTIONS:
        return REFUSED_OPTIONS[name]
    return ("it is not among the options gridlang passes on to HiGHS (search, limits and console output, "
            "tolerances no looser than HiGHS's own): gridlang.exporters.milp.linear.highs.SEARCH_OPTIONS lists them")


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
