"""CP-SAT's enum parameters through ``--set``: a value's name or number, checked and set on the solver's proto."""

from __future__ import annotations

import subprocess
import sys

import pytest
from horse_data import HORSE_DATA, SPECS

from gridlang.core.errors import BackendError
from gridlang.exporters.cpsat.settings import CpSatSettings, set_parameter
from gridlang.ir.backend import SolveOptions, Status
from gridlang.solving.pipeline import solve


def enum_fields() -> dict[str, list[tuple[str, int]]]:
    """Every enum parameter of ``SatParameters`` that ``--set`` can give -> its (name, number) values."""
    from ortools.sat import sat_parameters_pb2

    return {f.name: [(v.name, v.number) for v in f.enum_type.values]
            for f in sat_parameters_pb2.SatParameters.DESCRIPTOR.fields
            if f.enum_type is not None and not f.is_repeated}


def test_every_enum_parameter_takes_its_first_and_last_value_by_name_or_number():
    from ortools.sat.python import cp_model_helper

    fields = enum_fields()
    assert {"search_branching", "preferred_variable_order", "initial_polarity", "fp_rounding"} <= set(fields)
    for name, values in fields.items():
        for value, number in (values[0], values[-1]):
            for given in (value, value.lower(), number):
                s = CpSatSettings.read("cpsat", {f"cpsat.{name}": given})
                assert dict(s.parameters) == {name: given}
                params = cp_model_helper.SatParameters()
                set_parameter(params, name, given)
                assert int(getattr(params, name)) == number, (name, given)


@pytest.mark.parametrize("value", ["BOGUS", 99, True, 1.0, ""])
def test_an_enum_parameter_refuses_anything_else_naming_its_values(value):
    with pytest.raises(BackendError) as e:
        CpSatSettings.read("cpsat", {"cpsat.search_branching": value})
    assert e.value.message == ("CP-SAT parameter 'search_branching' takes one of AUTOMATIC_SEARCH, FIXED_SEARCH, "
                               "PORTFOLIO_SEARCH, LP_SEARCH, PSEUDO_COST_SEARCH, "
                               "PORTFOLIO_WITH_QUICK_RESTART_SEARCH, HINT_SEARCH, PARTIAL_FIXED_SEARCH, "
                               f"RANDOMIZED_SEARCH (or their numbers), not {value!r}")


def test_enum_values_reach_the_solver_and_it_solves_the_daily_to_its_optimum():
    report = solve(SPECS["standard"], HORSE_DATA / "daily-2026-01-07.txt", {"budget": "12"}, "cpsat",
                   SolveOptions(time_limit=300, extra={"cpsat.initial_polarity": "polarity_false",
                                                       "cpsat.preferred_variable_order": 2}))
    assert report.result.status is Status.OPTIMAL
    assert report.verdict is not None and report.verdict.ok
    assert report.score == 66


def test_a_bogus_enum_value_is_a_clean_error_of_the_cli():
    proc = subprocess.run([sys.executable, "-m", "gridlang", "solve", str(SPECS["standard"]),
                           "--map", str(HORSE_DATA / "daily-2026-01-07.txt"), "--budget", "12", "-b", "cpsat",
                           "--set", "cpsat.search_branching=BOGUS"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "CP-SAT parameter 'search_branching' takes one of AUTOMATIC_SEARCH, FIXED_SEARCH," in proc.stderr
    assert "(or their numbers), not 'BOGUS'" in proc.stderr
    assert "this is a bug" not in proc.stderr and "Traceback" not in proc.stderr
