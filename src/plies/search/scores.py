"""Score conventions shared by every search: terminal scores that prefer quick wins.

A search score is a number for the player to move. A finished game whose utility for that
player is ``u`` (``returns()[player]``, a whole number: +1/-1/0, or a margin such as boxes)
scores ``u * WIN_SCORE - plies`` when ``u > 0`` and ``u * WIN_SCORE + plies`` when ``u < 0``,
where ``plies`` counts the moves from the root of the search: quicker wins and slower losses
score better, and a bigger margin always beats a quicker win. A draw scores 0.

Heuristic evaluations must stay within ``+-HEURISTIC_LIMIT`` so they never look like a
proven result. :func:`is_decisive` tells the two apart, :func:`score_value` recovers ``u``.
"""

from __future__ import annotations

import math

WIN_SCORE = 1_000_000
"""The score of a win by a utility of 1 reached at once (the ``MATE`` of chess engines)."""

HEURISTIC_LIMIT = WIN_SCORE // 2
"""Heuristic evaluations must lie strictly within +-HEURISTIC_LIMIT."""

INFINITY = math.inf


def terminal_score(utility: float, plies: int) -> float:
    """The score of a finished game worth ``utility`` to the player, ``plies`` from the root."""
    if utility > 0:
        return utility * WIN_SCORE - plies
    if utility < 0:
        return utility * WIN_SCORE + plies
    return 0


def is_decisive(score: float) -> bool:
    """Whether ``score`` is a proven win or loss (not a heuristic value or a draw)."""
    return abs(score) > HEURISTIC_LIMIT


def score_value(score: float) -> int:
    """The game utility behind a decisive score (0 for any non-decisive score)."""
    if not is_decisive(score):
        return 0
    return round(score / WIN_SCORE)


def plies_to_end(score: float) -> int | None:
    """How many plies (moves) from the root the proven result is reached, or None."""
    if not is_decisive(score):
        return None
    return int(abs(score - score_value(score) * WIN_SCORE))


def to_tt(score: float, ply: int) -> float:
    """A score made relative to the node ``ply`` moves below the root, for storing in a table."""
    if score > HEURISTIC_LIMIT:
        return score + ply
    if score < -HEURISTIC_LIMIT:
        return score - ply
    return score


def from_tt(score: float, ply: int) -> float:
    """The inverse of :func:`to_tt`: a stored node-relative score seen from the root."""
    if score > HEURISTIC_LIMIT:
        return score - ply
    if score < -HEURISTIC_LIMIT:
        return score + ply
    return score


def score_text(score: float) -> str:
    """A human reading: ``win in 5``, ``loss in 4 by 3``, ``draw``-free heuristics as ``+12.5``."""
    if is_decisive(score):
        value = score_value(score)
        plies = plies_to_end(score)
        word = "win" if value > 0 else "loss"
        margin = f" by {abs(value)}" if abs(value) != 1 else ""
        return f"{word} in {plies}{margin}"
    if isinstance(score, float) and not score.is_integer():
        return f"{score:+.2f}"
    return f"{int(score):+d}"
