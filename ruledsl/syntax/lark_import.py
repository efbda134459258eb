"""Lark, imported without the optional `regex` module.

Lark tries `import regex` when it is imported, for its `regex=True` option (Unicode
categories in terminals), which ruledsl never sets: its grammar is plain `re`. Where
`regex` happens to be installed (other packages bring it), importing it is about 3% of a
cold `ruledsl check` of the five games (46M instructions of 1,630M). So the parse stage
imports Lark through this module, first: while Lark is imported, `import regex` is
refused, then it imports as usual for anyone else. Where Lark or `regex` is already
imported, nothing changes.
"""
from __future__ import annotations

import sys

if "lark" not in sys.modules and "regex" not in sys.modules:
    sys.modules["regex"] = None  # `import regex` raises ImportError while this stands
    try:
        import lark  # noqa: F401
    finally:
        if "regex" in sys.modules and sys.modules["regex"] is None:
            del sys.modules["regex"]
