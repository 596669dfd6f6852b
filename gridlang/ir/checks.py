"""An assignment checked against the constraints of its own model, and the
model's readable listing (``gridlang compile --dump-ir``).
"""

from __future__ import annotations

from gridlang.ir.model import (
    Assignment,
    Clause,
    Connected,
    Constraint,
    EqualBlocks,
    GraphConnected,
    Linear,
    Model,
    Table,
)


def violations(model: Model, assignment: Assignment) -> list[str]:
    """Check every IR constraint under ``assignment``.

    This is a model check, not the puzzle verifier: it catches a backend that
    returns an assignment its own model forbids. Connectivity is checked by
    BFS over the grid graph.

    Returns:
        One sentence per violated constraint (empty when all hold).
    """
    return [message + (f" ({con.span})" if con.span is not None else "")
            for con, message in broken_constraints(model, assignment)]


def broken_constraints(model: Model, assignment: Assignment) -> list[tuple[Constraint, str]]:
    """The constraints ``assignment`` violates, each with a sentence saying how.

    Returns:
        ``(constraint, sentence)`` pairs in the model's order; the
        constraint's ``span`` names the spec statement it was compiled from
        (None for an auxiliary definition).
    """
    out: list[tuple[Constraint, str]] = []
    true = {k if v else -k for k, v in enumerate(assignment.values, 1)}  # the literals that hold
    for con in model.constraints:
        if isinstance(con, Clause):
            if true.isdisjoint(con.lits):
                out.append((con, "clause " + " | ".join(model.lit_name(l) for l in con.lits) + " is false"))
        elif isinstance(con, Linear):
            if con.enforce and not all(assignment.holds(l) for l in con.enforce):
                continue
            lhs = sum(c for c, l in con.terms if assignment.holds(l))
            if not con.op.holds(lhs, con.rhs):
                out.append((con, f"linear constraint evaluates to {lhs} {con.op.value} {con.rhs}: false"))
        elif isinstance(con, Connected):
            cells = set(assignment.true_cells(con.members))
            missing = [r for r in con.roots if r not in cells]
            if missing:
                out.append((con, f"region {con.name!r} misses its root cell at {model.grid.cell_name(missing[0])}"))
                continue
            if cells and len(model.grid.reach(cells, con.roots or (min(cells),))) != len(cells):
                out.append((con, f"region {con.name!r} is not connected"))
        elif isinstance(con, GraphConnected):
            active, comps = con.reached(assignment)
            missing = [r for r in con.roots if r not in active]
            if missing:
                out.append((con, f"{con.name!r} misses its root vertex {missing[0]}"))
            elif con.roots and any(not comp & set(con.roots) for comp in comps):
                out.append((con, f"{con.name!r} has chosen edges its roots do not reach"))
            elif not con.roots and len(comps) > 1:
                what = "loops" if con.loop else "separate pieces"
                out.append((con, f"{con.name!r} falls into {len(comps)} {what}"))
        elif isinstance(con, Table):
            if not con.holds(assignment):
                out.append((con, f"table {con.name or ''} is false: " + ", ".join(
                    model.lit_name(l if assignment.holds(l) else -l) for l in con.lits)))
        elif isinstance(con, EqualBlocks):
            for block, cell, label, lo, hi in con.broken(model.grid, assignment)[:1]:
                want = f"{lo}" if lo == hi else f"at least {lo}" + (f" and at most {hi}" if hi is not None else "")
                out.append((con, f"the block of {con.name!r} = {label!r} at {model.grid.cell_name(cell)} has "
                                 f"{len(block)} cells, not {want}"))
    return out


def dump(model: Model) -> str:
    """A readable listing of the model: grid size, variables, constraints, objective.

    Linear rows print as ``3 wall[1,2] + ... <= 12``; connectivity nodes list
    their roots and candidate count; every row ends with the spec line it
    came from.
    """
    g = model.grid
    lines = [f"model {model.name!r}: {g.rows}x{g.cols} cells, {len(g.links)} links, "
             f"{model.num_vars} variables, {len(model.constraints)} constraints"]
    for key, value in sorted(model.params.items()):
        lines.append(f"param {key} = {value}")
    lines.append("variables:")
    for i, v in enumerate(model.variables, start=1):
        lines.append(f"  x{i} {v}")
    lines.append("constraints:")

    def term(c: int, lit: int) -> str:
        return (f"{c} " if c != 1 else "") + model.lit_name(lit)

    for con in model.constraints:
        where = f"    # {con.span}" if con.span else ""
        if isinstance(con, Clause):
            body = " | ".join(model.lit_name(l) for l in con.lits) or "false"
            lines.append(f"  clause {body}{where}")
        elif isinstance(con, Linear):
            body = " + ".join(term(c, l) for c, l in con.terms).replace("+ -", "- ")
            guard = f"if {' & '.join(model.lit_name(l) for l in con.enforce)}: " if con.enforce else ""
            lines.append(f"  linear {guard}{body} {con.op.value} {con.rhs}{where}")
        elif isinstance(con, Connected):
            roots = ", ".join(str(g.cell(r)) for r in con.roots) or "any member"
            size = f", size {con.size}" if con.size is not None else ""
            size += ", a path between them" if con.path else ""
            lines.append(f"  connected {con.name or 'region'}: {len(con.members)} candidate cells, "
                         f"roots {roots}{size}{where}")
        elif isinstance(con, GraphConnected):
            roots = ", ".join(map(str, con.roots)) or "any member"
            kind = "one loop" if con.loop else "connected"
            lines.append(f"  {kind} {con.name}: {len(con.members)} vertices, {len(con.edges)} edges, "
                         f"roots {roots}{where}")
        elif isinstance(con, Table):
            body = ", ".join(model.lit_name(l) for l in con.lits)
            lines.append(f"  table {con.name}({body}): {len(con.allowed)} allowed rows{where}")
        elif isinstance(con, EqualBlocks):
            lines.append(f"  equal blocks {con.name}: {len(con.cells)} cells, {len(con.bounds)} size bounds{where}")
    if model.objective is not None:
        o = model.objective
        body = " + ".join(term(c, l) for c, l in o.terms).replace("+ -", "- ")
        const = f" + {o.constant}" if o.constant else ""
        lines.append(f"objective: {o.sense.value} {body}{const}")
    return "\n".join(lines)
