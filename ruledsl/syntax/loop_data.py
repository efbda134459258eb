"""Parse stage: what the parser's loop (lalr.py) needs of a Lark parser, as plain data.

Loading Lark's tables (`Lark.load`) makes objects for the whole grammar, its lexers and
its parse table, a few hundredths of a second at every start, though a file without a
syntax error needs none of them but the table and the terminals. So what the loop reads
of a Lark parser is worked out once (`plain_of`) into dicts, lists, tuples, strings and
numbers, and shipped beside the tables (tables.py); the loop starts from that data
(`lalr.Driver`), with rules and tree builders made by Lark's own classes
(`rules_of`). Lark's parser is built only where the loop gives up: a syntax error.

The data, by key:
- `table`: state -> terminal -> an action: (SHIFT, state), (UNIT, the nonterminal) for a
  `?a: b` reduction that passes its child on, or (REDUCE, (size, rule index, nonterminal));
- `start_states`, `end_states`: by start rule;
- `rules`: by index, what Lark's Rule of it holds (`rule_plain`);
- `master`: one regular expression of every terminal but the literals a regex embeds
  and the ignored ones, in the order Lark tries them; `skip`: one of whatever the
  ignored terminals (spaces, comments) match in a row; `regexps`: each terminal's;
  `keywords`: a regex terminal's texts that are literal terminals (Lark's
  `UnlessCallback`);
- `scans`: state -> [(terminal, literal text or None)] in the order the state's lexer
  tries them, a literal that a regex of the state embeds left to that regex;
- `newline_types`: terminal names.
"""
from __future__ import annotations

import re

from lark import Lark, Tree
from lark.grammar import NonTerminal, Rule, RuleOptions, Terminal
from lark.parse_tree_builder import ParseTreeBuilder
from lark.parsers.lalr_analysis import Shift

FORMAT = 2  # of the data: a shipped file of another format is not read (2: `skip`)
SHIFT, UNIT, REDUCE = 0, 1, 2  # the kinds of action


def plain_of(lark: Lark, unit_callback) -> dict:
    """The loop's data of `lark` (an LALR parser with a contextual lexer, whose `?a: b`
    reductions have the callback `unit_callback`). Raises AttributeError, KeyError,
    TypeError or ValueError where its insides are not the ones the loop was written against."""
    conf, options = lark.lexer_conf, lark.options
    if (conf.callbacks or conf.postlex or conf.use_bytes or conf.g_regex_flags or options.regex
            or options.lexer != "contextual" or options.tree_class not in (None, Tree)
            or not options.propagate_positions or not options.maybe_placeholders):
        raise ValueError("a Lark option the loop does not follow")
    parser = lark.parser.parser.parser  # frontend -> LALR_Parser -> _Parser
    lexer = lark.parser.lexer  # ContextualLexer
    root = lexer.root_lexer
    table, rules = _table(parser.parse_table.states, parser.callbacks, unit_callback)
    embedders, keywords = _embedding(root.terminals)
    _check_order(root.terminals, embedders)
    embedded = {name for name, regexes in embedders.items() if regexes}
    ignored = set(root.ignore_types)
    return _plain({
        "format": FORMAT,
        "table": table,
        "start_states": dict(parser.parse_table.start_states),
        "end_states": dict(parser.parse_table.end_states),
        "rules": [rule_plain(rule) for rule in rules],
        "master": "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in root.terminals
                           if t.name not in embedded and t.name not in ignored),
        "skip": "(?:" + "|".join(f"(?:{t.pattern.to_regexp()})" for t in root.terminals if t.name in ignored) + ")*",
        "regexps": {t.name: t.pattern.to_regexp() for t in root.terminals},
        "keywords": keywords,
        "scans": _scans(lexer.lexers, embedders),
        "newline_types": sorted(root.newline_types),
    }, {})


def _plain(value, made: dict):
    """`value` with its strings plain `str` (Lark's names are Tokens, a str subclass) and
    its containers plain too; a container met twice is made once (`made`: by id)."""
    cls = value.__class__
    if cls in (int, bool, type(None)):
        return value
    if isinstance(value, str):
        return str(value)
    copy = made.get(id(value))
    if copy is None:
        if cls is dict:
            copy = {_plain(k, made): _plain(v, made) for k, v in value.items()}
        elif cls in (list, tuple):
            copy = cls(_plain(v, made) for v in value)
        else:
            raise TypeError(f"{cls.__name__} in the loop's data")
        made[id(value)] = copy
    return copy


def rule_plain(rule: Rule) -> tuple:
    o = rule.options
    return (rule.origin.name, tuple((s.name, s.is_term, s.is_term and s.filter_out) for s in rule.expansion),
            rule.order, rule.alias, o.keep_all_tokens, o.expand1, o.priority, o.template_source,
            tuple(o.empty_indices))


def rules_of(data: dict) -> list:
    """The data's rules, as Lark's Rules (equal to the parser's own)."""
    out = []
    for origin, expansion, order, alias, keep_all, expand1, priority, template, empty in data["rules"]:
        symbols = [Terminal(name, filter_out=bool(out_)) if term else NonTerminal(name)
                   for name, term, out_ in expansion]
        out.append(Rule(NonTerminal(origin), symbols, order, alias,
                        RuleOptions(keep_all, expand1, priority, template, empty)))
    return out


def tree_builder(rules: list) -> ParseTreeBuilder:
    """Lark's tree builder of `rules`, with the options the loop's data was made under
    (positions propagated, `[...]` placeholders: tables.OPTIONS)."""
    return ParseTreeBuilder(rules, Tree, propagate_positions=True, ambiguous=False, maybe_placeholders=True)


def _table(states: dict, callbacks: dict, unit_callback) -> tuple:
    """Lark's parse table with plain tuples for actions, and the rules reduced by index."""
    rules: dict = {}
    indexed: list = []

    def action(act):
        what, arg = act
        if what is Shift:
            return (SHIFT, arg)
        made = rules.get(id(arg))
        if made is None:
            if callbacks[arg] is unit_callback and len(arg.expansion) == 1:
                made = rules[id(arg)] = (UNIT, arg.origin.name)
            else:
                made = rules[id(arg)] = (REDUCE, (len(arg.expansion), len(indexed), arg.origin.name))
                indexed.append(arg)
        return made

    table = {state: {kind: action(act) for kind, act in row.items()} for state, row in states.items()}
    return table, indexed


def _scans(state_lexers: dict, embedders: dict) -> dict:
    """Each state's terminals in its lexer's order (by priority, width, length, name), but
    literals a regex of the state embeds; states sharing a lexer share the list."""
    by_lexer: dict = {}
    out = {}
    for state, lexer in state_lexers.items():
        scan = by_lexer.get(id(lexer))
        if scan is None:
            names = {t.name for t in lexer.terminals}
            scan = by_lexer[id(lexer)] = [
                (t.name, t.pattern.value if t.pattern.type == "str" else None) for t in lexer.terminals
                if not any(regex in names for regex in embedders.get(t.name, ()))]
        out[state] = scan
    return out


def _check_order(terminals: list, embedders: dict) -> None:
    """Why the one regular expression picks what a state's lexer picks (see lalr.py) rests
    on two facts about a literal that a regex embeds: the regex comes first in Lark's
    order, and it matches wherever the literal does (no anchors, no lookarounds). Raises
    ValueError where either might not hold."""
    marks = ("^", "$", "\\b", "\\B", "\\A", "\\Z", "(?=", "(?!", "(?<")
    order = {t.name: i for i, t in enumerate(terminals)}
    by_name = {t.name: t for t in terminals}
    for literal, regexes in embedders.items():
        for regex in regexes:
            text = by_name[regex].pattern.to_regexp()
            if order[regex] > order[literal] or any(mark in text for mark in marks):
                raise ValueError(f"{regex} embeds {literal} in a way the loop does not follow")


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
