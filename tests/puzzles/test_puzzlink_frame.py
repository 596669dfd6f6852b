"""The borders of the frame in URLs: ``bits`` (pzprjs's ``decodeOuterBorder``) over every border, and the
rooms between the borders of some tiles, ``rooms: walls``.

pzprjs's encoder leaves out the frame's digits when none of its borders is set: both lengths read, and a
map writes back in pzprjs's own form; any other length is an error at the character where it ends.
"""

from __future__ import annotations

import pytest

from gridlang.core.errors import GridlangError
from gridlang.formats.maps import parse_map
from gridlang.formats.puzzlink import decode, encode
from gridlang.language.checker import check
from gridlang.language.parser import parse_spec

SPEC = """puzzle "frame"
tile blank '.'
tile dotted '-' on borders and frame
tile erased '.' on borders and frame
decide shaded: bool on all
format puzzlink "mejilink":
    borders: bits (1 = erased, empty = dotted)
    rooms: walls (dotted = wall)
"""


def _spec(text: str = SPEC):
    return parse_spec(text, "s.grid")


def test_pzprjs_s_url_reads_its_borders_and_the_rooms_between_them():
    """pzprjs's test URL (robx/pzprjs test/script/mejilink.js, MIT licence): 25 bits for the 24 borders
    between cells (the 25th the frame's first, 0 as its encoder pads it); the frame stays dotted."""
    decoded = decode("https://puzz.link/p?mejilink/4/4/g9rm4", _spec())
    assert decoded.text.split("\n", 1)[1] == (
        "....\n....\n....\n....\n"
        "rooms:\naaba\nbaba\naabc\nbbbb\n"
        "borders:\n - - - -\n- . - - -\n - . . .\n- - - - -\n - . . -\n- . - - -\n - - . -\n- . . . -\n - - - -\n"
    )


def test_a_map_writes_back_the_frame_only_when_a_frame_border_is_set():
    spec = _spec()
    text = decode("https://puzz.link/p?mejilink/4/4/g9rm4", spec).text
    assert (
        encode(spec, parse_map(text, "m.txt"))
        == "https://puzz.link/p?mejilink/4/4/g9rm4"
    )
    # the frame's left border beside row 2 erased: 40 bits, eight digits; the cell beside it keeps its room
    erased = text.replace(
        "borders:\n - - - -\n- . - - -\n - . . .\n- -",
        "borders:\n - - - -\n- . - - -\n - . . .\n. -",
    )
    url = encode(spec, parse_map(erased, "m.txt"))
    assert url == "https://puzz.link/p?mejilink/4/4/g9rm4020"
    assert decode(url, spec).text.split("\n", 1)[1] == erased.split("\n", 1)[1]


@pytest.mark.parametrize(
    "body, column, words",
    [
        (
            "g9r",
            37,
            "the borders of a 4x4 grid take 5 characters, or 8 with its frame; the URL has 3",
        ),
        (
            "g9rm40",
            40,
            "the borders of a 4x4 grid take 5 characters, or 8 with its frame; the URL has 6",
        ),
        ("g9rm4020x", 42, "unexpected 'x' after the puzzle's data"),
        ("g9rw4", 37, "unexpected 'w' in the borders (base-32 digits 0-9, a-v)"),
    ],
)
def test_border_data_that_runs_short_or_long_is_refused_at_the_character(
    body, column, words
):
    with pytest.raises(GridlangError) as info:
        decode(f"https://puzz.link/p?mejilink/4/4/{body}", _spec())
    assert str(info.value).startswith(f"--url:1:{column}: error: {words}"), str(
        info.value
    )


@pytest.mark.parametrize(
    "mapping, words",
    [
        (
            "(blank = wall)",
            "s.grid:8:19: error: walls maps a tile on borders to 'wall'; 'blank' is no tile on borders",
        ),
        ("(dotted = room)", "s.grid:8:28: error: walls maps a tile on borders to 'wall', not to 'room'"),
    ],
)
def test_a_walls_mapping_of_no_border_tile_or_no_wall_is_refused_at_the_entry(
    mapping, words
):
    with pytest.raises(GridlangError) as info:
        check(_spec(SPEC.replace("(dotted = wall)", mapping)))
    assert info.value.render().startswith(words), info.value.render()


def test_walls_before_the_borders_it_reads_is_refused_at_the_encoding():
    spec = SPEC.replace(
        "    borders: bits (1 = erased, empty = dotted)\n    rooms: walls (dotted = wall)\n",
        "    rooms: walls (dotted = wall)\n    borders: bits (1 = erased, empty = dotted)\n",
    )
    with pytest.raises(GridlangError) as info:
        check(_spec(spec))
    assert str(info.value).startswith(
        "s.grid:7:12: error: walls gives the rooms between the borders the format reads, so a 'borders' item "
        "comes before it"
    ), str(info.value)
