"""Readers of external solvers' answer files: one per file format.

A backend that writes a model file reads the answer an external solver
gives for it through the reader of that answer's format, and only maps
what the reader returns to the IR's variables:

* :mod:`.dimacs`: the ``v`` lines of SAT and MaxSAT solvers (DIMACS, and
  the 2022 MaxSAT Evaluation's one-character-per-variable form), for
  files written as CNF or WCNF;
* :mod:`.mip`: the solution files of MIP solvers (HiGHS raw and pretty,
  Gurobi and plain ``name value``, SCIP, CBC), for files written as LP or
  MPS; the dialect is recognised from the text;
* :mod:`.cpsat`: CP-SAT's response in protobuf text format, for files
  written as ``pbtxt``.

Every malformed input raises :class:`~gridlang.errors.MapError` with the
file, line and column, as map files do.
"""

from __future__ import annotations

from .cpsat import read_cpsat_response
from .dimacs import read_dimacs_solution
from .mip import MipSolution, Located, read_mip_solution

__all__ = ["Located", "MipSolution", "read_cpsat_response", "read_dimacs_solution", "read_mip_solution"]
