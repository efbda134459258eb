"""The grammar's parser: its tables shipped with the package (tables.py), or, where they
do not fit (a grammar being edited, another Lark), built and cached between runs in a
folder of the user's own."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from support import ROOT

pytestmark = pytest.mark.slow  # real processes, each parsing every game

PARSE_ALL = ("import glob, sys; from ruledsl.syntax.load import load, plays_sha256; "
             "print(sorted((f, plays_sha256(load(f).decls)) for f in glob.glob('games/*.game')))")
NOT_SHIPPED = "from ruledsl.syntax import tables; tables.TABLES_NAME = tables.LOOP_NAME = 'no-such-file'; "  # as if they did not fit


def _run(cache_dir, shipped=False) -> str:
    env = dict(os.environ, RULEDSL_CACHE_DIR=str(cache_dir))
    code = PARSE_ALL if shipped else NOT_SHIPPED + PARSE_ALL
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True, timeout=120).stdout


def test_the_shipped_tables_leave_no_parser_in_the_cache_and_parse_as_a_fresh_one(tmp_path):
    cache = tmp_path / "cache"
    assert _run(cache, shipped=True) == _run("")
    assert not list(cache.glob("parser-*"))


def test_the_built_parser_is_cached_and_parses_as_a_fresh_one(tmp_path):
    cache = tmp_path / "cache"
    fresh = _run("")  # no cache at all
    assert not cache.exists()
    first = _run(cache)  # builds and saves (beside the parse results: test_parse_cache.py)
    files = list(cache.glob("parser-*"))
    assert len(files) == 1 and files[0].stat().st_size > 10_000
    assert oct(cache.stat().st_mode & 0o777) == "0o700"
    assert _run(cache) == first == fresh  # loaded from the cache


def test_a_broken_cache_file_is_rebuilt_silently(tmp_path):
    cache = tmp_path / "cache"
    _run(cache)
    (path,) = cache.glob("parser-*")
    path.write_bytes(path.read_bytes()[:100])
    env = dict(os.environ, RULEDSL_CACHE_DIR=str(cache))
    check = NOT_SHIPPED + "from ruledsl.cli import main; main(['check', 'examples/pig.game'])"
    out = subprocess.run([sys.executable, "-c", check], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stderr == "" and path.stat().st_size > 10_000
