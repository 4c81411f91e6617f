"""Dots and Boxes agents, registered with plies.search's agent registry on import.

* ``dots-random``, ``dots-minimax``, ``dots-alphabeta``, ``dots-negamax``, ``dots-montecarlo``,
  ``dots-mcts``: the generic library's algorithms on :class:`~plies.dots.rules.Board` (which
  speaks the Game protocol; the depth-limited ones use :func:`plies.dots.chains.evaluate`:
  margin, capturable boxes, the long chain rule, loony-endgame values). Game options:
  ``size=3x3`` (or ``rows``/``cols``).
* ``dots-chains``: a chain-aware rule player: captures what it can, keeps control with the
  all-but-two double-deal when that pays, plays safe lines while there are any (preferring
  those that keep the long chain rule on its side) and otherwise hands over the fewest boxes,
  hard-heartedly.
* ``dots-solver`` (alias ``dots-perfect``): the compiled exact solver; plays an optimal line
  (the first of the optimal moves, or a random one of them with ``seed``). With ``movetime``
  a search that runs out of time falls back to ``dots-chains``'s move (no longer perfect).
"""

from __future__ import annotations

import random

from plies.dots.chains import components, loony_value, parity_favours, safe_lines
from plies.dots.rules import Board, parse_size
from plies.search.agents import FLOAT, INT, register_agent, register_game


def _size(text: str) -> tuple[int, int]:
    try:
        return parse_size(text)
    except Exception as exc:  # InvalidOption -> ValueError for the registry's message
        raise ValueError(str(exc)) from None


def make_board(size: tuple[int, int] = (3, 3), rows: int | None = None, cols: int | None = None):
    return Board(rows or size[0], cols or size[1])


def _greedy_captures(board: Board) -> int:
    """How many boxes the player to move could take now by capturing while it can (the board
    is restored)."""
    taken = 0
    made = 0
    while True:
        capt = [
            line
            for line in board.moves()
            if any(b >= 0 and board.counts[b] == 3 for b in board.geo.line_boxes[line])
        ]
        if not capt:
            break
        taken += board.play(capt[0])
        made += 1
    for _ in range(made):
        board.undo()
    return taken


class ChainsAgent:
    """The chain-aware rule player described in the module doc."""

    def __init__(self, name: str = "dots-chains", seed: int | None = None) -> None:
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)

    def reset(self) -> None:
        self.rng = random.Random(self.seed)

    new_game = reset

    def select_move(self, board: Board) -> int:
        geo, counts = board.geo, board.counts
        moves = board.moves()
        captures = [
            line for line in moves if any(b >= 0 and counts[b] == 3 for b in geo.line_boxes[line])
        ]
        if captures:
            return self._capture(board, captures)
        safe = safe_lines(board)
        if safe:
            me = board.to_move
            good = []
            for line in safe:
                board.play(line)
                if not safe_lines(board) and parity_favours(board, me):
                    good.append(line)
                board.undo()
            return self.rng.choice(good or safe)
        # hand over as few boxes as possible; among equals prefer lines after which the
        # opponent cannot double-deal (the hard-hearted handout)
        best, best_key = moves[0], None
        for line in moves:
            board.play(line)
            given = _greedy_captures(board)
            dd = self._double_deal_available(board)
            board.undo()
            key = (given, dd)
            if best_key is None or key < best_key:
                best, best_key = line, key
        return best

    @staticmethod
    def _double_deal_available(board: Board) -> bool:
        geo, counts = board.geo, board.counts
        for b in range(geo.n_boxes):
            if counts[b] != 3:
                continue
            line = next(x for x in geo.box_lines[b] if not board.drawn[x])
            o = [x for x in geo.line_boxes[line] if x != b][0]
            if o >= 0 and counts[o] == 2:
                return True
        return False

    def _capture(self, board: Board, captures: list[int]) -> int:
        """Take a box, unless this is the last two boxes of the last capturable chain and
        keeping control (declining them) is worth more."""
        geo, counts = board.geo, board.counts
        if len(captures) > 2:
            return captures[0]
        # the chain end b (three sides) - o (two sides) - edge or box with < 2 sides?
        for b in range(geo.n_boxes):
            if counts[b] != 3:
                continue
            line = next(int(x) for x in geo.box_lines[b] if not board.drawn[x])
            o = [int(x) for x in geo.line_boxes[line] if x != b][0]
            if o < 0 or counts[o] != 2:
                continue
            m = next(int(x) for x in geo.box_lines[o] if not board.drawn[x] and x != line)
            d = [int(x) for x in geo.line_boxes[m] if x != o][0]
            if d >= 0 and counts[d] >= 2:
                continue
            if (counts == 3).sum() != 1:
                break  # other boxes to take first
            # rest of the board once these two boxes are gone
            board.play(m)  # pretend: the double-deal, then look at what is left
            board.play(line)
            rest_safe = bool(safe_lines(board))
            comps = components(board)
            board.undo()
            board.undo()
            if rest_safe:
                break
            chains = [c.size for c in comps if c.kind == "chain"]
            loops = [c.size for c in comps if c.kind == "loop"]
            controlled = -loony_value(chains, loops)  # what the player who must not move gets
            if controlled > 2:
                return m  # double-deal: give two, keep control
            break
        return captures[0]


class SolverAgent:
    """Plays an optimal move found by the compiled solver (exact; feasible up to about 3x4)."""

    def __init__(
        self,
        name: str = "dots-solver",
        seed: int | None = None,
        hash_bits: int = 22,
        movetime: float | None = None,
    ) -> None:
        self.name = name
        self.seed = seed
        self.hash_bits = hash_bits
        self.movetime = movetime
        self.rng = random.Random(seed)
        self._solver = None
        self.last_result = None

    def reset(self) -> None:
        self.rng = random.Random(self.seed)

    new_game = reset

    def select_move(self, board: Board) -> int:
        from plies.dots.solver import Solver

        if self._solver is None or (self._solver.geo.rows, self._solver.geo.cols) != (
            board.rows,
            board.cols,
        ):
            self._solver = Solver(board.rows, board.cols, hash_bits=self.hash_bits)
        from plies.dots.solver import SolveAborted

        try:
            result = self._solver.solve(board, movetime=self.movetime)
        except SolveAborted:  # out of time: the chain-aware rules instead
            self.last_result = None
            return ChainsAgent(seed=self.seed).select_move(board)
        self.last_result = result
        choices = result.best_moves
        text = choices[0] if self.seed is None else self.rng.choice(choices)
        return board.geo.parse(text)


register_game(
    "dots",
    make_board,
    {"size": _size, "rows": INT, "cols": INT},
    agent_defaults={"negamax": {"movetime": 1.0}, "alphabeta": {"depth": 4}},
    algorithms=("random", "minimax", "alphabeta", "negamax", "montecarlo", "mcts"),
    description="Dots and Boxes (size=RxC boxes)",
)
register_agent(
    "dots-chains",
    lambda name, **o: ChainsAgent(name, **o),
    {"seed": INT},
    description="chain-aware rule player",
)
for _alias in ("dots-solver", "dots-perfect"):
    register_agent(
        _alias,
        lambda name, **o: SolverAgent(name, **o),
        {"seed": INT, "hash_bits": INT, "movetime": FLOAT},
        description="exact solver (perfect play)",
    )


def _pro(name: str, **options):
    from plies.dots.player import ProAgent

    return ProAgent(name, **options)


register_agent(
    "dots-pro",
    _pro,
    {"movetime": FLOAT, "seed": INT, "exact_lines": INT, "hash_bits": INT},
    description="safe-line MCTS scored by loony endgames, exact solver late (any size)",
)
