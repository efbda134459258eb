"""Compile stage: a checked game becomes a Program (generated expression code and
op lists).

`compile_game(model, path)` -> runtime.program.Program."""
from .game import compile_game
