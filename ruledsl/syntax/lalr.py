"""Parse stage, the parser's loop: Lark's LALR tables and tree builder, driven by a loop of
ruledsl's own that gives the very tree Lark gives, in about two thirds of Lark's time.

Lark's own loop is general: its contextual lexer makes a Token through a chain of calls
and keeps a line counter object, and its parser looks each action up by Rule objects
(hashed by a Python method) and reduces one rule at a time, though two reductions out of
three are a precedence level's `?a: b`, which tables.py makes pass their child on
(`_skip_unit_reductions`). This loop:

- lexes with one regular expression of every terminal, in the order Lark tries them.
  Where the terminal it matches is one the parser's state accepts, Lark's lexer for that
  state matches the same (it tries a subset of those terminals, in the same order); where
  not, the state's own terminals are tried one by one, as Lark's lexer for it would;
- retypes a name that is a keyword (Lark's `UnlessCallback`) by the state's terminals;
- looks actions up in a table of plain tuples, and goes through a chain of `?a: b`
  reductions in one step, remembered by (state below, state, terminal);
- builds the tree with Lark's own callbacks, positions included; or, given the
  Builder's callbacks (direct.py), the AST itself.

Anything it does not expect (a syntax error, a character no terminal matches, a Lark
whose insides differ, options it does not know) makes it give up: `parse` returns None
and Lark parses the text, so syntax errors and their recovery are Lark's alone.
tests/syntax/test_lalr.py compares its trees, tokens and positions with Lark's over
every game file in the repository and over mutated texts.
"""
from __future__ import annotations

import re

from lark import Lark, Token
from lark.parsers.lalr_analysis import Shift

UNIT = object()  # an action: a `?a: b` reduction (its callback only passes the child on)


class _GiveUp(Exception):
    """Raised inside the loop where Lark must parse the text instead."""


class Driver:
    """The loop over one Lark parser's tables (`Driver.of`)."""

    @classmethod
    def of(cls, lark: Lark, unit_callback) -> Driver | None:
        """The driver of `lark` (an LALR parser with a contextual lexer, whose `?a: b`
        reductions have the callback `unit_callback`), or None when its insides are not
        the ones this loop was written against."""
        try:
            return cls(lark, unit_callback)
        except (AttributeError, KeyError, TypeError, ValueError, re.error):
            return None

    def __init__(self, lark: Lark, unit_callback):
        conf, options = lark.lexer_conf, lark.options
        if (conf.callbacks or conf.postlex or conf.use_bytes or conf.g_regex_flags or options.regex
                or options.lexer != "contextual"):
            raise ValueError("a Lark option this loop does not follow")
        parser = lark.parser.parser.parser  # frontend -> LALR_Parser -> _Parser
        lexer = lark.parser.lexer  # ContextualLexer
        root = lexer.root_lexer
        self._state_lexers = lexer.lexers
        self._ignore = frozenset(root.ignore_types)
        self._newline_types = frozenset(root.newline_types)
        self._start_states = dict(parser.parse_table.start_states)
        self._end_states = dict(parser.parse_table.end_states)
        self._accepts = {s: frozenset(row) | self._ignore for s, row in parser.parse_table.states.items()}
        self.lark = lark
        self._table, self.rules = _table(parser.parse_table.states, parser.callbacks, unit_callback)
        self._tree_callbacks = [parser.callbacks[rule] for rule in self.rules]
        self._units: dict = {}  # (state below, state, terminal) -> the state after its `?a: b` chain
        self._embedders, self._keywords = _embedding(root.terminals)
        _check_order(root.terminals, self._embedders)
        embedded = {name for name, regexes in self._embedders.items() if regexes}
        self._master = re.compile("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})"
                                           for t in root.terminals if t.name not in embedded))
        self._terminals = {t.name: t for t in root.terminals}
        self._state_scans: dict = {}  # state -> [(name, literal or None, regex or None)] (Lark's order)
        self._regexes: dict = {}

    def parse(self, text: str, start: str, callbacks: list | None = None):
        """The tree Lark's `parse(text, start=start)` gives, or None where Lark must parse.
        `callbacks` (by index in `rules`) may make something else of each reduction
        (direct.py); exceptions they raise but KeyError and IndexError are passed on."""
        try:
            return self._parse(text, start, self._tree_callbacks if callbacks is None else callbacks)
        except (_GiveUp, KeyError, IndexError):  # KeyError, IndexError: a table unlike Lark's (tests show none)
            return None

    def _parse(self, text: str, start: str, callbacks: list):  # noqa: C901 - the loop is kept in one frame for speed
        table, accepts, keywords, ignore = self._table, self._accepts, self._keywords, self._ignore
        newline_types, match, new_token = self._newline_types, self._master.match, Token._future_new
        states, values = [self._start_states[start]], []
        pos, line, line_start, size = 0, 1, 0, len(text)
        while pos < size:
            state = states[-1]
            found = match(text, pos)
            if found is not None and found.lastgroup in accepts[state]:
                kind, value = found.lastgroup, found.group()
            else:
                kind, value = self._scan(state, text, pos)
            end = pos + len(value)
            column, line_at = pos - line_start + 1, line
            if kind in newline_types and "\n" in value:
                line += value.count("\n")
                line_start = pos + value.rindex("\n") + 1
            if kind in ignore:
                pos = end
                continue
            retyped = keywords.get(kind)
            if retyped is not None:
                for name in retyped.get(value, ()):
                    if name in accepts[state]:
                        kind = name
                        break
            token = new_token(kind, value, pos, line_at, column, line, end - line_start + 1, end)
            pos = end
            while True:  # feed the token: reduce until it shifts
                action = table[states[-1]].get(kind)
                if action is None:
                    raise _GiveUp
                what, arg = action
                if what is Shift:
                    states.append(arg)
                    values.append(token)
                    break
                if what is UNIT:
                    states[-1] = self._after_units(states, kind, arg)
                    continue
                _reduce(table, callbacks, states, values, arg)
        return self._finish(states, values, start, callbacks)

    def _finish(self, states: list, values: list, start: str, callbacks: list):
        """Feeds the end of the text: reduces until the start rule's end state."""
        table, end_state = self._table, self._end_states[start]
        while True:
            action = table[states[-1]].get("$END")
            if action is None or action[0] is Shift:
                raise _GiveUp
            what, arg = action
            if what is UNIT:
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
                if action is None or action[0] is not UNIT:
                    break
                origin = action[1]
            self._units[key] = top
        return top

    def _scan(self, state: int, text: str, pos: int) -> tuple:
        """(terminal, text) that Lark's lexer of `state` matches at `pos`: its terminals
        tried one by one in its order, a literal that a regex of the state embeds left to
        that regex (retyped after)."""
        scan = self._state_scans.get(state)
        if scan is None:
            scan = self._state_scans[state] = self._state_scan(state)
        for name, literal, regex in scan:
            if literal is not None:
                if text.startswith(literal, pos):
                    return name, literal
            else:
                found = regex.match(text, pos)
                if found is not None:
                    return name, found.group()
        raise _GiveUp

    def _state_scan(self, state: int) -> list:
        terminals = self._state_lexers[state].terminals  # Lark's order (by priority, width, length, name)
        names = {t.name for t in terminals}
        scan = []
        for t in terminals:
            if any(regex in names for regex in self._embedders.get(t.name, ())):
                continue
            if t.pattern.type == "str":
                scan.append((t.name, t.pattern.value, None))
            else:
                scan.append((t.name, None, self._regex(t.name)))
        return scan

    def _regex(self, name: str):
        regex = self._regexes.get(name)
        if regex is None:
            regex = self._regexes[name] = re.compile(self._terminals[name].pattern.to_regexp())
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


def _table(states: dict, callbacks: dict, unit_callback) -> tuple:
    """Lark's parse table with plain tuples for actions: (Shift, state), (UNIT, the
    nonterminal), or (None, (size, index, nonterminal)); and the rules by index."""
    rules: dict = {}
    indexed: list = []

    def action(act):
        what, arg = act
        if what is Shift:
            return (Shift, arg)
        made = rules.get(id(arg))
        if made is None:
            callback = callbacks[arg]
            if callback is unit_callback and len(arg.expansion) == 1:
                made = rules[id(arg)] = (UNIT, arg.origin.name)
            else:
                made = rules[id(arg)] = (None, (len(arg.expansion), len(indexed), arg.origin.name))
                indexed.append(arg)
        return made

    table = {state: {kind: action(act) for kind, act in row.items()} for state, row in states.items()}
    return table, indexed


def _check_order(terminals: list, embedders: dict) -> None:
    """Why the one regular expression picks what a state's lexer picks (see the module's
    docstring) rests on two facts about a literal that a regex embeds: the regex comes
    first in Lark's order, and it matches wherever the literal does (no anchors, no
    lookarounds). Raises ValueError where either might not hold."""
    marks = ("^", "$", "\\b", "\\B", "\\A", "\\Z", "(?=", "(?!", "(?<")
    order = {t.name: i for i, t in enumerate(terminals)}
    by_name = {t.name: t for t in terminals}
    for literal, regexes in embedders.items():
        for regex in regexes:
            text = by_name[regex].pattern.to_regexp()
            if order[regex] > order[literal] or any(mark in text for mark in marks):
                raise ValueError(f"{regex} embeds {literal} in a way this loop does not follow")


def _embedding(terminals: list) -> tuple:
    """As Lark's `_create_unless`: a literal that a regex terminal of the same priority
    matches whole is that regex's keyword. Returns ({literal's name: [regexes embedding
    it]}, {regex's name: {text: [keyword names, in order]}})."""
    embedders: dict = {}
    keywords: dict = {}
    for regex in terminals:
        if regex.pattern.type != "re":
            continue
        for literal in terminals:
            if literal.pattern.type != "str" or literal.priority != regex.priority:
                continue
            text = literal.pattern.value
            found = re.match(regex.pattern.to_regexp(), text)
            if found and found.group(0) == text:
                keywords.setdefault(regex.name, {}).setdefault(text, []).append(literal.name)
                if literal.pattern.flags <= regex.pattern.flags:
                    embedders.setdefault(literal.name, []).append(regex.name)
    return embedders, keywords
