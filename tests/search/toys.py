"""Small games and a brute-force oracle for the search tests.

* :class:`TreeGame`: an explicit game tree (drawn by hypothesis): each inner node names the
  player to move, so the same player often moves several times in a row; leaves are
  utilities for player 0; an optional pseudo-random heuristic for depth-limited tests.
* :class:`BoxStrip`: a tiny Dots-and-Boxes-like game with extra turns and margins.
* :func:`reference`: the slow, obviously correct minimax, written independently of
  plies.search (it uses ``copy()`` only, never ``undo``).
"""

from __future__ import annotations

from hypothesis import strategies as st

WIN = 1_000_000  # the scores convention of plies.search.scores, restated


def reference(game, depth: int | None = None, ply: int = 0) -> float:
    """The score of a live position for its player to move, by plain recursion on copies."""
    if depth is not None and depth <= 0:
        return game.evaluate() if hasattr(game, "evaluate") else 0
    me = game.current_player()
    best = None
    for move in game.legal_moves():
        child = game.copy()
        child.play(move)
        if child.is_terminal():
            u = child.returns()[me]
            v = u * WIN - (ply + 1) if u > 0 else u * WIN + (ply + 1) if u < 0 else 0
        else:
            v = reference(child, None if depth is None else depth - 1, ply + 1)
            if child.current_player() != me:
                v = -v
        if best is None or v > best:
            best = v
    return best


class TreeGame:
    """A game over an explicit tree: inner node ``(player, [children])``, leaf ``utility``."""

    def __init__(self, tree, heuristic: bool = False) -> None:
        self.tree = tree
        self.path: list[int] = []
        self.nodes = [tree]
        self.heuristic = heuristic

    def current_player(self) -> int:
        return self.nodes[-1][0]

    def legal_moves(self) -> list[int]:
        return list(range(len(self.nodes[-1][1])))

    def play(self, move: int) -> None:
        self.nodes.append(self.nodes[-1][1][move])
        self.path.append(move)

    def undo(self) -> None:
        self.nodes.pop()
        self.path.pop()

    def is_terminal(self) -> bool:
        return isinstance(self.nodes[-1], int)

    def returns(self) -> tuple[int, int]:
        u = self.nodes[-1]
        return (u, -u)

    def hash_key(self) -> int:
        return hash(tuple(self.path))

    def evaluate(self) -> int:
        if not self.heuristic:
            return 0
        return hash(tuple(self.path)) % 19 - 9

    def copy(self) -> TreeGame:
        other = TreeGame(self.tree, self.heuristic)
        other.path = list(self.path)
        other.nodes = list(self.nodes)
        return other


def trees(max_leaves: int = 40):
    """Hypothesis strategy: game trees whose root is an inner node."""
    leaf = st.integers(-2, 2)
    inner = st.recursive(
        leaf,
        lambda kids: st.tuples(st.integers(0, 1), st.lists(kids, min_size=1, max_size=4)),
        max_leaves=max_leaves,
    )
    return st.tuples(st.integers(0, 1), st.lists(inner, min_size=1, max_size=4))


class BoxStrip:
    """A row of ``boxes`` boxes; box i has walls i and i+1 (shared) and lid i.

    Edges are numbered: walls 0..boxes, then lids. Drawing the last edge of one or two boxes
    scores them and the same player moves again (as in Dots and Boxes). Utility: boxes won
    minus boxes lost.
    """

    def __init__(self, boxes: int = 3, drawn: tuple[int, ...] = ()) -> None:
        self.boxes = boxes
        self.edges = [False] * (2 * boxes + 1)
        self.score = [0, 0]
        self.player = 0
        self.history: list[tuple[int, int, int]] = []  # edge, player before, boxes scored
        for e in drawn:
            self.play(e)

    def _box_edges(self, i: int) -> tuple[int, int, int]:
        return (i, i + 1, self.boxes + 1 + i)

    def _boxes_of(self, edge: int) -> list[int]:
        if edge <= self.boxes:
            return [i for i in (edge - 1, edge) if 0 <= i < self.boxes]
        return [edge - self.boxes - 1]

    def current_player(self) -> int:
        return self.player

    def legal_moves(self) -> list[int]:
        return [e for e, d in enumerate(self.edges) if not d]

    def play(self, edge: int) -> None:
        assert not self.edges[edge]
        self.edges[edge] = True
        done = sum(all(self.edges[e] for e in self._box_edges(b)) for b in self._boxes_of(edge))
        self.history.append((edge, self.player, done))
        self.score[self.player] += done
        if not done:
            self.player ^= 1

    def undo(self) -> None:
        edge, player, done = self.history.pop()
        self.edges[edge] = False
        self.player = player
        self.score[player] -= done

    def is_terminal(self) -> bool:
        return all(self.edges)

    def returns(self) -> tuple[int, int]:
        d = self.score[0] - self.score[1]
        return (d, -d)

    def hash_key(self) -> int:
        key = self.player
        for d in self.edges:
            key = key * 2 + d
        return key * 64 + self.score[0] - self.score[1] + 32

    def copy(self) -> BoxStrip:
        other = BoxStrip(self.boxes)
        other.edges = list(self.edges)
        other.score = list(self.score)
        other.player = self.player
        other.history = list(self.history)
        return other
