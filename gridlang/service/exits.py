"""The exit codes of a report: what each front end ends with (the command line as its exit status)."""

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_INFEASIBLE = 2
EXIT_NO_SOLUTION = 3
EXIT_VERIFY_FAILED = 4
EXIT_INTERRUPTED = 130

EXIT_CODES = """exit codes:
  0  solved (a verified solution; with --unique, also when it is not unique)
  1  bad input: the spec, the map, a parameter or the command line is wrong (the message says where)
  2  infeasible: proved that no solution exists
  3  no solution found: the time limit, or a limit given to the solver with --set, ran out first
  4  verification failed: the answer broke the puzzle's rules (a solver or encoding bug)
130  interrupted: the first Ctrl-C stops the search and prints the best answer so far;
     a second one exits at once
"""
