"""The result record every algorithm returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from plies.search import scores

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[M]):
    """What a search found, from the point of view of the player to move at the root.

    ``score`` is in search units (see :mod:`plies.search.scores`) for the minimax family and
    the mean playout reward in [-1, 1] for Monte Carlo and MCTS. ``proven`` says the score is
    the exact game-theoretic result (not a heuristic or a statistical estimate); ``value``
    then gives the utility (for MCTS only its sign: +1 win, 0 draw, -1 loss).
    ``info`` holds algorithm-specific statistics (for example visits per root move).
    """

    move: M | None
    score: float
    pv: tuple[M, ...] = ()
    depth: int = 0
    nodes: int = 0
    time: float = 0.0
    proven: bool = False
    algorithm: str = ""
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def value(self) -> int | None:
        """The proven game value for the player to move, or None if not proven."""
        if not self.proven:
            return None
        if self.algorithm in ("mcts", "montecarlo"):
            return (self.score > 0) - (self.score < 0)
        return scores.score_value(self.score)

    @property
    def nps(self) -> float:
        """Nodes (or playouts) per second."""
        return self.nodes / self.time if self.time > 0 else 0.0

    @property
    def score_text(self) -> str:
        """The score as text: ``win in 5``, ``+12``, ``0.43`` for playout means."""
        if self.algorithm in ("mcts", "montecarlo"):
            return f"{self.score:+.3f}"
        return scores.score_text(self.score)
