"""Tic-tac-toe (examples/tic_tac_toe.game) by hand, in plain Python.

X (seat 0) moves first; each move is one decision "mark a cell" among the empty cells
(uniformly random here, as ruledsl's random agent picks); three in a row through the
cell just marked wins, else a full board is a draw (both seats share it, as ruledsl
scores a game with no winner and no score).

    python3 benchmarks/handwritten/tic_tac_toe.py --games 10000 --seed 1
"""
from __future__ import annotations

import random

PLAYERS = (2,)  # the player counts of the game file
WIN = "three in a row"
DRAW = "the board is full: a draw"

# cells 0..8 row by row (a1 a2 a3 b1 ...); the lines through each cell
_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
LINES_THROUGH = [[line for line in _LINES if cell in line] for cell in range(9)]


def play(players: int, rng: random.Random, lines_through=LINES_THROUGH) -> tuple:
    """One game between random agents: (decisions, end reason, winners)."""
    board = [-1] * 9
    empty = list(range(9))
    randrange = rng.randrange
    p = 0
    for move in range(1, 10):
        i = randrange(len(empty))
        cell = empty[i]
        empty[i] = empty[-1]
        empty.pop()
        board[cell] = p
        for a, b, c in lines_through[cell]:
            if board[a] == p and board[b] == p and board[c] == p:
                return move, WIN, (p,)
        p = 1 - p
    return 9, DRAW, (0, 1)


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from handwritten import main
    main(play, __doc__, PLAYERS)
