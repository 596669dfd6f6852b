"""``--json`` as a contract: every record a sample of real solves prints validates against the
shipped JSON Schemas (gridlang/data/schemas), and the record says what it found (``solutions``,
``second``, ``differ``, ``SOLVED``) in one coordinate convention: ``[r, c]`` from 0 in JSON,
``row R, column C`` from 1 in text."""

from __future__ import annotations

import json
import re

import pytest

jsonschema = pytest.importorskip("jsonschema")

from horse_data import REPO  # noqa: E402

from gridlang.cli import main  # noqa: E402
from gridlang.service.schemas import NAMES, schema, validator  # noqa: E402

HORSE = str(REPO / "puzzles" / "horse.grid")
COSTLY = str(REPO / "puzzles" / "horse_costlywalls.grid")
EGGS = str(REPO / "puzzles" / "snake_eggs.grid")
MAPS = REPO / "puzzles" / "maps"
TEXTBOOK = REPO / "puzzles" / "instances" / "snake_eggs" / "jandhyala_ch32_6x6.txt"


def solve(argv, capsys, expect: int = 0) -> dict:
    code = main(["solve"] + [str(a) for a in argv] + ["--json"])
    out = capsys.readouterr().out
    assert code == expect, out
    record = json.loads(out)
    validator("solve").validate(record)
    return record


@pytest.fixture(scope="module")
def no_clues(tmp_path_factory):
    """The textbook Snake Eggs without its clues: exactly two answers."""
    lines = TEXTBOOK.read_text(encoding="utf-8").splitlines()
    out = [ln if ln.startswith(("#", "sizes")) else "".join("o" if ch == "o" else "." for ch in ln) for ln in lines]
    path = tmp_path_factory.mktemp("eggs") / "no_clues.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_the_schemas_are_valid_draft_2020_12():
    for name in NAMES:
        jsonschema.Draft202012Validator.check_schema(schema(name))
        assert schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("argv, status, objective", [
    (["horse", "daily-2026-01-07.txt", "--backend", "cpsat"], "OPTIMAL", 66),
    (["costly", "bonus-2026-03-26-costlywalls.txt", "--backend", "cpsat"], "OPTIMAL", None),
    (["eggs", "textbook", "--unique"], "SOLVED", None),
    (["--url", "https://puzz.link/p?nurikabe/7/5/u5n5p", "--unique"], "SOLVED", None),
    (["--url", "https://puzz.link/p?slither/5/5/cbcbcddad", "--backend", "cpsat"], "SOLVED", None),
    (["--url", "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"], "SOLVED", None),
    (["--url", "https://puzz.link/p?sudoku/4/4/g1k23k3g"], "SOLVED", None),
])
def test_solved_records_validate(capsys, argv, status, objective):
    names = {"horse": [HORSE, "--map", MAPS / "daily-2026-01-07.txt"],
             "costly": [COSTLY, "--map", MAPS / "bonus-2026-03-26-costlywalls.txt"],
             "eggs": [EGGS, "--map", TEXTBOOK]}
    argv = names[argv[0]] + argv[2:] if argv[0] in names else argv
    record = solve(argv, capsys)
    assert (record["status"], record["verified"]) == (status, True)
    if objective is not None:
        assert record["objective"] == objective
    if status == "SOLVED":
        assert record["objective"] is None
    if "--unique" in argv:
        assert record["unique"] is True and record["solutions_found"] == 1 and "second" not in record


def test_connectivity_is_null_without_a_connectivity_constraint(capsys):
    sudoku = solve(["--url", "https://puzz.link/p?sudoku/4/4/g1k23k3g"], capsys)
    eggs = solve([EGGS, "--map", TEXTBOOK, "--backend", "asp"], capsys)
    assert sudoku["connectivity"] is None and eggs["connectivity"] == "reach"


def test_infeasible_and_time_out_records_validate(tmp_path, capsys):
    border = tmp_path / "border.txt"
    border.write_text("budget: 3\n~H~\n~.~\n~~~\n")
    record = solve([HORSE, "--map", border, "--backend", "cpsat"], capsys, expect=2)
    assert (record["status"], record["decisions"], record["verified"]) == ("INFEASIBLE", None, False)
    record = solve([HORSE, "--map", MAPS / "weekly-01.txt", "--set", "cpsat.max_deterministic_time=0.0000001"],
                   capsys, expect=3)
    assert (record["status"], record["decisions"], record["horse"]["walls"]) == ("UNKNOWN", None, None)


def test_count_lists_every_answer_and_says_whether_that_is_all(capsys, no_clues):
    record = solve([EGGS, "--map", no_clues, "--count", "5"], capsys)
    assert (record["solutions_found"], record["complete"], len(record["solutions"])) == (2, True, 2)
    assert record["solutions"][0] == record["decisions"] and record["solutions"][0] != record["solutions"][1]
    assert set(record["solutions"][1]) == {"kind"}
    record = solve([EGGS, "--map", no_clues, "--count", "1"], capsys)
    assert "solutions" not in record  # one answer asked for: no enumeration
    assert main(["solve", EGGS, "--map", str(no_clues), "--count", "5"]) == 0
    assert "\n2 solutions found: all there are (the search proved there is no other)\n" in capsys.readouterr().out
    assert main(["solve", EGGS, "--map", str(no_clues), "--count", "2"]) == 0
    assert "\n2 solutions found, the 2 asked for (--count 2); there may be more\n" in capsys.readouterr().out


def test_a_second_answer_comes_with_the_cells_that_differ_in_both_conventions(capsys, no_clues):
    record = solve([EGGS, "--map", no_clues, "--unique"], capsys)
    assert record["unique"] is False and record["second"] == record["solutions"][1]
    first = {tuple(k): v for k, v in record["decisions"]["kind"]}
    second = {tuple(k): v for k, v in record["second"]["kind"]}
    differ = [tuple(c) for c in record["differ"]]
    assert differ == sorted(k for k in first if first[k] != second[k]) and differ
    assert all(0 <= r < 6 and 0 <= c < 6 for r, c in differ)  # JSON: from 0
    assert main(["solve", EGGS, "--map", str(no_clues), "--unique"]) == 0
    text = capsys.readouterr().out
    line = next(ln for ln in text.splitlines() if ln.startswith("cells that differ: "))
    assert line == "cells that differ: " + "; ".join(f"row {r + 1}, column {c + 1}" for r, c in differ)  # text: from 1
    assert not re.search(r"\(\d+, \d+\)", text)


def test_batch_lines_validate_including_the_error_form(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("budget: 1\n~~~~~\n~.H.~\n~..~\n")
    out = tmp_path / "r.jsonl"
    code = main(["batch", HORSE, str(MAPS / "daily-2026-01-10.txt"), str(bad), "--out", str(out), "--workers", "1",
                 "--backend", "cpsat"])
    capsys.readouterr()
    assert code == 1  # one map is bad
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    check = validator("batch")
    for line in lines:
        check.validate(line)
    assert sorted(line["status"] for line in lines) == ["ERROR", "OPTIMAL"]
    with pytest.raises(jsonschema.ValidationError):  # the solve record alone lacks map and host
        check.validate({k: v for k, v in lines[0].items() if k not in ("host",)} | {"status": "OPTIMAL"})


def test_bench_rows_validate(tmp_path, capsys):
    out = tmp_path / "b.jsonl"
    assert main(["bench", "snake-eggs", "--maps", "igornadj_test_2x8.txt", "--backend", "cpsat", "--out", str(out),
                 "--root", str(REPO), "--quiet"]) == 0
    capsys.readouterr()
    row = json.loads(out.read_text())
    validator("bench").validate(row)
    assert (row["status"], row["correct"]) == ("SOLVED", True)


def test_extra_fields_follow_the_documented_rule(capsys):
    record = solve([HORSE, "--map", MAPS / "daily-2026-01-10.txt", "--backend", "cpsat"], capsys)
    check = validator("solve")
    check.validate(record | {"retries": 1, "worker_death": "SIGKILL"})  # lower-case snake_case: allowed
    for bad in ({"Retries": 1}, {"status": "DONE"}, {"decisions": {"wall": [[[-1, 0], 1]]}}, {"connectivity": 3}):
        with pytest.raises(jsonschema.ValidationError):
            check.validate(record | bad)


def test_a_solver_log_asked_for_goes_to_stderr_and_json_stays_one_document():
    """CP-SAT's ``log_to_stdout`` writes from C++ to file descriptor 1; with
    ``--json`` it goes to standard error, and standard output is the document."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "gridlang", "solve", str(REPO / "puzzles" / "horse.grid"),
         "--map", str(REPO / "puzzles" / "maps" / "daily-2026-01-07.txt"), "--budget", "12", "--backend", "cpsat",
         "--json", "--set", "cpsat.log_to_stdout=true", "--set", "cpsat.log_search_progress=true"],
        capture_output=True, text=True, timeout=120, cwd=REPO.parent)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["status"], answer["verified_score"]) == ("OPTIMAL", 66)
    assert "Starting CP-SAT solver" in done.stderr and "CpSolverResponse summary" in done.stderr


# With --json an error is a report too: a script gets the status, the sentence and its place -----------------


def test_a_spec_error_under_json_is_a_located_error_record(tmp_path, capsys):
    spec = tmp_path / "bad.grid"
    spec.write_text("tile a '.'\ndecide x: bool on a\nrequire count(y) == 1\n", encoding="utf-8")
    puzzle = tmp_path / "m.txt"
    puzzle.write_text("..\n..\n", encoding="utf-8")
    record = solve([spec, "--map", puzzle], capsys, expect=1)
    validator("error").validate(record)
    assert record["status"] == "ERROR" and record["exit"] == 1
    assert record["errors"] == [{"kind": "error", "message": "unknown name 'y'", "file": str(spec), "line": 3,
                                 "column": 15, "end_column": 16}]
    assert record["message"].startswith(f"{spec}:3:15: error: unknown name 'y'\n")


def test_an_unknown_genre_under_json_names_its_place_in_the_url(capsys):
    record = solve(["--url", "https://puzz.link/p?nosuchgenre/5/5/g5k"], capsys, expect=1)
    validator("error").validate(record)
    (error,) = record["errors"]
    assert error["file"] == "--url" and (error["line"], error["column"]) == (1, 21)
    assert error["message"].startswith("unknown genre 'nosuchgenre'")


def test_several_errors_under_json_are_each_in_the_record(tmp_path, capsys):
    spec = tmp_path / "two.grid"
    spec.write_text("tile a '.'\ndecide x: bool on a\nrequire count(y) == 1\nrequire count(z) == 1\n",
                    encoding="utf-8")
    puzzle = tmp_path / "m.txt"
    puzzle.write_text("..\n", encoding="utf-8")
    record = solve([spec, "--map", puzzle], capsys, expect=1)
    assert [(e["line"], e["message"]) for e in record["errors"]] == [(3, "unknown name 'y'"),
                                                                      (4, "unknown name 'z'")]


def test_without_json_an_error_leaves_standard_output_empty(tmp_path, capsys):
    spec = tmp_path / "bad.grid"
    spec.write_text("tile a '.'\ndecide x: bool on a\nrequire count(y) == 1\n", encoding="utf-8")
    assert main(["solve", str(spec), "--map", str(spec)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "unknown name 'y'" in captured.err


@pytest.mark.parametrize("fault, words", [
    (RuntimeError("boom"), "gridlang failed on a problem it does not know (RuntimeError: boom); this is a bug"),
    (MemoryError(), "the machine ran out of memory"),
])
def test_a_fault_under_json_is_an_error_record_and_no_traceback(monkeypatch, capsys, fault, words):
    import gridlang.service.solve

    def fail(request):
        raise fault

    monkeypatch.setattr(gridlang.service.solve, "compile_request", fail)
    record = solve([HORSE, "--map", MAPS / "daily-2026-01-07.txt"], capsys, expect=1)
    validator("error").validate(record)
    assert record["status"] == "ERROR" and record["errors"][0]["message"].startswith(words)
    assert record["errors"][0]["file"] is None
