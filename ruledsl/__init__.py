"""ruledsl: a rules language for tabletop games (parse, check, compile, run).

The stable Python API (docs/api.md) is ruledsl.api, re-exported here:
`ruledsl.load("games/base.game").start(players=3, seed=1)`.
"""
from __future__ import annotations

__version__ = "0.1.0"  # first: the modules the API imports read it

# Imported here, after the submodules it loads, so `ruledsl.load` is the API's function,
# not the ruledsl.load module (which `from ruledsl.load import ...` still reaches).
from .api import (Decision, Game, GameNotFound, IllegalChoice, Match, Result, find, load,  # noqa: E402
                  replay, shipped_games)

__all__ = ["__version__", "Decision", "Game", "GameNotFound", "IllegalChoice", "Match", "Result", "find", "load",
           "replay", "shipped_games"]
