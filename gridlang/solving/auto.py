"""The ``auto`` backend: a concrete backend picked per model, or two raced.

``auto`` lowers nothing itself. For each model it reads what its rules
need (:class:`Features`: whether there is an objective, how many
solutions the command asks for, the map's size) and applies the rules of :func:`plan`,
measured on the enclose.horse and Snake Eggs sets (the figures are in docs/benchmarks.md,
"The auto backend"). A plan is one backend, whose own
:class:`~gridlang.ir.backend.Session` then does all the work, or a race of
two: clingo and CP-SAT on a map of up to 450 cells (without an
objective on every solve, CP-SAT joining after ``join_after``), or the two
that ``--set auto.race=A,B`` names.

A race (:class:`~gridlang.solving.race.RaceSession`) solves on the first backend in this
process (its library imported in the start-up phase,
:meth:`AutoBackend.load_library`) and, unless that has proved the answer
within ``first_race_after`` seconds (0.2 s) in a process's first race or
``race_after`` (0) in a later one (:class:`AutoSettings`), forks a child
process for the second, which shares the parent's pages copy-on-write, runs
at a lower priority (:data:`~gridlang.solving.race.CHILD_NICE`) and imports its own solver library
(CP-SAT's bindings and rustworkx, 0.08 s, or Pyomo's 0.3 s, are paid
only there, on the other core; a process that races a second time imports
both libraries first, so that a batch pays the import once). The child
solves the model under the command's deadline and sends its :class:`~gridlang.ir.backend.Result` back
through a pipe, read by a thread here. After ``yield_after`` seconds (1.0
s) the search here gives way: the solver threads the race started in this
process (clingo's search thread) drop to the child's priority, so that
CP-SAT's workers get the machine on the maps clingo finds hard. The first proof (``OPTIMAL`` or
``INFEASIBLE``) wins: a proof here kills the child (``SIGKILL``, at once,
reaped by a thread); a proof from the child stops the solve here the way
a Ctrl-C stops it. One fork, not two: a fork and a kill cost some 10 ms
each on this machine. When neither proves anything
(the time limit, Ctrl-C), the better answer wins and the tighter of the two
proved bounds is reported. A Ctrl-C reaches the parent's
:class:`~gridlang.core.deadline.Deadline`, which sends ``SIGTERM`` to the
child and stops the solve here: each ends its search the way the time
limit ends it, with its best answer. A process, not a thread: the MILP's and MaxSAT's
model building and cut separation are Python, which two threads would run
one at a time, and a killed process leaves no solver thread behind.

Later solves of the same session (the blocking clauses of ``--unique`` and
``--count``) run in this process on the winner's backend; on a puzzle
without an objective each is raced again, the other backend joining in a
child after ``join_after`` on the model with the same blocking clauses. The answer is
verified here, in the parent, like any other backend's
(:func:`gridlang.solving.pipeline.verify`). ``Result.stats`` gains ``chosen`` (the
backend that answered) and, after a race, ``raced`` (both names).

A user's explicit wish narrows the candidates first: ``--connectivity S``
keeps the backends that offer ``S``, a ``--set NAME.KEY=V`` setting picks
backend ``NAME``, ``--mip-gap`` picks ``milp``. ``auto`` writes no files:
``gridlang export`` picks the backend by the file format.
"""

from __future__ import annotations

import os
import sys
from typing import ClassVar, Sequence

from gridlang.core.errors import BackendError
from gridlang.core.nodes import Record
from gridlang.core.settings import Settings
from gridlang.ir.backend import (
    Backend,
    Result,
    Session,
    SolveOptions,
    backend_class,
    get_backend,
)
from gridlang.ir.model import (
    Clause,
    Connected,
    EqualBlocks,
    GraphConnected,
    Linear,
    Model,
    Table,
)
from gridlang.solving.race import RACES, Labelled, RaceSession

SOLVERS = ("cpsat", "milp", "maxsat", "asp")
"""The concrete backends ``auto`` chooses among."""

class Features(Record, slots=False):
    """What the rules of :func:`plan` look at. Earlier rules also read the
    map's size and the kinds of region (docs/benchmarks.md, "The auto
    backend"); a new rule adds the feature it reads here.

    Attributes:
        objective: the model has an objective.
        solutions: the solutions the command asks for (1; 2 for ``--unique``;
            N for ``--count N``).
        cells: the map's cells (0: unknown, as for a model built by hand).
        warm: CP-SAT's library is already imported in this process (a
            batch's worker, the page's workers, a notebook after its first
            race): what the race of rule 4 buys, a solve that never imports
            it, is already spent.
        wide: a row or the objective is beyond clingo's 32-bit integers
            (:func:`gridlang.exporters.asp.rules.beyond_clingo`).
        sized_blocks: an :class:`~gridlang.ir.model.EqualBlocks` node bounds the blocks of
            different labels to different sizes (a block as large as its number).
    """

    objective: bool
    solutions: int
    cells: int = 0
    warm: bool = False
    wide: bool = False
    sized_blocks: bool = False

    @classmethod
    def of(cls, model: Model, options: SolveOptions) -> "Features":
        """The features of ``model`` solved with ``options``."""
        # imported on use, not at start-up
        from gridlang.exporters.asp.rules import survey

        # One pass over the model's constraints, made once however often a solve plans (the
        # command's memory check, the library's import, the session).
        found = survey(model)
        return cls(objective=model.objective is not None, solutions=max(options.solutions, 1),
                   cells=model.grid.size if model.grid is not None else 0, warm=cpsat_loaded(),
                   wide=found.wide is not None, sized_blocks=_sized_blocks(found.blocks))


def _sized_blocks(blocks: list[EqualBlocks]) -> bool:
    """Whether one of the :class:`~gridlang.ir.model.EqualBlocks` nodes ``blocks`` (a model's, from
    :func:`gridlang.exporters.asp.rules.survey`) gives different labels different size bounds."""
    return any(type(con) is EqualBlocks and _size_per_label(con) for con in blocks)


def _size_per_label(con: EqualBlocks) -> bool:
    """Whether each label of ``con`` has one size bound and two labels differ (Fillomino's blocks)."""
    sizes: dict[object, tuple] = {}
    for _, label, lo, hi in con.bounds:
        if sizes.setdefault(label, (lo, hi)) != (lo, hi):
            return False  # one label, several bounds: not a size per label
    return len(set(sizes.values())) > 1


def cpsat_loaded() -> bool:
    """Whether CP-SAT's bindings (``ortools.sat.python.cp_model_helper``, what the cpsat backend imports) are
    imported in this process."""
    return "ortools.sat.python.cp_model_helper" in sys.modules


RACE = ("asp", "cpsat")
"""The race of rule 4 of :func:`plan`: clingo in this process, CP-SAT in a child."""


def plan(features: Features, race: tuple[str, ...] | None = None, race_cells: int = 0) -> tuple[str, ...]:
    """The backends to run for ``features``: one, or two to race.

    The rules (figures: docs/benchmarks.md, "The auto backend"):

    1. No objective (Snake Eggs, the genres; alone or with ``--unique``
       and ``--count``): ``asp``; on a map of at most ``race_cells`` cells
       (450), raced by ``cpsat`` (:data:`RACE`) on every solve, the answer
       and each solve after a blocking clause: clingo solves here alone for
       ``join_after`` seconds (0.25 s, :class:`AutoSettings`), then CP-SAT
       joins in a child on the model with the same blocking clauses (the
       same question, so uniqueness and counts are those of either backend
       alone), the first proof winning; a child that wins makes CP-SAT the
       backend here for the next solve. clingo never gives way
       (``yield_after`` is rule 4's): the child, niced, takes the spare core.
       On the 10x10 Snake Eggs with ``--unique`` clingo took a median of
       1.0 CPU s against MaxSAT's 3.0 and CP-SAT's 5.4; on the genres'
       instances it is as fast as MaxSAT. But on janko.at's Aqre 28 (one
       room of 98 cells with the clue 75, the puzzlekit-dataset's
       aqre/28_10x10) clingo proved nothing within 60 s where CP-SAT
       proves it unique in 0.14 to 0.33 s of solve; raced, ``auto`` proves
       it in 0.52 to 0.56 s end to end at a low load with CP-SAT joining
       after 0.25 s, where it took 1.32 to 1.42 s when CP-SAT joined after
       1 s (puzzlekit: 1.2 to 17 s in the same hour). Each solve of the
       shipped genres' instances takes clingo under 1 s (0.92 s the
       slowest, Penta Touch's 7x6, under a load of 7), and a child that
       joins the few above 0.25 s takes the spare core, niced: the 254
       instances with ``--unique`` (``gridlang bench genres``, in one
       process) took 18.2 and 19.6 s joining after 0.25 s against 19.5,
       20.2 and 21.0 s after 1 s, alternated at a load of 1 to 2, clingo
       answering every one either way; the 11 Snake Eggs a median of 0.14
       against 0.12 and 0.16 s, the slowest 1.11 against 1.05 s. Larger maps stay with
       clingo alone: on every puzzle of the dataset beyond 450 cells that
       clingo takes over 1 s for (Heyawake 31x45, Nurikabe 40x57 and
       50x50), CP-SAT proves nothing within 60 s, and a child there cost
       clingo up to twice its wall time under a load of 8 (Nurikabe 40x57:
       5.3 s alone, 10.1 s raced; docs/benchmarks.md, "No real puzzle of
       the dataset left unproved").
    2. An objective and more than one solution asked for (``--unique``,
       ``--count``): ``cpsat``. On 12 dailies (the slowest for CP-SAT and
       clingo, and a few easy ones), a fresh process each, ``--unique``
       took CP-SAT 13.5 s in all (slowest 4.6 s, daily-2026-01-05) against
       MaxSAT's 50.6 s (14.7 s, 04-28), with the same verdicts; MaxSAT was
       the choice when CP-SAT ran its portfolio of 8 workers.
    3. Any other objective (the enclose.horse maps and variants):
       ``cpsat``, whose ``max_lp`` portfolio (:mod:`gridlang.exporters.cpsat.backend`)
       is the fastest backend on every set measured, at rest, a fresh
       process per solve, compile + solve: the 214 dailies median 0.057 s,
       p90 0.24 s, slowest 0.98 s, against clingo's 0.081, 0.38 and 16.7 s
       and the race of the two (clingo here, CP-SAT in a child)
       0.080, 0.43 and 1.64 s. It has the best median on the weeklies
       (0.43 s; the MILP 0.85 s, clingo 11.6 s with two unproved), the
       community maps, costly walls and lovebirds, and it proves the
       near-empty 30x30 maps within 60 s. On the 8 lovers' quarrel maps
       clingo is ahead (slowest 0.38 s against 2.1 s; docs/benchmarks.md,
       "CP-SAT's max_lp portfolio"). ``race`` (``--set auto.race=A,B``)
       races two backends instead.
    4. But a map of at most ``race_cells`` cells (``auto.race_cells``),
       with an objective and one answer asked for, races :data:`RACE`,
       unless CP-SAT's library is already loaded (``warm``): clingo answers
       first on most such maps, and a process that never imports CP-SAT's
       library (0.1 to 0.15 s) or starts its portfolio answers sooner end
       to end, which is what a person waits for; CP-SAT joins in a child on
       the maps clingo finds hard (docs/benchmarks.md, "The race by
       size"). A process that solves many maps has CP-SAT loaded (a batch's
       workers load it before the first map, :meth:`AutoBackend.load_library`
       without a model) and runs it alone: on 50 dailies in a batch, the
       race took 16.7 and 16.6 s against CP-SAT alone's 11.8 and 15.9 s.

    0. Before all of them: a model beyond clingo's 32-bit integers (``wide``)
       goes to ``cpsat``, which computes in 64 bits.
    1a. No objective, and blocks of equal values whose size depends on the
       label (``sized_blocks``: Fillomino, a block as large as its number):
       ``maxsat``, whose cut loop keeps what its SAT solver learnt between
       rounds. On the puzzlekit-dataset's Fillominos with ``--unique``
       (docs/benchmarks.md, "Fillomino, Cave and the largest Nurikabe") it
       proved the 7x7 and 10x10 in a fifth of clingo's solve time and the
       13x13 in 26 s where clingo had no proof in 60 s; blocks of one size for
       every label (Pentominous, Tetrominous, Heteromino) stay with clingo,
       which proves Pentominous' 5x5 in 1.1 s against MaxSAT's 8.4 s.

    Returns:
        Backend names, from :data:`SOLVERS`.
    """
    if features.wide:
        return ("cpsat",)
    if not features.objective:
        if features.sized_blocks:
            return ("maxsat",)
        return RACE if 0 < features.cells <= race_cells else ("asp",)
    if features.solutions != 1:
        return ("cpsat",)
    if race:
        return race
    if 0 < features.cells <= race_cells and not features.warm:
        return RACE
    return ("cpsat",)


def narrowed(names: Sequence[str], options: SolveOptions) -> tuple[str, ...]:
    """``names`` restricted to the backends the user's options point at.

    A ``NAME.KEY`` setting in ``options.extra`` or ``--mip-gap`` (``milp``)
    names one backend; ``--connectivity S`` keeps those that offer ``S``.
    When nothing of ``names`` is left, the first backend of
    :data:`SOLVERS` that fits is used.

    Raises:
        BackendError: settings for two backends at once, or a strategy no
            backend offers.
    """
    wanted = {key.split(".", 1)[0] for key in options.extra if "." in key}
    wanted &= set(SOLVERS)
    if options.mip_gap is not None:
        wanted.add("milp")
    if len(wanted) > 1:
        raise BackendError(f"backend 'auto' got settings for {' and '.join(sorted(wanted))}; "
                           "give settings for one backend, or choose it with --backend")
    pool = [n for n in SOLVERS if n in wanted] if wanted else list(SOLVERS)
    if options.connectivity is not None:
        pool = [n for n in pool if (cls := backend_class(n)) is not None and options.connectivity in cls.connectivity]
        if not pool:
            if wanted:
                raise BackendError(f"backend 'auto': backend {next(iter(wanted))!r} has no connectivity strategy "
                                   f"{options.connectivity!r}")
            raise BackendError(f"backend 'auto' has no connectivity strategy {options.connectivity!r}; it offers "
                               f"{', '.join(AutoBackend.connectivity)}")
    chosen = tuple(n for n in names if n in pool)
    return chosen or (pool[0],)


class AutoSettings(Settings, Record, slots=False):
    """The auto backend's settings, ``auto.NAME`` in ``SolveOptions.extra``.

    Attributes:
        race_after: seconds the first backend solves alone before the
            child is forked (0: at once), in a process that has raced
            before (a batch: both libraries are imported, so the child
            starts solving at once).
        first_race_after: the same in a process's first race (a one-off
            ``gridlang solve``), whose child imports its solver library
            first. Measured at rest on the 214 dailies, a fresh process per
            solve: forking the MILP child at once (it imports Pyomo, 0.7 s)
            made the median map 0.06 s slower than clingo alone (0.219 s
            against 0.159 s, compile + solve), though clingo answered 200
            of them; most dailies are proved within 0.3 s
            (docs/benchmarks.md, "At rest, a fresh process per solve").
            Since CP-SAT's child imports 0.15 s instead of 0.45 s, 0.45 s
            (it was 0.3 s): on the ten dailies clingo proves in 0.3 to
            0.5 s (a fresh process each, three runs) the sum went from
            4.44 to 4.23 s (clingo alone: 4.26 s), and on the eight
            slowest it stayed at 16.2 to 16.3 s (docs/benchmarks.md,
            "CP-SAT without cp_model"). Since every daily races by its
            size (rule 4 of :func:`plan`), 0.2 s: over the 214 dailies,
            end to end at rest, the p90 went from 0.735 to 0.675 s and the
            median from 0.290 to 0.295 s (docs/benchmarks.md, "The race
            by size").
        race: two backends to race under rule 3 of :func:`plan` (an
            objective, one answer asked for), comma-separated, the first
            solving in this process (``asp,cpsat``); empty (the default):
            rule 4 decides by the map's size.
        race_cells: the largest map, in cells, that races :data:`RACE`
            under rules 1 and 4 of :func:`plan` (0: none; CP-SAT alone on every
            map with an objective, clingo alone on every map without). 450: every daily (at most 441 cells) and bonus map (at
            most 324) races; the weeklies (529 to 625) and the 30x30 maps,
            where clingo rarely answers first, run CP-SAT alone.
        yield_after: seconds into a race after which the search here gives
            way: the solver threads the race started in this process drop to
            the child's priority (:data:`~gridlang.solving.race.CHILD_NICE`), so that the child's
            CP-SAT gets the machine (``inf``: never). Measured when CP-SAT
            ran a portfolio of 8 workers: until
            then clingo keeps its core, and clingo proves most maps within a
            second. On the 12 slowest dailies, a fresh process per map, at
            rest (docs/benchmarks.md, "Giving way"): 1.0 s brought
            daily-2026-04-28 from 5.8 to 3.3 s and daily-2026-09-03 from 3.7
            to 2.6 s, and cost daily-2026-01-05 1.0 s (3.6 to 4.6 s; clingo
            and CP-SAT each need 3.5 s alone there); the sum went from 24.7
            to 22.9 s, the slowest map from 5.8 to 4.6 s.

        join_after: seconds clingo solves a puzzle without an objective
            (on a map of at most ``race_cells`` cells) alone before CP-SAT
            joins in a child, on each solve (the
            answer, and each one after a blocking clause of ``--unique`` or
            ``--count``; rule 1 of :func:`plan`). 0.25: most solves of the
            shipped genres' instances end within it and fork nothing, the
            few that do not cost no measurable time (rule 1's figures), and a
            puzzle clingo finds hard (Aqre 28, nothing in 60 s) is proved by
            CP-SAT half a second after its start, where 1.0 took a second
            more.

    A delay leaves the easy maps (solved within it) to one process: no
    fork, no child competing for memory and cache.
    """

    race_after: float = 0.0
    first_race_after: float = 0.2
    race: str = ""
    race_cells: int = 450
    yield_after: float = 1.0
    join_after: float = 0.25

    def check(self, backend: str) -> None:
        """Refuse a negative delay, and a race that is not two different backends.

        Raises:
            BackendError: ``race_after``, ``first_race_after`` or
                ``yield_after`` below 0 (or not a number); ``race`` neither
                empty nor two names of :data:`SOLVERS`.
        """
        for name in ("race_after", "first_race_after", "yield_after", "race_cells", "join_after"):
            if not getattr(self, name) >= 0:
                what = "cells" if name == "race_cells" else "seconds"
                raise BackendError(f"--set {backend}.{name}={getattr(self, name)}: give {what}, 0 or more")
        pair = self.pair()
        if pair and (len(pair) != 2 or len(set(pair)) != 2 or not set(pair) <= set(SOLVERS)):
            raise BackendError(f"--set {backend}.race={self.race}: give two different backends of "
                               f"{', '.join(SOLVERS)}, comma-separated (asp,cpsat)")

    def pair(self) -> tuple[str, ...]:
        """:attr:`race` as a tuple of names; empty for no race."""
        if not str(self.race).strip():
            return ()
        return tuple(n.strip() for n in str(self.race).split(","))


class AutoBackend(Backend):
    """Picks a backend per model, or races two (see the module docstring)."""

    name = "auto"
    library = "gridlang"
    description = ("picks per model: asp raced by cpsat on maps of up to 450 cells (auto.race_cells; without an "
                   "objective cpsat joins after 0.25 s, auto.join_after); on larger ones asp without an objective, "
                   "cpsat with one")
    connectivity = ("auto", "cuts", "flow", "tree", "reach")
    """Every concrete backend's strategies; one named keeps the backends that offer it."""
    formats = ()
    shares_cores = True
    """Where a batch runs it, its workers have CP-SAT loaded, which ``auto`` then runs alone on a model
    with an objective (see the module docstring); clingo, on one without, has one thread there."""
    native = frozenset({Clause, Linear, Connected, GraphConnected, Table, EqualBlocks})
    """What ``auto`` hands on whole; the chosen backend's :meth:`prepare` decomposes the rest."""
    settings_class: ClassVar[type[Settings]] = AutoSettings

    def __init__(self) -> None:
        self._plan: tuple[str, ...] | None = None

    @staticmethod
    def choose(model: Model, options: SolveOptions) -> tuple[str, ...]:
        """The backends that will run ``model`` (:func:`plan`, then :func:`narrowed`).

        Raises:
            BackendError: a refused ``auto.`` setting (:meth:`AutoSettings.check`).
        """
        settings = AutoSettings.read("auto", options.extra)
        return narrowed(plan(Features.of(model, options), settings.pair(), settings.race_cells), options)


    def runs_as(self, model: Model, options: SolveOptions) -> str:
        """The backend picked for ``model``, or the one a race runs in this process."""
        return self.choose(model, options)[0]

    def configure(self, options: SolveOptions) -> Settings:
        """Its :class:`AutoSettings`; each chosen backend reads its own ``NAME.`` keys.

        Raises:
            BackendError: a setting refused (:meth:`gridlang.core.settings.Settings.read`).
        """
        return AutoSettings.read(self.name, options.extra)

    def prepare(self, model, native=None, passes=None) -> Model:
        """The model as the backend chosen for it would prepare it.

        Raises:
            BackendError: as that backend's :meth:`~gridlang.ir.backend.Backend.prepare`.
        """
        engine = get_backend(self.choose(model, SolveOptions())[0])
        try:
            return engine.prepare(model, native, passes)
        except BackendError as e:
            raise BackendError(e.message.replace(f"backend {engine.name!r}", "backend 'auto'", 1)) from e

    @classmethod
    def load_library(cls, model: Model | None = None, options: SolveOptions | None = None) -> None:
        """Import the solver modules of the backend chosen for ``model``, or
        of the one a race runs in this process; a raced child imports its
        own (Pyomo and HiGHS, the MILP's, take 0.3 s, clingo 0.03 s: the parent
        does not pay for a child it kills on most maps). After a first race
        the process imports every racer here, as it would for a batch.
        Without a model (a batch worker's warm-up before its maps),
        CP-SAT's library: rule 4 of :func:`plan` then races none of them.

        Raises:
            BackendError: the chosen backend is missing.
        """
        if model is None:  # a worker's warm-up before many models: with CP-SAT loaded, rule 4 races none
            get_backend("cpsat").load_library()
            return
        names = cls.choose(model, options or SolveOptions())
        # A process that races again (a batch, a benchmark, the API in a loop)
        # imports every racer once, so that its children start solving at once.
        for name in names if RACES[0] else names[:1]:
            get_backend(name).load_library()

    def session(self, model: Model, options: SolveOptions) -> Session:
        """The chosen backend's session, or a :class:`~gridlang.solving.race.RaceSession` of two."""
        names = self.choose(model, options)
        if len(names) > 1 and not hasattr(os, "fork"):
            # no race without fork: with an objective the partner, which has no stall on the dailies
            names = names[-1:] if model.objective is not None else names[:1]
        if len(names) == 1:
            return Labelled(get_backend(names[0]).session(model, options), names[0])
        if model.objective is None:  # rule 1: every solve raced, the partner joining after join_after
            return RaceSession(self, model, options, names, again=True,
                               after=AutoSettings.read("auto", options.extra).join_after)
        return RaceSession(self, model, options, names)

    def solve(self, model: Model, options: SolveOptions, settings: Settings | None = None) -> Result:
        """Solve ``model`` on the chosen backend, or race two; ``stats["chosen"]`` names the one that answered.

        Raises:
            BackendError: as the chosen backend's ``solve``.
        """
        names = self.choose(model, options)
        if any(type(c) not in get_backend(names[0]).native for c in model.constraints):
            self.prepare(model)  # refuse an unknown node by name, as 'auto'
        return self.session(model, options).solve()

    def write(self, model: Model, path: str, fmt: str, options: SolveOptions) -> list[str]:
        """``auto`` writes no files.

        Raises:
            BackendError: always; the format picks the backend (``gridlang export --format``).
        """
        raise BackendError("backend 'auto' writes no files: choose the format (lp, mps, wcnf, cnf, pbtxt, asp) "
                           "and the backend that writes it is used")
