"""The language's grammar (``gridlang.lark``, read by Lark), installed as ``gridlang.grammars``."""
