"""The ``gridlang`` command line.

Subcommands: ``solve``, ``export``, ``decode``, ``compile``, ``check``,
``backends``. Bad input prints ``file:line:col: error: ...`` with the line and
a caret, never a traceback (``--debug`` shows it).

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
import sys
import time
from pathlib import Path

from .backend import SolveOptions, Status, backend_class, backend_names, get_backend
from .errors import BackendError, GridlangError, ParamError, VerificationError
from .plugins import find_plugin

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
  3  time limit reached with no solution
  4  verification failed: the answer broke the puzzle's rules (a solver or encoding bug)
130  interrupted: the first Ctrl-C stops the search and prints the best answer so far;
     a second one exits at once
"""


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
    except OSError as e:  # a file that cannot be written (export -o, a full disk)
        if debug:
            raise
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
        return EXIT_OK


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

    def common(sp: argparse.ArgumentParser, need_map: bool = True) -> None:
        sp.add_argument("spec", help="the .grid spec")
        if need_map:
            sp.add_argument("--map", "-m", required=True, help="map or instance file (text or JSON)")
            sp.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                            help="set a parameter the spec declares (also --NAME VALUE)")
            sp.set_defaults(accepts_params=True, command_parser=sp)
        sp.add_argument("--debug", action="store_true", help="show tracebacks")

    def solver_options(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--backend", "-b", default="cpsat", choices=backend_names(), help="solver (default: cpsat)")
        sp.add_argument("--connectivity", "-c", help="connectivity strategy (auto, cuts, flow, tree, reach; default per backend: gridlang backends)")
        sp.add_argument("--time-limit", "-t", type=_positive_seconds, metavar="SECONDS",
                        help="wall-clock limit for the solve (checked by the solver between its steps: "
                             "a large MILP root node can run over by seconds)")
        sp.add_argument("--workers", "-w", type=int, help="solver threads / portfolio workers")
        sp.add_argument("--mip-gap", type=float, help="relative MIP gap (milp)")
        sp.add_argument("--log", action="store_true", help="show the solver's log on stderr")
        sp.add_argument("--set", action="append", type=_setting, default=[], metavar="BACKEND.SETTING=VALUE",
                        help="a backend setting, e.g. maxsat.algorithm=rc2, cpsat.num_workers=4 "
                             "(any CP-SAT parameter), milp.seed_cuts=1; repeatable")

    s = sub.add_parser("solve", help="solve a puzzle and verify the answer", epilog=EXIT_CODES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    common(s)
    solver_options(s)
    s.add_argument("--count", type=int, metavar="N", help="enumerate up to N distinct solutions")
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
    d.set_defaults(run=_cmd_decode)

    c = sub.add_parser("compile", help="compile a spec against a map and describe the model")
    common(c)
    c.add_argument("--dump-ir", action="store_true", help="print every variable and constraint")
    c.set_defaults(run=_cmd_compile)

    v = sub.add_parser("verify", help="check an answer against the spec's own rules, evaluated directly")
    common(v)
    v.add_argument("--solution", "-s", required=True,
                   help="the answer: what solve --json prints, or its decisions object alone")
    v.add_argument("--objective", type=int, help="the score the answer claims (default: the file's objective)")
    v.set_defaults(run=_cmd_verify)

    bt = sub.add_parser("batch", help="solve many maps, one JSON line each, resumable (a process pool or Dask)")
    bt.add_argument("spec", help="the .grid spec")
    bt.add_argument("maps", nargs="+", metavar="MAP_OR_DIR", help="map files and directories of maps")
    bt.add_argument("--out", "-o", required=True, help="the JSON-lines results file (resumed if it exists)")
    bt.add_argument("--backend", "-b", default="cpsat", choices=backend_names(), help="solver (default: cpsat)")
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

    k = sub.add_parser("check", help="parse and check a spec")
    common(k, need_map=False)
    k.set_defaults(run=_cmd_check)

    b = sub.add_parser("backends", help="list the backends and whether their solvers are installed")
    b.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    b.set_defaults(run=_cmd_backends)
    return p


def _positive_seconds(text: str) -> float:
    """argparse type: a number of seconds greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the time limit must be more than 0 seconds, not {text}")
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
            return key, kind(raw)
        except ValueError:
            pass
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


def _options(args) -> SolveOptions:
    extra = {}
    for key, value in args.set:
        if key.split(".", 1)[0] != args.backend:
            raise BackendError(f"--set {key}: the setting is for backend {key.split('.', 1)[0]!r}, "
                               f"but the backend is {args.backend!r}")
        extra[key] = value
    return SolveOptions(time_limit=args.time_limit, workers=args.workers, connectivity=args.connectivity,
                        mip_gap=args.mip_gap, log=args.log, extra=extra)


def _cmd_solve(args) -> int:
    from .deadline import Deadline, catch_interrupt
    from .pipeline import solve

    options = _options(args)
    # One deadline for the whole command; the first Ctrl-C stops the search
    # and the best answer so far is printed, the second one exits at once.
    options.deadline = Deadline(args.time_limit, start=args.started)
    with catch_interrupt(options.deadline):
        report = solve(args.spec, args.map, _params(args), args.backend, options,
                       count=args.count, unique=args.unique)
    status = report.result.status
    if args.json:
        print(json.dumps(_report_json(report, args)))
    else:
        print(_report_text(report, args.time_limit))
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
    text = find_plugin(model.name).render(model.grid, solution)
    return text if text is not None else _render_generic(model.grid, solution)


def _report_json(report, args) -> dict:
    from .api import report_json

    return report_json(report, str(args.spec), str(args.map))


def _report_text(report, time_limit: float | None = None) -> str:
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
    parts.append(f"backend {report.backend}" + (f" ({res.stats['connectivity']})" if "connectivity" in res.stats else ""))
    lines.append("   ".join(parts))
    if res.status is Status.UNKNOWN and report.solution is None:
        within = f" within the time limit of {time_limit:g} s" if time_limit is not None else ""
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

    if fmt not in FORMAT_BACKEND:
        raise BackendError(f"unknown format {fmt!r}; give --format with one of {', '.join(FORMAT_BACKEND)}")
    return get_backend(FORMAT_BACKEND[fmt])


def _cmd_export(args) -> int:
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
    from .backend import Result
    from .errors import BackendError
    from .pipeline import Report, load, verify

    fmt = (args.format or Path(args.solution).suffix.lstrip(".")).lower()
    engine = _format_backend(_SOLUTION_SUFFIX.get(fmt, fmt))
    reader = getattr(engine, "read_solution", None)
    if reader is None:
        raise BackendError(f"backend {engine.name!r} cannot read solution files")
    model, _ = load(args.spec, args.map, _params(args))
    assignment = reader(model, args.solution)
    objective = model.objective.value(assignment) if model.objective is not None else None
    # The model's objective must equal the rules' score, as after any solve.
    solution, verdict = verify(model, assignment, objective)
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
        try:
            record = json.loads(Path(args.solution).read_text(encoding="utf-8"))
            claimed = record.get("objective") if isinstance(record, dict) else None
        except (OSError, UnicodeDecodeError, ValueError):
            claimed = None
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
        if key.split(".", 1)[0] != args.backend:
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


def _cmd_plot(args) -> int:
    from .plot import plot

    plot(args.results, args.output, args.title)
    print(f"wrote {args.output}")
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
