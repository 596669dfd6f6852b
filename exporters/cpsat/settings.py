"""The CP-SAT backend's settings: CP-SAT's own parameters (``--set cpsat.NAME``), checked against
its parameter proto before solving and set on every run, and the default portfolio's workers and subsolvers."""

from __future__ import annotations

from typing import Mapping

from gridlang.core.errors import BackendError, closest
from gridlang.core.nodes import Record, field
from gridlang.core.settings import Settings, frozen_mapping

OPTIMIZATION_SUBSOLVERS = ("max_lp", "core", "default_lp", "no_lp", "quick_restart", "reduced_costs")
"""The full-problem subsolvers of a model with an objective (CP-SAT's names):
CP-SAT's own list for 8 workers, ``max_lp`` first. CP-SAT runs the first
``num_workers - 1`` of them, beside a worker for first solutions."""
OPTIMIZATION_WORKERS = 2
"""Workers of a model with an objective, by default: ``max_lp`` and a helper."""
SATISFACTION_WORKERS = 4
"""Workers of a model without an objective, by default (CP-SAT's own portfolio of that size)."""


class CpSatSettings(Settings, Record, slots=False):
    """The CP-SAT backend's settings: CP-SAT's own parameters.

    Every ``cpsat.NAME`` key of ``SolveOptions.extra`` is the CP-SAT
    parameter ``NAME`` (``--set cpsat.num_workers=4``), checked against
    CP-SAT's parameter proto (``SatParameters``) before solving and set on
    every solver run after gridlang's own choices (workers, time limit,
    log), which it overrides; except ``cpsat.window``, gridlang's own. An
    enum parameter takes its value's name, in any case, or number
    (``--set cpsat.search_branching=fixed_search``).

    Attributes:
        parameters: parameter name -> value.
        window: run the window start (:mod:`gridlang.ir.connectivity.windows`)
            where it applies; ``--set cpsat.window=false`` turns it off.
    """

    parameters: Mapping[str, object] = field(default_factory=frozen_mapping)
    window: bool = True

    @classmethod
    def read(cls, backend: str, extra: Mapping[str, object]) -> CpSatSettings:
        """Every ``<backend>.NAME`` key of ``extra`` as the CP-SAT parameter ``NAME``, checked.

        Raises:
            BackendError: CP-SAT has no such parameter, or refuses the
                value's type, or an enum parameter has no such value.
        """
        prefix = backend + "."
        given = {k[len(prefix):]: v for k, v in extra.items() if k.startswith(prefix)}
        window = given.pop("window", True)
        out = cls(frozen_mapping(given), window)
        out.check(backend)
        return out

    def check(self, backend: str) -> None:
        """Set every parameter on a scratch ``SatParameters``.

        Raises:
            BackendError: an unknown parameter, a value of a type it does not take, or
                an enum parameter's value that is none of its names or numbers.
        """
        if not isinstance(self.window, bool):
            raise BackendError(f"backend {backend!r}: setting 'window' takes true or false, not {self.window!r}")
        if not self.parameters:
            return
        from ortools.sat import (
            sat_parameters_pb2,  # protobuf's, for its field descriptors
        )

        scratch = sat_parameters_pb2.SatParameters()
        fields = scratch.DESCRIPTOR.fields_by_name
        for name, value in self.parameters.items():
            if name not in fields:
                close = closest(name, list(fields) + ["window"])
                raise BackendError(f"CP-SAT has no parameter {name!r}"
                                   + (f"; did you mean {backend}.{close}?" if close else ""))
            if fields[name].is_repeated and (name not in _REPEATED or not isinstance(value, str)):
                raise BackendError(f"CP-SAT parameter {name!r} is a list; --set gives only "
                                   f"{', '.join(sorted(_REPEATED))}, as names separated by commas, "
                                   f"not {value!r}")
            if fields[name].enum_type is not None:
                _enum_number(name, value, {v.name: v.number for v in fields[name].enum_type.values})
                continue
            try:
                set_parameter(scratch, name, value)
            except (AttributeError, TypeError, ValueError) as e:
                kind = type(getattr(scratch, name)).__name__
                raise BackendError(f"CP-SAT parameter {name!r} takes a value of type {kind}, not {value!r}") from e
        conflicts = self.parameters.get("max_number_of_conflicts")
        if conflicts is not None and conflicts <= 0:
            # CP-SAT takes it and stops before the first conflict: every run UNKNOWN.
            raise BackendError(f"CP-SAT parameter 'max_number_of_conflicts' must be at least 1, not {conflicts!r}")
        if conflicts is not None:
            conflict_limit_workers(self.parameters.get("num_workers"), "num_workers")
        for name, why in REFUSED.items():
            if name in self.parameters and self.parameters[name] not in (False, 0):
                raise BackendError(f"CP-SAT parameter {name!r} is refused: {why}")


REFUSED = {
    "fix_variables_to_their_hinted_value": "gridlang hints each cut round with the last answer, so CP-SAT "
                                           "would search only that answer and call the puzzle infeasible "
                                           "or that answer optimal without a proof",
    "enumerate_all_solutions": "gridlang enumerates answers itself (--count, --unique) with blocking "
                               "clauses; CP-SAT's own enumeration finds every answer before it returns "
                               "and reports only the last",
}
"""CP-SAT parameters that change what its answers mean, each refused with the reason."""


def conflict_limit_workers(workers: object, where: str) -> None:
    """Refuse ``max_number_of_conflicts`` beside more than one worker.

    CP-SAT applies the limit to each of its internal SAT searches, not to a
    run: with several workers, its neighbourhood searches never reach it
    and the run does not stop (a 14x12 daily still ran after 45 s). One
    worker stops at it.

    Raises:
        BackendError: ``workers`` (from ``where``) is more than 1.
    """
    if isinstance(workers, int) and workers > 1:
        raise BackendError(f"CP-SAT parameter 'max_number_of_conflicts' holds for one worker only (CP-SAT counts "
                           f"conflicts per internal search, and its other workers never stop at it); "
                           f"it runs with one worker, not {where} {workers}: give a time limit instead")


_REPEATED = frozenset({"subsolvers", "extra_subsolvers", "ignore_subsolvers", "filter_subsolvers"})
"""CP-SAT's lists of names, which a ``--set`` gives comma-separated."""


def set_parameter(params, name: str, value: object) -> None:
    """Set CP-SAT parameter ``name`` on a fresh ``params``; one of :data:`_REPEATED`
    from a comma-separated string (``--set cpsat.subsolvers=max_lp,core`` runs
    those two full-problem workers instead of the default portfolio); an enum
    of ``cp_model_helper.SatParameters`` from its value's name or number
    (:func:`_enum_number`).

    Raises:
        TypeError, ValueError, AttributeError: the proto refuses the value.
        BackendError: an enum parameter has no such value.
    """
    if name in _REPEATED:
        getattr(params, name).extend(item.strip() for item in str(value).split(",") if item.strip())
        return
    kind = type(getattr(params, name))
    members = getattr(kind, "__members__", None)
    if members is not None:
        value = kind(_enum_number(name, value, {key: int(member) for key, member in members.items()}))
    setattr(params, name, value)


def _enum_number(name: str, value: object, numbers: Mapping[str, int]) -> int:
    """The number of ``value`` (a name, in any case, or a number) among ``numbers``,
    the values of CP-SAT's enum parameter ``name`` (name -> number, in the proto's order).

    Raises:
        BackendError: ``value`` is none of the names or numbers.
    """
    if isinstance(value, str):
        by_name = {key.upper(): number for key, number in numbers.items()}
        if value.strip().upper() in by_name:
            return by_name[value.strip().upper()]
    elif isinstance(value, int) and not isinstance(value, bool) and value in numbers.values():
        return value
    raise BackendError(f"CP-SAT parameter {name!r} takes one of {', '.join(numbers)} (or their numbers), "
                       f"not {value!r}")
