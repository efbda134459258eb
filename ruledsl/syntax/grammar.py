"""The one grammar file, package data of ruledsl (ruledsl/syntax/ruledsl.lark), and where its
built parser is cached between runs.

The grammar and the files built from it (tables.py) are read beside this module, by
path: ruledsl is installed as files (pip installs no zipped package), and
importlib.resources with pathlib would be a tenth of what `ruledsl check` imports."""
from __future__ import annotations

import functools
import os
import sys

from .. import cache

GRAMMAR_NAME = "ruledsl.lark"
HERE = os.path.dirname(os.path.abspath(__file__))  # where the grammar and its built files are


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    with open(os.path.join(HERE, GRAMMAR_NAME), encoding="utf-8") as fh:
        return fh.read()


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
