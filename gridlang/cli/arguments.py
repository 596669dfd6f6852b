"""The ``gridlang`` argument parser: subcommands, flags and their value checks."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys

from gridlang.cli import commands
from gridlang.core.errors import did_you_mean
from gridlang.core.limits import shorten
from gridlang.service.exits import EXIT_BAD_INPUT, EXIT_CODES

MAX_WORKERS = 256
"""The most solver threads ``--workers`` takes."""

MAX_COUNT = 1_000_000
"""The most solutions ``--count`` enumerates."""




class _BackendNames:
    """The registered backend names for ``--backend``, looked up when first
    asked, so that ``gridlang check`` imports no backend machinery."""

    def _names(self) -> list[str]:
        # imported on use, not at start-up
        from gridlang.ir.backend import backend_names

        return backend_names()

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self):
        return iter(self._names())


class _Parser(argparse.ArgumentParser):
    """argparse with gridlang's exit code for bad input (1, not argparse's 2,
    which here means infeasible), keeping its ``--long`` option names."""

    def __init__(self, *args, **kwargs):
        self.long_options: list[str] = []
        super().__init__(*args, **kwargs)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter for every add_argument; without a width, each asks
        # shutil.get_terminal_size, and importing shutil (with zlib, bz2 and lzma) cost every
        # command about 4 ms before any work.
        return self.formatter_class(prog=self.prog, width=terminal_columns() - 2)

    def add_argument(self, *args, **kwargs) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.long_options.extend(s for s in action.option_strings if s.startswith("--"))
        return action

    def error(self, message: str):
        """One line, ``gridlang COMMAND: error: MESSAGE``, and exit 1 (``--help`` shows the usage);
        a misspelt subcommand, choice or option gets the closest one."""
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}{self._suggestion(message)}\n")

    def _suggestion(self, message: str) -> str:
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice is not None:
            return did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        unknown = re.match(r"unrecognized arguments: (--[^\s=]+)", message)
        if unknown is not None:
            return did_you_mean(unknown.group(1), self.long_options)
        return ""


def terminal_columns() -> int:
    """The terminal's width in columns, as ``shutil.get_terminal_size`` gives it: ``COLUMNS`` when
    set to a positive number, else the width of the terminal behind standard output, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def _build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``gridlang`` parser; given ``command``, one of :data:`COMMANDS`, with that subcommand alone.

    A command reads one subcommand's arguments, and building all thirteen
    subparsers there were then (each an ``ArgumentParser`` with its own formatter) took 34
    million instructions, some 6 ms of every command at rest. The first
    argument names the subcommand when it is one (argparse takes nothing
    before it but ``--help`` and ``--version``), so the parser built for
    it parses, and refuses, exactly as the whole one does; any other first
    argument gets the whole parser, for the usage and the closest command.
    """
    p = _Parser(
        prog="gridlang",
        description=("State a grid puzzle's rules once in a .grid spec; solve it with MILP, CP-SAT, MaxSAT\n"
                     "or answer-set programming (clingo)."),
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"gridlang {__import__('gridlang').__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, add in _SUBCOMMANDS.items():
        if command not in _SUBCOMMANDS or name == command:
            add(sub)
    for each in sub.choices.values():
        each.set_defaults(command_parser=each)
    return p


def _common(sp: argparse.ArgumentParser, need_map: bool = True, image: bool = False, url: bool = False) -> None:
    """The spec, the map (or ``--image``, ``--url``), ``--param`` and ``--debug``."""
    sp.add_argument("spec", nargs="?" if url else None, help="the .grid spec" + (
        " (with --url: the genre's bundled spec when omitted)" if url else ""))
    if need_map:
        alternatives = image or url
        where = sp.add_mutually_exclusive_group(required=True) if alternatives else sp
        where.add_argument("--map", "-m", required=not alternatives, help="map or instance file (text or JSON)")
        if image:
            where.add_argument("--image", metavar="PICTURE", help="read the map off a screenshot of the game")
            sp.add_argument("--calibration", metavar="FILE", help="colours for --image (default: the plug-in's)")
        if url:
            where.add_argument("--url", help="a puzz.link URL, decoded into the map (gridlang import URL shows it)")
        sp.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                        help="set a parameter the spec declares (also --NAME VALUE)")
        sp.set_defaults(accepts_params=True, command_parser=sp)
    sp.add_argument("--debug", action="store_true", help="show tracebacks")

def _solver_options(sp: argparse.ArgumentParser) -> None:
    """The backend, its strategy, limits, workers and settings."""
    sp.add_argument("--backend", "-b", default="auto", choices=_BackendNames(), metavar="BACKEND",
                    help="solver: %(choices)s (default: auto, which picks per map)")
    sp.add_argument("--connectivity", "-c", help="connectivity strategy (auto, cuts, flow, tree, reach; default per backend: gridlang backends)")
    sp.add_argument("--time-limit", "-t", type=_positive_seconds, metavar="SECONDS",
                    help="wall-clock limit for the solve (checked by the solver between its steps: "
                         "a large MILP root node can run over by seconds)")
    sp.add_argument("--memory-limit", type=_memory_size, metavar="SIZE",
                    help="largest resident memory, e.g. 2G or 800M (default: 3/4 of the machine's); a model "
                         "clearly larger is refused, a solve that grows past it stops as at the time limit")
    sp.add_argument("--workers", "-w", type=_workers, metavar="N",
                    help=f"solver threads / portfolio workers (1 to {MAX_WORKERS})")
    sp.add_argument("--mip-gap", type=_mip_gap, metavar="GAP", help="relative MIP gap, 0 or more (milp)")
    sp.add_argument("--log", action="store_true", help="show the solver's log on stderr")
    sp.add_argument("--set", action="append", type=_setting, default=[], metavar="BACKEND.SETTING=VALUE",
                    help="a backend setting, e.g. maxsat.algorithm=rc2, cpsat.num_workers=4 "
                         "(any CP-SAT parameter), milp.seed_cuts=1; repeatable")

def _pictures(sp: argparse.ArgumentParser) -> None:
    """``--svg``, ``--png`` and ``--cell``."""
    sp.add_argument("--svg", metavar="FILE", help="draw the verified answer as SVG")
    sp.add_argument("--png", metavar="FILE", help="draw the verified answer as PNG")
    sp.add_argument("--cell", type=_cell_pixels, default=32, metavar="PIXELS",
                    help="side of a cell in --svg and --png pictures (default 32)")


def _add_solve(sub) -> None:
    s = sub.add_parser("solve", help="solve a puzzle and verify the answer", epilog=EXIT_CODES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(s, image=True, url=True)
    _solver_options(s)
    _pictures(s)
    s.add_argument("--count", type=_count, metavar="N", help="enumerate up to N distinct solutions (1 or more)")
    s.add_argument("--unique", action="store_true", help="prove the solution unique, or show a second one")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--forced", action="store_true",
                   help="also find the cells that hold the same value in every answer (every optimal one), "
                        "and the open ones")
    s.add_argument("--explain", action="store_true",
                   help="when there is no answer, name a minimal set of rule instances that cannot hold together")
    s.set_defaults(run=commands._cmd_solve)


def _add_hint(sub) -> None:
    h = sub.add_parser("hint", help="explain a puzzle's answer step by step, easiest deduction first",
                       epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(h, url=True)
    _solver_options(h)
    _pictures(h)
    h.add_argument("--json", action="store_true", help="print one JSON object (its steps under 'steps')")
    h.add_argument("--steps", type=_positive_int, metavar="N", help="stop after N steps (default: all)")
    h.add_argument("--step", type=_step_choice, default=1, metavar="K",
                   help="the step --svg and --png draw (default 1); 'all': every step, each to FILE "
                        "numbered (steps.svg: steps-01.svg, ...; a folder: step-01.svg, ... in it)")
    # imported on use, not at start-up: a solve builds the hint's parser only for `gridlang --help`
    from gridlang.cli import why as why_commands

    h.set_defaults(run=why_commands._cmd_hint)


def _add_generate(sub) -> None:
    # imported on use, not at start-up
    from gridlang.cli import generate as generate_command

    g = sub.add_parser("generate", help="make puzzles of a spec's genre: a unique answer, no redundant clue",
                       epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    g.add_argument("spec", help="the .grid spec, or a bundled spec's name (nurikabe)")
    g.add_argument("--size", required=True, type=generate_command.size, metavar="RxC", help="rows x columns (6x6)")
    g.add_argument("--seed", type=int, default=0, metavar="N", help="the first seed (default 0); the same seed "
                   "makes the same puzzle")
    g.add_argument("--count", type=_positive_int, default=1, metavar="K",
                   help="make K puzzles, from the seeds N, N + 1, ... (N: --seed)")
    g.add_argument("--json", action="store_true", help="one JSON object per puzzle and line: map, url, seed, clues")
    g.add_argument("--symmetry", choices=("none", "rotational", "mirror"), default="none",
                   help="where the clues stand: anywhere (none, the default), symmetric under a half turn "
                        "(rotational) or across the vertical axis (mirror)")
    g.add_argument("--difficulty", choices=("easy", "medium", "hard", "expert"), metavar="LEVEL",
                   help="keep only puzzles whose hint steps grade them at LEVEL (easy, medium, hard, expert; "
                        "docs/why.md): seeds are tried one after another until one is, and at the time limit "
                        "the closest made is printed")
    g.add_argument("--quiet", "-q", action="store_true", help="no progress lines on stderr")
    g.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                   help="set a parameter the spec declares, written in each map's header (box_rows=2)")
    g.add_argument("--backend", "-b", default="cpsat", choices=_BackendNames(), metavar="BACKEND",
                   help="the solver that proves uniqueness while clues are taken away (default: cpsat)")
    g.add_argument("--check-backend", choices=_BackendNames(), metavar="BACKEND",
                   help="the second solver, which checks each puzzle unique and each clue needed "
                        "(default: maxsat, or cpsat when --backend is maxsat)")
    g.add_argument("--time-limit", "-t", type=_positive_seconds, metavar="SECONDS",
                   help="wall-clock limit for all the puzzles")
    g.add_argument("--workers", type=_positive_int, metavar="N",
                   help="with --count: worker processes making puzzles at once, each printed as it is "
                        "finished (default: one per core; 1: in order, in this process)")
    g.add_argument("--debug", action="store_true", help="show tracebacks")
    g.set_defaults(run=generate_command._cmd_generate)


def _add_export(sub) -> None:
    e = sub.add_parser("export", help="write the model for an external solver (LP, MPS, WCNF, CNF, pbtxt, ASP)")
    _common(e)
    e.add_argument("--format", "-f", required=True, help="lp | mps (milp), wcnf | cnf (maxsat), pbtxt (cpsat), asp "
                   "(a clingo .lp program), puzzlink (the map as a puzz.link URL, through the spec's format)")
    e.add_argument("--output", "-o", required=True, help="file to write (- for standard output, puzzlink only)")
    e.add_argument("--connectivity", "-c", help="connectivity strategy for the file")
    e.set_defaults(run=commands._cmd_export)


def _add_decode(sub) -> None:
    d = sub.add_parser("decode", help="read an external solver's solution file and verify it")
    _common(d)
    d.add_argument("--solution", "-s", required=True, help="the solver's solution file")
    d.add_argument("--format", "-f", help="format the model was exported in (default: from the file name; asp for clingo's output)")
    d.add_argument("--json", action="store_true", help="print one JSON object")
    _pictures(d)
    d.set_defaults(run=commands._cmd_decode)


def _add_compile(sub) -> None:
    c = sub.add_parser("compile", help="compile a spec against a map and describe the model")
    _common(c)
    c.add_argument("--dump-ir", action="store_true", help="print every variable and constraint")
    c.set_defaults(run=commands._cmd_compile)


def _add_verify(sub) -> None:
    v = sub.add_parser("verify", help="check an answer against the spec's own rules, evaluated directly")
    _common(v)
    v.add_argument("--solution", "-s", required=True,
                   help="the answer: what solve --json prints, or its decisions object alone")
    v.add_argument("--objective", type=_objective, help="the score the answer claims (default: the file's objective)")
    v.set_defaults(run=commands._cmd_verify)


def _add_batch(sub) -> None:
    bt = sub.add_parser("batch", help="solve many maps, one JSON line each, resumable (a process pool or Dask)")
    bt.add_argument("spec", help="the .grid spec")
    bt.add_argument("maps", nargs="+", metavar="MAP_OR_DIR", help="map files and directories of maps")
    bt.add_argument("--out", "-o", required=True, help="the JSON-lines results file (resumed if it exists)")
    bt.add_argument("--backend", "-b", default="auto", choices=_BackendNames(), metavar="BACKEND", help="solver (default: auto)")
    bt.add_argument("--workers", "-w", type=_workers, help="worker processes (default: one per core); "
                    "CP-SAT and HiGHS get cores / workers threads each")
    bt.add_argument("--time-limit", "-t", type=_positive_seconds, metavar="SECONDS", help="seconds per map")
    bt.add_argument("--unique", action="store_true", help="prove each answer unique")
    bt.add_argument("--param", "-p", action="append", metavar="NAME=VALUE", help="a parameter for every map")
    bt.add_argument("--set", action="append", type=_setting, default=[], metavar="BACKEND.SETTING=VALUE",
                    help="a backend setting (repeatable)")
    bt.add_argument("--scheduler", metavar="tcp://HOST:8786", help="run on this Dask distributed scheduler")
    bt.add_argument("--debug", action="store_true", help="show tracebacks")
    bt.set_defaults(run=commands._cmd_batch)


def _add_plot(sub) -> None:
    pl = sub.add_parser("plot", help="plot batch results: share solved against time, time against size")
    pl.add_argument("results", nargs="+", help="JSON-lines results files (one series per file and backend)")
    pl.add_argument("--output", "-o", required=True, help="figure file: .png, .svg or .pdf")
    pl.add_argument("--title", help="the figure's title")
    pl.add_argument("--debug", action="store_true", help="show tracebacks")
    pl.set_defaults(run=commands._cmd_plot)


def _add_bench(sub) -> None:
    bn = sub.add_parser("bench", help="named sets of real puzzles on several backends, interleaved map by map")
    # imported on use, not at start-up
    from gridlang.batch.bench import SETS

    bn.add_argument("sets", nargs="+", metavar="SET",
                    help="named sets: " + ", ".join(SETS) + "; or dataset (with --dataset), alone")
    bn.add_argument("--backend", "-b", nargs="+", default=None, choices=_BackendNames(), metavar="BACKEND",
                    help="backends, each in turn on a map (default: auto, cpsat, milp, maxsat, asp; "
                         "for dataset, auto)")
    bn.add_argument("--out", "-o", default="bench.jsonl", help="JSON-lines rows, appended (default bench.jsonl)")
    bn.add_argument("--fresh", action="store_true", help="a new gridlang process per solve (start-up included)")
    bn.add_argument("--time-limit", "-t", type=_positive_seconds, default=120.0, metavar="SECONDS",
                    help="seconds per solve (default 120)")
    bn.add_argument("--maps", metavar="GLOB", help="only maps whose file name matches")
    bn.add_argument("--metric", default="compile+solve",
                    help="what the summary measures: elapsed, total, or phases joined by + (default compile+solve)")
    bn.add_argument("--baseline", help="the backend the ratios divide by (default: the first)")
    bn.add_argument("--root", default=".", help="the checkout holding puzzles/ and tests/data/ (default .)")
    bn.add_argument("--set", action="append", type=_setting, default=[], metavar="BACKEND.SETTING=VALUE",
                    help="a backend setting (repeatable)")
    bn.add_argument("--quiet", action="store_true", help="print the summary only")
    ds = bn.add_argument_group("the dataset set", "puzzlekit-dataset's puzzles of the shipped genres, each solved "
                               "with --unique by gridlang, then by a peer, a fresh process each")
    ds.add_argument("--dataset", metavar="PATH",
                    help="a clone of puzzlekit-dataset, or a folder of GENRE/GENRE_dataset.json files")
    ds.add_argument("--genres", metavar="LIST", help="comma-separated (default: every shipped genre it holds)")
    ds.add_argument("--bands", default="15,30,50,beyond", metavar="LIST",
                    help="size bands by the longer side: 15, 30, 50, beyond (default all)")
    ds.add_argument("--sample", type=int, default=5, metavar="N",
                    help="puzzles drawn a band and genre, with --seed (default 5; 0 for all)")
    ds.add_argument("--seed", type=int, default=0, help="the draw's seed (default 0)")
    ds.add_argument("--largest", type=int, default=1, metavar="N",
                    help="also each genre's N largest puzzles (default 1)")
    ds.add_argument("--peer-python", metavar="PATH",
                    help="a Python that has puzzlekit: puzzlekit solves each puzzle too (never a gridlang dependency)")
    ds.add_argument("--peer-command", metavar="CMD",
                    help="another peer: a command given TYPE PROBLEM SOLUTION SECONDS that prints "
                         '{"status": ..., "matches": true|false|null}')
    ds.add_argument("--json", action="store_true", help="print the raw rows as JSON instead of the tables")
    bn.add_argument("--debug", action="store_true", help="show tracebacks")
    bn.set_defaults(run=commands._cmd_bench)


def _add_import(sub) -> None:
    im = sub.add_parser("import", help="decode a puzz.link URL and print the genre's text map")
    im.add_argument("url", help="the puzz.link URL")
    im.add_argument("--spec", help="the .grid spec whose format reads it (default: the bundled spec of its genre)")
    im.add_argument("--debug", action="store_true", help="show tracebacks")
    im.set_defaults(run=commands._cmd_import)


def _add_check(sub) -> None:
    k = sub.add_parser("check", help="parse and check a spec")
    _common(k, need_map=False)
    k.set_defaults(run=commands._cmd_check)


def _add_backends(sub) -> None:
    b = sub.add_parser("backends", help="list the backends and whether their solvers are installed")
    b.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    b.set_defaults(run=commands._cmd_backends)


def _add_import_image(sub) -> None:
    i = sub.add_parser("import-image", help="read a map off a screenshot of the game and print it")
    i.add_argument("image", metavar="PICTURE", help="the screenshot (PNG, JPEG, ...)")
    i.add_argument("--spec", help="the spec whose plug-in reads it (default: the one plug-in that reads pictures)")
    i.add_argument("--calibration", metavar="FILE", help="colours to use (default: the plug-in's)")
    i.add_argument("--time-limit", "-t", type=_positive_seconds, metavar="SECONDS",
                   help="wall-clock limit for reading the picture")
    i.add_argument("--memory-limit", type=_memory_size, metavar="SIZE",
                   help="largest resident memory, e.g. 800M (default: 3/4 of the machine's); a picture "
                        "clearly larger is refused before it is decoded")
    i.add_argument("--debug", action="store_true", help="show tracebacks")
    i.set_defaults(run=commands._cmd_import_image)


def _add_calibrate_image(sub) -> None:
    r = sub.add_parser("calibrate-image", help="learn the colours import-image needs from screenshots with known maps")
    r.add_argument("pairs", nargs="+", metavar="PICTURE MAP", help="screenshots, each followed by its map file")
    r.add_argument("--output", "-o", required=True, help="the calibration file to write (JSON)")
    r.add_argument("--spec", help="the spec whose plug-in reads the pictures (default: the one that does)")
    r.add_argument("--debug", action="store_true", help="show tracebacks")
    r.set_defaults(run=commands._cmd_calibrate_image)


def _add_serve(sub) -> None:
    sv = sub.add_parser("serve", help="the page in a browser and its JSON API (localhost by default)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1, this machine only; see docs/api.md before "
                         "exposing it)")
    sv.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one)")
    sv.add_argument("--workers", "-w", type=_workers, help="worker processes that solve (default: one per core)")
    sv.add_argument("--queue", type=_queue, default=8, metavar="N",
                    help="requests that may wait for a worker (default 8); more are answered 503 with Retry-After")
    sv.add_argument("--time-limit", "-t", type=_positive_seconds, default=60.0, metavar="SECONDS",
                    help="the longest a solve may run, and a request's default (default 60)")
    sv.add_argument("--memory-limit", type=_memory_size, metavar="SIZE",
                    help="largest resident memory of each worker (default: 3/4 of the machine's, shared out)")
    sv.add_argument("--debug", action="store_true", help="show tracebacks")
    sv.set_defaults(run=commands._cmd_serve)


_SUBCOMMANDS = {
    "solve": _add_solve,
    "hint": _add_hint,
    "generate": _add_generate,
    "export": _add_export,
    "decode": _add_decode,
    "compile": _add_compile,
    "verify": _add_verify,
    "batch": _add_batch,
    "plot": _add_plot,
    "bench": _add_bench,
    "import": _add_import,
    "check": _add_check,
    "backends": _add_backends,
    "import-image": _add_import_image,
    "calibrate-image": _add_calibrate_image,
    "serve": _add_serve,
}
"""Each subcommand and the function that adds its parser, in the order ``--help`` lists them."""

COMMANDS = tuple(_SUBCOMMANDS)
"""The subcommands' names."""


def _cell_pixels(text: str) -> int:
    """argparse type: a cell side of 4 pixels or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pixels") from None
    if value < 4:
        raise argparse.ArgumentTypeError(f"a cell must be 4 pixels or more, not {value}")
    return value


def _positive_seconds(text: str) -> float:
    """argparse type: a finite number of seconds greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"give a number of seconds more than 0, not {text}"
                                         + (" (leave it out for no limit)" if value == math.inf else ""))
    return value


def _memory_size(text: str) -> int:
    """argparse type: a size in bytes (``512M``, ``2G``; a bare number is MiB)."""
    # imported on use, not at start-up
    from gridlang.core.memory import parse_size

    try:
        return parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _integer(text: str, low: int, high: int) -> int:
    """An integer from ``low`` to ``high``, or an argparse error saying so."""
    try:
        value = int(text) if len(text.strip()) <= 20 else None
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(f"give a whole number from {low:,} to {high:,}, not {text}")
    return value


def _count(text: str) -> int:
    """argparse type for ``--count``: 1 to :data:`MAX_COUNT` solutions."""
    return _integer(text, 1, MAX_COUNT)


def _workers(text: str) -> int:
    """argparse type for ``--workers``: 1 to :data:`MAX_WORKERS` threads."""
    return _integer(text, 1, MAX_WORKERS)


def _objective(text: str) -> int:
    """argparse type for ``--objective``: an integer a solver can hold (64 bits)."""
    return _integer(text, -(2**63) + 1, 2**63 - 1)


def _mip_gap(text: str) -> float:
    """argparse type for ``--mip-gap``: a finite relative gap of 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"give a relative gap of 0 or more (0.01 is 1%), not {text}")
    return value


def _setting(text: str) -> tuple[str, object]:
    """argparse type: ``BACKEND.SETTING=VALUE``, the value read as a Boolean
    (``true``/``false``), an integer, a number, or else kept as text."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or "." not in key or not raw:
        raise argparse.ArgumentTypeError(f"{text!r}: write BACKEND.SETTING=VALUE, e.g. maxsat.algorithm=rc2")
    if raw.lower() in ("true", "false"):
        return key, raw.lower() == "true"
    for kind in (int, float):
        try:
            value = kind(raw)
        except ValueError:
            continue
        if kind is int and not -(2**63) <= value < 2**63:
            raise argparse.ArgumentTypeError(f"{key}={shorten(raw)}: the value is beyond 64 bits, "
                                             "more than any solver setting takes")
        return key, value
    return key, raw


def _port(text: str) -> int:
    """argparse type for ``--port``: 0 (a free one) to 65,535."""
    return _integer(text, 0, 65_535)


def _queue(text: str) -> int:
    """argparse type for ``serve --queue``: 0 to 10,000 waiting requests."""
    return _integer(text, 0, 10_000)


def _step_choice(text: str) -> int | str:
    """argparse type of ``hint --step``: a whole number of at least 1, or ``all``."""
    if text.strip().lower() == "all":
        return "all"
    try:
        return _positive_int(text)
    except argparse.ArgumentTypeError as e:
        raise argparse.ArgumentTypeError(f"{e}; give a step's number (1, 2, ...) or 'all'") from None


def _positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value
