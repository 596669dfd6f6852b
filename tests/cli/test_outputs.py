"""A command never writes over one of its own inputs: refused with a sentence before any work,
the input left as it was, whatever name (a symlink, a hard link, ./) the output is given."""

from __future__ import annotations

import os
import shutil

import pytest
from horse_data import REPO

from gridlang.cli import main

SPEC = REPO / "puzzles" / "horse.grid"
DAILY = REPO / "puzzles" / "maps" / "daily-2026-01-10.txt"


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SPEC, "horse.grid")
    shutil.copy(DAILY, "m.txt")
    (tmp_path / "answer.json").write_text('{"wall": []}\n')
    (tmp_path / "results.jsonl").write_text('{"map": "m.txt", "status": "OPTIMAL"}\n')
    os.symlink("m.txt", "link.txt")
    os.link("horse.grid", "hard.grid")
    return tmp_path


CASES = [
    (["export", "horse.grid", "--map", "m.txt", "-f", "lp", "-o", "m.txt"], "m.txt",
     "--output m.txt is the map: writing it would destroy an input of 'gridlang export'; give another file"),
    (["export", "horse.grid", "--map", "m.txt", "-f", "mps", "-o", "horse.grid"], "horse.grid",
     "--output horse.grid is the spec: writing it would destroy an input of 'gridlang export'; give another file"),
    (["export", "horse.grid", "--map", "m.txt", "-f", "lp", "-o", "m"], None, None),  # m.vars.json is no input
    (["solve", "horse.grid", "--map", "m.txt", "--svg", "m.txt"], "m.txt",
     "--svg m.txt is the map: writing it would destroy an input of 'gridlang solve'; give another file"),
    (["solve", "horse.grid", "--map", "m.txt", "--png", "horse.grid"], "horse.grid",
     "--png horse.grid is the spec: writing it would destroy an input of 'gridlang solve'; give another file"),
    (["solve", "horse.grid", "--map", "m.txt", "--png", "link.txt"], "m.txt",
     "--png link.txt is the map (m.txt, the same file): writing it would destroy an input of 'gridlang solve'; "
     "give another file"),
    (["solve", "hard.grid", "--map", "./m.txt", "--svg", "horse.grid"], "horse.grid",
     "--svg horse.grid is the spec (hard.grid, the same file): writing it would destroy an input of "
     "'gridlang solve'; give another file"),
    (["solve", "horse.grid", "--map", "m.txt", "--svg", "x.png", "--png", "./x.png"], None,
     "--svg and --png name one file, x.png: give each its own"),
    (["decode", "horse.grid", "--map", "m.txt", "--solution", "answer.json", "-f", "lp", "--svg", "answer.json"],
     "answer.json", "--svg answer.json is the solution file: writing it would destroy an input of 'gridlang decode'; "
                    "give another file"),
    (["calibrate-image", "shot.png", "m.txt", "-o", "m.txt"], "m.txt",
     "--output m.txt is a screenshot or map: writing it would destroy an input of 'gridlang calibrate-image'; "
     "give another file"),
    (["plot", "results.jsonl", "-o", "results.jsonl"], "results.jsonl",
     "--output results.jsonl is a results file: writing it would destroy an input of 'gridlang plot'; "
     "give another file"),
    (["batch", "horse.grid", "m.txt", "--out", "hard.grid"], "horse.grid",
     "--out hard.grid is the spec (horse.grid, the same file): writing it would destroy an input of "
     "'gridlang batch'; give another file"),
]


@pytest.mark.parametrize("argv, kept, message", CASES, ids=[" ".join(c[0][:1] + c[0][-2:]) for c in CASES])
def test_an_output_onto_an_input_is_refused_before_any_work(work, capsys, argv, kept, message):
    before = {p.name: p.read_bytes() for p in work.iterdir() if p.is_file()}
    code = main(argv)
    err = capsys.readouterr().err
    if message is None:  # the control: an output beside the inputs is written
        assert code == 0 and (work / "m").is_file() and (work / "m.vars.json").is_file()
        return
    assert (code, err) == (1, f"error: {message}\n")
    after = {p.name: p.read_bytes() for p in work.iterdir() if p.is_file()}
    assert after == before  # nothing written, nothing changed
    assert kept is None or (work / kept).read_bytes() == before[kept]
