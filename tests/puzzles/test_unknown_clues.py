"""A clue whose number is not given (pzprjs's '.' in a URL, its qnum -2; '?' on a map), read as pzprjs reads it.

Each case is a small puzz.link URL with a '.' in it, the genre's bundled spec
(the URL's genre) and the number of answers pzprjs's checker accepts for it,
worked out by hand from the genre's ``decodePzpr`` and ``checklist``: a '?' is
still the clue cell it is (a cell of its room, unshaded, a numbered cell) and
only the rules that read its number are left out. A URL a spec cannot read
('a number not given (?) has no tile') fails here too.
"""

from __future__ import annotations

import json

import pytest

from gridlang import cli

CASES = [
    # Araf: a block of three holding the 1 and the '?' (checkSmallArea and checkBigArea skip a
    # block with a '?'; checkEqualArea compares the size with -2); with a 3 for the '?', 3 is no
    # size strictly between 1 and 3.
    pytest.param("https://puzz.link/p?araf/3/1/1g.", 1, id="araf-unknown"),
    pytest.param("https://puzz.link/p?araf/3/1/1g3", 0, id="araf-known"),
    # Choco Banana: on one row every white group is a rectangle, so both cells are shaded, one
    # block of two; checkNumberSize skips a '?' (qnum <= 0), where a 1 is no block of two.
    pytest.param("https://puzz.link/p?cbanana/2/1/.g", 1, id="cbanana-unknown"),
    pytest.param("https://puzz.link/p?cbanana/2/1/1g", 0, id="cbanana-known"),
    # ... and a 0 too (its qnum <= 0): read as a size it made every such puzzle infeasible.
    pytest.param("https://puzz.link/p?cbanana/2/1/0g", 1, id="cbanana-zero"),
    # Look-Air: one shaded square of one cell, either one; checkDir5ShadeCell skips a '?'
    # (isValidNum), where a 0 leaves nothing shaded (checkShadeCellExist).
    pytest.param("https://puzz.link/p?lookair/2/1/.a", 2, id="lookair-unknown"),
    pytest.param("https://puzz.link/p?lookair/2/1/0a", 0, id="lookair-known"),
    # Hakoiri-masashi: rooms 1 2 ? | 3 . . ; a '?' is a symbol of no kind (getNum() -2): it is one
    # of its room's three (checkOverFourMarksInBox, checkAllMarkInBox count isNum()) but neither
    # checkDifferentNumberInRoom nor checkAroundMarks compares it, so the 3 beside it is no repeat
    # and the last two cells hold 1 and 2 either way.
    pytest.param("https://puzz.link/p?hakoiri/6/1/412.3b", 2, id="hakoiri-unknown"),
    # Nanro: one room of two; a '?' is a numbered cell whose number is its room's (getNanroNum;
    # setNumOfRoom counts it), so the other cell is empty or a 2, where a given 1 leaves it empty.
    pytest.param("https://puzz.link/p?nanro/2/1/0.g", 2, id="nanro-unknown"),
    pytest.param("https://puzz.link/p?nanro/2/1/01g", 1, id="nanro-known"),
    # Sukoro: a '?' in a 2x2 corner is a numbered cell (isNumberObj: it counts for its neighbours
    # and joins the numbers) whose own count and neighbours checkDir4NumberCount and
    # checkAdjacentDiffNumber (isValidNum) leave out: alone, beside a 1, beside two 1s, or with a
    # 2 and a 1 on either side; not with three (the 2s would touch).
    pytest.param("https://puzz.link/p?sukoro/2/2/.c", 6, id="sukoro-unknown"),
    # View: beside a '?' (a number that stops the sight, isNumberObj) the other cell is empty or
    # a 0; checkViewOfNumber and checkAdjacentDiffNumber (isValidNum) leave the '?' out, where a
    # given 1 would be a 0 beside the 0.
    pytest.param("https://puzz.link/p?view/2/1/.g", 2, id="view-unknown"),
    pytest.param("https://puzz.link/p?view/2/1/1g", 1, id="view-known"),
    # Sukoro-room: one room of two; a '?' is a numbered cell (checkNoMixedRoom fills its room) left
    # out of checkDifferentNumberInRoom and checkDir4NumberCount, so the other cell is a 1; with a
    # given 1 the two 1s repeat.
    pytest.param("https://puzz.link/p?sukororoom/2/1/0.a", 1, id="sukororoom-unknown"),
    pytest.param("https://puzz.link/p?sukororoom/2/1/01a", 0, id="sukororoom-known"),
    # Ripple Effect: rooms ? | 1 . ; a '?' holds no number (getNum() -2: checkRippleNumber and
    # checkDifferentNumberInRoom leave it out), so the 1 beside it is no repeat and the last cell
    # is a 2; a given 1 for the '?' repeats.
    pytest.param("https://puzz.link/p?ripple/3/1/g.1g0", 1, id="ripple-unknown"),
    pytest.param("https://puzz.link/p?ripple/3/1/g11g0", 0, id="ripple-known"),
    # Cojun: one room, a column of two. A '?' holds no number for checkDifferentNumberInRoom and
    # checkAdjacentDiffNumber, but checkUpperNumber reads it as -2: below a cell, the cell takes
    # 1 or 2; above one, no number fits.
    pytest.param("https://puzz.link/p?cojun/1/2/0g.0", 2, id="cojun-unknown-below"),
    pytest.param("https://puzz.link/p?cojun/1/2/0.g0", 0, id="cojun-unknown-above"),
    # Shimaguni: rooms ? ? | . . ; checkShadeCellCount skips a room whose number is -2: the left
    # island of two or one cell beside an island of two on the right; a 2 keeps the first.
    pytest.param("https://puzz.link/p?shimaguni/4/1/8.g", 2, id="shimaguni-unknown"),
    pytest.param("https://puzz.link/p?shimaguni/4/1/82g", 1, id="shimaguni-known"),
    # Yajisan-Kazusan (already read so): a '?' with or without an arrow is a clue whose count
    # checkArrowNumber (isValidNum) leaves out, shaded or not: either cell of two; a 0 pointing
    # right leaves the right cell unshaded.
    pytest.param("https://puzz.link/p?yajikazu/2/1/0.a", 2, id="yajikazu-unknown"),
    pytest.param("https://puzz.link/p?yajikazu/2/1/4.a", 2, id="yajikazu-unknown-arrow"),
    pytest.param("https://puzz.link/p?yajikazu/2/1/40a", 1, id="yajikazu-known"),
    # Aqre: one room of two; checkShadeCellCount skips a '?' (n < 0) and Aqre asks for no shaded
    # cell: none, either or both; a 1 keeps either.
    pytest.param("https://puzz.link/p?aqre/2/1/0.", 4, id="aqre-unknown"),
    pytest.param("https://puzz.link/p?aqre/2/1/01", 2, id="aqre-known"),
    # Chocona: one room of two; checkShadeCellCount skips a '?' (n < 0): either cell or both (one
    # shaded cell at least, checkShadeCellExist); a 1 keeps either.
    pytest.param("https://puzz.link/p?chocona/2/1/0.", 3, id="chocona-unknown"),
    pytest.param("https://puzz.link/p?chocona/2/1/01", 2, id="chocona-known"),
    # Tapa (already read so): a clue '?' is one run of any length, or none (getShadedLength gives
    # [0]; checkCountOfClueCell skips a -2): beside a '?' on a row, one or both of the other two
    # cells; around a '?' in the middle of 3x3, an arc of 1 to 7 of the 8 cells from any start, or
    # all 8; a 1 keeps the runs that start beside it.
    pytest.param("https://puzz.link/p?tapa/3/1/.h", 3, id="tapa-unknown"),
    pytest.param("https://puzz.link/p?tapa/3/1/1h", 2, id="tapa-known"),
    pytest.param("https://puzz.link/p?tapa/3/3/j.j", 57, id="tapa-unknown-ring"),
    # Toichika 2: robx/pzprjs's test/script/toichika2.js puzzle (MIT) with its room number 3 written
    # '.': checkToichikaClue reads only qnum > 0, so that room's number is free: the 3 of the
    # published answer, or a 2 one cell to its left, the partner of a 2 in place of the 3 across
    # the row; the 3 keeps the first.
    pytest.param("https://puzz.link/p?toichika2/5/5/8qjrv8dcj.h1", 2, id="toichika2-unknown"),
    pytest.param("https://puzz.link/p?toichika2/5/5/8qjrv8dcj3h1", 1, id="toichika2-known"),
    # Stostone: one room, 2x2; a '?' room holds a stone (checkNoShadeCellInArea spares only n ===
    # 0) of any size (checkShadeCellCount skips n < 0): a row, falling to the bottom half; a 1
    # cannot fill it.
    pytest.param("https://puzz.link/p?stostone/2/2/00.", 2, id="stostone-unknown"),
    pytest.param("https://puzz.link/p?stostone/2/2/001", 0, id="stostone-known"),
    # Heya-Block: one room of three; a '?' room holds a block (checkNoShadeCellInArea spares only
    # n === 0) of any size (checkShadeCellCount skips n < 0) leaving the unshaded cells
    # connected: one end, two cells from an end, or all three; a 1 keeps an end.
    pytest.param("https://puzz.link/p?heyablock/3/1/0.", 5, id="heyablock-unknown"),
    pytest.param("https://puzz.link/p?heyablock/3/1/01", 2, id="heyablock-known"),
    # Putteria (already read so): a '?' is pzprjs's crossed cell (isEmpty: qnum -2, isNum false),
    # no number there: one room of two, its 2 in the other cell, where a blank room takes it in
    # either.
    pytest.param("https://puzz.link/p?putteria/2/1/0.g", 1, id="putteria-crossed"),
    pytest.param("https://puzz.link/p?putteria/2/1/0h", 2, id="putteria-blank"),
]


@pytest.mark.parametrize("url,answers", CASES)
def test_a_clue_not_given_is_read_as_pzprjs_reads_it(url, answers, capsys):
    code = cli.main(["solve", "--url", url, "--count", "100", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out.get("status") in {"SOLVED", "INFEASIBLE"}, out.get("message")
    found = out.get("solutions_found", 0) if out["status"] == "SOLVED" else 0
    assert (found, out.get("complete", True)) == (answers, True), code
