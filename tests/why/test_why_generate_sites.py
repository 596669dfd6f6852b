"""``gridlang generate`` for genres whose clues stand on the corners of the cells or on the borders
between two cells (Gokigen, Creek, Kropki, Minarism, and Sumiwake with its rooms): each puzzle proved unique by clingo (the
generator digs on CP-SAT and checks on MaxSAT), each clue shown needed by clingo too (with it
blanked the map has several answers, none, or only another one), and its puzz.link URL read back
to the same puzzle."""

from __future__ import annotations

import pytest

import gridlang
from gridlang.cli import main

CASES = {  # genre: (rows, cols, seed, params, the clue layer)
    "gokigen": (4, 4, 1, {}, "corners"),
    "creek": (4, 4, 1, {}, "corners"),
    "kropki": (4, 4, 1, {"n": 4}, "borders"),
    "minarism": (4, 4, 1, {"n": 4}, "borders"),
    "sumiwake": (4, 4, 1, {}, "corners"),  # its rules read rooms too: rectangles drawn first
}

THIRD = "asp"
"""The backend of the tests' own checks."""


def _layer(text: str, place: str) -> tuple[list[str], list[list[str]]]:
    """The map's lines up to the layer's own line, and the layer's rows as lists of tokens."""
    lines = text.splitlines()
    at = lines.index(f"{place}:")
    rows = [list(row) if place == "corners" else row.split() for row in lines[at + 1:] if row.strip()]
    return lines[:at + 1], rows


def _text(head: list[str], rows: list[list[str]], place: str) -> str:
    body = ["".join(r) if place == "corners" else " ".join(r) for r in rows]
    return "\n".join(head + body) + "\n"


@pytest.mark.parametrize("genre", sorted(CASES))
def test_a_puzzle_with_clues_on_corners_or_borders_is_unique_and_every_clue_is_needed(genre):
    rows, cols, seed, params, place = CASES[genre]
    spec = gridlang.bundled(genre)
    made = gridlang.generate(spec, (rows, cols), seed=seed, params=params, time_limit=600)
    assert made.seed == seed and made.checked_by == "maxsat"
    first = gridlang.solve(spec, map=made.map, backend=THIRD, unique=True, time_limit=120)
    assert first.status == "SOLVED" and first.unique is True, made.map
    head, layer = _layer(made.map, place)
    assert len(layer) == (rows + 1 if place == "corners" else 2 * rows - 1)
    assert ("rooms:" in made.map) == (genre == "sumiwake")
    assert [len(r) for r in layer] == ([cols + 1] * (rows + 1) if place == "corners"
                                       else [cols - 1 if k % 2 == 0 else cols for k in range(2 * rows - 1)])
    clues = [(i, j) for i, row in enumerate(layer) for j, t in enumerate(row) if t != "."]
    assert made.clues == len(clues) > 0
    for i, j in clues:
        blanked = [list(r) for r in layer]
        blanked[i][j] = "."
        r = gridlang.solve(spec, map=_text(head, blanked, place), backend=THIRD, unique=True, time_limit=120)
        assert r.status == "INFEASIBLE" or r.unique is False or r.decisions != first.decisions, \
            f"the clue {layer[i][j]!r} at row {i + 1}, place {j + 1} of the layer is redundant:\n{made.map}"
    by_url = gridlang.solve(url=made.url, backend=THIRD, unique=True)
    assert by_url.unique is True and by_url.decisions == first.decisions


def test_the_same_seed_makes_the_same_gokigen():
    a = gridlang.generate("gokigen", "4x4", seed=3)
    b = gridlang.generate("gokigen", "4x4", seed=3)
    assert a.map == b.map and a.url == b.url


@pytest.mark.parametrize("genre, args, words", [
    ("wagiri", [], "its clues stand in the cells and on the corners of the cells, and generate places the clues "
                   "of one place only"),
    ("gokigen", ["--symmetry", "rotational"], "and --symmetry places clue tiles in cells"),
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
    assert code == 1 and err == (f"error: {spec}: none of 20 answers drawn is unique under every clue it allows on "
                                 "the corners of the cells, so no map of such clues has one answer at 3x3; try "
                                 "another size\n")
