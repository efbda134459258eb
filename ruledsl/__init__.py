"""ruledsl: a rules language for tabletop games.

Layers, each importing only the ones before it (tests/test_layers.py): errors,
codes and budget; syntax (grammar, parser, AST, variants); check; runtime (the
Machine and its World); compile (a checked game -> a runtime Program); pipeline
(load -> check -> compile); play (agents, transcripts, replay, simulation, views);
openspiel; api; cli.

The stable Python API (docs/api.md) is ruledsl.api, re-exported here:
`ruledsl.load("games/base.game").start(players=3, seed=1)`.
"""
from __future__ import annotations

from .version import __version__  # noqa: F401

from .api import Decision, Game, GameNotFound, IllegalChoice, Match, Result, find, load, replay, shipped_games

__all__ = ["__version__", "Decision", "Game", "GameNotFound", "IllegalChoice", "Match", "Result", "find", "load",
           "replay", "shipped_games"]
