"""The error-code registry (ruledsl/codes.py) against the code that reports codes and the docs."""
import re

from ruledsl.codes import CODES, table
from support import ROOT

SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "ruledsl").rglob("*.py"))
                   if p.name != "codes.py")


def test_every_code_the_implementation_reports_is_registered():
    used = set(re.findall(r'"([ER]\d{3})"', SOURCE))
    assert used - set(CODES) == set()


def test_every_registered_code_is_reported_somewhere():
    used = set(re.findall(r'"([ER]\d{3})"', SOURCE))
    assert set(CODES) - used == set()


def test_the_docs_table_is_the_registry():
    doc = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert table() in doc


def test_codes_are_unique_and_ordered_by_stage():
    stages = [stage for stage, _ in CODES.values()]
    assert set(stages) <= {"parse", "load", "check", "compile", "run"}
    assert list(CODES) == sorted(CODES, key=lambda c: (c[0] == "R", int(c[1:])))
