"""Parse stage, building while parsing: the Builder's callbacks run as the parser reduces
(lalr.py), so no parse tree is made and then walked by a Transformer.

Lark does this for a transformer given to `Lark(transformer=...)`, but not for callbacks
that take the node's position (`v_args(meta=True)`), as every Builder callback does: its
tree builder works a node's position out after making the node. Here each rule's
callback is one maker that does what Lark's chain would: it works the position out
first, as Lark's `PropagatePositions` does, filters the children as Lark's child filter
of the rule (made by Lark: which children to keep, where `[...]` placeholders go, which
inlined `_rule`s to splice) and calls the Builder with the node's Span as its `meta`
(the Builder takes a Span for a position as it is). The rules the Builder has no
callback for: the file's `start` is made into a Tree as Lark's chain makes it,
positions and all; Lark's inlined `_rule`s into their children and position only
(Spliced), which is all their parent reads of them; a `?a` rule passing a lone node on
(`"(" expr ")"`) widens that node's container to its brackets, as Lark's chain does.

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

from ..errors import Span

new = object.__new__  # new(Meta), new(Made): no __init__ (Meta's only sets `empty`, set here too)
NO_POSITION = Meta()  # the `meta` of a node with no token in it (empty: the Builder places it at 1:1)

# Levels of nodes a file may nest, and an expression inside a string's `{...}` on its
# own (parse.py). Lark's Transformer, which built the AST before, ran out of Python's
# stack at about 480 levels, the two together; the stages after parsing walk the AST
# recursively, up to three frames a level. The checker stops an expression at 120 levels
# (E232).
MAX_DEPTH = 420
MAX_TEXT_DEPTH = 50


class TooDeep(Exception):
    """A file nests more than MAX_DEPTH levels deep (or a `{...}`, MAX_TEXT_DEPTH)."""


class Made:
    """A node the Builder made (`value`) while its parent is still being read: where its
    container starts and ends, (line, column, offset) each (None for a node with no token
    in it; a bracketed expression's container takes in its brackets), and its depth."""

    __slots__ = ("value", "start", "end", "depth")


class Spliced:
    """A rule Lark inlines (`_a`, `__a_star_0`...) while its parent is still being read:
    its children, which its parent splices into its own, and where its container starts
    and ends (as Made's)."""

    __slots__ = ("children", "start", "end")


@functools.lru_cache(maxsize=4)
def _plan(driver) -> tuple:
    """Per rule, by the driver's rule index: (the name of its Builder callback, all of
    Lark's wrappers for it, what its child filter keeps (_kept: None for a filter of
    another kind; a `?a` rule passing a lone child on has ExpandSingleChild besides),
    whether its first and its last symbol are tokens, whether Lark inlines it (`_a`: its
    children are spliced into its parent's))."""
    plan = []
    for rule, chain in driver.rule_builders:
        symbols = rule.expansion
        plan.append((rule.alias or rule.options.template_source or rule.origin.name, chain,
                     _kept(tuple(w for w in chain if w is not PropagatePositions and w is not ExpandSingleChild),
                           len(symbols)),
                     bool(symbols) and symbols[0].is_term, bool(symbols) and symbols[-1].is_term,
                     rule.origin.name.startswith("_")))
    return tuple(plan)


def callbacks(driver, builder) -> list | None:
    """The reduce callbacks of `driver` (lalr.Driver), by rule index, that build with
    `builder`; None where a Builder callback is for a rule that may pass a lone child on
    (`?a` without an alias): its node would get its container widened after it is made,
    which only a tree records (none in ruledsl's grammar); where such a rule keeps more
    than one child (none either); or where Lark's child filter is of a kind this module
    does not know (another Lark version)."""
    out = []
    for name, chain, kept, first_token, last_token, inlined in _plan(driver):
        if kept is None:
            return None
        method = getattr(builder, name, None)
        passes = ExpandSingleChild in chain
        if method is None and passes:
            f = _passer(_larks_chain(name, chain), *kept)
            if f is None:
                return None
        elif method is None:
            f = _splicer(*kept) if inlined else _tree_maker(name, *kept)
        elif passes:
            return None
        else:
            # (v_args' wrapper only calls base_func)
            f = _maker(getattr(method, "base_func", method), builder.path, *kept, first_token, last_token)
        out.append(f)
    return out


def _larks_chain(name: str, chain: list):
    """Lark's own callback of a rule the Builder does not make: its wrappers around a Tree."""
    f = functools.partial(Tree, name)
    for wrap in chain:
        f = wrap(f)
    return f


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


def _maker(method, path: str, include: tuple, nones: int, first_token: bool, last_token: bool):
    """The callback of a rule the Builder makes: in one call what Lark's chain does around
    a callback (_kept: anonymous tokens left out, `[...]` placeholders put in, inlined
    `_rule`s spliced), with the node's position worked out first (from its first and
    last child when they are tokens, else the first and last with a position), and the
    Builder's method called with its Span (or NO_POSITION) and its children's values."""
    def make(children):
        if first_token:
            first = children[0]
            start = first.line, first.column, first.start_pos
        else:
            start = _start(children)
        if start is None:
            span, end = NO_POSITION, None
        else:
            if last_token:
                last = children[-1]
                end = last.end_line, last.end_column, last.end_pos
            else:
                end = _end(children)
            span = Span(path, start[0], start[1], end[0], end[1])
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
        node = new(Made)
        node.value, node.start, node.end, node.depth = method(span, *values), start, end, depth + 1
        return node
    return make


def _passer(chain, include: tuple, nones: int):
    """The callback of a `?a` rule the Builder does not make, which keeps one child (else
    None): the node it keeps is passed on with its container widened to the rule's
    children (a bracketed expression's to its brackets), as Lark's chain (`chain`) does
    for a tree, which it is left to (a token, or a tree of a builder without methods)."""
    if len(include) != 1 or nones or include[0][1] or include[0][2]:
        return None
    at = include[0][0]

    def pass_on(children):
        node = children[at]
        if node.__class__ is not Made:
            return chain(children)
        widened = new(Made)
        widened.value, widened.start, widened.end, widened.depth = \
            node.value, _start(children), _end(children), node.depth
        return widened
    return pass_on


def _tree_maker(name: str, include: tuple, nones: int):
    """The callback of a rule the Builder does not make and Lark does not inline (the
    file's `start`): Lark's chain in one call, a Tree with Lark's position
    (PropagatePositions) and children (its child filter: _children)."""
    def make(children):
        meta = new(Meta)
        meta.empty = True
        start = _start(children)
        if start is not None:
            meta.line, meta.column, meta.start_pos = meta.container_line, meta.container_column, \
                meta.container_start_pos = start
            meta.end_line, meta.end_column, meta.end_pos = meta.container_end_line, meta.container_end_column, \
                meta.container_end_pos = _end(children)
            meta.empty = False
        return Tree(name, _children(children, include, nones), meta)
    return make


def _splicer(include: tuple, nones: int):
    """The callback of a rule Lark inlines: its kept children (_children) and its position,
    for its parent, which reads nothing else of it."""
    def make(children):
        node = new(Spliced)
        node.children, node.start = _children(children, include, nones), _start(children)
        node.end = None if node.start is None else _end(children)
        return node
    return make


def _children(children: list, include: tuple, nones: int) -> list:
    """The children Lark's child filter keeps (`[...]` placeholders put in, inlined rules'
    children spliced), in the list an inlined first child lends, as Lark's filter does:
    a long `stmt*` grows one list."""
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
    return kept


def value_of(node):
    """What the Builder's transform of Lark's tree would give for `node`."""
    if node.__class__ is Made:
        return node.value
    if isinstance(node, Tree):
        return Tree(node.data, [value_of(c) for c in node.children], node._meta)
    return node


def _start(children) -> tuple | None:
    """Where the container of the first child with a position starts (Lark's
    `_pp_get_meta`, then a token's start, a node's container or a tree's `container_*`,
    set where Lark passed a child on, or else its own), or None."""
    for c in children:
        if c.__class__ is Made or c.__class__ is Spliced:
            if c.start is not None:
                return c.start
        elif isinstance(c, Token):
            return c.line, c.column, c.start_pos
        elif isinstance(c, Tree):
            meta = c._meta
            if meta is not None and not meta.empty:
                d = meta.__dict__
                return d.get("container_line", meta.line), d.get("container_column", meta.column), \
                    d.get("container_start_pos", meta.start_pos)
    return None


def _end(children) -> tuple | None:
    """Where the container of the last child with a position ends (as _start, whose
    mirror it is: one function of both sides cost 3% more parsing, a call a node)."""
    for c in reversed(children):
        if c.__class__ is Made or c.__class__ is Spliced:
            if c.end is not None:
                return c.end
        elif isinstance(c, Token):
            return c.end_line, c.end_column, c.end_pos
        elif isinstance(c, Tree):
            meta = c._meta
            if meta is not None and not meta.empty:
                d = meta.__dict__
                return d.get("container_end_line", meta.end_line), d.get("container_end_column", meta.end_column), \
                    d.get("container_end_pos", meta.end_pos)
    return None
