"""The main job on real maps, end to end, through the pipeline and the CLI."""

from __future__ import annotations

import json
import re

import pytest
from horse_data import POCKET, REPO

from gridlang.cli import main
from gridlang.ir.backend import SolveOptions, Status
from gridlang.solving.pipeline import solve

HORSE = str(REPO / "puzzles" / "horse.grid")
DAILY_07 = str(REPO / "puzzles" / "maps" / "daily-2026-01-07.txt")

def run(argv, capsys):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_main_job_prints_66_with_12_walls_verified(capsys):
    code, out, err = run(["solve", HORSE, "--map", DAILY_07], capsys)
    assert code == 0, err
    assert "score 66 (verified)" in out
    assert "walls 12/12" in out
    assert "status OPTIMAL" in out
    # An objective on a map of 168 cells: clingo raced by CP-SAT, and the status line names the one that answered.
    assert re.search(r"backend auto: (asp, connectivity reach|cpsat, connectivity auto)\b", out)
    for phase in ("parse", "compile", "solve", "verify"):
        assert f"{phase} " in out.splitlines()[-1]
    # The drawn map: 14 rows of 12, with the 12 walls as '#'.
    grid = out.split("\n\n")[0].splitlines()
    assert len(grid) == 14 and all(len(r) == 12 for r in grid)
    assert sum(r.count("#") for r in grid) == 12


def test_main_job_json_fields(capsys):
    code, out, _ = run(["solve", HORSE, "--map", DAILY_07, "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "OPTIMAL"
    assert data["objective"] == 66
    assert data["verified_score"] == 66
    assert data["horse"]["budget"] == 12
    assert data["backend"] == "auto" and data["chosen"] in ("asp", "cpsat")
    assert "walls" not in data and "budget" not in data  # the horse's figures sit under "horse"
    walls = data["horse"]["walls"]
    assert len(walls) == 12
    rows = (REPO / "puzzles" / "maps" / "daily-2026-01-07.txt").read_text().splitlines()[1:]
    assert all(rows[r][c] == "." for r, c in walls)  # [row, col], 0-based, on grass
    # The generic answer names the same cells: the spec's decision 'wall', value 1 where true.
    assert data["decisions"] == {"wall": [[cell, 1] for cell in walls]}
    assert data["seconds"]["total"] >= data["seconds"]["solve"] > 0


@pytest.mark.parametrize("strategy", ["auto", "cuts", "flow", "tree"])
def test_sealed_pocket_is_not_counted(tmp_path, strategy):
    path = tmp_path / "pocket.txt"
    path.write_text(POCKET)
    report = solve(HORSE, path, {"budget": "6"}, "cpsat", SolveOptions(connectivity=strategy))
    assert report.result.status is Status.OPTIMAL
    assert report.score == 2
    assert report.result.objective == 2


def test_budget_flag_overrides_the_map_header(capsys):
    code, out, _ = run(["solve", HORSE, "--map", DAILY_07, "--budget", "10", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["horse"]["budget"] == 10 and len(data["horse"]["walls"]) <= 10
    code2, out2, _ = run(["solve", HORSE, "--map", DAILY_07, "--param", "budget=10", "--json"], capsys)
    assert json.loads(out2)["verified_score"] == data["verified_score"] < 66


def test_game_json_record_carries_its_budget(tmp_path, capsys):
    rows = (REPO / "puzzles" / "maps" / "daily-2026-01-07.txt").read_text().splitlines()[1:]
    path = tmp_path / "level.json"
    path.write_text(json.dumps({"id": "x", "map": "\n".join(rows), "budget": 12}))
    code, out, _ = run(["solve", HORSE, "--map", path, "--json"], capsys)
    assert code == 0
    assert json.loads(out)["verified_score"] == 66


def test_horse_on_the_border_is_infeasible(tmp_path, capsys):
    path = tmp_path / "edge.txt"
    path.write_text("budget: 5\n..H..\n.....\n.....\n")
    code, out, _ = run(["solve", HORSE, "--map", path], capsys)
    assert code == 2
    assert "status INFEASIBLE" in out


def test_budget_too_small_is_infeasible(tmp_path, capsys):
    path = tmp_path / "open.txt"
    path.write_text("budget: 3\n.....\n.....\n..H..\n.....\n.....\n")
    code, out, _ = run(["solve", HORSE, "--map", path, "--json"], capsys)
    assert code == 2
    assert json.loads(out)["status"] == "INFEASIBLE"


def test_portals_carry_the_horse(tmp_path):
    # Walled in on the left, but the portal '1' leads to the right half.
    path = tmp_path / "portal.txt"
    path.write_text("budget: 0\n~~~~~~~\n~H1~1.~\n~~~~~.~\n")
    report = solve(HORSE, path)
    assert report.result.status is Status.INFEASIBLE
    path.write_text("budget: 1\n~~~~~~~\n~H1~1.~\n~~~~~.~\n")
    report = solve(HORSE, path)
    assert report.result.status is Status.OPTIMAL
    assert report.score == 4  # H, two portals, one grass; the wall takes the other


def test_time_limit_without_solution_exits_3(capsys):
    # 25x25 with 20 walls: a millisecond is not enough to find any enclosure.
    weekly = REPO / "tests" / "data" / "horse" / "weekly-03.txt"
    code, out, _ = run(["solve", HORSE, "--map", weekly, "--budget", "20", "--time-limit", "0.001",
                        "--json"], capsys)
    data = json.loads(out)
    assert (code, data["status"], data["objective"]) == (3, "UNKNOWN", None)
    assert data["decisions"] is None
    assert data["horse"] == {"walls": None, "budget": 20}


def test_bad_time_limit_and_unwritable_output_are_errors_not_tracebacks(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["solve", HORSE, "--map", DAILY_07, "--time-limit", "-1"])
    assert e.value.code == 1  # bad input; 2 means infeasible
    assert "argument --time-limit/-t: give a number of seconds more than 0, not -1" in capsys.readouterr().err
    target = tmp_path / "missing" / "daily.lp"
    code, _, err = run(["export", HORSE, "--map", DAILY_07, "--format", "lp", "-o", target], capsys)
    assert code == 1
    assert err.strip() == f"error: {target}: No such file or directory"


def test_compile_dump_ir_names_variables_and_sources(capsys):
    code, out, _ = run(["compile", HORSE, "--map", DAILY_07, "--dump-ir"], capsys)
    assert code == 0
    assert "wall[0,2]" in out and "pen[7,6]" in out
    assert "connected pen:" in out and "roots (7, 6)" in out
    assert "<= 12    # " in out and "horse.grid:25:9" in out
    assert out.rstrip().splitlines()[-1].startswith("objective: maximize")


def test_check_and_backends(capsys):
    code, out, _ = run(["check", HORSE], capsys)
    assert code == 0
    assert out.startswith(f"{HORSE}: ok (7 tiles, 1 parameters, 1 decisions, 1 regions; ")
    code, out, _ = run(["backends"], capsys)
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines()}
    assert list(rows) == ["cpsat", "milp", "maxsat", "asp", "auto"]
    assert all(line.split()[1] == "installed" for line in rows.values())
    assert "connectivity: auto, cuts, flow, tree (default auto); writes: pbtxt" in rows["cpsat"]
    assert "connectivity: auto, cuts, flow (default auto); writes: lp, mps" in rows["milp"]
    assert "connectivity: cuts, tree (default cuts); writes: wcnf, cnf" in rows["maxsat"]
    assert "picks per model: asp raced by cpsat on maps of up to 450 cells (auto.race_cells; without an objective " \
        "cpsat joins after 0.25 s, auto.join_after); on larger ones asp without an objective, cpsat with one" \
        in rows["auto"]
    assert rows["auto"].endswith("connectivity: auto, cuts, flow, tree, reach (default auto); writes: none")


def test_ortools_and_highspy_import_in_one_process():
    # ortools 9.15 bundles HiGHS 1.12.0; a different highspy fails on import.
    import highspy
    from ortools.sat.python import cp_model

    assert cp_model.CpModel() is not None
    h = highspy.Highs()
    assert (h.versionMajor(), h.versionMinor()) == (1, 12)


def test_export_mps_solve_elsewhere_and_decode(tmp_path, capsys):
    import highspy

    mps = tmp_path / "daily.mps"
    code, out, _ = run(["export", HORSE, "--map", DAILY_07, "--format", "mps", "-o", mps], capsys)
    assert code == 0 and f"wrote {mps}" in out
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(mps))
    h.run()
    assert round(h.getInfo().objective_function_value) == 66
    h.writeSolution(str(tmp_path / "daily.sol"), 1)
    code, out, _ = run(["decode", HORSE, "--map", DAILY_07, "--solution", tmp_path / "daily.sol", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["verified_score"] == 66 and len(data["horse"]["walls"]) == 12
    assert data["horse"]["budget"] == 12 and len(data["decisions"]["wall"]) == 12
