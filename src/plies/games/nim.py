"""Nim (normal play): take any number of tokens from one heap; whoever takes the last wins."""

from __future__ import annotations

from collections.abc import Iterable

from plies.errors import InvalidMove


class Nim:
    """A Nim position. Moves are ``(heap, count)`` tuples; player 0 moves first.

    The player to move wins exactly when the XOR of the heaps (the nim-sum) is not zero.
    """

    max_utility = 1  # win/loss/draw: a proven win cannot be bettered
    __slots__ = ("heaps", "history", "player")

    def __init__(self, heaps: Iterable[int] = (3, 4, 5)) -> None:
        self.heaps = [int(h) for h in heaps]
        if any(h < 0 for h in self.heaps):
            raise InvalidMove(f"heaps must not be negative: {self.heaps}")
        self.history: list[tuple[int, int]] = []
        self.player = 0

    def current_player(self) -> int:
        return self.player

    def legal_moves(self) -> list[tuple[int, int]]:
        return [(i, n) for i, h in enumerate(self.heaps) for n in range(1, h + 1)]

    def ordered_moves(self) -> list[tuple[int, int]]:
        """Moves leaving a zero nim-sum first (the winning ones), then the largest takes."""
        total = 0
        for h in self.heaps:
            total ^= h
        moves = self.legal_moves()
        moves.sort(key=lambda m: (self.heaps[m[0]] - m[1] != self.heaps[m[0]] ^ total, -m[1]))
        return moves

    def play(self, move: tuple[int, int]) -> None:
        heap, count = move
        if not (0 <= heap < len(self.heaps) and 1 <= count <= self.heaps[heap]):
            raise InvalidMove(f"illegal Nim move {move!r} with heaps {self.heaps}")
        self.heaps[heap] -= count
        self.history.append((heap, count))
        self.player ^= 1

    def undo(self) -> None:
        heap, count = self.history.pop()
        self.heaps[heap] += count
        self.player ^= 1

    def is_terminal(self) -> bool:
        return not any(self.heaps)

    def returns(self) -> tuple[int, int]:
        # the player who took the last token (the one not to move) wins
        return (-1, 1) if self.player == 0 else (1, -1)

    def hash_key(self) -> int:
        """The heaps (each below 2**20) and the player to move, packed into one int."""
        key = self.player
        for h in self.heaps:
            key = (key << 20) | h
        return key

    def copy(self) -> Nim:
        other = Nim.__new__(Nim)
        other.heaps = list(self.heaps)
        other.history = list(self.history)
        other.player = self.player
        return other

    def __str__(self) -> str:
        return " ".join(str(h) for h in self.heaps)
