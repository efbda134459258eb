"""Where the viewer draws each space of a board, from the board's declaration alone.

Coordinates are in cell units (the page scales them). The shape is chosen by
what the declaration says, never by the game:

- `grid`: two int attributes named x/y, col/row or column/row, or every space
  named letter+number (a1..h8: the letter is the column, the number the row,
  row 1 at the bottom, as on a chess board);
- `ring`: a `loop` board (a circle, or the edge of a square when it is long), or a
  `graph` board whose first-link walk from its first
  space comes back round (spaces off that ring sit inside it, near their links);
- `row`: a `line` board, in rows of at most ROW spaces;
- `layers`: any other `graph` board, by link distance from its first space;
- `table`: a board with no topology, in rows.
"""
from __future__ import annotations

import math
import re

ROW = 10
RING_MAX = 12  # more spaces than this: a ring goes round the edge of a square
COORD_PAIRS = (("x", "y"), ("col", "row"), ("column", "row"))
NAMED_CELL = re.compile(r"^([a-z])(\d{1,2})$")


def board_layout(name: str, info, links: dict) -> dict:
    """The drawing of one board: {name, shape, spaces: [{name, x, y, attrs}], links: [[a, b]]}.

    `info` is the checker's BoardInfo (declaration, attribute values), `links` the
    compiled space -> neighbours table."""
    spaces = list(info.spaces)
    attrs = {row.name: _attrs(info, row) for row in info.decl.spaces}
    shape, coords = _shape(info, spaces, attrs, links)
    drawn = [{"name": s, "x": round(coords[s][0], 3), "y": round(coords[s][1], 3), "attrs": attrs[s]}
             for s in spaces]
    edges = [[a, b] for a, b, _ in info.decl.links]
    if shape in ("ring", "row") and not edges:
        edges = [[a, b] for a, b in zip(spaces, spaces[1:])]
        if shape == "ring" and len(spaces) > 2:
            edges.append([spaces[-1], spaces[0]])
    return {"name": name, "shape": shape, "topology": info.decl.topology, "spaces": drawn, "links": edges}


def _attrs(info, row) -> dict:
    """A space's attribute values as plain JSON values, by attribute name."""
    names = [p.name for p in info.decl.params]
    out = {}
    for i, pname in enumerate(names):
        value = row.values[i] if i < len(row.values) else info.defaults.get(pname)
        out[pname] = getattr(value, "value", value)
    return out


def _shape(info, spaces, attrs, links):
    topology = info.decl.topology
    if not spaces:  # e.g. `each i in 1..0: space ...`: nothing to place
        return "table", {}
    grid = grid_coords(spaces, attrs)
    if grid is not None:
        return "grid", grid
    if topology == "loop":
        return "ring", ring_coords(spaces)
    if topology == "line":
        return "row", row_coords(spaces)
    if topology == "graph":
        cycle = main_cycle(spaces, info.decl.links)
        if cycle is not None and len(cycle) * 2 >= len(spaces):
            return "ring", ring_with_inner(spaces, cycle, links)
        return "layers", layer_coords(spaces, links)
    return "table", row_coords(spaces, snake=False)


def grid_coords(spaces, attrs) -> dict | None:
    """(column, row) per space when the board reads as a grid, else None."""
    for xa, ya in COORD_PAIRS:
        values = [attrs[s] for s in spaces]
        if all(isinstance(v.get(xa), int) and isinstance(v.get(ya), int) for v in values):
            coords = {s: (attrs[s][xa], attrs[s][ya]) for s in spaces}
            return _normalised(coords) if len(set(coords.values())) == len(spaces) else None
    matches = [NAMED_CELL.match(s) for s in spaces]
    if len(spaces) >= 4 and all(matches):
        top = max(int(m.group(2)) for m in matches)
        coords = {s: (ord(m.group(1)) - ord("a"), top - int(m.group(2))) for s, m in zip(spaces, matches)}
        return _normalised(coords) if len(set(coords.values())) == len(spaces) else None
    return None


def _normalised(coords: dict) -> dict:
    x0 = min(x for x, _ in coords.values())
    y0 = min(y for _, y in coords.values())
    return {s: (x - x0, y - y0) for s, (x, y) in coords.items()}


def ring_coords(spaces) -> dict:
    """Clockwise from the top, about one cell apart: a circle, or for more than
    RING_MAX spaces the edge of a square (as round a board)."""
    n = len(spaces)
    if n > RING_MAX:
        return square_ring(spaces)
    radius = max(1.2, n * 1.25 / (2 * math.pi))
    return {s: (radius + radius * math.sin(2 * math.pi * i / n),
                radius - radius * math.cos(2 * math.pi * i / n)) for i, s in enumerate(spaces)}


def square_ring(spaces) -> dict:
    """Evenly along the edge of a square, clockwise from the top left corner."""
    side = math.ceil(len(spaces) / 4)
    out = {}
    for i, s in enumerate(spaces):
        t = round(i * 4 * side / len(spaces))  # whole slots: no two spaces meet at a corner
        edge, along = divmod(t, side)
        corners = [(0, 0), (side, 0), (side, side), (0, side)]
        (x0, y0), (x1, y1) = corners[int(edge)], corners[(int(edge) + 1) % 4]
        out[s] = (x0 + (x1 - x0) * along / side, y0 + (y1 - y0) * along / side)
    return out


def row_coords(spaces, snake: bool = True) -> dict:
    """Rows of ROW spaces; a track snakes on (every other row right to left)."""
    out = {}
    for i, s in enumerate(spaces):
        row, col = divmod(i, ROW)
        out[s] = (ROW - 1 - col if snake and row % 2 else col, row * 1.3)
    return out


def main_cycle(spaces, links) -> list | None:
    """The walk along each space's first link from the first space, if it comes back to it."""
    first_link: dict = {}
    for a, b, _ in links:
        first_link.setdefault(a, b)
    if not spaces:
        return None
    walk, seen, at = [spaces[0]], {spaces[0]}, first_link.get(spaces[0])
    while at is not None and at not in seen:
        walk.append(at)
        seen.add(at)
        at = first_link.get(at)
    return walk if at == spaces[0] else None


def ring_with_inner(spaces, cycle, links) -> dict:
    """The cycle as a ring; each other space inside it, pulled in from its ring neighbours."""
    coords = ring_coords(cycle)
    radius = (max(x for x, _ in coords.values()) + min(x for x, _ in coords.values())) / 2
    for s in spaces:
        if s in coords:
            continue
        near = [coords[t] for t in links.get(s, ()) if t in coords] or [(radius, radius)]
        x = sum(p[0] for p in near) / len(near)
        y = sum(p[1] for p in near) / len(near)
        coords[s] = (radius + (x - radius) * 0.7, radius + (y - radius) * 0.7)
    return coords


def layer_coords(spaces, links) -> dict:
    """Columns by link distance from the first space; unreachable spaces in a last column."""
    depth = {spaces[0]: 0} if spaces else {}
    queue = list(depth)
    while queue:
        s = queue.pop(0)
        for t in links.get(s, ()):
            if t not in depth:
                depth[t] = depth[s] + 1
                queue.append(t)
    last = max(depth.values(), default=-1) + 1
    rows: dict = {}
    out = {}
    for s in spaces:
        col = depth.get(s, last)
        out[s] = (col * 1.6, rows.get(col, 0) * 1.3)
        rows[col] = rows.get(col, 0) + 1
    return out
