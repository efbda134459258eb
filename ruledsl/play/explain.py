"""Why a replay diverged: what differs, which statement wrote it, which edit caused it.

Given the rules a transcript was recorded with and the current ones, both are run
over the recorded choices and chance (nothing is guessed):

1. the fields that differ after the diverging step, recorded and current value;
2. the first differing value: both rules are compiled one op per statement and
   the diverging step is traced; the first write to a differing field that is not
   the same in both runs names the current rules' statement (path:line);
3. the rule edit responsible: the declarations whose canonical form differs are
   the edits; when there are several, each one alone is applied to the recorded
   rules, and the ones that reproduce the divergence at the same step are named
   (an intervention, so also an edited constant is found, not only the statement
   that read it). Each is shown at its first edited line.
"""
from __future__ import annotations

import difflib

import msgspec

from ..errors import GameRuntimeError, RuleError, printable
from ..pipeline import build_game
from ..syntax.load import Loaded, canonical
from . import statediff
from .divergence import STATE, Divergence, RecordingEnds, Reference, ReplayError, check_run, follow

SHOWN_FIELDS = 10
SHOWN_EDITS = 8
MAX_EDITS_TRIED = 24  # edits each tried alone; beyond this they are listed, not tried
FOLLOW_FAILURES = (Divergence, ReplayError, GameRuntimeError, RecordingEnds)


def explain(err: Divergence, recorded, current, records) -> list:
    """Lines for `err`; `recorded` and `current` are pipeline.Games."""
    lines: list = []
    if err.kind == STATE:
        lines += _state_lines(err.step, recorded, current, records)
    lines += _edit_lines(err.step, recorded, current, records)
    return lines


# ---------------------------------------------------------------- 1. fields
def _state_lines(step, recorded, current, records) -> list:
    try:
        before = follow(recorded.program, records, step).w.snapshot()
        now = follow(current.program, records, step).w.snapshot()
    except FOLLOW_FAILURES:
        return []
    diffs = statediff.diff(before, now)
    lines = [d.text() for d in diffs[:SHOWN_FIELDS]]
    if len(diffs) > SHOWN_FIELDS:
        lines.append(f"... and {len(diffs) - SHOWN_FIELDS} more fields differ")
    if diffs:
        lines += _first_write_lines(step, recorded, current, records, diffs)
    return lines


# ---------------------------------------------------------------- 2. the first differing write
class Write(msgspec.Struct, frozen=True):
    path: tuple
    value: object
    span: object  # None: a field's initial value, before any statement ran


class Tracer:
    """Watches some fields while a step runs, noting each change with the statement that made it."""

    def __init__(self, program, paths):
        self.read = statediff.FieldReader(program)
        self.paths = paths
        self.last: dict | None = None
        self.writes: list = []
        self.span = None  # what a change seen before the next statement is put down to

    def start(self, machine=None):
        """From now on; at set-up (no machine yet) every field starts absent."""
        if machine is None:
            self.last = {p: statediff.ABSENT for p in self.paths}
        else:
            self.last = {p: self.read(machine.w, p) for p in self.paths}
            self.span = machine.pending.span  # a choice's own effect, before any statement
        self.writes = []

    def see(self, vm, span):
        if self.last is None:
            return
        for path in self.paths:
            value = self.read(vm.w, path)
            if value != self.last[path]:
                self.last[path] = value
                self.writes.append(Write(path, value, self.span))
        self.span = span


def traced_program(game, tracer):
    """The game compiled one op per statement, each op reporting to `tracer` after it runs."""
    program = build_game(game.loaded, fuse=False).program
    for code in list(program.rules.values()) + list(program.triggers.values()):
        code.ops[:] = [_traced(op, span, tracer) for op, span in zip(code.ops, code.spans)]
    return program


def _traced(op, span, tracer):
    def traced(vm, fr):
        tracer.see(vm, span)  # what changed since the last op (a choice's effect) is not this op's
        try:
            return op(vm, fr)
        finally:
            tracer.see(vm, span)
    return traced


def _first_write_lines(step, recorded, current, records, diffs) -> list:
    paths = [d.path for d in diffs]
    final = {d.path: (d.recorded, d.now) for d in diffs}
    try:
        before = _writes(recorded, records, step, paths)
        now = _writes(current, records, step, paths)
    except FOLLOW_FAILURES:
        return []
    for i in range(max(len(before), len(now))):
        was = before[i] if i < len(before) else None
        new = now[i] if i < len(now) else None
        if was is None or new is None or (was.path, was.value) != (new.path, new.value):
            return [_first_write_text(was, new, final)]
    return []


def _writes(game, records, step, paths) -> list:
    tracer = Tracer(game.program, paths)
    program = traced_program(game, tracer)
    if step == 0:
        tracer.start()
    follow(program, records, step, before_last=tracer.start)
    return tracer.writes


def _first_write_text(was, new, final: dict) -> str:
    if new is None:
        return (f"first differing value: the recorded rules set {statediff.field_name(was.path)} to "
                f"{statediff.shown(was.value)} here; the current rules never do")
    by = ("by the game's starting components (before any rule ran)" if new.span is None
          else f"by {new.span.path}:{new.span.line}")
    field = statediff.field_name(new.path)
    if was is not None and was.path == new.path:
        if final.get(new.path) == (was.value, new.value):
            return f"first differing value: {field}, written {by}"
        return f"first differing value: {field}, written {by}: {statediff.values_text(was.value, new.value)}"
    return f"first differing value: {field} = {statediff.shown(new.value)}, written {by} (the recorded rules " \
           "did not write it there)"


# ---------------------------------------------------------------- 3. the edit responsible
class Edit(msgspec.Struct, frozen=True):
    key: str
    recorded: object  # the recorded declaration, None if the edit adds one
    current: object  # the current declaration, None if the edit removes one


def edits(recorded: Loaded, current: Loaded) -> list:
    """The declarations that play differently, by name (comments and layout don't count)."""
    was, now = _keyed(recorded.decls), _keyed(current.decls)
    out = [Edit(k, was.get(k), d) for k, d in now.items() if k not in was or canonical(was[k]) != canonical(d)]
    out += [Edit(k, d, None) for k, d in was.items() if k not in now]
    return out


def _keyed(decls) -> dict:
    out: dict = {}
    for d in decls:
        key = d.key or f"{type(d).__name__} {getattr(d, 'owner', getattr(d, 'name', ''))}".strip()
        n, unique = 1, key
        while unique in out:
            n += 1
            unique = f"{key} #{n}"
        out[unique] = d
    return out


def _edit_lines(step, recorded, current, records) -> list:
    found = edits(recorded.loaded, current.loaded)
    if not found:
        return []
    if len(found) == 1:
        return ["rule change responsible: " + edit_text(found[0], recorded, current)]
    tried = found[:MAX_EDITS_TRIED]
    alone = [e for e in tried if _reproduces(e, step, recorded, current, records)]
    if alone:
        head = "rule change responsible: " if len(alone) == 1 else "rule changes responsible (each alone): "
        return [head + edit_text(alone[0], recorded, current)] + \
            ["  and " + edit_text(e, recorded, current) for e in alone[1:]]
    shown = ["  " + edit_text(e, recorded, current) for e in found[:SHOWN_EDITS]]
    if len(found) > SHOWN_EDITS:
        shown.append(f"  ... and {len(found) - SHOWN_EDITS} more")
    return ["rule changes (no one of them alone diverges here; together they do):"] + shown


def _reproduces(edit: Edit, step, recorded, current, records) -> bool:
    """Whether the recorded rules with only this edit made diverge at the same step."""
    decls = [d for d in recorded.loaded.decls if d is not edit.recorded]
    if edit.current is not None:
        at = recorded.loaded.decls.index(edit.recorded) if edit.recorded is not None else len(decls)
        decls.insert(at, edit.current)
    sources = {**recorded.loaded.sources, **current.loaded.sources}
    try:
        hybrid = build_game(Loaded(path=current.path, decls=decls, sources=sources, chain=current.loaded.chain))
        check_run(hybrid.program, records, reference=Reference(recorded.program, records))
    except RuleError:
        return False  # the edit does not stand alone (it needs another one)
    except Divergence as err:
        return err.step == step
    except FOLLOW_FAILURES:
        return False
    return False


def edit_text(edit: Edit, recorded, current) -> str:
    if edit.current is None:
        span = edit.recorded.span
        return f"{edit.key} removed (recorded at {span.path}:{span.line})"
    now_lines = _decl_lines(edit.current, current.loaded.sources)
    if edit.recorded is None:
        line, text = now_lines[0]
        return f"{edit.current.span.path}:{line}: {text} (added)"
    was_lines = _decl_lines(edit.recorded, recorded.loaded.sources)
    line, text, before = _first_edited_line(was_lines, now_lines)
    where = f"{edit.current.span.path}:{line}: {text}"
    return where + (f"   (recorded: {before})" if before else "")


def _decl_lines(decl, sources) -> list:
    """[(line number, text without comment)] of a declaration, blank lines left out."""
    text = sources.get(decl.span.path, "").splitlines()
    end = decl.span.end_line or decl.span.line
    out = []
    for n in range(decl.span.line, end + 1):
        if n <= len(text):
            bare = _bare(text[n - 1])
            if bare:
                out.append((n, bare))
    return out or [(decl.span.line, "")]


def _bare(line: str) -> str:
    """A line without its comment (a '#' outside a string) and surrounding blanks."""
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"':
            in_string = not in_string
        elif ch == "#" and not in_string:
            return printable(" ".join(line[:i].split()))
    return printable(" ".join(line.split()))


def _first_edited_line(was_lines, now_lines):
    """(line, text, recorded text or None) of the first line that differs."""
    was_text = [t for _, t in was_lines]
    now_text = [t for _, t in now_lines]
    matcher = difflib.SequenceMatcher(a=was_text, b=now_text, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if b0 < len(now_lines):
            before = was_text[a0] if tag == "replace" else None
            return now_lines[b0][0], now_lines[b0][1], before
        return now_lines[-1][0], now_lines[-1][1], None
    return now_lines[0][0], now_lines[0][1], None
