"""puzz.link URLs through the specs' formats: solved with the bundled spec or a user's own, printed by
``gridlang import``, written back by ``gridlang export --format puzzlink``, read from map files, and
bad URLs located."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gridlang import cli
from gridlang.core.errors import GridlangError
from gridlang.formats.maps import parse_map
from gridlang.formats.puzzlink import UrlError, decode, load_url, parse_url

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
INSTANCES = PUZZLES / "instances"

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
    return [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("# ")]


@pytest.mark.parametrize("genre,name,url", URLS, ids=[f"{g}-{n}" for g, n, _ in URLS])
def test_the_instance_file_holds_the_url(genre, name, url):
    assert url in (INSTANCES / genre / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    assert Path(decode(url).spec).name == f"{genre}.grid"


@pytest.mark.parametrize("genre,name,url", URLS, ids=[f"{g}-{n}" for g, n, _ in URLS])
def test_solve_url_with_the_bundled_spec_gives_the_known_answer(genre, name, url, capsys):
    code = cli.main(["solve", "--url", url, "--unique", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["unique"] is True and out["verified"] and out["map"] == url
    assert out["spec"].endswith(f"{genre}.grid")
    known = json.loads((INSTANCES / genre / f"{name}.answer.json").read_text(encoding="utf-8"))
    assert out["decisions"] == known["decisions"]


def test_decoded_maps_of_each_kind():
    """A room layer with the stars in a header; numbers of several figures; Sudoku's boxes from the size;
    a bank of pieces drawn as rows of 0 and 1."""
    assert _body(decode("https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou").text)[:3] == [
        "stars: 1", "......", "......"]
    assert _body(decode("https://puzz.link/p?nurikabe/3/2/-28h+1f4h").text) == [" 40   .   .", "500   .   ."]
    assert _body(decode("https://puzz.link/p?sudoku/6/6/g1zt").text)[:2] == ["box_rows: 2", "box_cols: 3"]
    assert "pieces: 10/10/11, 11/11" in _body(decode("https://puzz.link/p?statuepark/6/5/0000591i00/2/23lg/22u").text)
    data = parse_map(decode("https://puzz.link/p?nurikabe/3/2/-28h+1f4h").text, "m.txt")
    assert data.rows == [["40", ".", "."], ["500", ".", "."]]


def test_solve_with_a_spec_and_a_url(capsys):
    code = cli.main(["solve", str(PUZZLES / "nurikabe.grid"), "--url",
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
                                         ("heyawacky", "heyawake"), ("Nurikabe", "nurikabe"), ("hashi", "hashiwokakero"),
                                         ("bridges", "hashiwokakero"), ("snakeegg", "snake_eggs")])
def test_the_bundled_specs_are_found_by_the_names_their_formats_declare(alias, genre):
    from gridlang.formats.puzzlink import bundled_spec

    assert bundled_spec(alias.lower()).name == f"{genre}.grid"


def test_alias_decodes_like_its_genre():
    a = decode("https://puzz.link/p?heyawacky/6/6/aa66aapv0fu0g2i3k")
    b = decode("https://puzz.link/p?heyawake/6/6/aa66aapv0fu0g2i3k")
    assert a.spec == b.spec and _body(a.text) == _body(b.text)


def test_edit_suffix_and_variant_field_are_read():
    link = parse_url("https://puzz.link/p?type=editor&nurikabe_edit/v:x/5/5/g5k2o1k3g")
    assert (link.pid, link.cols, link.rows, link.body, link.variant) == ("nurikabe", 5, 5, "g5k2o1k3g", "x")


@pytest.mark.parametrize("url,col,words", [
    ("https://puzz.link/p?notagenre/4/4/9q0", 21, "unknown genre 'notagenre': no bundled spec reads its URLs"),
    ("https://puzz.link/p?mashu/4/4/9q0", 34, "the circles of a 4x4 grid take 6 characters; the URL has 3"),
    ("https://puzz.link/p?nurikabe/5/6/g5k2o1k3g", 43, "the data ends after 25 cells; a 5x6 grid has 30"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g5", 43, "after the puzzle's data"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o!k3g", 39, "unexpected '!' in the number encoding"),
    ("https://puzz.link/p?lits/4/4/9q0", 33, "the room borders of a 4x4 grid take 6 characters; the URL has 3"),
    ("https://puzz.link/p?lits/4/4/9qz2jg", 32, "unexpected 'z' in the room borders"),
    ("https://puzz.link/p?nurikabe/five/5/g5", 37, "the grid size is two whole numbers"),
    ("https://puzz.link/p?nurikabe", 29, "gives no grid size"),
    ("https://puzz.link/nurikabe/5/5", 1, "has the puzzle after '?'"),
    ("https://puzz.link/p?sudoku/4/5/g1k23k3g", 28, "a 4x5 grid has no box_rows in "),
    ("https://puzz.link/p?statuepark/6/5/0000591i00/3/23lg/22u", 47, "the bank says 3 pieces and lists 2"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00/2/23lg/2", 54, "is not a width, a height and its cells"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00/2/23lg/22!", 54, "is not a width, a height and its cells"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00/2/23lg/2200", 54, "has no cells"),
    ("https://puzz.link/p?statuepark/6/5/0000591i00//q", 48, "unknown piece bank 'q'"),
    ("https://puzz.link/p?starbattle/x/6/6/1/4ilbhgdnmhou", 32, "the flags 'x' ask for a variant"),
    ("https://puzz.link/p?starbattle/6/6/x/4ilbhgdnmhou", 36, "'stars' first, a whole number followed by '/'"),
    ("https://puzz.link/p?masyu/f/4/4/0003i0", 27, "(flag 'f'; its format's flags: none)"),
])
def test_bad_urls_are_located_errors(url, col, words):
    with pytest.raises(UrlError) as e:
        decode(url)
    assert words in e.value.message
    assert (e.value.span.file, e.value.span.line, e.value.span.column) == ("--url", 1, col)
    lines = e.value.render().splitlines()
    assert lines[1].strip() == url and lines[2].index("^") - 4 == col - 1


def test_url_of_another_genre_than_the_spec_names_the_spec_that_reads_it(capsys):
    code = cli.main(["solve", str(PUZZLES / "lits.grid"), "--url", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert err.startswith("--url:1:21: error: the URL is a nurikabe puzzle, but lits.grid's format reads lits URLs; "
                          "the bundled nurikabe.grid reads them")


def test_map_and_url_together_are_refused(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["solve", str(PUZZLES / "lits.grid"), "--url", "x", "--map", "y"])
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


# ------------------------------------------------------------------ a user's own spec

# Kurodoko (pzprjs "kurodoko", test/script/kurodoko.js, MIT licence): its test URL and the answer its
# checker accepts, the shaded cells.
KURODOKO = '''\
puzzle "Kurodoko"

format puzzlink "kurodoko" "kuro":
    cells: number16

tile blank '.'
tile clue number
decide shaded: bool on all
require for each c in clue: not shaded[c]
require for each c in clue: 1 + sum(count(sight from c toward q through not shaded) for q in neighbours(c)) == value(c)
require for each cell p: shaded[p] implies not any(shaded[q] for q in neighbours(p))
require (not shaded) is connected
'''
KURODOKO_URL = "https://puzz.link/p?kurodoko/5/5/i7g5l2l2g4i"
KURODOKO_SHADED = [[0, 1], [1, 2], [2, 1], [2, 4], [3, 2], [4, 0], [4, 4]]


def test_a_users_spec_outside_the_repository_reads_its_own_urls(tmp_path):
    """``gridlang solve my.grid --url URL``, ``import --spec`` and ``export --format puzzlink`` in a
    process of its own, in a folder outside the checkout: the format in the spec is all it takes."""
    (tmp_path / "my.grid").write_text(KURODOKO, encoding="utf-8")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "gridlang", *args], capture_output=True, text=True,
                              cwd=tmp_path, timeout=120)

    out = run("solve", "my.grid", "--url", KURODOKO_URL, "--unique", "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["unique"] is True and answer["verified"] is True
    assert [cell for cell, _ in answer["decisions"]["shaded"]] == KURODOKO_SHADED
    printed = run("import", KURODOKO_URL.replace("kurodoko/", "kuro/"), "--spec", "my.grid")
    assert printed.returncode == 0, printed.stderr
    assert _body(printed.stdout) == ["...7.", "5....", "..2..", "....2", ".4..."]
    (tmp_path / "k.txt").write_text(printed.stdout, encoding="utf-8")
    written = run("export", "my.grid", "--map", "k.txt", "--format", "puzzlink", "--output", "-")
    assert written.returncode == 0, written.stderr
    assert written.stdout.strip() == KURODOKO_URL
    unknown = run("solve", "--url", KURODOKO_URL.replace("kurodoko/", "nosuchgenre/"))
    assert unknown.returncode == 1 and "unknown genre 'nosuchgenre'" in unknown.stderr


def test_a_map_file_may_hold_a_url(tmp_path, capsys):
    spec = tmp_path / "my.grid"
    spec.write_text(KURODOKO, encoding="utf-8")
    holder = tmp_path / "k.txt"
    holder.write_text(f"# pzprjs test/script/kurodoko.js\n\n{KURODOKO_URL}\n", encoding="utf-8")
    assert cli.main(["solve", str(spec), "--map", str(holder), "--json", "--backend", "cpsat"]) == 0
    assert [cell for cell, _ in json.loads(capsys.readouterr().out)["decisions"]["shaded"]] == KURODOKO_SHADED
    holder.write_text(f"# pzprjs\n  {KURODOKO_URL[:-3]}!k\n", encoding="utf-8")
    assert cli.main(["solve", str(spec), "--map", str(holder)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{holder}:2:{3 + len(KURODOKO_URL) - 3}: error: unexpected '!' in the number encoding")
    assert err.splitlines()[1].strip() == f"{KURODOKO_URL[:-3]}!k"


def test_export_writes_a_url_from_a_map(tmp_path, capsys):
    instance = INSTANCES / "heyawake" / "pzprjs_6x6.txt"
    map_ = tmp_path / "h.txt"
    assert cli.main(["import", "https://puzz.link/p?heyawake/6/6/lll155007rs12222j"]) == 0
    map_.write_text(capsys.readouterr().out, encoding="utf-8")
    for source in (map_, instance):
        out = tmp_path / "u.txt"
        assert cli.main(["export", str(PUZZLES / "heyawake.grid"), "--map", str(source), "--format", "puzzlink",
                         "--output", str(out)]) == 0
        assert out.read_text(encoding="utf-8").strip() == "https://puzz.link/p?heyawake/6/6/lll155007rs12222j"


def test_export_of_a_map_the_format_cannot_write_is_located(tmp_path, capsys):
    map_ = tmp_path / "m.txt"
    map_.write_text("...\n.x.\n", encoding="utf-8")
    spec = tmp_path / "t.grid"
    spec.write_text(KURODOKO + "tile other 'x'\n", encoding="utf-8")
    assert cli.main(["export", str(spec), "--map", str(map_), "--format", "puzzlink", "--output", "-"]) == 1
    assert capsys.readouterr().err.startswith(f"{map_}:2:2: error: 'x' at row 2, column 2 has no place in ")
    assert cli.main(["export", str(PUZZLES / "horse.grid"), "--map", str(map_), "--format", "puzzlink",
                     "--output", "-"]) == 1
    assert "declares no puzz.link format" in capsys.readouterr().err


# ------------------------------------------------------------------ Snake Egg, structured clues

def test_a_snakeegg_url_reads_into_the_snake_eggs_spec(capsys):
    """pzprjs test/script/snakeegg.js (MIT licence): the URL puzzles/instances/snake_eggs/pzprjs_test_5x5.txt was
    converted from, read by the bundled Snake Eggs spec (circles 0 -> ends, the bank //4 -> sizes 1..4), and the
    snake of the answer pzprjs's checker accepts."""
    url = "https://puzz.link/p?snakeegg/5/5/a0a0l4a2f//4"
    decoded = decode(url)
    assert Path(decoded.spec).name == "snake_eggs.grid"
    instance = (INSTANCES / "snake_eggs" / "pzprjs_test_5x5.txt").read_text(encoding="utf-8")
    assert _body(decoded.text) == [ln for ln in instance.splitlines() if ln.strip() and not ln.startswith("#")]
    assert cli.main(["solve", "--url", url, "--unique", "--json", "--backend", "cpsat"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["puzzle"] == "Snake Eggs" and out["unique"] is True and out["verified"] is True
    snake = {tuple(cell) for cell, kind in out["decisions"]["kind"] if kind == "snake"}
    assert snake == {(0, 0), (0, 1), (0, 3), (1, 0), (1, 3), (1, 4), (2, 0), (2, 1), (2, 2), (2, 4), (3, 2), (3, 4),
                     (4, 2), (4, 3), (4, 4)}


@pytest.mark.parametrize("pid,items,url,rows", [
    # pzprjs test/script/yajilin.js: a left arrow 2 at (2, 3), an up arrow 0 at (4, 4)
    ("yajilin", "cells: arrows", "https://puzz.link/p?yajirin/5/5/m32j10",
     [".....", ".....", "...<2.", ".....", "....^0"]),
    # pzprjs test/script/tapa.js
    ("tapa", "cells: number lists", "https://puzz.link/p?tapa/5/5/3n5hchhajn2",
     ["3....", "....5", "..3,1,1..", "3,1....", "....2"]),
    # pzprjs test/script/kakuro.js: the clues outside in row 0 and column 0
    ("kakuro", "cells: sum pairs\n    outside top left: sum pairs (empty = frame)",
     "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3",
     ["++12,04,0++", "+4,8..10,00,0", "0,10....10,0", "0,3..17,3..", "+0,21....", "+0,00,12..0,0"]),
])
def test_import_prints_structured_clues(pid, items, url, rows, tmp_path, capsys):
    spec = tmp_path / f"{pid}.grid"
    spec.write_text(f"tile blank '.'\ntile frame '+'\ntile clue numbers\ntile arrows arrow number\n"
                    f"decide shaded: bool on blank\n"
                    f'format puzzlink "{pid}" "yajirin":\n    {items}\n', encoding="utf-8")
    assert cli.main(["import", url, "--spec", str(spec)]) == 0
    assert ["".join(ln.split()) for ln in _body(capsys.readouterr().out)] == rows


def test_the_url_package_names_no_genre():
    """``gridlang/formats/puzzlink/`` holds the shared mechanisms only: no bundled genre's name or puzz.link name is
    in its code (the genres are data: their specs' format statements)."""
    import re

    from gridlang.language import ast
    from gridlang.language.parser import parse_file

    names = set()
    for path in PUZZLES.glob("*.grid"):
        spec = parse_file(path)
        names.add(path.stem.replace("_", " "))
        names.update(f.lower() for fmt in spec.of(ast.Format) for f in fmt.names)
        if spec.puzzle is not None:
            names.add(spec.puzzle.name.lower())
    code = "\n".join(p.read_text(encoding="utf-8") for p in [*(ROOT / "gridlang" / "formats" / "puzzlink").glob("*.py"),
                                                                    *(ROOT / "gridlang" / "language" / "encodings").glob("*.py")]).lower()
    found = sorted(n for n in names if re.search(r"\b" + re.escape(n) + r"\b", code))
    assert found == []


# noqx's Nurikabe example (T0nyX1ang/noqx, solver/nurikabe.py; Apache-2.0 or GPL-3.0): 38 numbers, two of them
# not given (`?`, pzprjs's "." in the URL).
NURIKABE_UNKNOWN_URL = "https://puzz.link/p?nurikabe/19/12/g5zw3k2h4g4k.v.h2i2g4z3n7j3k2h4h4k3i4j3zzk2i2k2p6j2k6k"


def test_a_nurikabe_number_not_given_is_an_island_of_any_size():
    import gridlang
    from gridlang.families.nurikabe import verify

    result = gridlang.solve(gridlang.bundled("nurikabe"), url=NURIKABE_UNKNOWN_URL, unique=True, time_limit=120)
    assert (result.status, result.verified, result.unique) == ("SOLVED", True, True)
    grid = result.report.model.grid
    unknown = [i for i in range(grid.size) if grid.chars[i] == "?"]
    assert [divmod(i, grid.cols) for i in unknown] == [(2, 18), (3, 16)]
    shaded = {r * grid.cols + c for r, c in result.decisions["shaded"]}
    # Each island, recomputed here, holds exactly one number or `?`, and a numbered island has its size.
    left = set(range(grid.size)) - shaded
    while left:
        island, todo = set(), [left.pop()]
        while todo:
            i = todo.pop()
            island.add(i)
            near = {n for n in grid.neighbours[i] if n in left}
            left -= near
            todo += near
        numbers = [grid.chars[i] for i in island if grid.chars[i] != "."]
        assert len(numbers) == 1 and numbers[0] in ("?", str(len(island))), (sorted(island), numbers)
    # The published rules' checker counts a `?` as a number of any size.
    assert verify(grid, result.report.solution, {}).ok


# noqx's Yajilin example (T0nyX1ang/noqx, solver/yajilin.py; Apache-2.0 or GPL-3.0), with pzprjs's flag "b":
# clue cells drawn grey, without "?". The flag is a look, not a rule: it becomes the parameter grey_clues and
# goes back into the URL on export.
YAJILIN_GREY_URL = ("https://puzz.link/p?yajilin/b/16/16/0.210.0.0.0.0.220.0.0.0.0.0.0.0.42n0.0.n0.0.b0.a0.c0.a0.c"
                    "0.0.a41e0.f0.0.f0.e31a0.0.c41a31c21a21b0.0.n0.0.n0.0.b11a2.c0.a0.c0.0.a41e0.f0.0.f0.e31a0.0.c11a"
                    "11c0.a0.b0.0.n0.0.n320.0.0.0.0.0.0.0.120.0.0.0.0.110.")


def test_yajilins_grey_clue_flag_is_read_solved_and_written_back(tmp_path, capsys):
    import gridlang

    result = gridlang.solve(gridlang.bundled("yajilin"), url=YAJILIN_GREY_URL, unique=True, time_limit=120)
    assert (result.status, result.verified, result.unique) == ("SOLVED", True, True)
    assert result.report.model.params["grey_clues"] == 1
    map_ = tmp_path / "y.txt"
    assert cli.main(["import", YAJILIN_GREY_URL]) == 0
    map_.write_text(capsys.readouterr().out, encoding="utf-8")
    out = tmp_path / "u.txt"
    assert cli.main(["export", str(PUZZLES / "yajilin.grid"), "--map", str(map_), "--format", "puzzlink",
                     "--output", str(out)]) == 0
    # pzprjs's encoder ends a URL whose last character is not a letter or a digit with '/'.
    assert out.read_text(encoding="utf-8").strip() == YAJILIN_GREY_URL + "/"


@pytest.mark.parametrize("url,name,spec", [
    ("https://puzz.link/p?easyasabc/6/6", "n", "easyasabc.grid"),
    ("https://puzz.link/p?snakeegg/5/5/a0a0l4a2f", "sizes", "snake_eggs.grid"),
])
def test_a_url_that_ends_before_a_parameter_without_default_is_refused_in_the_url(capsys, url, name, spec):
    """``import`` took it (no header for the parameter) and ``solve`` then blamed
    the bundled spec's ``param`` line; a URL ending before a parameter that has a
    default (Star Battle's stars) keeps the default."""
    assert cli.main(["import", url]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"--url:1:{len(url) + 1}: error: the URL ends before it gives {name!r}, which {spec} has no default for"
    assert err[1:] == ["    " + url, " " * (4 + len(url)) + "^"]
    assert cli.main(["import", "https://puzz.link/p?starbattle/6/6"]) == 0
    assert capsys.readouterr().out.splitlines()[1:3] == ["......", "......"]  # no header: stars keeps 1
