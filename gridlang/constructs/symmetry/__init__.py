"""Point symmetry: ``S is symmetric about x``, and ``wall divides S into regions symmetric about T``.

``S is symmetric about x`` (a rule of its own, under ``for each`` as any
rule, never inside a condition) says that the half-turn about the point x
maps the cell set S onto itself: for every cell p of S, the cell ``2x -
p`` is a cell of the grid and is in S. The point x is a cell's centre (a
cell variable, ``p + d``), the middle of a border between two cells (a
``for each`` variable over a tile on borders) or a corner of the cells (a
corner of the lattice: ``for each corner v``, a tile on corners, ``v +
d``): the dot positions of pzprjs's Tentaisho. The region is any cell
set: a Boolean decision's cells, the cells a decision gives one value
(``owner = c``), a component along a decision on edges. The empty set is
symmetric about every point.

``wall divides S into regions symmetric about T, ...`` (a rule of its own)
says that the chosen edges of ``wall``, a Boolean decision on the edges
between cells, cut the cells of S (a fixed cell set) into regions (the
groups of cells of S joined by edges without a wall) such that each
region holds exactly one point of the tiles T (in cells, on borders, on
corners: a point is in the region that holds every cell it touches) and
is symmetric about it, and that a wall stands exactly between two
neighbours of different regions: pzprjs's Tentaisho (``tentaisho``:
"divide the grid into regions, each holding exactly one dot and
point-symmetric about it"; its checks ``bdPassStar``, ``bkNoStar``,
``bkNotSymSt``, ``bkPlStar``). The edges from a cell of S to a cell
outside it are left to the spec.

The points are counted on the doubled lattice (:mod:`.nodes`): cell ``(r,
c)`` is ``(2r + 1, 2c + 1)``, the border between cells ``(r, c)`` and
``(r, c + 1)`` is ``(2r + 1, 2c + 2)``, corner ``(r, c)`` (the top-left
corner of cell ``(r, c)``) is ``(2r, 2c)``; the mirror of cell ``(r, c)``
about the point ``(y, x)`` is the cell ``(y - r - 1, x - c - 1)``. What
each form costs is in :mod:`.lower`: a clause per cell the region may
hold; for a division, the cells times the points within reach, never a
quantification over pairs of cells.

Its parts, one construct: the nodes (:mod:`.nodes`), the type checks
(:mod:`.check`), the lowering (:mod:`.lower`) and the evaluation on an
answer (:mod:`.evaluate`), which share nothing but the nodes and the
doubled lattice's arithmetic; here, the parse-tree builders and the hooks
registered by node type (:mod:`gridlang.language.constructs`).
"""

from __future__ import annotations

from typing import ClassVar

from gridlang.constructs.symmetry import check, evaluate, lower
from gridlang.constructs.symmetry.nodes import Divides, Symmetric
from gridlang.core.errors import GridSyntaxError
from gridlang.language import ast
from gridlang.language.constructs import Construct, register

__all__ = ["Divides", "Symmetric"]


def _divides(transformer, meta, c: list) -> Divides:
    """``wall divides S into regions symmetric about T, ...``: the parse-tree rule ``divides``,
    ``[wall, S, T, ...]``.

    Raises:
        GridSyntaxError: the left side is not a name.
    """
    if not isinstance(c[0], ast.Name):
        raise GridSyntaxError("'divides ... into regions' applies to a decision on edges, by its name",
                              transformer.sp(meta))
    names = tuple(ast.Name(str(t), transformer.sp(t)) for t in c[2:])
    return Divides(c[0], c[1], names, transformer.sp(meta))


class SymmetricConstruct(Construct):
    """``S is symmetric about x``: a rule of its own."""

    node = Symmetric
    rules: ClassVar[dict] = {"symmetric": lambda t, meta, c: Symmetric(c[0], c[1], t.sp(meta))}
    statement = True

    def type_of(self, checker, e: Symmetric):
        return check.symmetric_type(checker, e)

    def assert_rule(self, compiler, e: Symmetric, guard: tuple[int, ...]) -> None:
        lower.symmetric(compiler, e, guard)

    def rule_violation(self, interpreter, e: Symmetric):
        return evaluate.symmetric_violation(interpreter, e)


class DividesConstruct(Construct):
    """``wall divides S into regions symmetric about T, ...``: a rule of its own."""

    node = Divides
    rules: ClassVar[dict] = {"divides": _divides}
    statement = True

    def type_of(self, checker, e: Divides):
        return check.divides_type(checker, e)

    def assert_rule(self, compiler, e: Divides, guard: tuple[int, ...]) -> None:
        lower.divides(compiler, e, guard)

    def rule_violation(self, interpreter, e: Divides):
        return evaluate.divides_violation(interpreter, e)


register(SymmetricConstruct())
register(DividesConstruct())
