"""``python -m gridlang``: the command line."""

from .cli import entry

entry()
