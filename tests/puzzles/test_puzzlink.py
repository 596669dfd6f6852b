"""puzz.link URLs: decoded into each genre's text map, solved to the known answer, and bad URLs located."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridlang import cli
from gridlang.errors import GridlangError
from gridlang.maps import parse_map
from gridlang.puzzlink import UrlError, decode, genre_of, load_url, parse_url

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "puzzles" / "instances"

# Every instance made from a real URL: (genre, instance, URL).
URLS = [
    ("starbattle", "pzprjs_6x6", "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"),
    ("starbattle", "cspuz_6x6", "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk"),
    ("sudoku", "pzprjs_4x4", "https://puzz.link/p?sudoku/4/4/g1k23k3g"),
    ("sudoku", "cspuz_9x9", "https://puzz.link/p?sudoku/9/9/k8g1g7i2i99o2g3h75q19h5g4o83i4i6g4g5k"),
    ("norinori", "pzprjs_5x5", "https://puzz.link/p?norinori/5/5/cag4ocjo"),
    ("norinori", "cspuz_6x6", "https://puzz.link/p?norinori/6/6/mac2a4c11spr"),
    ("hitori", "pzprjs_4x4", "https://puzz.link/p?hitori/4/4/1114142333214213"),
    ("hitori", "cspuz_6x5", "https://puzz.link/p?hitori/6/5/111.45.2..453.3.1..2....3.3.1."),
    ("nurikabe", "pzprjs_5x5", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"),
    ("lits", "pzprjs_4x4", "https://puzz.link/p?lits/4/4/9q02jg"),
    ("lits", "cspuz_10x10", "https://puzz.link/p?lits/10/10/08p0i3jbhmjg5j5ik048rgtr8q1e5gkf9hnu"),
    ("heyawake", "pzprjs_6x6", "https://puzz.link/p?heyawake/6/6/lll155007rs12222j"),
    ("heyawake", "cspuz_6x6", "https://puzz.link/p?heyawake/6/6/aa66aapv0fu0g2i3k"),
    ("statuepark", "pzprjs_7x7", "https://puzz.link/p?statuepark/7/7/078ii6000000290f0//t"),
    ("statuepark", "cspuz_7x6", "https://puzz.link/p?statuepark/7/6/0l050060i0107i//t"),
    ("statuepark", "cspuz_6x5", "https://puzz.link/p?statuepark/6/5/0000591i00/2/23lg/22u"),
]


def _body(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


@pytest.mark.parametrize("genre,name,url", URLS, ids=[f"{g}-{n}" for g, n, _ in URLS])
def test_url_decodes_to_the_instance_file(genre, name, url):
    decoded = decode(url)
    assert decoded.genre == genre
    assert _body(decoded.text) == _body((INSTANCES / genre / f"{name}.txt").read_text(encoding="utf-8"))


@pytest.mark.parametrize("genre,name,url", URLS, ids=[f"{g}-{n}" for g, n, _ in URLS])
def test_solve_url_with_the_bundled_spec_gives_the_known_answer(genre, name, url, capsys):
    code = cli.main(["solve", "--url", url, "--unique", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["unique"] is True and out["verified"] and out["map"] == url
    assert out["spec"].endswith(f"{genre}.grid")
    answer = (INSTANCES / genre / f"{name}.answer").read_text(encoding="utf-8").split()
    name_of = {"starbattle": "star", "sudoku": "digit"}.get(genre, "shaded")
    if genre == "sudoku":
        got = {(r, c): v for (r, c), v in out["decisions"][name_of]}
        assert ["".join(str(got[r, c]) for c in range(len(answer))) for r in range(len(answer))] == answer
    else:
        marked = {tuple(cell) for cell, _ in out["decisions"][name_of]}
        assert marked == {(r, c) for r, row in enumerate(answer) for c, ch in enumerate(row) if ch in "#*"}


def test_solve_with_a_spec_and_a_url(capsys):
    code = cli.main(["solve", str(ROOT / "puzzles" / "nurikabe.grid"), "--url",
                     "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g", "--unique"])
    out = capsys.readouterr().out
    assert code == 0 and "unique: the solution is the only one (proved)" in out
    assert out.startswith(". 5 # # #\n")


def test_import_prints_the_text_map(capsys):
    code = cli.main(["import", "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[1:4] == ["stars: 1", "......", "......"]
    assert "rooms:" in out.splitlines()


@pytest.mark.parametrize("alias,genre", [("mashu", "masyu"), ("masyu", "masyu"), ("pearl", "masyu"),
                                         ("numlin", "numberlink"), ("slither", "slitherlink"),
                                         ("heyawacky", "heyawake"), ("Nurikabe", "nurikabe")])
def test_pzprjs_aliases(alias, genre):
    assert genre_of(alias) == genre


def test_alias_decodes_like_its_genre():
    a = decode("https://puzz.link/p?heyawacky/6/6/aa66aapv0fu0g2i3k")
    b = decode("https://puzz.link/p?heyawake/6/6/aa66aapv0fu0g2i3k")
    assert a.genre == b.genre == "heyawake" and _body(a.text) == _body(b.text)


def test_edit_suffix_and_variant_field_are_read():
    link = parse_url("https://puzz.link/p?nurikabe_edit/v:x/5/5/g5k2o1k3g")
    assert (link.genre, link.cols, link.rows, link.body, link.variant) == ("nurikabe", 5, 5, "g5k2o1k3g", "x")


def test_numbers_of_any_size_become_space_separated_cells():
    decoded = decode("https://puzz.link/p?nurikabe/3/2/-28h+1f4h")
    assert _body(decoded.text) == [" 40   .   .", "500   .   ."]
    data = parse_map(decoded.text, "m.txt")
    assert data.rows == [["40", ".", "."], ["500", ".", "."]]


@pytest.mark.parametrize("url,col,words", [
    ("https://puzz.link/p?kakuro/4/4/9q0", 21, "unknown genre 'kakuro'"),
    ("https://puzz.link/p?mashu/4/4/9q0", 34, "the circles of a 4x4 grid take 6 characters; the URL has 3"),
    ("https://puzz.link/p?nurikabe/5/6/g5k2o1k3g", 43, "the data ends after 25 cells; a 5x6 grid has 30"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g5", 43, "after the puzzle's data"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o!k3g", 39, "unexpected '!' in the number encoding"),
    ("https://puzz.link/p?lits/4/4/9q0", 33, "the room borders of a 4x4 grid take 6 characters; the URL has 3"),
    ("https://puzz.link/p?lits/4/4/9qz2jg", 32, "unexpected 'z' in the room borders"),
    ("https://puzz.link/p?nurikabe/five/5/g5", 37, "the grid size is two whole numbers"),
    ("https://puzz.link/p?nurikabe", 29, "gives no grid size"),
    ("https://puzz.link/nurikabe/5/5", 1, "has the puzzle after '?'"),
    ("https://puzz.link/p?sudoku/4/5/g1k23k3g", 28, "a Sudoku grid is square"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00/3/23lg/22u", 47, "the bank says 3 pieces and lists 2"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00/2/23lg/2", 54, "is not a width, a height and its cells"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00/2/23lg/22!", 54, "is not a width, a height and its cells"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00/2/23lg/2200", 54, "has no cells"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00//q", 48, "unknown piece bank 'q'"),
    ("https://puzz.link/p?starbattle/6/6/x/4ilbhgdnmhou", 36, "number of stars first"),
])
def test_bad_urls_are_located_errors(url, col, words):
    with pytest.raises(UrlError) as e:
        decode(url)
    assert words in e.value.message
    assert (e.value.span.file, e.value.span.line, e.value.span.column) == ("--url", 1, col)
    lines = e.value.render().splitlines()
    assert lines[1].strip() == url and lines[2].index("^") - 4 == col - 1


def test_url_of_another_genre_than_the_spec_is_an_error(capsys):
    code = cli.main(["solve", str(ROOT / "puzzles" / "lits.grid"), "--url", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert err.startswith("--url:1:21: error: the URL is a nurikabe puzzle (Nurikabe), but ")
    assert "states the rules of 'LITS'" in err


def test_map_and_url_together_are_refused(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["solve", str(ROOT / "puzzles" / "lits.grid"), "--url", "x", "--map", "y"])
    assert e.value.code == 1


def test_load_url_names_the_map_after_the_genre():
    path, decoded, data = load_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    assert path.name == "nurikabe.grid" and data.path == "<nurikabe from --url>"
    assert isinstance(decoded.text, str) and issubclass(UrlError, GridlangError)


def test_an_install_without_the_bundled_specs_says_so(monkeypatch, capsys):
    # An installation made before puzzles/ was packaged has no gridlang.puzzles.
    from importlib import resources

    def missing(package):
        raise ModuleNotFoundError(f"No module named {package!r}")

    monkeypatch.setattr(resources, "files", missing)
    assert cli.main(["solve", "--url", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"]) == 1
    err = capsys.readouterr().err
    assert "there is no bundled spec for nurikabe in this installation" in err and "Traceback" not in err
