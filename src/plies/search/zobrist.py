"""Zobrist hashing: one random 64-bit key per (feature, value); a position's key is their XOR."""

from __future__ import annotations

import random


class ZobristTable:
    """Random keys for ``features`` features (cells, heaps...) each taking ``values`` values.

    ``table.key(f, v)`` is the key of feature ``f`` having value ``v``; XOR it in when the
    feature takes that value and XOR it out when it loses it. ``table.side`` is XORed in for
    the second player to move, for games where the pieces alone do not tell whose turn it is.
    The keys are reproducible from ``seed``.
    """

    __slots__ = ("features", "values", "keys", "side")

    def __init__(self, features: int, values: int = 2, seed: int = 0x5EED) -> None:
        rng = random.Random(seed)
        self.features = features
        self.values = values
        self.keys = [rng.getrandbits(64) for _ in range(features * values)]
        self.side = rng.getrandbits(64)

    def key(self, feature: int, value: int) -> int:
        """The key of ``feature`` taking ``value``."""
        return self.keys[feature * self.values + value]

    def hash(self, assignment: dict[int, int] | list[int | None]) -> int:
        """The XOR of the keys of a full assignment (index -> value; None for absent)."""
        items = assignment.items() if isinstance(assignment, dict) else enumerate(assignment)
        h = 0
        for f, v in items:
            if v is not None:
                h ^= self.keys[f * self.values + v]
        return h
