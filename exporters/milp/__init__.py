"""The ``milp`` backend: the MILP's linear form, Pyomo and HiGHS, the solution-file reader and LP/MPS files."""
