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
import io
import operator
import os
import pickle
import sys

import msgspec

from .. import cache
from ..errors import Diagnostic, RuleError, Span
from . import ast
from .grammar import GRAMMAR_NAME, HERE

KIND = "parsed"
FORMAT = b"ruledsl parse cache 3"  # 3: a node stored flat, its span's line and columns first (dumps_at)


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
        decls = loads_at(payload, path)
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
        data = dumps_at(module.decls, module.path)
    except (RecursionError, pickle.PicklingError, TypeError, AttributeError):  # e.g. nested too deeply for pickle
        return
    if data is not None:
        cache.write(where, name, data)


# ------------------------------------------------------------------ how an entry is pickled
# A parse result is the same for the same text under any path, but its spans name the
# path: the path is left out of an entry, and whoever loads it gives the path back.
#
# A node (syntax/ast/: a keyword-only msgspec Struct whose first field is its span) is
# stored flat: its span's line and columns, then the values of its syntax fields in
# order (ast.syntax_fields), its Note left out (a parse result's Notes are empty; the node
# rebuilt gets its own, as a node built by the parser does). A Struct whose first field
# is `path` holding that very string (a span held elsewhere) is stored as its other
# values. Any other Struct, or a node whose span names another path or whose Note is
# filled, is stored as its values, rebuilt by keyword. The pickler is told how per
# class (its dispatch_table), so that Python code runs for Structs only, not for each
# string and number of the tree.
_astuple = msgspec.structs.astuple


def _struct(cls, values: tuple):
    """An instance of a msgspec Struct class from its field values (see above)."""
    names = getattr(cls, "__struct_fields__", None)
    if names is None or len(names) != len(values):
        raise pickle.UnpicklingError(f"{cls.__name__} has other fields than when it was stored")
    return cls(**dict(zip(names, values)))


class _Named:
    """The maker of a class's objects in an entry, pickled once per entry as a call of a
    function of this module (`_path_first` or `_node`) with the class, which the
    unpickler makes a maker of that class with its path given (see _Unpickler)."""

    def __init__(self, function, *args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args

    def __call__(self, *values):  # (pickle wants a callable; the unpickler gives the real maker)
        raise pickle.UnpicklingError("read without its path")


def _path_first(cls, by_position):  # names an entry refers to; never called as such
    raise pickle.UnpicklingError("read without its path")


def _node(cls):
    raise pickle.UnpicklingError("read without its path")


def _is_flat(cls) -> bool:
    """A node class stored flat: its span first, its Note (if any) right after."""
    if not issubclass(cls, ast.Node):
        return False
    fields = cls.__struct_fields__
    return fields[:1] == ("span",) and "note" not in fields[2:]


# What the pickler does for an object of a class its dispatch_table has no entry for.
_AS_PICKLE_WOULD = operator.methodcaller("__reduce_ex__", pickle.HIGHEST_PROTOCOL)


class _Reducers(dict):
    """A pickler's dispatch_table: for each msgspec Struct class met, how it is pickled."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def __missing__(self, cls):
        if not issubclass(cls, msgspec.Struct):
            if issubclass(cls, type):  # a class: pickled by name (the pickler asks each time)
                raise KeyError(cls)
            self[cls] = _AS_PICKLE_WOULD  # else the KeyError is raised for each object of it (Notes)
            return _AS_PICKLE_WOULD
        reduce = self[cls] = self._flat(cls) if _is_flat(cls) else self._by_values(cls)
        return reduce

    def _flat(self, cls):
        path, maker, by_values = self.path, _Named(_node, cls), self._by_values(cls)
        noted = cls.__struct_fields__[1:2] == ("note",)
        syntax = 2 if noted else 1  # where the syntax fields start

        def reduce(node):
            values = _astuple(node)
            span = values[0]
            if span.__class__ is not Span or span.path is not path or (noted and not values[1].empty):
                return by_values(node)
            return maker, (span.line, span.col, span.end_line, span.end_col, *values[syntax:])
        return reduce

    def _by_values(self, cls):
        path, how = self.path, []
        path_first = cls.__struct_fields__[:1] == ("path",)

        def reduce(obj):
            if not how:  # msgspec's own reduction rebuilds by position, or not at all
                by_position = obj.__reduce__()[0] is cls
                how.extend([by_position, _Named(_path_first, cls, by_position)])
            values = _astuple(obj)
            if path_first and values[0] is path:
                return how[1], values[1:]
            return (cls, values) if how[0] else (_struct, (cls, values))
        return reduce


class _Unpickler(pickle.Unpickler):
    def __init__(self, fh, path: str):
        super().__init__(fh)
        self.path = path

    def find_class(self, module, name):
        if module == __name__ and name in ("_path_first", "_node"):
            return getattr(self, name[1:])
        if module.split(".")[0] not in ("ruledsl", "builtins", "copyreg", "collections"):
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a ruledsl entry")
        return super().find_class(module, name)

    def path_first(self, cls, by_position):
        """A maker of `cls` from its field values after the path."""
        if not (isinstance(cls, type) and issubclass(cls, msgspec.Struct)):
            raise pickle.UnpicklingError("not a Struct class")
        if by_position:
            return functools.partial(cls, self.path)
        return lambda *values: _struct(cls, (self.path, *values))

    def node(self, cls):
        """A maker of node class `cls` from its span's line and columns and its syntax."""
        if not (isinstance(cls, type) and _is_flat(cls)):
            raise pickle.UnpicklingError("not a node class")
        path, names = self.path, ast.syntax_fields(cls)

        def make(line, col, end_line, end_col, *values):
            return cls(span=Span(path, line, col, end_line, end_col), **dict(zip(names, values, strict=True)))
        return make


def dumps_at(value, path: str) -> bytes | None:
    """`value` pickled with the string object `path` left out of its spans (see above);
    None when `path` is also written out as a string of its own (elsewhere, or an equal
    copy, not the same object): that one would not be replaced on loading."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _Reducers(path)
    pickler.dump(value)
    data = out.getvalue()
    return None if path.encode("utf-8", "surrogatepass") in data else data


def loads_at(data: bytes, path: str):
    """A value of dumps_at with `path` given back to the Structs stored without it; raises
    on a bad pickle."""
    return _Unpickler(io.BytesIO(data), path).load()
