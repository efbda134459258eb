"""Check stage, errors of a variant: an error the base game's lines give because a later
file (a house rule) overrides what they name is reported at that override, naming the
base line it breaks (check() calls at_the_overrides on its errors)."""
from __future__ import annotations

import os
import re

from ..errors import MAX_SHOWN, Diagnostic
from ..syntax.load import Loaded


def at_the_overrides(errors: list, loaded: Loaded) -> list:
    """An error on a base game's line that names what a later file overrides is the
    override's doing: it is reported at the override, naming the base line it breaks.
    (The first MAX_SHOWN errors are looked at: only those are shown.)"""
    overrides = [d for d in loaded.decls if d.override and getattr(d, "name", None)]
    if not overrides:
        return errors
    lines: dict = {}
    out = []
    for i, d in enumerate(errors):
        if i < MAX_SHOWN and d.span.path in loaded.chain and d.span.path != loaded.path:
            if d.span.path not in lines:
                lines[d.span.path] = loaded.sources.get(d.span.path, "").splitlines()
            d = _at_the_override(d, lines[d.span.path], loaded, overrides)
        out.append(d)
    return out


def _at_the_override(d: Diagnostic, lines: list, loaded: Loaded, overrides: list) -> Diagnostic:
    later = loaded.chain[loaded.chain.index(d.span.path) + 1:]
    base_line = f"{os.path.relpath(d.span.path, os.path.dirname(loaded.path) or '.')}:{d.span.line}:{d.span.col}"
    text = lines[d.span.line - 1] if 0 < d.span.line <= len(lines) else ""
    for decl in overrides:
        if decl.span.path in later and (re.search(rf"\b{re.escape(decl.name)}\b", text)
                                        or f"'{decl.name}'" in d.message):
            return Diagnostic(decl.span, d.code, f"{d.message}, at {base_line}: a line of the base game that "
                                                 f"this override of '{decl.name}' breaks")
    return d
