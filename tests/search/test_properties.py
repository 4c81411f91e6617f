"""Property tests: every search against the brute-force oracle on random games."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.games import ConnectFour, Nim, TicTacToe
from plies.search import alphabeta, minimax, negamax, solve

from .toys import BoxStrip, TreeGame, reference, trees

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_position(game, rng: random.Random, plies: int):
    """Play up to ``plies`` random moves, stopping one move before the game would end."""
    for _ in range(plies):
        moves = game.legal_moves()
        move = rng.choice(moves)
        game.play(move)
        if game.is_terminal():
            game.undo()
            break
    return game


def check_best_move(game, result, depth=None) -> None:
    """The returned move really achieves the returned score."""
    me = game.current_player()
    child = game.copy()
    child.play(result.move)
    if child.is_terminal():
        u = child.returns()[me]
        v = u * 1_000_000 - 1 if u > 0 else u * 1_000_000 + 1 if u < 0 else 0
    else:
        v = reference(child, None if depth is None else depth - 1, 1)
        if child.current_player() != me:
            v = -v
    assert v == result.score


@SETTINGS
@given(trees(), st.integers(1, 6))
def test_depth_limited_searches_equal_minimax_on_trees(tree, depth):
    game = TreeGame(tree, heuristic=True)
    expected = reference(game, depth)
    for search in (minimax, alphabeta, negamax):
        result = search(game, depth)
        assert result.score == expected, search.__name__
        check_best_move(game, result, depth)
    assert negamax(game, depth, pvs=False).score == expected
    assert negamax(game, depth, iterative=False).score == expected
    assert game.path == []  # left as found


@SETTINGS
@given(trees())
def test_full_searches_and_solver_equal_minimax_on_trees(tree):
    game = TreeGame(tree)
    expected = reference(game)
    for search in (minimax, alphabeta, negamax, solve):
        result = search(game)
        assert result.score == expected, search.__name__
        assert result.proven
        check_best_move(game, result)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 7))
def test_tictactoe_all_searches_equal_minimax(seed, plies):
    game = random_position(TicTacToe(), random.Random(seed), plies)
    expected = reference(game)
    for search in (alphabeta, negamax, solve):
        assert search(game).score == expected
    for depth in (1, 2, 3):
        assert negamax(game, depth).score == reference(game, depth)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(9, 12))
def test_small_connect_four_solver_equals_brute_force(seed, plies):
    game = random_position(ConnectFour(width=4, height=4), random.Random(seed), plies)
    result = solve(game)
    assert result.score == reference(game)
    assert result.proven
    check_best_move(game, result)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 20), st.integers(1, 3))
def test_connect_four_depth_limited_negamax_with_table_equals_minimax(seed, plies, depth):
    # in Connect Four a transposed position is always at the same ply, so the table (filled
    # by iterative deepening) must give exactly the fixed-depth minimax value
    game = random_position(ConnectFour(), random.Random(seed), plies)
    expected = reference(game, depth)
    assert negamax(game, depth).score == expected
    assert alphabeta(game, depth).score == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4).filter(any))
def test_nim_values_follow_the_nim_sum(heaps):
    nim_sum = 0
    for h in heaps:
        nim_sum ^= h
    game = Nim(heaps)
    result = solve(game)
    assert result.value == (1 if nim_sum else -1)
    if sum(heaps) <= 6:  # small enough for the brute force
        assert result.score == reference(game)
    if nim_sum:  # the chosen move leaves a zero nim-sum
        heap, count = result.move
        after = list(heaps)
        after[heap] -= count
        total = 0
        for h in after:
            total ^= h
        assert total == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 3), st.data())
def test_extra_turn_box_game_equals_brute_force(boxes, data):
    edges = list(range(2 * boxes + 1))
    drawn = data.draw(st.permutations(edges))[: data.draw(st.integers(0, len(edges) - 1))]
    game = BoxStrip(boxes, tuple(drawn))
    expected = reference(game)
    for search in (minimax, alphabeta, negamax, solve):
        result = search(game)
        assert result.score == expected, search.__name__
        check_best_move(game, result)
