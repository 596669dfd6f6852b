"""The ``format`` statement's part of the tree transformer (mixed into :class:`~gridlang.language.parser.to_ast._ToAst`)."""

from __future__ import annotations

from lark import v_args
from lark.visitors import Transformer_NonRecursive

from gridlang.core.errors import Span
from gridlang.language import ast


@v_args(meta=True)
class FormatMixin(Transformer_NonRecursive):
    """Transformer methods of the ``format_*`` rules; ``self.sp``, ``self.integer`` and ``self.char`` come
    from :class:`~gridlang.language.parser.to_ast._ToAst`, which derives from this class."""

    def format_stmt(self, meta, c):
        kind, rest = c[0], c[1:]
        names = [x for x in rest if not isinstance(x, (ast.FormatItem, ast.FormatFlag))]
        items = tuple(x for x in rest if isinstance(x, (ast.FormatItem, ast.FormatFlag)))
        return ast.Format(str(kind), tuple(str(n)[1:-1] for n in names), items, self.sp(meta), self.sp(kind),
                          tuple(self.sp(n) for n in names))

    def format_item(self, meta, c):
        (place, place_span), (encoding, encoding_span) = c[0], c[1]
        mapping = c[2] if len(c) > 2 else ()
        return ast.FormatItem(place, encoding, mapping, self.sp(meta), place_span, encoding_span)

    def format_flag(self, meta, c):
        flag, param, value = c
        return ast.FormatFlag(str(flag)[1:-1], str(param), value, self.sp(meta), self.sp(flag), self.sp(param))

    def _words(self, meta, words) -> tuple[str, Span]:
        texts = [w[0] if isinstance(w, tuple) else str(w) for w in words]
        return " ".join(texts), self.sp(meta)

    def format_place(self, meta, c):
        return self._words(meta, c)

    def format_room(self, meta, c):
        return ("room", self.sp(meta))

    def format_all(self, meta, c):
        return ("all", self.sp(meta))

    def format_encoding(self, meta, c):
        return self._words(meta, c)

    def tail_lists(self, meta, c):
        return ("lists", self.sp(meta))

    def tail_pairs(self, meta, c):
        return ("pairs", self.sp(meta))

    def tail_marks(self, meta, c):
        return ("marks", self.sp(meta))

    def tail_bank(self, meta, c):
        return ("bank", self.sp(meta))

    def format_mapping(self, meta, c):
        return tuple(c)

    def format_entry(self, meta, c):
        (key_kind, key, key_span), (value_kind, value, value_span) = c
        return ast.FormatEntry(key, key_kind, value, value_kind, self.sp(meta), key_span, value_span)

    def fkey_name(self, meta, c):
        return ("name", str(c[0]), self.sp(c[0]))

    def fkey_int(self, meta, c):
        return ("int", self.integer(c[0]), self.sp(c[0]))

    def fkey_unknown(self, meta, c):
        return ("unknown", "?", self.sp(meta))

    def fkey_size(self, meta, c):
        return ("size", str(c[0]), self.sp(c[0]))

    def fkey_char(self, meta, c):
        return ("char", self.char(c[0]), self.sp(c[0]))

    def fkey_chars(self, meta, c):
        return ("chars", (self.char(c[0]), self.char(c[1])), self.sp(meta))

    def fkey_prefix(self, meta, c):
        return ("prefix", (self.char(c[0]), self.integer(c[1]), str(c[2])), self.sp(meta))

    def fval_unknown(self, meta, c):
        return ("unknown", "?", self.sp(meta))

    def fval_range(self, meta, c):
        return ("range", (c[0], c[1]), self.sp(meta))

    def fval_skip(self, meta, c):
        return ("named range", (str(c[0]), c[1], c[2]), self.sp(meta))

    def fval_name(self, meta, c):
        return ("name", str(c[0]), self.sp(c[0]))

    def fval_int(self, meta, c):
        return ("int", c[0], self.sp(meta))

    def fval_text(self, meta, c):
        return ("text", str(c[0])[1:-1], self.sp(c[0]))
