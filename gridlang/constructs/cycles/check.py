"""The checker's types of acyclicity: ``has no cycle`` is a rule of its own, ``is on a cycle of`` a condition.

``line has no cycle`` names a decision on edges (``on edges``, ``on corner
edges``), a Boolean decision on cells, or a decision on cells whose values
are slants; ``p is on a
cycle of slant`` names a decision whose values are slants and one cell.
Anything else is a located error. Each function is given the checker
(:mod:`gridlang.language.checker`) and reports through its
``error(message, span)``.
"""

from __future__ import annotations

from gridlang.constructs.cycles.nodes import NoCycle, OnCycle
from gridlang.constructs.slants import is_slant_decision
from gridlang.language.checker.symbols import Type


def _what(checker, name) -> str:
    decl = checker.sym.decisions.get(name.id)
    if decl is not None:
        return "a decision on cells whose values are no slants ('/', '\\')"
    kind = checker.env.get(name.id) or checker.sym.kind_of(name.id)
    return f"a {kind}" if kind else "not declared" + checker.suggest(name.id)


def no_cycle_type(checker, e: NoCycle) -> Type | None:
    """``BOOL`` for ``NAME has no cycle`` stated as a rule of its own, or None after an error."""
    if checker.nested:
        checker.error("'has no cycle' is a rule of its own: it cannot stand inside not, and, or, implies or an "
                      "aggregate; state it on its own line", e.span)
        return None
    decl = checker.sym.decisions.get(e.name.id)
    if decl is not None and (decl.lattice is not None or is_slant_decision(decl) or not decl.is_enum):
        return Type.BOOL
    checker.error(f"'has no cycle' takes a decision on edges (on edges, on corner edges), a Boolean decision on "
                  f"cells, or a decision whose values are slants ('/', '\\'); {e.name.id!r} is "
                  f"{_what(checker, e.name)}", e.name.span)
    return None


def on_cycle_type(checker, e: OnCycle) -> Type | None:
    """``BOOL`` for ``p is on a cycle of slant``, or None after an error."""
    decl = checker.sym.decisions.get(e.name.id)
    ok = True
    if not is_slant_decision(decl):
        where = "a decision on edges" if decl is not None and decl.lattice is not None else _what(checker, e.name)
        checker.error(f"'is on a cycle of' takes a decision whose values are slants ('/', '\\'); {e.name.id!r} "
                      f"is {where}", e.name.span)
        ok = False
    return Type.BOOL if checker.cell(e.cell, "'is on a cycle of'") and ok else None
