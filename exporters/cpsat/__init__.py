"""The ``cpsat`` backend: OR-Tools CP-SAT, its lowering, settings, response reader and files."""
