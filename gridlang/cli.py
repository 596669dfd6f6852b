"""The ``gridlang`` command line.

Subcommands: ``solve``, ``export``, ``decode``, ``compile``, ``check``,
``backends``, ``import-image``, ``calibrate-image``. Bad input prints
``file:line:col: error: ...`` with the line and a caret, never a traceback
(``--debug`` shows it).

What is particular to a puzzle family (its drawing, the figures on the status
line, its part of ``--json``) comes from the family's plug-in, found by the
spec's ``puzzle`` name (:mod:`gridlang.plugins`). ``--json`` always carries
``decisions``, the answer by decision name (null when there is none), and a
plug-in's figures under the plug-in's own name.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import os
import sys
import time
from pathlib import Path

from .errors import BackendError, GridlangError, ImageError, ParamError, VerificationError
from .limits import MAX_ANSWER_BYTES, shorten
from .plugins import Plugin, all_plugins, find_plugin

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_INFEASIBLE = 2
EXIT_NO_SOLUTION = 3
EXIT_VERIFY_FAILED = 4
EXIT_INTERRUPTED = 130

EXIT_CODES = """exit codes:
  0  solved (a verified solution; with --unique, also when it is not unique)
  1  bad input: the spec, the map, a parameter or the command line is wrong (the message says where)
  2  infeasible: proved that no solution exists
  3  no solution found: the time limit, or a limit given to the solver with --set, ran out first
  4  verification failed: the answer broke the puzzle's rules (a solver or encoding bug)
130  interrupted: the first Ctrl-C stops the search and prints the best answer so far;
     a second one exits at once
"""


class _BackendNames:
    """The registered backend names for ``--backend``, looked up when first
    asked, so that ``gridlang check`` imports no backend machinery."""

    def _names(self) -> list[str]:
        from .backend import backend_names

        return backend_names()

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self):
        return iter(self._names())


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (see ``gridlang --help``)."""
    started = time.perf_counter()
    parser = _build_parser()
    args, rest = parser.parse_known_args(argv)
    debug = getattr(args, "debug", False)
    args.started = started
    try:
        if rest:
            if not getattr(args, "accepts_params", False):
                parser.error(f"unrecognized arguments: {' '.join(rest)}")
            args.param = list(args.param or []) + _shorthand_params(rest, args)
        return args.run(args)
    except GridlangError as e:
        if debug:
            raise
        print(e.render(), file=sys.stderr)
        return EXIT_VERIFY_FAILED if isinstance(e, VerificationError) else EXIT_BAD_INPUT
    except BrokenPipeError:  # the reader went away (| head): what it wanted, it has
        _silence_stdout()
        return EXIT_OK
    except OSError as e:  # a file that cannot be written (export -o, a full disk)
        if debug:
            raise
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last
    flush of a closed pipe cannot raise again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (a test's capture)
        pass


class _Parser(argparse.ArgumentParser):
    """argparse with gridlang's exit code for bad input (1, not argparse's 2,
    which here means infeasible), keeping its ``--long`` option names."""

    def __init__(self, *args, **kwargs):
        self.long_options: list[str] = []
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.long_options.extend(s for s in action.option_strings if s.startswith("--"))
        return action

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="gridlang",
        description="State a grid puzzle's rules once in a .grid spec; solve it with MILP, CP-SAT or MaxSAT.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"gridlang {__import__('gridlang').__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sp: argparse.ArgumentParser, need_map: bool = True, image: bool = False, url: bool = False) -> None:
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

    def solver_options(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--backend", "-b", default="auto", choices=_BackendNames(), metavar="BACKEND",
                        help="solver: %(choices)s (default: auto, which picks per map)")
        sp.add_argument("--connectivity", "-c", help="connectivity strategy (auto, cuts, flow, tree, reach; default per backend: gridlang backends)")
        sp.add_argument("--time-limit", "-t", type=_positive_seconds, metavar="SECONDS",
                        help="wall-clock limit for the solve (checked by the solver between its steps: "
                             "a large MILP root node can run over by seconds)")
        sp.add_argument("--workers", "-w", type=_workers, metavar="N",
                        help=f"solver threads / portfolio workers (1 to {MAX_WORKERS})")
        sp.add_argument("--mip-gap", type=_mip_gap, metavar="GAP", help="relative MIP gap, 0 or more (milp)")
        sp.add_argument("--log", action="store_true", help="show the solver's log on stderr")
        sp.add_argument("--set", action="append", type=_setting, default=[], metavar="BACKEND.SETTING=VALUE",
                        help="a backend setting, e.g. maxsat.algorithm=rc2, cpsat.num_workers=4 "
                             "(any CP-SAT parameter), milp.seed_cuts=1; repeatable")

    def pictures(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--svg", metavar="FILE", help="draw the verified answer as SVG")
        sp.add_argument("--png", metavar="FILE", help="draw the verified answer as PNG")
        sp.add_argument("--cell", type=_cell_pixels, default=32, metavar="PIXELS",
                        help="side of a cell in --svg and --png pictures (default 32)")

    s = sub.add_parser("solve", help="solve a puzzle and verify the answer", epilog=EXIT_CODES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    common(s, image=True, url=True)
    solver_options(s)
    pictures(s)
    s.add_argument("--count", type=_count, metavar="N", help="enumerate up to N distinct solutions (1 or more)")
    s.add_argument("--unique", action="store_true", help="prove the solution unique, or show a second one")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=_cmd_solve)

    e = sub.add_parser("export", help="write the model for an external solver (LP, MPS, WCNF, CNF, pbtxt, ASP)")
    common(e)
    e.add_argument("--format", "-f", required=True, help="lp | mps (milp), wcnf | cnf (maxsat), pbtxt (cpsat), asp (a clingo .lp program)")
    e.add_argument("--output", "-o", required=True, help="file to write")
    e.add_argument("--connectivity", "-c", help="connectivity strategy for the file")
    e.set_defaults(run=_cmd_export)

    d = sub.add_parser("decode", help="read an external solver's solution file and verify it")
    common(d)
    d.add_argument("--solution", "-s", required=True, help="the solver's solution file")
    d.add_argument("--format", "-f", help="format the model was exported in (default: from the file name; asp for clingo's output)")
    d.add_argument("--json", action="store_true", help="print one JSON object")
    pictures(d)
    d.set_defaults(run=_cmd_decode)

    c = sub.add_parser("compile", help="compile a spec against a map and describe the model")
    common(c)
    c.add_argument("--dump-ir", action="store_true", help="print every variable and constraint")
    c.set_defaults(run=_cmd_compile)

    v = sub.add_parser("verify", help="check an answer against the spec's own rules, evaluated directly")
    common(v)
    v.add_argument("--solution", "-s", required=True,
                   help="the answer: what solve --json prints, or its decisions object alone")
    v.add_argument("--objective", type=_objective, help="the score the answer claims (default: the file's objective)")
    v.set_defaults(run=_cmd_verify)

    bt = sub.add_parser("batch", help="solve many maps, one JSON line each, resumable (a process pool or Dask)")
    bt.add_argument("spec", help="the .grid spec")
    bt.add_argument("maps", nargs="+", metavar="MAP_OR_DIR", help="map files and directories of maps")
    bt.add_argument("--out", "-o", required=True, help="the JSON-lines results file (resumed if it exists)")
    bt.add_argument("--backend", "-b", default="auto", choices=_BackendNames(), metavar="BACKEND", help="solver (default: auto)")
    bt.add_argument("--workers", "-w", type=_positive_int, help="worker processes (default: one per core; "
                    "one for cpsat, whose portfolio uses the cores)")
    bt.add_argument("--time-limit", "-t", type=_positive_seconds, metavar="SECONDS", help="seconds per map")
    bt.add_argument("--unique", action="store_true", help="prove each answer unique")
    bt.add_argument("--param", "-p", action="append", metavar="NAME=VALUE", help="a parameter for every map")
    bt.add_argument("--set", action="append", type=_setting, default=[], metavar="BACKEND.SETTING=VALUE",
                    help="a backend setting (repeatable)")
    bt.add_argument("--scheduler", metavar="tcp://HOST:8786", help="run on this Dask distributed scheduler")
    bt.add_argument("--debug", action="store_true", help="show tracebacks")
    bt.set_defaults(run=_cmd_batch)

    pl = sub.add_parser("plot", help="plot batch results: share solved against time, time against size")
    pl.add_argument("results", nargs="+", help="JSON-lines results files (one series per file and backend)")
    pl.add_argument("--output", "-o", required=True, help="figure file: .png, .svg or .pdf")
    pl.add_argument("--title", help="the figure's title")
    pl.add_argument("--debug", action="store_true", help="show tracebacks")
    pl.set_defaults(run=_cmd_plot)

    bn = sub.add_parser("bench", help="named sets of real puzzles on several backends, interleaved map by map")
    from .bench import SETS

    bn.add_argument("sets", nargs="+", metavar="SET", help="named sets: " + ", ".join(SETS))
    bn.add_argument("--backend", "-b", nargs="+", default=["cpsat", "milp", "maxsat"], choices=_BackendNames(),
                    metavar="BACKEND")
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
    bn.add_argument("--debug", action="store_true", help="show tracebacks")
    bn.set_defaults(run=_cmd_bench)

    im = sub.add_parser("import", help="decode a puzz.link URL and print the genre's text map")
    im.add_argument("url", help="the puzz.link URL")
    im.add_argument("--debug", action="store_true", help="show tracebacks")
    im.set_defaults(run=_cmd_import)

    k = sub.add_parser("check", help="parse and check a spec")
    common(k, need_map=False)
    k.set_defaults(run=_cmd_check)

    b = sub.add_parser("backends", help="list the backends and whether their solvers are installed")
    b.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    b.set_defaults(run=_cmd_backends)

    i = sub.add_parser("import-image", help="read a map off a screenshot of the game and print it")
    i.add_argument("image", metavar="PICTURE", help="the screenshot (PNG, JPEG, ...)")
    i.add_argument("--spec", help="the spec whose plug-in reads it (default: the one plug-in that reads pictures)")
    i.add_argument("--calibration", metavar="FILE", help="colours to use (default: the plug-in's)")
    i.add_argument("--debug", action="store_true", help="show tracebacks")
    i.set_defaults(run=_cmd_import_image)

    r = sub.add_parser("calibrate-image", help="learn the colours import-image needs from screenshots with known maps")
    r.add_argument("pairs", nargs="+", metavar="PICTURE MAP", help="screenshots, each followed by its map file")
    r.add_argument("--output", "-o", required=True, help="the calibration file to write (JSON)")
    r.add_argument("--spec", help="the spec whose plug-in reads the pictures (default: the one that does)")
    r.add_argument("--debug", action="store_true", help="show tracebacks")
    r.set_defaults(run=_cmd_calibrate_image)
    return p


def _cell_pixels(text: str) -> int:
    """argparse type: a cell side of 4 pixels or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pixels") from None
    if value < 4:
        raise argparse.ArgumentTypeError(f"a cell must be 4 pixels or more, not {value}")
    return value
MAX_WORKERS = 256
"""The most solver threads ``--workers`` takes."""

MAX_COUNT = 1_000_000
"""The most solutions ``--count`` enumerates."""


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


def _shorthand_params(rest: list[str], args) -> list[str]:
    """``--size 12`` and ``--size=12`` -> ``size=12``, for parameters the spec declares.

    Args:
        rest: the arguments argparse did not recognise, in order.
        args: the parsed arguments (``spec``, the subcommand's parser).

    Returns:
        ``NAME=VALUE`` strings, as ``--param`` takes them.

    Raises:
        ParamError: an argument is not ``--NAME``; ``--NAME`` is neither an
            option of the subcommand nor a parameter of the spec (the message
            suggests the closest of either); a value is missing.
        GridlangError: the spec itself does not parse or check (located).
    """
    declared = _declared_params(args.spec)
    out, i = [], 0
    while i < len(rest):
        arg = rest[i]
        if not arg.startswith("--") or len(arg) < 3:
            raise ParamError(f"unexpected argument {arg!r}")
        name = arg[2:]
        flag = "--" + name.partition("=")[0]
        if flag[2:].replace("-", "_") not in declared:
            raise ParamError(_unknown_flag(flag, args, declared))
        if "=" in name:
            out.append(name)
            i += 1
            continue
        if i + 1 >= len(rest):
            raise ParamError(f"{arg} needs a value")
        out.append(f"{name}={rest[i + 1]}")
        i += 2
    return out


def _declared_params(spec_path: str) -> list[str]:
    """The parameter names a spec declares, in order (parsing and checking it)."""
    from .checker import check
    from .parser import parse_file

    return list(check(parse_file(spec_path)).params)


def _unknown_flag(flag: str, args, declared: list[str]) -> str:
    """The message for a ``--NAME`` that is neither an option nor a declared
    parameter, naming the closest option or parameter (difflib ratio 0.6 or more)."""
    candidates = args.command_parser.long_options + [f"--{p}" for p in declared]
    close = difflib.get_close_matches(flag, candidates, n=1, cutoff=0.6)
    head = f"{flag} is neither an option of 'gridlang {args.command}' nor a parameter of {args.spec}"
    if close:
        return f"{head}; did you mean {close[0]}?"
    return (f"{head} (its parameters: {', '.join(declared) or 'none'}; "
            f"the options: gridlang {args.command} --help)")


def _params(args) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in args.param or []:
        if "=" not in item:
            raise ParamError(f"--param {item!r}: write NAME=VALUE")
        name, value = item.split("=", 1)
        out[name.strip().replace("-", "_")] = value.strip()
    return out


_CLOCKS = ("cpsat.max_time_in_seconds", "milp.highs_options.time_limit")
"""Solver settings that would start a clock of their own beside the command's deadline."""


def _options(args):
    from .backend import SolveOptions

    extra = {}
    for key, value in args.set:
        if key.split(".", 1)[0] != args.backend and args.backend != "auto":
            raise BackendError(f"--set {key}: the setting is for backend {key.split('.', 1)[0]!r}, "
                               f"but the backend is {args.backend!r}")
        if key in _CLOCKS:
            raise BackendError(f"--set {key}: give the time limit as --time-limit SECONDS, the one clock of "
                               "the whole command (parsing, every cut round, every solve)")
        extra[key] = value
    return SolveOptions(time_limit=args.time_limit, workers=args.workers, connectivity=args.connectivity,
                        mip_gap=args.mip_gap, log=args.log, extra=extra)


def _cmd_solve(args) -> int:
    from .backend import Status
    from .deadline import Deadline, catch_interrupt
    from .pipeline import solve

    options = _options(args)
    # One deadline for the whole command; the first Ctrl-C stops the search
    # and the best answer so far is printed, the second one exits at once.
    options.deadline = Deadline(args.time_limit, start=args.started)
    read = time.perf_counter()
    data = _image_map(args) if args.image else None
    read = time.perf_counter() - read
    if data is not None:
        args.map = args.image
    with catch_interrupt(options.deadline):
        if args.url:
            from .pipeline import solve_model
            from .puzzlink import compile_url

            model, seconds = compile_url(args.url, args.spec, _params(args))
            args.spec, args.map = model.info["spec"], args.url
            report = solve_model(model, args.backend, options, args.count, args.unique, seconds)
        else:
            report = solve(args.spec, args.map, _params(args), args.backend, options,
                           count=args.count, unique=args.unique, map_data=data)
    if data is not None:  # reading the picture is part of reading the map
        report.seconds["parse"] += read
        report.seconds["total"] += read
    status = report.result.status
    if args.json:
        print(json.dumps(_report_json(report, args)))
    else:
        print(_report_text(report, args.time_limit))
    _write_pictures(args, report.model, report.solution)
    if report.interrupted:
        print("interrupted: the answer above is the best found before Ctrl-C", file=sys.stderr)
        return EXIT_INTERRUPTED
    if status is Status.INFEASIBLE:
        return EXIT_INFEASIBLE
    if not status.has_solution:
        return EXIT_NO_SOLUTION
    return EXIT_OK


def _render(model, solution) -> str:
    """The answer drawn by the puzzle's plug-in, or else by :func:`_render_generic`."""
    from .plugins import find_plugin

    text = find_plugin(model.name).render(model.grid, solution)
    return text if text is not None else _render_generic(model.grid, solution)


def _report_json(report, args) -> dict:
    from .api import report_json

    return report_json(report, str(args.spec), str(args.map))


def _report_text(report, time_limit: float | None = None) -> str:
    from .backend import Status
    from .plugins import find_plugin

    res = report.result
    model = report.model
    lines = []
    if report.solution is not None:
        lines.append(_render(model, report.solution))
        lines.append("")
    status = res.status.value
    parts = [f"status {status}"]
    if report.solution is not None:
        score = report.score
        if score is not None:
            verified = "verified" if report.verdict is not None else "checked by the spec's rules"
            parts.insert(0, f"score {score} ({verified})")
        else:
            parts.insert(0, "verified" if report.verdict is not None else "checked by the spec's rules")
        if res.status is Status.FEASIBLE and res.bound is not None:
            parts.append(f"bound {res.bound:g}")
        parts.extend(find_plugin(model.name).summary(model, report.solution))
    chosen = res.stats.get("chosen")
    parts.append(f"backend {report.backend}" + (f" ({chosen})" if chosen and chosen != report.backend else "")
                 + (f" ({res.stats['connectivity']})" if "connectivity" in res.stats else ""))
    lines.append("   ".join(parts))
    if res.status is Status.UNKNOWN and report.solution is None:
        within = (f" within the time limit of {time_limit:g} s" if time_limit is not None
                  else " before the solver stopped at a limit of its own")
        lines.append(f"no solution found{within}, and none ruled out")
    if len(report.solutions) > 1 or report.unique is not None or report.complete is not None:
        if report.unique is True:
            lines.append("unique: the solution is the only one (proved)")
        elif report.unique is False and len(report.solutions) > 1:
            lines.append("not unique: a second solution exists")
            lines.append("")
            lines.append(_render(model, report.solutions[1]))
            lines.append("cells that differ: " + ", ".join(
                str(model.grid.cell(c)) for c in _differing(report.solutions[0], report.solutions[1])))
        else:
            more = "all of them" if report.complete else "stopped at the limit or the time limit"
            lines.append(f"solutions found: {len(report.solutions)} ({more})")
    s = report.seconds
    lines.append("time: " + ", ".join(f"{k} {s[k]:.2f} s" for k in ("startup", "parse", "compile", "solve", "verify", "total")
                                      if k in s))
    return "\n".join(lines)


def _differing(a, b) -> list[int]:
    cells = set()
    for name in set(a.decisions) | set(b.decisions):
        da, db = a.decisions.get(name, {}), b.decisions.get(name, {})
        cells |= {c for c in set(da) | set(db) if da.get(c) != db.get(c)}
    return sorted(cells)


def _render_generic(grid, solution) -> str:
    marked = {c for cells in solution.decisions.values() for c, v in cells.items() if v is True}
    rows = []
    for r in range(grid.rows):
        rows.append("".join("#" if r * grid.cols + c in marked else grid.chars[r * grid.cols + c]
                            for c in range(grid.cols)))
    return "\n".join(rows)


def _format_backend(fmt: str):
    from .errors import BackendError

    from .api import FORMAT_BACKEND
    from .backend import get_backend

    if fmt not in FORMAT_BACKEND:
        raise BackendError(f"unknown format {fmt!r}; give --format with one of {', '.join(FORMAT_BACKEND)}")
    return get_backend(FORMAT_BACKEND[fmt])


def _cmd_export(args) -> int:
    from .backend import SolveOptions
    from .pipeline import load

    fmt = args.format.lower()
    engine = _format_backend(fmt)
    model, _ = load(args.spec, args.map, _params(args))
    written = engine.write(model, args.output, fmt, SolveOptions(connectivity=args.connectivity))
    for path in written:
        print(f"wrote {path}")
    for note in getattr(engine, "notes", ()):
        print(f"note: {note}", file=sys.stderr)
    return EXIT_OK


# Solution-file suffixes that are not themselves a model format.
_SOLUTION_SUFFIX = {"sol": "lp", "txt": "lp", "out": "wcnf", "sat": "wcnf"}


def _cmd_decode(args) -> int:
    from .backend import Result, Status
    from .errors import BackendError, MapError, read_source
    from .pipeline import Report, load, verify

    fmt = (args.format or Path(args.solution).suffix.lstrip(".")).lower()
    engine = _format_backend(_SOLUTION_SUFFIX.get(fmt, fmt))
    reader = getattr(engine, "read_solution", None)
    if reader is None:
        raise BackendError(f"backend {engine.name!r} cannot read solution files")
    model, _ = load(args.spec, args.map, _params(args))
    # A binary file, or one too large, is refused here in a located sentence.
    read_source(args.solution, MapError, "solution file", MAX_ANSWER_BYTES)
    assignment = reader(model, args.solution)
    objective = model.objective.value(assignment) if model.objective is not None else None
    # The model's objective must equal the rules' score, as after any solve.
    solution, verdict = verify(model, assignment, objective, answer=f"the answer in {args.solution}")
    report = Report(model, engine.name, Result(Status.FEASIBLE, assignment, objective), solution, verdict)
    if args.json:
        from .api import report_json

        full = report_json(report, str(args.spec), str(args.map))
        print(json.dumps({key: full[key] for key in ("verified", "objective", "verified_score", "decisions")}
                         | {key: value for key, value in full.items() if key == find_plugin(model.name).name}))
    else:
        print(_render(model, solution))
        print()
        print(f"verified: score {report.score}" if report.score is not None else "verified")
    _write_pictures(args, model, solution)
    return EXIT_OK


def _write_pictures(args, model, solution) -> None:
    """Draw the verified answer to ``--svg`` and ``--png``, naming each file on stderr."""
    if not (args.svg or args.png):
        return
    if solution is None:
        print("note: no answer to draw", file=sys.stderr)
        return
    from .draw import picture, write_picture

    canvas = picture(model, solution, args.cell)
    for path, fmt in ((args.svg, "svg"), (args.png, "png")):
        if path:
            write_picture(canvas, path, fmt)
            print(f"wrote {path}", file=sys.stderr)


def _image_plugin(args) -> Plugin:
    """The plug-in that reads pictures: the spec's (``--spec``), else the only one that does."""
    if args.spec:
        from .parser import parse_file

        spec = parse_file(args.spec)
        return find_plugin(spec.puzzle.name if spec.puzzle else None)
    readers = [p for p in all_plugins() if type(p).read_image is not Plugin.read_image]
    if len(readers) != 1:
        names = ", ".join(p.name for p in readers)
        raise ImageError("no puzzle plug-in reads pictures" if not readers else
                         f"several puzzle plug-ins read pictures ({names}); name one with --spec SPEC")
    return readers[0]


def _image_map(args):
    """The map read off ``--image`` by the spec's plug-in, as map data (its rows located as lines 1, 2, ...)."""
    from .maps import MapData

    rows = _image_plugin(args).read_image(args.image, args.calibration)
    if rows is None:
        raise ImageError(f"the plug-in of {args.spec} reads no pictures; give --map instead")
    return MapData(args.image, "\n".join(rows) + "\n", rows, [(r + 1, 1) for r in range(len(rows))])


def _cmd_import_image(args) -> int:
    plugin = _image_plugin(args)
    rows = plugin.read_image(args.image, args.calibration)
    if rows is None:
        raise ImageError(f"the plug-in of {args.spec} reads no pictures")
    print("\n".join(rows))
    return EXIT_OK


def _cmd_calibrate_image(args) -> int:
    from .imaging import calibration_text
    from .maps import read_map

    if len(args.pairs) % 2:
        raise ImageError(f"give pictures and maps in pairs (PICTURE MAP ...), not {len(args.pairs)} files")
    plugin = _image_plugin(args)
    pairs = [(args.pairs[k], read_map(args.pairs[k + 1]).rows) for k in range(0, len(args.pairs), 2)]
    data = plugin.calibrate_image(pairs)
    if data is None:
        raise ImageError(f"the plug-in of {args.spec} reads no pictures")
    Path(args.output).write_text(calibration_text(data), encoding="utf-8")
    print(f"wrote {args.output}: {len(data['classes'])} tiles learned from {len(pairs)} pictures")
    return EXIT_OK


def _cmd_compile(args) -> int:
    from .ir import dump
    from .pipeline import load

    model, seconds = load(args.spec, args.map, _params(args))
    if args.dump_ir:
        print(dump(model))
    else:
        kinds = {}
        for con in model.constraints:
            kinds[type(con).__name__] = kinds.get(type(con).__name__, 0) + 1
        print(f"{model.name}: {model.grid.rows}x{model.grid.cols} cells, {model.num_vars} variables, "
              + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
              + f"; objective: {model.objective.sense.value if model.objective else 'none'}")
        print(f"time: parse {seconds['parse']:.2f} s, compile {seconds['compile']:.2f} s")
    return EXIT_OK


def _cmd_verify(args) -> int:
    """Exit 0 when every rule holds (and the claimed objective matches), else 4 with the broken rules."""
    from .answers import check_answer

    verdict = check_answer(args.spec, args.map, args.solution, _params(args))
    claimed = args.objective
    if claimed is None:
        claimed = _claimed_objective(args.solution)
    problems = [] if verdict.ok else [verdict.render()]
    if verdict.ok and isinstance(claimed, int) and verdict.objective is not None and claimed != verdict.objective:
        problems.append(f"{args.solution}: error: the answer claims the objective {claimed}, "
                        f"but the spec's rules score it {verdict.objective}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return EXIT_VERIFY_FAILED
    score = f", objective {verdict.objective}" if verdict.objective is not None else ""
    print(f"{args.solution}: every rule of {args.spec} holds{score}")
    return EXIT_OK


def _claimed_objective(path: str) -> int | None:
    """The ``objective`` an answer file claims, as an exact integer.

    A number written as a float (``66.0``, ``6.6e13``, what a MILP solver's
    double gives) is taken when it is a whole number a double holds exactly
    (at most 2**53 in magnitude).

    Returns:
        The integer, or None when the file claims none (or is no JSON
        object: the answer reader has reported that already).

    Raises:
        ParamError: the claim is not a whole number, or a float too large
            to be exact; located at the value.
    """
    from .errors import load_json, read_source
    from .maps import json_key_span

    text = read_source(path, ParamError, "answer", MAX_ANSWER_BYTES)
    record = load_json(text, path, ParamError, "answer")
    claimed = record.get("objective") if isinstance(record, dict) else None
    if claimed is None or (isinstance(claimed, int) and not isinstance(claimed, bool)):
        return claimed
    if isinstance(claimed, str) and len(claimed) > 18 and claimed.lstrip("-").isdigit():
        if len(claimed) <= 100:
            return int(claimed)  # a JSON integer of more than 18 digits (see load_json)
        raise ParamError(f"the answer claims the objective {shorten(claimed)}, more than any solver computes",
                         json_key_span(path, text, "objective"), source=text)
    if isinstance(claimed, float) and claimed.is_integer() and abs(claimed) <= 2**53:
        return int(claimed)
    why = ("a float this large is not exact; write the integer" if isinstance(claimed, float) and
           math.isfinite(claimed) and claimed.is_integer() else "it must be a whole number")
    raise ParamError(f"the answer claims the objective {json.dumps(claimed)}, but {why}",
                     json_key_span(path, text, "objective"), source=text)


def _positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def _cmd_batch(args) -> int:
    """Exit 0 when every map has an answer or a proof, 4 if any answer failed verification, 1 on errors."""
    from .batch import run_batch

    settings = {}
    for key, value in args.set:
        if key.split(".", 1)[0] != args.backend and args.backend != "auto":
            raise BackendError(f"--set {key}: the setting is for backend {key.split('.', 1)[0]!r}, "
                               f"but the backend is {args.backend!r}")
        settings[key] = value
    client = None
    if args.scheduler:
        from distributed import Client

        try:
            client = Client(args.scheduler, timeout=30)
        except OSError as e:
            raise BackendError(f"cannot reach the Dask scheduler {args.scheduler}: {e}") from e
    try:
        summary = run_batch(args.spec, args.maps, args.out, backend=args.backend, workers=args.workers,
                            time_limit=args.time_limit, unique=args.unique, params=_params(args),
                            settings=settings, client=client)
    finally:
        if client is not None:
            client.close()
    print(summary.text())
    if summary.verify_failed:
        return EXIT_VERIFY_FAILED
    return EXIT_BAD_INPUT if summary.statuses.get("ERROR") else EXIT_OK


def _cmd_bench(args) -> int:
    """Exit 0 when every row is correct (verified, proved, at the known optimum), else 4."""
    from .bench import run, summary

    echo = None if args.quiet else (lambda line: print(line, flush=True))
    rows = run(args.sets, args.backend, args.out, root=args.root, fresh=args.fresh, time_limit=args.time_limit,
               pattern=args.maps, settings=dict(args.set), echo=echo)
    for line in summary(rows, args.metric, args.baseline):
        print(line)
    return EXIT_OK if all(r["correct"] for r in rows) else EXIT_VERIFY_FAILED


def _cmd_plot(args) -> int:
    from .plot import plot

    plot(args.results, args.output, args.title)
    print(f"wrote {args.output}")
    return EXIT_OK


def _cmd_import(args) -> int:
    from .puzzlink import decode

    print(decode(args.url).text, end="")
    return EXIT_OK


def _cmd_check(args) -> int:
    from .checker import check
    from .parser import parse_file

    t0 = time.perf_counter()
    spec = parse_file(args.spec)
    symbols = check(spec)
    print(f"{args.spec}: ok ({len(symbols.tiles)} tiles, {len(symbols.params)} parameters, "
          f"{len(symbols.decisions)} decisions, {len(symbols.regions)} regions; "
          f"{time.perf_counter() - t0:.2f} s)")
    return EXIT_OK


def _cmd_backends(args) -> int:
    from .backend import backend_class, backend_names

    for name in backend_names():
        cls = backend_class(name)
        if cls is None:
            print(f"{name:8s} not built (module missing)")
            continue
        state = "installed" if cls.available() else f"missing (pip install {cls.library})"
        formats = ", ".join(cls.formats) or "none"
        print(f"{name:8s} {state:10s} {cls.description}; connectivity: {', '.join(cls.connectivity)} "
              f"(default {cls.connectivity[0]}); writes: {formats}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
