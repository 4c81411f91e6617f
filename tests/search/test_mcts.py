"""MCTS and Monte Carlo: tactics, the solver, extra turns and tree reuse."""

from __future__ import annotations

import random

import pytest

from plies.games import ConnectFour, Nim, TicTacToe
from plies.search import MCTS, mcts, monte_carlo, random_playout

from .toys import BoxStrip


def test_won_in_one():
    game = ConnectFour("121212")  # X has three in column 1, X to move wins there
    for seed in range(3):
        result = mcts(game, 200, seed=seed)
        assert result.move == 0
        assert result.proven and result.value == 1
    assert monte_carlo(game, 50, seed=0).move == 0


@pytest.mark.parametrize("solver", [True, False])
def test_won_in_two_and_forced_defence(solver):
    # X to move makes an open three on the bottom row and wins next move
    result = mcts(ConnectFour("4455"), 3000, solver=solver, seed=1)
    assert result.move in (2, 5)
    # O to move must block X's three in column 1 (0-based 0)
    result = mcts(ConnectFour("12121"), 2000, solver=solver, seed=1)
    assert result.move == 0


def test_solver_proves_small_games():
    result = mcts(Nim([1, 2, 3]), 5000, seed=0)  # nim-sum 0: the mover loses
    assert result.proven and result.value == -1
    result = mcts(Nim([2, 3]), 5000, seed=0)
    assert result.proven and result.value == 1 and result.move == (1, 1)
    result = mcts(TicTacToe("041"), 5000, seed=0)  # X on 0 and 1: O must block at 2
    assert result.move == 2


def test_extra_turns_are_credited_to_the_right_player():
    # player 0 to move takes two boxes in a row (see test_algorithms): a proven win
    result = mcts(BoxStrip(3, (0, 1, 2, 5, 6)), 500, seed=0)
    assert result.proven and result.value == 1
    # from the empty strip, the solver agrees with the exhaustive value's sign
    from plies.search import solve

    exact = solve(BoxStrip(3)).value
    result = mcts(BoxStrip(3), 20000, seed=0)
    assert result.proven and result.value == (exact > 0) - (exact < 0)


def test_tree_reuse_keeps_statistics():
    game = ConnectFour()
    searcher = MCTS(iterations=500, seed=3)
    first = searcher.search(game)
    game.play(first.move)
    game.play(3)  # the opponent's reply
    second = searcher.search(game)
    assert second.info["reused_visits"] > 0
    fresh = MCTS(iterations=500, seed=3, reuse=False)
    assert fresh.search(game).info["reused_visits"] == 0
    searcher.reset()
    assert searcher.search(game).info["reused_visits"] == 0


def test_fast_playout_hook_plays_the_same_games_as_the_generic_loop():
    class Plain:
        """Connect Four without its random_playout hook."""

        def __init__(self, inner):
            self.inner = inner

        def __getattr__(self, name):
            if name == "random_playout":
                raise AttributeError(name)
            return getattr(self.inner, name)

    rng = random.Random(7)
    for _ in range(200):
        game = ConnectFour()
        for _ in range(rng.randrange(20)):
            game.play(rng.choice(game.legal_moves()))
            if game.is_terminal():
                game.undo()
                break
        seed = rng.randrange(1 << 30)
        before = game.moves_text()
        fast = game.random_playout(random.Random(seed))
        slow = random_playout(Plain(game), random.Random(seed))
        assert tuple(fast) == tuple(slow)
        assert game.moves_text() == before


def test_time_and_iteration_limits():
    result = mcts(ConnectFour(), movetime=0.1, seed=0)
    assert result.nodes > 0 and result.time < 1.0
    assert mcts(ConnectFour(), 123, seed=0).nodes == 123
