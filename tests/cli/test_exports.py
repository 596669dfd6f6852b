"""Every exported file's header says how to solve it and read the answer back: those instructions run.

Each format's header has a ``run:`` line (a shell command with the pip
wheels' own modules: the wheels ship no ``clingo`` or ``highs`` executable)
and a ``then:`` line (``gridlang decode``). Here they are run as written,
``python`` and ``gridlang`` being this interpreter's, on a map with an
objective (optimum 15) and on a puzzle without one (a 4x4 Sudoku).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

import pytest
from horse_data import REPO, SPECS

from gridlang.cli import main

SMALL = "budget: 3\n~~~~~~~\n~..C..~\n~.~~~.~\n~..H..~\n~~~.~~~\n"
"""tests/backends/test_backends_agree.py's 5x7 map: one wall at the bottom encloses 15 points."""
SUDOKU = (REPO / "puzzles" / "sudoku.grid", REPO / "puzzles" / "instances" / "sudoku" / "pzprjs_4x4.txt")
MARK = {"lp": "\\ ", "mps": "* ", "wcnf": "c ", "cnf": "c ", "pbtxt": "# ", "asp": "% "}
"""Each format's comment mark, as its header uses it."""


def header(path, fmt: str) -> dict[str, str]:
    """The header's ``run:`` and ``then:`` commands."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        for key in ("run", "then"):
            if line.startswith(f"{MARK[fmt]}{key}: "):
                out[key] = line[len(MARK[fmt]) + len(key) + 2:]
    return out


def follow(tmp_path, spec, map_path, fmt: str) -> subprocess.CompletedProcess:
    """Export, run the header's ``run:`` command, then its ``then:`` command; the decode's outcome."""
    model = tmp_path / f"model.{fmt}"
    answer = tmp_path / "answer.txt"
    assert main(["export", str(spec), "--map", str(map_path), "--format", fmt, "-o", str(model)]) == 0
    told = header(model, fmt)
    assert set(told) == {"run", "then"}, f"{fmt}: the header says how to run the file and decode its answer"
    run = told["run"].replace("FILE", str(model)).replace("ANSWER", str(answer))
    assert run.startswith("python ")
    run = shlex.quote(sys.executable) + run[len("python"):]
    solved = subprocess.run(run, shell=True, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    # clingo's exit code says what it found (10, 20, 30); the answer file is what counts.
    assert answer.exists() and answer.stat().st_size > 0, solved.stderr
    then = told["then"].split(" (")[0]
    words = then.replace("SPEC", str(spec)).replace("MAP", str(map_path)).replace("ANSWER", str(answer)).split()
    assert words[:2] == ["gridlang", "decode"]
    return subprocess.run([sys.executable, "-m", "gridlang", *words[1:]], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)


@pytest.mark.parametrize("fmt", ["lp", "mps", "wcnf", "pbtxt", "asp"])
def test_the_header_instructions_solve_and_decode_a_map_with_an_objective(tmp_path, fmt):
    map_path = tmp_path / "small.txt"
    map_path.write_text(SMALL)
    done = follow(tmp_path, SPECS["standard"], map_path, fmt)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("verified: score 15")


@pytest.mark.parametrize("fmt", ["cnf", "pbtxt", "asp", "lp"])
def test_the_header_instructions_solve_and_decode_a_puzzle_without_one(tmp_path, fmt):
    done = follow(tmp_path, *SUDOKU, fmt)
    assert done.returncode == 0, done.stderr
    grid = done.stdout.split("\n\n")[0]
    assert re.findall(r"\d", grid) == list("2143" "4312" "3421" "1234")  # the instance's one answer
    assert done.stdout.rstrip().endswith("verified")


def test_the_asp_header_names_the_module_not_a_clingo_executable(tmp_path):
    # The clingo wheel installs no clingo command: the header said "run: clingo FILE".
    map_path = tmp_path / "small.txt"
    map_path.write_text(SMALL)
    out = tmp_path / "m.lp"
    assert main(["export", str(SPECS["standard"]), "--map", str(map_path), "--format", "asp", "-o", str(out)]) == 0
    assert header(out, "asp")["run"] == "python -m clingo --trans-ext=card --opt-heuristic=sign FILE > ANSWER"


def test_every_export_has_a_sidecar(tmp_path):
    map_path = tmp_path / "small.txt"
    map_path.write_text(SMALL)
    for fmt in ("lp", "mps", "wcnf", "pbtxt", "asp"):
        out = tmp_path / f"m.{fmt}"
        assert main(["export", str(SPECS["standard"]), "--map", str(map_path), "--format", fmt, "-o", str(out)]) == 0
        side = json.loads((tmp_path / f"m.{fmt}.vars.json").read_text())
        records = [r for r in side.values() if not r.get("aux")]
        assert sorted(r["var"] for r in records if r["family"] == "wall") == \
            ["wall[1,1]", "wall[1,2]", "wall[1,4]", "wall[1,5]", "wall[2,1]", "wall[2,5]", "wall[3,1]", "wall[3,2]",
             "wall[3,4]", "wall[3,5]", "wall[4,3]"], fmt
    side = json.loads((tmp_path / "m.pbtxt.vars.json").read_text())
    assert side["0"] == {"name": "wall_1_1", "var": "wall[1,1]", "family": "wall", "cell": [1, 1], "value": None,
                         "index": 1, "aux": False}
    flows = [r for r in side.values() if r["family"] == "flow"]
    assert flows and all(r["aux"] and len(r["arc"]) == 2 for r in flows)


@pytest.mark.parametrize("text,words,where", [
    ("status: INFEASIBLE\n", "CP-SAT reports no solution: INFEASIBLE", "1:1"),
    ("status: OPTIMAL\nsolution: 1\n", "the response gives 1 solution values; the model has 24 variables", "2:1"),
    ("status: OPTIMAL\nsolution: x\n", "a solution value is an integer, not 'x'", "2:11"),
    ("status: OPTIMAL\n" + "solution: 0\n" * 3 + "solution: 7\n" + "solution: 0\n" * 30,
     "the model's variables are Boolean, but this one is 7", "5:11"),
    ("status OPTIMAL!\n", "expected a field of CP-SAT's response", "1:1"),
])
def test_a_bad_cpsat_response_is_a_located_error(tmp_path, capsys, text, words, where):
    map_path = tmp_path / "small.txt"
    map_path.write_text(SMALL)
    answer = tmp_path / "answer.txt"
    answer.write_text(text)
    assert main(["decode", str(SPECS["standard"]), "--map", str(map_path), "--solution", str(answer),
                 "--format", "pbtxt"]) == 1
    err = capsys.readouterr().err
    assert f"{answer}:{where}: error: {words}" in err and "Traceback" not in err
