"""Game-agnostic search: the Game protocol and the classic algorithms.

>>> from plies.games import TicTacToe
>>> from plies.search import solve
>>> solve(TicTacToe()).value        # tic-tac-toe is a draw
0

See docs/search.md for the protocol, a tutorial and the benchmarks.
"""

from plies.search.alphabeta import alphabeta
from plies.search.game import (
    EvaluableGame,
    Game,
    HashableGame,
    OrderedGame,
    PlayoutGame,
    UndoByCopy,
    random_playout,
    with_undo,
)
from plies.search.limits import Limits
from plies.search.mcts import MCTS, mcts
from plies.search.minimax import minimax
from plies.search.montecarlo import monte_carlo, random_move
from plies.search.negamax import negamax, solve
from plies.search.result import SearchResult
from plies.search.tt import TranspositionTable
from plies.search.zobrist import ZobristTable

__all__ = [
    "MCTS",
    "EvaluableGame",
    "Game",
    "HashableGame",
    "Limits",
    "OrderedGame",
    "PlayoutGame",
    "SearchResult",
    "TranspositionTable",
    "UndoByCopy",
    "ZobristTable",
    "alphabeta",
    "mcts",
    "minimax",
    "monte_carlo",
    "negamax",
    "random_move",
    "random_playout",
    "solve",
    "with_undo",
]
