"""A fixed-size transposition table with depth-preferred replacement.

Entries are tuples ``(key, depth, flag, score, move, generation)`` in a list indexed by a
multiplicative (Fibonacci) hash of ``hash(key)``, so structured keys (bitboards) spread
evenly. A new entry replaces the old one in its slot when the slot is empty, holds the same
position, comes from an earlier search (older generation), or was searched less deeply.
Scores are stored node-relative (see :func:`plies.search.scores.to_tt`).
"""

from __future__ import annotations

from typing import Any

from plies.errors import InvalidOption

EXACT = 0
"""The stored score is the exact value of the position at that depth."""
LOWER = 1
"""The stored score is a lower bound (the search failed high)."""
UPPER = 2
"""The stored score is an upper bound (the search failed low)."""

FULL_DEPTH = 1 << 30
"""The depth recorded for a subtree searched to the end of the game: valid at any depth."""

_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1

Entry = tuple[int, int, int, float, Any, int]


class TranspositionTable:
    """``2**bits`` slots (default 2**18: 262,144 positions, about 20 MB when full)."""

    __slots__ = ("bits", "shift", "slots", "generation", "stores", "hits")

    def __init__(self, bits: int = 18) -> None:
        if not 1 <= bits <= 30:
            raise InvalidOption(f"transposition table bits must be 1..30, not {bits}")
        self.bits = bits
        self.shift = 64 - bits
        self.slots: list[Entry | None] = [None] * (1 << bits)
        self.generation = 0
        self.stores = 0
        self.hits = 0

    def new_search(self) -> None:
        """Age the entries: from now on they may be replaced by any new entry."""
        self.generation += 1

    def clear(self) -> None:
        """Forget every entry."""
        self.slots = [None] * (1 << self.bits)
        self.stores = self.hits = 0

    def probe(self, key: int) -> Entry | None:
        """The entry stored for ``key``, or None."""
        entry = self.slots[((hash(key) * _GOLDEN) & _MASK64) >> self.shift]
        if entry is not None and entry[0] == key:
            self.hits += 1
            return entry
        return None

    def store(self, key: int, depth: int, flag: int, score: float, move: Any) -> None:
        """Store a search result for ``key`` unless a deeper current entry holds the slot."""
        i = ((hash(key) * _GOLDEN) & _MASK64) >> self.shift
        old = self.slots[i]
        if old is None or old[0] == key or old[5] != self.generation or depth >= old[1]:
            if move is None and old is not None and old[0] == key:
                move = old[4]
            self.slots[i] = (key, depth, flag, score, move, self.generation)
            self.stores += 1

    def __len__(self) -> int:
        return sum(1 for e in self.slots if e is not None)
