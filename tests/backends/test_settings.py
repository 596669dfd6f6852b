"""Typed backend settings: read from ``SolveOptions.extra`` once, before any solving."""

from __future__ import annotations

import dataclasses

import pytest
from tiny import cell_model, grid_of

from gridlang.core.errors import BackendError
from gridlang.core.settings import Settings
from gridlang.exporters.cpsat.settings import CpSatSettings
from gridlang.exporters.maxsat.settings import MaxSatSettings
from gridlang.exporters.milp.backend import MilpSettings
from gridlang.ir.backend import SolveOptions, get_backend
from gridlang.ir.model import Clause


def test_dotted_names_reach_into_groups_and_bare_keys_are_read_from_python():
    s = MaxSatSettings.read("maxsat", {"maxsat.lsu.solver": "g3", "algorithm": "rc2", "rc2.exhaust": False,
                                       "cpsat.num_workers": 4, "milp.warmstart": False, "unknown": 1})
    assert (s.algorithm, s.lsu.solver, s.rc2.exhaust, s.lsu.max_units) == ("rc2", "g3", False, 100000)
    assert MaxSatSettings.names() == sorted(s.flat())
    assert s.flat()["cuts.seed"] is True and s.flat()["lsu.solver"] == "g3"


def test_settings_are_frozen():
    s = MilpSettings.read("milp", {"milp.highs_options.presolve": "off"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.seed_cuts = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.highs_options["presolve"] = "on"  # type: ignore[index]
    assert MilpSettings().highs_options == {}


@pytest.mark.parametrize("cls,backend,extra,words", [
    (MaxSatSettings, "maxsat", {"maxsat.lsu": "g3"}, "backend 'maxsat' has no setting 'lsu'; it has algorithm, "
                                                     "card.encoding, conflicts, cuts.root_side"),
    (MaxSatSettings, "maxsat", {"maxsat.lsu.solverr": "g3"}, "backend 'maxsat' has no setting 'lsu.solverr'"),
    (MaxSatSettings, "maxsat", {"maxsat.rc2.minz": "yes"},
     "backend 'maxsat': setting 'rc2.minz' takes true or false, not 'yes'"),
    (MaxSatSettings, "maxsat", {"conflicts": 1.5}, "setting 'conflicts' takes an integer, not 1.5"),
    (MaxSatSettings, "maxsat", {"maxsat.card.encoding": "unary"}, "unknown cardinality encoding 'unary'"),
    (MaxSatSettings, "maxsat", {"maxsat.lsu.phases": "true"}, "unknown phases 'true'; choose auto, soft or none"),
    (MaxSatSettings, "maxsat", {"maxsat.lsu.start": "cadical195"},
     "setting 'lsu.start': PySAT cannot interrupt 'cadical195'; choose one it can, such as mgh or g4"),
    (MaxSatSettings, "maxsat", {"maxsat.lsu.start": "zz"}, "setting 'lsu.start': PySAT has no SAT solver 'zz'"),
    (MaxSatSettings, "maxsat", {"maxsat.lsu.start_seconds": -1.0},
     "setting 'lsu.start_seconds' must be at least 0, not -1.0"),
    (MilpSettings, "milp", {"milp.warmstart.x": True}, "backend 'milp' has no setting 'warmstart.x'"),
    (MilpSettings, "milp", {"milp.highs_options.presolve": "maybe"},
     "HiGHS refuses the value 'maybe' for its option 'presolve'"),
    (CpSatSettings, "cpsat", {"cpsat.ListFields": 1}, "CP-SAT has no parameter 'ListFields'"),
    (CpSatSettings, "cpsat", {"cpsat.subsolvers": 3},
     "CP-SAT parameter 'subsolvers' is a list; --set gives only extra_subsolvers, filter_subsolvers, "
     "ignore_subsolvers, subsolvers, as names separated by commas, not 3"),
    (CpSatSettings, "cpsat", {"cpsat.restart_algorithms": "LUBY_RESTART"},
     "CP-SAT parameter 'restart_algorithms' is a list; --set gives only"),
    (CpSatSettings, "cpsat", {"cpsat.window": "maybe"},
     "backend 'cpsat': setting 'window' takes true or false, not 'maybe'"),
])
def test_refusals_are_one_sentence(cls, backend, extra, words):
    with pytest.raises(BackendError) as e:
        cls.read(backend, extra)
    assert words in e.value.message and "\n" not in e.value.message


def test_cpsat_takes_any_parameter_of_its_proto():
    s = CpSatSettings.read("cpsat", {"cpsat.num_workers": 4, "cpsat.random_seed": 7, "maxsat.algorithm": "rc2"})
    assert dict(s.parameters) == {"num_workers": 4, "random_seed": 7}
    s = CpSatSettings.read("cpsat", {"cpsat.subsolvers": "core, no_lp", "cpsat.ignore_subsolvers": "lns"})
    assert dict(s.parameters) == {"subsolvers": "core, no_lp", "ignore_subsolvers": "lns"}
    assert s.window is True  # gridlang's own setting, not a parameter of CP-SAT
    s = CpSatSettings.read("cpsat", {"cpsat.window": False, "cpsat.num_workers": 4})
    assert s.window is False and dict(s.parameters) == {"num_workers": 4}


@pytest.mark.parametrize("backend,key,value", [
    ("cpsat", "cpsat.num_wokers", 4), ("milp", "milp.seed_cuts", 3), ("maxsat", "maxsat.conflicts", 0),
])
def test_a_bad_setting_stops_a_session_before_it_solves(backend, key, value, monkeypatch):
    engine = get_backend(backend)

    def no_solving(*args, **kwargs):
        raise AssertionError("solved with a bad setting")

    monkeypatch.setattr(type(engine), "solve", no_solving)
    model = cell_model(grid_of(1, 2), [Clause((1,))])
    with pytest.raises(BackendError):
        engine.session(model, SolveOptions(extra={key: value}))


def test_every_backend_has_frozen_settings(backend):
    engine = get_backend(backend)
    settings = engine.configure(SolveOptions())
    assert type(settings) is engine.settings_class and isinstance(settings, Settings)
    first = next(iter(settings.flat())).split(".")[0]
    with pytest.raises(AttributeError):  # dataclasses' FrozenInstanceError, or gridlang.core.nodes' one
        setattr(settings, first, getattr(settings, first))
