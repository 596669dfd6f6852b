"""Rooms bounded by the borders of some tiles: a format's ``rooms: walls (TILE = wall, ...)``.

Some pzprjs genres read no rooms from their URL: their areas are the cells
that borders of one kind do not separate, read from the borders the URL
gives (an ``AreaGraph`` whose separator is a border's ``ques``, robx/pzprjs,
MIT licence). The item reads and writes no part of the URL; the room layer
the map is given comes from the border layer read by the format's
``borders`` item.
"""

from __future__ import annotations

from gridlang.core.grid import border_index, flood_rooms


def rooms_between(
    rows: int, cols: int, tokens: list[str], border_chars, mapping: dict
) -> list[int]:
    """Each cell's room, row-major, rooms numbered in the order of their first cell: the cells joined by
    the borders between them whose tile the mapping does not name a wall.

    Args:
        rows, cols: the grid's size in cells.
        tokens: the border layer's tokens in pzprjs's order (the frame's, if any, after the others).
        border_chars: the spec's characters of its tiles on borders (character -> tile name).
        mapping: the item's mapping, tile name -> ``"wall"``.
    """
    walls = {tile for tile, what in mapping.items() if what == "wall"}

    def joined(u: int, v: int) -> bool:
        return border_chars.get(tokens[border_index(rows, cols, u, v)]) not in walls

    return flood_rooms(rows, cols, joined)
