"""The interpreter's evaluation of decisions on edges, straight from their meaning.

An answer gives a decision on edges as the set of its chosen edges, each
``((r1, c1), (r2, c2))``: two side-neighbouring cells (``on edges``) or two
adjacent corners of the cell lattice (``on corner edges``, corners ``(0,
0)`` to ``(rows, cols)``). Degrees are counted, loops traced and
components found by breadth-first search on those pairs, with nothing
taken from the compiler.
"""

from __future__ import annotations

from collections import deque

from .. import ast

Point = tuple[int, int]
Edge = tuple[Point, Point]


class EdgeRules:
    """Edge constructs for :class:`~gridlang.interpreter.core.Interpreter` (a mixin)."""

    def edge_lattices(self) -> dict[str, str]:
        """Decision name -> ``"edges"`` or ``"corners"`` for the spec's decisions on edges."""
        return {d.name: d.lattice for d in self.spec.of(ast.Decide) if d.lattice is not None}

    def possible_edges(self, lattice: str) -> set[Edge]:
        """Every edge a decision on ``lattice`` is made on."""
        h, w = (self.grid.rows, self.grid.cols) if lattice == "edges" else (self.grid.rows + 1, self.grid.cols + 1)
        out = set()
        for r in range(h):
            for c in range(w):
                if c + 1 < w:
                    out.add(((r, c), (r, c + 1)))
                if r + 1 < h:
                    out.add(((r, c), (r + 1, c)))
        return out

    def check_edge_decision(self, d: ast.Decide, given: dict) -> None:
        """Read the chosen edges of ``d`` into ``self.lines``; record malformed entries."""
        possible = self.possible_edges(d.lattice)
        chosen: set[Edge] = set()
        bad = []
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
            elif value is True or value == 1:
                chosen.add(edge)
        if bad:
            what = "side-neighbouring cells" if d.lattice == "edges" else "adjacent lattice corners"
            self.fail(f"{d.name!r} is given on keys that are no edge between two {what}: " + ", ".join(bad[:5]))
        self.lines[d.name] = chosen

    def sides(self, name: str, p: int) -> list[bool]:
        """Whether each side of cell p (up, right, down, left) carries a chosen edge of ``name``."""
        chosen = self.lines[name]
        r, c = divmod(p, self.grid.cols)
        if self.lattices[name] == "corners":
            edges = [((r, c), (r, c + 1)), ((r, c + 1), (r + 1, c + 1)), ((r + 1, c), (r + 1, c + 1)),
                     ((r, c), (r + 1, c))]
        else:
            edges = [((r - 1, c), (r, c)), ((r, c), (r, c + 1)), ((r, c), (r + 1, c)), ((r, c - 1), (r, c))]
        return [e in chosen for e in edges]

    def edge_holds(self, f) -> bool:
        """``line[p, q]``, ``straight(line, p)``, ``turn(line, p)``."""
        if isinstance(f, ast.EdgeAt):
            p, q = self.cell(f.a), self.cell(f.b)
            if p is None or q is None:
                return False
            a, b = divmod(p, self.grid.cols), divmod(q, self.grid.cols)
            return (min(a, b), max(a, b)) in self.lines[f.name.id]
        p = self.cell(f.cell)
        if p is None:
            return False
        up, right, down, left = self.sides(f.name.id, p)
        if up + right + down + left != 2:
            return False
        opposite = (up and down) or (left and right)
        return opposite if f.kind == "straight" else not opposite

    def degree(self, e: ast.Degree) -> int:
        """``degree(line, p)``."""
        p = self.cell(e.cell)
        return 0 if p is None else sum(self.sides(e.name.id, p))

    def along(self, e: ast.ComponentAlong) -> frozenset[int]:
        """``component of p along line`` (or ``of S``): breadth-first search over the chosen edges from p
        (from every cell of S)."""
        starts = self.cells(e.cell)
        if not starts:
            return frozenset()
        adj: dict[Point, list[Point]] = {}
        for a, b in self.lines[e.name.id]:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        seen = {divmod(p, self.grid.cols) for p in starts}
        queue = deque(sorted(seen))
        while queue:
            for w in adj.get(queue.popleft(), ()):
                if w not in seen:
                    seen.add(w)
                    queue.append(w)
        return frozenset(r * self.grid.cols + c for r, c in seen)

    def is_loop(self, f: ast.IsLoop) -> None:
        """``line is a loop``: one closed loop, every end of a chosen edge meeting exactly two of them."""
        chosen = self.lines[f.name.id]
        if not chosen:
            self.fail(f"{f.name.id!r} has no chosen edge, so no loop")
            return
        adj: dict[Point, list[Point]] = {}
        for a, b in chosen:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        odd = sorted(v for v, ws in adj.items() if len(ws) != 2)
        if odd:
            self.fail(f"{len(odd)} point(s) meet 1, 3 or 4 chosen edges, not 2 (a dead end or a branch): "
                      + ", ".join(map(str, odd[:5])))
            return
        start = min(adj)
        seen, queue = {start}, deque([start])
        while queue:
            for w in adj[queue.popleft()]:
                if w not in seen:
                    seen.add(w)
                    queue.append(w)
        if len(seen) != len(adj):
            self.fail(f"the chosen edges of {f.name.id!r} form more than one loop")
