"""What a human seat sees at the terminal besides its fields: boards as pictures, and
option numbers that stay put.

Both come from the declarations alone (never the game):

- A board the viewer lays out as a `grid` (view_layout.py: x/y, col/row or a1..c3
  spaces) is drawn as rows of cells, each `NUMBER NAME CONTENT`; any other board (a
  loop, a line, a graph, spaces without topology) as one line of its spaces in
  declaration order, each empty stretch summed up (`· x7`), a loop ending in ↺.
  A cell's content is its fields that hold something (not none, 0, no or empty) and
  the pieces on it (player/shared fields whose value is that space).
- Option numbers: when every option of a `choose` is one of a fixed domain, the
  number is its place in that domain, so `5` means the same whatever else is offered:
  the spaces of one board (in declaration order), the values of one enum, the seats
  (`seat K` is K+1), or whole numbers (the number is the value, 0 included); a
  menu's options by their place in the menu as written (an option its guard leaves
  out keeps its number free). Cards and everything else are numbered 1..n as offered
  (a choice from a hand: the hand's order as its zone shows it). A card set's
  declaration order is no fit for cards: a hand's numbers would be a sparse handful of
  1..52 (or 1..141), unrelated to where the cards lie in the hand, and cards told
  apart by their fields ('X #2') are in no fixed list at all.

How the answer is read (plain lines, or prompt_toolkit at a terminal): terminal_prompt.py.
"""
from __future__ import annotations

EMPTY_VALUES = (None, "none", 0, False, "", [], {})


def attach(agents, game, plain: bool = False) -> None:
    """Gives each human agent the game's board drawings, pieces and domains, and the
    prompt_toolkit reader at a terminal unless `plain` (terminal_prompt.py)."""
    from .agents import HumanAgent
    from .terminal_prompt import reader
    from .view import board_drawings, pieces
    humans = [agent for agent in agents if isinstance(agent, HumanAgent)]
    if not humans:
        return
    drawings, placed, read = board_drawings(game), pieces(game), reader(plain)
    for agent in humans:
        agent.terminal = Terminal(drawings, placed, game.program, menu_options(game.loaded.decls), read)


def menu_options(decls) -> dict:
    """Every menu's whole option list (guards or not), by the place of its statement."""
    from ..syntax import ast
    return {node.span.where(): [o.label for o in node.options]
            for node in ast.walk(list(decls)) if isinstance(node, ast.Menu)}


class Terminal:
    def __init__(self, drawings, placed, program, menus=None, reader=None):
        self.drawings = {d["name"]: d for d in drawings}
        self.placed = placed
        self.program = program
        self.menus = menus or {}
        self.reader = reader  # reader(message, question, labels, numbers) -> answer; None: plain lines

    def boards(self, view: dict) -> list:
        """(board, lines drawing it) for each board of the view (lines None: no layout known)."""
        out = []
        fields = view.get("boards", {})
        for name in self.board_names(fields):
            spaces = fields.get(name, {})
            drawing = self.drawings.get(name)
            if drawing is None:
                out.append((name, None))
                continue
            marks = pieces_on(view, self.placed, name)
            content = {s["name"]: cell_text(spaces.get(s["name"], {}), marks.get(s["name"], []))
                       for s in drawing["spaces"]}
            lines = grid_lines(drawing, content) if drawing["shape"] == "grid" else [track_line(drawing, content)]
            out.append((name, lines))
        return out

    def board_names(self, fields: dict) -> list:
        """Boards with fields, then boards that only have pieces on them."""
        with_pieces = dict.fromkeys(p["board"] for p in self.placed)
        return list(fields) + [b for b in with_pieces if b not in fields]

    def numbers(self, decision) -> tuple:
        """(numbers, domain): see numbering."""
        return numbering(decision, self.program, self.menus)


def pieces_on(view: dict, placed: list, board: str) -> dict:
    """space -> ['seat 0 at', 'start'] : who stands where on this board."""
    out: dict = {}
    for piece in placed:
        if piece["board"] != board:
            continue
        if piece["owner"] == "shared":
            at = view.get("shared", {}).get(piece["field"])
            out.setdefault(at, []).append(piece["field"])
            continue
        for player in view.get("players", []):
            at = player.get(piece["field"])
            out.setdefault(at, []).append(f"seat {player['seat']} {piece['field']}")
    return out


def cell_text(fields: dict, marks: list) -> str:
    """What is on a space: its non-empty fields (by value alone when it has one field) and pieces."""
    from .agents import _value_text
    full = {k: v for k, v in fields.items() if v not in EMPTY_VALUES}
    if len(fields) == 1:
        parts = [_value_text(v) for v in full.values()]
    else:
        parts = [f"{k}={_value_text(v)}" for k, v in full.items()]
    return ", ".join(parts + marks)


def grid_lines(drawing: dict, content: dict) -> list:
    """Rows of cells `N name content`, N the space's place on the board (its option number)."""
    cells = {}
    for number, space in enumerate(drawing["spaces"], start=1):
        cells[(space["x"], space["y"])] = f"{number} {space['name']} {content.get(space['name']) or '.'}"
    width = max(len(c) for c in cells.values())
    xs = sorted({x for x, _ in cells})
    ys = sorted({y for _, y in cells})
    return ["  " + " | ".join(cells.get((x, y), "").ljust(width) for x in xs).rstrip() for y in ys]


def track_line(drawing: dict, content: dict) -> str:
    """The spaces in order, empty stretches summed up; a loop ends with ↺ (back to the start)."""
    parts: list = []
    empty = 0
    for space in drawing["spaces"]:
        text = content.get(space["name"])
        if not text:
            empty += 1
            continue
        if empty:
            parts.append(f"· x{empty}" if empty > 1 else "·")
            empty = 0
        parts.append(f"{space['name']} [{text}]")
    if empty and not parts:
        return f"  {empty} spaces, nothing on them"
    if empty:
        parts.append(f"· x{empty}" if empty > 1 else "·")
    loop = " ↺" if drawing["shape"] == "ring" else ""
    return "  " + " > ".join(parts) + loop


def option_numbers(decision, program, menus=None) -> list:
    """Each option's number: its place in a fixed domain when all options come from one, else 1..n."""
    return numbering(decision, program, menus)[0]


def numbering(decision, program, menus=None) -> tuple:
    """(numbers, the fixed domain they count in, or None when they are places in this list)."""
    labels = list(decision.labels)
    whole_menu = (menus or {}).get(decision.span.where()) if decision.kind == "menu" else None
    if whole_menu and set(labels) <= set(whole_menu):
        return [whole_menu.index(label) + 1 for label in labels], "this menu as written in the rules"
    if decision.kind == "may":
        return [1, 2], "the action, then pass"
    if decision.kind == "choose" and program is not None:
        for name, domain in _domains(program):
            if set(labels) <= set(domain):
                return [domain.index(label) + 1 for label in labels], name
        values = [_whole(label) for label in labels]
        if all(v is not None for v in values) and len(set(values)) == len(values):
            return values, "whole numbers: each number is its own"
    return list(range(1, len(labels) + 1)), None


def _domains(program):
    for name, board in program.boards.items():
        yield f"the spaces of board {name}, in the order declared", list(board.spaces)
    for name, members in program.enums.items():
        yield f"the values of {name}, in the order declared", list(members)
    yield "the seats: seat K is K+1", [f"seat {k}" for k in range(program.max_players)]


def _whole(label: str):
    return int(label) if label.isascii() and label.isdigit() else None


def numbering_help(domain) -> str:
    if domain is None:
        return ("the numbers are the options' places in this list, in the order offered (cards in the "
                "order of the hand or pile they come from); they may change from turn to turn.")
    return (f"the numbers are fixed: each option keeps its place in {domain}, "
            "whatever else is offered.")


def chosen_seed(seed):
    """`--seed N` as given; without it a random seed from the OS. The narration's first
    line prints it and the transcript header records it, so the game can be played again."""
    if seed is not None:
        return seed
    import secrets
    return secrets.randbelow(2**31)
