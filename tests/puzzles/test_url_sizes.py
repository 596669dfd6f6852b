"""URLs of every decoded genre at sizes 1xN, Nx1 and 1x1: a correct map or a located sentence,
never a traceback (a one-column grid once indexed the borders between side-by-side cells)."""

from __future__ import annotations

import pytest

from gridlang import cli
from gridlang.families.common import rooms
from gridlang.formats.maps import build_grid
from gridlang.formats.puzzlink import UrlError, load_url
from gridlang.language.checker import check
from gridlang.language.parser import parse_file

SIZES = [(1, 5), (5, 1), (1, 1), (1, 2), (3, 1)]  # (cols, rows), as a URL writes them
GENRES = ("arukone", "hashiwokakero", "heyawake", "hitori", "lits", "masyu", "norinori", "numberlink", "nurikabe",
          "slitherlink", "starbattle", "statuepark", "sudoku")  # names the bundled specs' formats declare


def _borders(cols: int, rows: int, digit: str) -> str:
    need = ((cols - 1) * rows + 4) // 5 + (cols * (rows - 1) + 4) // 5
    return digit * need


def bodies(genre: str, cols: int, rows: int) -> dict[str, tuple[str, int | None]]:
    """Bodies for the genre at this size, each with the number of rooms its map must have
    (None: the genre has no rooms). ``0`` borders make one room, ``v`` (all five bits) a room per cell."""
    n = cols * rows
    circles = "0" * ((n + 2) // 3)
    if genre in ("norinori", "lits"):
        return {"one room": (_borders(cols, rows, "0"), 1), "a room per cell": (_borders(cols, rows, "v"), n)}
    if genre == "starbattle":
        return {"one room": ("1/" + _borders(cols, rows, "0"), 1),
                "a room per cell": ("1/" + _borders(cols, rows, "v"), n)}
    if genre == "heyawake":
        return {"one room": (_borders(cols, rows, "0") + "1", 1), "a room per cell": (_borders(cols, rows, "v"), n)}
    if genre == "statuepark":
        return {"no circle": (circles + "//t", None)}
    if genre == "masyu":
        return {"no circle": (circles, None)}
    if genre == "slitherlink":
        return {"a 1 in every cell": ("1" * n, None), "empty": (f"{'z' * (n // 20)}{'ghijklmnopqrstuvwxyz'[n % 20 - 1] if n % 20 else ''}", None)}
    if genre == "hitori":
        return {"numbers": ("".join(str(1 + k % 9) for k in range(n)), None)}
    # numbers (decodeNumber16): nurikabe, sudoku, numberlink, arukone, hashiwokakero
    return {"a 1 in every cell": ("1" * n, None), "empty": ("g" * n, None)}


CASES = [(g, cols, rows, name, body, count) for g in GENRES for cols, rows in SIZES
         for name, (body, count) in bodies(g, cols, rows).items()]


@pytest.mark.parametrize("genre, cols, rows, name, body, count", CASES,
                         ids=[f"{g}-{c}x{r}-{n}" for g, c, r, n, _, _ in CASES])
def test_a_url_of_any_size_decodes_to_its_grid_or_a_sentence(genre, cols, rows, name, body, count):
    url = f"https://puzz.link/p?{genre}/{cols}/{rows}/{body}"
    try:
        spec, decoded, data = load_url(url)
    except UrlError as e:  # a sentence located in the URL, for a size the genre cannot have
        assert e.span is not None and e.span.file == "--url" and "\n" not in e.message
        assert genre == "sudoku" and cols != rows or (genre, cols, rows) == ("sudoku", 1, 1), e.render()
        return
    assert len(data.rows) == rows and all(len(row) == cols for row in data.rows), decoded.text
    grid = build_grid(check(parse_file(spec)), data)
    assert (grid.rows, grid.cols) == (rows, cols)
    if count is not None:
        assert len(rooms(grid)) == count, decoded.text


@pytest.mark.parametrize("genre", ["norinori", "lits", "heyawake", "starbattle"])
def test_the_one_column_urls_of_the_issue_import_without_a_traceback(genre, capsys):
    body = {"starbattle": "1/0", "heyawake": "f1234"}.get(genre, "f")
    assert cli.main(["import", f"https://puzz.link/p?{genre}/1/5/{body}"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-6:-5] == ["rooms:"] and len(out[-5:]) == 5
    assert cli.main(["import", "https://puzz.link/p?norinori/1/5/cag4ocjo"]) == 1
    assert capsys.readouterr().err.startswith("--url:1:35: error: unexpected 'ag4ocjo' after the puzzle's data")
