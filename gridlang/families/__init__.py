"""The puzzle families' plug-ins: for each family with a plug-in, its published-rules verifier, readers, summary, JSON extras and drawing (the hooks of :class:`gridlang.plugins.Plugin`)."""
