"""ruledsl: a rules language for tabletop games.

Layers, each importing only the ones before it (tests/test_layers.py): errors,
codes, budget, version, cache and collector; syntax (grammar, parser, AST,
variants); check; runtime (the Machine and its World); compile (a checked game -> a
runtime Program); pipeline (load -> check -> compile); play (agents, transcripts,
replay, simulation, views); openspiel and pettingzoo (the RL adapters); api; cli.

The stable Python API (docs/api.md) is ruledsl.api, re-exported here:
`ruledsl.load("games/base.game").start(players=3, seed=1)`. The re-exports are
imported on first use, so `ruledsl check` and other light commands do not pay for
the API's imports (replay, transcripts, ...).
"""
from __future__ import annotations

from .version import __version__  # noqa: F401

__all__ = ["__version__", "Decision", "Game", "GameNotFound", "IllegalChoice", "Match", "Result", "find", "load",
           "replay", "shipped_games"]


def __getattr__(name: str):
    """ruledsl.load, ruledsl.Match, ...: the API's names, imported when first asked for."""
    if name in __all__:
        from . import api
        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
