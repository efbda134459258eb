"""AST of a .game file: frozen nodes, each with the source span it came from, one module
per kind of node (expressions, statements, declarations) over the generic machinery
(node.py). Every stage reads them as `ast.NAME`.

Nodes are msgspec Structs (frozen, keyword-only, compared and hashed by their
fields). attrs made them before; creating its ~70 classes cost 50-65 ms at every
start of ruledsl (about a fifth of a cold `ruledsl check`), msgspec's cost 3 ms
plus 10 ms to import it."""
from .decls import *  # noqa: F401,F403
from .expr import *  # noqa: F401,F403
from .node import *  # noqa: F401,F403
from .stmt import *  # noqa: F401,F403
