"""Alpha-beta: fail-soft minimax with pruning and move ordering, without a table."""

from __future__ import annotations

from typing import Any

from plies.search.game import Game, is_final, move_lister, require_live, with_undo
from plies.search.limits import Budget, Limits, SearchStopped
from plies.search.minimax import leaf_value
from plies.search.result import SearchResult
from plies.search.scores import INFINITY, terminal_score


def alphabeta(
    game: Game,
    depth: int | None = None,
    *,
    movetime: float | None = None,
    nodes: int | None = None,
    stop: Any = None,
    ordered: bool = True,
) -> SearchResult:
    """The minimax value to ``depth`` plies (``None``: to the end), pruning what cannot matter.

    Fail-soft: every returned bound is as tight as the search found. Moves are tried in the
    game's ``ordered_moves()`` order when it has one and ``ordered`` is true. If a time, node
    or stop limit interrupts the search, the best root move among those finished is returned
    (``proven`` False). The game is left as found.
    """
    require_live(game)
    g = with_undo(game)
    budget = Budget(Limits(depth=depth, movetime=movetime, nodes=nodes, stop=stop))
    lister = move_lister(g, ordered)
    cut = [False]

    def search(d: int, alpha: float, beta: float, ply: int, pv: list[Any]) -> float:
        if d <= 0:
            cut[0] = True
            return leaf_value(g)
        me = g.current_player()
        best = -INFINITY
        for move in lister():
            g.play(move)
            budget.tick()
            child_pv: list[Any] = []
            try:
                if g.is_terminal():
                    v = terminal_score(g.returns()[me], ply + 1)
                elif g.current_player() == me:
                    v = search(d - 1, alpha, beta, ply + 1, child_pv)
                else:
                    v = -search(d - 1, -beta, -alpha, ply + 1, child_pv)
            finally:
                g.undo()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    pv[:] = [move, *child_pv]
                    if alpha >= beta:
                        break
        return best

    limit = depth if depth is not None else 1 << 30
    me = g.current_player()
    best, best_move, best_pv = -INFINITY, None, []
    stopped = False
    moves = list(lister())
    budget.nodes = 1
    for move in moves:
        child_pv: list[Any] = []
        g.play(move)
        try:
            budget.tick()
            if g.is_terminal():
                v = terminal_score(g.returns()[me], 1)
            elif g.current_player() == me:
                v = search(limit - 1, best, INFINITY, 1, child_pv)
            else:
                v = -search(limit - 1, -INFINITY, -best, 1, child_pv)
        except SearchStopped:
            stopped = True
            break
        finally:
            g.undo()
        if v > best or best_move is None:
            best, best_move, best_pv = v, move, [move, *child_pv]
    if best_move is None:
        best_move, best_pv, best = moves[0], [moves[0]], leaf_value(g)
    return SearchResult(
        move=best_move,
        score=best,
        pv=tuple(best_pv),
        depth=depth if depth is not None else len(best_pv),
        nodes=budget.nodes,
        time=budget.elapsed(),
        proven=not stopped and (not cut[0] or is_final(g, best)),
        algorithm="alphabeta",
    )
