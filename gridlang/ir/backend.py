"""The contract between the IR and the solvers, and the backend registry.

A backend lowers a :class:`~gridlang.ir.model.Model` to one solver library and
answers with a :class:`Result`. Backends live one per module in
``gridlang.exporters`` and import their solver package lazily, inside the
module, so that ``gridlang check`` and ``gridlang backends`` work and start
fast when a solver is missing.

Each backend states which IR node kinds it lowers itself (``native``),
which connectivity strategies it offers (``connectivity``), its default,
and the file formats it can write. :meth:`Backend.prepare` hands every
other node kind to the shared decompositions of :mod:`gridlang.ir.transforms`;
a node that none removes is refused by name with :class:`BackendError`,
never dropped.
"""

from __future__ import annotations

import enum
import importlib
import math
from abc import ABC, abstractmethod
from typing import ClassVar, Collection, Iterable, Mapping

from gridlang.core.deadline import Deadline
from gridlang.core.errors import BackendError
from gridlang.core.nodes import Record, field, replace
from gridlang.core.settings import Settings, frozen_mapping
from gridlang.ir.model import (
    Assignment,
    Clause,
    Connected,
    Constraint,
    GraphConnected,
    Model,
    Sense,
)


class Status(enum.Enum):
    """What a solve proved.

    * ``OPTIMAL``: a solution, proved optimal: the solver's proved bound
      equals its objective value (with no objective, a solution that
      satisfies every constraint).
    * ``FEASIBLE``: a solution, optimality not proved: the time limit, or a
      limit of the solver's own given with ``--set`` (a gap, a conflict or
      node limit), stopped the search first; ``Result.bound`` is the bound
      proved by then.
    * ``INFEASIBLE``: proved that no solution exists.
    * ``UNKNOWN``: no solution and no proof (a time or solver limit).

    A backend reports what its solver proved, never what it was told to
    accept: a solver that calls an answer optimal within a gap has proved
    only its bound (:func:`proves_optimum`).
    """

    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"

    @property
    def has_solution(self) -> bool:
        """True for OPTIMAL and FEASIBLE."""
        return self in (Status.OPTIMAL, Status.FEASIBLE)


INT_TOL = 1e-6
"""Relative slack of a solver's bound past the integer it stands for (:func:`integral_bound`)."""


def integral_bound(bound: float | None, sense: Sense | None) -> float | None:
    """A proved bound on an integer-valued objective, rounded towards the incumbent.

    Every IR objective has integer coefficients, so a bound of 66.4 on a
    maximum proves 66. The solver's bound may sit a relative
    :data:`INT_TOL` past the integer it stands for; the slack is held
    below 0.5, so that a large bound (``10**9``) is never rounded past
    the next integer.

    Returns:
        The rounded bound, or None for no bound (None, infinite or NaN, or
        no objective).
    """
    if bound is None or sense is None or math.isinf(bound) or math.isnan(bound):
        return None
    slack = min(0.5, INT_TOL * max(1.0, abs(bound)))
    if sense is Sense.MAXIMIZE:
        return float(math.floor(bound + slack))
    return float(math.ceil(bound - slack))


def proves_optimum(value: int, bound: float | None, sense: Sense) -> bool:
    """Whether a proved ``bound`` shows that an answer of objective ``value`` is optimal.

    A solver stopped by a gap limit reports "optimal" with a bound past
    its answer's value (CP-SAT's ``absolute_gap_limit``, HiGHS's
    ``mip_rel_gap``); only a bound that the answer meets is a proof.

    Args:
        value: the answer's objective value.
        bound: the solver's proved bound (None: none given, which proves nothing).
        sense: the objective's sense.
    """
    rounded = integral_bound(bound, sense)
    if rounded is None:
        return False
    return value >= rounded if sense is Sense.MAXIMIZE else value <= rounded


class SolveOptions(Record, frozen=False):
    """Options every backend understands.

    Attributes:
        time_limit: wall-clock seconds, or None for no limit. It makes the
            :class:`~gridlang.core.deadline.Deadline` of a call that is given
            none; :func:`gridlang.solving.pipeline.solve` makes one for the whole
            command (parsing, every cut round, every solve of ``--unique``
            and ``--count``).
        deadline: the command's deadline (time limit and Ctrl-C), shared by
            every solve; None: a fresh one from ``time_limit`` per call.
            A solver that overruns it is stopped (see
            :func:`gridlang.core.deadline.run_solver`).
        workers: solver threads or portfolio workers; None for the backend's
            default (CP-SAT uses 8 even on 2 cores: its portfolio needs them).
        connectivity: a strategy name from the backend's ``connectivity``, or
            None for its default.
        mip_gap: relative MIP gap for the MILP backend (None: solver default).
        log: print the solver's own log to stderr.
        solutions: how many solutions the command asks for: 1, 2 for
            ``--unique``, N for ``--count N`` (``auto`` picks by it).
        extra: backend-specific settings, keyed ``"<backend>.<setting>"``
            (``{"cpsat.num_workers": 8}``, ``{"milp.warmstart": False}``,
            ``{"maxsat.rc2.exhaust": True}``), read into the backend's
            settings dataclass (:mod:`gridlang.core.settings`) before any solving.
        memory_limit: bytes; a model clearly larger is refused before
            solving (:func:`gridlang.core.memory.check`). None: no limit.
    """

    time_limit: float | None = None
    deadline: Deadline | None = None
    workers: int | None = None
    connectivity: str | None = None
    mip_gap: float | None = None
    log: bool = False
    extra: dict[str, object] = field(default_factory=dict)
    solutions: int = 1
    memory_limit: int | None = None

    def clock(self) -> Deadline:
        """The deadline to solve under: :attr:`deadline`, else a new one from :attr:`time_limit`."""
        return self.deadline if self.deadline is not None else Deadline(self.time_limit)


class Result(Record, frozen=False):
    """A backend's answer.

    Attributes:
        status: what was proved.
        assignment: the solution, when ``status.has_solution``.
        objective: the solver's objective value for it (None without an
            objective or a solution).
        bound: the best proved bound on the objective (None if unknown).
        seconds: wall-clock seconds spent in the backend (build and solve).
        build_seconds: the part of ``seconds`` spent building the solver model.
        stats: backend figures (``cut_rounds``, ``cuts``, ``variables``...).
    """

    status: Status
    assignment: Assignment | None = None
    objective: int | None = None
    bound: float | None = None
    seconds: float = 0.0
    build_seconds: float = 0.0
    stats: dict[str, object] = field(default_factory=dict)


class Session:
    """One model solved again and again as constraints are added to it.

    A uniqueness or counting run solves the puzzle, blocks the answer with
    a clause, and solves again (see :func:`gridlang.solving.pipeline.solve_model`).
    This class builds the solver model afresh for every :meth:`solve`, from
    the model and every constraint added so far, plus the cuts each earlier
    solve reported in ``stats["learned_cuts"]`` (valid for every answer, so
    the next solve starts where the last one stopped). A backend whose
    solver keeps its model between solves overrides it to hand over only
    the new rows (:class:`gridlang.exporters.milp.backend.MilpSession`).

    Attributes:
        backend: the backend that solves.
        model: the model as compiled, without the added constraints.
        options: the options of every solve; ``time_limit`` is per solve.
        settings: the backend's settings, made and checked once, when the
            session is made (:meth:`Backend.configure`).
        extra: the constraints added so far, and the learned cuts.

    Raises:
        BackendError: at creation, a setting the backend refuses.
    """

    def __init__(self, backend: "Backend", model: Model, options: SolveOptions, settings: Settings | None = None):
        self.backend = backend
        self.model = model
        self.options = options
        self.settings = settings if settings is not None else backend.configure(options)
        self.extra: list[Constraint] = []

    def add(self, constraints: Iterable[Constraint]) -> None:
        """Require ``constraints`` (clauses, linear rows) in every later solve."""
        self.extra.extend(constraints)

    def solve(self) -> Result:
        """Solve the model with everything added so far.

        Raises:
            BackendError: as :meth:`Backend.solve`.
        """
        model = self.model.with_constraints(tuple(self.extra)) if self.extra else self.model
        result = self.backend.solve(model, self.options, self.settings)
        self.extra.extend(result.stats.get("learned_cuts", ()))
        return result

    def release(self) -> None:
        """Let go of what the solver holds between solves (nothing here; the asp backend frees its
        clingo Control on a thread of its own); a later :meth:`solve` starts afresh. A caller that
        solves once releases the session when done (``with backend.session(...) as s``), so that the
        answer does not wait for the solver's teardown."""

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


class Backend(ABC):
    """One solver library.

    Subclasses set the class attributes and implement :meth:`solve`; those
    that can write files implement :meth:`write`.
    """

    name: ClassVar[str]
    library: ClassVar[str]
    """Import name of the solver package, checked by :meth:`available`."""
    description: ClassVar[str]
    connectivity: ClassVar[tuple[str, ...]]
    """Connectivity strategies offered; the first is the default."""
    formats: ClassVar[tuple[str, ...]] = ()
    imports: ClassVar[tuple[str, ...]] = ()
    """Modules the backend needs to solve, imported by :meth:`load_library`."""
    seeds_cuts: ClassVar[bool] = False
    """True when solving a rooted ``Connected`` computes the separator cuts
    of :func:`gridlang.ir.connectivity.separation.seed_cuts`, which import rustworkx (about
    0.02 s): :meth:`load_library` imports it then, so that it counts as
    start-up and not as solving."""
    shares_cores: ClassVar[bool] = False
    """True when ``SolveOptions.workers`` is the number of the solver's threads, each a share of
    the machine: a batch then gives each of its worker processes ``cores // workers`` of them
    (:mod:`gridlang.batch.run`). False for a solver whose thread count picks its search (clingo's
    portfolio) or that has one thread (MaxSAT)."""
    batch_settings: ClassVar[Mapping[str, object]] = frozen_mapping()
    """Settings (``NAME: value``, without the backend's prefix) a batch's worker processes solve with
    unless the batch is given them: the machine's cores are shared, one process each
    (:mod:`gridlang.batch.run`), so a backend whose default spends a second core on one solve
    (clingo's split search) keeps to what pays when every core is busy."""
    native: ClassVar[frozenset[type]]
    """The IR node types the backend lowers itself (``Clause``, ``Linear``,
    ``Connected``); :meth:`prepare` decomposes the others."""
    settings_class: ClassVar[type[Settings]] = Settings
    """The frozen dataclass of the backend's settings (:meth:`configure`)."""

    @classmethod
    def available(cls) -> bool:
        """True when the solver package can be imported."""
        import importlib.util  # imported on use: only `gridlang backends` asks, and a solve does not load it

        return importlib.util.find_spec(cls.library) is not None

    @classmethod
    def load_library(cls, model: Model | None = None, options: "SolveOptions | None" = None) -> None:
        """Import the solver modules now (the start-up cost a process pays
        once), so that solve times leave it out. ``model`` and ``options``
        tell a backend that picks per model (``auto``) which ones it needs.

        Raises:
            BackendError: a solver module is missing.
        """
        names = cls.imports
        if cls.seeds_cuts and (model is None or any(isinstance(c, Connected) and c.roots for c in model.constraints)):
            names += ("rustworkx",)
        for name in names:
            try:
                importlib.import_module(name)
            except ImportError as e:
                raise BackendError(f"backend {cls.name!r} is not available: {e}") from e

    def runs_as(self, model: Model, options: SolveOptions) -> str:
        """The concrete backend that solves ``model`` here: this one (``auto``
        names the one it picks, or the first of a race)."""
        return self.name

    def requested(self, options: SolveOptions, model: Model | None = None) -> str | None:
        """The connectivity strategy asked for, or None: ``options.connectivity`` (``--connectivity``),
        else the spec's ``connectivity`` statement (``model.info["spec_connectivity"]``) when this
        backend offers that strategy (a backend without it keeps its default)."""
        if options.connectivity is not None:
            return options.connectivity
        wished = model.info.get("spec_connectivity") if model is not None else None
        return wished if wished in self.connectivity else None

    def strategy(self, options: SolveOptions, model: Model | None = None) -> str:
        """The connectivity strategy to use, checked against :attr:`connectivity`: the one
        :meth:`requested`, else the backend's default.

        Raises:
            BackendError: the strategy is not one this backend offers.
        """
        chosen = self.requested(options, model) or self.connectivity[0]
        if chosen not in self.connectivity:
            raise BackendError(
                f"backend {self.name!r} has no connectivity strategy {chosen!r}; "
                f"it offers {', '.join(self.connectivity)}"
            )
        return chosen

    def configure(self, options: SolveOptions) -> Settings:
        """The backend's typed settings from ``options.extra``, checked before any solving.

        Returns:
            An instance of :attr:`settings_class`.

        Raises:
            BackendError: a ``<backend>.`` key names no setting, a value has
                the wrong type, or the backend cannot use a value (see
                :meth:`gridlang.core.settings.Settings.read`).
        """
        return self.settings_class.read(self.name, options.extra)

    def prepare(self, model: Model, native: Collection[type] | None = None,
                passes: Mapping[str, Mapping[str, object]] | None = None) -> Model:
        """The model this backend lowers: every node kind it does not lower
        natively decomposed by the shared passes of :mod:`gridlang.ir.transforms`.

        Args:
            model: the compiled model; it is not changed.
            native: the node types to keep; default :attr:`native`. A
                backend narrows it when a strategy asks for a kind to go
                through a pass (MaxSAT's ``tree`` connectivity).
            passes: keyword arguments of each pass, by pass name
                (``{"linear_to_clauses": {"encoding": "totalizer"}}``).

        A connectivity node with a root outside its members, which can never
        hold, becomes the empty clause first
        (:func:`falsify_absent_roots`), so that every
        backend and strategy calls such a map infeasible.

        Returns:
            ``model`` itself when the backend lowers every node kind it
            holds, else a new model whose variables start with ``model``'s.

        Raises:
            BackendError: a node that the backend can neither lower nor get
                decomposed, named with the spec line it came from.
        """
        model = falsify_absent_roots(model)
        keep = self.native if native is None else frozenset(native)
        if all(type(con) in keep for con in model.constraints):
            return model
        # imported on use, not at start-up
        from gridlang.ir.transforms import decompose

        out = decompose(model, keep, passes)
        for con in out.constraints:
            if type(con) not in keep:
                span = getattr(con, "span", None)
                where = f" (from {span.file}:{span.line})" if span is not None else ""
                raise BackendError(f"backend {self.name!r} cannot lower {type(con).__name__}{where} "
                                   "and no decomposition applies")
        return out

    @abstractmethod
    def solve(self, model: Model, options: SolveOptions, settings: Settings | None = None) -> Result:
        """Solve ``model``.

        Args:
            model: the compiled model.
            options: the solve options.
            settings: the backend's settings as :meth:`configure` made them
                from ``options`` (None: made here).

        Raises:
            BackendError: the solver is missing, a setting is refused, or a
                construct cannot be lowered.
        """

    def session(self, model: Model, options: SolveOptions) -> Session:
        """A :class:`Session` for solving ``model`` repeatedly with added constraints."""
        return Session(self, model, options)

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """Write ``model`` to ``path`` in format ``fmt``.

        Returns:
            The paths written (the model file and any sidecar).

        Raises:
            BackendError: the format is not one this backend writes.
        """
        raise BackendError(f"backend {self.name!r} writes no files")


def falsify_absent_roots(model: Model) -> Model:
    """``model`` with every connectivity node that has a root outside its members made the empty clause.

    A root is a member by definition (:class:`~gridlang.ir.model.Connected`,
    :class:`~gridlang.ir.model.GraphConnected`), and a cell absent from
    ``members`` is never one, so such a node can never hold: a horse on
    the border of its map, whose pen must avoid the border, gets one. The
    empty clause says so to every backend alike, where each encoding of
    connectivity would meet a root it has no variable for. A pure pass,
    kept here rather than in :mod:`gridlang.ir.transforms`, whose import (its
    encodings) a backend that decomposes nothing does not pay.

    Returns:
        ``model`` itself when no node has such a root, else a new model
        (same variables, each such node replaced in place).
    """
    def absent(con: Constraint) -> bool:
        if not isinstance(con, (Connected, GraphConnected)) or not con.roots:
            return False
        members = {v for v, _ in con.members}
        return any(r not in members for r in con.roots)

    if not any(absent(con) for con in model.constraints):
        return model
    return replace(model, constraints=tuple(Clause((), con.span) if absent(con) else con
                                            for con in model.constraints))


def run_lines(fmt: str, command: str) -> list[str]:
    """The header lines of an exported file that say how to solve it and read the answer back.

    Every command is one a user of the pip wheels can run (the wheels ship
    no ``clingo`` or ``highs`` executable: their Python modules serve);
    ``FILE`` is the exported file, ``ANSWER`` the solver's answer, ``SPEC``
    and ``MAP`` the spec and map the header names. ``tests/cli/test_exports.py``
    runs them.

    Args:
        fmt: the format, as ``gridlang decode --format`` takes it.
        command: a shell command that solves ``FILE`` and writes ``ANSWER``.

    Returns:
        ``run: COMMAND`` and ``then: gridlang decode ...``, without comment marks.
    """
    return [f"run: {command}",
            f"then: gridlang decode SPEC --map MAP --solution ANSWER --format {fmt} (SPEC, MAP and parameters "
            "as above)"]


# name -> (module, class). Modules are imported only when a backend is used.
_REGISTRY: dict[str, tuple[str, str]] = {
    "cpsat": ("gridlang.exporters.cpsat.backend", "CpSatBackend"),
    "milp": ("gridlang.exporters.milp.backend", "MilpBackend"),
    "maxsat": ("gridlang.exporters.maxsat.backend", "MaxSatBackend"),
    "asp": ("gridlang.exporters.asp.backend", "AspBackend"),
    "auto": ("gridlang.solving.auto", "AutoBackend"),
}
DEFAULT_BACKEND = "auto"
"""The backend of ``gridlang solve`` and :func:`gridlang.solve` when none is named."""


def backend_names() -> list[str]:
    """Registered backend names, in the order ``gridlang backends`` lists them."""
    return list(_REGISTRY)


def get_backend(name: str) -> Backend:
    """Instantiate the backend called ``name``.

    Raises:
        BackendError: no such backend, or its module is not installed.
    """
    if name not in _REGISTRY:
        raise BackendError(f"unknown backend {name!r}; choose one of {', '.join(_REGISTRY)}")
    module_name, class_name = _REGISTRY[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        raise BackendError(f"backend {name!r} is not available: {e}") from e
    return getattr(module, class_name)()


def backend_class(name: str) -> type[Backend] | None:
    """The backend's class without instantiating it, or None when its module is missing."""
    module_name, class_name = _REGISTRY[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        return None
    return getattr(module, class_name)
