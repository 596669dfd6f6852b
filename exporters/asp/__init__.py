"""The ``asp`` backend: clingo, the IR as a logic program, and gringo ``.lp`` files."""
