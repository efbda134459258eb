"""Parameter types of the command line that refuse bad input in a line (click types)."""
from __future__ import annotations

import os
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
        self.fail(f"'{_shown(text)}' is not a seed: a seed is an integer of at most {MAX_SEED_DIGITS} digits", param, ctx)


SEED = Seed()


def _shown(text: str) -> str:
    """`text` as an error shows it: printable, and a long one cut (with its length)."""
    return printable(text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)")


class Jobs(click.ParamType):
    """How many processes: an integer of at least 1, or `auto` for as many as the CPUs
    this process may run on (os.sched_getaffinity where the platform has it, else
    os.cpu_count), as pytest-xdist's `-n auto`."""

    name = "integer|auto"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        text = str(value).strip()
        if text == "auto":
            return usable_cpus()
        if re.fullmatch(r"\+?\d{1,6}", text) and int(text) >= 1:
            return int(text)
        self.fail(f"'{_shown(text)}' is not a number of processes: give an integer of at least 1, or auto", param, ctx)


def usable_cpus() -> int:
    """The CPUs this process may run on (at least 1)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity is not None else (os.cpu_count() or 1))


JOBS = Jobs()
