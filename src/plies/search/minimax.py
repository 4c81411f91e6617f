"""Minimax: the plain, exhaustive reference search (no pruning)."""

from __future__ import annotations

import time
from typing import Any

from plies.search.game import Game, is_final, move_lister, require_live, with_undo
from plies.search.result import SearchResult
from plies.search.scores import INFINITY, terminal_score


def leaf_value(game: Any) -> float:
    """The heuristic score of a non-terminal position for its player to move (0 if the game
    has no ``evaluate``)."""
    evaluate = getattr(game, "evaluate", None)
    return evaluate() if evaluate is not None else 0


def minimax(game: Game, depth: int | None = None) -> SearchResult:
    """Search every line to ``depth`` plies (``None``: to the end of the game) without pruning.

    Depth-limited leaves use ``game.evaluate()`` (0 without it). Exponential: meant for small
    games and as the oracle the faster searches are tested against. The game is left as found.
    """
    require_live(game)
    g = with_undo(game)
    start = time.perf_counter()
    counter = [1]
    limit = depth if depth is not None else 1 << 30
    cut = [False]
    lister = move_lister(g, ordered=False)

    def search(d: int, ply: int) -> tuple[float, list[Any]]:
        if d <= 0:
            cut[0] = True
            return leaf_value(g), []
        me = g.current_player()
        best, best_pv = -INFINITY, []
        for move in lister():
            g.play(move)
            counter[0] += 1
            try:
                if g.is_terminal():
                    v, pv = terminal_score(g.returns()[me], ply + 1), []
                else:
                    v, pv = search(d - 1, ply + 1)
                    if g.current_player() != me:
                        v = -v
            finally:
                g.undo()
            if v > best:
                best, best_pv = v, [move, *pv]
        return best, best_pv

    score, pv = search(limit, 0)
    return SearchResult(
        move=pv[0],
        score=score,
        pv=tuple(pv),
        depth=depth if depth is not None else len(pv),
        nodes=counter[0],
        time=time.perf_counter() - start,
        proven=not cut[0] or is_final(g, score),
        algorithm="minimax",
    )
