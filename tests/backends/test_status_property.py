"""Property: whatever the map and the solver settings, a status says what was proved.

Random small enclose.horse maps (the four variants, 1x1 to 5x5, random
budgets, tiles, portals and wall prices) are solved on a random backend
with random settings drawn from each backend's documented list (the
README's ``--set`` names and each settings dataclass), a random
connectivity strategy, sometimes a time limit and sometimes ``--unique``.
The outcome is checked against the brute-force optimum of
:mod:`horse_brute`, which shares no code with the compiler:

* OPTIMAL: the objective and the bound are the optimum;
* FEASIBLE: a verified answer no better than the optimum, and a bound no
  better than it either way; only when a limit was given (a time limit,
  a gap, a conflict, node or solution limit);
* UNKNOWN: only when a limit was given, and its bound (if any) valid;
* INFEASIBLE: only when no wall set encloses what the rules ask;
* ``unique`` true or false only after a proved optimum, and then what the
  brute force counts.

The default run tries a small fixed sample (a few seconds); ``pytest -m
fuzz`` runs thousands of random ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from horse_brute import Optimum, optimum
from horse_data import SPECS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridlang.ir.backend import SolveOptions, Status, backend_class
from gridlang.ir.transforms import CARD_ENCODINGS
from gridlang.solving.pipeline import load, solve_model

QUICK = settings(max_examples=12, derandomize=True, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
LONG = settings(max_examples=2000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

TILES = ".....~~~CGS"
"""Tiles drawn for the cells that hold no animal or portal: mostly grass and water."""

SETTINGS: dict[str, dict[str, st.SearchStrategy]] = {
    "cpsat": {
        "cpsat.num_workers": st.sampled_from([1, 2, 4]),
        "cpsat.subsolvers": st.sampled_from(["max_lp", "max_lp,core", "default_lp,no_lp"]),
        "cpsat.window": st.booleans(),
        "cpsat.absolute_gap_limit": st.sampled_from([0.0, 0.5, 1.0, 3.0, 1000.0]),
        "cpsat.relative_gap_limit": st.sampled_from([0.0, 0.01, 0.2, 0.9]),
        "cpsat.max_number_of_conflicts": st.sampled_from([1, 5, 50, 100000]),
        "cpsat.stop_after_first_solution": st.booleans(),
        "cpsat.max_deterministic_time": st.sampled_from([0.0001, 0.01, 10.0]),
        "cpsat.linearization_level": st.sampled_from([0, 1, 2]),
        "cpsat.random_seed": st.integers(0, 1000),
        "cpsat.cp_model_presolve": st.booleans(),
        "cpsat.symmetry_level": st.sampled_from([0, 2, 4]),
    },
    "milp": {
        "milp.warmstart": st.booleans(),
        "milp.pool_cuts": st.booleans(),
        "milp.seed_cuts": st.sampled_from([0, 1, 2]),
        "milp.highs_options.presolve": st.sampled_from(["off", "on"]),
        "milp.highs_options.mip_rel_gap": st.sampled_from([0.0, 0.1, 0.9]),
        "milp.highs_options.mip_abs_gap": st.sampled_from([0.5, 1.0, 100.0]),
        "milp.highs_options.mip_max_nodes": st.sampled_from([1, 10]),
        "milp.highs_options.mip_max_improving_sols": st.sampled_from([1, 3]),
        "milp.highs_options.objective_target": st.sampled_from([0.0, 5.0]),
    },
    "maxsat": {
        "maxsat.algorithm": st.sampled_from(["auto", "lsu", "rc2"]),
        "maxsat.conflicts": st.sampled_from([1, 10, 100000]),
        "maxsat.lsu.solver": st.sampled_from(["cadical195", "g3", "g4", "mgh"]),
        "maxsat.lsu.start": st.sampled_from(["auto", "none", "mgh", "g4"]),
        "maxsat.lsu.start_seconds": st.sampled_from([0.0, 0.5]),
        "maxsat.lsu.max_units": st.sampled_from([1, 100000]),
        "maxsat.lsu.phases": st.sampled_from(["auto", "soft", "none"]),
        "maxsat.rc2.solver": st.sampled_from(["g3", "g4", "mgh", "cd19"]),
        "maxsat.rc2.stratified": st.booleans(),
        "maxsat.rc2.exhaust": st.booleans(),
        "maxsat.rc2.minz": st.booleans(),
        "maxsat.rc2.adapt": st.booleans(),
        "maxsat.rc2.fork": st.booleans(),
        "maxsat.sat.solver": st.sampled_from(["g3", "cadical195"]),
        "maxsat.card.encoding": st.sampled_from(CARD_ENCODINGS),
        "maxsat.cuts.root_side": st.booleans(),
        "maxsat.cuts.seed": st.booleans(),
        "maxsat.cuts.seed_pairs": st.booleans(),
        "maxsat.window": st.booleans(),
    },
    "asp": {
        "asp.opt_strategy": st.sampled_from(["auto", "bb", "usc", "bb,lin", "usc,oll"]),
        "asp.threads": st.sampled_from([0, 1, 2]),
        "asp.trans_ext": st.sampled_from(["auto", "card", "dynamic", "all", "no"]),
        "asp.lookahead": st.sampled_from(["auto", "atom", "hybrid", "no"]),
        "asp.options.configuration": st.sampled_from(["auto", "crafty", "jumpy", "tweety", "trendy", "handy"]),
        "asp.options.solve-limit": st.sampled_from(["5", "100", "100000"]),
        "asp.options.opt-stop": st.sampled_from(["0", "50"]),
        "asp.options.enum-mode": st.sampled_from(["auto", "bt", "record"]),
        "asp.options.heuristic": st.sampled_from(["Vsids", "Berkmin", "Domain"]),
        "asp.options.seed": st.sampled_from(["1", "42"]),
    },
    "auto": {
        "auto.race": st.sampled_from(["", "asp,cpsat", "cpsat,maxsat", "milp,cpsat"]),
        "auto.yield_after": st.sampled_from([0.0, 1.0]),
        "auto.first_race_after": st.sampled_from([0.0, 0.45]),
        "auto.race_after": st.sampled_from([0.0, 0.1]),
    },
}
"""Each backend's documented settings (README, ``CpSatSettings`` and CP-SAT's
parameters, ``MilpSettings`` and HiGHS's options, ``MaxSatSettings``,
``AspSettings`` and clingo's options, ``AutoSettings``), with values that
keep them meaningful."""


def limits(key: str, value: object) -> bool:
    """Whether ``key = value`` may stop a search before its proof (a gap, or a conflict, node or solution limit)."""
    name = key.split(".")[-1]
    if name == "absolute_gap_limit" or name == "mip_abs_gap":
        return value >= 1  # below 1 an integer objective is proved all the same
    if name in ("relative_gap_limit", "mip_rel_gap"):
        return value > 0
    if name == "stop_after_first_solution":
        return bool(value)
    return name in ("max_number_of_conflicts", "max_deterministic_time", "mip_max_nodes", "mip_max_improving_sols",
                    "objective_target", "solve-limit", "opt-stop")


@dataclass
class Case:
    """One random solve: the map, its rules, and how it is solved."""

    variant: str
    rows: list[str]
    budget: int
    wall_cost: int
    backend: str
    extra: dict[str, object] = field(default_factory=dict)
    connectivity: str | None = None
    time_limit: float | None = None
    mip_gap: float | None = None
    unique: bool = False

    @property
    def limited(self) -> bool:
        """A limit was given that may stop the search before its proof."""
        return (self.time_limit is not None or (self.mip_gap is not None and self.mip_gap > 0)
                or any(limits(k, v) for k, v in self.extra.items()))


@st.composite
def maps(draw) -> tuple[str, list[str], int, int]:
    """A variant and a small map for it: one horse (and a unicorn), 0 to 2 portal pairs, a budget."""
    variant = draw(st.sampled_from(["standard", "costlywalls", "lovebirds", "loversquarrel"]))
    animals = ["H"] + (["U"] if variant in ("lovebirds", "loversquarrel") else [])
    height = draw(st.integers(1, 5))
    width = draw(st.integers(1 if height > 1 or len(animals) == 1 else 2, 5))
    n = height * width
    pairs = draw(st.integers(0, min(2, (n - len(animals)) // 2)))
    specials = animals + [ch for ch in "ab"[:pairs] for _ in range(2)]
    cells = draw(st.lists(st.sampled_from(TILES), min_size=n, max_size=n))
    for at, ch in zip(draw(st.permutations(range(n))), specials):
        cells[at] = ch
    rows = ["".join(cells[r * width:(r + 1) * width]) for r in range(height)]
    return variant, rows, draw(st.integers(0, 3)), draw(st.integers(0, 7))


@st.composite
def backend_settings(draw, backend: str) -> dict[str, object]:
    """Up to three of ``backend``'s settings, with values CP-SAT and the others accept together."""
    table = SETTINGS[backend]
    keys = draw(st.lists(st.sampled_from(sorted(table)), max_size=3, unique=True))
    extra = {k: draw(table[k]) for k in keys}
    if "cpsat.max_number_of_conflicts" in extra and "cpsat.num_workers" in extra:
        extra["cpsat.num_workers"] = 1  # more workers are refused with the limit (they never reach it)
    return extra


@st.composite
def cases(draw) -> Case:
    variant, rows, budget, wall_cost = draw(maps())
    backend = draw(st.sampled_from(["cpsat", "milp", "maxsat", "asp", "auto"]))
    extra = draw(backend_settings(backend))
    concrete = backend
    if backend == "auto" and draw(st.booleans()):
        # A concrete backend's settings through auto, which then picks that backend.
        concrete = draw(st.sampled_from(["cpsat", "milp", "maxsat", "asp"]))
        extra = draw(backend_settings(concrete))
    strategies = backend_class(concrete).connectivity
    connectivity = draw(st.one_of(st.none(), st.sampled_from(strategies)))
    time_limit = draw(st.one_of(st.none(), st.none(), st.none(), st.sampled_from([0.02, 0.3, 3.0])))
    mip_gap = draw(st.one_of(st.none(), st.sampled_from([0.0, 0.5]))) if concrete == "milp" else None
    return Case(variant, rows, budget, wall_cost, backend, extra, connectivity, time_limit, mip_gap,
                draw(st.booleans()))


def check(case: Case, tmp_path) -> None:
    """Solve ``case`` and compare its status, objective, bound and uniqueness with the brute force."""
    path = tmp_path / "map.txt"
    path.write_text(f"budget: {case.budget}\n" + "\n".join(case.rows) + "\n")
    params = {"wall_cost": str(case.wall_cost)} if case.variant == "costlywalls" else None
    model, _ = load(SPECS[case.variant], path, params)
    best = optimum(case.rows, case.budget, case.variant, case.wall_cost)
    options = SolveOptions(time_limit=case.time_limit, connectivity=case.connectivity, extra=dict(case.extra),
                           mip_gap=case.mip_gap)
    report = solve_model(model, case.backend, options, unique=case.unique)
    res = report.result
    told = f"{case}: {res.status.name}, objective {res.objective}, bound {res.bound}, optimum {best.score}"
    if best.score is None:
        assert res.status in ((Status.INFEASIBLE, Status.UNKNOWN) if case.limited else (Status.INFEASIBLE,)), told
        return
    assert res.status is not Status.INFEASIBLE, told
    if res.status is Status.OPTIMAL:
        assert res.objective == report.score == best.score and res.bound == best.score, told
    else:
        assert case.limited, "no limit was given, but the search ended without a proof: " + told
        if res.bound is not None:
            assert res.bound >= best.score, told
        if res.status is Status.FEASIBLE:
            assert report.verdict.ok and res.objective == report.score <= best.score, told
    if case.unique:
        if report.unique is None:
            assert case.limited, "uniqueness unsettled without a limit: " + told
        else:
            assert res.status is Status.OPTIMAL, told
            assert report.unique == (best.answers == 1), f"{told}, {best.answers} optimal wall sets"


@given(cases())
@QUICK
def test_statuses_objectives_and_bounds_match_the_brute_force(tmp_path, case):
    check(case, tmp_path)


@pytest.mark.fuzz
@given(cases())
@LONG
def test_statuses_objectives_and_bounds_match_the_brute_force_long(tmp_path, case):
    check(case, tmp_path)


def test_the_brute_force_knows_the_rules():
    small = ["~~~~~~~", "~..C..~", "~.~~~.~", "~..H..~", "~~~.~~~"]
    assert optimum(small, 3).score == 15  # tests/backends/test_backends_agree.py's SMALL
    assert optimum(small, 0).score is None
    assert optimum(small, 3, "costlywalls", 6) == optimum(small, 1, "costlywalls", 6)
    assert optimum(small, 3, "costlywalls", 6).score == 15 - 6
    assert optimum(small, 3, "costlywalls", 0).answers == 1  # every other grass cell is in the pen
    through = ["~~~~~", "~H1~~", "~~~1.", "~~~~~"]  # the portal's twin opens onto the border ...
    assert optimum(through, 0).score is None
    assert optimum(through, 1) == Optimum(3, 1)  # ... unless a wall closes it: H and both portals
    assert optimum(["~~~~~~", "~H1~1~", "~~~~~~"], 0).score == 3
    quarrel = ["~~~~~~~", "~H.~U.~", "~~~~~~~"]
    assert optimum(quarrel, 0, "loversquarrel").score == 4
    assert optimum(quarrel, 0, "lovebirds").score is None
    # Walls out of the horse's reach change nothing: each placement is another answer.
    assert optimum(["~~~", "~H~", "~~~", "~.~", "~~~"], 1) == Optimum(1, 2)
    assert optimum(["~~~~", "~H~.", "~~~."], 1) == Optimum(1, 3)
