"""`gridlang verify`: the spec's own rules, evaluated on an answer file, accept a
solved answer and reject corrupted ones, naming the rule's line."""

from __future__ import annotations

import json
from pathlib import Path

from gridlang.cli import main

REPO = Path(__file__).resolve().parents[2]
HORSE = str(REPO / "puzzles" / "horse.grid")
DAILY = str(REPO / "puzzles" / "maps" / "daily-2026-01-07.txt")
EGGS = str(REPO / "puzzles" / "snake_eggs.grid")
EGGS_6X6 = str(REPO / "puzzles" / "instances" / "snake_eggs" / "jandhyala_ch32_6x6.txt")


def solved(capsys, spec: str, map_: str) -> dict:
    assert main(["solve", spec, "--map", map_, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def verify(capsys, tmp_path, spec: str, map_: str, answer: dict) -> tuple[int, str, str]:
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(answer))
    code = main(["verify", spec, "--map", map_, "--solution", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_solved_horse_answer_holds_with_its_score(capsys, tmp_path):
    answer = solved(capsys, HORSE, DAILY)
    code, out, _ = verify(capsys, tmp_path, HORSE, DAILY, answer)
    assert code == 0 and "objective 66" in out


def test_a_wall_removed_breaks_the_border_rule(capsys, tmp_path):
    answer = solved(capsys, HORSE, DAILY)
    answer["decisions"]["wall"] = answer["decisions"]["wall"][1:]
    code, _, err = verify(capsys, tmp_path, HORSE, DAILY, answer)
    assert code == 4
    assert "horse.grid:24:9: rule violated: pen avoids border" in err


def test_a_wall_past_the_budget_breaks_the_count_rule(capsys, tmp_path):
    answer = solved(capsys, HORSE, DAILY)
    walls = answer["decisions"]["wall"]
    rows = Path(DAILY).read_text().splitlines()[1:]
    spare = next([r, c] for r, line in enumerate(rows) for c, ch in enumerate(line)
                 if ch == "." and [[r, c], 1] not in walls and 0 < r < len(rows) - 1 and 0 < c < len(line) - 1)
    answer["decisions"]["wall"] = walls + [[spare, 1]]
    code, _, err = verify(capsys, tmp_path, HORSE, DAILY, answer)
    assert code == 4
    assert "horse.grid:25:9: rule violated: count(wall) <= budget" in err
    assert "13 <= 12 is false" in err


def test_a_wrong_claimed_score_is_refused(capsys, tmp_path):
    answer = solved(capsys, HORSE, DAILY)
    answer["objective"] = 67
    code, _, err = verify(capsys, tmp_path, HORSE, DAILY, answer)
    assert code == 4 and "claims the objective 67" in err and "score it 66" in err


def test_an_egg_cell_flipped_is_caught(capsys, tmp_path):
    answer = solved(capsys, EGGS, EGGS_6X6)
    assert main(["verify", EGGS, "--map", EGGS_6X6, "--solution", str(_write(tmp_path, answer))]) == 0
    capsys.readouterr()
    cells = answer["decisions"]["kind"]
    i = next(k for k, (cell, value) in enumerate(cells) if value != "snake")
    cells[i] = [cells[i][0], "snake"]
    code, _, err = verify(capsys, tmp_path, EGGS, EGGS_6X6, answer)
    assert code == 4 and "rule violated" in err


def _write(tmp_path: Path, answer: dict) -> Path:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(answer))
    return path


def test_an_encoding_that_drops_a_rule_fails_the_spec_check_after_solve():
    """A model missing the border rule (as a compiler bug would) lets the
    solver wall nothing in; the interpreter, run after every solve, names
    the rule the answer breaks instead of reporting a wrong optimum."""
    import pytest

    from gridlang.core.errors import VerificationError
    from gridlang.core.nodes import replace
    from gridlang.solving.pipeline import load, solve_model

    model, _ = load(HORSE, DAILY)
    kept = tuple(c for c in model.constraints if c.span is None or c.span.line != 24)
    assert len(kept) < len(model.constraints)
    broken = replace(model, constraints=kept)
    with pytest.raises(VerificationError) as e:
        solve_model(broken, "cpsat")
    assert "spec's own rules" in str(e.value) and "horse.grid:24:9: rule violated: pen avoids border" in str(e.value)
