"""The solve: the pipeline from spec and map to a verified answer, ``auto``'s choice and race of backends, loaded specs."""
