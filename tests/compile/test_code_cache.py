"""The code objects of generated expression functions, kept between runs (ruledsl/cache.py
`compiled`, called by compile/expr.py): a warm store compiles nothing and the game plays
the same; a damaged store, a changed game or another Python is compiled again;
RULEDSL_CACHE_DIR="" keeps nothing. Every test uses a cache folder of its own."""
from __future__ import annotations

import builtins
import importlib.util
import marshal

import pytest

from ruledsl import cache
from ruledsl.pipeline import load_game
from support import random_playout


GAME = """game "Race" players 2..3
player { pos: int = 0 }
end when home "someone is home": any(p in players: p.pos >= 12)
score p: p.pos * 2 - sum(i in 0..2: i)
rule flow() {
  loop {
    for p in players {
      choose step from 1..3 by p as "step"
      p.pos += step
    }
  }
}
"""


@pytest.fixture
def compiles(monkeypatch):
    """The file names of the generated functions compile() was called for."""
    done = []

    def counted(source, filename, mode, *args, **kw):
        done.append(filename)
        return builtins.compile(source, filename, mode, *args, **kw)
    monkeypatch.setattr(cache, "compile", counted, raising=False)
    return done


def new_process(monkeypatch):
    """Forgets the stores this process has read, as a new process would start."""
    cache.save_code()
    monkeypatch.setattr(cache, "_stores", {})


def played(path) -> list:
    m = random_playout(load_game(str(path)).program, 3, seed=3, max_decisions=200)
    return [m.w.digest(), m.result]


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "race.game"
    path.write_text(GAME, encoding="utf-8")
    return path


def test_a_warm_store_compiles_nothing_and_plays_the_same(cache_dir, compiles, monkeypatch, game):
    first = played(game)
    assert compiles and all(name.startswith(f"<ruledsl code at {game}:") for name in compiles)
    n = len(compiles)
    new_process(monkeypatch)
    assert played(game) == first
    assert len(compiles) == n  # every function came from the store
    (store,) = (cache_dir / cache.CODE).iterdir()
    assert oct(store.stat().st_mode & 0o777) == "0o600"
    assert oct((cache_dir / cache.CODE).stat().st_mode & 0o777) == "0o700"


def test_a_changed_game_compiles_what_changed(cache_dir, compiles, monkeypatch, game):
    played(game)
    n = len(compiles)
    new_process(monkeypatch)
    game.write_text(GAME.replace("p.pos >= 12", "p.pos >= 10"), encoding="utf-8")
    played(game)
    assert 0 < len(compiles) - n < n  # the end condition's functions (line 3), not the others
    assert all(name.startswith(f"<ruledsl code at {game}:3:") for name in compiles[n:])


@pytest.mark.parametrize("damage", [
    lambda data: data[:len(data) // 2],
    lambda data: b"",
    lambda data: data[:40] + bytes([data[40] ^ 1]) + data[41:],
])
def test_a_damaged_store_is_compiled_again(cache_dir, compiles, monkeypatch, game, damage):
    first = played(game)
    n = len(compiles)
    new_process(monkeypatch)
    (store,) = (cache_dir / cache.CODE).iterdir()
    store.write_bytes(damage(store.read_bytes()))
    assert played(game) == first
    assert len(compiles) == 2 * n
    new_process(monkeypatch)  # written again, whole
    assert played(game) == first and len(compiles) == 2 * n


@pytest.mark.parametrize("payload", [b"not marshal", b"\xe9\x00\x00\x00\x00"])  # a valid digest, bad content
def test_a_store_with_its_digest_but_no_code_in_it_is_compiled_again(cache_dir, compiles, monkeypatch, game,
                                                                      payload):
    first = played(game)
    n = len(compiles)
    new_process(monkeypatch)
    (store,) = (cache_dir / cache.CODE).iterdir()
    cache.write(str(store.parent), store.name, payload)
    assert played(game) == first and len(compiles) == 2 * n


def test_another_python_has_its_own_store(cache_dir, compiles, monkeypatch, game):
    played(game)
    new_process(monkeypatch)
    monkeypatch.setattr(importlib.util, "MAGIC_NUMBER", b"\x00\x00\r\n")
    played(game)
    cache.save_code()
    assert len(list((cache_dir / cache.CODE).iterdir())) == 2


def test_an_empty_setting_keeps_nothing(tmp_path, monkeypatch, compiles, game):
    monkeypatch.setenv(cache.CACHE_ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    played(game)
    played(game)
    cache.save_code()
    assert len(compiles) > 0 and len(compiles) % 2 == 0  # both times
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race.game"]


def test_a_store_keeps_what_was_used_and_at_most_as_many_others(cache_dir, compiles, monkeypatch, game):
    """An edit moves spans, so its functions are new ones; the old stay while they are no
    more than the used ones (a variant compiled in turn with the game does not evict it),
    and go at the next new store written after that."""
    played(game)
    n = len(compiles)
    for extra in range(1, 4):
        new_process(monkeypatch)
        game.write_text("\n" * extra + GAME, encoding="utf-8")  # every span moves
        played(game)
    new_process(monkeypatch)
    (store,) = (cache_dir / cache.CODE).iterdir()
    kept = marshal.loads(store.read_bytes()[cache.DIGEST:])
    assert n <= len(kept) <= 2 * n
