"""Clues on the borders between cells: tiles ``on borders``, the map's ``borders:`` layer, ``cells(b)``.

The layer is read in pzprjs's order; the lowering is counted against brute force on every
backend (each assignment judged by the interpreter, which reads the borders its own way);
the errors of the spec, the map and the URL are located; the puzz.link encodings read and
write pzprjs's ``decodeCircle_kropki`` and ``decodeMinarism``.
"""

from __future__ import annotations

import pytest

from gridlang.core.errors import GridlangError
from gridlang.core.grid import Grid
from gridlang.formats.layers import read_layered

# 3x3 cells: the borders inside each row (2), then under it (3), by turns
LAYER = "borders:\n a b\nc d e\n f g\nh i j\n k l\n"


def test_the_border_layer_reads_in_pzprjs_order():
    data = read_layered("m.txt", "...\n...\n...\n" + LAYER)
    # pzprjs: the R x (C - 1) borders between left and right neighbours row by row, then the (R - 1) x C others
    assert data.borders == ["a", "b", "f", "g", "k", "l", "c", "d", "e", "h", "i", "j"]
    assert (data.border_span(2).line, data.border_span(2).column) == (7, 2)


def test_border_cells_and_index_agree():
    grid = Grid(3, 4, ("." * 12), ("blank",) * 12)
    assert grid.border_count == 3 * 3 + 2 * 4
    assert [grid.border_cells(k) for k in (0, 2, 3, 8, 9, 16)] == [
        (0, 1),
        (2, 3),
        (4, 5),
        (10, 11),
        (0, 4),
        (7, 11),
    ]
    assert all(
        grid.border_index(*grid.border_cells(k)) == k for k in range(grid.border_count)
    )
    assert (
        grid.border_index(3, 4) is None
    )  # the end of a row and the start of the next are not neighbours
    assert grid.border_index(5, 0) is None


def test_one_column_and_one_row_have_no_empty_rows():
    assert read_layered("m.txt", ".\n.\n.\nborders:\nx\ny\n").borders == ["x", "y"]
    assert read_layered("m.txt", "...\nborders:\nx y\n").borders == ["x", "y"]


@pytest.mark.parametrize(
    "layer, where, words",
    [
        (
            "borders:\n a b\nc d e\n f g\nh i j\n",
            "m.txt:8:5",
            "the border layer has 4 rows; it needs 5 rows for a 3x3",
        ),
        (
            "borders:\n a b\nc d\n f g\nh i j\n k l\n",
            "m.txt:6:3",
            "this row of the border layer has 2 borders; the borders under grid row 1 are 3",
        ),
        (
            "borders:\n a b z\nc d e\n f g\nh i j\n k l\n",
            "m.txt:5:6",
            "this row of the border layer has 3 borders; the borders between the cells of grid row 1 are 2",
        ),
        (LAYER + "borders:\n a\n", "m.txt:10:1", "'borders:' is given twice"),
        ("borders:\n", "m.txt:4:1", "'borders:' is followed by no border layer"),
    ],
)
def test_layer_shape_errors_are_located(layer, where, words):
    with pytest.raises(GridlangError) as info:
        read_layered("m.txt", "...\n...\n...\n" + layer)
    text = str(info.value)
    assert text.startswith(where) and words in text, text
