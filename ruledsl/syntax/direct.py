"""Parse stage, building while parsing: the Builder's callbacks run as the parser reduces
(lalr.py), so no parse tree is made and then walked by a Transformer.

Lark does this for a transformer given to `Lark(transformer=...)`, but not for callbacks
that take the node's position (`v_args(meta=True)`), as every Builder callback does: its
tree builder works a node's position out after making the node. Here each rule's
callback is one maker that does what Lark's chain would: it works the position out
first, as Lark's `PropagatePositions` does, filters the children as Lark's child filter
of the rule (made by Lark: which children to keep, where `[...]` placeholders go, which
inlined `_rule`s to splice) and calls the Builder. Rules the Builder has no callback
for (the file's `start`, Lark's inlined `_rule`s) are made into Trees as Lark's chain
makes them, positions and all (`?a` rules passing a child on: by Lark's chain itself).

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
from lark.parse_tree_builder import (ChildFilterLALR, ChildFilterLALR_NoPlaceholders, ExpandSingleChild,
                                     PropagatePositions)
from lark.tree import Meta

new_meta = new_made = object.__new__  # new_meta(Meta): a Meta without its __init__, which only sets `empty` (set here too)

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
    """A node the Builder made (`value`), with its position (`_meta`) and depth, while its
    parent is still being read: a Tree to Lark's chains, which look for positions in
    Trees. Made by `_maker` (no data, no children: Tree's __init__ is not called)."""

    __slots__ = ("value", "_meta", "depth")


@functools.lru_cache(maxsize=4)
def _plan(driver) -> tuple:
    """Per rule, by the driver's rule index: (the name of its Builder callback, all of
    Lark's wrappers for it, what its child filter keeps (_kept: None for a filter of
    another kind), whether its first and its last symbol are tokens)."""
    plan = []
    for rule, chain in driver.rule_builders:
        symbols = rule.expansion
        plan.append((rule.alias or rule.options.template_source or rule.origin.name, chain,
                     _kept(tuple(w for w in chain if w is not PropagatePositions), len(symbols)),
                     bool(symbols) and symbols[0].is_term, bool(symbols) and symbols[-1].is_term))
    return tuple(plan)


def callbacks(driver, builder) -> list | None:
    """The reduce callbacks of `driver` (lalr.Driver), by rule index, that build with
    `builder`; None where a Builder callback is for a rule that may pass a lone child on
    (`?a` without an alias): its node would get its container widened after it is made,
    which only a tree records (none in ruledsl's grammar); or where Lark's child filter
    is of a kind this module does not know (another Lark version)."""
    out = []
    for name, chain, kept, first_token, last_token in _plan(driver):
        method = getattr(builder, name, None)
        if method is None and (ExpandSingleChild in chain or kept is None):
            f = functools.partial(Tree, name)
            for wrap in chain:
                f = wrap(f)
        elif method is None:
            f = _tree_maker(name, *kept)
        elif ExpandSingleChild in chain or kept is None:
            return None
        else:
            # (v_args' wrapper only calls base_func)
            f = _maker(getattr(method, "base_func", method), *kept, first_token, last_token)
        out.append(f)
    return out


def _kept(wrappers: tuple, size: int) -> tuple | None:
    """(to_include, nones at the end) of the child filter among a rule's wrappers (Lark's
    `maybe_create_child_filter`: a partial of its filter class), each child to include as
    (index, spliced, placeholders before it); None for a filter of another kind."""
    if not wrappers:
        return tuple((i, False, 0) for i in range(size)), 0
    if len(wrappers) == 1 and isinstance(wrappers[0], functools.partial):
        kind, args = wrappers[0].func, wrappers[0].args
        if kind is ChildFilterLALR and len(args) == 2:
            return tuple(args[0]), args[1]
        if kind is ChildFilterLALR_NoPlaceholders and len(args) == 1:
            return tuple((i, spliced, 0) for i, spliced in args[0]), 0
    return None


def _maker(method, include: tuple, nones: int, first_token: bool, last_token: bool):
    """The callback of a rule the Builder makes: in one call what Lark's chain does around
    a callback (_kept: anonymous tokens left out, `[...]` placeholders put in, inlined
    `_rule`s spliced), with the node's position worked out first (from its first and
    last child when they are tokens, else the first and last with a position), and the
    Builder's method called with it and its children's values."""
    def make(children):
        meta = new_meta(Meta)
        first = children[0] if first_token else _first_meta(children)
        if first is None:
            meta.empty = True
        else:
            if first.__class__ is Token:
                meta.line, meta.column, meta.start_pos = first.line, first.column, first.start_pos
            else:
                meta.line, meta.column, meta.start_pos = _start(first)
            last = children[-1] if last_token else _first_meta(reversed(children))
            if last.__class__ is Token:
                meta.end_line, meta.end_column, meta.end_pos = last.end_line, last.end_column, last.end_pos
            else:
                meta.end_line, meta.end_column, meta.end_pos = _end(last)
            meta.empty = False  # (its container is where it is: `container_*` left to their default)
        values, depth = [], 0
        for i, to_expand, add_none in include:
            if add_none:
                values += [None] * add_none
            for c in (children[i].children if to_expand else (children[i],)):
                if c.__class__ is Made:
                    values.append(c.value)
                    if c.depth > depth:
                        depth = c.depth
                else:
                    values.append(c)
        if nones:
            values += [None] * nones
        if depth >= MAX_DEPTH:
            raise TooDeep
        node = new_made(Made)  # (no __init__: one call fewer a node)
        node.value, node._meta, node.depth = method(meta, *values), meta, depth + 1
        return node
    return make


def _tree_maker(name: str, include: tuple, nones: int):
    """The callback of a rule the Builder does not make (the file's `start`, Lark's inlined
    `_rule`s): Lark's chain in one call, a Tree with Lark's position (PropagatePositions)
    and children (its child filter, whose list an inlined first child lends, as Lark's
    does: a long `stmt*` grows one list)."""
    def make(children):
        meta = new_meta(Meta)
        meta.empty = True
        first = _first_meta(children)
        if first is not None:
            meta.line, meta.column, meta.start_pos = meta.container_line, meta.container_column, \
                meta.container_start_pos = _start(first)
            meta.end_line, meta.end_column, meta.end_pos = meta.container_end_line, meta.container_end_column, \
                meta.container_end_pos = _end(_first_meta(reversed(children)))
            meta.empty = False
        kept = []
        for i, to_expand, add_none in include:
            if add_none:
                kept += [None] * add_none
            if not to_expand:
                kept.append(children[i])
            elif kept:
                kept += children[i].children
            else:
                kept = children[i].children
        if nones:
            kept += [None] * nones
        return Tree(name, kept, meta)
    return make


def value_of(node):
    """What the Builder's transform of Lark's tree would give for `node`."""
    if node.__class__ is Made:
        return node.value
    if isinstance(node, Tree):
        return Tree(node.data, [value_of(c) for c in node.children], node._meta)
    return node


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
