"""Negamax with a transposition table, principal variation search and iterative deepening.

``negamax`` deepens one ply at a time until the depth, time, node or stop limit, reusing the
table between iterations for move ordering and cut-offs; ``solve`` searches to the end of
the game for the exact value. Both handle extra turns: after each move the player to move
is asked again, and the child's score is negated only if it changed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from plies.search.game import Game, is_final, move_lister, require_live, with_undo
from plies.search.limits import Budget, Limits, SearchStopped
from plies.search.minimax import leaf_value
from plies.search.result import SearchResult
from plies.search.scores import INFINITY, from_tt, terminal_score, to_tt
from plies.search.tt import EXACT, FULL_DEPTH, LOWER, UPPER, TranspositionTable

_nextafter = math.nextafter


class _Negamax:
    """One search: the recursive negamax over a game, a table and a budget."""

    def __init__(
        self,
        game: Any,
        tt: TranspositionTable | None,
        budget: Budget,
        pvs: bool,
        ordered: bool,
        use_eval: bool,
    ) -> None:
        self.game = game
        self.tt = tt if hasattr(game, "hash_key") else None
        self.budget = budget
        self.pvs = pvs
        self.lister = move_lister(game, ordered)
        self.evaluate: Callable[[], float] | None = (
            getattr(game, "evaluate", None) if use_eval else None
        )
        self.cuts = 0  # depth-limited leaves and non-final table hits seen so far
        self.search = self._build()

    def _build(self) -> Callable[[int, float, float, int], float]:
        game = self.game
        play, undo = game.play, game.undo
        is_terminal, returns, player = game.is_terminal, game.returns, game.current_player
        lister = self.lister
        tt = self.tt
        hash_key = game.hash_key if tt is not None else None
        probe = tt.probe if tt is not None else None
        store = tt.store if tt is not None else None
        budget = self.budget
        tick = budget.tick
        evaluate = self.evaluate
        pvs = self.pvs
        this = self

        def search(depth: int, alpha: float, beta: float, ply: int) -> float:
            """The fail-soft score of the (live) position for its player to move."""
            tt_move = None
            key = 0
            if probe is not None:
                key = hash_key()
                entry = probe(key)
                if entry is not None:
                    tt_move = entry[4]
                    if entry[1] >= depth:
                        s = from_tt(entry[3], ply)
                        flag = entry[2]
                        if (
                            flag == EXACT
                            or (flag == LOWER and s >= beta)
                            or (flag == UPPER and s <= alpha)
                        ):
                            if entry[1] < FULL_DEPTH:
                                this.cuts += 1
                            return s
            if depth <= 0:
                this.cuts += 1
                return evaluate() if evaluate is not None else 0
            moves = lister()
            if tt_move is not None and moves[0] != tt_move and tt_move in moves:
                moves = list(moves)
                moves.remove(tt_move)
                moves.insert(0, tt_move)
            me = player()
            cuts_before = this.cuts
            best, best_move = -INFINITY, None
            a = alpha
            first = True
            for move in moves:
                play(move)
                try:
                    tick()
                    if is_terminal():
                        v = terminal_score(returns()[me], ply + 1)
                    elif player() == me:
                        if first or not pvs:
                            v = search(depth - 1, a, beta, ply + 1)
                        else:
                            v = search(depth - 1, a, _nextafter(a, INFINITY), ply + 1)
                            if a < v < beta:
                                v = search(depth - 1, v, beta, ply + 1)
                    else:
                        if first or not pvs:
                            v = -search(depth - 1, -beta, -a, ply + 1)
                        else:
                            v = -search(depth - 1, -_nextafter(a, INFINITY), -a, ply + 1)
                            if a < v < beta:
                                v = -search(depth - 1, -beta, -v, ply + 1)
                finally:
                    undo()
                first = False
                if v > best:
                    best, best_move = v, move
                    if v > a:
                        a = v
                        if a >= beta:
                            break
            if store is not None:
                flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
                stored_depth = FULL_DEPTH if this.cuts == cuts_before else depth
                store(key, stored_depth, flag, to_tt(best, ply), best_move)
            return best

        return search

    def root(self, depth: int, moves: list[Any]) -> tuple[float, Any, list[tuple[Any, float]]]:
        """Search each root move in order with a full window on the first, PVS on the rest.

        Returns the best score, the best move and each finished move's score (exact for the
        best, a bound for the others).
        """
        game, search = self.game, self.search
        me = game.current_player()
        best, best_move = -INFINITY, None
        scored: list[tuple[Any, float]] = []
        cuts_before = self.cuts
        for i, move in enumerate(moves):
            game.play(move)
            try:
                self.budget.tick()
                if game.is_terminal():
                    v = terminal_score(game.returns()[me], 1)
                else:
                    same = game.current_player() == me
                    sign = 1 if same else -1
                    if i == 0 or not self.pvs:
                        lo, hi = (best, INFINITY) if same else (-INFINITY, -best)
                        v = sign * search(depth - 1, lo, hi, 1)
                    else:
                        nxt = _nextafter(best, INFINITY)
                        lo, hi = (best, nxt) if same else (-nxt, -best)
                        v = sign * search(depth - 1, lo, hi, 1)
                        if v > best:
                            lo, hi = (v, INFINITY) if same else (-INFINITY, -v)
                            v = sign * search(depth - 1, lo, hi, 1)
            finally:
                game.undo()
            scored.append((move, v))
            if v > best or best_move is None:
                best, best_move = v, move
        if self.tt is not None:
            stored_depth = FULL_DEPTH if self.cuts == cuts_before else depth
            self.tt.store(self.game.hash_key(), stored_depth, EXACT, best, best_move)
        return best, best_move, scored

    def principal_variation(self, first: Any, limit: int) -> list[Any]:
        """The line of table moves from the root starting with ``first`` (at most ``limit``)."""
        game, tt = self.game, self.tt
        pv = [first]
        if tt is None:
            return pv
        game.play(first)
        played, seen = 1, set()
        try:
            while len(pv) < limit and not game.is_terminal():
                key = game.hash_key()
                entry = tt.probe(key)
                if entry is None or entry[4] is None or key in seen:
                    break
                seen.add(key)
                move = entry[4]
                if move not in game.legal_moves():
                    break
                game.play(move)
                played += 1
                pv.append(move)
        finally:
            for _ in range(played):
                game.undo()
        return pv


def negamax(
    game: Game,
    depth: int | None = None,
    *,
    movetime: float | None = None,
    nodes: int | None = None,
    stop: Any = None,
    tt: TranspositionTable | None = None,
    pvs: bool = True,
    ordered: bool = True,
    iterative: bool = True,
) -> SearchResult:
    """Negamax with a transposition table, PVS and iterative deepening.

    Deepens from 1 ply to ``depth`` (``None``: until the result is proven or a limit hits).
    ``movetime`` (seconds), ``nodes`` and ``stop`` (a ``threading.Event``) interrupt the
    search; the result is then the last finished iteration's (at least one legal move is
    always returned). The table (``tt``, a fresh 2**18-slot one by default) is used when the
    game has ``hash_key()``; pass your own to keep it between moves. ``iterative=False``
    searches ``depth`` plies at once. Leaves at the depth limit use ``evaluate()`` (0 if the
    game has none). The game is left as found.
    """
    return _run(game, depth, movetime, nodes, stop, tt, pvs, ordered, iterative, True, "negamax")


def solve(
    game: Game,
    *,
    movetime: float | None = None,
    nodes: int | None = None,
    stop: Any = None,
    tt: TranspositionTable | None = None,
    iterative: bool = True,
) -> SearchResult:
    """The exact game-theoretic value and a best move: negamax to the end of the game.

    No heuristic is used (unfinished lines count 0 while deepening). Iterative deepening
    (the default) finds quick wins at once and orders moves for the deeper passes;
    ``iterative=False`` searches to the end in one pass. ``result.value`` is the utility for
    the player to move and ``result.score`` also tells how many plies the result takes (see
    ``scores``). If a limit interrupts the search, ``proven`` is False and the move is the
    table's best guess.
    """
    return _run(game, None, movetime, nodes, stop, tt, True, True, iterative, False, "solve")


def _run(
    game: Game,
    depth: int | None,
    movetime: float | None,
    nodes: int | None,
    stop: Any,
    tt: TranspositionTable | None,
    pvs: bool,
    ordered: bool,
    iterative: bool,
    use_eval: bool,
    name: str,
) -> SearchResult:
    require_live(game)
    g = with_undo(game)
    limits = Limits(depth=depth, movetime=movetime, nodes=nodes, stop=stop)
    if tt is None:
        tt = TranspositionTable()
    tt.new_search()
    budget = Budget(limits)  # the clock starts after the table is allocated
    budget.nodes = 1
    engine = _Negamax(g, tt, budget, pvs, ordered, use_eval)
    moves = list(engine.lister())
    max_depth = depth if depth is not None else FULL_DEPTH
    depths = range(1, max_depth + 1) if iterative else [max_depth]
    best = (leaf_value(g) if use_eval else 0, moves[0], 0, False)  # score, move, depth, proven
    info: dict[str, Any] = {}
    pv = [moves[0]]
    for d in depths:
        if d > 1 and budget.expired():
            break
        cuts_before = engine.cuts
        try:
            score, move, scored = engine.root(d, moves)
        except SearchStopped:
            break
        exhausted = engine.cuts == cuts_before
        proven = exhausted or is_final(g, score)
        best = (score, move, d, proven)
        pv = engine.principal_variation(move, d)  # now, before a later pass overwrites entries
        info["root"] = scored
        scored_sorted = sorted(scored, key=lambda ms: ms[1], reverse=True)
        moves = [m for m, _ in scored_sorted]  # best first at the next iteration
        if proven:
            break
    score, move, reached, proven = best
    if reached >= FULL_DEPTH or (proven and depth is None):
        reached = len(pv)
    info["tt_stores"], info["tt_hits"] = tt.stores, tt.hits
    return SearchResult(
        move=move,
        score=score,
        pv=tuple(pv),
        depth=reached,
        nodes=budget.nodes,
        time=budget.elapsed(),
        proven=proven,
        algorithm=name,
        info=info,
    )
