"""Known answers: solved games, extra turns, limits, results and the copy-based fallback."""

from __future__ import annotations

import threading

import pytest

from plies.errors import GameOver, InvalidOption
from plies.games import ConnectFour, Nim, TicTacToe
from plies.search import (
    TranspositionTable,
    UndoByCopy,
    alphabeta,
    mcts,
    minimax,
    monte_carlo,
    negamax,
    random_move,
    solve,
    with_undo,
)
from plies.search.scores import WIN_SCORE

from .toys import BoxStrip

EXACT = (minimax, alphabeta, negamax, solve)


@pytest.mark.parametrize("search", EXACT)
def test_tictactoe_is_a_draw(search):
    result = search(TicTacToe())
    assert result.proven and result.value == 0 and result.score == 0
    assert len(result.pv) == 9


@pytest.mark.parametrize("search", EXACT)
def test_tictactoe_win_in_one_is_found_and_preferred(search):
    game = TicTacToe("0142")  # X on 0 and 4, O on 1 and 2: X wins at once on 8
    result = search(game)
    assert result.value == 1
    assert result.score == WIN_SCORE - 1  # the immediate win, not a slower one
    assert result.move == 8


def test_connect_four_open_three():
    # 1-based columns: X and O alternate in columns 4 and 5; X to move makes an open three
    # on the bottom row (column 3 or 6) and wins on its next move
    result = solve(ConnectFour("4455"))
    assert result.value == 1 and result.score == WIN_SCORE - 3
    assert result.move in (2, 5) and len(result.pv) == 3
    # one more X disc: O to move cannot stop the open three
    result = solve(ConnectFour("44556"))
    assert result.value == -1 and result.score == -(WIN_SCORE - 2)


def test_nim_known_positions():
    assert solve(Nim([1, 2, 3])).value == -1  # nim-sum 0: the mover loses
    result = solve(Nim([3, 4, 5]))
    assert result.value == 1
    assert result.move == (0, 2)  # leaves 1, 4, 5: nim-sum 0


def test_box_strip_extra_turns():
    # walls 0..3 are edges 0..3, lids 4..6. Drawn: walls 0, 1, 2, lids 1, 2 (player 1 took
    # box 1 and moved again). Player 0 to move takes box 0 (lid 0) and box 2 (wall 3), in
    # either order, moving twice in a row: 2 boxes to 1.
    game = BoxStrip(3, (0, 1, 2, 5, 6))
    assert game.current_player() == 0 and game.score == [0, 1]
    for search in EXACT:
        result = search(game)
        assert result.proven and result.value == 1
        assert result.score == WIN_SCORE - 2
        assert sorted(result.pv) == [3, 4]


def test_searches_leave_the_game_unchanged_and_raise_on_a_finished_game():
    game = ConnectFour("4455")
    before = (list(game.bb), list(game.heights), list(game.history))
    for search in (minimax, alphabeta, negamax):
        search(game, 3)
    for search in (solve, mcts, monte_carlo):
        search(game)
    assert (game.bb, game.heights, game.history) == before
    over = TicTacToe("01438")  # X: 0 4 8 diagonal
    assert over.is_terminal()
    with pytest.raises(GameOver):
        negamax(over)


def test_iterative_deepening_respects_depth_nodes_time_and_stop():
    game = ConnectFour()
    assert negamax(game, 4).depth == 4
    limited = negamax(game, nodes=3000)
    assert limited.nodes <= 3000 and not limited.proven and limited.move in game.legal_moves()
    timed = negamax(game, movetime=0.05)
    assert timed.time < 1.0 and timed.move in game.legal_moves()
    stop = threading.Event()
    stop.set()
    stopped = negamax(game, stop=stop)
    assert stopped.move in game.legal_moves() and stopped.nodes < 300


def test_node_limited_search_is_deterministic():
    game = ConnectFour("4453")
    a, b = negamax(game, nodes=5000), negamax(game, nodes=5000)
    assert (a.move, a.score, a.nodes, a.pv) == (b.move, b.score, b.nodes, b.pv)


def test_a_shared_table_is_reused_between_searches():
    tt = TranspositionTable(16)
    game = ConnectFour("444")
    first = negamax(game, 8, tt=tt)
    second = negamax(game, 8, tt=tt)
    assert second.score == first.score and second.nodes < first.nodes


def test_undo_by_copy_fallback():
    class NoUndo:
        """Tic-tac-toe without undo, through the copy fallback."""

        def __init__(self, inner=None):
            self.inner = inner or TicTacToe()

        def current_player(self):
            return self.inner.current_player()

        def legal_moves(self):
            return self.inner.legal_moves()

        def play(self, move):
            self.inner.play(move)

        def is_terminal(self):
            return self.inner.is_terminal()

        def returns(self):
            return self.inner.returns()

        def copy(self):
            return NoUndo(self.inner.copy())

    game = NoUndo()
    wrapped = with_undo(game)
    assert isinstance(wrapped, UndoByCopy)
    assert with_undo(TicTacToe()) is not None and not isinstance(with_undo(TicTacToe()), UndoByCopy)
    assert solve(game).value == 0
    assert alphabeta(game).value == 0
    assert game.inner.history == []
    assert mcts(game, 300, seed=1).move in range(9)


def test_random_move_is_legal_and_limits_are_validated():
    game = ConnectFour("1111")
    assert all(random_move(game) in game.legal_moves() for _ in range(50))
    with pytest.raises(InvalidOption):
        negamax(game, nodes=-5)
    with pytest.raises(InvalidOption):
        TranspositionTable(0)
