"""Example games implementing the plies.search Game protocol, registered for the agents.

* :class:`TicTacToe` (cells 0..8), :class:`ConnectFour` (bitboards, any size from 4x4),
  :class:`Nim` (moves are ``(heap, count)``).

Importing this package registers ``tictactoe``, ``connect4`` and ``nim`` with
:func:`plies.search.agents.register_game`, so ``make_agent("connect4-mcts")`` works.
"""

from plies.games.connect4 import ConnectFour
from plies.games.nim import Nim
from plies.games.tictactoe import TicTacToe
from plies.search.agents import INT, register_game


def _heaps(text: str) -> tuple[int, ...]:
    heaps = tuple(int(h) for h in text.replace(" ", ",").split(",") if h)
    if not heaps or any(h < 0 for h in heaps):
        raise ValueError("expected heap sizes such as 3,4,5")
    return heaps


register_game("tictactoe", TicTacToe, agent_defaults={"minimax": {"depth": 9}})
register_game(
    "connect4",
    lambda width=7, height=6: ConnectFour(width=width, height=height),
    {"width": INT, "height": INT},
    agent_defaults={"negamax": {"movetime": 1.0}, "solver": {"movetime": 10.0}},
)
register_game(
    "nim",
    lambda heaps=(3, 4, 5): Nim(heaps),
    {"heaps": _heaps},
    agent_defaults={"negamax": {"movetime": 1.0}},
)

__all__ = ["ConnectFour", "Nim", "TicTacToe"]
