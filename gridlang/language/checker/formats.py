"""The checks of a ``format puzzlink`` statement: its places, encodings, mappings and flags.

Run after every other statement, so that a format may stand above the
tiles and parameters it names. Every problem is located at the item, the
word or the mapping entry at fault; a value that an encoding gives and the
spec has no tile for is found here, not only when a URL comes.
"""

from __future__ import annotations

from gridlang.language import ast
from gridlang.language.encodings.table import BORDER_PLACES, CELL_PLACES, CORNER_PLACES, DOT_PLACES, PLACES
from gridlang.language.checker.symbols import BOUND
from gridlang.language.encodings.body import UNKNOWN
from gridlang.language.encodings.own import Table, problems

KINDS = ("puzzlink",)
"""The format kinds gridlang reads."""

_PARAM_TYPES = {"int": "a whole number", "shapes": "shapes", "set of int": "a set of integers"}


def check_formats(checker, formats: list[ast.Format]) -> None:
    """Check every ``format`` statement; report through ``checker.error``.

    Args:
        checker: the spec's checker (its ``sym`` holds the declared tiles and
            parameters; ``error(message, span)`` records a problem).
        formats: the ``format`` statements, in source order.
    """
    seen: dict[str, ast.Format] = {}
    for fmt in formats:
        if fmt.kind not in KINDS:
            checker.error(f"unknown format kind {fmt.kind!r}; gridlang reads {', '.join(KINDS)} formats", fmt.kind_span)
            continue
        if fmt.kind in seen:
            checker.error(f"a spec has one {fmt.kind} format; this is the second (line {seen[fmt.kind].span.line})",
                          fmt.kind_span)
            continue
        seen[fmt.kind] = fmt
        _FormatCheck(checker, fmt).run()


class _FormatCheck:
    def __init__(self, checker, fmt: ast.Format):
        self.checker, self.fmt, self.sym = checker, fmt, checker.sym

    def error(self, message: str, span) -> None:
        self.checker.error(message, span)

    def run(self) -> None:
        # imported on use, not at start-up
        from gridlang.language.encodings.known import encodings

        self.encodings = encodings()
        names: set[str] = set()
        for name, span in zip(self.fmt.names, self.fmt.name_spans):
            if not name or any(ch in name for ch in "/?&= \t") or name != name.lower():
                self.error(f"{name!r} is no pzprjs genre name (lower case, no '/', '?', '&', '=' or space)", span)
            elif name in names:
                self.error(f"the genre name {name!r} is given twice", span)
            names.add(name)
        places: dict[str, ast.FormatItem] = {}
        earlier: list[ast.FormatItem] = []
        for item in self.fmt.parts:
            self.item(item, places, earlier)
            earlier.append(item)
        flags: dict[str, ast.FormatFlag] = {}
        for flag in self.fmt.flags:
            self.flag(flag, flags)
        self.empty_cells()

    # items -------------------------------------------------------------------
    def item(self, item: ast.FormatItem, places: dict, earlier: list) -> None:
        place = item.place
        param = self.sym.params.get(place)
        if place in CORNER_PLACES and not self.sym.corner_tiles:
            self.error("the format fills the corners of the cells, and the spec puts no tile on them: declare "
                       "one, as in 'tile clue number on corners'", item.place_span)
            return
        if place in BORDER_PLACES and not self.sym.border_tiles:
            self.error("the format fills the borders between cells, and the spec puts no tile on them: declare "
                       "one, as in 'tile white 'w' on borders'", item.place_span)
            return
        if place in DOT_PLACES and not (self.sym.corner_tiles and self.sym.border_tiles):
            self.error("the format fills the dots of the lattice, which stand on cells, borders and corners, and "
                       "the spec puts no tile on borders or on corners: declare them, as in 'tile dot_b 'o' on "
                       "borders' and 'tile dot_c 'o' on corners'", item.place_span)
            return
        if (place in CORNER_PLACES or place in BORDER_PLACES or place in DOT_PLACES) and any(
                p.place.startswith("outside")
                                                                       for p in self.fmt.parts):
            what = "corners of the cells" if place in CORNER_PLACES else "dots of the lattice" \
                if place in DOT_PLACES else "borders between cells"
            self.error(f"a format fills the {what} or a frame of clues outside the grid, not both",
                       item.place_span)
            return
        if place not in PLACES and param is None:
            declared = ", ".join(self.sym.params) or "none declared"
            self.error(f"unknown place {place!r}; a format item fills cells, rooms, room numbers, corners, inner "
                       "corners, borders, dots, outside top left, outside all, outside top left stacked, a separator, "
                       f"or a parameter (parameters: {declared})", item.place_span)
            return
        enc = self.encodings.get(item.encoding)
        if enc is not None and enc.keys == "table":
            problem = problems(item.mapping)
            if problem is not None:
                self.error(str(problem), problem.span or item.encoding_span)
                return
            enc = Table(item.mapping)
        if enc is None:
            self.error(f"unknown encoding {item.encoding!r}; the encodings are {', '.join(self.encodings)} "
                       "(docs/language.md, 'puzz.link formats')", item.encoding_span)
            return
        kind = param.type if param is not None else "outside" if place.startswith("outside") else place
        if kind not in enc.places:
            where = {"int": "an int parameter", "shapes": "a shapes parameter",
                     "set of int": "a set of int parameter"}.get(kind, place)
            fits = ", ".join(sorted(_place_word(p) for p in enc.places))
            self.error(f"{enc.name} cannot fill {where}; it fills {fits}", item.encoding_span)
            return
        key = "outside" if place.startswith("outside") else "corners" if place in CORNER_PLACES else place
        if key != "cells" and key in places:
            self.error(f"the format fills {place!r} twice (line {places[key].span.line} first)", item.place_span)
            return
        places[key] = item
        if enc.name == "walls" and not any(e.place in BORDER_PLACES for e in earlier):
            self.error("walls gives the rooms between the borders the format reads, so a 'borders' item comes "
                       "before it", item.encoding_span)
        if place == "room numbers" and "rooms" not in places:
            self.error("room numbers go into rooms, so a 'rooms: borders' item comes before them", item.place_span)
        if enc.name == "sum pairs" and key == "outside":
            if place != "outside top left" or not any(e.encoding == "sum pairs" and e.place == "cells"
                                                      for e in earlier):
                self.error("sums outside the grid (outside top left: sum pairs) follow 'cells: sum pairs'",
                           item.span)
        if not self.mapping(item, enc, param):
            return
        if place in CELL_PLACES or place in CORNER_PLACES or place in BORDER_PLACES:
            self.placeable(item, enc)
        if place in DOT_PLACES:
            self.dots_placeable(item)

    def _kind_of(self, tile) -> str:
        """Which kind of place a tile stands on: cells, borders or corners."""
        return "borders" if tile in self.sym.border_tiles else "corners" if tile in self.sym.corner_tiles else "cells"

    def dots_placeable(self, item: ast.FormatItem) -> None:
        """A dot on each kind of place has a tile to go to, and each kind an empty tile."""
        # imported on use, not at start-up
        from gridlang.language.encodings.placement import Placement

        for kind in ("cells", "borders", "corners"):
            own = {e.key: e.value for e in item.mapping if self._kind_of(e.value) == kind}
            placement = Placement(own, self.sym, item.encoding, corners=kind == "corners", borders=kind == "borders")
            on = "" if kind == "cells" else f" on {kind}"
            if not own:
                self.error(f"a dot may stand on {kind}, and the mapping sends none to a tile{on}: map it, as in "
                           f"(1 = TILE) with a tile{on}", item.encoding_span)
                return
            if placement.token(None) is None:
                self.error(f"a place without a dot needs a tile, and {self.checker.spec.path} has no tile '.'{on}",
                           item.encoding_span)
                return

    def mapping(self, item: ast.FormatItem, enc, param) -> bool:
        keys: set = set()
        ok = True
        for entry in item.mapping:
            key = (entry.key, self._kind_of(entry.value)) if item.place in DOT_PLACES else entry.key
            if key in keys:
                where = " on that kind of place" if item.place in DOT_PLACES else ""
                self.error(f"{entry.key!r} is mapped twice{where}", entry.key_span)
                ok = False
            keys.add(key)
            if enc.keys == "none":
                self.error(f"{enc.name} takes no mapping", entry.span)
                return False
            if enc.keys != "table" and entry.key_kind in ("char", "chars", "prefix"):
                self.error(f"characters are the keys of a genre's own encoding, {enc.name} reads its own: write "
                           "'table' for a table of characters", entry.key_span)
                return False
            if enc.keys == "values":
                tiles = self.sym.corner_tiles if item.place in CORNER_PLACES else \
                    self.sym.border_tiles if item.place in BORDER_PLACES else self.sym.tiles
                if item.place in DOT_PLACES:
                    tiles = {**self.sym.tiles, **self.sym.border_tiles, **self.sym.corner_tiles}
                ok = self.value_entry(entry, enc, tiles) and ok
            elif enc.keys == "size":
                ok = self.size_entry(entry, param) and ok
            elif enc.keys == "preset":
                ok = self.preset_entry(entry, param) and ok
            elif enc.keys == "walls":
                ok = self.wall_entry(entry) and ok
            elif enc.keys == "table" and entry.value_kind == "name":
                ok = self.tile_entry(entry, item) and ok
        return ok

    def wall_entry(self, entry: ast.FormatEntry) -> bool:
        """An entry of ``rooms: walls``: a tile on borders, sent to ``wall``."""
        if entry.key_kind != "name" or entry.key not in self.sym.border_tiles:
            self.error(f"walls maps a tile on borders to 'wall'; {entry.key!r} is no tile on borders", entry.key_span)
            return False
        if entry.value_kind != "name" or entry.value != "wall":
            self.error(f"walls maps a tile on borders to 'wall', not to {entry.value!r}", entry.value_span)
            return False
        return True

    def tile_entry(self, entry: ast.FormatEntry, item: ast.FormatItem) -> bool:
        """A table's character that stands for a tile: the tile is declared on the item's places."""
        tiles = self.sym.corner_tiles if item.place in CORNER_PLACES else \
            self.sym.border_tiles if item.place in BORDER_PLACES else self.sym.tiles
        if entry.value in tiles and tiles[entry.value].clue is not None:
            self.error(f"{entry.value!r} holds several numbers, which a character alone does not give: send the "
                       "character to a tile of characters or of one number", entry.value_span)
            return False
        if entry.value in tiles:
            return True
        what = self.sym.kind_of(entry.value)
        where = " on corners" if item.place in CORNER_PLACES else " on borders" if item.place in BORDER_PLACES else ""
        self.error(f"{entry.value!r} is {'a ' + what if what else 'not a declared tile'}; a table sends a "
                   f"character to a tile{where}", entry.value_span)
        return False

    def value_entry(self, entry: ast.FormatEntry, enc, tiles: dict) -> bool:
        if entry.key_kind == "name" and entry.key not in ("empty", "number") + enc.names:
            own = "".join(f", {name!r}" for name in enc.names)
            self.error(f"a mapping's key is a number, '?', 'empty'{own} or 'number'; {entry.key!r} is none of them",
                       entry.key_span)
            return False
        if entry.key_kind == "size":
            self.error(f"a mapping's key is a number, '?', 'empty' or 'number'; {entry.key!r} is a size",
                       entry.key_span)
            return False
        if entry.key_kind == "int" and enc.values is not None and entry.key not in enc.values:
            self.error(f"{enc.name} gives {_values(enc.values)}, never {entry.key}", entry.key_span)
            return False
        if entry.value_kind != "name" or entry.value not in tiles:
            what = self.sym.kind_of(entry.value) if entry.value_kind == "name" else None
            where = " on corners" if tiles is self.sym.corner_tiles else \
                " on borders" if tiles is self.sym.border_tiles else ""
            self.error(f"{entry.value!r} is {'a ' + what if what else 'not a declared tile'}; a mapping sends a "
                       f"value to a tile{where}", entry.value_span)
            return False
        tile = tiles[entry.value]
        if entry.key == "number" and not (tile.number or tile.digit_value):
            self.error(f"numbers go to tile {entry.value!r}, which holds none (declare it 'tile {entry.value} "
                       "number', or give its characters 'value digit')", entry.value_span)
            return False
        return True

    def size_entry(self, entry: ast.FormatEntry, param) -> bool:
        if entry.key_kind != "size":
            self.error(f"a size table's key is a grid size, COLSxROWS (9x9); {entry.key!r} is not one", entry.key_span)
            return False
        if entry.value_kind != "int":
            self.error(f"a size table gives {param.name!r} a whole number; {entry.value!r} is not one",
                       entry.value_span)
            return False
        return self.in_bounds(param, entry.value, entry.value_span)

    def preset_entry(self, entry: ast.FormatEntry, param) -> bool:
        if entry.key_kind != "name" or len(str(entry.key)) != 1:
            self.error(f"a preset's key is its letter in the URL (//p); {entry.key!r} is not one letter",
                       entry.key_span)
            return False
        if entry.value_kind != "text":
            self.error(f"a preset is the parameter's value in quotes (\"pentominoes\"); {entry.value!r} is not",
                       entry.value_span)
            return False
        # imported on use, not at start-up
        from gridlang.language.values import parse_value

        try:
            parse_value(entry.value, param.type)
        except ValueError as e:
            self.error(f"the preset {entry.key!r} {e}", entry.value_span)
            return False
        return True

    def in_bounds(self, param, value: int, span) -> bool:
        for op, bound in param.bounds:
            if not BOUND[op](value, bound):
                self.error(f"{param.name} = {value} breaks the bound {param.name} {op} {bound}", span)
                return False
        return True

    def placeable(self, item: ast.FormatItem, enc) -> None:
        # imported on use, not at start-up
        from gridlang.language.encodings.known import mapping_for
        from gridlang.language.encodings.placement import Placement

        mapping = mapping_for(item)
        corners = item.place in CORNER_PLACES
        borders = item.place in BORDER_PLACES
        placement = Placement(mapping, self.sym, enc.name, corners=corners, borders=borders)
        spec = self.checker.spec.path
        ints = [k for k in mapping if isinstance(k, int)]
        for k in ints:
            same = [j for j in ints if mapping[j] == mapping[k] and j != k]
            tile = placement.tiles[mapping[k]]
            if same and not (tile.number or tile.digit_value):
                self.error(f"{k} and {same[0]} both go to {mapping[k]!r}, so a map could not be written back "
                           "into a URL", item.span)
                return
        if placement.token(None) is None:
            where = "the cells outside the grid" if item.place.startswith("outside") else \
                "a corner without a value" if corners else "a border without a value" if borders else \
                "a cell without a value"
            on = " on corners" if corners else " on borders" if borders else ""
            self.error(f"{where} needs a tile, and {spec} has no tile '.'{on}: map "
                       "it, as in (empty = TILE)",
                       item.encoding_span)
            return
        if isinstance(enc, Table):
            self.placeable_table(item, enc, placement)
            return
        if enc.structured:
            kind, word = ("arrow", "arrow number") if enc.name == "arrows" else ("numbers", "numbers")
            if getattr(self.sym.chars, kind, None) is None:
                self.error(f"{enc.name} gives clues of several parts ({_TOKENS[enc.name]}), and {spec} has no tile "
                           f"for them: declare 'tile NAME {word}'", item.encoding_span)
            return
        for name in enc.names:
            if placement.token(name) is None:
                self.error(f"{enc.name} gives {name!r}, and {spec} has no tile for it: map it, as in "
                           f"({name} = TILE)", item.encoding_span)
                return
        if enc.values is not None:
            for v in enc.values:
                if placement.token(v) is None:
                    self.error(f"{enc.name} gives {v}, and {spec} has no tile for it: map it, as in "
                               f"({v} = TILE)", item.encoding_span)
                    return
        elif not placement.holds_numbers() and not ints:
            self.error(f"{enc.name} gives numbers, and {spec} has no tile for them: declare 'tile NAME number' "
                       "(or a tile of digits with 'value digit'), or map them, as in (number = TILE)",
                       item.encoding_span)

    def placeable_table(self, item: ast.FormatItem, table: Table, placement) -> None:
        """A table's numbers and ``?`` have a tile to go to."""
        spec = self.checker.spec.path
        if table.numbers and not placement.holds_numbers():
            self.error(f"the table gives numbers, and {spec} has no tile for them: declare 'tile NAME number' (or "
                       "a tile of digits with 'value digit')", item.encoding_span)
        elif table.unknown and placement.token(UNKNOWN) is None:
            self.error(f"the table gives '?' (a number not given), and {spec} has no tile for it: declare a tile "
                       "'?' or a number tile", item.encoding_span)

    # flags -----------------------------------------------------------------
    def flag(self, flag: ast.FormatFlag, flags: dict) -> None:
        if len(flag.flag) != 1 or not flag.flag.isalpha():
            self.error(f"a flag is one letter of the URL's flag field; {flag.flag!r} is not", flag.flag_span)
            return
        if flag.flag in flags:
            self.error(f"flag {flag.flag!r} is declared twice", flag.flag_span)
            return
        flags[flag.flag] = flag
        param = self.sym.params.get(flag.param)
        if param is None:
            what = self.sym.kind_of(flag.param)
            self.error(f"flag {flag.flag!r} sets {flag.param!r}, which is "
                       f"{'a ' + what if what else 'not declared'}; a flag sets an int parameter "
                       f"(param {flag.param}: int)", flag.param_span)
            return
        if param.type != "int":
            self.error(f"flag {flag.flag!r} sets {flag.param!r}, a {param.type} parameter; a flag sets an int "
                       "parameter", flag.param_span)
            return
        self.in_bounds(param, flag.value, flag.span)

    # the cells no item fills --------------------------------------------------
    def empty_cells(self) -> None:
        # imported on use, not at start-up
        from gridlang.language.encodings.placement import Placement

        cell_items = [p for p in self.fmt.parts if p.place in ("cells", "room numbers")]
        if cell_items:
            return  # each cells item's own check covered its empty value
        if Placement({}, self.sym).token(None) is None:
            self.error(f"the format leaves the cells empty, and {self.checker.spec.path} has no tile '.' for them",
                       self.fmt.kind_span)


_TOKENS = {"arrows": "an arrow and a number, ^2", "number lists": "a list of numbers, 3,1,1",
           "sum pairs": "two sums, 12,7"}


def _place_word(kind: str) -> str:
    return {"int": "an int parameter", "shapes": "a shapes parameter", "set of int": "a set of int parameter",
            "outside": "outside top left, outside all, outside top left stacked"}.get(kind, kind)


def _values(values: tuple[int, ...]) -> str:
    return " and ".join(str(v) for v in values) if len(values) <= 2 else f"{values[0]} to {values[-1]}"
