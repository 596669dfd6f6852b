"""The ``maxsat`` backend: PySAT's RC2 and the linear search, the MaxSAT form, its counters, DIMACS answers and WCNF/CNF files."""
