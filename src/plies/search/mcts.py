"""Monte Carlo tree search: UCT with an optional MCTS-solver and tree reuse between moves.

Each iteration descends the tree by UCB1 (mean reward plus ``exploration * sqrt(ln N / n)``),
adds one new node, finishes the game with a random playout (the game's ``random_playout``
hook when it has one) and credits every node on the path with the result: +1/0/-1 for the
player who made the move into that node (by the sign of the utility). The player to move is
asked at every node, so extra turns need nothing special.

With ``solver=True`` (MCTS-Solver, Winands et al. 2008, extended to draws) finished games
are exact values that climb the tree: a node is a proven win for the player to move as soon
as one child is, and is otherwise proven once every child is (its value is then the best
child's). Proven losses are never selected, and a proven root stops the search.

With ``reuse=True`` and a game that has ``hash_key()``, the next search starts from the
subtree of the position actually reached, if it is within ``reuse_depth`` plies of the old
root (the old statistics are kept).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from plies.search.game import Game, random_playout, require_live, with_undo
from plies.search.limits import Limits
from plies.search.result import SearchResult

_sqrt, _log = math.sqrt, math.log


class Node:
    """A tree node: the move into it, who made it, and the statistics from that player's side."""

    __slots__ = (
        "move",
        "parent",
        "mover",
        "children",
        "untried",
        "visits",
        "total",
        "q",
        "isq",
        "proven",
    )

    def __init__(self, move: Any, parent: Node | None, mover: int | None) -> None:
        self.move = move
        self.parent = parent
        self.mover = mover
        self.children: list[Node] = []
        self.untried: list[Any] | None = None  # filled on the first visit
        self.visits = 0
        self.total = 0.0  # sum of rewards for ``mover``
        self.q = 0.0  # total / visits, kept up to date for the UCB formula
        self.isq = 1.0  # 1 / sqrt(visits)
        self.proven: int | None = None  # exact value for ``mover`` (+1, 0, -1) once known

    def mean(self) -> float:
        """The mean reward for the player who moved into this node."""
        if self.proven is not None:
            return float(self.proven)
        return self.total / self.visits if self.visits else 0.0


class MCTS:
    """A reusable UCT searcher; ``search(game)`` returns a :class:`SearchResult`.

    ``iterations`` and ``movetime`` (seconds) bound each search (1000 iterations if neither is
    set); ``exploration`` is the UCB1 constant for rewards in [-1, 1]; ``seed`` makes the
    playouts reproducible.
    """

    def __init__(
        self,
        iterations: int | None = None,
        movetime: float | None = None,
        *,
        exploration: float = 1.4,
        solver: bool = True,
        reuse: bool = True,
        reuse_depth: int = 4,
        seed: int | None = None,
    ) -> None:
        Limits(iterations=iterations, movetime=movetime)  # validates
        if iterations is None and movetime is None:
            iterations = 1000
        self.iterations = iterations
        self.movetime = movetime
        self.exploration = float(exploration)
        self.solver = solver
        self.reuse = reuse
        self.reuse_depth = reuse_depth
        self.rng = random.Random(seed)
        self._root: Node | None = None
        self._root_game: Any = None

    def reset(self) -> None:
        """Forget the tree (for a new game)."""
        self._root = None
        self._root_game = None

    def search(
        self,
        game: Game,
        iterations: int | None = None,
        movetime: float | None = None,
        stop: Any = None,
    ) -> SearchResult:
        """Run the iterations from ``game``'s position (left unchanged) and pick a move."""
        require_live(game)
        g = with_undo(game)
        if iterations is None and movetime is None:
            iterations, movetime = self.iterations, self.movetime
        start = time.perf_counter()
        deadline = None if movetime is None else start + movetime
        root = self._find_root(g)
        reused = root.visits
        me = g.current_player()
        done, max_depth = 0, 0
        while root.proven is None:
            if iterations is not None and done >= iterations:
                break
            if done & 15 == 0 and done:
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                if stop is not None and stop.is_set():
                    break
            depth = self._iterate(g, root)
            done += 1
            if depth > max_depth:
                max_depth = depth
        if self.reuse and hasattr(g, "hash_key"):
            self._root, self._root_game = root, g.copy()
        best = self._best_child(root)
        pv = [best.move]
        node = best
        while node.children:
            node = max(node.children, key=lambda c: (c.visits, c.mean()))
            pv.append(node.move)
        return SearchResult(
            move=best.move,
            score=best.mean(),
            pv=tuple(pv),
            depth=max_depth,
            nodes=done,
            time=time.perf_counter() - start,
            proven=root.proven is not None,
            algorithm="mcts",
            info={
                "root": [(c.move, c.visits, c.mean()) for c in root.children],
                "reused_visits": reused,
                "player": me,
            },
        )

    # --- one iteration ------------------------------------------------------------------
    def _iterate(self, game: Any, root: Node) -> int:
        """Select, expand, play out, back up. Returns the depth of the new node."""
        node = root
        played = 0
        c = self.exploration
        playout = getattr(game, "random_playout", None)
        solver = self.solver
        try:
            while True:
                if node.proven is not None:
                    z = node.proven if node.mover == 0 else -node.proven  # reward for player 0
                    break
                if node.untried is None:
                    node.untried = list(game.legal_moves())
                    self.rng.shuffle(node.untried)
                if node.untried:
                    move = node.untried.pop()
                    mover = game.current_player()
                    game.play(move)
                    played += 1
                    child = Node(move, node, mover)
                    node.children.append(child)
                    node = child
                    if game.is_terminal():
                        r = game.returns()[0]
                        z = (r > 0) - (r < 0)
                        child.proven = z if mover == 0 else -z
                    else:
                        r = (playout(self.rng) if playout else random_playout(game, self.rng))[0]
                        z = (r > 0) - (r < 0)
                    break
                # every move tried: descend to the best child by UCB1
                k = c * _sqrt(_log(node.visits))
                best, best_u = None, -math.inf
                for ch in node.children:
                    p = ch.proven
                    if p is None:
                        u = ch.q + k * ch.isq
                    elif p < 0 and solver:
                        continue
                    else:
                        u = p + k * ch.isq
                    if u > best_u:
                        best, best_u = ch, u
                if best is None:  # only proven losses left (solver off cannot get here)
                    best = node.children[0]
                node = best
                game.play(node.move)
                played += 1
        finally:
            for _ in range(played):
                game.undo()
        # back up
        depth = played
        n: Node | None = node
        while n is not None:
            v = n.visits + 1
            n.visits = v
            if n.mover is not None:
                t = n.total + (z if n.mover == 0 else -z)
                n.total = t
                n.q = t / v
                n.isq = 1.0 / _sqrt(v)
            if solver and n.proven is not None and n.parent is not None:
                _try_prove(n.parent)
            n = n.parent
        return depth

    # --- move choice and tree reuse -------------------------------------------------------
    def _best_child(self, root: Node) -> Node:
        children = root.children
        if root.proven is not None:
            target = _value_for_mover_of_children(root)
            proven = [c for c in children if c.proven == target]
            if proven:
                # the quickest looking win: an immediate one, else the most searched
                return max(proven, key=lambda c: (not c.children, c.visits))
        candidates = [c for c in children if c.proven != -1] or children
        return max(candidates, key=lambda c: (c.visits, c.mean()))

    def _find_root(self, game: Any) -> Node:
        old = self._root
        if old is None or not self.reuse or not hasattr(game, "hash_key"):
            return Node(None, None, None)
        target = game.hash_key()
        replay = self._root_game
        found = _find(old, replay, target, self.reuse_depth)
        if found is None:
            return Node(None, None, None)
        found.parent = None
        found.mover = None
        return found


def _value_for_mover_of_children(node: Node) -> int:
    """The proven value of ``node`` for the player to move there (its children's mover)."""
    ch = node.children[0]
    mover_child = ch.mover
    value = node.proven if node.mover is None or node.mover == mover_child else -node.proven
    return value  # type: ignore[return-value]


def _try_prove(node: Node) -> None:
    """Prove ``node`` from its children if they allow it (see the module documentation)."""
    if node.proven is not None or not node.children:
        return
    children = node.children
    q = children[0].mover  # the player to move at ``node``
    value = None
    for ch in children:
        if ch.proven == 1:
            value = 1
            break
    if value is None:
        if node.untried:
            return
        best = -2
        for ch in children:
            p = ch.proven
            if p is None:
                return
            if p > best:
                best = p
        value = best
    if node.mover is None:  # the root: store the value for the player to move
        node.proven = value
    else:
        node.proven = value if node.mover == q else -value


def _find(node: Node, game: Any, target: int, depth: int) -> Node | None:
    """The node under ``node`` (at most ``depth`` plies down) whose position has key ``target``."""
    if game.hash_key() == target and node.parent is not None:
        return node
    if depth == 0 or game.is_terminal():
        return None
    for ch in node.children:
        game.play(ch.move)
        try:
            found = _find(ch, game, target, depth - 1)
        finally:
            game.undo()
        if found is not None:
            return found
    return None


def mcts(
    game: Game,
    iterations: int | None = None,
    *,
    movetime: float | None = None,
    stop: Any = None,
    exploration: float = 1.4,
    solver: bool = True,
    seed: int | None = None,
) -> SearchResult:
    """One MCTS search from a fresh tree (see :class:`MCTS`; 1000 iterations by default)."""
    searcher = MCTS(
        iterations, movetime, exploration=exploration, solver=solver, reuse=False, seed=seed
    )
    return searcher.search(game, stop=stop)
