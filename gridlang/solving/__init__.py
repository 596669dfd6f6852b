"""The solve: the backend registry, ``auto``, the pipeline from spec and map to a verified answer."""
