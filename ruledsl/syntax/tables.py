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
from lark.parsers.lalr_analysis import Shift

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
    and the loop's data worked out of them, to the shipped files; returns the tables' path.
    The same grammar and Lark write the same bytes (number_states, _canonical)."""
    text = grammar_text() if text is None else text
    for name, data in made(text).items():
        with open(_target(name), "wb") as fh:
            fh.write(data)
    return _target(TABLES_NAME)


def made(text: str) -> dict:
    """{file name: its bytes} of the tables of the grammar `text` and of the loop's data."""
    built = Lark(text, **OPTIONS)
    number_states(built.parser.parser.parser.parse_table)
    saved = io.BytesIO()
    built.save(saved)
    plain, head = pickle.loads(saved.getvalue()), made_from(text)
    out = {TABLES_NAME: head + pickle.dumps(_canonical(plain, {}), protocol=pickle.HIGHEST_PROTOCOL)}
    p = Lark.load(plain)  # the loop's data is worked out of the parser the tables give
    _skip_unit_reductions(p)
    out[LOOP_NAME] = head + pickle.dumps(_canonical(loop_data.plain_of(p, PASS_CHILD), {}), protocol=4)
    return out


def number_states(table) -> None:
    """Numbers the states of an LALR table (Lark's IntParseTable, changed in place) in an
    order the grammar alone fixes: from each start state (by start rule's name), breadth
    first, each state's moves by terminal or rule name. Lark numbers them in the order its
    sets of items come out, which differs from one build to the next (objects hashed by
    address): so the files `write` makes would change at every build though nothing did."""
    states = table.states
    order = [table.start_states[name] for name in sorted(table.start_states)]
    number = {}
    for state in order:  # the list grows as states are found
        if state in number:
            continue
        number[state] = len(number)
        order.extend(arg for _, (action, arg) in sorted(states[state].items()) if action is Shift)
    if len(number) != len(states):
        raise ValueError(f"{len(states) - len(number)} states of the table are not reached from a start state")

    def moved(actions):
        return {name: (action, number[arg]) if action is Shift else (action, arg)
                for name, (action, arg) in sorted(actions.items())}
    table.states = {number[state]: moved(states[state]) for state in sorted(states, key=number.__getitem__)}
    table.start_states = {name: number[s] for name, s in sorted(table.start_states.items())}
    table.end_states = {name: number[s] for name, s in sorted(table.end_states.items())}


def _canonical(value, seen: dict):
    """Plain data made again with one object per distinct string and per distinct tuple
    (`seen`): a pickle writes an object met before as a reference to it, so which equal
    strings and tuples were one object (which follows the build's string hashes) would
    change the bytes though not the data; shared, they are written once."""
    if isinstance(value, dict):
        return {_canonical(k, seen): _canonical(v, seen) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v, seen) for v in value]
    if isinstance(value, tuple):
        items = tuple(_canonical(v, seen) for v in value)
        return seen.setdefault((tuple, *map(_identity, items)), items)
    if isinstance(value, str):
        return seen.setdefault((str, value), value)
    return value


def _identity(value):
    """What tells a canonical tuple's item from another: the object for a container or a
    string (each made once), else its type and value (True is not 1)."""
    return id(value) if isinstance(value, (str, tuple, list, dict)) else (type(value), value)


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
