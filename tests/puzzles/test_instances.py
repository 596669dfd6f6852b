"""Every bundled instance with a published answer: solved to that answer, proved unique, verified.

The instances are data (docs/gallery.md, "Instances"): in
``puzzles/instances/GENRE/``, ``NAME.txt`` is a map or a file holding a
puzz.link URL, and ``NAME.answer.json`` the published answer as
``--json`` prints decisions (converted once from the source: pzprjs's
accepted pzprv3 answer, cspuz's expected grid), with ``backends``: the
default and the one other backend this test runs it on (the fastest one
other than the one ``auto`` picks, measured when the file was made). The
spec is ``puzzles/GENRE.grid``; each folder's README names the sources.

This file names no genre: it runs whatever the folders hold.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gridlang.api import report_json
from gridlang.formats.maps import parse_map, read_map
from gridlang.formats.puzzlink import decode, encode, url_line
from gridlang.ir.backend import SolveOptions
from gridlang.language.parser import parse_file
from gridlang.solving.answers import check_answer
from gridlang.solving.pipeline import solve

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"


def _instances() -> list[tuple[str, str]]:
    """(folder, name) of every instance with a published answer."""
    return [(answer.parent.name, answer.name[:-len(".answer.json")])
            for answer in sorted((PUZZLES / "instances").glob("*/*.answer.json"))]


def _answer(folder: str, name: str) -> dict:
    return json.loads((PUZZLES / "instances" / folder / f"{name}.answer.json").read_text(encoding="utf-8"))


def _runs():
    """Each instance on each backend its answer file names; the default run proves the first instance of
    each genre (its folder's first by name), ``-m slow`` the others, so that the default run grows with
    the genres, not with their instances."""
    first: dict[str, str] = {}
    for folder, name in _instances():
        first.setdefault(folder, name)
        marks = () if first[folder] == name else (pytest.mark.slow,)
        for backend in _answer(folder, name)["backends"]:
            yield pytest.param(folder, name, backend, id=f"{folder}-{name}-{backend}", marks=marks)


def _urls():
    for folder, name in _instances():
        text = (PUZZLES / "instances" / folder / f"{name}.txt").read_text(encoding="utf-8")
        found = url_line(text)
        if found is not None:
            yield pytest.param(folder, name, found[2], id=f"{folder}-{name}")


def test_the_instances_are_there():
    """Every bundled genre with instances has its spec and at least one instance with its answer, and
    its README's table lists exactly the instances the folder holds, each with its map: a file lost
    from a folder, or one added without its source, fails here.

    (The floor was twice as many instances as genres; a genre new to puzz.link often has one
    published puzzle with an answer, pzprjs's own test script's, so each genre has at least one.)
    """
    folders = {folder for folder, _ in _instances()}
    assert len(folders) >= 12 and all((PUZZLES / f"{folder}.grid").is_file() for folder in folders)
    for folder in sorted(p.parent.name for p in (PUZZLES / "instances").glob("*/README.md")) + sorted(folders):
        here = PUZZLES / "instances" / folder
        answered = {name for f, name in _instances() if f == folder}
        listed = set(re.findall(r"^\|\s*`([^`]+)`\s*\|", (here / "README.md").read_text(encoding="utf-8"), re.M))
        assert answered and listed == answered, folder
        assert all((here / f"{name}.txt").is_file() for name in answered), folder


@pytest.mark.parametrize("folder,name,backend", list(_runs()))
def test_the_published_answer_is_the_only_one(folder, name, backend):
    report = solve(PUZZLES / f"{folder}.grid", PUZZLES / "instances" / folder / f"{name}.txt", backend=backend,
                   unique=True, options=SolveOptions(time_limit=300))
    out = report_json(report)
    assert out["verified"] is True and (report.verdict is None or report.verdict.ok)
    assert out["unique"] is True and len(report.solutions) == 1
    assert json.loads(json.dumps(out["decisions"])) == _answer(folder, name)["decisions"]  # cells as lists


@pytest.mark.parametrize("folder,name", _instances(), ids=[f"{f}-{n}" for f, n in _instances()])
def test_the_answer_file_verifies(folder, name):
    """``gridlang verify``'s check: the spec's own rules hold on the published answer."""
    folder_path = PUZZLES / "instances" / folder
    verdict = check_answer(PUZZLES / f"{folder}.grid", folder_path / f"{name}.txt", folder_path / f"{name}.answer.json")
    assert verdict.ok, verdict.render()


def _tail(url: str) -> str:
    """The URL after its genre's name, without a final '/' (the genre is compared through the spec)."""
    return url.split("?", 1)[1].split("/", 1)[1].rstrip("/")


@pytest.mark.parametrize("folder,name,url", list(_urls()))
def test_every_url_round_trips(folder, name, url):
    """Decoded and written back, a URL is the same puzzle, in pzprjs's own form: a URL from pzprjs's own
    tests (``pzprjs_*``, written by its encoder) comes back as it is; any URL comes back in a form that
    writing again keeps."""
    spec = parse_file(PUZZLES / f"{folder}.grid")
    first = decode(url, spec)
    again = encode(spec, parse_map(first.text, "m.txt", spec.puzzle.name))
    second = decode(again, spec)
    assert _body(second.text) == _body(first.text)
    assert encode(spec, parse_map(second.text, "m.txt", spec.puzzle.name)) == again
    if name.startswith("pzprjs_"):
        assert _tail(again) == _tail(url)


def _body(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if not ln.startswith("# ")]


@pytest.mark.parametrize("folder", sorted({f for f, _ in _instances()}))
def test_the_readme_lists_every_instance(folder):
    readme = (PUZZLES / "instances" / folder / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([^`]+)` \|", readme, re.M))
    assert listed == {n for f, n in _instances() if f == folder}
    assert "answer.json" in readme


def test_instance_maps_read_without_their_spec():
    """A map file holding a URL is read through the bundled spec of its genre when no spec is given."""
    for folder, name, url in (p.values for p in _urls()):
        data = read_map(PUZZLES / "instances" / folder / f"{name}.txt")
        assert data.rows and data.path.endswith(f"{name}.txt>")
