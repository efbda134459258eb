"""Parse results kept between runs (ruledsl/syntax/parse_cache.py, ruledsl/cache.py): a hit
is the same module as a fresh parse, spans and all; a damaged entry, a changed text or a
syntax error is parsed again; RULEDSL_CACHE_DIR="" keeps nothing. Every test uses a cache
folder of its own (tmp_path), never the user's."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys

import pytest

from ruledsl import cache
from ruledsl.errors import RuleError
from ruledsl.pipeline import load_game
from ruledsl.syntax import parse, parse_cache
from ruledsl.syntax.ast import Int
from support import ROOT, random_playout

GAME = ROOT / "games" / "mafialand.game"


@pytest.fixture
def parses(monkeypatch):
    """The paths parsed for real (not found in the cache), in order."""
    done = []
    real = parse._parse_text

    def counted(path, text):
        done.append(path)
        return real(path, text)
    monkeypatch.setattr(parse, "_parse_text", counted)
    return done


def entries(folder):
    return sorted(p.name for p in (folder / parse_cache.KIND).iterdir())


def test_a_hit_is_the_module_a_fresh_parse_gives_spans_and_all(cache_dir, parses):
    text = GAME.read_text(encoding="utf-8")
    first = parse.parse_text("games/mafialand.game", text)
    again = parse.parse_text("games/mafialand.game", text)
    assert parses == ["games/mafialand.game"]  # the second came from the cache
    assert again == first and repr(again) == repr(first)  # repr shows every span
    assert again.decls is not first.decls


def test_the_same_text_under_another_path_names_that_path(cache_dir, parses):
    text = GAME.read_text(encoding="utf-8")
    parse.parse_text("a/one.game", text)
    other = parse.parse_text("b/other.game", text)
    assert parses == ["a/one.game"]
    assert repr(other) == repr(parse._parse_text("b/other.game", text))
    assert "a/one.game" not in repr(other)


def test_a_changed_text_is_parsed_again(cache_dir, parses):
    text = GAME.read_text(encoding="utf-8")
    parse.parse_text("g.game", text)
    changed = parse.parse_text("g.game", "\n" + text)  # every line one further down
    assert parses == ["g.game", "g.game"]
    assert changed.decls[0].span.line == parse._parse_text("g.game", text).decls[0].span.line + 1
    assert len(entries(cache_dir)) == 2


@pytest.mark.parametrize("damage", [
    lambda data: data[:len(data) // 2],  # truncated
    lambda data: b"",
    lambda data: data[:40] + bytes([data[40] ^ 1]) + data[41:],  # one bit of the payload
    lambda data: data[:32] + b"not a pickle",  # with a digest that does not match
])
def test_a_damaged_entry_is_parsed_again_and_replaced(cache_dir, parses, damage):
    text = GAME.read_text(encoding="utf-8")
    fresh = parse.parse_text("g.game", text)
    (entry,) = (cache_dir / parse_cache.KIND).iterdir()
    entry.write_bytes(damage(entry.read_bytes()))
    assert repr(parse.parse_text("g.game", text)) == repr(fresh)
    assert parses == ["g.game", "g.game"]
    assert repr(parse.parse_text("g.game", text)) == repr(fresh)  # the entry was written again
    assert parses == ["g.game", "g.game"]


class _MadeBy:
    """Pickles as a call of `maker` (as a span is stored: its maker, then its values)."""

    def __init__(self, maker):
        self.maker = maker

    def __reduce__(self):
        return self.maker, (1, 1, 1, 1)


@pytest.mark.parametrize("payload", [b"not a pickle", parse_cache.dumps_at(["not", "decls"], "g.game"),
                                     b"\x80\x05cos\nsystem\n.",  # a class from outside ruledsl
                                     pickle.dumps((_MadeBy(parse_cache._Named(parse_cache._path_first, print, True)),)),
                                     pickle.dumps((_MadeBy(parse_cache._Named(parse_cache._node, print)),)),  # not a node
                                     pickle.dumps((_MadeBy(parse_cache._Named(parse_cache._node, Int)),))])  # no value
def test_an_entry_with_its_digest_but_no_module_in_it_is_a_miss(cache_dir, parses, payload):
    text = GAME.read_text(encoding="utf-8")
    parse.parse_text("g.game", text)
    (entry,) = (cache_dir / parse_cache.KIND).iterdir()
    cache.write(str(entry.parent), entry.name, payload)
    assert parse.parse_text("g.game", text).decls[0].span.path == "g.game"
    assert parses == ["g.game", "g.game"]


def test_a_syntax_error_is_not_kept(cache_dir, parses):
    for _ in range(2):
        with pytest.raises(RuleError):
            parse.parse_text("bad.game", "rule flow() { let }\n")
    assert parses == ["bad.game", "bad.game"]
    assert not (cache_dir / parse_cache.KIND).exists() or entries(cache_dir) == []


def test_an_empty_setting_keeps_nothing_anywhere(tmp_path, monkeypatch, parses):
    monkeypatch.setenv(cache.CACHE_ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    text = GAME.read_text(encoding="utf-8")
    parse.parse_text("g.game", text)
    parse.parse_text("g.game", text)
    load_game(str(GAME))
    cache.save_code()
    assert parses == ["g.game", "g.game", str(GAME)]
    assert list(tmp_path.iterdir()) == []


def test_the_cache_folders_are_the_users_own(cache_dir):
    parse.parse_text("g.game", GAME.read_text(encoding="utf-8"))
    for folder in (cache_dir, cache_dir / parse_cache.KIND):
        assert oct(folder.stat().st_mode & 0o777) == "0o700"


def played(program) -> list:
    """The state's digest before every choice of a seeded random game, and how it ended."""
    seen = []
    m = random_playout(program, 3, seed=5, max_decisions=300, each_step=lambda m: seen.append(m.w.digest()))
    return seen + [m.w.digest(), m.result]


def test_a_game_loaded_from_the_caches_plays_as_a_freshly_parsed_one(cache_dir, monkeypatch, parses):
    monkeypatch.setenv(cache.CACHE_ENV, "")
    fresh = played(load_game(str(GAME)).program)
    monkeypatch.setenv(cache.CACHE_ENV, str(cache_dir))
    load_game(str(GAME))  # fills the caches
    cache.save_code()
    monkeypatch.setattr(cache, "_stores", {})  # as in a new process
    assert played(load_game(str(GAME)).program) == fresh
    assert parses == [str(GAME)] * 2  # without the cache, then to fill it
    assert len(entries(cache_dir)) == 1 and len(list((cache_dir / cache.CODE).iterdir())) == 1


@pytest.mark.slow  # real processes
def test_check_twice_in_processes_reads_the_caches_and_imports_no_parser(tmp_path):
    """The second `ruledsl check` finds every file in the parse cache: Lark is not even
    imported, nor any module of play/ but graph (whose output formats the CLI names)."""
    env = dict(os.environ, RULEDSL_CACHE_DIR=str(tmp_path / "cache"))
    games = sorted(str(p) for p in ROOT.glob("games/*.game"))
    probe = ("import sys, runpy; sys.argv = ['ruledsl', 'check', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('ruledsl', run_name='__main__')\nexcept SystemExit as e:\n"
             "    print(sorted(m for m in sys.modules if m == 'lark' or m.startswith('ruledsl.play.')), e.code)")
    runs = [subprocess.run([sys.executable, "-c", probe, *games], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=300) for _ in range(2)]
    assert [r.stderr for r in runs] == ["", ""]
    first, second = (r.stdout.splitlines() for r in runs)
    assert first[:-1] == second[:-1] == [f"ok: {g}" for g in games]
    assert first[-1] == "['lark', 'ruledsl.play.graph'] 0"
    assert second[-1] == "['ruledsl.play.graph'] 0"


@pytest.mark.slow  # a real process
def test_a_check_by_path_imports_what_it_needs_only(tmp_path):
    """pathlib and importlib.resources are a tenth of what a cold check imports: the
    grammar, its tables and the parse cache's fingerprint are found by os.path
    (grammar.HERE); json and difflib another half percent: json is imported where a
    command prints it, difflib where a name is not known. Run without `site` (which may import pathlib itself), the packages
    found where this interpreter finds them, with an empty cache folder (entries written)."""
    env = dict(os.environ, RULEDSL_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=os.pathsep.join(sys.path))
    probe = ("import sys, runpy; sys.argv = ['ruledsl', 'check', sys.argv[1]]\n"
             "try:\n    runpy.run_module('ruledsl', run_name='__main__')\nexcept SystemExit as e:\n"
             "    print(sorted(m for m in ('pathlib', 'importlib.resources', 'json', 'difflib') if m in sys.modules),"
             " e.code)")
    run = subprocess.run([sys.executable, "-S", "-c", probe, str(GAME)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.stderr == ""
    assert run.stdout.splitlines() == [f"ok: {GAME}", "[] 0"]


def test_a_module_nested_too_deeply_to_pickle_is_parsed_not_kept(cache_dir, parses, monkeypatch):
    """How deep pickle goes depends on the recursion limit and the stack at the time, so
    here it fails for every module."""
    def too_deep(value, path):
        raise RecursionError("maximum recursion depth exceeded while pickling an object")
    monkeypatch.setattr(parse_cache, "dumps_at", too_deep)
    text = 'game "T" players 2..4\nrule flow() { let n = ' + " + ".join(["1"] * 400) + " }\n"
    first = parse.parse_text("deep.game", text)
    assert parse.parse_text("deep.game", text) == first
    assert parses == ["deep.game", "deep.game"]
    assert entries(cache_dir) == []


def test_a_file_saved_with_a_byte_order_mark_reads_as_without_it(tmp_path):
    text = 'game "T" players 2..2\nshared { n: int = 0 }\nrule flow() { n = 1 }\n'
    with_mark, without = tmp_path / "bom.game", tmp_path / "plain.game"
    with_mark.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    without.write_text(text, encoding="utf-8")
    assert parse_cache.read_source(str(with_mark)) == text
    assert load_game(str(with_mark)).loaded.rules_sha256 == load_game(str(without)).loaded.rules_sha256
    bad = tmp_path / "bad.game"
    bad.write_bytes(b"\xef\xbb\xbf" + b'game "T" players 2..2\nrule flow() { x = 1 }\n')
    with pytest.raises(RuleError) as err:
        load_game(str(bad))
    assert err.value.diagnostics[0].span.line == 2 and "rule flow() { x = 1 }" in err.value.render()


def test_a_note_pickles_as_what_it_holds():
    """A parse result's Notes are empty (the check fills them later): each is stored as
    its class alone; a filled one (a checked model sent elsewhere) keeps what it holds."""
    from ruledsl.syntax.ast.node import Note
    empty, filled = Note(), Note()
    filled.type, filled.binding = ("some type",), "some binding"
    again = pickle.loads(pickle.dumps([empty, filled]))
    assert (again[0].type, again[0].binding) == (None, None)
    assert (again[1].type, again[1].binding) == (("some type",), "some binding")
    module = parse.parse_new(str(ROOT / "examples/kuhn_poker.game"), (ROOT / "examples/kuhn_poker.game").read_text())
    assert b"binding" not in parse_cache.dumps_at(module.decls, module.path)  # no slot names written per Note


def test_the_pickler_asks_once_per_class_how_to_pickle_it(monkeypatch):
    """The dispatch table answers each class once (a KeyError raised for every object of a
    class that is not a Struct, such as Note, cost as much as pickling the rest); classes
    themselves, pickled by name, may be asked again."""
    from ruledsl.syntax.ast.node import Note
    asked = []
    real = parse_cache._Reducers.__missing__

    def counted(self, cls):
        asked.append(cls)
        return real(self, cls)
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")  # parse_new stores nothing: one pickling only
    module = parse.parse_new(str(GAME), GAME.read_text(encoding="utf-8"))
    monkeypatch.setattr(parse_cache._Reducers, "__missing__", counted)
    value = (module.decls, Note(), Note())
    data = parse_cache.dumps_at(value, module.path)
    assert parse_cache.loads_at(data, module.path) == value
    objects = [cls for cls in asked if not issubclass(cls, type)]
    assert any(cls.__name__ == "Note" for cls in objects)
    assert len(objects) == len(set(objects))


def _kuhn_module():
    path = ROOT / "examples" / "kuhn_poker.game"
    return parse.parse_new(str(path), path.read_text(encoding="utf-8"))


def test_a_node_is_stored_flat_its_span_and_note_in_it():
    """One object made per node on loading (not three: the node, its span, its Note):
    an entry of a parse result builds its nodes, the spans held elsewhere and a maker per
    class, no more."""
    import pickletools
    from ruledsl.errors import Span
    from ruledsl.syntax.ast.node import syntax_fields, walk
    module = _kuhn_module()
    data = parse_cache.dumps_at(module.decls, module.path)
    nodes = [n for decl in module.decls for n in walk(decl)]
    spans_elsewhere = sum(_spans_in(getattr(n, name)) for n in nodes for name in syntax_fields(type(n)))
    makers = len({type(n) for n in nodes}) + (spans_elsewhere > 0)
    built = sum(1 for op, _, _ in pickletools.genops(data) if op.name in ("REDUCE", "NEWOBJ", "NEWOBJ_EX"))
    assert built == len(nodes) + spans_elsewhere + makers
    assert b"Note" not in data and len(nodes) > 150
    again = parse_cache.loads_at(data, module.path)
    loaded = [n for decl in again for n in walk(decl)]
    notes = [n.note for n in loaded if hasattr(n, "note")]
    assert len({id(note) for note in notes}) == len(notes) > 50  # each its own, as the parser makes them
    assert all((note.type, note.binding) == (None, None) for note in notes)
    assert all(n.span.__class__ is Span and n.span.path is module.path for n in loaded)


def _spans_in(value) -> int:
    """Spans held directly in a syntax field (or a tuple of one), not as a node's own."""
    from ruledsl.errors import Span
    if isinstance(value, Span):
        return 1
    return sum(_spans_in(v) for v in value) if isinstance(value, tuple) else 0


def test_a_filled_note_and_a_span_of_another_path_are_kept_as_they_are():
    """What a parse result does not hold is still stored whole: a node with a filled Note
    (a checked model sent elsewhere) or a span naming another file."""
    from ruledsl.errors import Span
    from ruledsl.syntax.ast.node import evolve, walk
    module = _kuhn_module()
    expr = next(n for decl in module.decls for n in walk(decl) if hasattr(n, "note"))
    expr.note.type, expr.note.binding = ("a type",), "a binding"
    moved = evolve(module.decls[0], span=Span("elsewhere.game", 3, 4, 5, 6))
    data = parse_cache.dumps_at((moved, *module.decls), module.path)
    assert data is not None
    again = parse_cache.loads_at(data, module.path)
    assert again == (moved, *module.decls)
    assert again[0].span == Span("elsewhere.game", 3, 4, 5, 6)
    def filled(decls):
        return [(n.note.type, n.note.binding) for decl in decls for n in walk(decl)
                if hasattr(n, "note") and n.note.type is not None]
    assert filled(again) == filled((moved, *module.decls)) and filled(again)[0] == (("a type",), "a binding")
