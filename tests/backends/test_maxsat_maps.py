"""MaxSAT backend on real enclose.horse maps: known optima, verified by the rules.

The optima are the game's own published ``optimal_score`` from
``tests/data/horse/manifest.json``; every answer is re-checked by the
independent verifier (:func:`gridlang.solving.pipeline.verify`), which scores it from
the map's characters, not the IR.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridlang import compiler  # noqa: E402
from gridlang.exporters.maxsat.backend import MaxSatBackend  # noqa: E402
from gridlang.ir.backend import SolveOptions, Status  # noqa: E402
from gridlang.solving import pipeline  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
DATA = ROOT / "tests" / "data" / "horse"
SPECS = {
    "standard": "horse.grid",
    "costlywalls": "horse_costlywalls.grid",
    "lovebirds": "horse_lovebirds.grid",
}


def manifest() -> dict[str, dict]:
    return {e["file"]: e for e in json.loads((DATA / "manifest.json").read_text())}


def compile_map(entry: dict):
    spec = PUZZLES / SPECS[entry["variant"]]
    return compiler.compile_puzzle(spec, DATA / entry["file"], {"budget": str(entry["budget"])})


def solved(model, strategy: str = "cuts", time_limit: float = 600, **extra):
    """The verified score of an OPTIMAL answer, and the result."""
    options = SolveOptions(connectivity=strategy, time_limit=time_limit, extra=dict(extra))
    result = MaxSatBackend().solve(model, options)
    assert result.status is Status.OPTIMAL
    assert result.objective == model.objective.value(result.assignment)
    _, verdict = pipeline.verify(model, result.assignment, result.objective)
    assert verdict is not None and verdict.ok
    return verdict.score, result


def solve_and_verify(model, strategy: str = "cuts", **extra) -> int:
    return solved(model, strategy, **extra)[0]


def test_daily_2026_01_07_scores_66():
    model = compiler.compile_puzzle(PUZZLES / "horse.grid", PUZZLES / "maps" / "daily-2026-01-07.txt")
    assert solve_and_verify(model) == 66


# Quick maps, one per feature: portals (01-10), bees (01-21), an apple (06-11),
# costly walls (negative wall terms in the objective), lovebirds (a second root).
QUICK = [
    ("daily-2025-12-30.txt", 68),
    ("daily-2026-01-10.txt", 94),
    ("daily-2026-01-21.txt", 50),
    ("daily-2026-06-11.txt", 75),
    ("bonus-2026-03-26-costlywalls.txt", None),
    ("bonus-2026-03-17-lovebirds.txt", None),
]


@pytest.mark.parametrize("name,want", QUICK)
def test_quick_maps_reach_the_published_optimum(name, want):
    entry = manifest()[name]
    if want is not None:
        assert entry["optimal_score"] == want
    assert solve_and_verify(compile_map(entry)) == entry["optimal_score"]


@pytest.mark.parametrize("name,want", QUICK)
def test_rc2_agrees_on_quick_maps(name, want):
    entry = manifest()[name]
    assert solve_and_verify(compile_map(entry), algorithm="rc2") == entry["optimal_score"]


@pytest.mark.parametrize("name,algorithm", [("daily-2025-12-30.txt", "lsu"),
                                            ("bonus-2026-03-26-costlywalls.txt", "rc2")])
def test_auto_picks_lsu_for_a_region_objective_and_rc2_for_priced_walls(name, algorithm):
    entry = manifest()[name]
    result = MaxSatBackend().solve(compile_map(entry), SolveOptions(time_limit=600))
    assert (result.status, result.objective) == (Status.OPTIMAL, entry["optimal_score"])
    assert result.stats["algorithm"] == algorithm


def test_lsu_in_short_conflict_slices_reaches_the_optimum():
    # CaDiCaL cannot be interrupted: with a time limit each call runs in
    # slices of ``conflicts`` conflicts; tiny slices must not change the answer.
    entry = manifest()["daily-2026-01-21.txt"]
    assert solve_and_verify(compile_map(entry), conflicts=50) == 50


def test_soft_phases_start_the_search_from_a_large_pen():
    # Preferring pen cells gives a first answer near the optimum, so fewer
    # calls are needed to prove it; ``auto`` takes soft phases below 500 cells.
    # On this daily: 5 calls against 36 (over the 214 dailies, a median of 10
    # against 19). Without what depends on the clock: the start solver, which
    # hands over after 0.5 s (with it, 18 against 37 to 42 calls, by the load),
    # and the window start.
    entry = manifest()["daily-2026-05-07.txt"]
    assert entry["optimal_score"] == 52
    model = compile_map(entry)
    calls = {}
    for phases in ("none", "soft", "auto"):
        result = MaxSatBackend().solve(model, SolveOptions(time_limit=600, extra={
            "lsu.phases": phases, "lsu.start": "none", "window": False}))
        assert (result.status, result.objective) == (Status.OPTIMAL, 52)
        calls[phases] = result.stats["solver_calls"]
    assert calls["soft"] == calls["auto"] < calls["none"] - 20


@pytest.mark.parametrize("name", ["daily-2026-01-21.txt"])
def test_tree_strategy_agrees(name):
    entry = manifest()[name]
    assert solve_and_verify(compile_map(entry), "tree") == entry["optimal_score"]


def test_wcnf_round_trip_on_a_real_map(tmp_path):
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    entry = manifest()["daily-2026-01-21.txt"]
    model = compile_map(entry)
    path = str(tmp_path / "daily.wcnf")
    MaxSatBackend().write(model, path, "wcnf", SolveOptions())
    lines = Path(path).read_text().splitlines()
    objective = next(l for l in lines if l.startswith("c objective"))
    assert objective.startswith("c objective: maximize, offset ")
    offset = int(objective.split("offset ")[1].split(":")[0])
    with RC2(WCNF(from_file=path), exhaust=True, minz=True) as rc2:
        lits = rc2.compute()
        score = offset - rc2.cost
    assert score == entry["optimal_score"] == 50
    from gridlang.ir.model import Assignment

    assignment = Assignment(tuple(l > 0 for l in lits[: model.num_vars]))
    _, verdict = pipeline.verify(model, assignment, score)
    assert verdict.score == 50
    # An external solver's answer in the 2022 form reads back to the same score.
    top = max(abs(l) for l in lits)
    values = {abs(l): l > 0 for l in lits}
    answer = tmp_path / "answer.txt"
    answer.write_text(f"c rc2\no {rc2.cost}\ns OPTIMUM FOUND\nv "
                      + "".join("1" if values.get(v) else "0" for v in range(1, top + 1)) + "\n")
    decoded = MaxSatBackend().read_solution(model, str(answer))
    assert model.objective.value(decoded) == 50
    # The file is reproducible byte for byte.
    again = str(tmp_path / "again.wcnf")
    MaxSatBackend().write(model, again, "wcnf", SolveOptions())
    assert Path(again).read_bytes() == Path(path).read_bytes()


def known_optimum_maps() -> list[str]:
    path = DATA / "manifest.json"
    if not path.exists():
        return []
    return [e["file"] for e in json.loads(path.read_text())
            if e["optimal_score"] is not None and e["variant"] in SPECS]


@pytest.mark.slow
@pytest.mark.parametrize("name", known_optimum_maps())
def test_every_known_optimum(name):
    entry = manifest()[name]
    assert solve_and_verify(compile_map(entry)) == entry["optimal_score"]


def _lsu(model, time_limit: float = 600, **extra) -> tuple[int, str]:
    score, result = solved(model, time_limit=time_limit, **extra)
    assert result.stats["algorithm"] == "lsu"
    return score, result.stats["sat_solver"]


@pytest.mark.parametrize("name", ["daily-2026-08-08.txt", "daily-2026-08-16.txt", "daily-2026-08-24.txt"])
def test_the_search_begins_on_minisat_and_can_move_at_once(name):
    # Below 500 cells the search begins on MiniSat-GH; with no seconds for it,
    # CaDiCaL takes the first call; with lsu.start none it runs alone. The
    # optimum is the same each way.
    entry = manifest()[name]
    want = entry["reference_optimum"]
    model = compile_map(entry)
    assert _lsu(model) == (want, "mgh")
    assert _lsu(model, **{"lsu.start_seconds": 0.0}) == (want, "mgh, then cadical195")
    assert _lsu(model, **{"lsu.start": "none"}) == (want, "cadical195")


def test_a_move_part_way_gives_cadical_the_cuts_and_the_counter(monkeypatch):
    # On MiniSat-GH daily-2026-04-20 takes 14 calls and 56 cuts, 36 of them
    # before its 7th call. Spending mgh's seconds there moves that call to
    # CaDiCaL, which must be given those cuts and the cost counter's
    # clauses, and still prove the published optimum 22.
    from gridlang.exporters.maxsat import search

    calls, moves = [], []
    solve = search.Lsu.solve

    def spent_at_the_seventh(self, deadline, incumbent):
        calls.append(incumbent)
        if len(calls) == 7:
            self.started = float("inf")
            moves.append((self.hard_added, len(self.added)))
        return solve(self, deadline, incumbent)

    monkeypatch.setattr(search.Lsu, "solve", spent_at_the_seventh)
    entry = manifest()["daily-2026-04-20.txt"]
    assert entry["optimal_score"] == 22
    # 0.02 s without the move; a CaDiCaL missing the counter's clauses
    # would go on answering the same pen until the limit.
    assert _lsu(compile_map(entry), time_limit=30) == (22, "mgh, then cadical195")
    cuts, given = moves[0]
    assert cuts == 36 and given > cuts  # the cuts, and the counter's clauses besides


def test_a_large_grid_runs_cadical_from_the_start(tmp_path):
    # 25 x 20 = 500 cells: not a small grid, so CaDiCaL alone.
    rows = ["~" * 25] * 9 + ["~" * 10 + ".H.." + "~" * 11] + ["~" * 25] * 10
    path = tmp_path / "large.txt"
    path.write_text("\n".join(rows) + "\n")
    model = compiler.compile_puzzle(PUZZLES / "horse.grid", path, {"budget": "1"})
    assert model.grid.size == 500
    assert _lsu(model) == (4, "cadical195")
