"""What every syntax node is and how to handle one generically: the Node base (a frozen
msgspec Struct), the checker's Note, `added()` fields, and walking and rebuilding trees."""
from __future__ import annotations

import functools

import msgspec


class _Added:
    """What `added()` puts in a class body: the field's default, marked."""

    def __init__(self, default):
        self.default = default


def added(default=None):
    """A field the language gained after rules were recorded: at its default it is left
    out of the rules hash (load.canonical), so transcripts of older rules still match."""
    return _Added(default)


class _NodeMeta(type(msgspec.Struct)):
    """Every node class is keyword-only, and notes its `added()` fields in `added_fields`."""

    def __new__(mcls, name, bases, ns, **config):
        config.setdefault("kw_only", True)
        added_here = {k for k, v in ns.items() if isinstance(v, _Added)}
        for k in added_here:
            ns[k] = ns[k].default
        inherited = frozenset().union(*(getattr(b, "added_fields", ()) for b in bases))
        ns["added_fields"] = inherited | added_here
        return super().__new__(mcls, name, bases, ns, **config)


class Node(msgspec.Struct, metaclass=_NodeMeta, frozen=True):
    """A syntax node. `is_node`, `evolve` and `syntax_fields` are the ways to handle one
    generically."""


def is_node(value) -> bool:
    return isinstance(value, Node)


def evolve(node, **changes):
    """A copy of `node` with some fields changed; an expression's copy gets its own
    (empty) Note, as a newly built node does."""
    if "note" in node.__struct_fields__:
        changes.setdefault("note", Note())
    return msgspec.structs.replace(node, **changes)


class Note:
    """What the check stage found out about one expression, for every later stage:
    its type (`check.types.T`) and, for a name, what the name stands for (`check.types.Binding`).

    Each expression node gets its own empty Note when it is built; the checker fills it
    in once. It is not syntax: equality, hashing, the rules hash and tree walks leave it
    out (every Note equals every other)."""
    __slots__ = ("type", "binding")

    def __init__(self):
        self.type = None
        self.binding = None

    def __eq__(self, other):
        return isinstance(other, Note)

    def __hash__(self):
        return 0

    def __repr__(self):
        return "Note()"

    @property
    def empty(self) -> bool:
        """Not filled in (yet): every Note of a parse result."""
        return self.type is None and self.binding is None

    def __reduce__(self):
        """Pickled as what it holds: an empty Note as just its class."""
        if self.empty:
            return Note, ()
        return _filled_note, (self.type, self.binding)


def _filled_note(type_, binding) -> Note:
    note = Note()
    note.type, note.binding = type_, binding
    return note


def fresh_note():
    return msgspec.field(default_factory=Note)


NOT_SYNTAX = ("span", "note")


def syntax_fields(cls) -> tuple:
    """The names of the fields of a node class that hold its syntax (its parts), in
    order, without the span and the checker's annotations. (Read from the class's
    `__struct_fields__`: msgspec.structs.fields would evaluate every annotation.)"""
    fields = _SYNTAX.get(cls)
    if fields is None:  # a node with no parts (`none`) caches its empty tuple too
        fields = _SYNTAX[cls] = tuple(f for f in cls.__struct_fields__ if f not in NOT_SYNTAX)
    return fields


_SYNTAX: dict = {}


def walk(node):
    """Every node under `node` (itself included), depth first (parents before their
    parts, parts in order). Not recursive: a node `yield`s once, whatever its depth."""
    todo = [node]
    pop, push = todo.pop, todo.extend
    while todo:
        n = pop()
        cls = n.__class__
        if cls in _LEAVES:
            continue
        if cls is tuple or cls is list:
            push(reversed(n))
        elif isinstance(n, Node):
            yield n
            push([getattr(n, name) for name in _reversed_names(cls)])


def _reversed_names(cls) -> tuple:
    """The names of syntax_fields(cls), last first."""
    names = _REVERSED_NAMES.get(cls)
    if names is None:
        names = _REVERSED_NAMES[cls] = syntax_fields(cls)[::-1]
    return names


_REVERSED_NAMES: dict = {}


_LEAVES = frozenset({str, int, bool, type(None)})


def transform(node, fn, keep: tuple = ()):
    """`node` rebuilt bottom up, with `fn(n)` in place of each node `n` (children first);
    nodes of the classes `keep` are left as they are, and not looked into."""
    skipped = _skipped(keep)
    return node if skipped[node.__class__] else _rebuilt(node, fn, skipped)


@functools.lru_cache(maxsize=8)
def _skipped(keep: tuple):
    return _Skipped(keep)


class _Skipped(dict):
    """Whether transform leaves a part of a class as it is: a name, a number, a node of
    a class kept or anything not a node (looked up once per class)."""

    def __init__(self, keep: tuple):
        super().__init__((c, True) for c in _LEAVES)
        self[tuple] = False
        self.keep = keep

    def __missing__(self, cls):
        skipped = self[cls] = not issubclass(cls, Node) or issubclass(cls, self.keep)
        return skipped


def _rebuilt(node, fn, skipped):
    """transform of a tuple or a node not skipped (a part is looked into only when not
    `skipped`: most parts are names, numbers, absent parts and kept expressions)."""
    if node.__class__ is tuple:
        items = tuple([item if skipped[item.__class__] else _rebuilt(item, fn, skipped) for item in node])
        return node if all(a is b for a, b in zip(items, node)) else items
    changes = {}
    for name in syntax_fields(node.__class__):
        old = getattr(node, name)
        if skipped[old.__class__]:
            continue
        new = _rebuilt(old, fn, skipped)
        if new is not old:
            changes[name] = new
    return fn(evolve(node, **changes) if changes else node)  # unchanged parts are kept, not copied
