"""The interpreter's evaluation of decisions on edges and corners, straight from their meaning.

An answer gives a decision on edges as its edges, each ``((r1, c1), (r2,
c2))``: two side-neighbouring cells (``on edges``) or two adjacent corners
of the cell lattice (``on corner edges``, corners ``(0, 0)`` to ``(rows,
cols)``, corner ``(r, c)`` the top-left corner of cell ``(r, c)``). A
Boolean decision lists its chosen edges; an integer one (``0..2``) gives
every edge its value, and an edge is chosen when its value is not 0.
Degrees are summed, loops traced and components found by breadth-first
search on those pairs, with nothing taken from the compiler.
"""

from __future__ import annotations

from collections import deque

from gridlang.core.grid import edge_adjacency, edge_pieces, lattice_edges
from gridlang.interpreter.verdict import _MAX_SHOWN
from gridlang.language import ast

Point = tuple[int, int]
Edge = tuple[Point, Point]


class EdgeRules:
    """Edge and corner constructs for :class:`~gridlang.interpreter.core.Interpreter` (a mixin)."""

    def edge_lattices(self) -> dict[str, str]:
        """Decision name -> ``"edges"`` or ``"corners"`` for the spec's decisions on edges."""
        return {d.name: d.lattice for d in self.spec.of(ast.Decide) if d.lattice is not None}

    def possible_edges(self, lattice: str) -> set[Edge]:
        """Every edge a decision on ``lattice`` is made on."""
        return set(lattice_edges(self.grid.rows, self.grid.cols, lattice))

    def check_edge_decision(self, d: ast.Decide, given: dict) -> None:
        """Read the edges of ``d`` into ``self.edge_values`` and its chosen ones into ``self.lines``;
        record malformed entries, and for an integer decision values outside its domain and edges
        without a value."""
        possible = self.possible_edges(d.lattice)
        values: dict[Edge, int] = {}
        bad, odd = [], []
        for key, value in given.items():
            try:
                a, b = (tuple(int(x) for x in end) for end in key)
                if len(a) != 2 or len(b) != 2:
                    raise ValueError
            except (TypeError, ValueError):
                bad.append(repr(key))
                continue
            edge = (min(a, b), max(a, b))
            if edge not in possible:
                bad.append(repr(key))
            elif not d.is_enum:
                if value is True or value == 1:
                    values[edge] = 1
            elif type(value) is int and value in self.domains[d.name]:
                values[edge] = value
            else:
                odd.append(f"{edge}: {value!r}")
        if bad:
            what = "side-neighbouring cells" if d.lattice == "edges" else "adjacent lattice corners"
            self.fail(f"{d.name!r} is given on keys that are no edge between two {what}: " + ", ".join(bad[:5]))
        if odd:
            self.fail(f"{d.name!r} takes values outside its domain ({', '.join(map(str, self.domains[d.name]))}) "
                      f"on {len(odd)} edge(s): " + ", ".join(odd[:_MAX_SHOWN]))
        if d.is_enum:
            missing = [e for e in sorted(possible) if e not in values and not any(o.startswith(f"{e}:") for o in odd)]
            if missing:
                self.fail(f"{d.name!r} has no value on {len(missing)} of its edges: "
                          + ", ".join(map(str, missing[:_MAX_SHOWN])))
        self.edge_values[d.name] = values
        self.lines[d.name] = {e for e, v in values.items() if v != 0}

    # points: cells and corners ---------------------------------------------------------
    def is_corner(self, e: ast.Expr) -> bool:
        """Whether ``e`` stands for a corner: a bound corner variable, or ``v + d``."""
        if isinstance(e, ast.Name):
            return e.id in self.cornervars
        return isinstance(e, ast.Add) and self.is_corner(e.left)

    def corner(self, e: ast.Expr) -> Point | None:
        """The corner ``(row, col)`` ``e`` stands for; None off the lattice."""
        if isinstance(e, ast.Name):
            return self.cornervars[e.id]
        base = self.corner(e.left)
        if base is None:
            return None
        dr, dc = self.step(e.right)
        r, c = base[0] + e.sign * dr, base[1] + e.sign * dc
        return (r, c) if 0 <= r <= self.grid.rows and 0 <= c <= self.grid.cols else None

    def corners(self, e: ast.Expr) -> list[Point]:
        """``corners(p)``: the four corners of cell p, top-left first, row-major; or one corner."""
        if isinstance(e, ast.CornersOf):
            p = self.cell(e.cell)
            if p is None:
                return []
            r, c = divmod(p, self.grid.cols)
            return [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        v = self.corner(e)
        return [] if v is None else [v]

    def is_corners(self, e: ast.Expr) -> bool:
        return isinstance(e, ast.CornersOf) or self.is_corner(e)

    def point(self, e: ast.Expr) -> Point | None:
        """A cell's or a corner's ``(row, col)``; None off the grid."""
        if self.is_corner(e):
            return self.corner(e)
        p = self.cell(e)
        return None if p is None else divmod(p, self.grid.cols)

    def frame(self, name: str, e: ast.Expr) -> list[Edge]:
        """The four edges at a point, up, right, down, left (some may not exist): a cell's sides, the
        four edges framing a cell on corner edges, or the edges meeting at a corner."""
        at = self.point(e)
        if at is None:
            return []
        r, c = at
        if self.lattices[name] == "corners" and not self.is_corner(e):
            return [((r, c), (r, c + 1)), ((r, c + 1), (r + 1, c + 1)), ((r + 1, c), (r + 1, c + 1)),
                    ((r, c), (r + 1, c))]
        return [((r - 1, c), (r, c)), ((r, c), (r, c + 1)), ((r, c), (r + 1, c)), ((r, c - 1), (r, c))]

    def sides(self, name: str, e: ast.Expr) -> list[bool]:
        """Whether each of the point's four edges (up, right, down, left) is chosen."""
        return [edge in self.lines[name] for edge in self.frame(name, e)]

    def edge_value(self, f: ast.EdgeAt) -> int:
        """``bridge[p, q]``: the value on the edge between p and q (1 or 0 for a Boolean decision;
        0 when they are not neighbours or one is off the grid)."""
        a, b = self.point(f.a), self.point(f.b)
        if a is None or b is None:
            return 0
        return self.edge_values[f.name.id].get((min(a, b), max(a, b)), 0)

    def edge_holds(self, f) -> bool:
        """``line[p, q]``, ``straight(line, p)``, ``turn(line, p)``."""
        if isinstance(f, ast.EdgeAt):
            return self.edge_value(f) != 0
        if self.point(f.cell) is None:
            return False
        up, right, down, left = self.sides(f.name.id, f.cell)
        if up + right + down + left != 2:
            return False
        opposite = (up and down) or (left and right)
        return opposite if f.kind == "straight" else not opposite

    def degree(self, e: ast.Degree) -> int:
        """``degree(line, p)``: the sum of the values on the point's edges."""
        values = self.edge_values[e.name.id]
        return sum(values.get(edge, 0) for edge in self.frame(e.name.id, e.cell))

    def along(self, e: ast.ComponentAlong) -> frozenset[int]:
        """``component of p along line`` (or ``of S``): breadth-first search over the chosen edges from p
        (from every cell of S)."""
        starts = self.cells(e.cell)
        if not starts:
            return frozenset()
        adj = edge_adjacency(self.lines[e.name.id])
        seen = {divmod(p, self.grid.cols) for p in starts}
        queue = deque(sorted(seen))
        while queue:
            for w in adj.get(queue.popleft(), ()):
                if w not in seen:
                    seen.add(w)
                    queue.append(w)
        return frozenset(r * self.grid.cols + c for r, c in seen)

    def lines_connected(self, st: ast.IsConnected) -> None:
        """``line is connected``: the chosen edges form one connected graph (none at all is connected)."""
        pieces = edge_pieces(edge_adjacency(self.lines[st.cells.id]))
        if len(pieces) > 1:
            sizes = ", ".join(str(len(p)) for p in pieces)
            self.fail(f"the chosen edges of {st.cells.id!r} fall into {len(pieces)} pieces ({sizes} points); "
                      f"points of the second: " + ", ".join(map(str, sorted(pieces[1])[:5])))

    def is_loop(self, f: ast.IsLoop) -> None:
        """``line is a loop``: one closed loop, every end of a chosen edge meeting exactly two of them."""
        chosen = self.lines[f.name.id]
        if not chosen:
            self.fail(f"{f.name.id!r} has no chosen edge, so no loop")
            return
        adj = edge_adjacency(chosen)
        odd = sorted(v for v, ws in adj.items() if len(ws) != 2)
        if odd:
            self.fail(f"{len(odd)} point(s) meet 1, 3 or 4 chosen edges, not 2 (a dead end or a branch): "
                      + ", ".join(map(str, odd[:5])))
            return
        if len(edge_pieces(adj)) > 1:
            self.fail(f"the chosen edges of {f.name.id!r} form more than one loop")

