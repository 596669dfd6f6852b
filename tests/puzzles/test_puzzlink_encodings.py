"""Each shared puz.link encoding, read and written back, against pzprjs's own reading of its test URLs.

The expected cells are the research notes' "Decodes to" dumps
(/work/research/encodings.md, section 4): pzprjs (robx/pzprjs, MIT licence)
run on the URL of its ``test/script/GENRE.js``, the board dumped. Each case
is read through a small spec written here, whose format names the encoding
under test, so the text map is checked at the level of tokens; writing the
map back gives the same body (these URLs come from pzprjs's encoder).
"""

from __future__ import annotations

import pytest

from gridlang.core.errors import GridlangError
from gridlang.formats.maps import parse_map
from gridlang.formats.puzzlink import decode, encode
from gridlang.language.parser import parse_spec

TILES = """\
tile blank '.'
tile clue number
tile white 'o'
tile black '*'
tile mark 'T'
tile hole 'X'
tile frame '+'
tile lists numbers
tile arrows arrow number
param k: int >= 0 = 0
param sizes: set of int = {1}
param pieces: shapes = pentominoes
decide x: bool on all
"""


def spec(*items: str):
    """A spec whose format ``t`` reads the items given."""
    body = "".join(f"    {item}\n" for item in items)
    return parse_spec(f'puzzle "t"\n{TILES}format puzzlink "t":\n{body}', "t.grid")


def grid(text: str) -> list[list[str]]:
    """The decoded map's cell tokens, row by row (headers and the room layer left out)."""
    rows = []
    for line in text.splitlines()[1:]:  # after the title
        if ":" in line:
            if line.startswith("rooms:"):
                break
            continue
        rows.append(line.split() if " " in line else list(line))
    return rows


def cells_of(text: str) -> dict[tuple[int, int], str]:
    return {(r, c): tok for r, row in enumerate(grid(text)) for c, tok in enumerate(row) if tok not in ".+"}


def round_trip(tree, url: str, text: str) -> None:
    back = encode(tree, parse_map(text, "m.txt", "t"))
    assert back.split("?", 1)[1].split("/", 1)[1].rstrip("/") == url.split("?", 1)[1].split("/", 1)[1].rstrip("/")


# (encoding item, URL, expected tokens by (row, col)): pzprjs's dumps.
CELLS = [
    pytest.param("cells: number4", "https://puzz.link/p?t/6/6/nekcakbl",
                 {(1, 2): "4", (2, 4): "2", (3, 1): "0", (4, 3): "1"}, id="number4-lightup"),
    pytest.param("cells: number16", "https://puzz.link/p?t/5/5/i7g5l2l2g4i",
                 {(0, 3): "7", (1, 0): "5", (2, 2): "2", (3, 4): "2", (4, 1): "4"}, id="number16-kurodoko"),
    pytest.param("cells: number16", "https://puzz.link/p?t/6/6/g3q2h3jbj3i3i2g",
                 {(0, 1): "3", (2, 1): "2", (2, 4): "3", (3, 3): "11", (4, 2): "3", (5, 0): "3", (5, 4): "2"},
                 id="number16-cave"),
    # a clue whose number is not given (pzprjs's -2, '.') mapped to the number tile is its '?':
    # cspuz_rs_puzzles minesweeper.rs's test URL (MIT licence)
    pytest.param("cells: number16 (? = clue)", "https://puzz.link/p?t/5/3/1g1g.j.0g1g.",
                 {(0, 0): "1", (0, 2): "1", (0, 4): "?", (1, 4): "?", (2, 0): "0", (2, 2): "1", (2, 4): "?"},
                 id="number16-unknown-mines"),
    pytest.param("cells: number10", "https://puzz.link/p?t/5/5/2a2c4a2g2a4c2a2",
                 {(0, 0): "2", (0, 2): "2", (1, 1): "4", (1, 3): "2", (3, 1): "2", (3, 3): "4", (4, 2): "2",
                  (4, 4): "2"}, id="number10-sukoro"),
    pytest.param("cells: number36", "https://puzz.link/p?t/4/4/1114142333214213",
                 {(r, c): ch for r, row in enumerate(["1114", "1423", "3321", "4213"]) for c, ch in enumerate(row)},
                 id="number36-hitori"),
    pytest.param("cells: circles (1 = white, 2 = black)", "https://puzz.link/p?t/5/5/016612300",
                 {(1, 0): "o", (1, 2): "*", (2, 0): "*", (2, 4): "o", (3, 2): "*", (3, 4): "o"}, id="circles-yinyang"),
    pytest.param("cells: arrows", "https://puzz.link/p?t/5/5/m32j10", {(2, 3): "<2", (4, 4): "^0"},
                 id="arrows-yajilin"),
    pytest.param("cells: number lists", "https://puzz.link/p?t/5/5/3n5hchhajn2",
                 {(0, 0): "3", (1, 4): "5", (2, 2): "3,1,1", (3, 0): "3,1", (4, 4): "2"}, id="lists-tapa"),
]


@pytest.mark.parametrize("item,url,expected", CELLS)
def test_cells_read_as_pzprjs_reads_them_and_write_back(item, url, expected):
    tree = spec(item)
    text = decode(url, tree).text
    assert cells_of(text) == expected
    round_trip(tree, url, text)


def test_a_number_not_given_goes_to_the_number_tile_when_mapped_there():
    # cspuz_rs shikaku.rs's test URL (MIT licence): 6 6 in row 2, 4 ? 8 in row 3 (`.` is pzprjs's -2),
    # 4 4 in row 5. Mapped to the number tile, the ? is that tile's cell `?`, and is written back as `.`.
    tree = spec("cells: number16 (? = clue)")
    url = "https://puzz.link/p?t/6/6/s66j4.g8n4h4g"
    text = decode(url, tree).text
    assert cells_of(text) == {(2, 1): "6", (2, 2): "6", (3, 1): "4", (3, 2): "?", (3, 4): "8", (5, 1): "4",
                              (5, 4): "4"}
    round_trip(tree, url, text)


def test_a_slash_between_two_parts_is_read_and_written():
    # pzprjs test/script/aquarium.js: borders, a '/', then the clues outside: 3 above column 3, 2 1 3 left
    # of rows 0 to 2. pzprjs drops one character after the borders, so the '/' must be written back.
    tree = spec("rooms: borders", "separator: slash", "outside top left: number16 (empty = frame)")
    url = "https://puzz.link/p?t/4/4/bu8i90/i3213g"
    text = decode(url, tree).text
    rows = grid(text)
    assert rows[0] == ["+", "+", "+", "+", "3"] and [r[0] for r in rows] == ["+", "2", "1", "3", "+"]
    round_trip(tree, url, text)


def test_number10or16_reads_circles_as_0_and_the_bank_of_sizes():
    # pzprjs test/script/snakeegg.js: circles at (0,1) and (0,3), clues 4 and 2, sizes 1..4.
    tree = spec("cells: number10or16 (0 = white)", "sizes: size bank")
    url = "https://puzz.link/p?t/5/5/a0a0l4a2f//4"
    text = decode(url, tree).text
    assert cells_of(text) == {(0, 1): "o", (0, 3): "o", (3, 1): "4", (3, 3): "2"}
    assert "sizes: 1..4" in text.splitlines()
    round_trip(tree, url, text)
    wide = decode("https://puzz.link/p?t/3/1/-h-10//z", tree).text  # 16 needs the number16 form
    assert grid(wide) == [[".", ".", "16"]] and "sizes: " in wide
    round_trip(tree, "https://puzz.link/p?t/3/1/-h-10//z", wide)


def test_marks_and_the_clues_outside_top_left():
    # pzprjs test/script/tents.js: column clues 2 and 0 over columns 0 and 2, row clues 1 on rows 0 and 4;
    # trees at (0,2), (2,1), (2,4), (3,3), (4,1). The map is 6x6: the clues in row 0 and column 0.
    tree = spec("outside top left: number16 (empty = frame)", "cells: marks (1 = mark)")
    url = "https://puzz.link/p?t/5/5/2g0h1i1j82323"
    text = decode(url, tree).text
    rows = grid(text)
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    assert rows[0] == ["+", "2", "+", "0", "+", "+"]
    assert [r[0] for r in rows] == ["+", "1", "+", "+", "+", "1"]
    trees = {(r - 1, c - 1) for r, row in enumerate(rows) for c, tok in enumerate(row) if tok == "T"}
    assert trees == {(0, 2), (2, 1), (2, 4), (3, 3), (4, 1)}
    round_trip(tree, url, text)


def test_clues_stacked_above_and_left_several_to_a_line():
    # pzprjs test/script/nonogram.js (6x6): 3 clue rows above, 3 clue columns on the left, each line's
    # clues from the grid outwards: column 0 reads 1 (next to the grid) then 2, so 2 stands above 1.
    tree = spec("outside top left stacked: number16 (empty = frame)")
    url = "https://puzz.link/p?t/6/6/12g1111h11112j12g11g21j11g3h"
    text = decode(url, tree).text
    rows = grid(text)
    assert len(rows) == 9 and all(len(r) == 9 for r in rows)
    assert [r[3] for r in rows[:3]] == ["+", "2", "1"] and [r[4] for r in rows[:3]] == ["1", "1", "1"]
    assert rows[3][:3] == ["+", "2", "1"] and rows[8][:3] == ["+", "+", "3"] and rows[6][:3] == ["+", "+", "+"]
    assert all(tok == "." for r in rows[3:] for tok in r[3:])
    round_trip(tree, url, text)
    # 6 columns, 7 rows: 4 clue rows above (7 halved, rounded up), 3 columns on the left.
    url = "https://puzz.link/p?t/6/7/31h12h31h111g2i5l32g22g11g1211113h"
    rows = grid(decode(url, tree).text)
    assert len(rows) == 11 and all(len(r) == 9 for r in rows)
    assert [r[6] for r in rows[:4]] == ["+", "1", "1", "1"]
    assert rows[9][:3] == ["1", "1", "1"] and [r[8] for r in rows[:4]] == ["+", "+", "+", "5"]
    round_trip(tree, url, decode(url, tree).text)


def test_clues_outside_all_four_sides():
    # pzprjs test/script/skyscrapers.js: bottom of columns 1 and 2: 1 and 3; left of row 1: 4; right of row 2: 3.
    tree = spec("outside all: number16 (empty = frame)", "cells: number16")
    url = "https://puzz.link/p?t/4/4/k13h4j3g"
    text = decode(url, tree).text
    rows = grid(text)
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    assert rows[5] == ["+", "+", "1", "3", "+", "+"] and rows[2][0] == "4" and rows[3][5] == "3"
    assert sum(tok not in ".+" for row in rows for tok in row) == 4
    round_trip(tree, url, text)


def test_a_number_written_inside_and_outside_all_four_sides():
    # pzprjs test/script/easyasabc.js: the letter count 3, then clues outside: top of column 0: 1; left of
    # row 0: 2; left of row 3: 3; right of row 1: 3.
    tree = spec("k: indicator", "outside all: number16 (empty = frame)")
    url = "https://puzz.link/p?t/4/4/3/1m2h3g3h"
    text = decode(url, tree).text
    rows = grid(text)
    assert "k: 3" in text.splitlines()
    assert (rows[0][1], rows[1][0], rows[4][0], rows[2][5]) == ("1", "2", "3", "3")
    round_trip(tree, url, text)


def _walls(text: str) -> set:
    """The pairs of side-neighbouring cells that the decoded room layer separates."""
    lines = text.splitlines()
    layer = [list(ln) for ln in lines[lines.index("rooms:") + 1:]]
    rows, cols = len(layer), len(layer[0])
    out = set()
    for r in range(rows):
        for c in range(cols):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < rows and c2 < cols and layer[r][c] != layer[r2][c2]:
                    out.add(((r, c), (r2, c2)))
    return out


def _pairs(dump: str) -> set:
    out = set()
    for wall in dump.split():
        a, b = wall.split("|")
        out.add((tuple(int(x) for x in a.strip("()").split(",")), tuple(int(x) for x in b.strip("()").split(","))))
    return out


def test_borders_and_room_numbers_in_the_top_cell_of_the_leftmost_column():
    # pzprjs test/script/country.js: 2 in the room of (0,0), 1 and 2 in the rooms whose top cells are (2,0), (2,1).
    tree = spec("rooms: borders", "room numbers: number16")
    url = "https://puzz.link/p?t/5/5/amda0uf02h12h"
    text = decode(url, tree).text
    assert cells_of(text) == {(0, 0): "2", (2, 0): "1", (2, 1): "2"}
    assert _walls(text) == _pairs(
        "(0,1)|(0,2) (0,3)|(0,4) (1,1)|(1,2) (1,3)|(1,4) (2,0)|(2,1) (2,3)|(2,4) (3,0)|(3,1) (3,2)|(3,3) (4,0)|(4,1) "
        "(4,2)|(4,3) (1,0)|(2,0) (1,1)|(2,1) (1,2)|(2,2) (1,3)|(2,3) (2,1)|(3,1) (2,2)|(3,2) (2,3)|(3,3) (2,4)|(3,4)")
    round_trip(tree, url, text)


def test_blocks_after_borders():
    # pzprjs test/script/dosufuwa.js: black cells (0,3), (1,0), (3,4), (4,1).
    tree = spec("rooms: borders", "cells: blocks (1 = hole)")
    url = "https://puzz.link/p?t/5/5/7pnsmrhf31d1"
    text = decode(url, tree).text
    assert cells_of(text) == {(0, 3): "X", (1, 0): "X", (3, 4): "X", (4, 1): "X"}
    round_trip(tree, url, text)


def test_holes_last_and_left_out_when_there_are_none():
    # decodeEmpty: five cells per base-32 digit; 'h0' = 10001 0 on a 3x2 grid: holes at cells 0 and 4
    # (after the borders '00' and the numbers 'g1j': a 1 in the second cell).
    tree = spec("rooms: borders", "cells: number16", "cells: holes (1 = hole)")
    text = decode("https://puzz.link/p?t/3/2/00g1jh0", tree).text
    assert cells_of(text) == {(0, 0): "X", (0, 1): "1", (1, 1): "X"}
    round_trip(tree, "https://puzz.link/p?t/3/2/00g1jh0", text)
    without = decode("https://puzz.link/p?t/3/2/00g1j", tree).text
    assert cells_of(without) == {(0, 1): "1"}
    round_trip(tree, "https://puzz.link/p?t/3/2/00g1j", without)


def test_sum_pairs_in_the_cells_and_outside():
    # pzprjs test/script/kakuro.js. A clue cell is DOWN,ACROSS; the sums outside stand in row 0 (down)
    # and column 0 (across) of the 6x6 map.
    tree = spec("cells: sum pairs", "outside top left: sum pairs (empty = frame)")
    url = "https://puzz.link/p?t/5/5/48la0.na0lh3l0Bn.0cl.c4a3"
    text = decode(url, tree).text
    inner = {(r - 1, c - 1): tok for (r, c), tok in cells_of(text).items() if r and c}
    assert inner == {(0, 0): "4,8", (0, 3): "10,0", (0, 4): "0,0", (1, 4): "10,0", (2, 2): "17,3",
                     (3, 0): "0,21", (4, 0): "0,0", (4, 1): "0,12", (4, 4): "0,0"}
    outside = {rc: tok for rc, tok in cells_of(text).items() if not rc[0] or not rc[1]}
    assert outside == {(0, 2): "12,0", (0, 3): "4,0", (2, 0): "0,10", (3, 0): "0,3"}
    round_trip(tree, url, text)


def test_field_then_borders():
    tree = spec("k: field", "rooms: borders")
    text = decode("https://puzz.link/p?t/6/6/2/4ilbhgdnmhou", tree).text
    assert "k: 2" in text.splitlines()
    round_trip(tree, "https://puzz.link/p?t/6/6/2/4ilbhgdnmhou", text)


@pytest.mark.parametrize("body,header", [("//p", "pentominoes"), ("/2/23lg/22u", "10/10/11, 11/11")])
def test_piece_bank_presets_and_drawn_pieces(body, header):
    tree = spec("cells: circles (1 = white, 2 = black)", 'pieces: piece bank (p = "pentominoes")')
    url = f"https://puzz.link/p?t/6/5/0000591i00{body}"
    text = decode(url, tree).text
    assert f"pieces: {header}" in text.splitlines()
    round_trip(tree, url, text)


@pytest.mark.parametrize("body,header,back", [("//4", "1..4", "//4"), ("//i", "1..9", "//i"), ("//9", "1..9", "//i"),
                                              ("/3/2/5/7", "2,5,7", "/3/2/5/7"), ("//z", "", "//z")])
def test_size_bank(body, header, back):
    tree = spec("sizes: size bank")
    text = decode(f"https://puzz.link/p?t/2/2/{body}", tree).text
    assert f"sizes: {header}".rstrip() in [ln.rstrip() for ln in text.splitlines()]
    assert encode(tree, parse_map(text, "m.txt", "t")).endswith(f"/2/2/{back}")


def test_one_row_one_column_and_one_cell():
    """Borders on 1xN, Nx1 and 1x1 grids: a grid of one column has no borders side by side."""
    tree = spec("rooms: borders", "room numbers: number16")
    for url, rooms in [("https://puzz.link/p?t/1/3/g2g", ["a", "b", "b"]),  # a wall under the top cell
                       ("https://puzz.link/p?t/3/1/82g", ["a", "a", "b"]),  # a wall right of the second cell
                       ("https://puzz.link/p?t/1/1/3", ["a"])]:
        text = decode(url, tree).text
        lines = text.splitlines()
        layer = [c for ln in lines[lines.index("rooms:") + 1:] for c in ln]
        assert layer == rooms, (url, text)
        assert cells_of(text) == {(0, 0): "3" if len(rooms) == 1 else "2"}
        round_trip(tree, url, text)
    # A bundled spec's URL of one column (gridlang 0.1 raised IndexError reading its borders).
    lines = decode("https://puzz.link/p?lits/1/3/g").text.splitlines()
    assert lines[lines.index("rooms:") + 1:] == ["a", "b", "b"]


@pytest.mark.parametrize("item,url,column,words", [
    ("cells: number16", "https://puzz.link/p?t/2/2/1!", 28, "unexpected '!' in the number encoding"),
    ("cells: number4", "https://puzz.link/p?t/3/3/1", 28, "the data ends after 1 cells; a 3x3 grid has 9"),
    ("cells: circles (1 = white, 2 = black)", "https://puzz.link/p?t/3/3/0r0", 28, "unexpected 'r' in the circles"),
    ("cells: arrows", "https://puzz.link/p?t/2/2/3x", 28, "an arrow's number takes 1 hexadecimal digit"),
    ("cells: number lists", "https://puzz.link/p?t/2/2/fz", 27, "'fz' is no list of numbers"),
    ("cells: number16", "https://puzz.link/p?t/2/2/.i", 27, "a number not given (?) has no tile in t.grid"),
    ("rooms: borders", "https://puzz.link/p?t/3/3/0w00", 28, "unexpected 'w' in the room borders"),
])
def test_bad_bodies_are_located_in_the_url(item, url, column, words):
    with pytest.raises(GridlangError) as info:
        decode(url, spec(item))
    assert words in info.value.message
    assert (info.value.span.file, info.value.span.column) == ("--url", column)


def test_a_value_the_encoding_cannot_write_is_located_in_the_map():
    tree = spec("cells: number4")
    with pytest.raises(GridlangError) as info:
        encode(tree, parse_map("..\n.7\n", "m.txt", "t"))
    assert "7 is not a number from 0 to 4" in info.value.message
    assert (info.value.span.file, info.value.span.line, info.value.span.column) == ("m.txt", 2, 2)


def test_every_encoding_and_place_is_in_the_language_s_tables():
    """docs/language.md's tables of places and encodings list each one the format statement takes."""
    from pathlib import Path

    from gridlang.language.encodings.known import encodings
    from gridlang.language.encodings.table import PLACES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip() for line in doc.splitlines() if line.startswith("| `")}
    assert sorted(n for n in encodings() if f"`{n}`" not in rows) == []
    assert sorted(p for p in PLACES if f"`{p}`" not in rows) == []
