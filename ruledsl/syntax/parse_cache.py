"""Parse results kept between runs (ruledsl/cache.py): the declarations parse_text builds
from a file's text, keyed by that text and a hash of everything parsing depends on (this
package's sources, the grammar, ruledsl's errors and version, Lark's version, Python's).

The key leaves the path out, so the same text under another path (a copy, a relative
and an absolute path) is one entry: spans name the path, which is pickled as a
placeholder and filled in with the path asked for. Syntax errors are not kept; such a
file is parsed again each time. This module imports no Lark: a file found here is
loaded without building or even importing the parser.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import pickle
import sys

from .. import cache
from ..errors import Diagnostic, RuleError, Span
from . import ast
from .grammar import GRAMMAR_NAME, HERE

KIND = "parsed"
FORMAT = b"ruledsl parse cache 2"  # 2: a span stored without its path (cache.dumps_at)


def read_source(path: str) -> str:
    """The text of a file, or RuleError E002 when it cannot be read. A byte order mark (an
    editor's, on Windows) is no part of the text ("utf-8-sig")."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise RuleError([Diagnostic(Span(path, 1, 1), "E002", f"cannot read file: {reason}")]) from None


@functools.lru_cache(maxsize=1)
def fingerprint() -> bytes | None:
    """A hash of what a parse result depends on besides the text, or None when some of it
    cannot be read (then nothing is cached)."""
    package = os.path.dirname(HERE)
    h = hashlib.sha256(FORMAT)
    h.update(f"{sys.version_info[0]}.{sys.version_info[1]}".encode())
    try:
        lark = importlib.util.find_spec("lark")
        files = [*_python_files(HERE), os.path.join(HERE, GRAMMAR_NAME), os.path.join(package, "errors.py"),
                 os.path.join(package, "version.py"), lark.origin]
        for f in files:
            with open(f, "rb") as fh:
                data = fh.read()
            h.update(os.path.basename(f).encode() + len(data).to_bytes(8, "little") + data)
    except (OSError, AttributeError, TypeError, ValueError, ImportError):
        return None
    return h.digest()


def _python_files(folder: str) -> list:
    """Every .py file under `folder`, sorted."""
    return sorted(os.path.join(top, name) for top, _, names in os.walk(folder) for name in names
                  if name.endswith(".py"))


def _entry(text: str) -> tuple[str | None, str | None]:
    """(the cache folder, the entry's name) for a file's text, or Nones without a cache."""
    where = cache.folder(KIND)
    fp = fingerprint() if where is not None else None
    if fp is None:
        return None, None
    return where, cache.key(fp, text)


def lookup(path: str, text: str) -> ast.Module | None:
    """The parsed module of `text` at `path` when the cache has it, else None."""
    where, name = _entry(text)
    if where is None:
        return None
    payload = cache.read(where, name)
    if payload is None:
        return None
    try:
        decls = cache.loads_at(payload, path)
    except Exception:  # noqa: BLE001 - a bad entry is a miss, never an error
        return None
    if not isinstance(decls, tuple):
        return None
    return ast.Module(path=path, source=text, decls=decls)


def store(module: ast.Module) -> None:
    """Keeps a parsed module (parsed without errors) for the next run."""
    where, name = _entry(module.source)
    if where is None:
        return
    try:
        data = cache.dumps_at(module.decls, module.path)
    except (RecursionError, pickle.PicklingError, TypeError, AttributeError):  # e.g. nested too deeply for pickle
        return
    if data is not None:
        cache.write(where, name, data)
