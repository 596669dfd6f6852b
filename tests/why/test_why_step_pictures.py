"""``gridlang hint --step K --svg FILE`` and ``--step all``: what a step's picture highlights (the
cells it decides, the rule cells and clues it uses, its known cells), the numbered files of every
step, and the sentences for a step out of range and a folder that cannot be written."""

from __future__ import annotations

import re

import pytest
from horse_data import REPO

from gridlang.cli import main
from gridlang.cli.why import step_files

SPEC = str(REPO / "puzzles" / "nurikabe.grid")
MAP = str(REPO / "puzzles" / "instances" / "nurikabe" / "pzprjs_5x5.txt")
CELL = 32


def _marks(svg: str, cls: str) -> list[tuple[float, float]]:
    """The top left (a rect) or the centre (an ellipse) of each mark of class ``cls``, in pixels."""
    out = []
    for element in re.findall(rf'<(?:rect|ellipse) class="{cls}"[^>]*>', svg):
        numbers = dict(re.findall(r'(\w+)="([-\d.]+)"', element))
        x = float(numbers.get("x", numbers.get("cx", 0)))
        y = float(numbers.get("y", numbers.get("cy", 0)))
        out.append((x, y))
    return out


def _cells(svg: str, cls: str) -> list[tuple[int, int]]:
    """The ``(row, column)`` (from 0) of each mark of class ``cls`` on the 5x5 grid, centred in the picture."""
    width = float(re.search(r'<svg[^>]*width="([\d.]+)"', svg).group(1))
    pad = (width - 5 * CELL) / 2
    return sorted(
        (int((y - pad) // CELL), int((x - pad) // CELL)) for x, y in _marks(svg, cls)
    )


def test_step_one_highlights_the_clue_of_1_and_the_four_cells_around_it(
    tmp_path, capsys
):
    svg = tmp_path / "step.svg"
    code = main(["hint", SPEC, "--map", MAP, "--step", "1", "--svg", str(svg)])
    assert code == 0
    text = svg.read_text(encoding="utf-8")
    # step 1: the island of the clue 1 at row 4, column 3 is that cell alone, so its four neighbours are shaded
    assert _cells(text, "decides") == [(2, 2), (3, 1), (3, 3), (4, 2)]
    assert _cells(text, "uses rule") == [(3, 2)]
    assert _cells(text, "uses clue") == [(3, 2)]
    assert _cells(text, "known") == []
    capsys.readouterr()


def test_step_all_writes_one_numbered_picture_per_step(tmp_path, capsys):
    code = main(
        [
            "hint",
            SPEC,
            "--map",
            MAP,
            "--step",
            "all",
            "--svg",
            str(tmp_path / "steps.svg"),
        ]
    )
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"steps-{k:02d}.svg" for k in range(1, 10)
    ]
    # step 8: the 2x2 window at row 3, column 4 (four rule cells, no clue), three known cells, one cell decided
    text = (tmp_path / "steps-08.svg").read_text(encoding="utf-8")
    counts = [
        text.count(f'class="{cls}"')
        for cls in ("uses rule", "uses clue", "known", "decides")
    ]
    assert counts == [4, 0, 3, 1]
    assert "wrote 9 steps" in capsys.readouterr().err


def test_step_all_into_a_folder_numbers_step_files_in_it(tmp_path):
    assert [p.name for p in step_files(str(tmp_path), 12, ".png")][:2] == [
        "step-01.png",
        "step-02.png",
    ]
    assert step_files(str(tmp_path / "a.svg"), 120, ".svg")[-1].name == "a-120.svg"
    # a name without a suffix takes the format's, as a folder's files do
    assert [p.name for p in step_files(str(tmp_path / "steps"), 2, ".png")] == ["steps-01.png", "steps-02.png"]


def test_a_step_beyond_the_last_is_a_sentence_and_exit_1(tmp_path, capsys):
    code = main(
        ["hint", SPEC, "--map", MAP, "--step", "10", "--svg", str(tmp_path / "s.svg")]
    )
    err = capsys.readouterr().err
    assert (
        code == 1
        and "error: --step 10: there are 9 steps" in err
        and "Traceback" not in err
    )
    assert not (tmp_path / "s.svg").exists()


def test_a_picture_in_a_missing_folder_is_refused_before_the_run(tmp_path, capsys):
    target = tmp_path / "nowhere" / "s.svg"
    code = main(["hint", SPEC, "--map", MAP, "--svg", str(target)])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert (
        f"error: --svg {target}: the folder {target.parent} does not exist"
        in captured.err
    )
    # a folder named with its last '/' for --step all: refused, not taken for a file's name beside it
    folder = f"{tmp_path / 'steps'}/"
    code = main(["hint", SPEC, "--map", MAP, "--step", "all", "--svg", folder])
    assert code == 1 and f"error: --svg {folder}: the folder {tmp_path / 'steps'} does not exist" in (
        capsys.readouterr().err
    )
    assert list(tmp_path.iterdir()) == []


def test_step_must_be_a_number_or_all(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["hint", SPEC, "--map", MAP, "--step", "some"])
    assert stop.value.code == 1
    assert "argument --step: 'some' is not a whole number; give a step's number (1, 2, ...) or 'all'" in (
        capsys.readouterr().err
    )
