"""The stages in order: load (parse) -> check -> compile. Stops after a stage with errors."""
from __future__ import annotations

import attrs

from .check import check
from .compile import compile_game
from .load import Loaded, load
from .program import Program
from .types import Model


@attrs.frozen
class Game:
    path: str
    loaded: Loaded
    program: Program
    model: Model  # the checked symbol tables and types the program was compiled from

    @property
    def rules_sha256(self) -> str:
        return self.loaded.rules_sha256


def load_game(path: str) -> Game:
    """Raises errors.RuleError with every diagnostic of the first stage that failed."""
    loaded = load(path)
    model = check(loaded)
    return Game(path=path, loaded=loaded, program=compile_game(model, path, loaded.sources), model=model)
