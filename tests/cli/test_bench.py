"""gridlang bench: named sets of real maps, every backend interleaved map by map, JSON lines out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridlang.batch.bench import SETS, cases, hard_tail_map, run, summary, url_cases
from gridlang.cli import main
from gridlang.core.errors import GridlangError, MapError
from gridlang.service.schemas import validator

REPO = Path(__file__).resolve().parents[2]


def test_named_sets_hold_the_data_set_counts():
    counts = {s: len(cases(s, REPO)) for s in SETS if s != "genres"}
    assert counts == {"dailies": 214, "weeklies": 7, "customs": 12, "standard": 233, "january": 31,
                      "costlywalls": 39, "lovebirds": 38, "loversquarrel": 8, "snake-eggs": 11, "urls": 127, "hard-tail": 3}


def test_the_genre_set_holds_every_bundled_genre_and_its_instances():
    genres = [c["name"].split("/")[0] for c in cases("genres", REPO)]
    assert {"nurikabe", "lits", "norinori", "starbattle", "heyawake", "hitori", "statuepark", "sudoku"} <= set(genres)
    assert not {g for g in genres if g.startswith("horse") or g == "snake_eggs"}
    bundled = {f.parent.name for f in (REPO / "puzzles" / "instances").glob("*/*.answer.json")} - {"snake_eggs"}
    assert set(genres) == bundled
    # a few genres have one published instance with an answer (their READMEs say why); most have two or more
    assert min(genres.count(g) for g in set(genres)) >= 1
    assert sum(genres.count(g) >= 2 for g in set(genres)) >= 45
    assert all(c["unique"] for c in cases("genres", REPO))


def test_a_genre_instance_is_correct_when_proved_unique(tmp_path):
    rows = run(["genres"], ["cpsat"], tmp_path / "g.jsonl", root=REPO, pattern="statuepark/cspuz_6x5")
    assert [(r["name"], r["unique"], r["correct"]) for r in rows] == [("statuepark/cspuz_6x5", True, True)]


def test_the_url_set_lies_beyond_the_tests_and_reads_with_bundled_specs():
    from gridlang.formats.puzzlink import decode

    urls = [c["url"] for c in cases("urls", REPO)]
    assert len(set(urls)) == len(urls)
    here = Path(__file__).resolve()
    tested = "\n".join(path.read_text(encoding="utf-8", errors="replace")
                       for path in [*(REPO / "puzzles" / "instances").rglob("*"), *(REPO / "tests").rglob("*.py"),
                                    *(REPO / "tests" / "data").rglob("*.txt")]
                       if path.is_file() and path != here)
    assert "puzz.link/p?" in tested
    # the first 40 characters of a URL's data find it in a test, even where the test splits a long URL
    assert [u for u in urls if u.split("?", 1)[1][:40] in tested] == []
    genres = {Path(str(decode(url).spec)).stem for url in urls}  # each read by its genre's bundled spec
    assert len(genres) >= 50


def test_url_cases_name_each_url_by_genre_and_size(tmp_path):
    listing = tmp_path / "urls.txt"
    listing.write_text("# a comment\n\nhttps://puzz.link/p?lits/v:/6/6/abc  # source\n"
                       "https://puzz.link/p?lits/6/6/abd\nhttps://puzz.link/p?yajilin/b/16/16/0.\n")
    assert [(c["name"], c["url"]) for c in url_cases(listing)] == [
        ("lits/6x6", "https://puzz.link/p?lits/v:/6/6/abc"), ("lits/6x6-2", "https://puzz.link/p?lits/6/6/abd"),
        ("yajilin/16x16", "https://puzz.link/p?yajilin/b/16/16/0.")]
    with pytest.raises(MapError, match="no none.txt at "):
        url_cases(tmp_path / "none.txt")
    listing.write_text("https://puzz.link/p?lits/6/6/abc\n\n  not a url  # a comment\n")
    with pytest.raises(GridlangError) as e:
        url_cases(listing)
    assert e.value.render().startswith(f"{listing}:3:3: error: a puzz.link URL has the puzzle after '?'")


def test_a_url_case_is_solved_from_its_url_warm_and_fresh(tmp_path):
    warm = run(["urls"], ["auto"], tmp_path / "w.jsonl", root=REPO, pattern="kurotto/4x4")
    fresh = run(["urls"], ["auto"], tmp_path / "f.jsonl", root=REPO, pattern="kurotto/4x4", fresh=True)
    for rows in (warm, fresh):
        assert [(r["name"], r["status"], r["unique"], r["verified"], r["correct"]) for r in rows] == [
            ("kurotto/4x4", "SOLVED", True, True, True)]
        assert rows[0]["map"] == next(c["url"] for c in cases("urls", REPO) if c["name"] == "kurotto/4x4")


def test_hard_tail_maps_are_fixed_near_empty_30x30_grids():
    text = hard_tail_map(35)
    rows = text.splitlines()
    assert (len(rows), {len(r) for r in rows}) == (30, {30})
    assert text.count("H") == 1 and 10 <= text.count("~") <= 27
    assert text == hard_tail_map(35) != hard_tail_map(40)


def test_warm_rows_are_interleaved_correct_and_summarised(tmp_path):
    out = tmp_path / "b.jsonl"
    rows = run(["january"], ["maxsat", "cpsat"], out, root=REPO, pattern="daily-2026-01-0[27].txt")
    assert [(r["name"], r["backend"]) for r in rows] == [
        ("daily-2026-01-02.txt", "maxsat"), ("daily-2026-01-02.txt", "cpsat"),
        ("daily-2026-01-07.txt", "maxsat"), ("daily-2026-01-07.txt", "cpsat")]
    assert [r["objective"] for r in rows] == [51, 51, 66, 66]
    assert all(r["correct"] for r in rows)
    assert [json.loads(line)["backend"] for line in out.read_text().splitlines()] == ["maxsat", "cpsat"] * 2
    lines = summary(rows)
    assert lines[0].startswith("january      maxsat  maps    2  correct    2  compile+solve median ")
    assert lines[0].endswith("x1.00 / x1.00")
    assert "x1.00 / x1.00  |  end to end median " in lines[0]  # the time a user waits, beside the phases


def test_fresh_process_per_solve_proves_uniqueness(tmp_path, capsys):
    out = tmp_path / "b.jsonl"
    code = main(["bench", "snake-eggs", "--maps", "igornadj_test_2x8.txt", "--backend", "cpsat", "--fresh",
                 "--out", str(out), "--metric", "elapsed", "--root", str(REPO), "--quiet"])
    assert code == 0
    row = json.loads(out.read_text())
    assert (row["status"], row["unique"], row["correct"]) == ("SOLVED", True, True)
    assert 0 < row["cpu"] and 10 * 2**20 < row["peak_memory"] < 2**32  # the child's own, Python's start included
    validator("bench").validate(row)
    line = capsys.readouterr().out
    assert "snake-eggs   cpsat   maps    1  correct    1  elapsed median" in line and "end to end" not in line


def test_the_summary_gives_the_wait_beside_the_phases():
    rows = [{"set": "s", "backend": b, "name": f"m{i}", "correct": True, "wall": w,
             "seconds": {"compile": c / 2, "solve": c / 2}}
            for i, (b, w, c) in enumerate([("auto", 0.5, 0.1), ("asp", 0.25, 0.2)])]
    auto, asp = summary(rows)
    assert auto == ("s            auto    maps    1  correct    1  compile+solve median 0.100 s  p90 0.100 s  max 0.100 s "
                    "(m0)  x1.00 / x1.00  |  end to end median 0.500 s  p90 0.500 s  max 0.500 s (m0)  x1.00 / x1.00")
    assert asp.endswith("compile+solve median 0.200 s  p90 0.200 s  max 0.200 s (m1)  x2.00 / x2.00  |  "
                        "end to end median 0.250 s  p90 0.250 s  max 0.250 s (m1)  x0.50 / x0.50")
