"""Property tests against the simple oracle in tests/dots/oracle.py."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.dots.chains import components, loony_value, safe_lines
from plies.dots.rules import Board
from plies.dots.solver import Solver

from . import oracle

SIZES = [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (2, 3), (3, 2)]
_SOLVERS: dict[tuple[int, int], Solver] = {}


def solver(rows: int, cols: int) -> Solver:
    if (rows, cols) not in _SOLVERS:
        _SOLVERS[(rows, cols)] = Solver(rows, cols, hash_bits=16)
    return _SOLVERS[(rows, cols)]


@st.composite
def positions(draw, sizes=SIZES, min_free=1, max_free=13):
    rows, cols = draw(st.sampled_from(sizes))
    board = Board(rows, cols)
    n = board.geo.n_lines
    order = draw(st.permutations(range(n)))
    k = draw(st.integers(max(0, n - max_free), n - min_free))
    for line in order[:k]:
        board.play(int(line))
    return board


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(sizes=SIZES + [(3, 3)], min_free=0, max_free=24))
def test_rules_match_the_oracle_and_undo_restores(board):
    rows, cols = board.rows, board.cols
    moves = [board.geo.coords(line) for line, _, _ in board.history]
    drawn, player, scores = oracle.replay(rows, cols, moves)
    assert {board.geo.coords(i) for i in range(board.geo.n_lines) if board.drawn[i]} == drawn
    assert board.scores == scores
    assert board.is_over == (len(drawn) == board.geo.n_lines)
    if not board.is_over:
        assert board.to_move == player
    snapshot = (board.mask, board.counts.tolist(), board.owner.tolist(), board.to_move)
    for line in board.moves()[:5]:
        board.play(line)
        board.undo()
        assert (board.mask, board.counts.tolist(), board.owner.tolist(), board.to_move) == snapshot
    # undo everything: back to the empty board
    while board.history:
        board.undo()
    assert board.mask == 0 and board.scores == [0, 0] and not board.owner.any()
    assert not board.counts.any() and board.to_move == 0


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_solver_value_is_brute_force_minimax(board):
    drawn = {board.geo.coords(i) for i in range(board.geo.n_lines) if board.drawn[i]}
    expected = oracle.value(board.rows, board.cols, frozenset(drawn))
    result = solver(board.rows, board.cols).solve(board)
    assert result.rest_value == expected
    sign = 1 if board.to_move == 0 else -1
    assert result.value == board.margin + sign * expected
    # every listed best move keeps the value; every other move loses some
    best = set(result.best_moves)
    for line in board.moves():
        x = board.geo.coords(line)
        k = oracle.completed_by(board.rows, board.cols, frozenset(drawn), x)
        child = oracle.value(board.rows, board.cols, frozenset(drawn | {x}))
        v = k + child if k else -child
        assert (v == expected) == (board.geo.text(line) in best)


@settings(max_examples=60, deadline=None)
@given(
    positions(sizes=[(2, 2), (1, 3)]),
    st.sampled_from(["chains", "symmetry", "tt", "ordering", "loony", "equivalence", "corners"]),
)
def test_solver_features_do_not_change_values(board, feature):
    plain = Solver(board.rows, board.cols, hash_bits=12, **{feature: False}).solve(board)
    assert plain.rest_value == solver(board.rows, board.cols).solve(board).rest_value


@settings(max_examples=200, deadline=None)
@given(positions(sizes=[(2, 3), (3, 2), (3, 3)], max_free=24))
def test_loony_endgame_value_matches_the_solver(board):
    """Positions with no safe line and nothing to capture: chains and loops only."""
    rng = random.Random(board.mask)
    while not board.is_over and safe_lines(board):  # draw safe lines until none is left
        board.play(rng.choice(safe_lines(board)))
    if board.is_over or (board.counts == 3).any():
        return
    comps = components(board)
    chains = [c.size for c in comps if c.kind == "chain"]
    loops = [c.size for c in comps if c.kind == "loop"]
    if sum(chains) + sum(loops) != board.geo.n_boxes - sum(board.scores):
        return  # a box with fewer than two sides joins chains: not a simple loony endgame
    assert (
        loony_value(chains, loops)
        == solver(board.rows, board.cols).solve(board, best_moves=False).rest_value
    )


@settings(max_examples=50, deadline=None)
@given(positions(sizes=[(2, 2), (2, 3), (3, 3)], max_free=24), st.integers(0, 2**31))
def test_random_playout_ends_with_a_consistent_margin(board, seed):
    total = board.geo.n_boxes
    u0, u1 = board.random_playout(random.Random(seed))
    assert u0 == -u1 and abs(u0) <= total and (u0 - total) % 2 == 0
    assert not board.is_over or u0 == board.margin


_PLAIN: dict[tuple[int, int], Solver] = {}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(sizes=[(3, 3), (2, 4), (4, 2), (3, 4)], min_free=8, max_free=17))
def test_fast_solver_matches_the_plain_solver(board):
    """Every pruning (capture analysis, loony scoring, one opening per chain, corner edge lines,
    symmetry) on against a solver with all of them off (alpha-beta with a plain table, itself
    checked against the oracle above) on random positions of boards too big for the oracle."""
    size = (board.rows, board.cols)
    if size not in _PLAIN:
        off = dict(chains=False, symmetry=False, ordering=False, loony=False)
        _PLAIN[size] = Solver(*size, hash_bits=18, equivalence=False, corners=False, **off)
    fast = solver(*size).solve(board, best_moves=False).rest_value
    assert fast == _PLAIN[size].solve(board, best_moves=False).rest_value
