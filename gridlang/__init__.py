"""gridlang: state a grid puzzle's rules once, solve it with MILP, CP-SAT or MaxSAT."""

from __future__ import annotations

__version__ = "0.1.0"
