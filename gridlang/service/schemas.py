"""The JSON Schemas (draft 2020-12) of gridlang's records: ``solve --json``, batch lines, bench rows, ``hint --json``,
``generate --json`` lines.

The schemas are package data, ``gridlang/data/schemas/{solve,batch,bench,hint,generate}.json``;
each has the ``$id`` ``urn:gridlang:schema:NAME`` and the batch, bench and
hint schemas refer to the solve record by it. Extra fields: a key a schema does
not list is allowed when its name is lower-case snake_case
(``^[a-z][a-z0-9_]*$``), with any value; a key it lists always has the type
it gives. So a plug-in's figures (under the plug-in's name) and a batch's
own fields (a worker's death cause, retries) need no change of schema, and
a consumer ignores the keys it does not know.

gridlang does not validate its output at run time; the tests do, with
:mod:`jsonschema` (the ``test`` extra).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

NAMES = ("solve", "batch", "bench", "hint", "generate", "error")
"""The records that have a schema (``error``: what a command given ``--json`` prints when it cannot do its work)."""


def schema(name: str) -> dict[str, Any]:
    """The schema of a record, as a dict.

    Args:
        name: ``solve``, ``batch``, ``bench``, ``hint``, ``generate`` or ``error``.

    Raises:
        KeyError: no schema of that name.
    """
    if name not in NAMES:
        raise KeyError(f"no schema {name!r}; the schemas are {', '.join(NAMES)}")
    text = resources.files("gridlang.data").joinpath("schemas", f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)


def validator(name: str):
    """A :mod:`jsonschema` validator of a record, the other schemas registered for its references.

    Args:
        name: ``solve``, ``batch``, ``bench``, ``hint``, ``generate`` or ``error``.

    Returns:
        A ``jsonschema.Draft202012Validator``; ``validator("solve").validate(record)``
        raises ``jsonschema.ValidationError`` for a record that breaks the schema.

    Raises:
        ModuleNotFoundError: jsonschema is not installed (``pip install gridlang[test]``).
    """
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    resources_ = [(s["$id"], Resource.from_contents(s)) for s in (schema(n) for n in NAMES)]
    registry = Registry().with_resources(resources_)
    return Draft202012Validator(schema(name), registry=registry)
