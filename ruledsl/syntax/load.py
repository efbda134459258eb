"""Load stage: a .game file and the chain of bases it `extends`, merged by name.

A variant file adds declarations and replaces base ones with `override`. The
merged list keeps the base order, with an override in its base's place.

Files come from disk, or from a `files` mapping (path -> text) such as the rules
a transcript recorded; with a mapping, nothing is read from disk at all.
"""
from __future__ import annotations

import functools
import hashlib
import os

import msgspec

from ..errors import Diagnostic, RuleError, Span, Suggestions, nests_too_deeply
from . import ast, parse_cache, shipped

MAX_CHAIN = 16
GAME_SUFFIX = ".game"
ALLOW_ABSOLUTE = "RULEDSL_ALLOW_ABSOLUTE_EXTENDS"  # set to allow `extends "/abs/path.game"`


class Loaded(msgspec.Struct):
    path: str
    decls: list
    sources: dict  # path -> text
    chain: list  # paths, base first

    @property
    def rules_sha256(self) -> str:
        """A hash of what plays: the merged declarations without their places in the
        files, so an edit of comments or layout leaves it alone."""
        return plays_sha256(self.decls)

    def files(self) -> list:
        """[(path, text)] of every file read, base first: enough to load the same rules again."""
        return [(p, self.sources[p]) for p in self.chain]


def plays_sha256(decls) -> str:
    return hashlib.sha256(repr(canonical(tuple(decls))).encode()).hexdigest()


def canonical(node):
    """A node as plain nested tuples, without spans or `override` flags."""
    if isinstance(node, Span):
        return None
    if isinstance(node, (tuple, list)):
        return tuple(canonical(x) for x in node)
    if ast.is_node(node):
        return (type(node).__name__,) + tuple(
            (name, canonical(getattr(node, name))) for name in ast.syntax_fields(type(node))
            if name != "override" and not _omitted(node, name))
    return node


def _omitted(node, name: str) -> bool:
    """An `added()` field at its default (ast.added)."""
    return name in node.added_fields and getattr(node, name) == _defaults(type(node))[name]


@functools.lru_cache(maxsize=None)
def _defaults(cls) -> dict:
    """A node class's field defaults, by name."""
    return {f.name: f.default for f in msgspec.structs.fields(cls)}


def load(path: str, files: dict | None = None) -> Loaded:
    """Loads `path` and its bases from disk, or only from `files` (path -> text) when given."""
    sources: dict = {}
    chain: list = []
    errors: list = []
    decls = _load(path, sources, chain, errors, depth=0, files=files)
    if errors:
        raise RuleError(errors, sources)
    return Loaded(path=path, decls=decls, sources=sources, chain=chain)


def _parse(path, files):
    if files is None:
        refused = _not_a_game_file(path)
        if refused:
            raise RuleError([Diagnostic(Span(path, 1, 1), "E002", f"cannot read file: {refused}")])
        text = parse_cache.read_source(path)
    elif path not in files:
        raise RuleError([Diagnostic(Span(path, 1, 1), "E002", "cannot read file: not among the recorded rules")])
    else:
        text = files[path]
    module = parse_cache.lookup(path, text)
    if module is not None:
        return module
    from .parse import parse_new  # Lark is imported only for a file the parse cache does not have
    return parse_new(path, text)


def _not_a_game_file(path: str) -> str | None:
    """Why `path` is not to be opened, or None: only regular files named *.game are read,
    never a device, a FIFO or any other file, whose content an error could show."""
    if not path.endswith(GAME_SUFFIX):
        return f"only {GAME_SUFFIX} files are read"
    if not os.path.isfile(path):
        return "no such .game file" if not os.path.exists(path) else "not a regular file"
    return None


def _exists(path, files) -> bool:
    return os.path.isfile(path) if files is None else path in files


def _base_path(path: str, base: str, files):
    """(the base file's path, None), or (None, why it is not found).

    `ruledsl:NAME` names a shipped game (shipped.py): from disk, only inside the
    shipped folders; with recorded `files`, only among them."""
    if base.startswith(shipped.PREFIX):
        name = shipped.strip(base)
        if not shipped.valid_name(name):
            return None, (f"'{base}' is not a shipped game's name (letters, digits, _ and - in "
                          "/-separated parts, as `ruledsl list` shows them)")
        found = shipped.path_of(name) if files is None else shipped.recorded_path(name, files)
        if found is None:
            where = "among the recorded rules" if files is not None else "among the shipped games (see `ruledsl list`)"
            return None, f"base game '{base}' not found {where}"
        return found, None
    if not base.endswith(GAME_SUFFIX):
        return None, f"'{base}' is not a {GAME_SUFFIX} file: a base game is a {GAME_SUFFIX} file or ruledsl:NAME"
    if os.path.isabs(base) and not os.environ.get(ALLOW_ABSOLUTE):
        return None, (f"'{base}' is an absolute path: name a base game relative to this file (or as ruledsl:NAME); "
                      f"set {ALLOW_ABSOLUTE}=1 to allow absolute paths")
    base_path = os.path.normpath(os.path.join(os.path.dirname(path), base))
    if not _exists(base_path, files):
        return None, f"base game '{base}' not found beside this file"
    return base_path, None


def _load(path, sources, chain, errors, depth, files):
    try:
        module = _parse(path, files)
    except RuleError as err:
        sources.update(err.sources)
        errors.extend(err.diagnostics)
        return []
    sources[path] = module.source
    extends = [d for d in module.decls if isinstance(d, ast.Extends)]
    own = [d for d in module.decls if not isinstance(d, ast.Extends)]
    if len(extends) > 1:
        errors.append(Diagnostic(extends[1].span, "E101", "a game can extend only one base"))
    if not extends:
        chain.append(path)
        for d in own:
            if d.override:
                errors.append(Diagnostic(d.span, "E102", f"'{d.key}' overrides nothing: this file extends no base game"))
        return own
    ext = extends[0]
    base_path, missing = _base_path(path, ext.path, files)
    if missing is not None:
        errors.append(Diagnostic(ext.span, "E103", missing))
        chain.append(path)
        return own
    if base_path in chain or depth >= MAX_CHAIN or os.path.abspath(base_path) == os.path.abspath(path):
        errors.append(Diagnostic(ext.span, "E104", f"'{ext.path}' extends itself through a cycle"))
        chain.append(path)
        return own
    base = _load(base_path, sources, chain, errors, depth + 1, files)
    chain.append(path)
    return merge(base, own, errors)


def merge(base: list, variant: list, errors: list) -> list:
    suggest = Suggestions()
    merged = list(base)
    index = {}
    for i, d in enumerate(merged):
        if d.key is not None:
            index.setdefault(d.key, i)
    tiebreaks_replaced = False
    for d in variant:
        key = d.key
        if isinstance(d, ast.ExtendCards):
            merged.append(d)
            continue
        if d.override:
            if key not in index:
                errors.append(Diagnostic(d.span, "E105", f"override of '{key}', which the base game does not have"
                                                         f"{suggest(key, [k for k in index if k])}"))
                continue
            if key == "tiebreak":
                if not tiebreaks_replaced:
                    merged = [m for m in merged if m.key != "tiebreak"]
                    tiebreaks_replaced = True
                    index = {m.key: i for i, m in reversed(list(enumerate(merged))) if m.key is not None}
                merged.append(d)
                continue
            try:
                merged[index[key]] = _keep_base(d, merged[index[key]], merged)
            except RecursionError:  # finding and renaming `base(...)` walks the override, frames a level
                errors.append(nests_too_deeply(d.span.path, d.span))
        elif key is not None and key in index and key != "tiebreak":
            errors.append(Diagnostic(d.span, "E106", f"'{key}' is already defined by the base game; write 'override' to replace it"))
        else:
            if key is not None:
                index.setdefault(key, len(merged))
            merged.append(d)
    return merged


BASE_CALL = "base"  # in an override of a rule or def, `base(...)` calls the version it replaces


def _keep_base(new, old, merged):
    """The override `new` of `old`; when `new` calls `base(...)`, `old` stays in `merged`
    under a name no file can write ("turn (base)", "turn (base 2)", ...) and is called there.
    Only a rule or def is kept so: an override of something else (a `rule game()` over
    the game declaration) replaces it, and the checker finds what is then missing."""
    if not isinstance(new, (ast.Rule, ast.Def)) or not isinstance(old, (ast.Rule, ast.Def)) \
            or not _calls(new, BASE_CALL):
        return new
    taken = {getattr(m, "name", None) for m in merged}
    hidden = f"{new.name} (base)"
    n = 1
    while hidden in taken:
        n += 1
        hidden = f"{new.name} (base {n})"
    merged.append(ast.evolve(old, name=hidden, override=False))
    return ast.rename_calls(new, BASE_CALL, hidden)


def _calls(decl, name) -> bool:
    return any(isinstance(n, ast.Call) and n.name == name for n in ast.walk(decl))
