"""clingo as the asp backend's oracle: one ``clingo.Control`` holding a program,
searched under the deadline and solved again as parts are added, and the check
that leaves a program unground when it clearly would not fit in the memory limit.
"""

from __future__ import annotations

import sys
import threading
import time

from gridlang.exporters.asp.program import Program
from gridlang.exporters.asp.rules import (
    add_direct,
    add_fills,
    add_objective,
    program_atoms,
)

from gridlang.core.deadline import (
    ABANDON_AFTER,
    BuildTimeout,
    Deadline,
    SolverAbandoned,
)
from gridlang.core.errors import BackendError
from gridlang.core.memory import human, resident
from gridlang.ir.connectivity.driver import Round
from gridlang.ir.model import Assignment, Linear, Model, Sense

WAIT_STEP = 0.05
"""Seconds between two looks at the deadline while clingo searches."""

GROUND_BYTES_PER_CHAR = 40
"""clingo's grounding holds about this many bytes per character of the program's text at
its peak (measured on the reachability programs of near-empty maps; see
:func:`check_grounding_memory`)."""


class Clingo:
    """One ``clingo.Control`` holding a program, solved again as parts are added."""

    improving = False

    def __init__(self, model: Model, program: Program, arguments: list[str], log: bool,
                 deadline: Deadline | None = None):
        import clingo

        self.model = model
        self.program = program
        self.log = log
        self.messages: list[str] = []
        try:
            self.ctl = clingo.Control(arguments, logger=self._logger, message_limit=1000)
        except RuntimeError as e:
            raise BackendError(f"clingo refuses the options {' '.join(arguments)}: {_reason(e)}") from e
        self.ctl.configuration.solve.models = "0" if model.objective is not None else "1"
        self.parts = 0
        self.wall_time = self.cpu_time = 0.0
        self.stats: dict | None = None
        """clingo's statistics after the last search."""
        self.ground(program.text())
        # The clauses, rows, objective and fills go to clingo as ground rules (rules.add_direct, add_fills).
        with self.ctl.backend() as backend:
            if program.nameless:  # atoms without names (Program.nameless)
                add = backend.add_atom
                self.atoms = [0] + [add() for _ in range(model.num_vars)]
            else:
                self.atoms = program_atoms(backend, model.num_vars)
            self.statements = program.rules
            if program.choices:  # one choice rule, where the text has none (Program.choices)
                atoms = self.atoms
                backend.add_rule([atoms[v] for v in program.choices], [], choice=True)
                self.statements += 1
            self.statements += add_direct(backend, self.atoms, program.direct, deadline)
            if program.fills:
                self.statements += add_fills(backend, self.atoms, program.fills, model.grid.neighbours)
            if program.weights:
                add_objective(backend, self.atoms, program.weights, model.objective.sense)
                self.statements += 1

    def release(self) -> None:
        """Free clingo's Control on a thread of its own, and drop it here.

        clingo frees a Control (its solvers, their threads, the program) in
        C++ with Python's lock released, some 1.5 ms after a daily's search:
        that no longer delays the answer, which the caller verifies and
        prints meanwhile. This object is of no use afterwards.
        """
        held = [self.ctl]
        del self.ctl
        try:
            threading.Thread(target=held.clear, name="clingo-free", daemon=True).start()
        except RuntimeError:  # no thread to be had (the process's limit): freed here, as before
            held.clear()

    def _logger(self, code, message: str) -> None:
        self.messages.append(message.strip())
        if self.log:
            print(message.rstrip(), file=sys.stderr)

    def ground(self, text: str) -> None:
        """Add ``text`` as a new program part and ground it."""
        name = "base" if self.parts == 0 else f"part{self.parts}"
        self.parts += 1
        try:
            self.ctl.add(name, [], text)
            self.ctl.ground([(name, [])])
        except RuntimeError as e:
            detail = next((m for m in self.messages if "error" in m), _reason(e))
            raise BackendError(f"clingo cannot ground the program: {detail}") from e

    def add(self, cuts: list[Linear]) -> None:
        """Add the cuts (or any clauses and rows) as ground rules."""
        if cuts:
            with self.ctl.backend() as backend:
                self.statements += add_direct(backend, self.atoms, cuts)

    def hint(self, last: Assignment, best: Assignment | None) -> None:
        """clasp keeps its phases and learnt clauses between calls; nothing to hint."""

    def solve(self, deadline: Deadline, incumbent: int | None) -> Round:
        """One clingo search under ``deadline`` (see the module docstring)."""
        if deadline.expired():
            return Round("unknown")
        last: dict[str, object] = {}
        # each better model is an answer when no connectivity is left to the cut loop: its score is
        # the search's progress (gridlang serve's best so far), as CP-SAT's and HiGHS's are
        tell = self.model.objective is not None and not self.program.lazy

        def on_model(m) -> None:
            if self.program.nameless:  # no objective: one model a search
                is_true = m.is_true
                last["values"] = [is_true(a) for a in self.atoms[1:]]
            else:
                last["atoms"] = m.symbols(shown=True)
            last["cost"] = list(m.cost)
            if tell and m.cost:
                deadline.improved(self.score(int(m.cost[0])))

        t0 = time.perf_counter()
        handle = self.ctl.solve(on_model=on_model, async_=True)
        # Control.interrupt is clingo's thread- and signal-safe stop; a stop that
        # comes after the search would interrupt the next one, which an expired
        # deadline never starts.
        with deadline.on_stop(self.ctl.interrupt):
            while not handle.wait(_step(deadline)):
                if deadline.expired():
                    handle.cancel()
                    if not handle.wait(ABANDON_AFTER):
                        raise SolverAbandoned("the solver, which did not stop when asked, was left behind")
                    break
        outcome = handle.get()
        handle.__exit__(None, None, None)  # SolveHandle's close; a handle left behind is never closed
        self.wall_time += time.perf_counter() - t0
        # Control.statistics converts clingo's whole tree (about 1 ms): read once per search.
        self.stats = self.ctl.statistics
        summary = self.stats["summary"]
        self.cpu_time += summary["times"]["cpu"]
        obj = self.model.objective
        lower = summary.get("lower", []) if obj is not None else []
        bound = self.score(int(lower[0])) if lower else None
        if "atoms" in last:
            answer = self.assignment(last["atoms"])
        elif "values" in last:
            answer = Assignment(tuple(last["values"]))
        else:
            return Round("infeasible") if outcome.unsatisfiable else Round("unknown", bound=bound)
        if obj is None or not last["cost"]:
            return Round("optimal", answer)
        score = self.score(int(last["cost"][0]))
        if score != obj.value(answer):
            raise BackendError(f"clingo reports the objective {score}, but its answer scores "
                               f"{obj.value(answer)} in the model")
        if outcome.exhausted:
            return Round("optimal", answer, bound=score)
        return Round("feasible", answer, bound=bound)

    def score(self, cost: int) -> int:
        """The objective value of a clingo cost."""
        if self.model.objective.sense is Sense.MAXIMIZE:
            return self.program.constant - cost
        return self.program.constant + cost

    def assignment(self, atoms) -> Assignment:
        values = [False] * self.model.num_vars
        for sym in atoms:  # the program shows x/1 alone (Program's ``#show x/1.``)
            values[sym.arguments[0].number - 1] = True
        return Assignment(tuple(values))

    def statistics(self) -> dict[str, object]:
        stats = self.stats if self.stats is not None else self.ctl.statistics
        lp, solvers = stats["problem"]["lp"], stats["solving"]["solvers"]
        return {"atoms": int(lp["atoms"]), "rules": int(lp["rules"]), "program_statements": self.statements,
                "choices": int(solvers["choices"]), "conflicts": int(solvers["conflicts"]),
                "threads": int(str(self.ctl.configuration.solve.parallel_mode).split(",")[0]),
                "wall_time": round(self.wall_time, 4), "cpu_time": round(self.cpu_time, 4)}


def check_grounding_memory(program: Program, limit: int | None, deadline: Deadline | None) -> None:
    """Do not ground a program that clearly would not fit in the memory limit.

    clingo parses and grounds in C++, where the watchdog of
    :mod:`gridlang.core.memory` can stop nothing: it notices the limit only once
    grounding has passed it. So the peak is predicted from the text's
    length (:data:`GROUND_BYTES_PER_CHAR`), and a program it puts past
    ``limit`` bytes is not grounded: ``deadline`` is stopped for the memory
    limit, as the watchdog would, and :class:`BuildTimeout` says why.
    """
    size = resident() if limit is not None else None
    if size is None:
        return
    need = GROUND_BYTES_PER_CHAR * sum(len(line) + 1 for line in program.lines)
    if size + need > limit:
        if deadline is not None:
            deadline.stop("memory limit")
        raise BuildTimeout(f"the memory limit would be reached while clingo grounds the program (about "
                           f"{human(need)} more, {human(max(limit - size, 0))} left)")


def _step(deadline: Deadline) -> float:
    left = deadline.remaining()
    return WAIT_STEP if left is None else min(WAIT_STEP, left)


def _reason(e: Exception) -> str:
    """clingo's message without its ``In context '<libclingo>':`` prefix."""
    text = str(e).strip()
    return text.split(": ", 1)[1] if text.startswith("In context") and ": " in text else text
