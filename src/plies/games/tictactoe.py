"""Tic-tac-toe on a 3x3 board: cells 0..8 row by row, X (player 0) moves first."""

from __future__ import annotations

from plies.errors import InvalidMove
from plies.search.zobrist import ZobristTable

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_LINES_THROUGH = tuple(tuple(line for line in LINES if c in line) for c in range(9))
_ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)  # centre, corners, edges
_ZOBRIST = ZobristTable(9, 2, seed=9)


class TicTacToe:
    """A tic-tac-toe position with its history (implements the plies.search Game protocol)."""

    max_utility = 1  # win/loss/draw: a proven win cannot be bettered
    __slots__ = ("cells", "history", "winner", "key")

    def __init__(self, moves: str | list[int] = "") -> None:
        self.cells: list[int | None] = [None] * 9
        self.history: list[int] = []
        self.winner: int | None = None
        self.key = 0
        for move in moves:
            self.play(int(move))

    def current_player(self) -> int:
        return len(self.history) & 1

    def legal_moves(self) -> list[int]:
        cells = self.cells
        return [c for c in range(9) if cells[c] is None]

    def ordered_moves(self) -> list[int]:
        cells = self.cells
        return [c for c in _ORDER if cells[c] is None]

    def play(self, move: int) -> None:
        if self.is_terminal() or not (0 <= move < 9) or self.cells[move] is not None:
            raise InvalidMove(f"illegal tic-tac-toe move {move!r}")
        p = len(self.history) & 1
        self.cells[move] = p
        self.history.append(move)
        self.key ^= _ZOBRIST.keys[2 * move + p]
        cells = self.cells
        for a, b, c in _LINES_THROUGH[move]:
            if cells[a] == cells[b] == cells[c]:
                self.winner = p
                break

    def undo(self) -> None:
        move = self.history.pop()
        self.key ^= _ZOBRIST.keys[2 * move + self.cells[move]]
        self.cells[move] = None
        self.winner = None

    def is_terminal(self) -> bool:
        return self.winner is not None or len(self.history) == 9

    def returns(self) -> tuple[int, int]:
        if self.winner is None:
            return (0, 0)
        return (1, -1) if self.winner == 0 else (-1, 1)

    def hash_key(self) -> int:
        return self.key

    def evaluate(self) -> int:
        """Open lines: lines the player to move can still complete minus the opponent's."""
        me = len(self.history) & 1
        cells, score = self.cells, 0
        for line in LINES:
            owners = {cells[c] for c in line} - {None}
            if owners == {me}:
                score += 1
            elif owners == {1 - me}:
                score -= 1
        return score

    def copy(self) -> TicTacToe:
        other = TicTacToe.__new__(TicTacToe)
        other.cells = list(self.cells)
        other.history = list(self.history)
        other.winner = self.winner
        other.key = self.key
        return other

    def __str__(self) -> str:
        marks = {None: ".", 0: "X", 1: "O"}
        rows = ["".join(marks[self.cells[3 * r + c]] for c in range(3)) for r in range(3)]
        return "\n".join(rows)
