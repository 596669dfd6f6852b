"""The puzzles the board's tests set, play and check, shared by the browser tests and the API tests."""

from __future__ import annotations

NURIKABE = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
"""pzprjs's 5x5 Nurikabe: clues 5, 2, 1 and 3, one answer."""
STARBATTLE = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"
"""pzprjs's 6x6 Star Battle, one star a row, column and room."""
STARBATTLE_ROOMS = ["aaabbb", "abbbaa", "accdda", "bbccda", "bdddda", "baaaaa"]
"""Its rooms as the text map's ``rooms:`` layer gives them."""
STARBATTLE_MAP = ["stars: 1", *["......"] * 6, "rooms:", *STARBATTLE_ROOMS]
"""Its text map below the comment line naming the URL."""
KROPKI = "https://puzz.link/p?kropki/4/4/aa7fioco"
"""pzprjs's 4x4 Kropki: 15 dots on its borders."""
SUDOKU = "box_rows: 2\nbox_cols: 2\n.1..\n...2\n3...\n..3.\n"
"""A 4x4 Sudoku of four givens."""
SUDOKU_ANSWER = [[2, 1, 4, 3], [4, 3, 1, 2], [3, 4, 2, 1], [1, 2, 3, 4]]
"""Its one answer."""
MASYU = "*..\n...\n...\n"
"""A black pearl in a corner: the loop runs around the 3x3 grid, two cells straight from it each way."""
