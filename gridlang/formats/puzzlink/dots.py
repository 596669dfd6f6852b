"""The ``dots`` place: values on the doubled lattice inside the grid, spread into the map's three layers.

pzprjs's dots (``Board.initDots`` of ``hasdots: 1``, robx/pzprjs, MIT
licence) are the points ``(bx, by)`` with ``1 <= bx <= 2 cols - 1`` and
``1 <= by <= 2 rows - 1``, row by row: both odd a cell's centre, one even
the middle of the border between two cells, both even a corner inside the
grid. A format item ``dots: ENCODING`` reads one value per point; each goes
to its place's layer through the tiles on that kind of place (the grid's
tiles, the tiles ``on borders``, the tiles ``on corners``), so that rules
reach a dot as they reach any clue on a cell, a border or a corner.
"""

from __future__ import annotations

from gridlang.core.grid import border_cells, border_index, cell_name
from gridlang.language.encodings.placement import NOT_MINE, Placement

KINDS = ("cells", "borders", "corners")
"""The kinds of place a dot stands on, as the map's layers hold them."""


def lattice(rows: int, cols: int) -> list[tuple[str, object]]:
    """Each dot's place, in pzprjs's order: ``("cells", k)`` (row-major), ``("borders", i)`` (pzprjs's order
    of the borders: those between left and right neighbours row by row, then the others) or
    ``("corners", (r, c))`` (corner r, c of the ``corners:`` layer, the top-left one of cell r, c)."""
    out: list[tuple[str, object]] = []
    for by in range(1, 2 * rows):
        for bx in range(1, 2 * cols):
            r, c = by // 2, bx // 2
            p = r * cols + c
            if by % 2 and bx % 2:
                out.append(("cells", p))
            elif by % 2:  # between (r, c - 1) and (r, c)
                out.append(("borders", border_index(rows, cols, p - 1, p)))
            elif bx % 2:  # between (r - 1, c) and (r, c)
                out.append(("borders", border_index(rows, cols, p - cols, p)))
            else:
                out.append(("corners", (r, c)))
    return out


def placements(entries, symbols, encoding: str, tiles_of) -> dict[str, Placement]:
    """One placement per kind of place, each with the mapping's entries whose tile stands there (a value may
    go to a tile on each kind: ``(1 = dot, 1 = dot_on_border, 1 = dot_on_corner)``).

    Args:
        entries: the item's mapping entries (:class:`~gridlang.language.ast.FormatEntry`).
        symbols: the checked spec's symbols.
        encoding: the item's encoding name.
        tiles_of: kind -> the spec's tiles on that kind of place.
    """
    out = {}
    for kind in KINDS:
        own = {e.key: e.value for e in entries if e.value in tiles_of(kind)}
        out[kind] = Placement(own, symbols, encoding, corners=kind == "corners", borders=kind == "borders")
    return out


def spread(values, where, link, layout, kinds: dict[str, Placement], grids, body, describe) -> None:
    """Put each decoded dot into its layer.

    Args:
        values, where: the decoded values and the body index of each.
        link: the URL (its size).
        layout: the map's layout (where a cell of the grid stands in the map).
        kinds: :func:`placements`.
        grids: ``(tokens, border_tokens, corner_tokens)``, the layers being filled.
        body: the URL's body, for errors.
        describe: a value's words for messages.

    Raises:
        UrlError: a value with no tile on its kind of place, at its character.
    """
    tokens, border_tokens, corner_tokens = grids
    for value, (kind, at_place), at in zip(values, lattice(link.rows, link.cols), where):
        if value is None:
            continue
        tok = kinds[kind].token(value)
        if tok is None:
            raise body.error(
                f"{describe(value)} on a {kind[:-1]} has no tile there (map it to a tile on "
                f"{kind} in the format's dots item)",
                at,
            )
        if kind == "cells":
            r, c = layout.inner(at_place)
            tokens[r][c] = tok
        elif kind == "borders":
            border_tokens[at_place] = tok
        else:
            corner_tokens[at_place[0]][at_place[1]] = tok


def gather(data, layout, kinds: dict[str, Placement], claimed, strict: dict[str, str | None]) -> list:
    """The dots of a map, one value per point in pzprjs's order.

    Args:
        data: the map.
        layout: its layout.
        kinds: :func:`placements`.
        claimed: the map cells other items write (a cell holding a dot is claimed here).
        strict: kind -> the empty token of a layer no other item writes (a token there that is neither a
            dot nor empty is an error), or None where another item writes that layer.

    Raises:
        MapError: a layer the map lacks, or a token that has no place in the format.
    """
    out = []
    for kind, at_place in lattice(layout.rows, layout.cols):
        if kind == "cells":
            r, c = layout.inner(at_place)
            tok, span = data.rows[r][c], data.span(r, c)
        elif kind == "borders":
            if data.borders is None:
                raise data.error(
                    "the format writes dots on the borders, and the map has no 'borders:' layer", data.span(0, 0)
                )
            tok, span = data.borders[at_place], data.border_span(at_place)
        else:
            if data.corners is None:
                raise data.error(
                    "the format writes dots on the corners, and the map has no 'corners:' layer", data.span(0, 0)
                )
            tok, span = data.corners[at_place[0]][at_place[1]], data.corner_span(*at_place)
        value = kinds[kind].value(str(tok))
        if value is NOT_MINE:
            if strict.get(kind) is not None and str(tok) != strict[kind]:
                raise data.error(f"{tok!r} has no place in the format's dots (nor in another item)", span)
            value = None
        elif kind == "cells":
            claimed[r][c] = True
        out.append(value)
    return out


def where(data, layout, index: int):
    """The span and the words of dot ``index`` of the lattice, for an error in the map."""
    kind, at_place = lattice(layout.rows, layout.cols)[index]
    if kind == "cells":
        r, c = layout.inner(at_place)
        return data.span(r, c), f"row {r + 1}, column {c + 1}"
    if kind == "borders":
        p, q = (divmod(i, layout.cols) for i in border_cells(layout.rows, layout.cols, at_place))
        return data.border_span(at_place), f"the border between {cell_name(*p)} and {cell_name(*q)}"
    return data.corner_span(*at_place), f"corner row {at_place[0] + 1}, column {at_place[1] + 1}"
