"""The bundled specs, maps and instances, installed as ``gridlang.puzzles``: ``gridlang solve --url URL``
without a spec takes the URL's genre's ``GENRE.grid`` from here (:func:`gridlang.formats.puzzlink.bundled_spec`),
and ``gridlang.bundled(NAME)`` and ``gridlang.bundled_map(NAME)`` find them by name (:mod:`gridlang.formats.catalog`)."""
