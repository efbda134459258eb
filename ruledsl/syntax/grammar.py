"""The one grammar file, package data of ruledsl (ruledsl/syntax/ruledsl.lark), and where its
built parser is cached between runs."""
from __future__ import annotations

import functools
import os
import sys
from importlib import resources

from .. import cache

GRAMMAR_NAME = "ruledsl.lark"


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    return (resources.files(__package__) / GRAMMAR_NAME).read_text(encoding="utf-8")


CACHE_ENV = cache.CACHE_ENV  # where the built parser (and the other caches) are kept; empty: nowhere


def parser_cache() -> str | False:
    """The file Lark keeps the built LALR tables in (`Lark(cache=...)`), or False for none.

    Building the tables takes a few tenths of a second of CPU at every start. The file
    is a pickle, so it lives only in a directory of this user's own (0700, under
    $XDG_CACHE_HOME or ~/.cache, or $RULEDSL_CACHE_DIR: ruledsl/cache.py), never in a
    shared temp directory; Lark rebuilds it whenever the grammar's hash differs."""
    folder = cache.folder()
    if folder is None:
        return False
    return os.path.join(folder, f"parser-py{sys.version_info[0]}{sys.version_info[1]}.lark-cache")
