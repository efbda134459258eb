"""Parameter types of the command line that refuse bad input in a line (click types)."""
from __future__ import annotations

import re

import click

from ..errors import printable

MAX_SEED_DIGITS = 19  # seeds fit in 64 bits


class Seed(click.ParamType):
    """An integer seed of at most MAX_SEED_DIGITS digits. A longer text is refused without being
    echoed whole (a 5,000-digit seed was printed back in full by click's int type)."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if re.fullmatch(rf"[+-]?\d{{1,{MAX_SEED_DIGITS}}}", text):
            return int(text)
        shown = printable(text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)")
        self.fail(f"'{shown}' is not a seed: a seed is an integer of at most {MAX_SEED_DIGITS} digits", param, ctx)


SEED = Seed()
