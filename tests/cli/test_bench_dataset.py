"""gridlang bench dataset: puzzlekit-dataset's files converted, sampled, solved beside a peer, tabled.

The dataset states no licence, so none of its puzzles is here: every puzzle
below is written for these tests in the dataset's file format (a header
line ``ROWS COLS``, then tokens, ``-`` an empty cell). The peer is
``dataset_peer.py`` beside this file, so the tests need no puzzlekit.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gridlang.batch import dataset, versus
from gridlang.batch.dataset import GENRES, DatasetError, Puzzle
from gridlang.cli import main

PEER = [sys.executable, str(Path(__file__).with_name("dataset_peer.py"))]

AKARI = {
    "problem": "3 3\n- - -\n- 4 -\n- - -",
    "solution": "3 3\n- o -\no 4 o\n- o -",
    "source": "tests",
}
NURIKABE = {
    "problem": "3 3\n3 - -\n- - -\n- - 1",
    "solution": "3 3\n- - x\n- x x\nx x -",
    "source": "tests",
}


def _write(root: Path, folder: str, data: dict) -> None:
    (root / folder).mkdir(parents=True, exist_ok=True)
    (root / folder / f"{folder}_dataset.json").write_text(
        json.dumps({"count": len(data), "data": data})
    )


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """Two genres: a unique Akari; Nurikabe's unique 3x3, the same with a wrong published solution,
    a ragged one and one without a solution."""
    _write(tmp_path, "Akari", {"1_3x3": AKARI})
    _write(
        tmp_path,
        "Nurikabe",
        {
            "1_3x3": NURIKABE,
            "2_3x3": {**NURIKABE, "solution": "3 3\n- x x\n- x x\nx x -"},
            "3_3x3": {**NURIKABE, "problem": "3 3\n3 - -\n- -\n- - 1"},
            "4_3x3": {**NURIKABE, "solution": ""},
        },
    )
    return tmp_path


def test_each_converter_writes_the_map_its_spec_reads():
    maps = {
        g: GENRES[g].to_map(p)
        for g, p in {
            "akari": "2 3\n- x 1\n0 - -",
            "nurikabe": "2 3\n12 - -\n- - 1",
            "hitori": "2 2\n1 10\n10 1",
            "slitherlink": "2 2\n3 .\n- 0",
            "heyawake": "2 3\n2 - -\n- - -\n1 1 2\n1 1 2",
            "lits": "2 3\n1 1 2\n1 3 2",
            "starbattle": "2 3 1\n1 1 2\n1 3 2",
            "masyu": "2 3\nw - b\n1 - 2",
            "norinori": "2 2\n- -\n- -\n1 2\n1 2",
            "nurimisaki": "2 2\n? -\n- 3",
            "sudoku": "4 4\n1 - - -\n- - 2 -\n- 3 - -\n- - - 4",
            "suguru": "2 2\n1 -\n- -\n1 1\n2 2",
        }.items()
    }
    assert maps == {
        "akari": "grid:\n.#1\n0..\n",
        "nurikabe": "12 . .\n. . 1\n",
        "hitori": "1 10\n10 1\n",
        "slitherlink": "3 .\n. 0\n",
        "heyawake": "2 . .\n. . .\nrooms:\n1 1 2\n1 1 2\n",
        "lits": "...\n...\nrooms:\n1 1 2\n1 3 2\n",
        "starbattle": "stars: 1\n...\n...\nrooms:\n1 1 2\n1 3 2\n",
        "masyu": "o.*\no.*\n",
        "norinori": "..\n..\nrooms:\n1 2\n1 2\n",
        "nurimisaki": "? .\n. 3\n",
        "sudoku": "box_rows: 2\nbox_cols: 2\n1 . . .\n. . 2 .\n. 3 . .\n. . . 4\n",
        "suguru": "1 .\n. .\nrooms:\n1 1\n2 2\n",
    }
    # LITS and Star Battle read a cell outside every room as their spec's hole; Norinori has none
    assert GENRES["lits"].to_map("2 2\n1 @\n1 1") == ".*\n..\nrooms:\n1 .\n1 1\n"
    assert (
        GENRES["starbattle"].to_map("2 3 1\n@ 1 2\n1 1 #")
        == "stars: 1\n*..\n..*\nrooms:\n. 1 2\n1 1 .\n"
    )
    with pytest.raises(
        DatasetError, match="the cell at row 1, column 2 is '@', outside every room"
    ):
        GENRES["norinori"].to_map("2 2\n- -\n- -\n1 @\n1 1")
    with pytest.raises(DatasetError, match="a Sudoku of 3x3 cells has no square boxes"):
        GENRES["sudoku"].to_map("3 3\n- - -\n- - -\n- - -")


def test_the_answer_readers_give_cells_and_edges():
    assert dataset.lights("2 2\no -\n1 o") == {(0, 0), (1, 1)}
    assert dataset.shaded("2 2\nx -\n- x") == {(0, 0), (1, 1)}
    assert dataset.tetrominoes("2 2\nL -\nT S") == {(0, 0), (1, 0), (1, 1)}
    # Masyu: the 2x2 loop, each cell's two directions
    assert dataset.masyu_lines("2 2\nse sw\nne nw") == {
        ((0, 0), (0, 1)),
        ((0, 0), (1, 0)),
        ((0, 1), (1, 1)),
        ((1, 0), (1, 1)),
    }
    # Slitherlink: one cell inside, its four borders between corners
    assert dataset.slitherlink_lines("2 2\nx -\n- -") == {
        ((0, 0), (0, 1)),
        ((0, 0), (1, 0)),
        ((0, 1), (1, 1)),
        ((1, 0), (1, 1)),
    }
    report = {
        "decisions": {
            "line": [[[[0, 1], [0, 0]], 1], [[[1, 0], [1, 1]], 0]],
            "light": [[[2, 3], True]],
        }
    }
    assert dataset.answer_of_report(report, "line") == {((0, 0), (0, 1))}
    assert dataset.answer_of_report(report, "light") == {(2, 3)}
    assert dataset.answer_of_report({}, "light") is None
    # Cave: the shaded cells are those left out of the cave (x); numbers as each cell's value
    assert dataset.walls("2 2\nx -\nx x") == {(0, 1)}
    assert dataset.digits("2 2\n1 2\n2 1") == {
        (0, 0, 1),
        (0, 1, 2),
        (1, 0, 2),
        (1, 1, 1),
    }
    digit = {"decisions": {"digit": [[[0, 0], 1], [[0, 1], 2]]}}
    assert dataset.answer_of_report(digit, "digit", with_values=True) == {
        (0, 0, 1),
        (0, 1, 2),
    }


@pytest.mark.parametrize(
    "problem, message",
    [
        ("three by three\n- -", "the first line 'three by three' is not 'ROWS COLS'"),
        ("2 2\n- -", "1 rows under the header, where 2 are needed"),
        ("2 2\n- -\n- - -", "row 2 has 3 cells, where the header says 2"),
        ("1 2\n- q", "the token 'q' at row 1, column 2 is no cell of this genre"),
    ],
)
def test_a_puzzle_a_converter_cannot_read_is_a_sentence(problem, message):
    with pytest.raises(DatasetError) as e:
        GENRES["nurikabe"].to_map(problem)
    assert e.value.message == message


def test_the_bands_go_by_the_longer_side():
    assert [
        dataset.band_of(r, c)
        for r, c in [(15, 15), (10, 16), (30, 30), (31, 45), (50, 50), (50, 80)]
    ] == ["15", "30", "30", "50", "50", "beyond"]


def test_the_sample_draws_per_band_with_its_seed_and_keeps_the_largest():
    puzzles = [Puzzle("akari", f"{n}_{n}x{n}", n, n, "", "x", "") for n in range(5, 61)]
    drawn = dataset.sample(puzzles, per_band=2, largest=1, seed=3)
    assert [p.band for p in drawn].count("15") == 2 and [p.band for p in drawn].count(
        "30"
    ) == 2
    assert [p.band for p in drawn].count("50") == 2
    assert drawn[-1].key == "60_60x60"  # the largest, whether drawn or not
    assert drawn == dataset.sample(puzzles, per_band=2, largest=1, seed=3)
    assert dataset.sample(puzzles, per_band=2, seed=4) != drawn
    assert len(dataset.sample(puzzles, bands=["15"], per_band=None, largest=0)) == 11


def test_the_draw_names_the_puzzles_left_out(tiny):
    puzzles, notes = versus.draw(tiny)
    assert [p.name for p in puzzles] == [
        "akari/1_3x3",
        "nurikabe/1_3x3",
        "nurikabe/2_3x3",
        "nurikabe/3_3x3",
    ]
    assert notes == [
        "nurikabe: 1 of 4 puzzles have no published solution and were not drawn (4_3x3)"
    ]
    with pytest.raises(
        DatasetError, match="no size band 'huge'; there are 15, 30, 50, beyond"
    ):
        versus.draw(tiny, bands=["huge"])
    with pytest.raises(DatasetError, match="holds no LITS/LITS_dataset.json"):
        versus.draw(tiny, ["lits"])


def test_both_sides_are_run_and_counted(tiny):
    puzzles, _ = versus.draw(tiny)
    rows = versus.run(puzzles, ["auto"], 20, PEER)
    assert [
        (r["puzzle"], r["side"], r["status"], r["correct"], r["unique"]) for r in rows
    ] == [
        ("akari/1_3x3", "gridlang", "SOLVED", True, True),
        ("akari/1_3x3", "peer", "Optimal", True, None),
        ("nurikabe/1_3x3", "gridlang", "SOLVED", True, True),
        ("nurikabe/1_3x3", "peer", "Timeout", False, None),
        ("nurikabe/2_3x3", "gridlang", "SOLVED", False, True),
        ("nurikabe/2_3x3", "peer", "Timeout", False, None),
        ("nurikabe/3_3x3", "gridlang", "UNREADABLE", False, None),
        ("nurikabe/3_3x3", "peer", "Timeout", False, None),
    ]
    assert rows[4]["error"] == "the answer differs from the published solution"
    assert rows[6]["error"] == "row 2 has 2 cells, where the header says 3"
    assert set(rows[0]["seconds"]) >= {"parse", "compile", "solve"}
    assert rows[0]["cpu"] > 0 and rows[1]["cpu"] > 0  # each child's own CPU seconds
    table = versus.table(rows).splitlines()
    assert [line.split(" | ")[:5] + line.split(" | ")[8:9] for line in table[2:]] == [
        ["| akari", "up to 15x15", "auto", "1", "1", "1"],
        ["| nurikabe", "up to 15x15", "auto", "3", "1", "0"],
    ]
    # the ratio is over the puzzles both sides answered as published: none for Nurikabe here
    assert [line.split(" | ")[11] for line in table[2:]][1] == "-"
    assert float(table[2].split(" | ")[11]) > 0
    named = versus.findings(rows)
    assert [
        line for line in named if "slower" in line and "nurikabe" in line
    ] == []  # the peer had no answer
    assert [
        line.split(":")[0] + ": " + line.split(": ")[1].split(" ")[0]
        for line in named
        if "slower" not in line
    ] == [
        "gridlang not correct: nurikabe/2_3x3",
        "gridlang not correct: nurikabe/3_3x3",
        "peer not correct: nurikabe/1_3x3",
        "peer not correct: nurikabe/2_3x3",
        "peer not correct: nurikabe/3_3x3",
    ]
    growth = versus.growth(rows).splitlines()
    assert [line.split(" | ")[:4] for line in growth[2:]] == [
        ["| akari", "up to 15x15", "1", "9"],
        ["| nurikabe", "up to 15x15", "2", "9"],
    ]
    assert [
        line.split(" | ")[:3] + line.split(" | ")[4:5]
        for line in versus.compile_at_size(rows).splitlines()[2:]
    ] == [["| akari", "1_3x3", "9", "1.00"], ["| nurikabe", "1_3x3", "9", "1.00"]]


def test_the_largest_proved_per_backend_names_the_smallest_that_was_not():
    def row(puzzle, cells, backend, correct, unique, status="SOLVED", error=None):
        return {
            "genre": "akari",
            "puzzle": puzzle,
            "cells": cells,
            "side": "gridlang",
            "backend": backend,
            "correct": correct,
            "unique": unique,
            "status": status,
            "error": error,
        }

    rows = [
        row("akari/1_9x9", 81, "asp", True, True),
        row("akari/2_50x50", 2500, "asp", True, True),
        row("akari/1_9x9", 81, "milp", True, True),
        row(
            "akari/2_50x50",
            2500,
            "milp",
            False,
            None,
            "UNKNOWN",
            "the time limit ran out",
        ),
    ]
    assert versus.largest_proved(rows).splitlines()[2:] == [
        "| akari | asp | 2 of 2 | 2_50x50 (2500 cells) | - | - |",
        "| akari | milp | 1 of 2 | 1_9x9 (81 cells) | 2_50x50 (2500 cells) | UNKNOWN: the time limit ran out |",
    ]


def test_a_puzzle_whose_model_was_not_built_misses_the_compile_target():
    def row(key, cells, seconds, status="SOLVED", error=None):
        return {
            "genre": "akari",
            "puzzle": f"akari/{key}",
            "band": "beyond" if cells > 2500 else "50",
            "cells": cells,
            "side": "gridlang",
            "backend": "auto",
            "seconds": seconds,
            "status": status,
            "error": error,
        }

    rows = [
        row("1_50x50", 2500, {"parse": 0.25, "compile": 0.5, "solve": 0.75}),
        row(
            "2_100x100",
            10000,
            {"total": 60.0},
            "UNKNOWN",
            "the time limit ran out while the model was compiled",
        ),
    ]
    assert versus.compile_at_size(rows).splitlines()[2:] == [
        "| akari | 2_100x100 | 10000 | - | 4.00 | no: UNKNOWN: the time limit ran out while the model was compiled |"
    ]
    assert versus.compile_at_size(rows[:1]).splitlines()[2:] == [
        "| akari | 1_50x50 | 2500 | 0.75 | 1.00 | yes |"
    ]
    assert versus.growth(rows).splitlines()[2:] == [
        "| akari | up to 50x50 | 1 | 2500 | 0.75 | 0.75 | 0.75 | 0.75 | 0.300 |"
    ]


def test_a_located_error_is_one_line_in_a_table():
    assert (
        versus._said(
            "f.grid:21:15: error: too many variables\n    decide digit\n    ^^^"
        )
        == "too many variables"
    )
    assert versus._said(None) is None


def test_a_time_out_before_any_model_is_read_from_stderr():
    record = {
        "status": "UNKNOWN",
        "stats": {"reason": "the time limit ran out while the model was compiled"},
    }
    assert versus._report("", "warning\n" + json.dumps(record) + "\n") == record
    assert versus._report("", "error: no such file\n") is None


def test_the_puzzlekit_peer_without_puzzlekit_says_so_in_its_line(tmp_path):
    # gridlang's own environment has no puzzlekit: the script's line says why it has no answer
    if importlib.util.find_spec("puzzlekit") is not None:
        pytest.skip("puzzlekit is installed beside gridlang here")
    (tmp_path / "p.txt").write_text(AKARI["problem"])
    (tmp_path / "s.txt").write_text(AKARI["solution"])
    out = subprocess.run(
        [
            sys.executable,
            str(versus.PEER_SCRIPT),
            "akari",
            str(tmp_path / "p.txt"),
            str(tmp_path / "s.txt"),
            "5",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == {
        "status": "ERROR",
        "matches": None,
        "error": "ModuleNotFoundError: No module named 'puzzlekit'",
    }


def test_a_peer_that_does_not_start_or_answer_is_a_row(tiny):
    puzzles, _ = versus.draw(tiny, ["akari"])
    missing = versus.run(puzzles, ["auto"], 20, ["/nonexistent/python"])
    assert [(r["side"], r["status"], r["correct"]) for r in missing] == [
        ("gridlang", "SOLVED", True),
        ("peer", "ERROR", False),
    ]
    assert missing[1]["error"].startswith(
        "the peer command '/nonexistent/python' did not start"
    )
    silent = versus.run(
        puzzles, ["auto"], 20, [sys.executable, "-c", "print('no json')"]
    )
    assert (silent[1]["status"], silent[1]["error"]) == (
        "ERROR",
        "exit 0, no answer line",
    )


def test_the_command_prints_the_tables_and_exits_4_on_a_wrong_answer(
    tiny, tmp_path, capsys
):
    out = tmp_path / "rows.jsonl"
    code = main(
        [
            "bench",
            "dataset",
            "--dataset",
            str(tiny),
            "--genres",
            "akari",
            "--peer-command",
            " ".join(PEER),
            "-t",
            "20",
            "-o",
            str(out),
            "--quiet",
        ]
    )
    text = capsys.readouterr().out
    assert code == 0
    assert "| akari | up to 15x15 | auto | 1 | 1 | 1 |" in text
    assert [json.loads(line)["side"] for line in out.read_text().splitlines()] == [
        "gridlang",
        "peer",
    ]
    code = main(
        [
            "bench",
            "dataset",
            "--dataset",
            str(tiny),
            "--genres",
            "nurikabe",
            "-t",
            "20",
            "-o",
            str(out),
            "--quiet",
            "--json",
        ]
    )
    rows = json.loads(capsys.readouterr().out)
    assert code == 4
    # the rows' file is opened before any solve: a folder there is a sentence at once
    assert (
        main(
            ["bench", "dataset", "--dataset", str(tiny), "-o", str(tmp_path), "--quiet"]
        )
        == 1
    )
    assert capsys.readouterr().err == f"error: {tmp_path}: Is a directory\n"
    assert [(r["puzzle"], r["correct"]) for r in rows] == [
        ("nurikabe/1_3x3", True),
        ("nurikabe/2_3x3", False),
        ("nurikabe/3_3x3", False),
    ]


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["bench", "dataset"],
            "error: bench dataset needs --dataset PATH (a clone of puzzlekit-dataset)",
        ),
        (
            ["bench", "dataset", "dailies", "--dataset", "."],
            "error: the set dataset runs alone",
        ),
        (
            ["bench", "dataset", "--dataset", ".", "--sample", "-1"],
            "error: --sample and --largest take a count of 0",
        ),
        (
            ["bench", "dataset", "--dataset", ".", "--genres", "kakuro"],
            "error: no converter for the genre 'kakuro'",
        ),
    ],
)
def test_bad_options_are_a_sentence(argv, message, capsys):
    assert main(argv) == 1
    assert capsys.readouterr().err.startswith(message)
