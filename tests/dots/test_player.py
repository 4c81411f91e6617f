"""dots-pro: the endgame scoring its playouts use, its MCTS over safe lines, and games."""

import random

import numpy as np
from hypothesis import HealthCheck, given, settings

from plies.dots.agents import ChainsAgent
from plies.dots.chains import safe_lines
from plies.dots.player import MctsTree, ProAgent, endgame_value, safe_mcts
from plies.dots.rules import Board
from plies.dots.solver import Solver
from plies.search.agents import make_agent

from .test_properties import positions

_SOLVERS: dict[tuple[int, int], Solver] = {}


def _solver(board: Board) -> Solver:
    size = (board.rows, board.cols)
    if size not in _SOLVERS:
        _SOLVERS[size] = Solver(*size, hash_bits=18)
    return _SOLVERS[size]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(sizes=[(2, 3), (3, 3), (2, 4), (3, 4)], max_free=31))
def test_endgame_value_is_exact_when_only_chains_and_loops_are_left(board):
    rng = random.Random(board.mask)
    while not board.is_over and safe_lines(board):
        board.play(rng.choice(safe_lines(board)))
    if board.is_over or (board.counts == 3).any():
        return
    geo = board.geo
    v = endgame_value(board.drawn, board.counts.astype(np.int8), geo.line_boxes, geo.box_lines)
    left = geo.n_boxes - sum(board.scores)
    assert abs(v) <= left and (v - left) % 2 == 0
    if set(board.counts.tolist()) <= {2, 4}:  # a simple loony endgame: exact
        assert v == _solver(board).solve(board, best_moves=False).rest_value


def test_mcts_over_safe_lines_finds_optimal_ones():
    """3x3 positions (random safe lines drawn) where some safe lines are optimal and some are
    not: 3000 iterations pick an optimal one far more often than a random safe line would."""
    rng = random.Random(3)
    tree = MctsTree(1 << 16)
    hits = expected = tried = 0
    while tried < 40:
        board = Board(3, 3)
        for _ in range(rng.randint(6, 12)):
            if not safe_lines(board):
                break
            board.play(rng.choice(safe_lines(board)))
        safe = safe_lines(board)
        if len(safe) < 2 or (board.counts == 3).any():
            continue
        best = {board.geo.parse(x) for x in _solver(board).solve(board).best_moves}
        good = [x in best for x in safe]
        if all(good) or not any(good):
            continue
        move, stats = safe_mcts(board, iterations=3000, seed=tried, tree=tree)
        assert move in safe and set(stats) == set(safe)
        hits += move in best
        expected += sum(good) / len(good)
        tried += 1
    assert hits >= 20 and hits >= expected + 6, (hits, expected)


def test_pro_beats_the_chain_rules_on_4x4():
    score = 0.0
    for g in range(4):
        pro, rules = ProAgent(movetime=0.05, seed=g), ChainsAgent(seed=g)
        players = [pro, rules] if g % 2 == 0 else [rules, pro]
        board = Board(4, 4)
        while not board.is_over:
            board.play(players[board.to_move].select_move(board))
        mine = board.margin if g % 2 == 0 else -board.margin
        score += 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
    assert score >= 3


def test_pro_plays_boards_too_big_for_the_solver():
    """6x6 has 84 lines (the solver takes at most 63): MCTS and the chain rules only."""
    agent = make_agent("dots-pro?movetime=0.01&seed=1")
    board = Board(6, 6)
    rng = random.Random(1)
    while len(safe_lines(board)) > 4:
        board.play(rng.choice(safe_lines(board)))
    kinds = set()
    for _ in range(12):
        line = agent.select_move(board)
        assert line in board.moves()
        kinds.add(agent.last_info["kind"])
        board.play(line)
    assert "mcts" in kinds and "rules" in kinds and "exact" not in kinds
