"""``python -m gridlang``: the command line."""

from .console import entry

entry()
