"""A report as text: what ``gridlang solve`` prints, and the page shows, for one solve.

The answer drawn (:func:`gridlang.pictures.textdraw.answer_text`), the status
line with the plug-in's figures, what uniqueness and ``--count`` settled, and
the seconds of each phase; every front end that shows a report in words
takes it from here.
"""

from __future__ import annotations

from gridlang.core.grid import cell_name
from gridlang.ir.backend import Status
from gridlang.ir.solution import differing
from gridlang.pictures.textdraw import answer_text
from gridlang.plugins import find_plugin


def report_text(report, time_limit: float | None = None, count: int | None = None) -> str:
    """The text ``gridlang solve`` prints for a report: the answer drawn, the status line, uniqueness, times.

    Args:
        report: the :class:`~gridlang.solving.pipeline.Report`.
        time_limit: the limit asked for, in seconds (None: none), named when it ran out.
        count: the ``--count`` asked for, or None.
    """
    res = report.result
    model = report.model
    lines = []
    if report.solution is not None:
        lines.append(answer_text(model, report.solution))
        lines.append("")
    lines.append(status_line(report))
    if res.status is Status.UNKNOWN and report.solution is None:
        within = (f" within the time limit of {time_limit:g} s" if time_limit is not None
                  else " before the solver stopped at a limit of its own")
        if report.interrupted:
            within = " before Ctrl-C stopped the search"
        elif res.stats.get("stopped") == "memory limit":
            within = " before the process reached the memory limit (--memory-limit)"
        lines.append(f"no solution found{within}, and none ruled out")
    elif res.stats.get("stopped") == "memory limit":
        lines.append("stopped: the process reached the memory limit (--memory-limit); the answer is the best "
                     "found before it")
    if count is not None and report.solution is not None:
        lines.append(count_text(len(report.solutions), count, report.complete))
    elif len(report.solutions) > 1 or report.unique is not None or report.complete is not None:
        if report.unique is True:
            lines.append("unique: the solution is the only one (proved)")
        elif report.unique is False and len(report.solutions) > 1:
            lines.append("not unique: a second solution exists")
            lines.append("")
            lines.append(answer_text(model, report.solutions[1]))
            differ = differing(report.solutions[0], report.solutions[1])
            cells = [model.grid.cell_name(c) for c in differ if isinstance(c, int)]
            corners = {d.name for d in model.decisions if d.kind == "corners"}
            edges = [edge_name(model, key) for key in differ if not isinstance(key, int)]
            if cells:
                lines.append("cells that differ: " + "; ".join(cells))
            if edges:
                lines.append(("edges that differ: " if not corners else "edges (between corners) that differ: ")
                             + "; ".join(edges))
        elif report.interrupted:
            lines.append("unique: not settled; Ctrl-C stopped the search for a second solution")
        else:
            lines.append("unique: not settled; the time limit ran out before the search for a second solution "
                         "ended")
    s = report.seconds
    lines.append("time: " + ", ".join(f"{k} {s[k]:.2f} s" for k in ("startup", "parse", "compile", "solve", "verify", "total")
                                      if k in s))
    return "\n".join(lines)


def status_line(report) -> str:
    """The status line of ``gridlang solve``'s text output: ``score 66 (verified)   status OPTIMAL
    ...   backend auto: cpsat, connectivity cuts`` (the plug-in's figures in the middle)."""
    res = report.result
    model = report.model
    parts = [f"status {report.status}"]
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
    parts.append(backend_text(report))
    return "   ".join(parts)


def count_text(found: int, asked: int, complete: bool | None) -> str:
    """What ``--count N`` found: how many answers, and whether that is all of them."""
    s = "" if found == 1 else "s"
    if complete:
        return f"{found} solution{s} found: all there are (the search proved there is no other)"
    if found >= asked:
        return (f"{found} solution{s} found, the {asked} asked for (--count {asked}); there may be more")
    return (f"{found} solution{s} found; the time limit ran out before the search could tell whether there "
            "are more")


def edge_name(model, key) -> str:
    """An edge between two cells (or two corners), as a person reads it."""
    (r1, c1), (r2, c2) = key
    return f"{cell_name(r1, c1)} to {cell_name(r2, c2)}"


def backend_text(report) -> str:
    """The status line's backend: ``backend cpsat``, ``backend auto: cpsat`` (the one ``auto``
    chose), then ``, connectivity flow`` when the model has a connectivity constraint."""
    chosen = report.result.stats.get("chosen")
    text = f"backend {report.backend}"
    if chosen and chosen != report.backend:
        text += f": {chosen}"
    if report.connectivity is not None:
        text += f", connectivity {report.connectivity}"
    return text
