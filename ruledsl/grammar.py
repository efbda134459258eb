"""Finds the one grammar file, from a source checkout or an installed wheel."""
from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

GRAMMAR_NAME = "ruledsl.lark"


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    shipped = resources.files("ruledsl") / "grammar" / GRAMMAR_NAME
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parent.parent / "grammar" / GRAMMAR_NAME
    return checkout.read_text(encoding="utf-8")
