"""The language's constructs, one module (or subpackage) each: its AST node, the parse-tree rules
that build it, its type check, its lowering and its evaluation on an answer, registered by node
type (:mod:`gridlang.language.constructs`). A module here is found by scanning this folder."""
