"""Where a simulation's time goes, by line of the game (`ruledsl simulate --profile`).

A sampling profiler over the rules: as the process spends CPU time (signal.setitimer's
ITIMER_PROF, every millisecond or as often as the system's clock ticks allow) it looks
at the stack the games are running and charges the sample to the innermost line of
the game whose code is on it. The code ruledsl generates knows which statement it
runs: a rule's generator or stretch keeps the index of the statement under way in its
local `_at` (the span a failure there would name, `_spans[_at]`), and a def's or
condition's own function has its span (`_span`). So a line's samples are that
statement's, with what the engine does for it (moves, dice, lookups) and the defs and
rules written into it; a def or rule that runs in a function of its own is charged to
its own lines. A sample with no generated code on its stack is the engine's, outside
the rules: the agents choosing (a searching agent's own games count on their lines),
the Machine between decisions, setting games up.

Shares of samples, not times. Python runs the handler where it next checks for
signals (a call, a loop's next turn), so straight-line code is charged to the next such
point, mostly on the same line. Only where signals can interrupt this process's main
thread (POSIX), and only in this process (`--jobs 1`, no Ray).
"""
from __future__ import annotations

import signal
import time
from collections import Counter

from ..errors import printable
from .agents import RandomAgent, ask_agent

_ASKING = frozenset({ask_agent.__code__, RandomAgent.choose.__code__})  # an agent choosing (simulate's loops)

INTERVAL = 0.001  # seconds of CPU time asked for between samples
SHOWN = 20  # lines in the text report (the JSON has every line sampled)
GENERATED = "<ruledsl "  # the start of the file name of every function ruledsl generates (compile/)


def statement_line(frame):
    """(path, line) of the statement a generated function's frame runs, or None for any
    other frame (or a generated one that names no statement)."""
    if not frame.f_code.co_filename.startswith(GENERATED):
        return None
    names = frame.f_globals
    spans, span = names.get("_spans"), None
    if spans is not None:
        at = frame.f_locals.get("_at")
        if at.__class__ is int and 0 <= at < len(spans):
            span = spans[at]
    if span is None:
        span = names.get("_span")
    if span is None or not hasattr(span, "line"):
        return None
    return span.path, span.line


class Profile:
    """Samples this process while it is entered (`with Profile() as profile:`)."""

    def __init__(self, interval: float = INTERVAL):
        self.interval = interval
        self.samples = 0
        self.lines: Counter = Counter()  # (path, line) -> samples whose innermost game line it is
        self.agents = 0  # samples outside the rules while an agent chose (_ASKING on the stack)
        self.cpu = 0.0  # CPU seconds while entered
        self._before = None

    @staticmethod
    def available() -> bool:
        return hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")

    def __enter__(self):
        self._before = signal.signal(signal.SIGPROF, self._sample)
        self.cpu = -time.process_time()
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)
        return self

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        self.cpu += time.process_time()
        signal.signal(signal.SIGPROF, self._before)
        return False

    def _sample(self, signum, frame):
        self.samples += 1
        while frame is not None:
            line = statement_line(frame)
            if line is not None:
                self.lines[line] += 1
                return
            if frame.f_code in _ASKING:
                self.agents += 1
            frame = frame.f_back

    def outside(self) -> int:
        """Samples with no line of the game on the stack."""
        return self.samples - sum(self.lines.values())

    def as_json(self, sources: dict) -> dict:
        """Every line sampled, the most samples first."""
        split: dict = {}
        return {"samples": self.samples, "cpu_seconds": round(self.cpu, 3), "outside_the_rules": self.outside(),
                "agents_choosing": self.agents,
                "lines": [{"at": f"{path}:{line}", "samples": n, "text": source_line(sources, path, line, split)}
                          for (path, line), n in self.lines.most_common()]}

    def text(self, sources: dict, top: int = SHOWN) -> list:
        """The report: a header, then the `top` lines with the most samples, each with its share and text."""
        if not self.samples:
            return ["profile: no samples (the games took too little CPU time: play more of them)"]
        share = lambda n: f"{100 * n / self.samples:5.1f}%"  # noqa: E731
        every = 1000 * self.cpu / self.samples
        lines = [f"profile: {self.samples:,} samples, one every {every:.1f} ms of CPU time; "
                 "each to the innermost line of the game running"]
        split: dict = {}
        lines += [f"  {share(n)}  {path}:{line}  {source_line(sources, path, line, split)}"
                  for (path, line), n in self.lines.most_common(top)]
        lines.append(f"  {share(self.outside())}  outside the rules: agents choosing {share(self.agents).strip()}, "
                     f"the Machine between decisions and set-up {share(self.outside() - self.agents).strip()}")
        return lines


def source_line(sources: dict, path: str, line: int, split: dict | None = None, width: int = 70) -> str:
    """Line `line` of file `path` as the report shows it: stripped, made printable, cut at
    `width`. `split` keeps each file's lines for the next call of a report (a file is split
    once, not once a line)."""
    rows = None if split is None else split.get(path)
    if rows is None:
        text = sources.get(path)
        rows = text.split("\n") if text is not None else []
        if split is not None:
            split[path] = rows
    if not 1 <= line <= len(rows):
        return ""
    shown = printable(rows[line - 1].strip())
    return shown if len(shown) <= width else shown[:width - 3] + "..."
