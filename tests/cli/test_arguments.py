"""No combination of a subcommand's arguments ends in a traceback: each is solved (exit 0) or
refused with one line holding ``error:`` (exit 1).

The combinations run in this process through :func:`gridlang.cli.main`, so
that a few hundred take seconds; argparse's own refusals raise SystemExit,
whose code is the exit code.
"""

from __future__ import annotations

import itertools

import pytest
from horse_data import REPO

from gridlang.cli import main
from gridlang.cli.arguments import COMMANDS, _build_parser
from gridlang.web import inputs
from gridlang.why.generation import LEVEL_NAMES
from gridlang.why.generation.maps import SYMMETRIES

HORSE = str(REPO / "puzzles" / "horse.grid")
NURIKABE = str(REPO / "puzzles" / "nurikabe.grid")
DAILY = str(REPO / "puzzles" / "maps" / "daily-2026-01-10.txt")
URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:  # argparse's own usage errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def refused(code: int, err: str, argv, one: bool = True) -> None:
    """Exit 1, no traceback, the first line saying ``error:``; with ``one``, no other line says it
    (a map with several wrong characters gets one error for each)."""
    assert "Traceback" not in err, (argv, err)
    assert code == 1, (argv, code, err)
    lines = err.splitlines()
    assert lines and "error:" in lines[0], (argv, err)
    assert not one or sum("error:" in line for line in lines) == 1, (argv, err)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("arguments")
    (d / "bad.grid").write_text('puzzle "x"\ntile water \'~\'\nrequre count(water) >= 0\n')
    (d / "bad-map.txt").write_text("budget: 1\n~~~~~\n~.H.~\n~..~\n")
    (d / "not-a-picture.png").write_text("hello\n")
    (d / "dir").mkdir()
    return d


def _values(files):
    spec = {"absent": None, "horse": HORSE, "nurikabe": NURIKABE, "missing": files / "missing.grid",
            "directory": files / "dir", "syntax error": files / "bad.grid", "a map": DAILY}
    source = {"--map good": ["--map", DAILY], "--map missing": ["--map", files / "missing.txt"],
              "--map directory": ["--map", files / "dir"], "--map ragged": ["--map", files / "bad-map.txt"],
              "--map no value": ["--map"], "--url good": ["--url", URL], "--url bad": ["--url", "https://puzz.link/p?nurikabe/5/5/zz"],
              "--url not a URL": ["--url", "daily.txt"], "--image missing": ["--image", files / "missing.png"],
              "--image not a picture": ["--image", files / "not-a-picture.png"],
              "--map and --url": ["--map", DAILY, "--url", URL], "none": []}
    extra = {"none": [], "unknown flag": ["--some-unknown-flag"], "unknown flag=value": ["--some-unknown-flag=3"],
             "unknown flag value": ["--some-unknown-flag", "3"], "parameter": ["--budget", "10"],
             "parameter no value": ["--budget"], "stray word": ["extra-word"], "bad time": ["--time-limit", "x"],
             "bad backend": ["--backend", "nope"], "bad count": ["--count", "0"], "count and unique": ["--count", "2", "--unique"],
             "bad connectivity": ["--connectivity", "nope"], "bad setting": ["--set", "nope"],
             "unknown setting": ["--set", "cpsat.num_worker=4"], "bad memory": ["--memory-limit", "lots"],
             "picture into a missing folder": ["--svg", files / "no" / "such" / "dir.svg"]}
    return spec, source, extra


def _expected_ok(spec: str, source: str, extra: str) -> bool:
    """The combinations that must solve: every argument good, and the spec's puzzle the source's."""
    fits = (spec == "horse" and source == "--map good") or (spec in ("absent", "nurikabe") and source == "--url good")
    if not fits:
        return False
    if extra == "none" or extra == "count and unique":
        return True
    return extra == "parameter" and spec == "horse"


def test_solve_never_prints_a_traceback(files, capsys):
    spec, source, extra = _values(files)
    seen = 0
    for (sk, sv), (mk, mv), (ek, ev) in itertools.product(spec.items(), source.items(), extra.items()):
        # Every spec and source with no extra, and every extra with a few bases: 84 + 7 * 16 runs.
        if ek != "none" and not ((sk, mk) in {("horse", "--map good"), ("absent", "--url good"),
                                                ("nurikabe", "--url good"), ("absent", "--map good"),
                                                ("missing", "--map good"), ("horse", "none"),
                                                ("absent", "none")}):
            continue
        argv = ["solve"] + ([sv] if sv is not None else []) + mv + ev
        if ek == "picture into a missing folder" or _expected_ok(sk, mk, ek):
            argv += ["--backend", "cpsat"] if ek != "bad backend" else []
        code, out, err = run(argv, capsys)
        seen += 1
        if _expected_ok(sk, mk, ek):
            assert code == 0 and "Traceback" not in err, (argv, code, err)
            assert "status" in out
        else:
            refused(code, err, argv, one=(sk, mk) != ("nurikabe", "--map good"))
    assert seen == 84 + 7 * 15


def test_a_forgotten_spec_is_named(capsys):
    code, _, err = run(["solve", "--map", DAILY], capsys)
    refused(code, err, "no spec")
    assert err.strip() == ("error: give the spec: gridlang solve SPEC --map MAP (only --url may leave it out, "
                           "for its genre's bundled spec)")


def test_an_unknown_flag_beside_a_url_is_refused_with_the_bundled_spec_s_parameters(capsys):
    code, _, err = run(["solve", "--url", URL, "--some-unknown-flag"], capsys)
    refused(code, err, "url")
    assert err.strip().startswith("error: --some-unknown-flag is neither an option of 'gridlang solve' nor a "
                                  "parameter of ")
    assert "nurikabe.grid" in err


SUBCOMMANDS = {
    "export": [["export"], ["export", HORSE], ["export", HORSE, "--map", DAILY], ["export", HORSE, "--map", DAILY, "-f", "lp"],
               ["export", "--map", DAILY, "-f", "lp", "-o", "x.lp"], ["export", HORSE, "--map", DAILY, "-f", "nope", "-o", "x"],
               ["export", HORSE, "--map", DAILY, "-f", "lp", "-o", "x.lp", "--some-unknown-flag"]],
    "decode": [["decode"], ["decode", HORSE, "--map", DAILY], ["decode", HORSE, "--map", DAILY, "-s", "missing.sol"],
               ["decode", HORSE, "--map", DAILY, "-s", "x.nope"]],
    "verify": [["verify"], ["verify", HORSE, "--map", DAILY], ["verify", HORSE, "--map", DAILY, "-s", "missing.json"],
               ["verify", HORSE, "--map", DAILY, "-s", "x.json", "--objective", "many"]],
    "compile": [["compile"], ["compile", HORSE], ["compile", "--map", DAILY], ["compile", HORSE, "--map", "missing.txt"]],
    "check": [["check"], ["check", "missing.grid"], ["check", HORSE, "--map", DAILY]],
    "batch": [["batch"], ["batch", HORSE], ["batch", HORSE, DAILY], ["batch", HORSE, "missing.txt", "--out", "r.jsonl"],
              ["batch", HORSE, DAILY, "--out", "r.jsonl", "--workers", "0"]],
    "plot": [["plot"], ["plot", "missing.jsonl"], ["plot", "missing.jsonl", "-o", "x.png"]],
    "bench": [["bench"], ["bench", "no-such-set", "--out", "b.jsonl"]],
    "import": [["import"], ["import", "not a url"], ["import", URL, "extra"]],
    "import-image": [["import-image"], ["import-image", "missing.png"]],
    "calibrate-image": [["calibrate-image"], ["calibrate-image", "a.png"], ["calibrate-image", "a.png", "a.txt"]],
    "backends": [["backends", "extra"]],
    "serve": [["serve", "--port", "70000"], ["serve", "--queue", "many"], ["serve", "extra"]],
    "": [[], ["slove", HORSE], ["--no-such-option"]],
}


@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_every_subcommand_refuses_missing_or_bad_arguments_in_one_line(command, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in SUBCOMMANDS[command]:
        code, _, err = run(argv, capsys)
        refused(code, err, argv)


@pytest.mark.parametrize("command", COMMANDS)
def test_the_parser_built_for_one_subcommand_reads_it_as_the_whole_parser_does(command):
    whole = _build_parser()._subparsers._group_actions[0].choices[command]
    alone = _build_parser(command)._subparsers._group_actions[0].choices
    assert list(alone) == [command]
    assert [(a.option_strings, a.dest, a.default, a.required) for a in alone[command]._actions] == \
        [(a.option_strings, a.dest, a.default, a.required) for a in whole._actions]


def test_the_front_ends_offer_the_generator_s_own_levels_and_symmetries():
    # The command line and the page's request check name them without importing the generator
    # (their start-up); they must stay the generator's.
    generate = _build_parser("generate")._subparsers._group_actions[0].choices["generate"]
    options = {a.dest: a for a in generate._actions}
    assert tuple(options["difficulty"].choices) == LEVEL_NAMES == inputs.DIFFICULTIES
    assert tuple(options["symmetry"].choices) == SYMMETRIES == inputs.SYMMETRIES
