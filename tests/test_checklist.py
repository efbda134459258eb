"""Docs that can't rot: every rule ID of ../shared/rulebooks/CHECKLIST.md is tagged in its game's
files (as a comment) and named by at least one test (in its name or text)."""
import re

import pytest

from support import ROOT

CHECKLIST = ROOT.parent / "shared" / "rulebooks" / "CHECKLIST.md"
GAMES = {"ML": "mafialand", "RI": "road_to_infamy", "TB": "the_boss", "MD": "mafia_dollar", "BB": "bada_bing"}


def checklist_ids() -> list:
    if not CHECKLIST.exists():
        pytest.skip(f"{CHECKLIST} is not beside this checkout")
    return re.findall(r"^- ([A-Z]{2}-\d{2}) ", CHECKLIST.read_text(encoding="utf-8"), re.M)


def game_text(prefix: str) -> str:
    name = GAMES[prefix]
    files = [ROOT / "games" / f"{name}.game", *sorted((ROOT / "games" / name).glob("*.game"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in files if p.exists())


def test_the_checklist_has_the_five_games():
    ids = checklist_ids()
    assert {i[:2] for i in ids} == set(GAMES) and len(ids) >= 60


def test_every_checklist_id_is_tagged_in_its_game_files():
    untagged = [i for i in checklist_ids() if not re.search(rf"\b{i}\b", game_text(i[:2]))]
    assert untagged == []


def test_every_checklist_id_is_named_by_a_test():
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py")
                      if p.name != "test_checklist.py")
    unnamed = [i for i in checklist_ids()
               if not re.search(rf"\b{i}\b|{i[:2].lower()}_?{i[3:]}", tests, re.I)]
    assert unnamed == []
