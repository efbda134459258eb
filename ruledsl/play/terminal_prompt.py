"""A human seat's answer read with prompt_toolkit (the optional `tui` extra).

Used by `play` when stdin and stdout are a terminal, prompt_toolkit is installed and
`--plain` is not given (`reader()`); otherwise the answer is read with plain lines
(click.prompt), which is also what pipes and tests without a terminal get. What it
adds: the question and the numbered options stay in a toolbar at the bottom of the
terminal while the answer is typed (drawn where the terminal reports its cursor
position, as almost all do), and Tab completes an option's label (any case, from its
start). Input history is off: an answer is never offered again at a later question.
Ctrl-C and Ctrl-D stop the game as in plain mode (click.Abort). The answer is a
string checked by the same `pick_option` as in plain mode, so a game's transcript
does not depend on the mode.
"""
from __future__ import annotations

import sys

import click

MAX_TOOLBAR_LINES = 6  # the question and up to 5 lines of options; the rest are listed above the prompt


def reader(plain: bool = False):
    """A PromptReader for this terminal, or None for plain mode."""
    if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    try:
        import prompt_toolkit  # noqa: F401
    except ImportError:
        return None
    return PromptReader()


class PromptReader:
    """read(message, question, labels, numbers) -> the typed answer (a session per game)."""

    def __init__(self):
        self.session = None

    def __call__(self, message: str, question: str, labels, numbers) -> str:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import DummyHistory
        if self.session is None:
            self.session = PromptSession(history=DummyHistory(), complete_while_typing=False,
                                         enable_history_search=False, mouse_support=False)
        try:
            return self.session.prompt(f"{message}: ", completer=label_completer(labels),
                                       bottom_toolbar=lambda: toolbar_text(question, labels, numbers, _width()))
        except (KeyboardInterrupt, EOFError):
            raise click.Abort() from None  # as click.prompt does: play keeps the transcript so far


def label_completer(labels):
    """Completes the text typed so far (any case) to each label it starts."""
    from prompt_toolkit.completion import Completer, Completion

    class Labels(Completer):
        def get_completions(self, document, complete_event):
            typed = document.text_before_cursor
            low = typed.lower()
            for label in labels:
                if label.lower().startswith(low):
                    yield Completion(label, start_position=-len(typed))
    return Labels()


def _width() -> int:
    from prompt_toolkit.application import get_app
    return get_app().output.get_size().columns


def toolbar_text(question: str, labels, numbers, width: int) -> str:
    """The question on the first line, then `N label` for each option, as many per line as fit."""
    rows: list = [[]]
    for number, label in zip(numbers, labels):
        item = f"{number} {label}"
        if rows[-1] and len("   ".join(rows[-1] + [item])) > width - 1:
            rows.append([])
        rows[-1].append(item)
    if len(rows) > MAX_TOOLBAR_LINES - 1:
        rows = rows[:MAX_TOOLBAR_LINES - 2]
        rest = len(labels) - sum(len(row) for row in rows)
        rows.append([f"... and {rest} more (listed above)"])
    return "\n".join([f"{question} (Tab completes a label, ? help, q quits)"] + ["   ".join(row) for row in rows])
