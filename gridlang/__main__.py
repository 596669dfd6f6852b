"""``python -m gridlang``: the command line."""

from gridlang.console import entry

entry()
