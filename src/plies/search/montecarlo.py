"""The random agent and pure Monte Carlo (random playouts after each root move)."""

from __future__ import annotations

import random
from typing import Any

from plies.search.game import Game, random_playout, require_live, with_undo
from plies.search.limits import Budget, Limits
from plies.search.result import SearchResult


def random_move(game: Game, rng: random.Random | None = None) -> Any:
    """A uniformly random legal move."""
    require_live(game)
    moves = game.legal_moves()
    return moves[int((rng or random).random() * len(moves))]


def monte_carlo(
    game: Game,
    playouts: int | None = None,
    *,
    movetime: float | None = None,
    stop: Any = None,
    seed: int | None = None,
) -> SearchResult:
    """Pure Monte Carlo: play each root move, then random games to the end; pick the best mean.

    The playouts (1000 in total if neither ``playouts`` nor ``movetime`` is given) are
    shared round-robin among the root moves. A move that ends the game is scored exactly
    (no playouts), and one that wins at once is chosen at once. The reward of a playout is
    +1/0/-1 (win/draw/loss, by the sign of the utility) for the player to move at the root.
    """
    require_live(game)
    g = with_undo(game)
    if playouts is None and movetime is None:
        playouts = 1000
    budget = Budget(Limits(movetime=movetime, iterations=playouts, stop=stop), interval=1)
    rng = random.Random(seed)
    me = g.current_player()
    moves = list(g.legal_moves())
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)
    exact: dict[int, int] = {}
    for i, move in enumerate(moves):
        g.play(move)
        if g.is_terminal():
            r = g.returns()[me]
            exact[i] = (r > 0) - (r < 0)
        g.undo()
        if exact.get(i) == 1:
            return _result([move], 1.0, moves, totals, counts, exact, 0, budget, True)
    live = [i for i in range(len(moves)) if i not in exact]
    done = 0
    while live and (playouts is None or done < playouts) and not budget.expired():
        for i in live:
            g.play(moves[i])
            try:
                r = random_playout(g, rng)[me]
            finally:
                g.undo()
            totals[i] += (r > 0) - (r < 0)
            counts[i] += 1
            done += 1
            if playouts is not None and done >= playouts:
                break

    def mean(i: int) -> float:
        if i in exact:
            return float(exact[i])
        return totals[i] / counts[i] if counts[i] else 0.0

    best = max(range(len(moves)), key=lambda i: (mean(i), counts[i]))
    proven = len(exact) == len(moves)
    return _result([moves[best]], mean(best), moves, totals, counts, exact, done, budget, proven)


def _result(pv, score, moves, totals, counts, exact, done, budget, proven) -> SearchResult:
    stats = [
        (
            m,
            counts[i],
            float(exact[i]) if i in exact else (totals[i] / counts[i] if counts[i] else 0.0),
        )
        for i, m in enumerate(moves)
    ]
    return SearchResult(
        move=pv[0],
        score=score,
        pv=tuple(pv),
        depth=1,
        nodes=done,
        time=budget.elapsed(),
        proven=proven,
        algorithm="montecarlo",
        info={"root": stats},
    )
