"""Parse stage, building while parsing: the Builder's callbacks run as the parser reduces
(lalr.py), so no parse tree is made and then walked by a Transformer.

Lark does this for a transformer given to `Lark(transformer=...)`, but not for callbacks
that take the node's position (`v_args(meta=True)`), as every Builder callback does: its
tree builder works a node's position out after making the node. Here each rule's
callback is Lark's own chain (the filter of anonymous tokens, `[...]` placeholders and
inlined `_rule`s) around a maker that works the position out first, as Lark's
`PropagatePositions` does, and then calls the Builder. Rules the Builder has no callback
for (the file's `start`, Lark's inlined `_rule`s, `?a` rules passing a child on) are
made into Trees by Lark's chain, positions and all.

Each node made carries its depth. A file nested more than MAX_DEPTH levels deep is
TooDeep (E004): the stages after parsing walk the AST recursively, and this bounds how
deep (Lark's Transformer did by running out of Python's stack).

tests/syntax/test_direct.py compares what this builds with the Builder's transform of
Lark's tree, spans and errors included, over every game file in the repository and over
mutated texts.
"""
from __future__ import annotations

import functools

from lark import Token, Tree
from lark.parse_tree_builder import ExpandSingleChild, PropagatePositions
from lark.tree import Meta

# Levels of nodes a file may nest, and an expression inside a string's `{...}` on its
# own (parse.py). Lark's Transformer, which built the AST before, ran out of Python's
# stack at about 480 levels, the two together; the stages after parsing walk the AST
# recursively, up to three frames a level. The checker stops an expression at 120 levels
# (E232).
MAX_DEPTH = 420
MAX_TEXT_DEPTH = 50


class TooDeep(Exception):
    """A file nests more than MAX_DEPTH levels deep (or a `{...}`, MAX_TEXT_DEPTH)."""


class Made(Tree):
    """A node the Builder made (`value`), with its position (`meta`) and depth, while its
    parent is still being read: a Tree to Lark's chains, which look for positions in
    Trees."""

    def __init__(self, value, meta: Meta, depth: int):  # no data, no children: Tree's __init__ not called
        self.value, self._meta, self.depth = value, meta, depth


@functools.lru_cache(maxsize=4)
def _plan(driver) -> tuple:
    """Per rule, by the driver's rule index: (the name of its Builder callback, Lark's
    wrappers for it but the position one, all of Lark's wrappers)."""
    plan = []
    for rule, chain in driver.rule_builders:
        plan.append((rule.alias or rule.options.template_source or rule.origin.name,
                     tuple(w for w in chain if w is not PropagatePositions), chain))
    return tuple(plan)


def callbacks(driver, builder) -> list | None:
    """The reduce callbacks of `driver` (lalr.Driver), by rule index, that build with
    `builder`; None where a Builder callback is for a rule that may pass a lone child on
    (`?a` without an alias): its node would get its container widened after it is made,
    which only a tree records (none in ruledsl's grammar)."""
    out = []
    slot = [None]  # the position of the node being made, from its maker to the Builder's call
    for name, wrappers, chain in _plan(driver):
        method = getattr(builder, name, None)
        if method is None:
            f = functools.partial(Tree, name)
            for wrap in chain:
                f = wrap(f)
        elif ExpandSingleChild in chain:
            return None
        else:
            f = _calling(getattr(method, "base_func", method), slot)  # v_args' wrapper only calls base_func
            for wrap in wrappers:
                f = wrap(f)
            f = _Positioned(f, slot)
        out.append(f)
    return out


def value_of(node):
    """What the Builder's transform of Lark's tree would give for `node`."""
    if node.__class__ is Made:
        return node.value
    if isinstance(node, Tree):
        return Tree(node.data, [value_of(c) for c in node.children], node._meta)
    return node


def _calling(method, slot):
    """The innermost maker: the Builder's callback, given the node's position and its
    children's values."""
    def call(children):
        meta = slot[0]
        values, depth = [], 0
        for c in children:
            if c.__class__ is Made:
                values.append(c.value)
                if c.depth > depth:
                    depth = c.depth
            else:
                values.append(c)
        if depth >= MAX_DEPTH:
            raise TooDeep
        return Made(method(meta, *values), meta, depth + 1)
    return call


class _Positioned:
    """In place of Lark's PropagatePositions for a rule the Builder makes: the node's
    position from all its children (anonymous tokens too), worked out before the node is
    made."""

    def __init__(self, inner, slot):
        self.inner, self.slot = inner, slot

    def __call__(self, children):
        meta = Meta()
        first = _first_meta(children)
        if first is not None:
            meta.line, meta.column, meta.start_pos = _start(first)
            meta.end_line, meta.end_column, meta.end_pos = _end(_first_meta(reversed(children)))
            meta.empty = False  # (its container is where it is: `container_*` left to their default)
        self.slot[0] = meta
        return self.inner(children)


def _start(at) -> tuple:
    """Where a child's container starts: a token's start, a node's `container_*` (set where
    Lark passed a child on) or else its own."""
    if at.__class__ is Token:
        return at.line, at.column, at.start_pos
    d = at.__dict__
    return d.get("container_line", at.line), d.get("container_column", at.column), \
        d.get("container_start_pos", at.start_pos)


def _end(at) -> tuple:
    """Where a child's container ends (as _start)."""
    if at.__class__ is Token:
        return at.end_line, at.end_column, at.end_pos
    d = at.__dict__
    return d.get("container_end_line", at.end_line), d.get("container_end_column", at.end_column), \
        d.get("container_end_pos", at.end_pos)


def _first_meta(children):
    """The position of the first child that has one (Lark's `_pp_get_meta`)."""
    for c in children:
        if isinstance(c, Tree):
            meta = c._meta
            if meta is not None and not meta.empty:
                return meta
        elif isinstance(c, Token):
            return c
    return None
