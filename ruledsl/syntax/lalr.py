"""Parse stage, the parser's loop: Lark's LALR tables and tree builder, driven by a loop of
ruledsl's own that gives the very tree Lark gives, in about two thirds of Lark's time.

Lark's own loop is general: its contextual lexer makes a Token through a chain of calls
and keeps a line counter object, and its parser looks each action up by Rule objects
(hashed by a Python method) and reduces one rule at a time, though two reductions out of
three are a precedence level's `?a: b`, which tables.py makes pass their child on
(`_skip_unit_reductions`). This loop:

- passes over spaces and comments (the ignored terminals) and lexes a token with one
  regular expression: the spaces' and comments' own, then one of every other terminal,
  in the order Lark tries them. Where the terminal it matches is one the parser's state
  accepts, Lark's lexer for that state matches the same (it tries a subset of those
  terminals, in the same order); where not, the state's own terminals are tried one by
  one, as Lark's lexer for it would. (Lark lexes an ignored terminal where no terminal
  before it in its order matches: none starts with a space or `#`, test_lalr.py);
- makes tokens and reduces in the loop's own frame (Lark's `Token._future_new` written
  out; `_reduce` for the end of the text);
- retypes a name that is a keyword (Lark's `UnlessCallback`) by the state's terminals;
- looks actions up in a table of plain tuples, and goes through a chain of `?a: b`
  reductions in one step, remembered by (state below, state, terminal);
- builds the tree with Lark's own callbacks, positions included; or, given the
  Builder's callbacks (direct.py), the AST itself;
- starts from plain data worked out of a Lark parser (loop_data.py), shipped with the
  package, so a file without a syntax error is read with no Lark parser made.

Anything it does not expect (a syntax error, a character no terminal matches, a Lark
whose insides differ, options it does not know) makes it give up: `parse` returns None
and Lark parses the text, so syntax errors and their recovery are Lark's alone.
tests/syntax/test_lalr.py compares its trees, tokens and positions with Lark's over
every game file in the repository and over mutated texts.
"""
from __future__ import annotations

import re

from lark import Lark, Token

from .loop_data import FORMAT, SHIFT, UNIT, plain_of, rules_of, tree_builder


# What starting from data (or a Lark parser) unlike what this loop was written against raises.
_NOT_ITS_DATA = (AttributeError, KeyError, TypeError, ValueError, re.error)


class _GiveUp(Exception):
    """Raised inside the loop where Lark must parse the text instead."""


class Driver:
    """The loop over one parser's tables: of a Lark parser (`Driver.of`) or of the plain
    data worked out of one (`Driver.load`, loop_data.py)."""

    @classmethod
    def of(cls, lark: Lark, unit_callback) -> Driver | None:
        """The driver of `lark` (an LALR parser with a contextual lexer, whose `?a: b`
        reductions have the callback `unit_callback`), or None when its insides are not
        the ones this loop was written against."""
        try:
            data = plain_of(lark, unit_callback)
        except _NOT_ITS_DATA:
            return None
        return cls.load(data)

    @classmethod
    def load(cls, data) -> Driver | None:
        """The driver of loop_data's `data`, or None where it is not such data."""
        try:
            return cls(data)
        except _NOT_ITS_DATA:
            return None

    def __init__(self, data: dict):
        if data["format"] != FORMAT:
            raise ValueError("loop data of another format")
        self._table = data["table"]
        self._start_states, self._end_states = data["start_states"], data["end_states"]
        self._newline_types = frozenset(data["newline_types"])
        self._accepts = {s: frozenset(row) for s, row in self._table.items()}  # (spaces and comments: `skip`)
        self._keywords = data["keywords"]
        self._master, self._skip = re.compile(data["master"]), re.compile(data["skip"])
        # spaces and comments, then a token: the lookahead keeps the spaces' match as it
        # is (Python's lookaheads are atomic), so no token is looked for inside them
        self._skip_then_token = re.compile(f"(?=(?P<_skipped>{data['skip']}))(?P=_skipped)(?:{data['master']})")
        self._regexps = data["regexps"]
        self._scans = data["scans"]  # state -> [(name, literal or None)] (Lark's order)
        self._regexes: dict = {}
        self._units: dict = {}  # (state below, state, terminal) -> the state after its `?a: b` chain
        self.rules = rules_of(data)  # Lark's Rules, by index
        builder = tree_builder(self.rules)
        self.rule_builders = builder.rule_builders  # (rule, Lark's wrappers), by index
        by_rule = builder.create_callback()
        self._tree_callbacks = [by_rule[rule] for rule in self.rules]

    def parse(self, text: str, start: str, callbacks: list | None = None):
        """The tree Lark's `parse(text, start=start)` gives, or None where Lark must parse.
        `callbacks` (by index in `rules`) may make something else of each reduction
        (direct.py); exceptions they raise but KeyError and IndexError are passed on."""
        try:
            return self._parse(text, start, self._tree_callbacks if callbacks is None else callbacks)
        except (_GiveUp, KeyError, IndexError):  # KeyError, IndexError: a table unlike Lark's (tests show none)
            return None

    def terminals(self, text: str):
        """The matches of the one regular expression of every terminal through `text`,
        outside any parser state, spaces and comments passed over; a character none
        matches is passed over."""
        match, skip, pos = self._master.match, self._skip.match, 0
        while pos < len(text):
            pos = skip(text, pos).end()
            found = match(text, pos)
            if found is None or found.end() == pos:
                pos += 1
                continue
            yield found
            pos = found.end()

    def _parse(self, text: str, start: str, callbacks: list):  # noqa: C901 - the loop is kept in one frame for speed
        table, accepts, keywords, skip = self._table, self._accepts, self._keywords, self._skip.match
        newline_types, match, new_str = self._newline_types, self._skip_then_token.match, str.__new__
        states, values = [self._start_states[start]], []
        pos, line, line_start, size = 0, 1, 0, len(text)
        while True:
            found = match(text, pos)
            kind = None if found is None else found.lastgroup
            at = skip(text, pos).end() if kind is None else found.start(kind)
            if at != pos:
                newlines = text.count("\n", pos, at)
                if newlines:
                    line += newlines
                    line_start = text.rindex("\n", pos, at) + 1
                pos = at
            if pos == size:
                break
            state = states[-1]
            if kind is not None and kind in accepts[state]:
                value = found.group(kind)
            else:
                kind, value = self._scan(state, text, pos)
            end = pos + len(value)
            column, line_at = pos - line_start + 1, line
            if kind in newline_types and "\n" in value:
                line += value.count("\n")
                line_start = pos + value.rindex("\n") + 1
            retyped = keywords.get(kind)
            if retyped is not None:
                for name in retyped.get(value, ()):
                    if name in accepts[state]:
                        kind = name
                        break
            token = new_str(Token, value)  # Lark's Token._future_new, without its call
            token.type, token.start_pos, token.value, token.line, token.column = kind, pos, value, line_at, column
            token.end_line, token.end_column, token.end_pos = line, end - line_start + 1, end
            pos = end
            while True:  # feed the token: reduce until it shifts
                action = table[states[-1]].get(kind)
                if action is None:
                    raise _GiveUp
                what, arg = action
                if what == SHIFT:
                    states.append(arg)
                    values.append(token)
                    break
                if what == UNIT:
                    states[-1] = self._after_units(states, kind, arg)
                    continue
                count, index, origin = arg  # _reduce, in place
                if count == 1:  # (nearly half the reductions: no slices)
                    children = [values.pop()]
                    states.pop()
                elif count:
                    children = values[-count:]
                    del states[-count:]
                    del values[-count:]
                else:
                    children = []
                values.append(callbacks[index](children))
                states.append(table[states[-1]][origin][1])
        return self._finish(states, values, start, callbacks)

    def _finish(self, states: list, values: list, start: str, callbacks: list):
        """Feeds the end of the text: reduces until the start rule's end state."""
        table, end_state = self._table, self._end_states[start]
        while True:
            action = table[states[-1]].get("$END")
            if action is None or action[0] == SHIFT:
                raise _GiveUp
            what, arg = action
            if what == UNIT:
                states[-1] = self._after_units(states, "$END", arg)
            else:
                _reduce(table, callbacks, states, values, arg)
            if states[-1] == end_state:
                return values[-1]

    def _after_units(self, states: list, kind: str, origin: str) -> int:
        """The state a chain of `?a: b` reductions ends in, before the token `kind`: each
        replaces the top state by the goto of the state below it, which stays."""
        key = (states[-2], states[-1], kind)
        top = self._units.get(key)
        if top is None:
            table, below = self._table, states[-2]
            while True:
                top = table[below][origin][1]
                action = table[top].get(kind)
                if action is None or action[0] != UNIT:
                    break
                origin = action[1]
            self._units[key] = top
        return top

    def _scan(self, state: int, text: str, pos: int) -> tuple:
        """(terminal, text) that Lark's lexer of `state` matches at `pos`: its terminals
        tried one by one in its order, a literal that a regex of the state embeds left to
        that regex (retyped after)."""
        for name, literal in self._scans[state]:
            if literal is not None:
                if text.startswith(literal, pos):
                    return name, literal
            else:
                found = self._regex(name).match(text, pos)
                if found is not None:
                    return name, found.group()
        raise _GiveUp

    def _regex(self, name: str):
        regex = self._regexes.get(name)
        if regex is None:
            regex = self._regexes[name] = re.compile(self._regexps[name])
        return regex


def _reduce(table: dict, callbacks: list, states: list, values: list, rule: tuple) -> None:
    """Reduces by `rule` (size, index, the nonterminal it makes) and takes its goto."""
    size, index, origin = rule
    if size:
        children = values[-size:]
        del states[-size:]
        del values[-size:]
    else:
        children = []
    values.append(callbacks[index](children))
    states.append(table[states[-1]][origin][1])
