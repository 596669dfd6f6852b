"""A number not given (pzprjs's -2, ``.`` in number16) goes to the spec's number tile when no tile declares '?'.

A map writes such a cell ``?`` and the number tile holds it (docs/language.md, "Number tiles"); a URL's
``?`` goes to the same tile, and is written back as ``.``. The URL is cspuz's Geradeweg test puzzle
(semiexp/cspuz_core, ``cspuz_rs_puzzles/src/puzzles/geradeweg.rs``, MIT licence): a circle without a
number at row 3, column 5.
"""

from __future__ import annotations

import pytest

from gridlang.errors import GridlangError
from gridlang.maps import parse_map
from gridlang.parser import parse_spec
from gridlang.puzzlink import decode, encode

URL = "https://puzz.link/p?t/6/5/j1h23m.r4"
SPEC = 'puzzle "t"\ntile blank \'.\'\ntile clue number\ndecide x: bool on all\nformat puzzlink "t":\n    cells: number16\n'


def test_a_question_mark_goes_to_the_number_tile_and_back():
    tree = parse_spec(SPEC, "t.grid")
    decoded = decode(URL, tree)
    rows = [line for line in decoded.text.splitlines() if not line.startswith("#")]
    assert rows == ["....1.", ".23...", "....?.", "......", ".....4"]
    assert encode(tree, parse_map(decoded.text, "m.txt", "t")).endswith("/6/5/j1h23m.r4")


def test_a_tile_of_its_own_still_takes_the_question_mark():
    tree = parse_spec(SPEC.replace("tile clue number", "tile clue number\ntile unknown '?'"), "t.grid")
    decoded = decode(URL, tree)
    assert decoded.text.splitlines()[3] == "....?."
    data = parse_map(decoded.text, "m.txt", "t")
    assert encode(tree, data).endswith("/6/5/j1h23m.r4")


def test_without_a_number_tile_a_question_mark_has_no_tile():
    tree = parse_spec(SPEC.replace("tile clue number", "tile clue '1'-'9' value digit"), "t.grid")
    with pytest.raises(GridlangError) as info:
        decode("https://puzz.link/p?t/2/2/.i", tree)
    assert "a number not given (?) has no tile in t.grid" in info.value.message
    assert (info.value.span.file, info.value.span.column) == ("--url", 27)
