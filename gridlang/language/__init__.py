"""The language: the grammar's parser, the AST, the checker, and the vocabularies the language names (looks, puzz.link encodings)."""
