"""The games as OpenSpiel games (the optional `openspiel` extra): `load_game(path)`."""
from .game import load_game  # noqa: F401
