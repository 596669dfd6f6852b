"""The MaxSAT backend's settings (``--set maxsat.NAME``): the algorithm, each algorithm's SAT solver,
the cardinality encoding and the cut loop's cuts, checked before any solver is made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from gridlang.core.deadline import sat_interruptible
from gridlang.core.errors import BackendError
from gridlang.core.settings import Settings
from gridlang.ir.transforms import CARD_ENCODINGS

SMALL_CELLS = 500
"""Grids below this many cells get ``lsu.phases = soft`` and ``lsu.start =
mgh`` under ``auto``: the largest daily has 441 cells, the weeklies 529 to 625."""

SOLVER_PACKAGES = {"cryptosat": ("cms_present", "the Python package 'pycryptosat' (pip install pycryptosat)"),
                   "ergo": ("ergo_present", "a build of PySAT with Ergo (not built on Windows)")}
"""PySAT's SAT solvers that need more than PySAT's own wheel: family -> (the
flag of :mod:`pysat.solvers` saying it is there, what is missing)."""

NO_ASSUMPTIONS = ("kissat404",)
"""PySAT's SAT solver families that ignore assumptions. On python-sat 1.9.dev17,
given ``[[1, 2], [-1, 3]]``, ``solve(assumptions=[-1, -2])`` and
``solve(assumptions=[1, -3])`` answer True on Kissat 4.0.4, with the warning
"Kissat does not support assumptions. The assumptions parameter will be
ignored.", and False on every other family of ``SolverNames`` (CaDiCaL
1.0.3, 1.5.3, 1.9.5 and 3.0.0, Ergo, Gluecard 3 and 4, Glucose 3, 4 and 4.2,
Lingeling, MapleChrono, MapleCM, MapleSAT, MergeSat 3, Minicard, MiniSat 2.2,
MiniSat-GH, MiniSat-EP). The linear search bounds the cost by an assumption
and RC2 relaxes its cores by them: under RC2, Kissat ended in "RC2 reports the
objective 129, but its answer scores 1", and the linear search had not ended
after 120 s."""

NOT_INCREMENTAL = ("kissat404",)
"""PySAT's SAT solver families that cannot take a clause after a call: Kissat
4.0.4 aborts the process ("kissat: fatal error: calling 'kissat_add':
incremental solving not supported"). Every algorithm here adds its cuts
between calls."""

NO_LIMITED_SOLVE = ("lingeling",)
"""PySAT's SAT solver families without ``solve_limited``, which
:func:`gridlang.core.deadline.run_sat` and RC2 call: Lingeling raises
NotImplementedError ("Limited solve is currently unsupported by Lingeling.")."""


@dataclass(frozen=True)
class LsuSettings(Settings):
    """The linear SAT-UNSAT search (``algorithm = "lsu"``, :class:`~gridlang.exporters.maxsat.search.Lsu`).

    Attributes:
        solver: PySAT name of its SAT solver.
        start, start_seconds: the search begins on the SAT solver
            ``start`` (PySAT's name, of a solver PySAT can interrupt;
            ``none``: on ``solver`` at once) and moves to ``solver`` once
            ``start`` has searched for ``start_seconds`` in all: the new
            solver is given every clause so far (the hard ones, the cuts
            and the cost counter's) and repeats the interrupted call, the
            incumbent kept. ``auto`` (the default) takes ``mgh`` on grids
            of fewer than :data:`SMALL_CELLS` cells and ``none`` on larger
            ones. MiniSat-GH (``mgh``) is quicker on the easy maps and
            CaDiCaL on the hard proofs: on the 214 dailies, warm, ``mgh``
            alone took the median from 0.119 to 0.092 s but the slowest map
            (04-28) from 4.5 to 12.6 s; beginning on it for 0.5 s, the
            median 0.088 s and the sum 60.9 s against 61.8 s
            (``docs/benchmarks.md``).
        max_units: the search counts a soft clause of weight ``w`` as ``w``
            totalizer inputs; above this total weight RC2 runs instead
            (``stats["algorithm"]`` says which ran). At least 1.
        phases: ``soft`` has the SAT solver prefer each soft literal true
            (on enclose.horse: a cell in the pen), so that its first answer
            is a large pen and the cost counter, built at that answer's
            cost, is small; ``none`` leaves CaDiCaL's own phases; ``auto``
            (the default) takes ``soft`` on grids of fewer than
            :data:`SMALL_CELLS` cells. On the 214 dailies (at most 441
            cells) ``soft`` took the median from 0.160 to 0.137 s, but the 7
            weeklies (529 to 625 cells) from 63 to 76 s in all
            (``docs/benchmarks.md``).
    """

    solver: str = "cadical195"
    start: str = "auto"
    start_seconds: float = 0.5
    max_units: int = 100000
    phases: str = "auto"


@dataclass(frozen=True)
class Rc2Settings(Settings):
    """RC2 (``algorithm = "rc2"``, :class:`~gridlang.exporters.maxsat.search.Rc2`).

    Attributes:
        solver: PySAT name of RC2's SAT oracle (``g3``, ``g4``, ``cd19``,
            ``mgh``...).
        stratified: RC2Stratified, without hardening (which later cuts would
            invalidate).
        exhaust, minz, adapt: RC2's options of those names.
        fork: run RC2 in a child process (:mod:`gridlang.core.forked`) where
            the system can fork, so that the time limit holds while RC2
            minimises or exhausts a core, calls which hold the GIL and
            which its ``interrupt`` does not reach; ``false`` runs it in
            this process.
    """

    solver: str = "g4"
    stratified: bool = False
    exhaust: bool = True
    minz: bool = True
    adapt: bool = False
    fork: bool = True


@dataclass(frozen=True)
class SatSettings(Settings):
    """The SAT search of models without an objective (:class:`~gridlang.exporters.maxsat.search.Sat`).

    Attributes:
        solver: PySAT name of its SAT solver.
    """

    solver: str = "g3"


@dataclass(frozen=True)
class CardSettings(Settings):
    """Cardinality constraints (:func:`gridlang.ir.transforms.linear_to_clauses`).

    Attributes:
        encoding: a :class:`pysat.card.EncType` name (or ``ktotalizer``) for
            ``sum <= k`` with ``2 <= k <= n / 2``; ``k = 1`` uses pairwise
            (``n <= 6``) or a sequential counter, larger ``k`` counts the
            false literals instead. ``auto`` (the default) takes the modulo
            totalizer on up to 1,000 literals and an encoding of ``O(n k)`` clauses or
            fewer above (:func:`gridlang.ir.transforms.to_cnf.card_encoding`).
    """

    encoding: str = "auto"


@dataclass(frozen=True)
class CutSettings(Settings):
    """The cut loop (strategy ``cuts``).

    Attributes:
        root_side: add the root-side cuts each round.
        seed, seed_pairs: seed the loop with the one-cell, and the two-cell,
            separator cuts of :func:`gridlang.ir.connectivity.separation.seed_cuts`.
    """

    root_side: bool = True
    seed: bool = True
    seed_pairs: bool = False


@dataclass(frozen=True)
class MaxSatSettings(Settings):
    """The MaxSAT backend's settings, ``maxsat.NAME`` in ``SolveOptions.extra``
    (``maxsat.lsu.solver``; from Python also ``NAME`` alone). The defaults
    are the measured best (``docs/benchmarks.md``).

    Attributes:
        algorithm: ``lsu`` (linear SAT-UNSAT search) or ``rc2``
            (core-guided) for models with an objective; ``auto`` takes
            ``lsu`` when every objective term is on a region member (the
            standard maps: the value of the pen) and ``rc2`` when the
            objective also prices decisions (costly walls).
        conflicts: with a time limit and a solver PySAT cannot interrupt
            (CaDiCaL), each call of ``lsu`` or of the plain SAT search runs
            in slices of at most this many conflicts and the clock is read
            between slices. At least 1.
        lsu, rc2, sat, card, cuts: the groups above.
        window: run the window start (:mod:`gridlang.ir.connectivity.windows`)
            where it applies; ``--set maxsat.window=false`` turns it off.
    """

    bare: ClassVar[bool] = True

    algorithm: str = "auto"
    conflicts: int = 100000
    lsu: LsuSettings = field(default_factory=LsuSettings)
    rc2: Rc2Settings = field(default_factory=Rc2Settings)
    sat: SatSettings = field(default_factory=SatSettings)
    card: CardSettings = field(default_factory=CardSettings)
    cuts: CutSettings = field(default_factory=CutSettings)
    window: bool = True

    def check(self, backend: str) -> None:
        """Refuse an unknown algorithm, SAT solver or cardinality encoding, and limits below 1;
        and a SAT solver whose package is missing (:data:`SOLVER_PACKAGES`), that
        ignores the assumptions the linear search or RC2 solves under
        (:data:`NO_ASSUMPTIONS`), that cannot take the cuts between calls
        (:data:`NOT_INCREMENTAL`) or that has no limited solve
        (:data:`NO_LIMITED_SOLVE`), before any solver is made.

        Raises:
            BackendError: the first value refused, in one sentence.
        """
        if self.algorithm not in ("auto", "lsu", "rc2"):
            raise BackendError(f"unknown MaxSAT algorithm {self.algorithm!r}; choose auto, lsu or rc2")
        if self.lsu.phases not in ("auto", "soft", "none"):
            raise BackendError(f"setting 'lsu.phases': unknown phases {self.lsu.phases!r}; choose auto, soft or none")
        import pysat.solvers
        from pysat.solvers import SolverNames

        families = {n: family for family, names in vars(SolverNames).items() if isinstance(names, tuple)
                    for n in names}
        known = sorted(families)
        solvers = [("lsu.solver", self.lsu.solver), ("rc2.solver", self.rc2.solver), ("sat.solver", self.sat.solver)]
        if self.lsu.start not in ("auto", "none"):
            solvers.append(("lsu.start", self.lsu.start))
        for key, name in solvers:
            if name not in known:
                raise BackendError(f"setting {key!r}: PySAT has no SAT solver {name!r}; it has {', '.join(known)}")
            family = families[name]
            flag, needs = SOLVER_PACKAGES.get(family, (None, ""))
            if flag is not None and not getattr(pysat.solvers, flag, True):
                raise BackendError(f"setting {key!r}: SAT solver {name!r} needs {needs}, which is missing")
            if family in NO_ASSUMPTIONS and key != "sat.solver":
                algorithm = "RC2" if key == "rc2.solver" else "the linear search (lsu)"
                raise BackendError(f"setting {key!r}: {algorithm} solves under assumptions, which PySAT's {name!r} "
                                   f"ignores; choose a solver with assumptions, such as g4 or cadical195")
            if family in NOT_INCREMENTAL:
                raise BackendError(f"setting {key!r}: the cut loop adds clauses between calls, which PySAT's "
                                   f"{name!r} cannot take; choose another solver, such as g3 or cadical195")
            if family in NO_LIMITED_SOLVE:
                raise BackendError(f"setting {key!r}: this backend calls PySAT's solve_limited, which {name!r} "
                                   f"lacks; choose another solver, such as g4 or cadical195")
        if self.lsu.start not in ("auto", "none") and not sat_interruptible(self.lsu.start):
            raise BackendError(f"setting 'lsu.start': PySAT cannot interrupt {self.lsu.start!r}; "
                               f"choose one it can, such as mgh or g4")
        if not self.lsu.start_seconds >= 0:
            raise BackendError(f"setting 'lsu.start_seconds' must be at least 0, not {self.lsu.start_seconds!r}")
        for key, value in (("conflicts", self.conflicts), ("lsu.max_units", self.lsu.max_units)):
            if value < 1:
                raise BackendError(f"setting {key!r} must be at least 1, not {value!r}")
        if self.card.encoding not in CARD_ENCODINGS:
            raise BackendError(f"unknown cardinality encoding {self.card.encoding!r}; "
                               f"choose one of {', '.join(CARD_ENCODINGS)}")
