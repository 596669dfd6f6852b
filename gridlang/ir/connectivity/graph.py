"""Separation over an explicit graph whose edges carry literals (:class:`~gridlang.ir.model.GraphConnected`).

The lines of Masyu, Numberlink and Slitherlink are connected through
their *chosen edges*, not through the grid's cells: a vertex is active when
its literal holds, an edge counts when its literal holds and both ends are
active. An answer breaks the node when the active vertices fall into two
or more components (unrooted), or when a component holds no root.

The cut: for a component ``S`` and active vertices ``u`` in ``S`` and ``v``
outside, every answer in which both stay active and connected chooses an
edge of the cut ``delta(S)`` (edges with exactly one end in ``S``)::

    ~u | ~v | OR_{e in delta(S)} e          (v a root: ~u | OR e)

It is the edge form of the subtour elimination constraint (G. Dantzig,
R. Fulkerson and S. Johnson, "Solution of a large-scale traveling-salesman
problem", Oper. Res. 2, 1954; in clause form, the generalised subtour cuts
of prize-collecting tours). Each round adds, per stray component, one row
per vertex of it with roots, or two rows (``S`` against the largest
component and back) without; no variables.
"""

from __future__ import annotations

from gridlang.ir.connectivity.separation import clause_cut
from gridlang.ir.model import Assignment, GraphConnected, Linear


def crossing(con: GraphConnected, inside: set[int]) -> list[int]:
    """The literals of the edges with exactly one end in ``inside``, in the node's edge order."""
    return [lit for u, v, lit in con.edges if (u in inside) != (v in inside)]


def graph_cuts(con: GraphConnected, assignment: Assignment) -> list[Linear]:
    """The cuts ``assignment`` violates for ``con`` (empty exactly when it meets ``con``).

    Args:
        con: the node.
        assignment: a (possibly disconnected) answer of the relaxation.

    Returns:
        :class:`~gridlang.ir.model.Linear` rows, each equal to a clause (see the
        module docstring), valid for every answer that meets ``con``.
    """
    lit_of = dict(con.members)
    active, comps = con.reached(assignment)
    if not active:
        return []
    cuts: list[Linear] = []
    if con.roots:
        roots = set(con.roots)
        for comp in comps:
            if comp & roots:
                continue
            cut = crossing(con, comp)
            cuts.extend(clause_cut([lit_of[u]], cut, None) for u in sorted(comp))
        return cuts
    if len(comps) < 2:
        return []
    largest = max(comps, key=lambda c: (len(c), -min(c)))
    t = min(largest)
    for comp in comps:
        if comp is largest:
            continue
        s = min(comp)
        cuts.append(clause_cut([lit_of[s], lit_of[t]], crossing(con, comp), None))
        cuts.append(clause_cut([lit_of[s], lit_of[t]], crossing(con, largest), None))
    return cuts
