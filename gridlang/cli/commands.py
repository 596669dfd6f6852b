"""The subcommands' bodies: each takes the parsed arguments and returns the exit code.

Bad input raises :class:`~gridlang.core.errors.GridlangError`, which
:func:`gridlang.cli.main` prints located, with the line and a caret.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time

from gridlang.cli.options import _options, _params, missing_spec, settings_of
from gridlang.cli.outputs import solver_output_to_stderr, write_canvas
from gridlang.core.errors import BackendError, ImageError, MapError, ParamError, load_json, read_source
from gridlang.core.limits import MAX_ANSWER_BYTES, shorten
from gridlang.plugins import Plugin, all_plugins, find_plugin
from gridlang.service.exits import (
    EXIT_BAD_INPUT,
    EXIT_INFEASIBLE,
    EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_VERIFY_FAILED,
)


def _cmd_solve(args) -> int:
    # imported on use, not at start-up
    from gridlang.core.deadline import Deadline, catch_interrupt
    from gridlang.core.memory import watch
    from gridlang.ir.backend import Status

    if args.spec is None and not args.url:
        raise missing_spec()
    if args.forced and (args.count is not None or args.unique):
        raise ParamError("--forced finds the answers it needs itself (and settles uniqueness); "
                         "give it without --count or --unique")
    options = _options(args)
    # One deadline for the whole command; the first Ctrl-C stops the search
    # and the best answer so far is printed, the second one exits at once.
    options.deadline = Deadline(args.time_limit, start=args.started)
    # The time-out's report is printed once standard output is the document's again (not inside the
    # redirection, where a --json record went to standard error).
    with solver_output_to_stderr(args.json), catch_interrupt(options.deadline), \
            watch(options.deadline, options.memory_limit):
        outcome, phase = _solve_outcome(args, options)
    if outcome is None:
        return _compile_timeout(args, options.deadline, phase)
    report = outcome.report
    if args.url:
        args.spec, args.map = report.model.info["spec"], args.url
    status = report.result.status
    why = outcome.request.forced or outcome.request.explain
    if why:
        # imported on use, not at start-up: a plain solve prints no why part
        from gridlang.cli.why import why_json, why_text
    if args.json:
        print(json.dumps(_report_json(report, args) | (why_json(outcome) if why else {})))
    else:
        # imported on use: the answer drawn as text (and its looks) is not loaded for --json
        from gridlang.service.text import report_text

        print(report_text(report, args.time_limit, args.count) + (why_text(outcome) if why else ""))
    _pictures_written(outcome)
    if report.interrupted:
        print("interrupted: the answer above is the best found before Ctrl-C" if report.solution is not None
              else "interrupted: Ctrl-C stopped the search before it found an answer", file=sys.stderr)
        return EXIT_INTERRUPTED
    if status is Status.INFEASIBLE:
        return EXIT_INFEASIBLE
    if not status.has_solution:
        return EXIT_NO_SOLUTION
    return EXIT_OK


def _solve_outcome(args, options):
    """The service's outcome of ``gridlang solve``'s request, or ``(None, phase)`` when the time or
    memory limit ran out before there was a model (``phase`` says while what); ``args.map`` then names
    what was read (the picture or the URL)."""
    # imported on use, not at start-up
    from gridlang.core.deadline import BuildTimeout
    from gridlang.service.solve import Request, run

    read = time.perf_counter()
    try:
        data = _image_map(args, options.deadline, options.memory_limit) if args.image else None
    except BuildTimeout:
        args.map = args.image
        return None, "while the picture was read"
    read = time.perf_counter() - read
    if data is not None:
        args.map = args.image
    # What to compute, the URL-or-map choice and the seconds of each phase are the service's.
    request = Request(spec=args.spec, map=None if args.url else data if data is not None else args.map,
                      url=args.url or None, params=_params(args), backend=args.backend, options=options,
                      count=args.count, unique=args.unique, forced=args.forced, explain=args.explain,
                      pictures={fmt: path for fmt, path in (("svg", args.svg), ("png", args.png)) if path},
                      cell=args.cell, startup=True, parse_seconds=read if data is not None else 0.0)
    try:
        return run(request), ""
    except BuildTimeout:
        if args.url:
            args.map = args.url
        return None, "while the model was compiled"


def _pictures_written(outcome) -> None:
    """Name on stderr each picture the service wrote (or why none was drawn); then raise the error that
    stopped one being written, now that the answer is printed."""
    for note in outcome.notes:
        print(f"note: {note}", file=sys.stderr)
    for drawn in outcome.pictures:
        print(f"wrote {drawn.path}", file=sys.stderr)
    if outcome.unwritten is not None:
        raise outcome.unwritten


def _compile_timeout(args, deadline, phase: str = "while the model was compiled") -> int:
    """Report UNKNOWN when the time or memory limit ran out before there was a model to
    report on: while the model was compiled, or the picture of ``--image`` read."""
    # imported on use, not at start-up
    from gridlang.service.json_report import timeout_json

    reason = f"{deadline.cause()} {phase}"
    if args.json:
        print(json.dumps(timeout_json(str(args.spec), str(args.map), args.backend, deadline, reason)))
    else:
        print(f"status UNKNOWN   backend {args.backend}")
        if deadline.reason == "memory limit":
            within = " before the process reached the memory limit (--memory-limit)"
        elif args.time_limit is not None and not deadline.interrupted:
            within = f" within the time limit of {args.time_limit:g} s"
        else:
            within = ""
        print(f"no solution found{within}, and none ruled out: {reason}")
        print(f"time: total {deadline.elapsed():.2f} s")
    if deadline.interrupted and deadline.reason is None:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_NO_SOLUTION


def _report_json(report, args) -> dict:
    # imported on use, not at start-up
    from gridlang.service.json_report import report_json

    return report_json(report, str(args.spec), str(args.map))


def _format_backend(fmt: str):
    # imported on use, not at start-up
    from gridlang.ir.backend import get_backend
    from gridlang.service.calls import FORMAT_BACKEND

    if fmt not in FORMAT_BACKEND:
        raise BackendError(f"unknown format {fmt!r}; give --format with one of {', '.join(FORMAT_BACKEND)}")
    return get_backend(FORMAT_BACKEND[fmt])


def _cmd_export(args) -> int:
    # imported on use, not at start-up
    from gridlang.ir.backend import SolveOptions
    from gridlang.solving.pipeline import load

    fmt = args.format.lower()
    if fmt == "puzzlink":
        return _export_url(args)
    engine = _format_backend(fmt)
    model, _ = load(args.spec, args.map, _params(args), files=True)
    written = engine.write(model, args.output, fmt, SolveOptions(connectivity=args.connectivity))
    for path in written:
        print(f"wrote {path}")
    for note in getattr(engine, "notes", ()):
        print(f"note: {note}", file=sys.stderr)
    return EXIT_OK


def _export_url(args) -> int:
    """``export --format puzzlink``: the map as a URL, through the spec's format (``-`` writes to stdout)."""
    # imported on use, not at start-up
    from gridlang.formats.maps import encode_map

    url = encode_map(args.spec, args.map, _params(args))
    if args.output == "-":
        print(url)
        return EXIT_OK
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(url + "\n")
    print(f"wrote {args.output}")
    return EXIT_OK


# Solution-file suffixes that are not themselves a model format.
_SOLUTION_SUFFIX = {"sol": "lp", "txt": "lp", "out": "wcnf", "sat": "wcnf"}


def _cmd_decode(args) -> int:
    # imported on use, not at start-up
    from gridlang.ir.backend import Result, Status
    from gridlang.pictures.textdraw import answer_text
    from gridlang.solving.pipeline import Report, load, verify

    fmt = (args.format or os.path.splitext(args.solution)[1].lstrip(".")).lower()
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
        # imported on use, not at start-up
        from gridlang.service.json_report import report_json

        full = report_json(report, str(args.spec), str(args.map))
        print(json.dumps({key: full[key] for key in ("verified", "objective", "verified_score", "decisions")}
                         | {key: value for key, value in full.items() if key == find_plugin(model.name).name}))
    else:
        print(answer_text(model, solution))
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
    # imported on use, not at start-up
    from gridlang.pictures.draw import picture

    write_canvas(args, picture(model, solution, args.cell))


def _image_plugin(args) -> Plugin:
    """The plug-in that reads pictures: the spec's (``--spec``), else the only one that does."""
    if args.spec:
        # imported on use, not at start-up
        from gridlang.language.parser import parse_file

        spec = parse_file(args.spec)
        return find_plugin(spec.puzzle.name if spec.puzzle else None)
    readers = [p for p in all_plugins() if type(p).read_image is not Plugin.read_image]
    if len(readers) != 1:
        names = ", ".join(p.name for p in readers)
        raise ImageError("no puzzle plug-in reads pictures" if not readers else
                         f"several puzzle plug-ins read pictures ({names}); name one with --spec SPEC")
    return readers[0]


def _image_map(args, deadline=None, memory: int | None = None):
    """The map read off ``--image`` by the spec's plug-in within the command's deadline and
    memory limit, as map data (its rows located as lines 1, 2, ...)."""
    # imported on use, not at start-up
    from gridlang.formats.maps import MapData
    from gridlang.formats.screens.picture import Budget

    rows = _image_plugin(args).read_image(args.image, args.calibration, Budget(deadline, memory))
    if rows is None:
        raise ImageError(f"the plug-in of {args.spec} reads no pictures; give --map instead")
    return MapData(args.image, "\n".join(rows) + "\n", rows, [(r + 1, 1) for r in range(len(rows))])


def _cmd_import_image(args) -> int:
    # imported on use, not at start-up
    from gridlang.core.deadline import BuildTimeout, Deadline, catch_interrupt
    from gridlang.core.memory import default_limit, watch
    from gridlang.formats.screens.picture import Budget

    plugin = _image_plugin(args)
    deadline = Deadline(args.time_limit, start=args.started)
    memory = args.memory_limit if args.memory_limit is not None else default_limit()
    with catch_interrupt(deadline), watch(deadline, memory):
        try:
            rows = plugin.read_image(args.image, args.calibration, Budget(deadline, memory))
        except BuildTimeout:
            if deadline.interrupted and deadline.reason is None:
                print("interrupted", file=sys.stderr)
                return EXIT_INTERRUPTED
            raise ImageError(f"{deadline.cause()} while the picture was read ({deadline.elapsed():.1f} s)",
                             path=args.image) from None
    if rows is None:
        raise ImageError(f"the plug-in of {args.spec} reads no pictures")
    print("\n".join(rows))
    return EXIT_OK


def _cmd_calibrate_image(args) -> int:
    # imported on use, not at start-up
    from gridlang.formats.maps import read_map
    from gridlang.formats.screens.imaging import calibration_text

    if len(args.pairs) % 2:
        raise ImageError(f"give pictures and maps in pairs (PICTURE MAP ...), not {len(args.pairs)} files")
    plugin = _image_plugin(args)
    pairs = [(args.pairs[k], read_map(args.pairs[k + 1]).rows) for k in range(0, len(args.pairs), 2)]
    data = plugin.calibrate_image(pairs)
    if data is None:
        raise ImageError(f"the plug-in of {args.spec} reads no pictures")
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(calibration_text(data))
    print(f"wrote {args.output}: {len(data['classes'])} tiles learned from {len(pairs)} pictures")
    return EXIT_OK


def _cmd_compile(args) -> int:
    # imported on use, not at start-up
    from gridlang.ir.checks import dump
    from gridlang.solving.pipeline import load

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
    # imported on use, not at start-up
    from gridlang.solving.answers import check_answer

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
    # imported on use, not at start-up
    from gridlang.formats.textmaps import json_key_span

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


def _cmd_batch(args) -> int:
    """Exit 0 when every map run has an answer or a proof, 4 if any answer failed verification, 1 on errors,
    130 after a Ctrl-C (the answers finished by then are written)."""
    # imported on use, not at start-up
    from gridlang.batch.run import connect, run_batch

    settings = settings_of(args)
    client = connect(args.scheduler) if args.scheduler else None
    try:
        summary = run_batch(args.spec, args.maps, args.out, backend=args.backend, workers=args.workers,
                            time_limit=args.time_limit, unique=args.unique, params=_params(args),
                            settings=settings, client=client)
    finally:
        if client is not None:
            client.close()
    skipped = summary.other_rules_text()
    if skipped:
        print(skipped, file=sys.stderr)
    print(summary.text())
    if summary.interrupted:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if summary.verify_failed:
        return EXIT_VERIFY_FAILED
    return EXIT_BAD_INPUT if summary.statuses.get("ERROR") else EXIT_OK


def _cmd_bench(args) -> int:
    """Exit 0 when every row is correct (verified, proved, at the known optimum), else 4."""
    # imported on use, not at start-up
    from gridlang.batch.bench import run, summary

    if "dataset" in args.sets:
        return _bench_dataset(args)
    echo = None if args.quiet else (lambda line: print(line, flush=True))
    backends = args.backend or ["auto", "cpsat", "milp", "maxsat", "asp"]
    rows = run(args.sets, backends, args.out, root=args.root, fresh=args.fresh, time_limit=args.time_limit,
               pattern=args.maps, settings=dict(args.set), echo=echo)
    for line in summary(rows, args.metric, args.baseline):
        print(line)
    return EXIT_OK if all(r["correct"] for r in rows) else EXIT_VERIFY_FAILED


def _bench_dataset(args) -> int:
    """``gridlang bench dataset``: the tables (or ``--json``'s rows); exit 0 when gridlang's every
    answer is the published one and proved unique, else 4."""
    # imported on use, not at start-up
    import shlex

    # imported on use, not at start-up
    from gridlang.batch import versus

    if args.sets != ["dataset"]:
        raise ParamError("the set dataset runs alone: give it without other sets")
    if not args.dataset:
        raise ParamError("bench dataset needs --dataset PATH (a clone of puzzlekit-dataset)")
    if args.sample < 0 or args.largest < 0:
        raise ParamError("--sample and --largest take a count of 0 or more")
    genres = None if not args.genres else [g.strip() for g in args.genres.split(",") if g.strip()]
    puzzles, notes = versus.draw(args.dataset, genres, [b.strip() for b in args.bands.split(",") if b.strip()],
                                 args.sample or None, args.largest, args.seed)
    peer = versus.peer_command(args.peer_python, shlex.split(args.peer_command) if args.peer_command else None)
    with open(args.out, "a", encoding="utf-8") as sink:  # opened first: a bad path fails before any solve

        def echo(row) -> None:
            sink.write(json.dumps(row) + "\n")
            sink.flush()

        rows = versus.run(puzzles, args.backend or ["auto"], args.time_limit, peer, not args.quiet, echo)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(versus.table(rows), "", versus.growth(rows), "", versus.compile_at_size(rows), sep="\n")
        if len(args.backend or ()) > 1:
            print("", versus.largest_proved(rows), sep="\n")
        for line in [*notes, *versus.findings(rows)]:
            print(line)
    ours = [r for r in rows if r["side"] == "gridlang"]
    return EXIT_OK if all(r["correct"] and r["unique"] is True for r in ours) else EXIT_VERIFY_FAILED


def _cmd_plot(args) -> int:
    # imported on use, not at start-up
    from gridlang.pictures.plot import plot

    plot(args.results, args.output, args.title)
    print(f"wrote {args.output}")
    return EXIT_OK


def _cmd_import(args) -> int:
    # imported on use, not at start-up
    from gridlang.formats.puzzlink import decode

    print(decode(args.url, args.spec).text, end="")
    return EXIT_OK


def _cmd_check(args) -> int:
    # imported on use, not at start-up
    from gridlang.language.checker import check
    from gridlang.language.parser import parse_file

    t0 = time.perf_counter()
    spec = parse_file(args.spec)
    symbols = check(spec)
    print(f"{args.spec}: ok ({len(symbols.tiles)} tiles, {len(symbols.params)} parameters, "
          f"{len(symbols.decisions)} decisions, {len(symbols.regions)} regions; "
          f"{time.perf_counter() - t0:.2f} s)")
    return EXIT_OK


def _cmd_backends(args) -> int:
    # imported on use, not at start-up
    from gridlang.ir.backend import backend_class, backend_names

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


def _cmd_serve(args) -> int:
    """Serve the page and the API until Ctrl-C (exit 0), or exit 1 when the address cannot be had."""
    # imported on use, not at start-up
    from gridlang.core.memory import default_limit
    from gridlang.web.app import Settings
    from gridlang.web.server import default_workers, serve

    workers = args.workers or default_workers()
    memory = args.memory_limit
    if memory is None and (total := default_limit()) is not None:
        memory = total // workers
    try:
        serve(args.host, args.port, Settings(workers, args.queue, args.time_limit, memory))
    except OSError as e:
        raise BackendError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from e
    return EXIT_OK
