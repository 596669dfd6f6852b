"""Start-up: the parser is built once and kept in a cache keyed by the grammar;
`gridlang check` imports no solver and no backend machinery."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from horse_data import REPO

from gridlang.language import parser
from gridlang.language.parser import cache_dir
from gridlang.language.parser.grammar import build_parser, cache_file, grammar_text

HORSE = str(REPO / "puzzles" / "horse.grid")


def run_probe(probe: str, cache, cwd):
    """Run ``probe`` in a fresh Python with the caches under ``cache``, in ``cwd``
    (outside the checkout and the cache, whose gridlang/ would shadow the
    installed package), and return the JSON it prints."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=cwd)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_parser_is_built_once_per_process():
    assert parser._parser() is parser._parser()


def test_a_built_parser_is_kept_in_the_cache_and_loaded_from_it(tmp_path):
    grammar = grammar_text()
    first = build_parser(grammar, tmp_path)
    path = cache_file(grammar, tmp_path)
    assert path.is_file() and list(tmp_path.iterdir()) == [path]
    stamp = path.stat().st_mtime_ns
    again = build_parser(grammar, tmp_path)
    assert path.stat().st_mtime_ns == stamp  # loaded, not written again
    text = "tile a '.'\ndecide x: bool on a\n"
    assert again.parse(text) == first.parse(text)


def test_a_changed_grammar_is_not_served_from_the_old_cache(tmp_path):
    grammar = grammar_text()
    build_parser(grammar, tmp_path)
    changed = grammar.replace('"linked"                  -> attr_linked',
                              '"linked"                  -> attr_linked\n          | "portal"                  -> attr_linked')
    assert changed != grammar
    assert cache_file(changed, tmp_path) != cache_file(grammar, tmp_path)
    new = build_parser(changed, tmp_path)
    assert new.parse("tile p '0' portal\n") is not None  # only the changed grammar has 'portal'
    assert len(list(tmp_path.iterdir())) == 2


def test_a_corrupt_cache_file_is_rebuilt(tmp_path):
    grammar = grammar_text()
    path = cache_file(grammar, tmp_path)
    path.write_bytes(b"not a pickle")
    built = build_parser(grammar, tmp_path)
    assert built.parse("tile a '.'\n") is not None


def test_an_unwritable_cache_directory_means_no_cache(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file, so no directory can be made under it
    assert cache_dir() is None
    assert build_parser(grammar_text(), None).parse("tile a '.'\n") is not None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no user ids")
def test_a_cache_directory_others_may_write_is_not_used(tmp_path, monkeypatch):
    # Another user could plant a pickle there, and loading it would run their code.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == str(tmp_path / "gridlang")
    (tmp_path / "gridlang").chmod(0o777)
    assert cache_dir() is None
    (tmp_path / "gridlang").chmod(0o700)
    assert cache_dir() == str(tmp_path / "gridlang")


def test_the_cache_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == str(tmp_path / "gridlang")


def test_check_imports_no_solver_and_no_backend(tmp_path):
    probe = (
        "import io, json, sys, contextlib\n"
        "from gridlang.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main(['check', {HORSE!r}])\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    code, modules = run_probe(probe, tmp_path, tmp_path)
    assert code == 0
    loaded = {m.split(".")[0] for m in modules} | {m for m in modules if m.startswith("gridlang.")}
    for name in ("ortools", "pyomo", "pysat", "highspy", "rustworkx", "numpy",
                 "gridlang.ir.backend", "gridlang.exporters", "gridlang.ir.model", "gridlang.core.deadline"):
        assert name not in loaded, name


@pytest.mark.parametrize("backend,loaded,absent", [
    # CP-SAT's proto is written through cp_model_helper: ortools.sat.python.cp_model
    # would import pandas and numpy, 0.29 s of a one-off solve.
    # A text map is read without the puzz.link package (its engine and URL reader, 8 ms), and a
    # backend that decomposes nothing without gridlang.ir.transforms (its encodings, 6 ms).
    # The records a solve makes are gridlang.core.nodes' (no dataclasses: its import and code
    # generation were some 30 ms of every solve, inspect included). A spec of the core language
    # loads none of the constructs (gridlang.constructs).
    ("cpsat", "ortools.sat.python.cp_model_helper",
     ("pandas", "ortools.sat.python.cp_model", "gridlang.formats.puzzlink", "gridlang.ir.transforms", "dataclasses",
      "inspect", "gridlang.constructs")),
    # argparse asks shutil for the terminal's width unless given one (shutil brings zlib, bz2, lzma).
    # --json is written by gridlang.service.json_report, without the Python API (gridlang.api, 37 KB of byte code).
    ("asp", "clingo", ("ortools", "dataclasses", "inspect", "gridlang.formats.puzzlink", "shutil", "gridlang.api",
                       "gridlang.constructs")),
    # The MILP is built with pyomo.core; pyomo.environ loads every plugin (0.2 s more),
    # which only the LP and MPS writers need.
    ("milp", "pyomo.core", ("pyomo.environ", "gridlang.formats.puzzlink", "gridlang.constructs")),
])
def test_a_solve_imports_only_what_its_backend_uses(tmp_path, backend, loaded, absent):
    daily = str(REPO / "tests" / "data" / "horse" / "daily-2026-01-07.txt")
    probe = (
        "import io, json, sys, contextlib\n"
        "from gridlang.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    code = main(['solve', {HORSE!r}, '--map', {daily!r}, '--budget', '12', '--backend', {backend!r}, "
        "'--json'])\n"
        "print(json.dumps([code, json.loads(out.getvalue())['objective'], sorted(sys.modules)]))\n"
    )
    cache, where = tmp_path / "cache", tmp_path / "run"  # apart: the cache's gridlang/ would shadow the package
    where.mkdir()
    run_probe(probe, cache, where)  # the spec is parsed and kept in the cache, as by a user's first solve
    code, objective, modules = run_probe(probe, cache, where)
    assert (code, objective) == (0, 66)
    assert loaded in modules
    for name in absent:
        assert name not in modules, name



OFF_THE_SOLVE_PATH = ("pathlib", "urllib.parse", "ipaddress", "fnmatch", "importlib.util", "gridlang.service.text",
                      "gridlang.pictures.textdraw", "gridlang.pictures.glyphs", "gridlang.language.looks", "pickle",
                      "gridlang.ir.connectivity.separation", "gridlang.ir.connectivity.graph",
                      "gridlang.ir.connectivity.encodings", "gridlang.ir.connectivity.blocks", "gridlang.cli.why",
                      "gridlang.compiler.pieces", "gridlang.compiler.reaching", "gridlang.compiler.directions",
                      "gridlang.compiler.sightlines", "gridlang.language.checker.constructs",
                      "gridlang.language.parser.reserved", "gridlang.formats.layers")
"""What a ``solve --json`` of a map with a cached spec does without: ``pathlib`` (with ``urllib.parse``,
``ipaddress`` and ``fnmatch``, some 18 million instructions; the spec cache is read through ``os.path``),
``importlib.util`` (the cache's key finds Lark through ``sys.meta_path``) and the answer drawn as text
with its looks and glyphs, and ``pickle`` (the cache is read by the C unpickler, ``_pickle``, which
``pickle.load`` is; the auto backend's race pickles only once it forks); the cut routines of the
connectivity loop (clingo states a horse map's region by reachability, and the loop has no lazy node to
cut), the command line's why-parts (``--forced``, ``--explain``, ``hint``), and what a spec without
shapes, ``for each``, decided directions or lines of sight never asks for: the placements of shapes,
the reaching rules, the steps by a decided direction (with the checker's typing of constructs and its
reserved words), the chains along a line of sight; and the layered maps' reader, for a plain map."""


def test_a_json_solve_of_a_horse_map_imports_nothing_it_took_off_its_path(tmp_path):
    daily = str(REPO / "tests" / "data" / "horse" / "daily-2026-09-02.txt")
    probe = (
        "import io, json, sys, contextlib\n"
        # An editable install's finder loads pathlib with the interpreter: count what the solve loads.
        f"for name in {OFF_THE_SOLVE_PATH!r}:\n"
        "    sys.modules.pop(name, None)\n"
        "from gridlang.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    code = main(['solve', {HORSE!r}, '--map', {daily!r}, '--budget', '17', '--time-limit', '30', "
        "'--json'])\n"
        "answer = json.loads(out.getvalue())\n"
        "print(json.dumps([code, answer['verified_score'], answer['status'], sorted(sys.modules)]))\n"
    )
    cache, where = tmp_path / "cache", tmp_path / "run"  # apart: the cache's gridlang/ would shadow the package
    where.mkdir()
    run_probe(probe, cache, where)  # the spec is parsed and kept in the cache, as by a user's first solve
    code, score, status, modules = run_probe(probe, cache, where)
    assert (code, score, status) == (0, 22, "OPTIMAL")
    assert [name for name in OFF_THE_SOLVE_PATH if name in modules] == []

def _constructs_loaded_the_second_time(argv: list[str], tmp_path) -> tuple[int, list[str]]:
    """``gridlang ARGV`` run twice in fresh processes sharing one spec cache: the second run's exit code and
    the construct modules it imported (the first parsed the spec, loading every construct's rules, and kept
    it in the cache)."""
    probe = (
        "import io, json, sys, contextlib\n"
        "from gridlang.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main({argv!r})\n"
        "print(json.dumps([code, sorted(m for m in sys.modules if m.startswith('gridlang.constructs'))]))\n"
    )
    cache, where = tmp_path / "cache", tmp_path / "run"
    where.mkdir()
    run_probe(probe, cache, where)
    return run_probe(probe, cache, where)


def test_a_cached_spec_loads_the_constructs_it_uses_and_no_other(tmp_path):
    # Unpickling a node of a construct imports its module, which registers it: the folder is
    # not scanned (gridlang.constructs.arithmetic, which Tapa does not use, stays out).
    tapa = str(REPO / "puzzles" / "tapa.grid")
    code, modules = _constructs_loaded_the_second_time(["check", tapa], tmp_path)
    assert code == 0
    assert "gridlang.constructs.blocks" in modules and "gridlang.constructs.arithmetic" not in modules


def test_a_cached_spec_whose_only_use_of_lines_is_a_decision_on_edges_loads_them(tmp_path):
    # No node of gridlang.constructs.edges in the spec: its decision on edges finds the construct
    # (decision_of), which then makes the edges and reads them on the answer.
    spec, grid_map = tmp_path / "lines.grid", tmp_path / "m.txt"
    spec.write_text("tile cell '.'\ndecide line: bool on edges\nrequire line is connected\n")
    grid_map.write_text("..\n..\n")
    code, modules = _constructs_loaded_the_second_time(["solve", str(spec), "--map", str(grid_map), "--json"],
                                                       tmp_path)
    assert code == 0
    assert "gridlang.constructs.edges" in modules


@pytest.mark.parametrize("columns", [None, "60", "0", "wide"])
def test_the_help_is_as_wide_as_shutil_says(monkeypatch, columns):
    import shutil

    from gridlang.cli.arguments import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("fmt,marker", [("mps", "\nROWS\n"), ("lp", "\ns.t.\n")])
def test_a_fresh_process_writes_lp_and_mps_files(tmp_path, fmt, marker, capsys):
    # Solving no longer imports pyomo.environ; writing a file must still register Pyomo's writers,
    # and a fresh process must write the same file as this one, where Pyomo is long loaded.
    from gridlang.cli import main

    daily = str(REPO / "tests" / "data" / "horse" / "daily-2026-01-07.txt")
    out = tmp_path / f"daily.{fmt}"
    probe = (
        "import io, json, contextlib\n"
        "from gridlang.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main(['export', {HORSE!r}, '--map', {daily!r}, '--budget', '12', '--format', {fmt!r}, "
        f"'-o', {str(out)!r}])\n"
        "print(json.dumps(code))\n"
    )
    assert run_probe(probe, tmp_path, tmp_path) == 0
    here = tmp_path / f"here.{fmt}"
    assert main(["export", HORSE, "--map", daily, "--budget", "12", "--format", fmt, "-o", str(here)]) == 0
    capsys.readouterr()
    assert marker in out.read_text()
    assert out.read_text() == here.read_text()


def test_the_command_counts_gridlang_s_own_start_up(capsys):
    # A command begun 3 s before it reads the spec (gridlang's imports, on a
    # slow disk): those 3 s are start-up, and the phases add up to the total.
    import time

    from gridlang.cli import main

    code = main(["solve", HORSE, "--map", str(REPO / "tests" / "data" / "horse" / "daily-2026-01-07.txt"),
                 "--budget", "12", "--backend", "asp", "--json"], started=time.perf_counter() - 3.0)
    seconds = json.loads(capsys.readouterr().out)["seconds"]
    assert code == 0
    assert seconds["startup"] >= 3.0
    assert seconds["total"] == pytest.approx(sum(v for k, v in seconds.items() if k != "total"), abs=0.05)


def _probe_parse(path: str, cache: str) -> tuple[str, bool]:
    """Parse ``path`` in a fresh process with the cache under ``cache``: (repr of the AST, whether Lark was imported)."""
    probe = ("import json, sys\n"
             "from gridlang.language.parser import parse_file\n"
             f"spec = parse_file({path!r})\n"
             "print(json.dumps([repr(spec.statements), 'lark' in sys.modules]))\n")
    return tuple(run_probe(probe, cache, Path(path).parent))


def test_a_parsed_spec_is_served_from_the_cache_without_lark(tmp_path):
    (tmp_path / "specs").mkdir()
    spec = tmp_path / "specs" / "horse.grid"
    spec.write_text((REPO / "puzzles" / "horse.grid").read_text())
    first, imported = _probe_parse(str(spec), str(tmp_path))
    assert imported  # parsed, and cached
    assert len(list((tmp_path / "gridlang").glob("spec-*.ast-cache"))) == 1
    again, imported = _probe_parse(str(spec), str(tmp_path))
    assert (again, imported) == (first, False)
    # An edited spec is parsed afresh, never served from the old AST.
    spec.write_text(spec.read_text().replace("param budget: int >= 0", "param budget: int >= 1"))
    edited, imported = _probe_parse(str(spec), str(tmp_path))
    assert imported and edited != first and "bounds=(('>=', 1),)" in edited


def _probe_check(path: str, cache: str) -> tuple[str, bool]:
    """Parse and check ``path`` in a fresh process with the cache under ``cache``: (repr of the
    symbols' parameters and tiles, whether the checks were imported)."""
    probe = ("import json, sys\n"
             "from gridlang.language.parser import parse_and_check_file\n"
             f"spec, symbols = parse_and_check_file({path!r})\n"
             "print(json.dumps([repr((symbols.params, symbols.tiles, symbols.regions)),\n"
             "                  'gridlang.language.checker.statements' in sys.modules]))\n")
    return tuple(run_probe(probe, cache, Path(path).parent))


def test_a_checked_spec_is_served_from_the_cache_with_its_symbols_without_the_checks(tmp_path):
    (tmp_path / "specs").mkdir()
    spec = tmp_path / "specs" / "horse.grid"
    spec.write_text((REPO / "puzzles" / "horse.grid").read_text())
    first, checked = _probe_check(str(spec), str(tmp_path))
    assert checked and "budget" in first
    again, checked = _probe_check(str(spec), str(tmp_path))
    assert (again, checked) == (first, False)
    # An edited spec is checked afresh, never served with the old symbols.
    spec.write_text(spec.read_text().replace("param budget: int >= 0", "param wall_budget: int >= 0")
                    .replace("budget", "wall_budget").replace("wall_wall_budget", "wall_budget"))
    edited, checked = _probe_check(str(spec), str(tmp_path))
    assert checked and "wall_budget" in edited


def test_a_spec_that_fails_the_checks_fails_them_every_time(tmp_path, monkeypatch):
    from gridlang.core.errors import SemanticError

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spec = tmp_path / "bad.grid"
    spec.write_text("tile a '.'\nrequire count(b) == 1\n")
    parser._parse_cached.cache_clear()
    parser._checked_cached.cache_clear()
    for _ in range(2):
        parser._parse_cached.cache_clear()
        with pytest.raises(SemanticError) as e:
            parser.parse_and_check_file(spec)
        assert (e.value.span.line, e.value.span.column) == (2, 15)
    # The AST is kept (it parsed), without symbols.
    parser._parse_cached.cache_clear()
    assert parser._parse_cached(spec.read_text(), str(spec))[1] is None


def test_a_corrupt_or_foreign_spec_cache_file_is_parsed_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spec = tmp_path / "a.grid"
    spec.write_text("tile a '.'\n")
    parser._parse_cached.cache_clear()
    want = parser.parse_file(spec)
    file = Path(parser.spec_cache_file(str(spec), str(tmp_path / "gridlang")))
    for content in (b"not a pickle", pickle.dumps((("old", str(spec), "tile a '.'\n"), "junk"))):
        file.write_bytes(content)
        parser._parse_cached.cache_clear()
        assert parser.parse_file(spec) == want
    # Written back by the parse: served from the file from now on.
    parser._parse_cached.cache_clear()
    monkeypatch.setattr(parser, "parse_spec", lambda *a: (_ for _ in ()).throw(AssertionError("parsed again")))
    assert parser.parse_file(spec) == want


def test_a_cached_spec_whose_node_classes_moved_is_parsed_afresh(tmp_path, monkeypatch):
    # A cache file written before a node class moved to another module (as the blocks'
    # nodes moved to gridlang.constructs.blocks) names a module that is gone: even under
    # the current key, it is parsed again, not an error.
    import types

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spec = tmp_path / "a.grid"
    spec.write_text("tile a '.'\n")
    parser._parse_cached.cache_clear()
    want = parser.parse_file(spec)
    gone = types.ModuleType("gridlang.language.ast.gone")
    Moved = type("Moved", (), {"__module__": gone.__name__})
    gone.Moved = Moved
    monkeypatch.setitem(sys.modules, gone.__name__, gone)
    stale = pickle.dumps(((parser._fingerprint(), str(spec), "tile a '.'\n"), Moved()))
    monkeypatch.delitem(sys.modules, gone.__name__)
    Path(parser.spec_cache_file(str(spec), str(tmp_path / "gridlang"))).write_bytes(stale)
    parser._parse_cached.cache_clear()
    assert parser.parse_file(spec) == want


def test_the_spec_cache_key_covers_the_modules_of_a_construct_s_subpackage():
    files = {Path(name).as_posix() for name, _, _ in parser._fingerprint()[2]}
    assert any(f.endswith("gridlang/constructs/blocks/nodes.py") for f in files)
    assert any(f.endswith("gridlang/constructs/arithmetic.py") for f in files)


def test_a_spec_with_a_syntax_error_is_never_cached(tmp_path, monkeypatch):
    from gridlang.core.errors import GridSyntaxError

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spec = tmp_path / "bad.grid"
    spec.write_text("tile a '.'\ndecide x bool on a\n")
    parser._parse_cached.cache_clear()
    for _ in range(2):
        with pytest.raises(GridSyntaxError) as e:
            parser.parse_file(spec)
        assert (e.value.span.line, e.value.span.column) == (2, 10)
    assert not list((tmp_path / "gridlang").glob("spec-*"))


def test_the_spec_cache_keeps_the_most_recently_used_files(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(parser, "SPEC_CACHE_FILES", 3)
    specs = []
    for i in range(5):
        spec = tmp_path / f"s{i}.grid"
        spec.write_text(f"tile t{i} '.'\n")
        specs.append(spec)
    parser._parse_cached.cache_clear()
    for spec in specs[:3]:
        parser.parse_file(spec)
    first = parser.spec_cache_file(str(specs[0]), str(tmp_path / "gridlang"))
    os.utime(first, ns=(1, 1))  # the oldest, until read again
    parser._parse_cached.cache_clear()
    parser.parse_file(specs[0])  # served from the file, which is now the most recent
    for spec in specs[3:]:
        parser.parse_file(spec)
    kept = {p.name for p in (tmp_path / "gridlang").glob("spec-*.ast-cache")}
    assert kept == {Path(parser.spec_cache_file(str(s), str(tmp_path / "gridlang"))).name
                    for s in (specs[0], specs[3], specs[4])}


def test_a_spec_that_cannot_be_kept_is_still_parsed(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spec = tmp_path / "a.grid"
    spec.write_text("tile a '.'\n")
    parser._parse_cached.cache_clear()

    def refuse(*args, **kwargs):
        raise RecursionError("too deep to pickle")

    parser._parser()  # Lark's own cache is written with pickle too: built first
    monkeypatch.setattr(pickle, "dump", refuse)
    assert parser.parse_file(spec).statements[0].name == "a"
    assert list((tmp_path / "gridlang").glob("spec-*")) == []  # no cache file, no temporary file left


def _lazy_patterns():
    """Every :class:`LazyRegex` at the top level of a gridlang module, as (module, name, pattern)."""
    import importlib
    import pkgutil

    import gridlang
    from gridlang.core.lazy_regex import LazyRegex

    found = []
    for info in pkgutil.walk_packages(gridlang.__path__, "gridlang."):
        if info.name.endswith("__main__"):  # runs the command line when imported
            continue
        module = importlib.import_module(info.name)
        found += [(info.name, name, value) for name, value in vars(module).items() if isinstance(value, LazyRegex)]
    return found


def test_every_lazy_pattern_compiles_and_matches_as_re_compile_would():
    import re

    found = _lazy_patterns()
    assert {m for m, _, _ in found} >= {"gridlang.language.values", "gridlang.formats.maps", "gridlang.core.clues", "gridlang.core.memory"}
    for module, name, lazy in found:
        pattern, flags = lazy._source
        compiled = re.compile(pattern, flags)  # raises re.error on a pattern that does not compile
        # Asked through the lazy object (its __getattr__), each attribute is the compiled pattern's.
        assert (lazy.pattern, lazy.flags, lazy.groups) == (pattern, compiled.flags, compiled.groups), (module, name)
        assert lazy.search.__self__ is compiled, (module, name)


def test_a_lazy_pattern_compiles_on_first_use_only():
    from gridlang.core.lazy_regex import LazyRegex

    lazy = LazyRegex(r"^\s*(\d+)\s*$")
    assert "match" not in vars(lazy)
    assert lazy.match(" 42 ").group(1) == "42" and lazy.fullmatch("x") is None
    assert vars(lazy)["match"] == lazy.compiled().match  # bound: later calls skip __getattr__
    assert [m.group(0) for m in LazyRegex(r"\d", 0).finditer("a1b2")] == ["1", "2"]
    with pytest.raises(AttributeError):
        lazy.__deepcopy__


def test_two_installs_used_in_turn_keep_a_cached_spec_each(tmp_path, monkeypatch):
    # A checkout and an installed gridlang (different fingerprints) on one spec path: each
    # parses it once, and from then on both are served from their own cache file.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spec = tmp_path / "a.grid"
    spec.write_text("tile a '.'\n")
    installs = [("install", 1), ("checkout", 2)]
    parses = []
    real_parse = parser.parse_spec
    monkeypatch.setattr(parser, "parse_spec", lambda *a: parses.append(a[1]) or real_parse(*a))
    for _ in range(3):
        for fingerprint in installs:
            monkeypatch.setattr(parser, "_fingerprint", lambda f=fingerprint: f)
            parser._parse_cached.cache_clear()
            assert parser.parse_file(spec).statements[0].name == "a"
    assert parses == [str(spec), str(spec)]  # once per install, not once per run
    assert len(list((tmp_path / "gridlang").glob("spec-*.ast-cache"))) == 2


def test_the_console_collects_rarely_while_loading_and_as_usual_once_the_model_is_built(tmp_path):
    # What a command loads lives as long as the process: the collector's youngest generation waits for
    # 50,000 new objects until the compile, which freezes what was loaded and runs under Python's thresholds.
    daily = str(REPO / "tests" / "data" / "horse" / "daily-2026-09-02.txt")
    probe = (
        "import gc, io, json, sys, contextlib\n"
        "usual = gc.get_threshold()\n"
        "sys.argv = ['gridlang', 'solve', " + repr(HORSE) + ", '--map', " + repr(daily) + ", '--budget', '17', "
        "'--json']\n"
        "from gridlang.console import entry\n"
        "loading = gc.get_threshold()\n"
        "import gridlang.solving.pipeline as pipeline\n"
        "seen = []\n"
        "compile_spec = pipeline.compile_spec\n"
        "def watched(*args, **kwargs):\n"
        "    seen.append((gc.get_threshold(), gc.get_freeze_count() > 0))\n"
        "    return compile_spec(*args, **kwargs)\n"
        "pipeline.compile_spec = watched\n"
        "from gridlang.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    code = main(sys.argv[1:])\n"
        "print(json.dumps([usual, loading, seen, code, json.loads(out.getvalue())['verified_score']]))\n"
    )
    usual, loading, seen, code, score = run_probe(probe, tmp_path, tmp_path)
    assert usual == [700, 10, 10]
    assert loading == [50_000, 10, 10]
    # one compile, called after the freeze with Python's thresholds put back (it raises the youngest
    # generation's to 10,000 while it runs: core.memory.fewer_collections, tested in tests/core)
    assert seen == [[[700, 10, 10], True]]
    assert (code, score) == (0, 22)


def test_collect_as_usual_without_collect_rarely_changes_nothing(monkeypatch):
    import gc

    from gridlang.core import collector

    # Importing gridlang.console (as _lazy_patterns does) calls collect_rarely in this process: start afresh.
    monkeypatch.setattr(collector, "_usual", [])
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        frozen = gc.get_freeze_count()
        collector.collect_as_usual()
        assert (gc.get_threshold(), gc.get_freeze_count()) == ((700, 10, 10), frozen)
        collector.collect_rarely()
        collector.collect_rarely()  # twice: the usual thresholds are still the first call's
        assert gc.get_threshold() == (50_000, 10, 10)
        collector.collect_as_usual()
        assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
