"""The bundled specs, installed as ``gridlang.puzzles``: ``gridlang solve --url URL`` without a
spec takes the URL's genre's ``GENRE.grid`` from here (:func:`gridlang.puzzlink.bundled_spec`)."""
