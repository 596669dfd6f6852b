"""CP-SAT's model proto (``cp_model.proto``), written straight through ``cp_model_helper``'s bindings as
``ortools.sat.python.cp_model`` writes it, without that module's import of pandas and numpy."""

from __future__ import annotations

from gridlang.ir.model import affine

_INT64 = (-(2 ** 63), 2 ** 63 - 1)


class Proto:
    """A CP-SAT model, written straight into CP-SAT's model proto (``cp_model.proto``).

    The proto is the solver's own input format, the one every OR-Tools
    front end writes; building it through ``cp_model_helper``'s bindings
    skips ``ortools.sat.python.cp_model``, whose import (pandas among it)
    costs some 0.3 s of a one-off ``gridlang solve`` (docs/benchmarks.md).
    Every constraint is stated as ``cp_model`` states it, so the proto is
    the same, text for text (``tests/backends/test_cpsat.py``).

    A reference is a variable's index ``i`` or, for a Boolean, ``~i`` (its
    negation, CP-SAT's ``-i - 1``). Linear terms are ``(coefficient,
    reference)`` pairs; a negated Boolean ``~x`` is ``1 - x``.
    """

    def __init__(self, name: str):
        from ortools.sat.python import cp_model_helper

        self.helper = cp_model_helper
        self.proto = cp_model_helper.CpModelProto()
        self.proto.name = name
        self._variables = self.proto.variables
        self._constraints = self.proto.constraints
        self._count = 0
        self._constants: dict[int, int] = {}

    def int_var(self, low: int, high: int, name: str = "") -> int:
        """A new integer variable in ``[low, high]``; its index."""
        v = self._variables.add()
        v.domain.extend((low, high))
        if name:
            v.name = name
        self._count += 1
        return self._count - 1

    def bool_var(self, name: str) -> int:
        """A new Boolean variable; its index."""
        return self.int_var(0, 1, name)

    def constant(self, value: int) -> int:
        """A variable fixed to ``value`` (one per value)."""
        if value not in self._constants:
            self._constants[value] = self.int_var(value, value)
        return self._constants[value]

    def constants(self) -> dict[int, int]:
        """The variables :meth:`constant` made: index -> value."""
        return {index: value for value, index in self._constants.items()}

    def bool_or(self, refs, enforce=()) -> None:
        """At least one of ``refs`` holds (when every ``enforce`` literal does)."""
        ct = self._constraints.add()
        if enforce:
            ct.enforcement_literal.extend(list(enforce))
        ct.bool_or.literals.extend(list(refs))

    def implication(self, a: int, b: int) -> None:
        """``a`` implies ``b``."""
        ct = self._constraints.add()
        ct.enforcement_literal.append(a)
        ct.bool_and.literals.append(b)

    def at_most_one(self, refs) -> None:
        self._constraints.add().at_most_one.literals.extend(list(refs))

    def exactly_one(self, refs) -> None:
        self._constraints.add().exactly_one.literals.extend(list(refs))

    def linear(self, terms, low: int | None, high: int | None, enforce=()) -> None:
        """``low <= sum of terms <= high`` (None: unbounded), when every ``enforce`` literal holds."""
        self._row(terms, (low, high), enforce)

    def _row(self, terms, bounds, enforce) -> None:
        """``sum of terms`` in the union of the intervals ``bounds`` (pairs of bounds, None: unbounded)."""
        offset, vars_ = _linear(terms)
        ct = self._constraints.add()
        if enforce:
            ct.enforcement_literal.extend(list(enforce))
        row = ct.linear
        row.vars.extend(list(vars_))
        row.coeffs.extend(list(vars_.values()))
        row.domain.extend(_INT64[k % 2] if b is None else b - offset for k, b in enumerate(bounds))

    def linear_apart(self, terms, enforce=()) -> None:
        """``sum of terms != 0`` (when every ``enforce`` literal holds)."""
        self._row(terms, (None, -1, 1, None), enforce)

    def table(self, variables, rows) -> None:
        """The variables (indices, Booleans) take one of ``rows`` (lists of 0 and 1): CP-SAT's table constraint."""
        ct = self._constraints.add().table
        ct.vars.extend(list(variables))
        for row in rows:
            ct.values.extend(row)

    def relimit(self, index: int, terms, low: int | None, high: int | None) -> None:
        """Move the bounds of linear constraint ``index``, made by :meth:`linear` from the same ``terms``."""
        offset, _ = _linear(terms)
        domain = self._constraints[index].linear.domain
        domain[0] = _INT64[0] if low is None else low - offset
        domain[1] = _INT64[1] if high is None else high - offset

    def circuit(self, arcs) -> None:
        """A circuit over ``(tail, head, literal)`` arcs (a self-loop skips its node)."""
        c = self._constraints.add().circuit
        for tail, head, lit in arcs:
            c.tails.append(tail)
            c.heads.append(head)
            c.literals.append(lit)

    def objective(self, terms, constant: int, maximize: bool) -> None:
        """Minimise (or maximise) ``sum of terms + constant``; a maximum is a negated minimum,
        scaled by -1, as ``cp_model`` writes it."""
        terms = list(terms)
        offset, vars_ = _linear(terms)
        sign = -1 if maximize and terms else 1  # a constant objective is written as a minimum
        obj = self.proto.objective
        obj.vars.extend(list(vars_))
        obj.coeffs.extend([sign * c for c in vars_.values()])
        obj.offset = sign * (offset + constant)
        obj.scaling_factor = sign

    def hint(self, refs, values) -> None:
        """Replace the solution hint: variable ``refs[i]`` takes ``values[i]``."""
        self.proto.clear_solution_hint()
        self.proto.solution_hint.vars.extend(list(refs))
        self.proto.solution_hint.values.extend([int(v) for v in values])


def _linear(terms) -> tuple[int, dict[int, int]]:
    """``terms`` (coefficient, reference) as a constant and a coefficient per variable,
    sorted by index, zeros dropped (:func:`gridlang.ir.model.affine`, whose literal ``l``
    is reference ``l - 1``, or ``l`` when negative)."""
    coefs, const = affine((c, ref + 1 if ref >= 0 else ref) for c, ref in terms)
    return const, {v: coefs[v] for v in sorted(coefs)}
