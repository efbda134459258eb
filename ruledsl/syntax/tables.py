"""The grammar's parser, and its LALR tables shipped with the package.

Building the tables from the grammar takes more than a tenth of a second of CPU, at every
start of a process that parses: as much as parsing the five games. So the package ships
them, built once (`python -m ruledsl.syntax.tables` writes them) in `ruledsl.lark.tables`
beside the grammar. That file is used only when it was made from this very grammar text,
with these options, by this version of Lark; otherwise (a grammar being edited, another
Lark) the tables are built, and kept in the user's cache folder (grammar.parser_cache).

The file is what `Lark.save` writes: a pickle of plain data (dicts, lists, strings,
numbers), after one line naming what it was made from. It is package data, not user
input; all the same it is read with an unpickler that makes no objects but plain data.
"""
from __future__ import annotations

import hashlib
import io
import operator
import os
import pickle

import lark
from lark import Lark

from . import lalr, loop_data
from .grammar import GRAMMAR_NAME, HERE, grammar_text, parser_cache

TABLES_NAME = GRAMMAR_NAME + ".tables"
LOOP_NAME = GRAMMAR_NAME + ".loop"  # the parser loop's data (loop_data.py)
# The callback of a `?a: b` reduction: it passes its one child on (_skip_unit_reductions).
PASS_CHILD = operator.itemgetter(0)
OPTIONS = dict(parser="lalr", propagate_positions=True, start=["start", "expr"], maybe_placeholders=True)


def made_from(text: str) -> bytes:
    """The first line of a tables file: what its tables were made from."""
    digest = hashlib.sha256(f"{text}\0{sorted(OPTIONS.items())}".encode("utf-8")).hexdigest()
    return f"ruledsl parser tables: grammar {digest}, lark {lark.__version__}\n".encode("ascii")


def parser(text: str) -> Lark:
    """The parser of the grammar `text`: from the shipped tables when they were made from
    it, else built (through Lark's cache in the user's cache folder)."""
    p = shipped(text)
    if p is None:
        p = Lark(text, cache=parser_cache(), **OPTIONS)
    _skip_unit_reductions(p)
    return p


def shipped(text: str) -> Lark | None:
    """The parser loaded from the shipped tables, or None when they are missing, made from
    another grammar or Lark, or unreadable."""
    data = _shipped_bytes(TABLES_NAME)
    return None if data is None else from_tables(text, data)


def shipped_loop(text: str) -> lalr.Driver | None:
    """The parser's loop (lalr.py) started from its shipped data, or None when that is
    missing, made from another grammar or Lark, or unreadable: no Lark parser is made."""
    data = _shipped_bytes(LOOP_NAME)
    return None if data is None else loop_from(text, data)


def from_tables(text: str, data: bytes) -> Lark | None:
    """The parser of the tables file `data`, or None when it was not made from `text`
    (see made_from) or cannot be read."""
    plain = _plain_after(made_from(text), data)
    try:
        return None if plain is None else Lark.load(plain)  # Lark.load takes the dict too
    except Exception:  # noqa: BLE001 - a file this Lark cannot read is as good as none
        return None


def loop_from(text: str, data: bytes) -> lalr.Driver | None:
    """The loop of the loop data file `data`, or None when it was not made from `text` or
    cannot be read."""
    plain = _plain_after(made_from(text), data)
    return None if plain is None else lalr.Driver.load(plain)


def _shipped_bytes(name: str) -> bytes | None:
    try:
        with open(_target(name), "rb") as fh:
            return fh.read()
    except OSError:
        return None


def _plain_after(head: bytes, data: bytes):
    """The plain data pickled in `data` after the line `head`, or None."""
    if not data.startswith(head):
        return None
    try:
        return _PlainUnpickler(io.BytesIO(data[len(head):])).load()
    except Exception:  # noqa: BLE001 - a file that can't be read is as good as none
        return None


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"{module}.{name} in the parser tables: only plain data is read")


def write(text: str | None = None) -> str:
    """Builds the tables of the grammar (`text`, by default the package's) and writes them,
    and the loop's data worked out of them, to the shipped files; returns the tables' path."""
    text = grammar_text() if text is None else text
    p = Lark(text, **OPTIONS)
    tables, loop = io.BytesIO(), io.BytesIO()
    p.save(tables)
    _skip_unit_reductions(p)
    pickle.dump(loop_data.plain_of(p, PASS_CHILD), loop, protocol=4)
    for name, out in ((TABLES_NAME, tables), (LOOP_NAME, loop)):
        with open(_target(name), "wb") as fh:
            fh.write(made_from(text) + out.getvalue())
    return _target(TABLES_NAME)


def _target(name: str) -> str:
    return os.path.join(HERE, name)


def _skip_unit_reductions(p: Lark) -> None:
    """Most reductions of a parse are the grammar's precedence levels: each operand of an
    expression climbs `atom -> postfix -> unary -> ... -> expr`, one reduction a level,
    and Lark's tree builder handles each one (it passes the one child on and works out
    its position again). A rule `?a: b` (one nonterminal, no alias) changes nothing in the
    tree or its positions, so its reduction gives its child as it is. Where Lark keeps its
    callbacks elsewhere, nothing changes but the speed."""
    callbacks = getattr(getattr(getattr(p.parser, "parser", None), "parser", None), "callbacks", None)
    if not isinstance(callbacks, dict):
        return
    for rule in p.rules:
        if (rule.options.expand1 and not rule.alias and len(rule.expansion) == 1
                and not rule.expansion[0].is_term and rule in callbacks):
            callbacks[rule] = PASS_CHILD


if __name__ == "__main__":
    print(f"wrote {write()}")
