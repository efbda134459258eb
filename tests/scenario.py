"""Old name of tests/support.py, kept while tests/games/test_<game>.py and *_views.py
still import from it; new tests import from support."""
from support import ROOT, FixedChance, card, drive, give, labels, play_recorded, play_with, random_playout, start  # noqa: F401
