"""Lowering of conditions and rules to the IR.

Part of the compiler (:class:`gridlang.compiler._Compiler` mixes
:class:`FormulaLowering` in; cell sets are in
:mod:`.cellsets`, shapes in :mod:`.pieces`). Everything lowers to the IR nodes every backend
already takes: :class:`~gridlang.ir.model.Clause`, :class:`~gridlang.ir.model.Linear`
(with enforcement literals) and :class:`~gridlang.ir.model.Connected` over the
map's grid graph.

Conditions
    ``lit(F)`` gives a condition one literal (or a constant): membership is
    the set's literal; ``not``, ``and``, ``or``, ``implies`` go through the
    Tseitin definitions; ``A in B`` and ``A avoids B`` are the conjunction
    of their per-cell clauses; a comparison of linear sums is reified
    (:meth:`FormulaLowering.reify`); ``all(...)``/``any(...)`` are the
    conjunction/disjunction of their body over the cells.
Rules
    ``require F`` (:meth:`FormulaLowering.assert_formula`) avoids auxiliary
    variables where it can: a conjunction becomes separate rules; ``A
    implies B`` states B with A's literal as an enforcement literal, so a
    comparison under ``implies`` is one :class:`Linear` with enforcement;
    ``D[p] = D[q]`` (or ``!=``) is stated value by value, as clauses with
    no auxiliary variable (:meth:`FormulaLowering.assert_same`); a
    disjunction is one clause; ``all different D in S`` is ``sum of
    D[q]=v over S <= 1`` for each value v (``== 1`` when S has as many
    cells as D has values, which follows by counting).
Constructs
    a comparison one of whose sides a construct owns (``runs of S around
    c == L``) is that construct's to lower, as a literal or as a rule; a
    rule the compiler would lower as any comparison is first offered to
    the constructs that state some their own way (blocks' sizes):
    :meth:`FormulaLowering.construct_rule`, :mod:`gridlang.language.constructs`.
"""

from __future__ import annotations

from gridlang.compiler.cellsets import CellSetLowering
from gridlang.compiler.diagnostics import names_in
from gridlang.compiler.tags import HIDDEN, binding_parts, definition
from gridlang.core.errors import MapError, SemanticError, show_set
from gridlang.ir.literals import CellValue, neg
from gridlang.ir.model import Cmp, Linear
from gridlang.language import ast
from gridlang.language.constructs import comparison_of, construct_of, rule_lowerings
from gridlang.language.equivalence import is_condition, is_number

__all__ = ["CellValue", "FormulaLowering", "neg"]

_CONNECTIVES = frozenset((ast.And, ast.Or, ast.Implies))


class FormulaLowering(CellSetLowering):
    """The compiler's methods for conditions and the new cell-set constructs (a mixin)."""

    # bound variables: name -> ("int", value) | ("cell", index) | ("set", (frozenset, label))
    bound: dict

    # ---------------------------------------------------------- lines of sight
    def sight_test(self, f: ast.Compare) -> CellValue | None:
        """The literal of ``count(E) OP k`` along one line of sight
        (:func:`gridlang.compiler.sightlines.sight_test`), or None: the caller lowers it as a sum. A
        comparison that counts no set holding a line of sight is None at once."""
        if not any(type(side) is ast.Count and type(side.operand) in (ast.Sight, ast.And)
                   for side in (f.left, f.right)):
            return None
        # imported on use, not at start-up: a spec that counts along no line of sight never asks
        from gridlang.compiler import sightlines

        return sightlines.sight_test(self, f)

    def subset_left(self, f: ast.Subset | ast.Avoids) -> dict[int, CellValue]:
        """The members of ``f.left`` that ``f`` (``A in B``, ``A avoids B``) must be stated on: every member,
        or for ``(sight from p toward q through S) in B`` the line up to its first cell surely out of B
        (:func:`gridlang.compiler.sightlines.subset_left`)."""
        if not (isinstance(f, ast.Subset) and isinstance(f.left, ast.Sight)):
            return self.members(f.left)
        # imported on use, not at start-up: a spec that states no line of sight in a set never asks
        from gridlang.compiler import sightlines

        return sightlines.subset_left(self, f)

    # ------------------------------------------------------------- bindings


    # ------------------------------------------------------------ cell sets


    # ----------------------------------------------------------- conditions
    def lit_of(self, f: ast.Expr) -> CellValue:
        """One literal (or constant) equivalent to the condition ``f`` under the current bindings.

        A connective (``and``, ``or``, ``implies``) is evaluated once per node and values of the ``for
        each`` names it mentions within a statement (:meth:`binding_key`): a guard that does not read
        the innermost variable (LITS's ``shaded[p] and shaded[q] and q in not room(p)`` under ``each
        shape s``) is looked up, not rebuilt, for each of its values."""
        if self.decided_directions and (split := _directions().split_lit(self, f)) is not None:  # p + dir[p]
            return split
        if type(f) in _CONNECTIVES:
            key = self.binding_key(f)
            found = self.lit_memo.get(key, self)
            if found is self:
                found = self.lit_memo[key] = self.connective_lit(f)
            return found
        if type(f) is ast.Compare and (seen := self.sight_test(f)) is not None:
            return seen  # the commonest condition of a rule instance first (a count along a line of sight)
        if isinstance(f, ast.At):
            p = self.cell_of(f.cell)
            if p is None:
                return False
            lits = self.decision_lits.get(f.name.id) if f.name.id not in self.bound else None
            return lits[p] if lits is not None else self.members(f.name, {p}).get(p, False)
        if isinstance(f, ast.AtIs) and isinstance(f.value, ast.At):
            return self.same_value(f)
        if isinstance(f, ast.AtIs):
            p = self.cell_of(f.cell)
            if p is None:
                return False
            lits = self.enum_lits[f.name.id][p]
            if lits is None:
                return False
            value = self.resolve_value(f.name.id, f.value, p)
            if not isinstance(f.value, ast.TileValue):
                self.check_in_domain(f.name.id, value, f.value)
            return lits.get(value, False)
        if isinstance(f, ast.Is) and is_number(f.decision, self.sym,
                                               self.bound.get(f.decision.id, ("",))[0] == "int"):
            return self.lit_of(ast.Compare(f.decision, "==", f.value, f.span))  # k = 3
        if isinstance(f, ast.Is):  # p = q, two cells or two corners
            if self.is_corner(f.decision):
                return self.corner_of(f.decision) == self.corner_of(f.value)
            return self.cell_of(f.decision) == self.cell_of(f.value)
        if isinstance(f, ast.Not):
            return neg(self.lit_of(f.operand))
        if isinstance(f, ast.IsKnown):
            return self.known(f.operand)
        if isinstance(f, (ast.Subset, ast.Avoids)):
            a = self.subset_left(f)
            b = self.members(f.right, set(a))
            parts = [self.combine(False, [neg(x), neg(b.get(i, False)) if isinstance(f, ast.Avoids)
                                          else b.get(i, False)], i) for i, x in a.items()]
            return self.combine(True, parts, None)
        if isinstance(f, ast.Compare) and (owned := comparison_of(f)) is not None:
            construct, own, other = owned
            return construct.compare_lit(self, f, own, other)
        if isinstance(f, ast.Compare) and f.op == "==" and is_condition(f.left, self.sym):  # equivalence
            a, b = self.lit_of(f.left), self.lit_of(f.right)
            return self.combine(False, [self.combine(True, [a, b], None), self.combine(True, [neg(a), neg(b)], None)],
                                None)
        if isinstance(f, ast.Compare):
            terms, rhs, op = self.comparison(f)
            return self.reify(terms, op, rhs)
        if isinstance(f, ast.AllDifferent):
            return self.combine(True, [self.reify(terms, Cmp.LE, 1) for terms in self.value_sums(f)], None)
        if isinstance(f, ast.Aggregate) and f.fn in ("all", "any"):
            return self.combine(f.fn == "all", self.over(f, self.lit_of), None)
        if isinstance(f, ast.IsPiece):
            # imported on use, not at start-up: a spec without shapes loads no placements
            from gridlang.compiler.pieces import piece_lit

            return piece_lit(self, f)
        if (construct := construct_of(f)) is not None:
            return construct.lit(self, f)
        raise SemanticError("expected a condition", getattr(f, "span", None), source=self.spec.source)

    def loop_guard(self, st: ast.ForEach) -> ast.Expr | None:
        """A of a ``for each`` whose body is ``require A implies B`` with A not naming the loop's
        variable (found once per node), else None: evaluated once before the loop, not per value."""
        found = self.owned.get(("guard", id(st)))
        if found is None or found[0] is not st:
            body = st.body.formula if isinstance(st.body, ast.Holds) else None
            guard = body.left if isinstance(body, ast.Implies) else None
            if guard is not None and st.var.id in names_in(guard):
                guard = None
            found = self.owned["guard", id(st)] = (st, guard)
        return found[1]

    def connective_lit(self, f: ast.And | ast.Or | ast.Implies) -> CellValue:
        """The literal of an ``and``, ``or`` or ``implies`` (a constant that decides it ends the evaluation)."""
        if isinstance(f, ast.Implies):
            left = self.lit_of(f.left)
            return True if left is False else self.combine(False, [neg(left), self.lit_of(f.right)], None)
        is_and, parts = isinstance(f, ast.And), []
        for g in f.operands:
            v = self.lit_of(g)
            if v is (not is_and):
                return v
            parts.append(v)
        return self.combine(is_and, parts, None)

    # --------------------------------------------------------------- shapes


    def same_value(self, f: ast.AtIs) -> CellValue:
        """``D[p] = D[q]``: the ``or`` over D's values v of ``D[p]=v and D[q]=v``; for a Boolean D,
        both true or both false (a cell off the grid or off D's cells has no value, so it equals only another such)."""
        p, q = self.cell_of(f.cell), self.cell_of(f.value.cell)
        name = f.name.id
        if name in self.enum_lits:
            left = (self.enum_lits[name][p] or {}) if p is not None else {}
            right = (self.enum_lits[name][q] or {}) if q is not None else {}
            if not left or not right:
                return not left and not right
            both = [self.combine(True, [x, right[v]], None) for v, x in left.items() if v in right]
            return self.combine(False, both, None)
        a = False if p is None else self.decision_lits[name][p]
        b = False if q is None else self.decision_lits[name][q]
        return self.combine(False, [self.combine(True, [a, b], None), self.combine(True, [neg(a), neg(b)], None)], None)

    def assert_same(self, f: ast.AtIs, guard: tuple[int, ...], same: bool) -> None:
        """State ``D[p] = D[q]`` (``same``) or ``D[p] != D[q]`` under ``guard``, value by value.

        The direct encoding, with no auxiliary variable: for each value v of
        an enumerated D, ``guard & D[p]=v -> D[q]=v`` and back (same), or
        ``~(guard & D[p]=v & D[q]=v)`` (different); for a Boolean D, v runs
        over in and out. With D's one-hot rows these clauses are the rows
        ``g + x[p,v] - x[q,v] <= 1`` of a MILP, where the reified form
        (:meth:`same_value`, ``2k + 1`` auxiliary variables for k values)
        needs its auxiliaries and their definitions. Size: ``2k`` clauses
        (same) or ``k`` (different), each once per unordered pair of cells
        and guard.
        """
        p, q = self.cell_of(f.cell), self.cell_of(f.value.cell)
        name = f.name.id
        if name in self.enum_lits:
            left = (self.enum_lits[name][p] or {}) if p is not None else {}
            right = (self.enum_lits[name][q] or {}) if q is not None else {}
        else:
            a = False if p is None else self.decision_lits[name][p]
            b = False if q is None else self.decision_lits[name][q]
            left, right = {True: a, False: neg(a)}, {True: b, False: neg(b)}  # off the grid: out
        if not left or not right:  # a cell off D's cells has no value: it equals only another such
            equal = not left and not right
            self.clause_under(guard, [equal if same else not equal], f)
            return
        key = (name, frozenset((p, q)), frozenset(guard), same)
        if key in self.stated_same:
            return
        self.stated_same.add(key)
        off = [-g for g in guard]
        span = self.current.span if self.current is not None else None
        for v in dict.fromkeys(list(left) + list(right)):
            a, b = left.get(v, False), right.get(v, False)
            if same:
                self.clause(off + [neg(a), b], span)
                self.clause(off + [neg(b), a], span)
            else:
                self.clause(off + [neg(a), neg(b)], span)

    def over(self, agg: ast.Aggregate, fn) -> list:
        """``fn(body)`` for each cell (corner, border) of an aggregate's domain, with its variable bound to it."""
        if self.is_corners(agg.domain):
            points = [("corner", v) for v in self.corner_set(agg.domain)]
        elif self.is_borders(agg.domain):
            points = [("border", b) for b in self.border_set(agg.domain)]
        else:
            points = [("cell", i) for i in self.fixed_members(agg.domain, f"{agg.fn}(... for {agg.var.id} in S)")]
        out = []
        for kind, point in points:
            self.bind(agg.var.id, kind, point)
            out.append(fn(agg.body))
        self.unbind(agg.var.id)
        return out

    def comparison(self, f: ast.Compare) -> tuple[tuple[tuple[int, int], ...], int, Cmp]:
        """``left OP right`` as ``(terms, rhs, op)`` with op one of ``<=``, ``>=``, ``==``."""
        lt, lc = self.linear(f.left)
        rt, rc = self.linear(f.right)
        coef: dict[int, int] = {v: c for c, v in lt}
        for c, v in rt:
            coef[v] = coef.get(v, 0) - c
        terms = tuple((c, v) for v, c in sorted(coef.items()) if c)
        rhs, op = rc - lc, f.op
        if op == "<":
            op, rhs = "<=", rhs - 1
        elif op == ">":
            op, rhs = ">=", rhs + 1
        self.check_value_compare(f)
        return terms, rhs, {"<=": Cmp.LE, ">=": Cmp.GE, "==": Cmp.EQ}[op]

    def check_value_compare(self, f: ast.Compare) -> None:
        """``D[p] == N`` (or ``bridge[p, q] == N``) with N known before solving must name a value of D
        (else an error located where N comes from)."""
        for side, other in ((f.left, f.right), (f.right, f.left)):
            if (construct := construct_of(side)) is not None:
                construct.check_compare(self, f, side, other)  # bridge[p, q] == N: the construct's
                continue
            if not (isinstance(side, ast.At) and side.name.id in self.domain_values) or f.op != "==":
                continue
            if isinstance(other, ast.At) and self.cell_of(other.cell) is None:
                continue  # D[q] off the grid is 0, no value asked for: the comparison is false there, not an error
            value = self.constant(other)
            if value is None or value in self.domain_sets[side.name.id]:
                continue
            message = (f"{side.name.id}[...] == {value} cannot hold: {value} is not a value "
                       f"of {side.name.id!r} ({show_set(self.domain_values[side.name.id])})")
            p = self.cell_of(side.cell)
            if p is None:
                continue
            if self.map_data is not None and self.mentions_cell_value(other):
                r, c = self.grid.cell(p)
                raise MapError(f"the rule 'require {self.rule_text(self.current)}' ({self.current.span}) cannot hold "
                               f"at row {r + 1}, column {c + 1} ({self.grid.chars[p]!r}): {message}",
                               self.map_data.span(r, c), source=self.map_data.source)
            raise SemanticError(message, f.span, source=self.spec.source)

    @staticmethod
    def mentions_cell_value(e: ast.Expr) -> bool:
        return isinstance(e, ast.Value) or any(isinstance(x, ast.Value) for x in getattr(e, "operands", ()))

    def value_sums(self, f: ast.AllDifferent) -> list[tuple[tuple[int, int], ...]]:
        """For ``all different D in S``: per value v, the terms of ``sum of D[q]=v over S``."""
        cells = sorted(i for i, v in self.members(f.cells).items() if v is True)
        per_cell = self.enum_lits[f.decision.id]
        out = []
        for value in self.domain_values[f.decision.id]:
            lits = [per_cell[i][value] for i in cells if per_cell[i] is not None and value in per_cell[i]]
            if len(lits) > 1:
                out.append(tuple((1, l) for l in lits))
        return out

    def one_hot_values(self, terms: tuple[tuple[int, int], ...], op: Cmp, rhs: int) -> list[int] | None:
        """The literals of the values that meet ``sum terms OP rhs``, when ``terms`` are literals of one
        cell's enumerated decision only (``digit[g] == 4``); else None.

        The decision's one-hot row makes the sum the coefficient of its one
        true literal (0 for a value the terms leave out), so the row holds
        exactly when one of these literals does: one clause, where the row
        itself would be a pseudo-Boolean constraint for the clause-based
        backends (a sum of 36 weighted literals for a 6x6 Fillomino's cell).
        """
        if not hasattr(self, "_one_hot"):
            self._one_hot = {lit: (name, cell) for name, per_cell in self.enum_lits.items()
                             for cell, lits in enumerate(per_cell) if lits for lit in lits.values()}
        groups = {self._one_hot.get(v) for _, v in terms}
        if len(groups) != 1 or None in groups:
            return None
        name, cell = groups.pop()
        coef = {v: c for c, v in terms}
        return [lit for lit in self.enum_lits[name][cell].values() if op.holds(coef.get(lit, 0), rhs)]

    @staticmethod
    def never(terms: tuple[tuple[int, int], ...], op: Cmp, rhs: int) -> bool:
        """Whether ``sum terms OP rhs`` fails for every value of its 0/1 literals."""
        lo = sum(c for c, _ in terms if c < 0)
        hi = sum(c for c, _ in terms if c > 0)
        return op is Cmp.LE and lo > rhs or op is Cmp.GE and hi < rhs or op is Cmp.EQ and not lo <= rhs <= hi

    @definition
    def reify(self, terms: tuple[tuple[int, int], ...], op: Cmp, rhs: int) -> CellValue:
        """A literal b with ``b <-> (sum terms OP rhs)``.

        Cardinality cases are Tseitin definitions (``sum >= 1`` is the
        ``or`` of the literals, ``sum <= 0`` the ``and`` of their
        negations, and so on); otherwise b gets two half-reified
        :class:`Linear` rows, ``b -> sum OP rhs`` and ``~b -> the negated
        comparison`` (for ``==``, the negation ``<= rhs-1 or >= rhs+1`` takes
        one more auxiliary variable to choose the side).
        """
        lo = sum(c for c, _ in terms if c < 0)
        hi = sum(c for c, _ in terms if c > 0)
        # the literals as seen with positive coefficients: c*l = |c|*(-l) + c for c < 0
        pos = [(c, l) if c > 0 else (-c, -l) for c, l in terms]
        shift = -lo  # sum c l = sum |c| l' + lo
        k = rhs + shift
        if op is Cmp.LE:
            if hi <= rhs:
                return True
            if lo > rhs:
                return False
        elif op is Cmp.GE:
            if lo >= rhs:
                return True
            if hi < rhs:
                return False
        else:
            if not lo <= rhs <= hi:
                return False
            if lo == hi:
                return True
        if all(c == 1 for c, _ in pos):
            lits = [l for _, l in pos]
            n = len(lits)
            if op is Cmp.GE and k == 1 or op is Cmp.LE and k == n - 1:
                return self.combine(False, lits if op is Cmp.GE else [-l for l in lits], None)
            if op is Cmp.LE and k == 0 or op is Cmp.GE and k == n or op is Cmp.EQ and k in (0, n):
                return self.combine(True, [-l for l in lits] if k == 0 else lits, None)
        key = (terms, op, rhs)
        if key in self.reified:
            return self.reified[key]
        self.aux_count += 1
        b = self.new_var("aux", None, self.aux_count)
        span = self.current.span if self.current is not None else None
        if op is Cmp.EQ:
            self.constraints.append(Linear(terms, Cmp.EQ, rhs, (b,), span))
            below, above = rhs - 1 >= lo, rhs + 1 <= hi
            if below and above:
                self.aux_count += 1
                side = self.new_var("aux", None, self.aux_count)
                self.constraints.append(Linear(terms, Cmp.LE, rhs - 1, (-b, side), span))
                self.constraints.append(Linear(terms, Cmp.GE, rhs + 1, (-b, -side), span))
            elif below:
                self.constraints.append(Linear(terms, Cmp.LE, rhs - 1, (-b,), span))
            else:
                self.constraints.append(Linear(terms, Cmp.GE, rhs + 1, (-b,), span))
        elif op is Cmp.LE:
            self.constraints.append(Linear(terms, Cmp.LE, rhs, (b,), span))
            self.constraints.append(Linear(terms, Cmp.GE, rhs + 1, (-b,), span))
        else:
            self.constraints.append(Linear(terms, Cmp.GE, rhs, (b,), span))
            self.constraints.append(Linear(terms, Cmp.LE, rhs - 1, (-b,), span))
        self.reified[key] = b
        return b

    # ----------------------------------------------------------------- rules
    def holds(self, st: ast.Holds) -> None:
        """``require F``."""
        self.assert_formula(st.formula, ())

    def construct_rule(self, f: ast.Compare, guard: tuple[int, ...]) -> bool:
        """State the comparison ``f`` under ``guard`` through a construct, and say whether one took it: the
        construct that owns a side of it, or one that states its form its own way (else False: the
        compiler lowers it as any comparison). Which side a construct owns is found once per node."""
        if self.decided_directions and _directions().split_rule(self, f, guard):  # p + dir[p]: once per value
            return True
        found = self.owned.get(id(f))
        if found is None or found[0] is not f:
            found = self.owned[id(f)] = (f, comparison_of(f))
        owned = found[1]
        if owned is not None:
            construct, own, other = owned
            construct.assert_compare(self, f, own, other, guard)
            return True
        return any(construct.lower_rule(self, f, guard) for construct in rule_lowerings())

    def is_equivalence(self, f: ast.Compare) -> bool:
        """Whether ``f`` (an ``==``) compares two conditions, found once per node."""
        found = self.owned.get(("condition", id(f.left)))
        if found is None or found[0] is not f.left:
            found = self.owned["condition", id(f.left)] = (f.left, is_condition(f.left, self.sym))
        return found[1]

    def assert_formula(self, f: ast.Expr, guard: tuple[int, ...]) -> None:
        """State that ``f`` holds whenever every literal of ``guard`` does."""
        if self.decided_directions and _directions().split_rule(self, f, guard):  # p + dir[p]: once per value
            return
        span = self.current.span if self.current is not None else None
        if isinstance(f, ast.And):
            for g in f.operands:
                self.assert_formula(g, guard)
            return
        if isinstance(f, ast.Aggregate) and f.fn == "all":
            self.over(f, lambda body: self.assert_formula(body, guard))
            return
        if isinstance(f, ast.Implies):
            a = self.lit_of(f.left)
            if a is False:
                return
            self.assert_formula(f.right, guard if a is True else _add(guard, a))
            return
        if isinstance(f, ast.Not):
            pushed = self.pushed.get(id(f), (None, None))
            if pushed[0] is not f:  # once per node: the nodes made keep their identity for binding_key
                pushed = self.pushed[id(f)] = (f, _push_not(f.operand))
            pushed = pushed[1]
            if pushed is not None:
                self.assert_formula(pushed, guard)
                return
        if isinstance(f, ast.Compare) and self.construct_rule(f, guard):
            return
        if isinstance(f, ast.Compare) and not guard:
            self.cap_component(f)
        equivalence = f.operand if isinstance(f, ast.Not) else f
        if isinstance(equivalence, ast.Compare) and equivalence.op == "==" and self.is_equivalence(equivalence):
            # F == G: (not F or G) and (F or not G); F != G: (F or G) and (not F or not G)
            a, b = self.lit_of(equivalence.left), self.lit_of(equivalence.right)
            b = neg(b) if f is not equivalence else b
            self.clause_under(guard, [neg(a), b], f)
            self.clause_under(guard, [a, neg(b)], f)
            return
        if isinstance(f, ast.Compare) and (seen := self.sight_test(f)) is not None:
            self.clause_under(guard, [seen], f)
            return
        if isinstance(f, ast.Compare):
            terms, rhs, op = self.comparison(f)
            if not terms or self.never(terms, op, rhs):
                if not terms and op.holds(0, rhs):
                    return
                self.fails(guard, f)
                return
            allowed = self.one_hot_values(terms, op, rhs)
            if allowed is not None:
                self.clause_under(guard, allowed, f)
                return
            self.constraints.append(Linear(terms, op, rhs, guard, span))
            return
        if isinstance(f, ast.AtIs) and isinstance(f.value, ast.At):
            self.assert_same(f, guard, True)
            return
        if isinstance(f, ast.Not) and isinstance(f.operand, ast.AtIs) and isinstance(f.operand.value, ast.At):
            self.assert_same(f.operand, guard, False)
            return
        if isinstance(f, ast.IsPiece):
            # imported on use, not at start-up: a spec without shapes loads no placements
            from gridlang.compiler.pieces import assert_piece

            assert_piece(self, f, guard)
            return
        if (construct := construct_of(f)) is not None and construct.statement:
            construct.assert_rule(self, f, guard)  # a rule of its own (line is a loop)
            return
        if isinstance(f, ast.ConsistsOf):
            # imported on use, not at start-up: a spec without shapes loads no placements
            from gridlang.compiler.pieces import assert_consists

            assert_consists(self, f)
            return
        if isinstance(f, ast.AllDifferent):
            cells = [i for i, v in self.members(f.cells).items() if v is True]
            exact = not guard and len(cells) == len(self.domain_values[f.decision.id]) and all(
                self.enum_lits[f.decision.id][i] is not None for i in cells)
            for terms in self.value_sums(f):
                self.constraints.append(Linear(terms, Cmp.EQ if exact else Cmp.LE, 1, guard, span))
            return
        if isinstance(f, (ast.Subset, ast.Avoids)):
            a = self.subset_left(f)
            b = self.members(f.right, set(a))
            for i, x in a.items():
                y = b.get(i, False)
                self.clause_under(guard, [neg(x), neg(y) if isinstance(f, ast.Avoids) else y], f, i)
            return
        if isinstance(f, ast.Or) or isinstance(f, ast.Aggregate) and f.fn == "any":
            parts = list(f.operands) if isinstance(f, ast.Or) else None
            lits = [self.lit_of(g) for g in parts] if parts is not None else self.over(f, self.lit_of)
            self.clause_under(guard, lits, f)
            return
        self.clause_under(guard, [self.lit_of(f)], f)

    def clause_under(self, guard: tuple[int, ...], lits: list[CellValue], f, cell: int | None = None) -> None:
        """The clause ``~guard | lits``; a rule that can never hold is an error."""
        if any(v is True for v in lits):
            return
        body = [v for v in lits if v is not False]
        if not body and not guard:
            self.fails(guard, f, cell)
            return
        self.clause([-g for g in guard] + body, self.current.span if self.current is not None else None)

    def fails(self, guard: tuple[int, ...], f: ast.Expr, cell: int | None = None) -> None:
        """A rule instance that is false whatever the decisions: a clause forbidding its guard, or,
        without a guard, the empty clause of the instance (the puzzle is infeasible, and the
        why-tools name the instance: :meth:`false_instance`)."""
        if guard:
            self.clause([-g for g in guard], self.current.span if self.current is not None else None)
            return
        self.false_instance(self.current)

    def binding_text(self) -> str:
        """``p = row 3, column 4; r = row 2``: the ``for each`` bindings in force (cells counted from 1)."""
        return "; ".join(binding_parts(self.grid, ((name, kind, value) for name, (kind, value) in self.bound.items()
                                                   if HIDDEN not in name)))


def _directions():
    """:mod:`gridlang.compiler.directions`, for a spec with a decided direction (``p + dir[p]``)."""
    # imported on use, not at start-up: a spec without a decided direction never asks
    from gridlang.compiler import directions

    return directions


def _push_not(f: ast.Expr) -> ast.Expr | None:
    """``not f`` with the negation moved one level in (De Morgan), or None when it cannot move."""
    if isinstance(f, ast.Not):
        return f.operand
    if isinstance(f, (ast.And, ast.Or)):
        parts = tuple(ast.Not(g, g.span) for g in f.operands)
        return ast.Or(parts, f.span) if isinstance(f, ast.And) else ast.And(parts, f.span)
    if isinstance(f, ast.Implies):
        return ast.And((f.left, ast.Not(f.right, f.right.span)), f.span)
    if isinstance(f, ast.Aggregate) and f.fn in ("all", "any"):
        return ast.Aggregate("any" if f.fn == "all" else "all", ast.Not(f.body, f.body.span), f.var, f.domain, f.span)
    if isinstance(f, ast.Compare) and f.op != "==":
        op = {"<=": ">", "<": ">=", ">=": "<", ">": "<="}[f.op]
        return ast.Compare(f.left, op, f.right, f.span)
    return None


def _add(guard: tuple[int, ...], lit: int) -> tuple[int, ...]:
    return guard if lit in guard else guard + (lit,)
