"""Connectivity: its encodings, its separation routines and the lazy-cut driver.

A :class:`~gridlang.ir.model.Connected` node says: the cells whose member literal
``x_v`` is true induce a connected subgraph of the grid graph ``G = (V, E)``
(4-neighbours plus links) that contains every root. Backends lower it with one
of two strategies.

**Single-commodity flow** (Gavish & Graves style, as used for contiguity in
districting and in the Harris & Forbes Snake Eggs model). A source sends one
unit of flow to every member; flow moves only along arcs between cells and
may enter a cell only if it is a member::

    f[u,v] <= (M) * x_v                  for every arc (u, v) of G
    inflow(v) - outflow(v) = x_v         for every non-root cell v
    M = number of candidate members

With roots, the source is the set of roots (their net outflow is free).
Without roots, a root-selection variable ``r_v <= x_v`` per cell with
``sum r_v <= 1`` and ``x_v <= sum r`` picks the root, and
``inflow(v) - outflow(v) >= x_v - M * r_v``. Size: ``2|E|`` continuous or
integer flow variables and ``|V|`` conservation rows.

**Lazy separator cuts** (the logic-based Benders loop of the Snake Eggs
chapter in V. Jandhyala, *Solving Puzzles through Mathematical Programming*,
ch. 32; the same vertex-separator inequalities as cspuz and Fischetti et al.
2017 for the Steiner tree). Solve without connectivity; for each connected
component ``C`` of the chosen cells that is *stray* (misses the roots, or is
too small for a region of known size), the rim ``N(C)`` (cells adjacent to
``C`` but not in it; with roots, only the rim cells from which a root can be
reached outside ``C``) is a vertex separator between ``C`` and the rest, so::

    x_s <= sum_{w in N(C)} x_w          for every s in C

(With neither roots nor a size, the pairwise form
``x_s + x_t <= 1 + sum_{w in N(C)} x_w`` for ``t`` in another component.)
Add the cuts, solve again; stop when no component is stray. Each round adds
at most ``|C|`` rows per stray component and no variables. The loop is exact:
it ends only on a connected answer, and every cut is valid for every
connected answer.

The family, all pure Python and free of solver imports:

* :mod:`.separation`: the cuts an answer violates, the cuts known before
  solving (cut vertices, with rustworkx), and the repair of an answer;
* :mod:`.driver`: the one lazy-cut loop every backend runs (solve,
  separate, add, solve again with a hint), under the command's deadline;
* :mod:`.graph`: the cuts of :class:`~gridlang.ir.model.GraphConnected`, connectivity
  through chosen edges of an explicit graph (the lines of loop and path
  genres);
* :mod:`.encodings`: the arcs of the flow encodings and the choice of
  encoding per node, shared by the backends' native lowerings.

Each name is imported from its own module (``from
gridlang.ir.connectivity.separation import seed_cuts``); the package itself
imports none of them, so that a backend's loop (:mod:`.driver`) on a model
with no lazy node loads no cut routine.
"""
