"""The Arukone plug-in: Numberlink's rules, and every cell on a line.

Published rules (pzprjs ``arukone``, after Nikoli's Numberlink): join each
pair of equal numbers by a line through the centres of cells, moving between
side neighbours; lines do not cross, branch or share a cell; every line
joins two numbers; and every cell is on a line (pzprjs's ``checkNoLine``,
unless the URL's ``e`` flag lets cells stay empty, which is Numberlink: the
spec's parameter ``empty_cells`` is then 1).
"""

from __future__ import annotations

from gridlang.core.grid import cell_names, edge_adjacency
from gridlang.families.common import verdict
from gridlang.families.lines import chosen_edges
from gridlang.families.numberlink import NumberlinkPlugin
from gridlang.families.numberlink import verify as verify_numberlink
from gridlang.plugins import Verdict

NAME = "Arukone"


def verify(grid, solution, params, variant=None) -> Verdict:
    """Check an Arukone answer: Numberlink's rules (:func:`gridlang.families.numberlink.verify`), and no empty
    cell unless ``params["empty_cells"]`` is 1."""
    first = verify_numberlink(grid, solution, params, variant)
    problems = list(first.problems)
    adj = edge_adjacency(chosen_edges(solution))
    empty = [divmod(i, grid.cols) for i in range(grid.rows * grid.cols) if divmod(i, grid.cols) not in adj]
    if empty and params.get("empty_cells", 0) != 1:
        problems.append(f"{len(empty)} cells are on no line, e.g. {cell_names(empty[:6])}")
    return verdict(NAME, problems, edges=len(chosen_edges(solution)))


class ArukonePlugin(NumberlinkPlugin):
    """Arukone: Numberlink's verifier, with every cell on a line."""

    name = "arukone"

    def verify(self, grid, solution, params, variant=None):
        return verify(grid, solution, params, variant)


PLUGIN = ArukonePlugin()
