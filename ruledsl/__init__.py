"""ruledsl: a rules language for tabletop games (parse, check, compile, run)."""

__version__ = "0.1.0"
