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
import hashlib
import importlib.util
import marshal
import os
import sys
import tempfile

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
