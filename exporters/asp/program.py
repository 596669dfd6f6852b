"""The IR as a logic program in gringo's input language (the asp backend's encoding).

Lowering (IR -> gringo's input language), ``x(V)`` the atom of IR variable ``V``:

* every variable -> a choice rule ``{ x(V) }.``, its name in a comment,
  except the members of a flood fill, which are defined (below);
* :class:`~gridlang.ir.model.Clause` ``l1 | ... | ln`` -> ``:- not l1, ..., not ln.``
  (``v`` is ``x(v)``, ``-v`` is ``not x(v)``; the empty clause ``:- #true.``);
* :class:`~gridlang.ir.model.Linear` -> ``sum w_i l_i OP R`` with ``w_i > 0`` by
  :func:`~gridlang.exporters.asp.rules.normalise`, then an integrity constraint: ``:- E, #count{ V : l; ... } > R.``
  (unit weights) or ``#sum{ w,V : l; ... }``; ``==`` as both ``<`` and ``>``,
  ``>= 1`` and ``<= n - 1`` as plain bodies, trivial sides decided outright.
  The enforcement literals ``E`` join the body, the IR's half-reification;
* the objective -> ``#maximize{ c,V : x(V); ... }`` or ``#minimize``, one weight
  per variable (negative ones allowed), the constant kept aside. clingo
  minimises and reports ``-sum`` for a maximisation, so the score is
  ``constant - cost`` (maximise) or ``constant + cost`` (minimise);
* :class:`~gridlang.ir.model.Connected`, strategy ``reach`` (default): facts
  ``member(K,Cell,Lit)``, ``root(K,Cell)``, ``step(K,U,V)`` (the region's own arcs: 4-neighbours
  and links between two of its candidate cells, both ways, cells row-major) and recursive
  reachability, as in the
  ``reached/1`` rules of the Hamiltonian-cycle encoding of M. Gebser,
  R. Kaminski, B. Kaufmann, T. Schaub, *Answer Set Solving in Practice*,
  Morgan & Claypool 2012::

      in(K,V)    :- member(K,V,L), L > 0, x(L).
      in(K,V)    :- member(K,V,L), L < 0, not x(-L).
      reach(K,V) :- root(K,V).
      reach(K,V) :- reach(K,U), step(K,U,V), in(K,V).
      :- in(K,V), not reach(K,V).
      :- root(K,V), not in(K,V).

  A stable model holds only the ``reach`` atoms a chain of edges from a root
  supports (clasp's unfounded-set checks see to it), so the constraint says
  exactly "every member is reached from a root inside the set": no flow, no
  cut loop, no ranks. Without roots the least member is the root:
  ``next(K,U,V)`` chains the candidates, ``before(K,V)`` holds when a member
  precedes ``V``, and ``reach(K,V) :- free(K), in(K,V), not before(K,V).``
  Size: an ``in`` and a ``reach`` atom per candidate cell, a rule instance
  per candidate arc. The arcs are each region's own facts, not one grid graph joined with every
  region's members: on the puzzlekit-dataset's Nurikabe 50x50 (227 regions, 8,178 candidate
  cells) gringo grounded the shared graph in 5.8 to 9.8 s, the region's own arcs (24,724 facts)
  in 0.23 s, the same ground program; clingo's grounding cannot be stopped, so those seconds ran
  past ``--time-limit``. A region's size is a ``#count`` the IR states already;
  a path needs nothing more (its degree constraints are IR rows).
* a flood fill (:class:`~gridlang.ir.model.Connected` with ``through``: ``region R
  = reach from A through P``), strategy ``reach``: its members are not
  chosen but defined, as the least fixpoint of :data:`~gridlang.exporters.asp.rules.FILL_RULES` over
  facts ``fmember(K,Cell,Lit)``, ``froot(K,Cell)``, ``fstep(K,U,V)`` (an arc
  between two members) and the gates: ``fopen_if(K,Cell,V)`` (passable only
  when ``x(V)`` holds) and ``fshut_if(K,Cell,V)`` (only when it does not)::

      fill(K,V) :- froot(K,V).
      fill(K,V) :- fill(K,U), fstep(K,U,V), not fshut(K,V).
      x(L)      :- fill(K,V), fmember(K,V,L).

  This is the region's own definition, so no reachability check and no
  guess of the members is left to the solver. The closure clauses the
  compiler states stay in the program as integrity constraints where the
  rules do not imply them (at a candidate the anchoring dropped, such as
  the border); those the rules imply are left out
  (:func:`_implied_by_fills`).
  On the stalls of the 214 dailies (13 maps past 60 s with the members
  chosen) it is what the five-rule peer program of issue 18 does. Used
  when it is exact: the members are positive literals of no other node,
  and no gate is the member of a defined region (a positive loop through
  two fills would have a least fixpoint smaller than the IR allows).
"""

from __future__ import annotations

from collections import Counter

from gridlang.core.deadline import Deadline
from gridlang.core.errors import BackendError
from gridlang.exporters.asp.rules import (
    BLOCK_RULES,
    CLINGO_MAX,
    FILL_RULES,
    GRAPH_RULES,
    REACH_RULES,
    auto_flags,
    beyond_clingo,
    clause_rule,
    constraint_rules,
    region_arcs,
    survey,
    translates_cards,
)
from gridlang.ir.backend import run_lines
from gridlang.ir.model import Clause, Connected, Constraint, EqualBlocks, GraphConnected, Linear, Model, Sense


class Program:
    """A model as a gringo program.

    Args:
        model: the IR model.
        strategy: ``reach`` (connectivity by recursive rules) or ``cuts``
            (left to the cut loop: :attr:`lazy`).
        deadline: read every 4,096 constraints (None: no limit).
        direct: leave the clauses, the rows, the flood fills and the
            objective out of the text, for
            :func:`~gridlang.exporters.asp.rules.add_direct`,
            :func:`~gridlang.exporters.asp.rules.add_fills` and
            :func:`~gridlang.exporters.asp.rules.add_objective` to hand
            to clingo as ground rules (the solver's way; a file keeps
            them all as text), and choose the variables by ranges where a rule of
            the text names them, else by one choice rule of the backend (:attr:`choices`).

    Attributes:
        lines: the program, one statement (or comment) a line.
        lazy: the connectivity nodes left to the cut loop.
        direct: with ``direct``, the clauses and rows left out of the text.
        weights: with ``direct``, the objective's ``(weight, V)`` terms.
        fills: with ``direct``, the flood fills left out of the text, for
            :func:`~gridlang.exporters.asp.rules.add_fills` to hand to clingo as ground rules;
            only where clasp translates cardinality rows
            (:func:`~gridlang.exporters.asp.rules.translates_cards`), else they stay text.
        constant: the objective's constant after normalisation (the score
            is ``constant - cost`` when maximising, ``constant + cost``
            when minimising).
        rules: the number of statements of the text, comments not counted.
        nameless: with ``direct``, the variables are chosen and read by clingo's backend as atoms
            without a name (``x(V)`` appears in no rule of the text: no connectivity, blocks or
            objective), and the text holds no choice rule.
        choices: with ``direct``, the variables clingo's backend chooses (one choice rule), when no
            rule of the text names one; else empty, and the text chooses them by ranges.

    Raises:
        BackendError: a constraint type the backend cannot lower, or a row
            or objective beyond clingo's 32-bit integers (:func:`~gridlang.exporters.asp.rules.beyond_clingo`).
    """

    def __init__(self, model: Model, strategy: str, deadline: Deadline | None = None, direct: bool = False):
        wide = beyond_clingo(model)
        if wide is not None:
            raise BackendError(f"clingo computes weights and sums in 32-bit integers, and {wide}, beyond "
                               f"{CLINGO_MAX:,}; the cpsat, milp and maxsat backends compute it exactly")
        self.model = model
        self.lazy: list[Connected] = []
        self.constant = 0
        self.direct: list[Constraint] = []
        fills = _fills(model) if strategy == "reach" else []
        defined = {lit for con in fills for _, lit in con.members}
        lines = ["#show x/1.", "", "% variables: x(V) is IR variable V"]
        choices = len(lines)  # where the choice rules go
        ranges = _choice_ranges(model.num_vars, defined) if direct else []
        if direct:
            lines += ranges
        else:
            lines += [f"{{ x({v}) }}.  % {var}" if v not in defined else f"% x({v}) is defined: {var}"
                      for v, var in enumerate(model.variables, 1)]
        lines += ["", "% constraints"]
        nodes: list[Connected] = []
        graphs: list[GraphConnected] = []
        blocks: list[EqualBlocks] = []
        filled = {id(con) for con in fills}
        implied = _implied_by_fills(model, fills)
        if implied:
            lines.append(f"% {len(implied)} clauses the flood fills imply are left out")
        keep = self.direct.append
        for k, con in enumerate(model.constraints):
            if deadline is not None and not k & 0xFFF:
                deadline.check()
            if direct and (type(con) is Clause or type(con) is Linear):  # the commonest, handed over as they are
                if k not in implied:
                    keep(con)
                continue
            where = f"  % {con.span}" if con.span and not direct else ""  # a comment of the text alone
            if id(con) in filled or k in implied:
                continue
            if isinstance(con, EqualBlocks):
                (blocks if strategy == "reach" else self.lazy).append(con)
            elif isinstance(con, (Connected, GraphConnected)):
                if strategy == "reach":
                    (graphs if isinstance(con, GraphConnected) else nodes).append(con)
                else:
                    self.lazy.append(con)
                    lit_of = dict(con.members)
                    clauses = [Clause((lit_of[r],) if r in lit_of else ()) for r in con.roots]
                    if isinstance(con, Connected):  # cut-vertex seeds are known for cell regions only
                        # imported on use, not at start-up: the reachability rules (a horse map) make no cut
                        from gridlang.ir.connectivity.separation import cut_clause, seed_cuts

                        clauses += [Clause(tuple(cut_clause(c))) for c in seed_cuts(model.grid, con)]
                    if direct:
                        self.direct += clauses
                    else:
                        lines += [clause_rule(c.lits) + where for c in clauses]
            elif isinstance(con, (Clause, Linear)) and direct:
                self.direct.append(con)
            elif isinstance(con, (Clause, Linear)):
                lines += [rule + where for rule in constraint_rules(con)]
            else:
                raise BackendError(f"backend 'asp' cannot lower constraint {type(con).__name__}")
        # With nothing but clauses, rows and no objective, no rule of the text names a variable: the solver's
        # atoms need no names (Clingo makes them nameless and reads an answer by their literals).
        self.nameless = direct and model.objective is None and not (nodes or fills or graphs or blocks)
        # The solver's way takes a flood fill's rules as ground rules too (rules.add_fills): no text to ground,
        # where clasp translates the cardinality rows (an objective's; rules.translates_cards). Without,
        # clasp's choice to translate them (--trans-ext=dynamic) follows the program's size, which gringo's
        # facts of the fill's text raise: a hint's step on daily-2026-01-07 was proved in 0.27 s with them,
        # and in none of 120 s without them.
        self.fills: list[Connected] = fills if direct and translates_cards(model) else []
        # Where no rule of the text names a variable, clingo's backend chooses them (one choice rule over
        # their atoms) and gringo grounds no ranges.
        text_fills = [] if self.fills else fills
        self.choices: list[int] = []
        if direct and not (nodes or text_fills or graphs or blocks):
            del lines[choices:choices + len(ranges)]
            self.choices = [v for v in range(1, model.num_vars + 1) if v not in defined]
        if nodes or text_fills:
            lines += ["", *self._reach(nodes, text_fills)]
        if graphs:
            lines += ["", *self._graph_reach(graphs)]
        if blocks:
            lines += ["", "% blocks of equal labels", BLOCK_RULES]
            for k, con in enumerate(blocks):
                lines += _block_facts(model, k, con)
        self.weights: list[tuple[int, int]] = []
        if model.objective is not None and direct:
            self.weights = self.objective_terms()
        elif model.objective is not None:
            lines += ["", *self._objective()]
        self.lines = lines
        self.rules = sum(1 for s in lines if s and not s.startswith("%"))

    def _reach(self, nodes: list[Connected], fills: list[Connected]) -> list[str]:
        grid = self.model.grid
        lines = ["% connectivity by reachability (cells row-major: cell = row * "
                 f"{grid.cols} + col)"]
        if fills:
            lines.append(FILL_RULES)
        for k, con in enumerate(fills):
            cells = [c for c, _ in con.members]
            roots = ", ".join(str(grid.cell(r)) for r in con.roots)
            lines.append(f"% flood fill {k}: {con.name or 'region'}, {len(cells)} candidate cells, roots {roots}")
            lines += [f"fmember({k},{c},{l})." for c, l in con.members]
            lines += [f"froot({k},{r})." for r in con.roots]
            own = set(cells)
            lines += [f"fopen_if({k},{c},{l})." if l > 0 else f"fshut_if({k},{c},{-l})."
                      for c, l in con.through if c in own]
            lines += [f"fstep({k},{u},{v})." for u, v in region_arcs(con, grid.neighbours)]
        if nodes:
            lines.append(REACH_RULES)
        for k, con in enumerate(nodes):
            cells = [c for c, _ in con.members]
            roots = ", ".join(str(grid.cell(r)) for r in con.roots) or "its least member"
            lines.append(f"% region {k}: {con.name or 'region'}, {len(cells)} candidate cells, roots {roots}")
            lines += [f"member({k},{c},{l})." for c, l in con.members]
            lines += [f"root({k},{r})." for r in con.roots]
            own = set(cells)
            lines += [f"step({k},{u},{v})." for u, v in region_arcs(con, grid.neighbours)]
            if not con.roots:
                lines.append(f"free({k}).")
                ordered = sorted(cells)
                lines += [f"next({k},{u},{v})." for u, v in zip(ordered, ordered[1:])]
        return lines

    def _graph_reach(self, nodes: list[GraphConnected]) -> list[str]:
        """Reachability through chosen edges, one numbered graph per node
        (:data:`~gridlang.exporters.asp.rules.GRAPH_RULES`)."""
        lines = ["% connectivity through chosen edges", GRAPH_RULES]
        for k, con in enumerate(nodes):
            roots = ", ".join(map(str, con.roots)) or "its least member"
            lines.append(f"% graph {k}: {con.name}, {len(con.members)} vertices, {len(con.edges)} edges, "
                         f"roots {roots}")
            lines += [f"gmember({k},{v},{l})." for v, l in con.members]
            lines += [f"gedge({k},{u},{v},{l})." for u, v, l in con.edges]
            lines += [f"groot({k},{r})." for r in con.roots]
            if not con.roots:
                lines.append(f"gfree({k}).")
                ordered = sorted(v for v, _ in con.members)
                lines += [f"gnext({k},{u},{v})." for u, v in zip(ordered, ordered[1:])]
        return lines

    def objective_terms(self) -> list[tuple[int, int]]:
        """The objective as ``(weight, V)`` over the variables, each once, ascending, zero weights
        left out; the constant this leaves is :attr:`constant`."""
        obj = self.model.objective
        coef: dict[int, int] = {}
        for c, lit in obj.terms:  # c * ~v = c - c * x(v)
            coef[abs(lit)] = coef.get(abs(lit), 0) + (c if lit > 0 else -c)
        self.constant = obj.constant + sum(c for c, lit in obj.terms if lit < 0)
        return [(coef[v], v) for v in sorted(coef) if coef[v]]

    def _objective(self) -> list[str]:
        obj = self.model.objective
        terms = self.objective_terms()
        word = "#maximize" if obj.sense is Sense.MAXIMIZE else "#minimize"
        where = f"  % {obj.span}" if obj.span else ""
        return ["% objective", word + "{ " + "; ".join(f"{c},{v} : x({v})" for c, v in terms) + " }." + where]

    def text(self) -> str:
        """The program, newline-terminated."""
        return "\n".join(self.lines) + "\n"


def _block_facts(model: Model, k: int, con: EqualBlocks) -> list[str]:
    """The facts of one :class:`~gridlang.ir.model.EqualBlocks` node for
    :data:`~gridlang.exporters.asp.rules.BLOCK_RULES`.

    ``bnear(K,Q,W)``: W is at most ``H(Q)`` steps from Q through listed
    cells, H(Q) the most cells Q's block may have. A block of at most H(Q)
    cells lies within ``H(Q) - 1`` steps, so Q counts it exactly; a larger
    one holds ``H(Q) + 1`` cells within H(Q) steps (its first breadth-first
    layers), so Q counts more than any bound of its allows. Labels are
    given by their codes (:meth:`BlockPlan.code`); a label without an upper
    bound gets the number of listed cells, which no block exceeds.
    """
    # imported on use, not at start-up: a model without blocks of equal values plans none
    from gridlang.ir.connectivity.blocks import BlockPlan

    plan = BlockPlan.of(model.grid, con)
    listed = set(plan.cells)
    n = len(plan.cells)
    lines = [f"% blocks {k}: {con.name or 'labels'}, {n} cells, {len(con.bounds)} size bounds"]
    for q in plan.cells:
        lines.append(f"bcell({k},{q}).")
        lines += [f"blit({k},{q},{plan.code(v)},{lit})." for v, lit in plan.options[q].items()]
        bounds = plan.bounds.get(q, {})
        for v in plan.options[q]:
            lo, hi = bounds.get(v, (1, None))
            lines.append(f"bmin({k},{q},{plan.code(v)},{lo}). bmax({k},{q},{plan.code(v)},{n if hi is None else hi}).")
        near = model.grid.distances(listed, q, plan.reach[q])
        lines += [f"bnear({k},{q},{w})." for w in sorted(near) if w != q]
    lines += [f"bedge({k},{u},{w}). bedge({k},{w},{u})." for u, w in plan.edges]
    return lines


def _choice_ranges(count: int, defined: set[int]) -> list[str]:
    """Choice rules for the variables 1..count not ``defined``, one per run of consecutive ones
    (``{ x(1..38814) }.``): a handful of statements for gringo, not one per variable."""
    lines, start = [], 1
    for end in sorted(v for v in defined if 1 <= v <= count) + [count + 1]:  # the runs lie between them
        if end - 1 > start:
            lines.append(f"{{ x({start}..{end - 1}) }}.")
        elif end - 1 == start:
            lines.append(f"{{ x({start}) }}.")
        start = end + 1
    return lines


def _fills(model: Model) -> list[Connected]:
    """The flood fills whose members the program can define exactly (see the module docstring)."""
    fills = [con for con in survey(model).regions if type(con) is Connected and con.through is not None
             and con.roots and not con.path and all(lit > 0 for _, lit in con.members)]
    if not fills:
        return []
    nodes = [con for con in model.constraints if isinstance(con, (Connected, GraphConnected))]
    uses = Counter(abs(pair[-1]) for con in nodes for pair in con.members + getattr(con, "edges", ()))
    fills = [con for con in fills if all(uses[lit] == 1 for _, lit in con.members)]
    while True:
        defined = {lit for con in fills for _, lit in con.members}
        kept = [con for con in fills if not any(abs(gate) in defined for _, gate in con.through)]
        if len(kept) == len(fills):
            return kept
        fills = kept


def _implied_by_fills(model: Model, fills: list[Connected]) -> set[int]:
    """Indices of the model's clauses that the defined flood fills already imply.

    With a fill's members defined by :data:`~gridlang.exporters.asp.rules.FILL_RULES` (``x(m)`` holds
    exactly when the roots reach its cell), two kinds of clause hold in
    every stable model, whatever their origin, and only slow clasp down (on
    the 90 dailies of January to March 2026 leaving them out took grounding
    from 23-37 ms to 15-26 ms and the median of program, grounding and
    search from 0.27 to 0.23 s in January and from 0.134 to 0.111 s in
    February and March):

    * a member's open neighbour is a member: a clause holding ``not m``,
      ``n`` for a member ``n`` of the same fill on a neighbouring cell, and
      ``not g`` for every gate ``g`` of that cell;
    * a member that is not a root is passable: a clause holding ``not m``
      and a gate ``g`` of its cell.

    A clause with more literals than these is implied too.
    """
    where: dict[int, tuple[int, int]] = {}
    for k, con in enumerate(fills):
        where.update((lit, (k, cell)) for cell, lit in con.members)
    if not where:
        return set()
    member_lit = [dict(con.members) for con in fills]
    gates: list[dict[int, set[int]]] = []
    for con in fills:
        by_cell: dict[int, set[int]] = {}
        for cell, lit in con.through:
            by_cell.setdefault(cell, set()).add(lit)
        gates.append(by_cell)
    roots = [set(con.roots) for con in fills]
    neighbours = model.grid.neighbours

    def implied(lits: set[int]) -> bool:
        for lit in lits:
            if lit > 0 or -lit not in where:
                continue
            k, u = where[-lit]
            if u not in roots[k] and not gates[k].get(u, set()).isdisjoint(lits):
                return True
            for v in neighbours[u]:
                n = member_lit[k].get(v)
                if n is not None and n in lits and all(-g in lits for g in gates[k].get(v, ())):
                    return True
        return False

    return {k for k, con in enumerate(model.constraints) if type(con) is Clause and implied(set(con.lits))}


def _header(model: Model, program: Program) -> list[str]:
    def clean(s: object) -> str:
        return " ".join(str(s).split())

    lines = [f"% gridlang asp export: {clean(model.name)}"] + [f"% {line}" for line in model.provenance()]
    lines.append(f"% grid: {model.grid.rows} rows x {model.grid.cols} columns")
    lines.append("% encoding: choice rule per variable, integrity constraints, #count/#sum, "
                 "connectivity by recursive reachability")
    lines.append(f"% variables: {model.num_vars}, statements: {program.rules}")
    obj = model.objective
    if obj is None:
        lines.append("% objective: none")
    else:
        sign = "-" if obj.sense is Sense.MAXIMIZE else "+"
        lines.append(f"% objective: {obj.sense.value}; score = {program.constant} {sign} Optimization")
    # The asp backend's own defaults (AspSettings.trans_ext and lookahead, auto): card with an objective,
    # when small; failed literals without one when every region is rooted and one has a known size.
    # The clingo wheel ships no clingo executable; its module is the clingo application.
    flag = "".join(f"--{key}={value} " for key, value in auto_flags(model).items()
                   if value not in ("dynamic", "no"))  # clingo's own defaults left out
    lines += [f"% {line}" for line in run_lines("asp", f"python -m clingo {flag}FILE > ANSWER")]
    lines.append("% (a clingo executable from Potassco takes the same arguments)")
    lines.append("% variable map: FILE.vars.json")
    return lines


def _variable_map(model: Model) -> dict[str, dict[str, object]]:
    return {f"x({v})": model.variable_record(v) for v in range(1, model.num_vars + 1)}
