"""Snake Eggs end to end: the spec, the instances, counting, bad input.

Every instance of tests/data/snake_eggs (the source records, converted to puzzles/instances/
snake_eggs) is solved with CP-SAT under every connectivity strategy; the
answer is re-checked by the independent verifier (the pipeline does that on
every solution) and compared with the published or independently computed
solution in tests/data/snake_eggs_expected.json, and uniqueness is proved.
The 10x10 instances take seconds to a minute each on the shared 2-core
machine (flow slower than cuts) and are marked slow (``pytest -m slow``).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from snake_data import EXPECTED, INSTANCES, ROOT, SPEC, solution_rows

from gridlang import cli
from gridlang.core.errors import GridlangError, MapError, ParamError, SemanticError
from gridlang.core.grid import Grid
from gridlang.families.snake_eggs import render, verify
from gridlang.formats.maps import read_map
from gridlang.ir.backend import SolveOptions, Status
from gridlang.ir.solution import Solution
from gridlang.solving.pipeline import solve

SHARED = ROOT / "tests" / "data" / "snake_eggs"  # the source JSON records, bundled
STRATEGIES = ("auto", "cuts", "flow", "tree")
TEXTBOOK = INSTANCES / "jandhyala_ch32_6x6.txt"


def instance_params():
    for name, info in sorted(EXPECTED.items()):
        big = info["rows"] * info["cols"] > 50
        for strategy in STRATEGIES:
            marks = [pytest.mark.slow] if big else []
            yield pytest.param(name, strategy, marks=marks, id=f"{name}-{strategy}")


@pytest.mark.parametrize("name,strategy", list(instance_params()))
def test_instance_solution_and_uniqueness(name, strategy):
    report = solve(SPEC, INSTANCES / f"{name}.txt", unique=True,
                   options=SolveOptions(connectivity=strategy, time_limit=600))
    assert report.verdict is not None and report.verdict.ok
    assert solution_rows(report) == EXPECTED[name]["solution"]
    assert report.unique is True
    assert len(report.solutions) == 1


def test_textbook_instance_cli_unique(capsys):
    code = cli.main(["solve", str(SPEC), "--map", str(TEXTBOOK), "--unique"])
    out = capsys.readouterr().out
    assert code == 0
    assert "unique: the solution is the only one (proved)" in out
    assert out.startswith("o 4 4 ┌───┐\n")  # the snake and the eggs are drawn
    assert "verified" in out


def test_textbook_instance_json_reports_unique(capsys):
    code = cli.main(["solve", str(SPEC), "--map", str(TEXTBOOK), "--unique", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["solutions_found"] == 1 and out["unique"] is True and out["verifier"] == "Snake Eggs"


def _without_clues(tmp_path: Path) -> Path:
    lines = TEXTBOOK.read_text(encoding="utf-8").splitlines()
    out = [ln if ln.startswith(("#", "sizes")) else "".join("o" if ch == "o" else "." for ch in ln) for ln in lines]
    path = tmp_path / "textbook_no_clues.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_textbook_without_clues_has_exactly_two_solutions(tmp_path, strategy):
    report = solve(SPEC, _without_clues(tmp_path), count=10, options=SolveOptions(connectivity=strategy))
    assert len(report.solutions) == 2
    assert report.complete is True
    rows = {tuple(sorted(s.decisions["kind"].items())) for s in report.solutions}
    assert len(rows) == 2


def test_not_unique_prints_second_solution_and_differing_cells(tmp_path, capsys):
    code = cli.main(["solve", str(SPEC), "--map", str(_without_clues(tmp_path)), "--unique"])
    out = capsys.readouterr().out
    assert code == 0
    assert "not unique: a second solution exists" in out
    assert "cells that differ: " in out
    assert out.count("o") >= 4  # both solutions drawn, each with its two ends


def test_json_record_and_text_instance_agree():
    for name in EXPECTED:
        text = read_map(INSTANCES / f"{name}.txt")
        record = read_map(SHARED / f"{name}.json")
        assert text.rows == record.rows, name
        assert text.params["sizes"][0].replace(" ", "") in ("1..%d" % len(record.params["sizes"][0].split(",")),
                                                            record.params["sizes"][0])


def test_json_record_solves_directly():
    report = solve(SPEC, SHARED / "jandhyala_ch32_6x6.json", unique=True)
    assert solution_rows(report) == EXPECTED["jandhyala_ch32_6x6"]["solution"] and report.unique


def test_infeasible_instance_exits_2(tmp_path, capsys):
    path = tmp_path / "none.txt"
    path.write_text("sizes: 1\no..o\n", encoding="utf-8")  # the snake would need all four cells
    assert cli.main(["solve", str(SPEC), "--map", str(path)]) == 2
    assert "INFEASIBLE" in capsys.readouterr().out


# ------------------------------------------------------------------ bad input

GOOD = ["sizes: 1..5", "o.....", "....1.", "..o...", "...5..", "2.....", "......"]


def _bad(tmp_path: Path, lines: list[str], name: str = "bad.txt") -> tuple[str, GridlangError]:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(GridlangError) as info:
        solve(SPEC, path)
    return str(path), info.value


def _exit_code(tmp_path: Path, lines: list[str]) -> int:
    path = tmp_path / "bad_cli.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cli.main(["solve", str(SPEC), "--map", str(path)])


def test_three_ends(tmp_path):
    lines = GOOD[:5] + ["2...o."] + GOOD[6:]
    path, err = _bad(tmp_path, lines)
    assert isinstance(err, MapError)
    assert "3 'end' tiles" in err.message and "exactly 2" in err.message
    # the extra end in reading order is the third 'o': line 4 ("..o...") comes before line 6
    assert (err.span.file, err.span.line, err.span.column) == (path, 6, 5)
    assert _exit_code(tmp_path, lines) == 1


def test_one_end(tmp_path):
    lines = GOOD[:3] + ["......"] + GOOD[4:]
    path, err = _bad(tmp_path, lines)
    assert isinstance(err, MapError)
    assert "1 'end' tiles" in err.message and "requires exactly 2" in err.message
    assert (err.span.line, err.span.column) == (2, 1)


def test_sizes_leave_no_room_for_the_snake(tmp_path):
    lines = ["sizes: 1..8"] + GOOD[1:2] + ["......"] + GOOD[3:4] + ["......"] * 3
    path, err = _bad(tmp_path, lines)
    assert isinstance(err, ParamError)
    assert "count(all) - sum(sizes) >= 2" in err.message and "0 >= 2 is false" in err.message
    assert (err.span.file, err.span.line, err.span.column) == (path, 1, 8)
    assert _exit_code(tmp_path, lines) == 1


def test_clue_size_not_in_the_list(tmp_path):
    lines = GOOD[:4] + ["...7.."] + GOOD[5:]
    path, err = _bad(tmp_path, lines)
    assert isinstance(err, MapError)
    assert "7 is not a value of 'kind' (snake, 1..5)" in err.message
    assert (err.span.file, err.span.line, err.span.column) == (path, 5, 4)


def test_ragged_row(tmp_path):
    lines = GOOD[:3] + ["..o...."] + GOOD[4:]
    path, err = _bad(tmp_path, lines)
    assert isinstance(err, MapError)
    assert "row 3 of the grid has 7 cells; the first row has 6" in err.message
    assert (err.span.line, err.span.column) == (4, 7)


def test_unknown_character(tmp_path):
    lines = GOOD[:2] + ["....x."] + GOOD[3:]
    path, err = _bad(tmp_path, lines)
    assert isinstance(err, MapError)
    assert "character 'x'" in err.message and "not a tile" in err.message
    assert (err.span.line, err.span.column) == (3, 5)


def test_repeated_size(tmp_path):
    lines = ["sizes: 1, 2, 2"] + GOOD[1:2] + ["......"] + GOOD[3:4] + ["......"] * 3
    path, err = _bad(tmp_path, lines)
    assert isinstance(err, ParamError)
    assert "repeats the value 2" in err.message
    assert (err.span.line, err.span.column) == (1, 8)


def test_clue_on_circled_end_in_json(tmp_path):
    record = json.loads((SHARED / "jandhyala_ch32_6x6.json").read_text(encoding="utf-8"))
    record["clues"][1]["cell"] = record["tail"]
    text = json.dumps(record, indent=1)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapError) as info:
        solve(SPEC, path)
    err = info.value
    assert "stands on the circled end" in err.message
    # the span points at the second clue object of the "clues" array
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip().startswith('"clues"'))
    clue_lines = [i + 1 for i, ln in enumerate(lines) if i > start and ln.strip() == "{"]
    assert err.span.line == clue_lines[1]
    assert lines[err.span.line - 1][err.span.column - 1] == "{"


def test_bad_spec_is_located(tmp_path):
    spec = SPEC.read_text(encoding="utf-8").replace("(kind = snake) is a path", "kind is a path")
    path = tmp_path / "bad.grid"
    path.write_text(spec, encoding="utf-8")
    with pytest.raises(SemanticError) as info:
        solve(path, TEXTBOOK)
    assert "'kind' is an enumerated decision; say which value" in info.value.message
    line = next(i + 1 for i, ln in enumerate(spec.splitlines()) if ln.startswith("require kind is a path"))
    assert (info.value.span.line, info.value.span.column) == (line, 9)


# ------------------------------------------------------------------- verifier

def _grid(rows: list[str]) -> Grid:
    chars = tuple("".join(rows))
    return Grid(len(rows), len(rows[0]), chars, tuple("cell" for _ in chars))


def _solution(rows: list[str]) -> Solution:
    values = [tok for row in rows for tok in row.split()]
    return Solution({"kind": {i: "snake" if v == "0" else int(v) for i, v in enumerate(values)}}, {})


def test_verifier_accepts_the_textbook_solution_and_rejects_changes():
    grid = _grid(TEXTBOOK.read_text(encoding="utf-8").splitlines()[-6:])
    good = EXPECTED["jandhyala_ch32_6x6"]["solution"]
    verdict = verify(grid, _solution(good), {"sizes": (1, 2, 3, 4, 5)})
    assert verdict.ok, verdict.problems
    assert verdict.details["snake_length"] == 21 and verdict.details["eggs"] == [1, 2, 3, 4, 5]
    assert verdict.details["snake"][0] == [0, 0] and verdict.details["snake"][-1] == [2, 2]
    assert "o 4 4 ┌───┐" in render(grid, _solution(good))
    # The egg of size 1 at (1, 4) turned into snake: the snake branches and the sizes are off.
    bad = [row.split() for row in good]
    bad[1][4] = "0"
    verdict = verify(grid, _solution([" ".join(r) for r in bad]), {"sizes": (1, 2, 3, 4, 5)})
    assert not verdict.ok
    assert any("snake neighbours" in p for p in verdict.problems)
    assert any("egg sizes are" in p for p in verdict.problems)
    assert any("clue '1'" in p for p in verdict.problems)


# ------------------------------------------------- the path rule, by counting

PATH_SPEC = """
puzzle "paths"
tile cell '.'
tile end 'o' exactly 2
decide s: bool on all
require s is a path between end
"""


def _brute_force_paths(rows: int, cols: int, ends: tuple[int, int], length: int | None = None) -> int:
    """Subsets of cells (of ``length`` cells, if given) that are one induced path between the two ends."""
    n = rows * cols
    nbrs = [[j for j in range(n) if abs(j // cols - i // cols) + abs(j % cols - i % cols) == 1] for i in range(n)]
    count = 0
    for mask in range(1 << n):
        cells = {i for i in range(n) if mask >> i & 1}
        if not set(ends) <= cells or (length is not None and len(cells) != length):
            continue
        if any(sum(j in cells for j in nbrs[i]) != (1 if i in ends else 2) for i in cells):
            continue
        seen, stack = {ends[0]}, [ends[0]]
        while stack:
            u = stack.pop()
            for v in nbrs[u]:
                if v in cells and v not in seen:
                    seen.add(v)
                    stack.append(v)
        count += seen == cells
    return count


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("rows", [["o..", "...", "..o"], ["o...", "....", "...o"], [".o..", "....", "..o."],
                                  ["oo..", "....", "...."]])
def test_path_rule_counts_match_brute_force(tmp_path, strategy, rows):
    spec = tmp_path / "paths.grid"
    spec.write_text(PATH_SPEC, encoding="utf-8")
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(rows) + "\n", encoding="utf-8")
    cols = len(rows[0])
    ends = tuple(i for i, ch in enumerate("".join(rows)) if ch == "o")
    expected = _brute_force_paths(len(rows), cols, ends)
    report = solve(spec, grid, count=expected + 5, options=SolveOptions(connectivity=strategy))
    assert report.complete is True
    assert len(report.solutions) == expected


FIXED_LENGTH_SPEC = PATH_SPEC + """param n: int >= 0
require count(s) == n
"""


@pytest.mark.parametrize("backend,strategy", [("milp", "auto"), ("milp", "flow"), ("cpsat", "auto")])
@pytest.mark.parametrize("rows,length", [(["o...", "....", "...o"], 6), ([".o..", "....", "..o."], 4),
                                         ([".o..", "....", "..o."], 6), (["oo..", "....", "...."], 2),
                                         (["o....", ".....", "....o"], 9), (["o....", ".....", "....o"], 11),
                                         (["o....", ".....", "....o"], 8), (["o...", "....", "...o"], 8)])
def test_path_of_fixed_length_counts_match_brute_force(tmp_path, backend, strategy, rows, length):
    # A count rule fixes the path's length: the MILP's auto strategy then lowers
    # it by positions. Length 8 between those corners has the wrong chessboard
    # parity on the 3x5 grid and no induced path on the 3x4 one.
    spec = tmp_path / "paths.grid"
    spec.write_text(FIXED_LENGTH_SPEC, encoding="utf-8")
    grid = tmp_path / "grid.txt"
    grid.write_text(f"n: {length}\n" + "\n".join(rows) + "\n", encoding="utf-8")
    ends = tuple(i for i, ch in enumerate("".join(rows)) if ch == "o")
    expected = _brute_force_paths(len(rows), len(rows[0]), ends, length)
    report = solve(spec, grid, backend=backend, count=expected + 5,
                   options=SolveOptions(connectivity=strategy))
    if backend == "milp" and strategy == "auto":
        assert report.result.stats["encodings"] == {"s": "positions"}
    if expected == 0:
        assert report.result.status is Status.INFEASIBLE and not report.solutions
    else:
        assert report.complete is True
        assert len(report.solutions) == expected


def test_count_rule_gives_the_path_its_length(tmp_path):
    # Snake Eggs' redundant count rule fixes the snake's length (100 - 45 cells);
    # a path rule alone leaves it open.
    from gridlang.compiler import compile_puzzle
    from gridlang.ir.model import Connected

    def path_size(spec, grid):
        (node,) = [c for c in compile_puzzle(spec, grid).constraints if isinstance(c, Connected) and c.path]
        return node.size

    assert path_size(SPEC, INSTANCES / "ctc_tuzz_10x10.txt") == 55
    spec = tmp_path / "paths.grid"
    spec.write_text(PATH_SPEC, encoding="utf-8")
    grid = tmp_path / "grid.txt"
    grid.write_text("o...\n....\n...o\n", encoding="utf-8")
    assert path_size(spec, grid) is None
    spec.write_text(FIXED_LENGTH_SPEC, encoding="utf-8")
    grid.write_text("n: 6\no...\n....\n...o\n", encoding="utf-8")
    assert path_size(spec, grid) == 6


SIZED_SPEC = """
puzzle "sized"
tile cell '.'
param k: int >= 0
decide s: bool on all
require s is connected with size k
"""


def _brute_force_sized(rows: int, cols: int, k: int) -> int:
    n = rows * cols
    nbrs = [[j for j in range(n) if abs(j // cols - i // cols) + abs(j % cols - i % cols) == 1] for i in range(n)]
    count = 0
    for cells in itertools.combinations(range(n), k):
        cells = set(cells)
        if not cells:
            count += 1
            continue
        start = min(cells)
        seen, stack = {start}, [start]
        while stack:
            u = stack.pop()
            for v in nbrs[u]:
                if v in cells and v not in seen:
                    seen.add(v)
                    stack.append(v)
        count += seen == cells
    return count


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("k", [0, 1, 2, 4, 5])
def test_sized_connected_rule_counts_match_brute_force(tmp_path, strategy, k):
    spec = tmp_path / "sized.grid"
    spec.write_text(SIZED_SPEC, encoding="utf-8")
    grid = tmp_path / "grid.txt"
    grid.write_text(f"k: {k}\n...\n...\n...\n", encoding="utf-8")
    expected = _brute_force_sized(3, 3, k)
    report = solve(spec, grid, count=expected + 5, options=SolveOptions(connectivity=strategy))
    assert report.complete is True
    assert len(report.solutions) == expected


def test_count_json_reports_solutions_found_and_unique(tmp_path, capsys):
    code = cli.main(["solve", str(SPEC), "--map", str(_without_clues(tmp_path)), "--count", "5", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["solutions_found"] == 2 and out["complete"] is True and out["unique"] is False


FIXED_SPEC = """
puzzle "fixed members"
tile cell '.'
tile fixed 'x'
decide s: bool on cell
require (s or fixed) is connected
"""


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_connected_with_several_fixed_members_is_one_piece(tmp_path, strategy):
    # x.x / ...: (0,1) in gives 2^3 connected sets; (0,1) out needs the whole bottom row.
    spec = tmp_path / "fixed.grid"
    spec.write_text(FIXED_SPEC, encoding="utf-8")
    grid = tmp_path / "grid.txt"
    grid.write_text("x.x\n...\n", encoding="utf-8")
    report = solve(spec, grid, count=20, options=SolveOptions(connectivity=strategy))
    assert report.complete is True and len(report.solutions) == 9
