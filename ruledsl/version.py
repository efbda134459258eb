"""The version of ruledsl, recorded in every transcript header (pyproject.toml has the same)."""
__version__ = "0.1.0"
