"""The one grammar file, package data of ruledsl (ruledsl/ruledsl.lark)."""
from __future__ import annotations

import functools
from importlib import resources

GRAMMAR_NAME = "ruledsl.lark"


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    return (resources.files("ruledsl") / GRAMMAR_NAME).read_text(encoding="utf-8")
