"""``gridlang generate`` for genres whose clues stand on the corners of the cells or on the borders
between two cells (Gokigen, Creek, Kropki, Minarism; Sumiwake with its rooms; Wagiri and No Three
with clues in the cells too): each puzzle proved unique by clingo (the
generator digs on CP-SAT and checks on MaxSAT), each clue shown needed by clingo too (with it
blanked the map has several answers, none, or only another one), and its puzz.link URL read back
to the same puzzle."""

from __future__ import annotations

import pytest

import gridlang
from gridlang.cli import main

CASES = {  # genre: (rows, cols, seed, params)
    "gokigen": (4, 4, 1, {}),
    "creek": (4, 4, 1, {}),
    "kropki": (4, 4, 1, {"n": 4}),
    "minarism": (4, 4, 1, {"n": 4}),
    "sumiwake": (4, 4, 1, {}),  # its rules read rooms too: rectangles drawn first
    "wagiri": (4, 4, 1, {}),  # clues in the cells and on the corners
    "nothree": (4, 4, 1, {}),  # in the cells, on the corners and on the borders
}

THIRD = "asp"
"""The backend of the tests' own checks."""

LAYERS = ("corners:", "borders:")


def _places(text: str, rows: int, header: int) -> tuple[list[str], list[list[str]]]:
    """The map's lines, and each line's tokens where clues stand: the grid's rows (characters) and the
    rows of its ``corners:`` (characters) and ``borders:`` (separated by spaces) layers; other lines
    (the header, ``rooms:``) have none."""
    lines = text.splitlines()
    tokens: list[list[str]] = [[] for _ in lines]
    for i in range(header, header + rows):
        tokens[i] = list(lines[i])
    layer = None
    for i, line in enumerate(lines):
        if line in LAYERS or line == "rooms:":
            layer = line
        elif layer in LAYERS and line.strip():
            tokens[i] = list(line) if layer == "corners:" else line.split()
    return lines, tokens


def _text(lines: list[str], tokens: list[list[str]], i: int, j: int) -> str:
    """The map with the clue at token ``j`` of line ``i`` blanked."""
    row = list(tokens[i])
    row[j] = "."
    out = list(lines)
    out[i] = ("" if " " not in lines[i] else " " if lines[i].startswith(" ") else "") + \
        ((" " if " " in lines[i] else "").join(row))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("genre", sorted(CASES))
def test_a_puzzle_with_clues_on_corners_or_borders_is_unique_and_every_clue_is_needed(genre):
    rows, cols, seed, params = CASES[genre]
    spec = gridlang.bundled(genre)
    made = gridlang.generate(spec, (rows, cols), seed=seed, params=params, time_limit=600)
    assert made.seed == seed and made.checked_by == "maxsat"
    first = gridlang.solve(spec, map=made.map, backend=THIRD, unique=True, time_limit=120)
    assert first.status == "SOLVED" and first.unique is True, made.map
    lines, tokens = _places(made.map, rows, len(params))
    assert ("rooms:" in lines) == (genre == "sumiwake") and any(layer in lines for layer in LAYERS)
    clues = [(i, j) for i, row in enumerate(tokens) for j, t in enumerate(row) if t != "."]
    assert made.clues == len(clues) > 0
    for i, j in clues:
        r = gridlang.solve(spec, map=_text(lines, tokens, i, j), backend=THIRD, unique=True, time_limit=120)
        assert r.status == "INFEASIBLE" or r.unique is False or r.decisions != first.decisions, \
            f"the clue {tokens[i][j]!r} on line {i + 1}, place {j + 1} is redundant:\n{made.map}"
    by_url = gridlang.solve(url=made.url, backend=THIRD, unique=True)
    assert by_url.unique is True and by_url.decisions == first.decisions


def test_the_same_seed_makes_the_same_gokigen():
    a = gridlang.generate("gokigen", "4x4", seed=3)
    b = gridlang.generate("gokigen", "4x4", seed=3)
    assert a.map == b.map and a.url == b.url


@pytest.mark.parametrize("genre, args, words", [
    ("kazunori", [], "none of 20 answers drawn is unique even with every clue it allows on the borders "
                     "between cells, so generate gives up at 4x4; try another size or seed"),
    ("gokigen", ["--symmetry", "rotational"], "and --symmetry places clue tiles in cells alone"),
])
def test_what_the_layer_method_cannot_make_is_refused_in_a_sentence(genre, args, words, capsys):
    code = main(["generate", genre, "--size", "4x4", "--time-limit", "60", *args])
    err = capsys.readouterr().err
    assert code == 1 and words in err and "Traceback" not in err and "bug" not in err


WEAK = """puzzle "weak corners"
tile blank '.'
tile plain '.' on corners
tile clue number on corners
decide slant: {'/', '\\\\'} on all
require for each v in clue: value(v) is known implies degree(slant, v) >= 0
"""


def test_clues_that_never_make_the_answer_unique_are_refused_after_twenty_answers(tmp_path, capsys):
    spec = tmp_path / "weak.grid"
    spec.write_text(WEAK)
    code = main(["generate", str(spec), "--size", "3x3", "--seed", "1", "--time-limit", "120", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and err == (f"error: {spec}: none of 20 answers drawn is unique even with every clue it allows "
                                 "on the corners of the cells, so generate gives up at 3x3; try another size or "
                                 "seed\n")


def test_at_the_time_limit_the_best_map_is_the_one_proved_unique_not_the_one_being_dug(capsys):
    # Creek 10x10: CP-SAT does not prove the dug map unique in time, so the limit passes in the dig,
    # and the map printed is the full one its clues were placed on, proved unique (not the trial)
    code = main(["generate", "creek", "--size", "10x10", "--seed", "1", "--time-limit", "20"])
    out, err = capsys.readouterr()
    placed = int(err.split(" clues placed")[0].rsplit(" ", 1)[1])
    assert code == 3 and "its answer is proved unique but it is not proved minimal" in out
    text = out.split("\n", 1)[1]
    corners = text.split("corners:\n")[1].split()
    assert sum(ch.isdigit() for row in corners for ch in row) == placed > 0
    r = gridlang.solve(gridlang.bundled("creek"), map=text, backend=THIRD, unique=True, time_limit=120)
    assert r.status == "SOLVED" and r.unique is True
