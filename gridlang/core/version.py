"""gridlang's version, for the caches that must not outlive it (the parsed specs')."""

VERSION = "0.1.0"
"""The version of this gridlang, as ``pyproject.toml`` states it."""
