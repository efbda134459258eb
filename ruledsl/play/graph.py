"""`ruledsl graph`: how a game's rules flow, as a Mermaid or Graphviz dot diagram.

Drawn from the checked declarations (pipeline.Game's model): each rule and
trigger is a box; an arrow to another rule is a call; a hexagon is a decision
(who decides, by the decision's name, and a menu's options); a walk along a
board with triggers points at them; an `end` statement and the `end when`
conditions (tested before every decision) are the ways the game stops.
"""
from __future__ import annotations

import re

import msgspec

from ..errors import UserError
from ..syntax import ast

FORMATS = ("mermaid", "dot")
MAX_OPTIONS = 6


class Node(msgspec.Struct):
    id: str
    label: str
    kind: str  # rule | trigger | decision | end | condition


class Flow(msgspec.Struct):
    nodes: dict = msgspec.field(default_factory=dict)  # id -> Node, in order
    edges: list = msgspec.field(default_factory=list)  # (from id, to id, dashed)
    conditions: list = msgspec.field(default_factory=list)  # Node of each `end when`

    def node(self, id_, label, kind) -> str:
        self.nodes.setdefault(id_, Node(id_, label, kind))
        return id_

    def labelled(self, prefix, label, kind) -> str:
        """The node of this label (one per prefix and label), numbered in order of appearance."""
        for n in self.nodes.values():
            if n.kind == kind and n.label == label and n.id.startswith(prefix + "_"):
                return n.id
        return self.node(f"{prefix}_{len(self.nodes)}", label, kind)

    def edge(self, a, b, dashed=False):
        if (a, b, dashed) not in self.edges:
            self.edges.append((a, b, dashed))


class GraphError(UserError):
    """A --rule that names no rule."""


# ---------------------------------------------------------------- reading the rules
def expr_text(e) -> str:
    """A short source-like text of an expression (who decides)."""
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Attr):
        return f"{expr_text(e.obj)}.{e.name}"
    if isinstance(e, ast.Index):
        return f"{expr_text(e.obj)}[{expr_text(e.index)}]"
    if isinstance(e, ast.Call):
        return f"{e.name}({', '.join(expr_text(a) for a in e.args)})"
    if isinstance(e, ast.Int):
        return str(e.value)
    if isinstance(e, (ast.Aggregate, ast.Filter)):
        head = getattr(e, "func", "")
        return f"{head}({e.var} in {expr_text(e.source)}{' where …' if e.where is not None else ''})"
    return "…"


def statements(body):
    """Every statement of a body, nested ones included, in source order."""
    for stmt in body:
        yield stmt
        for child in _children(stmt):
            yield from statements(child)


def _children(stmt):
    if isinstance(stmt, ast.If):
        yield from (b for _, b in stmt.branches)
        if stmt.other:
            yield stmt.other
    elif isinstance(stmt, ast.Menu):
        yield from (o.body for o in stmt.options)
    elif isinstance(stmt, (ast.For, ast.While, ast.Repeat, ast.Loop, ast.May)):
        yield stmt.body


def decision_label(stmt) -> str | None:
    """`who: name` for a statement that asks a decision (names as the runtime gives them)."""
    if isinstance(stmt, ast.Choose):
        secret = " (secret)" if stmt.secret else ""
        return f"{expr_text(stmt.by)}: {stmt.label or stmt.var}{secret}"
    if isinstance(stmt, ast.Menu):
        labels = [o.label for o in stmt.options]
        shown = " / ".join(labels[:MAX_OPTIONS]) + (" / …" if len(labels) > MAX_OPTIONS else "")
        return f"{expr_text(stmt.by)}: {stmt.label or 'choice'} ({shown})"
    if isinstance(stmt, ast.May):
        return f"{expr_text(stmt.by)}: {stmt.label} or pass"
    if isinstance(stmt, ast.Walk) and stmt.by is not None:
        return f"{expr_text(stmt.by)}: {stmt.label or 'route'} (at a fork)"
    return None


def walk_board(model, stmt) -> str | None:
    t = stmt.target.note.type
    return t.name if t.kind == "space" else None


# ---------------------------------------------------------------- building the flow
def build_flow(game, only_rule: str | None = None) -> Flow:
    model = game.model
    if only_rule is not None and only_rule not in model.rules:
        known = ", ".join(model.rules)
        raise GraphError(f"--rule {only_rule}: no such rule (rules: {known})")
    flow = Flow()
    bodies = {_rule_id(name): (f"{name}({_params(r.params)})", "rule", r.body) for name, r in model.rules.items()}
    for (kind, board), t in model.triggers.items():
        bodies[f"t_{kind}_{board}"] = (f"on {kind} {board}", "trigger", t.body)
    roots = [_rule_id(only_rule)] if only_rule else [k for k in ("r_setup", "r_flow") if k in bodies] + \
        [k for k in bodies if k not in ("r_setup", "r_flow")]
    todo, done = list(roots), set()
    while todo:
        key = todo.pop(0)
        if key in done or key not in bodies:
            continue
        done.add(key)
        label, kind, body = bodies[key]
        flow.node(key, label, kind)
        todo += _add_body(flow, model, key, body, bodies)
    if only_rule is None:
        for i, end in enumerate(model.ends):
            winner = f", winner {expr_text(end.winner)}" if end.winner is not None else ""
            flow.conditions.append(Node(f"c{i}", f"end when {end.name}: {end.reason}{winner}", "condition"))
    return flow


def _params(params) -> str:
    return ", ".join(p.name for p in params)


def _rule_id(name: str) -> str:
    """A node id: a rule's name, where a kept base version ("turn (base)") has spaces."""
    return "r_" + re.sub(r"\W", "_", name)


def _rule_called(model, stmt) -> str | None:
    """The rule a statement calls: `r(...)`, `let x = r(...)` or `return r(...)`."""
    if isinstance(stmt, ast.CallStmt):
        return stmt.call.name
    if isinstance(stmt, (ast.Let, ast.Return)) and model.calls_rule(stmt.value):
        return stmt.value.name
    return None


def _add_body(flow, model, key, body, bodies) -> list:
    """Adds the calls, decisions, walks and ends of one body; returns the callees to visit."""
    callees = []
    for stmt in statements(body):
        label = decision_label(stmt)
        if label is not None:
            flow.edge(key, flow.labelled(f"d_{key}", label, "decision"))
        called = _rule_called(model, stmt)
        if called is not None and _rule_id(called) in bodies:
            callees.append(_rule_id(called))
            flow.edge(key, callees[-1])
        elif isinstance(stmt, ast.Walk):
            board = walk_board(model, stmt)
            for kind in ("pass", "land"):
                if (kind, board) in model.triggers:
                    callees.append(f"t_{kind}_{board}")
                    flow.edge(key, callees[-1], dashed=True)
        elif isinstance(stmt, ast.EndGame):
            winner = f", winner {expr_text(stmt.winner)}" if stmt.winner is not None else ""
            flow.edge(key, flow.labelled("e", f"end: {stmt.reason}{winner}", "end"))
    return callees


# ---------------------------------------------------------------- writing it out
MERMAID_SHAPES = {"rule": ('["', '"]'), "trigger": ('[/"', '"/]'), "decision": ('{{"', '"}}'),
                  "end": ('(["', '"])'), "condition": ('(["', '"])')}


def mermaid_text(text: str) -> str:
    """Text safe inside a quoted Mermaid label (entity codes for what Mermaid would read)."""
    out = text.replace("#", "#35;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
    return out.replace("`", "#96;")


def to_mermaid(flow: Flow, title: str) -> str:
    lines = ["flowchart TD"]
    for n in flow.nodes.values():
        lines.append(_mermaid_node(n))
    for a, b, dashed in flow.edges:
        lines.append(f"  {a} {'-.->' if dashed else '-->'} {b}")
    if flow.conditions:
        lines.append('  subgraph ends ["checked before every decision"]')
        lines += ["  " + _mermaid_node(n) for n in flow.conditions]
        lines.append("  end")
    lines += ["  classDef decision fill:#fff3c4,stroke:#b38f00", "  classDef ending fill:#f8d7da,stroke:#a33",
              "  classDef trigger fill:#e3f0fb,stroke:#2e86ab"]
    for kind, cls in (("decision", "decision"), ("end", "ending"), ("condition", "ending"), ("trigger", "trigger")):
        ids = [n.id for n in list(flow.nodes.values()) + flow.conditions if n.kind == kind]
        if ids:
            lines.append(f"  class {','.join(ids)} {cls}")
    del title  # Mermaid has no portable graph title; the docs' heading names the game
    return "\n".join(lines) + "\n"


def _mermaid_node(n: Node) -> str:
    left, right = MERMAID_SHAPES[n.kind]
    return f"  {n.id}{left}{mermaid_text(n.label)}{right}"


DOT_SHAPES = {"rule": "box", "trigger": "parallelogram", "decision": "hexagon", "end": "octagon",
              "condition": "octagon"}
DOT_FILL = {"rule": "white", "trigger": "#e3f0fb", "decision": "#fff3c4", "end": "#f8d7da", "condition": "#f8d7da"}


def dot_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(flow: Flow, title: str) -> str:
    lines = ["digraph rules {", f"  label={dot_text(title)};", "  labelloc=t;",
             '  node [style=filled, fontname="Helvetica", fontsize=11];']
    for n in flow.nodes.values():
        lines.append(_dot_node(n))
    for a, b, dashed in flow.edges:
        lines.append(f"  {a} -> {b}{' [style=dashed]' if dashed else ''};")
    if flow.conditions:
        lines += ["  subgraph cluster_ends {", f"    label={dot_text('checked before every decision')};"]
        lines += ["  " + _dot_node(n) for n in flow.conditions]
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_node(n: Node) -> str:
    return f"  {n.id} [label={dot_text(n.label)}, shape={DOT_SHAPES[n.kind]}, fillcolor={dot_text(DOT_FILL[n.kind])}];"


def render(game, fmt: str = "mermaid", only_rule: str | None = None) -> str:
    flow = build_flow(game, only_rule)
    title = game.program.title
    return to_mermaid(flow, title) if fmt == "mermaid" else to_dot(flow, title)
