"""The parser's LALR tables shipped with the package (ruledsl/syntax/tables.py)."""
from __future__ import annotations

import functools
import io
import pickle

import lark
import pytest
from lark import Lark

from ruledsl.syntax import lalr, loop_data, parse, tables
from ruledsl.syntax.grammar import grammar_text
from support import ROOT

FILES = sorted(ROOT.glob("games/**/*.game")) + sorted(ROOT.glob("examples/**/*.game"))


def _shipped_bytes() -> bytes:
    return (ROOT / "ruledsl" / "syntax" / tables.TABLES_NAME).read_bytes()


def test_the_shipped_tables_are_made_from_this_grammar():
    head = _shipped_bytes().split(b"\n", 1)[0] + b"\n"
    grammar_part = tables.made_from(grammar_text()).split(b", lark ")[0]
    assert head.split(b", lark ")[0] == grammar_part, (
        "the grammar changed since its tables were shipped: run `python -m ruledsl.syntax.tables`")


def _modules(p: Lark) -> list:
    """Every shipped file's AST, parsed by `p` (its spans too: msgspec compares them)."""
    out = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        read_expr = functools.partial(lambda q, path, src, dl, dc: q.parse(src, start="expr"), p, str(path))
        out.append(parse.Builder(str(path), read_expr).transform(p.parse(text, start="start")))
    return out


def test_the_shipped_parser_parses_as_one_built_from_the_grammar():
    text = grammar_text()
    shipped = tables.from_tables(text, _shipped_bytes())
    if not _shipped_bytes().startswith(tables.made_from(text)):
        pytest.skip(f"the tables were shipped by another Lark than {lark.__version__}: this one builds its own")
    assert shipped is not None
    built = Lark(text, **tables.OPTIONS)  # as Lark builds it: a reduction for every precedence level
    fast = tables.parser(text)
    assert tables.from_tables(text, _shipped_bytes()) is not None
    assert _modules(shipped) == _modules(built) == _modules(fast)


def test_the_unit_reductions_are_skipped():
    p = tables.parser(grammar_text())
    callbacks = p.parser.parser.parser.callbacks
    skipped = [r for r in p.rules if callbacks[r].__class__.__name__ == "itemgetter"]
    assert {"expr", "or_expr", "postfix", "unary", "stmt", "decl"} <= {r.origin.name for r in skipped}
    assert all(len(r.expansion) == 1 and not r.alias for r in skipped)


def _tables_of(text: str, payload: bytes) -> bytes:
    return tables.made_from(text) + payload


def test_tables_of_another_grammar_or_lark_are_not_used():
    text = grammar_text()
    data = _shipped_bytes().split(b"\n", 1)[1]
    assert tables.from_tables(text + "\n// edited\n", _tables_of(text, data)) is None
    other_lark = _tables_of(text, data).replace(f"lark {lark.__version__}".encode(), b"lark 0.0.1", 1)
    assert tables.from_tables(text, other_lark) is None


@pytest.mark.parametrize("payload", [b"", b"\x80\x05not a pickle", pickle.dumps({"data": {}, "memo": {}}),
                                     pickle.dumps(io.BytesIO(b"an object, not plain data"))])
def test_unreadable_tables_are_not_used(payload):
    assert tables.from_tables(grammar_text(), _tables_of(grammar_text(), payload)) is None


def test_a_parser_is_built_where_no_tables_fit(monkeypatch, tmp_path):
    monkeypatch.setattr(tables, "TABLES_NAME", "no-such-file")
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")
    assert tables.shipped(grammar_text()) is None
    tree = tables.parser(grammar_text()).parse("rule a() { x = 1 }", start="start")
    assert tree.data == "start"


def test_the_shipped_files_are_the_bytes_this_grammar_and_lark_make():
    """A build writes the same bytes as the one before it (its states numbered by the
    grammar, not in the order Lark's sets of items came out), so the shipped files change
    only with the grammar or Lark. This process's string hashes are not the ones of the
    process that wrote them."""
    if not _shipped_bytes().startswith(tables.made_from(grammar_text())):
        pytest.skip(f"the tables were shipped by another Lark than {lark.__version__}")
    for name, data in tables.made(grammar_text()).items():
        shipped = (ROOT / "ruledsl" / "syntax" / name).read_bytes()
        if _plain(shipped) != _plain(data):  # Python 3.10's `re` gives a terminal's widest match as 2**32-1, not 2**64
            assert _without_widths(_plain(shipped)) == _without_widths(_plain(data)), name
            continue
        assert shipped == data, f"{name} is not what `python -m ruledsl.syntax.tables` writes now"


def _plain(data: bytes):
    return pickle.loads(data.split(b"\n", 1)[1])


def _without_widths(plain: dict) -> dict:
    """The tables' data with the widths Lark works out of each terminal's pattern left out."""
    for entry in plain["memo"].values():
        entry.get("pattern", {}).pop("_width", None)
    return plain


def test_the_states_are_numbered_by_the_grammar():
    table = Lark(grammar_text(), **tables.OPTIONS).parser.parser.parser.parse_table
    states = {s: dict(actions) for s, actions in table.states.items()}
    tables.number_states(table)
    assert sorted(table.states) == list(table.states) == list(range(len(states)))
    assert table.start_states == {"expr": 0, "start": 1}  # the start states first, by name
    moves = lambda t: sorted((a.name, str(arg) if a.name == "Reduce" else None)
                              for actions in t.values() for a, arg in actions.values())
    assert moves(table.states) == moves(states)  # the same moves, states renamed
    assert all(list(actions) == sorted(actions) for actions in table.states.values())


def test_written_tables_load_and_parse(tmp_path, monkeypatch):
    """What `python -m ruledsl.syntax.tables` writes is read back."""
    monkeypatch.setattr(tables, "_target", lambda name: tmp_path / name)
    tables.write()
    p = tables.from_tables(grammar_text(), (tmp_path / tables.TABLES_NAME).read_bytes())
    assert p is not None
    assert _modules(p)[:3] == _modules(Lark(grammar_text(), **tables.OPTIONS))[:3]
    loop = tables.loop_from(grammar_text(), (tmp_path / tables.LOOP_NAME).read_bytes())
    assert loop is not None
    text = FILES[0].read_text(encoding="utf-8")
    assert loop.parse(text, "start") == p.parse(text, start="start")


# ------------------------------------------------------------------ the loop's data


def _shipped_loop_bytes() -> bytes:
    return (ROOT / "ruledsl" / "syntax" / tables.LOOP_NAME).read_bytes()


def test_the_shipped_loop_data_is_made_from_this_grammar():
    head = _shipped_loop_bytes().split(b"\n", 1)[0] + b"\n"
    assert head == _shipped_bytes().split(b"\n", 1)[0] + b"\n", (
        "the loop's data and the tables were not written together: run `python -m ruledsl.syntax.tables`")


def test_the_shipped_loop_is_the_one_built_from_the_parser():
    """Its data is what the loop works out of the tables' parser (the states numbered
    alike: both written from one build), so every parse is the same."""
    text = grammar_text()
    if not _shipped_loop_bytes().startswith(tables.made_from(text)):
        pytest.skip(f"the loop's data was shipped by another Lark than {lark.__version__}")
    shipped = tables.loop_from(text, _shipped_loop_bytes())
    built = lalr.Driver.of(tables.parser(text), tables.PASS_CHILD)
    assert shipped is not None and built is not None
    assert shipped._table == built._table and shipped._scans == built._scans
    assert [loop_data.rule_plain(r) for r in shipped.rules] == [loop_data.rule_plain(r) for r in built.rules]


def test_files_without_syntax_errors_are_parsed_with_no_lark_parser_made(monkeypatch, tmp_path):
    """The point of shipping the loop's data: Lark's tables are loaded only for a syntax
    error (fails if the loop is started from a Lark parser again)."""
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")
    monkeypatch.setattr(parse, "parser", lambda: pytest.fail("a Lark parser was made"))
    parse._expr_tree.cache_clear()
    for path in FILES:
        parse.parse_new(str(path), path.read_text(encoding="utf-8"))
    parse._expr_tree.cache_clear()


@pytest.mark.parametrize("payload", [b"", b"\x80\x05not a pickle", pickle.dumps({"format": 0}),
                                     pickle.dumps({"format": loop_data.FORMAT, "table": []}),
                                     pickle.dumps(io.BytesIO(b"an object, not plain data"))])
def test_unreadable_loop_data_is_not_used(payload):
    assert tables.loop_from(grammar_text(), _tables_of(grammar_text(), payload)) is None


def test_loop_data_of_another_grammar_is_not_used():
    text = grammar_text()
    data = _shipped_loop_bytes().split(b"\n", 1)[1]
    assert tables.loop_from(text + "\n// edited\n", _tables_of(text, data)) is None
    assert tables.loop_from(text, _tables_of(text, data)) is not None
