"""Check stage: every name resolved once and every expression typed (recorded on
the AST's notes); all errors at once.

`check(loaded)` -> types.Model."""
from .decls import check
