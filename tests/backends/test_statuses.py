"""A status says what the solver proved: solver settings that stop early or change meaning.

OPTIMAL only with a proof: a gap, a conflict or node limit given with
``--set`` ends in FEASIBLE with the bound proved (or UNKNOWN), on every
backend and through ``auto``; ``unique`` is settled only from a complete
search; a setting that changes what a solver's answers mean is refused by
name. The optimum of daily-2026-01-07 is 66 (tests/data/horse/manifest.json).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from horse_data import REPO, SPECS

from gridlang.core.errors import BackendError
from gridlang.ir.backend import SolveOptions, Status
from gridlang.solving.pipeline import solve

DAILY_07 = REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"
OPTIMUM = 66


def _solve(backend: str, settings: dict, unique: bool = False, **options):
    return solve(SPECS["standard"], DAILY_07, None, backend, SolveOptions(extra=settings, **options), unique=unique)


@pytest.mark.parametrize("backend", ["cpsat", "auto"])
@pytest.mark.parametrize("setting", [{"cpsat.absolute_gap_limit": 1000}, {"cpsat.relative_gap_limit": 0.9}])
def test_a_cpsat_gap_gives_feasible_with_its_bound_and_settles_no_uniqueness(backend, setting):
    report = _solve(backend, setting, unique=True)
    res = report.result
    assert res.status is Status.FEASIBLE
    assert report.verdict.ok and res.objective == report.score <= OPTIMUM
    assert res.bound >= OPTIMUM > res.objective  # a bound, not the answer's value
    assert report.unique is None and len(report.solutions) == 1


def test_a_tight_cpsat_gap_still_proves_what_it_proves():
    res = _solve("cpsat", {"cpsat.relative_gap_limit": 0.0}).result
    assert (res.status, res.objective, res.bound) == (Status.OPTIMAL, OPTIMUM, OPTIMUM)


@pytest.mark.parametrize("settings,options", [({"milp.highs_options.mip_abs_gap": 1000.0}, {}),
                                              ({}, {"mip_gap": 0.5})])
def test_a_milp_gap_gives_feasible_with_its_bound(settings, options):
    report = _solve("milp", settings, **options)
    assert report.result.status is Status.FEASIBLE
    assert report.result.bound >= OPTIMUM > report.result.objective


def test_a_cpsat_conflict_limit_without_a_time_limit_ends():
    # CP-SAT counts conflicts per internal search: with several workers the
    # run never stopped at the limit (still running after 45 s); one worker does.
    cmd = [sys.executable, "-m", "gridlang", "solve", str(SPECS["standard"]), "--map", str(DAILY_07),
           "--backend", "cpsat", "--set", "cpsat.max_number_of_conflicts=1"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert "no solution found before the solver stopped at a limit of its own" in done.stdout


def test_a_cpsat_conflict_limit_with_several_workers_is_refused():
    for settings, options in (({"cpsat.num_workers": 4}, {}), ({}, {"workers": 4})):
        with pytest.raises(BackendError, match="'max_number_of_conflicts' holds for one worker only"):
            _solve("cpsat", {"cpsat.max_number_of_conflicts": 100, **settings}, **options)


@pytest.mark.parametrize("backend,settings,words", [
    ("cpsat", {"cpsat.fix_variables_to_their_hinted_value": True},
     "CP-SAT parameter 'fix_variables_to_their_hinted_value' is refused: gridlang hints each cut round"),
    ("cpsat", {"cpsat.enumerate_all_solutions": True},
     "CP-SAT parameter 'enumerate_all_solutions' is refused"),
    ("asp", {"asp.options.enum-mode": "cautious"},
     "clingo option '--enum-mode=cautious' is refused: its answer would be the brave or cautious consequences"),
    ("asp", {"asp.options.e": "brave"}, "clingo option '--enum-mode=brave' is refused"),
    ("asp", {"asp.options.project": "auto"}, "clingo option '--project=auto' is refused"),
    ("asp", {"asp.options.opt-mode": "ignore"}, "clingo option '--opt-mode=ignore' is refused"),
    ("asp", {"asp.options.supp-models": True}, "clingo option '--supp-models' is refused"),
    ("asp", {"asp.options.enum": "cautious"},
     "clingo option '--enum-mode=cautious' (clingo takes '--enum' for it) is refused: its answer would be"),
    ("asp", {"asp.options.no-ufs": True}, "clingo option '--no-ufs-check' (clingo takes '--no-ufs' for it)"),
    ("asp", {"asp.options.supp": True}, "clingo option '--supp-models' (clingo takes '--supp' for it)"),
    ("asp", {"asp.options.mode": "1"}, "clingo option '--models=1' (clingo takes '--mode' for it)"),
    ("auto", {"asp.options.enum-mode": "cautious"}, "clingo option '--enum-mode=cautious' is refused"),
    ("milp", {"milp.highs_options.objective_bound": -70.0},
     "HiGHS option 'objective_bound' = -70.0 is refused: HiGHS prunes every answer past it"),
    ("milp", {"milp.highs_options.objective_bound": 0.0}, "HiGHS option 'objective_bound' = 0.0 is refused"),
    ("milp", {"milp.highs_options.solve_relaxation": True}, "HiGHS option 'solve_relaxation' = True is refused"),
    ("milp", {"milp.highs_options.mip_feasibility_tolerance": 0.5},
     "HiGHS option 'mip_feasibility_tolerance' = 0.5 is refused"),
    ("milp", {"milp.highs_options.dual_feasibility_tolerance": 1e-3},
     "HiGHS option 'dual_feasibility_tolerance' = 0.001 is refused: it is looser than HiGHS's default"),
    ("milp", {"milp.highs_options.small_matrix_value": 0.5},
     "HiGHS option 'small_matrix_value' = 0.5 is refused: HiGHS drops the coefficients below it"),
    ("milp", {"milp.highs_options.user_objective_scale": -10},
     "HiGHS option 'user_objective_scale' = -10 is refused: HiGHS scales the objective"),
    ("milp", {"milp.highs_options.user_bound_scale": -10},
     "HiGHS option 'user_bound_scale' = -10 is refused: HiGHS scales the bounds"),
    ("milp", {"milp.highs_options.infinite_bound": 1e16}, "HiGHS option 'infinite_bound' = 1e+16 is refused"),
    ("milp", {"milp.highs_options.log_file": "x.log"}, "HiGHS would read or write files of its own"),
    ("milp", {"milp.highs_options.mip_improving_solution_save": False},
     "'mip_improving_solution_save' = False is refused: gridlang sets it"),
])
def test_settings_that_change_what_answers_mean_are_refused_by_name(backend, settings, words):
    with pytest.raises(BackendError) as e:
        _solve(backend, settings)
    assert words in str(e.value)


@pytest.mark.parametrize("backend,settings", [
    ("asp", {"asp.options.enum-mode": "record"}), ("asp", {"asp.options.solve-limit": "100000"}),
    ("asp", {"asp.options.enum": "record"}),
    ("milp", {"milp.highs_options.mip_feasibility_tolerance": 1e-6}),
    ("milp", {"milp.highs_options.dual_feasibility_tolerance": 1e-9}),
    ("milp", {"milp.highs_options.small_matrix_value": 1e-9}),
    ("milp", {"milp.highs_options.objective_bound": "inf"}),
    ("milp", {"milp.highs_options.mip_heuristic_effort": 0.3}),
])
def test_settings_that_keep_the_meaning_are_accepted(backend, settings):
    res = _solve(backend, settings, time_limit=120).result
    assert (res.status, res.objective) == (Status.OPTIMAL, OPTIMUM)


@pytest.mark.parametrize("settings", [{"asp.options.solve-limit": "10"}, {"asp.options.opt-stop": "100"}])
def test_a_clingo_limit_gives_no_proof(settings):
    res = _solve("asp", settings).result
    assert res.status in (Status.FEASIBLE, Status.UNKNOWN)
    if res.status is Status.FEASIBLE:
        assert res.bound >= OPTIMUM >= res.objective


@pytest.mark.parametrize("fork", [True, False])
def test_stratified_rc2_without_soft_clauses_solves(tmp_path, fork):
    # The pen is the horse alone: every objective term is fixed, no soft clause is left,
    # and PySAT's RC2Stratified failed on that formula ("'NoneType' object is not iterable").
    path = tmp_path / "one.txt"
    path.write_text("budget: 0\n~~~\n~H~\n~~~\n")
    report = solve(SPECS["standard"], path, None, "maxsat", SolveOptions(extra={
        "maxsat.algorithm": "rc2", "maxsat.rc2.stratified": True, "maxsat.rc2.fork": fork}))
    assert (report.result.status, report.score) == (Status.OPTIMAL, 1)


def test_every_highs_option_is_classed_and_every_classed_name_is_highs_own(tmp_path):
    """HiGHS's options, as ``Highs.writeOptions`` lists them, are each passed on
    (a search option or a tolerance) or refused with a reason of their own; a
    name that is neither (a new HiGHS's) is refused unless at its default."""
    highspy = pytest.importorskip("highspy")
    from gridlang.exporters.milp.linear.highs import OWN_OPTIONS, REFUSED_OPTIONS, SEARCH_OPTIONS, TIGHTER_ONLY, refusal

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.writeOptions(str(tmp_path / "options.txt"))
    listed = {line.split("=")[0].strip() for line in (tmp_path / "options.txt").read_text().splitlines()
              if "=" in line and not line.startswith("#")}
    classed = SEARCH_OPTIONS | TIGHTER_ONLY | set(REFUSED_OPTIONS) | set(OWN_OPTIONS)
    for name in classed:
        assert h.getOptionType(name)[0] == highspy.HighsStatus.kOk, name
    assert len(listed) > 80 and len(classed & listed) > 70
    for name in listed - classed:  # HiGHS's files, report formats
        assert refusal(name, "x", "") is not None and refusal(name, "", "") is None, name
    log = tmp_path / "highs.log"
    with pytest.raises(BackendError, match="HiGHS would read or write files of its own"):
        _solve("milp", {"milp.highs_options.log_file": str(log)})
    assert not log.exists()  # refused before HiGHS opened it
    assert refusal("some_option_of_a_later_highs", 1, 0).startswith("it is not among the options")
    assert refusal("some_option_of_a_later_highs", 0, 0) is None


@pytest.mark.parametrize("backend", ["cpsat", "asp"])
def test_a_search_stopped_by_ctrl_c_before_any_answer_says_so_not_the_time_limit(backend):
    """A Ctrl-C (the deadline stopped, as :func:`gridlang.core.deadline.catch_interrupt`
    stops it) before the first answer: the text names Ctrl-C, not a time limit
    of 30 s that never ran out, nor a limit of the solver's own."""
    from gridlang.core.deadline import Deadline
    from gridlang.service.text import report_text

    deadline = Deadline(30)
    deadline.stop()
    report = solve(SPECS["standard"], DAILY_07, None, backend, SolveOptions(deadline=deadline))
    assert report.interrupted and report.solution is None and report.result.status is Status.UNKNOWN
    for limit in (30.0, None):
        text = report_text(report, limit)
        assert "no solution found before Ctrl-C stopped the search, and none ruled out" in text
        assert "time limit" not in text and "a limit of its own" not in text
