"""Lark is imported without the optional `regex` module (ruledsl/syntax/lark_import.py)."""
from __future__ import annotations

import os
import subprocess
import sys

from support import ROOT

FAKE_REGEX = "import sys\nsys.regex_imports = getattr(sys, 'regex_imports', 0) + 1\n"
PROGRAM = """
import sys
import ruledsl.syntax.parse
import lark.utils
print(getattr(sys, "regex_imports", 0), lark.utils._has_regex)
import regex
print(sys.regex_imports)
"""


def _run(tmp_path, program: str) -> list:
    (tmp_path / "regex.py").write_text(FAKE_REGEX)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_lark_does_not_import_regex_and_regex_imports_afterwards(tmp_path):
    assert _run(tmp_path, PROGRAM) == ["0", "False", "1"]


def test_regex_imported_before_is_left_to_lark(tmp_path):
    assert _run(tmp_path, "import regex\n" + PROGRAM) == ["1", "True", "1"]
