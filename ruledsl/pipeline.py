"""The stages in order: load (parse) -> check -> compile. Stops after a stage with errors."""
from __future__ import annotations

import msgspec

from .check.decls import check
from .check.types import Model
from .compile.game import compile_game
from .runtime.program import Program
from .errors import RuleError, nests_too_deeply
from .syntax.load import Loaded, load


class Game(msgspec.Struct, frozen=True):
    path: str
    loaded: Loaded
    program: Program
    model: Model  # the checked symbol tables and types the program was compiled from

    @property
    def rules_sha256(self) -> str:
        return self.loaded.rules_sha256


def load_game(path: str, files: dict | None = None, fuse: bool = True, chance_apart: bool = False) -> Game:
    """Raises errors.RuleError with every diagnostic of the first stage that failed.

    `files` (path -> text) loads from those texts only, never from disk (recorded
    rules); `fuse=False` compiles every statement to an op of its own, so a trace
    can name each statement (see explain.py); `chance_apart=True` lets a chance source
    pause a step where it asks for chance (compile_game; the OpenSpiel adapter's)."""
    return build_game(load(path, files), fuse, chance_apart)


def build_game(loaded: Loaded, fuse: bool = True, chance_apart: bool = False) -> Game:
    """check -> compile of loaded (maybe hand-merged) declarations."""
    try:
        model = check(loaded)
        program = compile_game(model, loaded.path, loaded.sources, fuse=fuse, chance_apart=chance_apart)
    except RecursionError:  # the stages walk the declarations recursively; parsing bounds their depth,
        # but some nestings (blocks inside blocks) cost a walk several frames a level
        raise RuleError([nests_too_deeply(loaded.path)], loaded.sources) from None
    return Game(path=loaded.path, loaded=loaded, program=program, model=model)
