"""What ruledsl keeps between runs, in one folder of this user's own: the built parser
(Lark's LALR tables), the parse results of game files, and the compiled code objects of
the generated expression functions. Each is only a cache: a missing, unreadable,
truncated or corrupt entry is silently made again, never shown and never trusted.

The folder is $RULEDSL_CACHE_DIR, else $XDG_CACHE_HOME/ruledsl or ~/.cache/ruledsl,
made 0700 and used only when this user owns it; RULEDSL_CACHE_DIR="" turns every cache
off. Entries are pickles and marshalled code, so they live only there, never in a
shared temp directory (the care Jinja2's bytecode cache takes). Each entry starts with the
SHA-256 of its payload, so that a damaged one is a miss rather than a wrong result,
and is written to a temporary file first and then renamed over, so that processes
running side by side never see half an entry.
"""
from __future__ import annotations

import atexit
import functools
import hashlib
import importlib.util
import io
import marshal
import operator
import os
import pickle
import sys
import tempfile

import msgspec

CACHE_ENV = "RULEDSL_CACHE_DIR"  # where the caches are kept; empty: nowhere
MAX_ENTRIES = 500  # per kind of entry; the oldest written go first
DIGEST = 32  # bytes of SHA-256 in front of each entry's payload


def folder(kind: str = "") -> str | None:
    """The cache folder (or its subfolder `kind`), made if need be, or None for no cache."""
    base = os.environ.get(CACHE_ENV)
    if base is None:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(home, "ruledsl")
    if not base:
        return None
    path = os.path.join(base, kind) if kind else base
    try:
        for where in (base, path) if kind else (base,):  # each made 0700 (makedirs leaves parents 0777 - umask)
            os.makedirs(where, mode=0o700, exist_ok=True)
            if os.stat(where).st_uid != os.getuid() or not os.access(where, os.W_OK):
                return None
    except (OSError, AttributeError):  # no such home, read-only, or no getuid (Windows)
        return None
    return path


# What `ruledsl cache` shows and clears: (subfolder, file name prefix) per kind of entry.
# Only these files are ever removed: $RULEDSL_CACHE_DIR may be a folder holding others.
KINDS = {"parser tables": ("", "parser-"), "parse results": ("parsed", ""), "compiled code": ("code", "")}


def _files(base: str, sub: str, prefix: str) -> list:
    try:
        with os.scandir(os.path.join(base, sub) if sub else base) as found:
            return [e for e in found if e.name.startswith(prefix) and e.is_file(follow_symlinks=False)]
    except OSError:
        return []


def contents() -> tuple:
    """(the cache folder, {kind: (files, bytes)}), or (None, {}) when caching is off."""
    base = folder()
    if base is None:
        return None, {}
    return base, {kind: (len(files), sum(e.stat(follow_symlinks=False).st_size for e in files))
                  for kind, files in ((k, _files(base, *where)) for k, where in KINDS.items())}


def clear() -> int:
    """Removes every entry of every kind (the folders stay); returns how many files went."""
    base, gone = folder(), 0
    if base is None:
        return 0
    for sub, prefix in KINDS.values():
        for entry in _files(base, sub, prefix):
            try:
                os.unlink(entry.path)
                gone += 1
            except OSError:
                pass
    _stores.clear()  # what this process read is gone too: nothing is written back at exit
    return gone


def read(where: str, name: str) -> bytes | None:
    """The payload of the entry `name` in the folder `where`, or None when there is none or
    it does not match its digest."""
    try:
        with open(os.path.join(where, name), "rb") as fh:
            data = fh.read()
    except (OSError, ValueError):
        return None
    payload = data[DIGEST:]
    if len(data) < DIGEST or hashlib.sha256(payload).digest() != data[:DIGEST]:
        return None
    return payload


def write(where: str, name: str, payload: bytes) -> None:
    """Writes an entry atomically (a temporary file renamed over it); failures are ignored."""
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=where)
        with os.fdopen(fd, "wb") as fh:
            fh.write(hashlib.sha256(payload).digest())
            fh.write(payload)
        os.replace(tmp, os.path.join(where, name))
        tmp = None
        _prune(where)
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _prune(where: str) -> None:
    """Past MAX_ENTRIES entries in a folder (each edit of a game file adds one), keeps the
    newest three quarters of them, so that pruning is rare."""
    with os.scandir(where) as found:
        entries = [e for e in found if not e.name.startswith(".")]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda e: e.stat().st_mtime)
    for e in entries[:len(entries) - MAX_ENTRIES * 3 // 4]:
        try:
            os.unlink(e.path)
        except OSError:
            pass


def key(*parts: str | bytes) -> str:
    """A file name for an entry: the hash of its parts."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


# ------------------------------------------------------------------ pickles
# A parse result is the same for the same text under any path, but its spans name the
# path: a Struct whose first field is `path` holding that very string is pickled without
# it, and whoever loads the entry gives the path back.
#
# Its nodes are keyword-only msgspec Structs (syntax/ast/), pickled as their field values
# in order and rebuilt by keyword; other Structs (spans) by position, msgspec's own way.
# The pickler is told how per class (its dispatch_table), so that Python code runs for
# Structs only, not for each string and number of the tree.


def _struct(cls, values: tuple):
    """An instance of a msgspec Struct class from its field values (see above)."""
    names = getattr(cls, "__struct_fields__", None)
    if names is None or len(names) != len(values):
        raise pickle.UnpicklingError(f"{cls.__name__} has other fields than when it was stored")
    return cls(**dict(zip(names, values)))


class _PathFirst:
    """What a Struct stored without its path is rebuilt by: pickled once per entry as
    `_path_first(cls, by_position)`, which the unpickler makes a maker of that class
    with its path given (see _Unpickler)."""

    def __init__(self, cls, by_position: bool):
        self.cls, self.by_position = cls, by_position

    def __reduce__(self):
        return _path_first, (self.cls, self.by_position)

    def __call__(self, *values):  # (pickle wants a callable; the unpickler gives the real maker)
        raise pickle.UnpicklingError("read without its path")


def _path_first(cls, by_position):  # the name an entry refers to; never called as such
    raise pickle.UnpicklingError("read without its path")


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
        path, how = self.path, []
        path_first = cls.__struct_fields__[:1] == ("path",)

        def reduce(obj):
            if not how:  # msgspec's own reduction rebuilds by position, or not at all
                by_position = obj.__reduce__()[0] is cls
                how.extend([by_position, _PathFirst(cls, by_position)])
            values = msgspec.structs.astuple(obj)
            if path_first and values[0] is path:
                return how[1], values[1:]
            return (cls, values) if how[0] else (_struct, (cls, values))
        self[cls] = reduce
        return reduce


class _Unpickler(pickle.Unpickler):
    def __init__(self, fh, path: str):
        super().__init__(fh)
        self.path = path

    def find_class(self, module, name):
        if module == __name__ and name == "_path_first":
            return self.path_first
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


def dumps_at(value, path: str) -> bytes | None:
    """`value` pickled with the string object `path` left out of the Structs that start
    with it; None when `path` is also written out as a string of its own (elsewhere, or
    an equal copy, not the same object): that one would not be replaced on loading."""
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


# ------------------------------------------------------------------ code objects
# The generated expression functions of a game: one file per game ("group": its path as
# given) holding {hash of (file name, source): code object}, marshalled. compile() is a
# pure function of those (and of this module's future flags, the same as the generator's),
# so a hit is what it would give. Marshal is specific to the Python version, hence its
# magic number in the file's name.
CODE = "code"
CODE_SALT = b"ruledsl code cache 1"


class _CodeStore:
    def __init__(self, where: str, name: str):
        self.where, self.name = where, name
        self.stored: dict = {}
        payload = read(where, name)
        if payload is not None:
            try:
                stored = marshal.loads(payload)
                if isinstance(stored, dict):
                    self.stored = stored
            except Exception:  # noqa: BLE001 - a bad entry is a miss
                pass
        self.used: dict = {}  # what this process compiled or looked up
        self.new = False

    def compiled(self, source: str, filename: str):
        k = hashlib.sha256(f"{filename}\0{source}".encode("utf-8", "surrogatepass")).digest()
        code = self.used.get(k)
        if code is None:
            code = self.stored.get(k)
            if code is None:
                code = compile(source, filename, "exec")
                self.new = True
            self.used[k] = code
        return code

    def save(self) -> None:
        """Writes back what this process used, with the stored entries it did not use while
        they are no more than those (old spans of an edited file go, alternatives stay)."""
        if not self.new:
            return
        unused = {k: c for k, c in self.stored.items() if k not in self.used}
        keep = dict(unused) if len(unused) <= len(self.used) else {}
        keep.update(self.used)
        try:
            payload = marshal.dumps(keep)
        except (ValueError, RecursionError):
            return
        write(self.where, self.name, payload)
        self.stored, self.new = keep, False


_stores: dict = {}  # (cache folder setting, group) -> _CodeStore


def compiled(source: str, filename: str, group: str):
    """`compile(source, filename, "exec")`, through the code cache of `group` (a game's
    path) when caching is on. Errors of compile() are raised as they are, never cached."""
    setting = os.environ.get(CACHE_ENV)
    store = _stores.get((setting, group))
    if store is None:
        where = folder(CODE)
        if where is None:
            return compile(source, filename, "exec")
        if not _stores:
            atexit.register(save_code)
        name = key(CODE_SALT, importlib.util.MAGIC_NUMBER, str(sys.flags.optimize), group)
        store = _stores[(setting, group)] = _CodeStore(where, name + ".marshal")
    return store.compiled(source, filename)


def save_code() -> None:
    """Writes back every code store this process added to (also done at exit)."""
    for store in list(_stores.values()):
        store.save()
