"""Read an answer file: each decision's value on each cell, for the spec-level verifier.

The format is the one ``gridlang solve --json`` prints, or its ``decisions``
object alone::

    {"decisions": {"wall": [[[3, 4], 1], [[5, 2], 1]],
                   "kind": [[[0, 0], "snake"], [[0, 1], 3], ...]}}

Cells are ``[row, col]``, 0-based, row 0 at the top. A Boolean decision lists
its true cells with the value ``1`` (``true`` is accepted; ``0`` or ``false``
mark a cell false, the same as leaving it out). An enumerated decision lists
each cell's value: a value name as a string, an integer as a number, a
cell (the value of a decision whose values are cells) as ``[row, col]``.

Every problem raises :class:`AnswerError` located in the answer file
(``file:line:col``), at the key, entry or value that is wrong: text that is
not UTF-8 or not JSON, a shape other than the above, a cell outside the map
or listed twice, a decision the spec does not declare, a value outside the
decision's domain. Whether the answer obeys the rules (a wall off the grass,
an enumeration missing a cell) is the verifier's question, not the reader's:
see :func:`gridlang.interpreter.evaluate`. :func:`check_answer` runs both,
from the spec, map and answer files to the verdict.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path

from gridlang.core.errors import GridlangError, Span, json_int, load_json, read_source
from gridlang.core.grid import Grid
from gridlang.core.limits import MAX_ANSWER_BYTES
from gridlang.formats.maps import build_grid, check_variant, read_map
from gridlang.formats.params import resolve_params
from gridlang.interpreter import SpecVerdict, evaluate
from gridlang.language import ast
from gridlang.language.checker import Symbols
from gridlang.language.parser import parse_and_check_file

_WS = " \t\r\n"
_REPORT_KEYS = ("status", "puzzle", "spec", "map", "objective")


class AnswerError(GridlangError, ValueError):
    """An answer file is malformed or names what its spec and map do not have."""


@dataclass
class _Node:
    """A JSON value and its character offsets in the text (``end`` one past
    its last character): ``value`` is a list of nodes for an array, a list of
    ``(key, key offset, node)`` for an object, else the value itself."""

    kind: str  # "object", "array" or "scalar"
    value: object
    start: int
    end: int


def read_answer(path: str | Path, grid: Grid, symbols: Symbols,
                params: dict[str, object] | None = None) -> dict[str, dict[int, object]]:
    """Read an answer for a spec on a map.

    Args:
        path: the answer file (JSON).
        grid: the map the answer is for (its size bounds the cells).
        symbols: the spec's symbol table.
        params: the parameters' values; with them, an integer value of an
            enumeration whose domain includes a ``set of int`` parameter is
            checked against that parameter's entries (without them, any
            integer passes here and the verifier judges it).

    Returns:
        Decision name -> {cell index: value}, for the decisions the file
        lists: a Boolean decision's true cells with the value True, an
        enumeration's values as strings (value names) and ints.

    Raises:
        AnswerError: the file cannot be read, is not UTF-8, not JSON, or
            not of the shape above; a cell is outside the map or listed
            twice; a decision or value is not the spec's.
    """
    p = str(path)
    text = read_source(path, AnswerError, "answer", MAX_ANSWER_BYTES)
    if not text.strip():
        raise AnswerError("the answer file is empty", Span(p, 1, 1), source=text)
    load_json(text, p, AnswerError, "answer")
    try:
        return _Reader(p, text, grid, symbols, params).run()
    except RecursionError as e:
        raise AnswerError("the answer nests too deeply to be an answer", Span(p, 1, 1), source=text) from e


def check_answer(spec_path: str | Path, map_path: str | Path, answer_path: str | Path,
                 params: dict[str, str] | None = None) -> SpecVerdict:
    """Judge an answer file against a spec on a map: every step a ``verify`` command needs.

    Args:
        spec_path: the ``.grid`` spec.
        map_path: the map or instance.
        answer_path: the answer (:func:`read_answer`'s format).
        params: command-line parameter values, as text, by name (as for ``solve``).

    Returns:
        The verdict; :meth:`~gridlang.interpreter.SpecVerdict.render` gives
        its violations as ``SPEC:LINE:COL: rule violated: ...``.

    Raises:
        GridlangError: a problem in the spec, the map, a parameter or the
            answer file, located in its file.
    """
    spec, symbols = parse_and_check_file(spec_path)
    data = read_map(map_path, spec=spec)
    check_variant(spec, data)
    grid = build_grid(symbols, data)
    values = resolve_params(symbols, data, params)
    decisions = read_answer(answer_path, grid, symbols, values)
    return evaluate(spec, symbols, grid, values, decisions)


class _Reader:
    def __init__(self, path: str, text: str, grid: Grid, symbols: Symbols, params: dict[str, object] | None):
        self.path, self.text, self.grid, self.sym, self.params = path, text, grid, symbols, params
        self.decoder = json.JSONDecoder(parse_int=json_int)

    def error(self, message: str, start: int, end: int | None = None) -> AnswerError:
        line = self.text.count("\n", 0, start) + 1
        col = start - (self.text.rfind("\n", 0, start) + 1) + 1
        end_col = None
        if end is not None and "\n" not in self.text[start:end]:
            end_col = col + (end - start)
        return AnswerError(message, Span(self.path, line, col, end_col), source=self.text)

    def run(self) -> dict[str, dict[int, object]]:
        top = self.parse(self.skip(0))
        if top.kind != "object":
            raise self.error("an answer is a JSON object: {\"decisions\": {\"NAME\": [[[row, col], value], ...]}}",
                             top.start, top.end)
        keys = {k: node for k, _, node in top.value}
        body = top
        if "decisions" in keys and ("decisions" not in self.sym.decisions or keys["decisions"].kind == "object"):
            body = keys["decisions"]
            if body.kind != "object":
                raise self.error('"decisions" is an object: {"NAME": [[[row, col], value], ...]}',
                                 body.start, body.end)
        else:
            report = [(k, off) for k, off, _ in top.value if k in _REPORT_KEYS and k not in self.sym.decisions]
            if report:
                status = keys.get("status")
                told = f" (status {status.value})" if status is not None and status.kind == "scalar" else ""
                raise self.error(f"the answer has no \"decisions\": the solve it records found no solution{told}",
                                 top.start, top.start + 1)
        out: dict[str, dict[int, object]] = {}
        seen: dict[str, int] = {}
        for name, offset, node in body.value:
            if name in seen:
                raise self.error(f"decision {name!r} is listed twice", offset, offset + len(name) + 2)
            seen[name] = offset
            decl = self.sym.decisions.get(name)
            if decl is None:
                known = ", ".join(self.sym.decisions) or "none"
                close = difflib.get_close_matches(name, list(self.sym.decisions), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else f" (it has: {known})"
                raise self.error(f"the spec declares no decision {name!r}{hint}", offset, offset + len(name) + 2)
            out[name] = self.decision(decl, node)
        return out

    def decision(self, decl: ast.Decide, node: _Node) -> dict[int, object]:
        shape = f"decision {decl.name!r} lists its cells as [[row, col], value] pairs"
        if node.kind != "array":
            raise self.error(shape, node.start, node.end)
        if decl.lattice is not None:
            shape = (f"decision {decl.name!r} is made on edges: it lists them as [[[r1, c1], [r2, c2]], value], "
                     f"the edge's two ends")
        cells: dict = {}
        listed: set = set()
        for entry in node.value:
            if entry.kind != "array" or len(entry.value) != 2 or entry.value[0].kind != "array":
                raise self.error(shape + "; this entry is not one", entry.start, entry.end)
            where, value = entry.value
            cell = self.cell(where) if decl.lattice is None else self.edge(decl, where, shape)
            if cell in listed:
                shown = _show_cell(self.grid, cell) if isinstance(cell, int) else f"edge {cell}"
                raise self.error(f"{'cell ' if isinstance(cell, int) else ''}{shown} of {decl.name!r} is listed twice",
                                 where.start, where.end)
            listed.add(cell)
            v = self.value(decl, value)
            if v is not None:
                cells[cell] = v
        return cells

    def edge(self, decl: ast.Decide, node: _Node, shape: str) -> tuple:
        """An edge ``[[r1, c1], [r2, c2]]``: two side-neighbouring cells, or two adjacent lattice corners."""
        ends = node.value
        if len(ends) != 2 or any(e.kind != "array" or len(e.value) != 2 or any(
                p.kind != "scalar" or type(p.value) is not int for p in e.value) for e in ends):
            raise self.error(shape + "; this entry is not one", node.start, node.end)
        a, b = (tuple(p.value for p in e.value) for e in ends)
        rows, cols = (self.grid.rows, self.grid.cols) if decl.lattice == "edges" else \
            (self.grid.rows + 1, self.grid.cols + 1)
        inside = all(0 <= r < rows and 0 <= c < cols for r, c in (a, b))
        if not inside or abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            what = "cells" if decl.lattice == "edges" else f"corners of the {rows}x{cols} lattice"
            raise self.error(f"[{list(a)}, {list(b)}] is no edge of {decl.name!r}: its ends are two side-by-side "
                             f"{what}, rows and columns from 0", node.start, node.end)
        return (min(a, b), max(a, b))

    def cell(self, node: _Node) -> int:
        parts = node.value
        if len(parts) != 2 or any(p.kind != "scalar" or type(p.value) is not int for p in parts):
            raise self.error("a cell is [row, col], two integers", node.start, node.end)
        r, c = parts[0].value, parts[1].value
        if not (0 <= r < self.grid.rows and 0 <= c < self.grid.cols):
            raise self.error(f"cell [{r}, {c}] is outside the map ({self.grid.rows} rows, {self.grid.cols} columns; "
                             f"rows and columns count from 0)", node.start, node.end)
        return r * self.grid.cols + c

    def value(self, decl: ast.Decide, node: _Node) -> object:
        """The value of one entry: True, None (a Boolean's false), a value name or an int."""
        v = node.value
        if not decl.is_enum:
            if node.kind == "scalar" and (v is True or v is False or type(v) is int and v in (0, 1)):
                return True if v in (True, 1) else None
            raise self.error(f"{decl.name!r} is a Boolean decision: its value is 1 (true) or 0 (false)",
                             node.start, node.end)
        if decl.name in self.sym.cell_decisions:  # a cell, [row, col]: which cells is the rules' question
            if node.kind == "array" and len(v) == 2 and all(p.kind == "scalar" and type(p.value) is int for p in v):
                return (v[0].value, v[1].value)
            raise self.error(f"a value of {decl.name!r} is a cell of {self.sym.cell_decisions[decl.name]!r}, "
                             f"[row, col] counted from 0", node.start, node.end)
        names = [p.id for p in decl.domain if isinstance(p, ast.Symbol)]
        ints, open_ints = self.ints(decl)
        if node.kind == "scalar" and isinstance(v, str):
            if v in names:
                return v
            hint = f" (an integer is written without quotes: {v})" if v.lstrip("-").isdigit() else ""
            raise self.error(f"{v!r} is not a value of {decl.name!r} ({self.show_domain(decl)}){hint}",
                             node.start, node.end)
        if node.kind == "scalar" and type(v) is int:
            if v in ints or open_ints:
                return v
            raise self.error(f"{v} is not a value of {decl.name!r} ({self.show_domain(decl)})", node.start, node.end)
        raise self.error(f"a value of {decl.name!r} is a value name in quotes or an integer "
                         f"({self.show_domain(decl)})", node.start, node.end)

    def ints(self, decl: ast.Decide) -> tuple[set[int], bool]:
        """The integer values of an enumeration, and whether some are unknown without the parameters."""
        out: set[int] = set()
        unknown = False
        for p in decl.domain:
            if isinstance(p, ast.IntLit):
                out.add(p.value)
            elif isinstance(p, ast.Name):
                if self.params is not None and p.id in self.params:
                    out.update(self.params[p.id])
                else:
                    unknown = True
            elif not isinstance(p, ast.Symbol):  # a range or the values of a tile: checked by the rules
                unknown = True
        return out, unknown

    def show_domain(self, decl: ast.Decide) -> str:
        parts = []
        for p in decl.domain:
            if isinstance(p, ast.Symbol):
                parts.append(p.id)
            elif isinstance(p, ast.IntLit):
                parts.append(str(p.value))
            elif isinstance(p, ast.DomainValues):
                parts.append(f"the values of {p.tile.id}")
            elif not isinstance(p, ast.Name):
                parts.append("a range")
            elif self.params is not None and p.id in self.params:
                parts.extend(str(x) for x in self.params[p.id])
            else:
                parts.append(f"the entries of {p.id}")
        return ", ".join(parts)

    # a JSON reader that keeps offsets (the text is known to be valid JSON) -------
    def skip(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in _WS:
            i += 1
        return i

    def parse(self, i: int) -> _Node:
        ch = self.text[i]
        if ch == "{":
            items, j = [], self.skip(i + 1)
            if self.text[j] == "}":
                return _Node("object", items, i, j + 1)
            while True:
                key, k = json.decoder.scanstring(self.text, j + 1)
                node = self.parse(self.skip(self.skip(k) + 1))  # past ':'
                items.append((key, j, node))
                j = self.skip(node.end)
                if self.text[j] == "}":
                    return _Node("object", items, i, j + 1)
                j = self.skip(j + 1)  # past ','
        if ch == "[":
            items, j = [], self.skip(i + 1)
            if self.text[j] == "]":
                return _Node("array", items, i, j + 1)
            while True:
                node = self.parse(j)
                items.append(node)
                j = self.skip(node.end)
                if self.text[j] == "]":
                    return _Node("array", items, i, j + 1)
                j = self.skip(j + 1)
        value, end = self.decoder.raw_decode(self.text, i)
        return _Node("scalar", value, i, end)


def _show_cell(grid: Grid, cell: int) -> str:
    r, c = divmod(cell, grid.cols)
    return f"[{r}, {c}]"
