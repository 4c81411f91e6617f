"""VCF solver: the quintet Renju problems, replay-verified, and positions without a VCF."""

from __future__ import annotations

import numpy as np
import pytest

from plies.errors import InvalidOption
from plies.gomoku import Board, Move, rules
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import vcf as V

from .helpers import problem_stones, quintet_problems, reference_vcf, verify_vcf

VCF_PROBLEMS = [p for p in quintet_problems() if p["solver"] == "VCFDFS"]


def _solve(st, tb, depth=128, nodes=10_000_000):
    keys, dep = V.new_vcf_tt()
    seq = np.zeros(600, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    n = V.vcf(st, tb, depth, nodes, keys, dep, seq, np.zeros(1, dtype=np.int64), counter)
    return [int(p) for p in seq[:n]] if n > 0 else None


@pytest.mark.parametrize("problem", VCF_PROBLEMS, ids=[p["name"] for p in VCF_PROBLEMS])
def test_quintet_vcf_problems_are_solved_and_verified(problem: dict) -> None:
    black, white, side = problem_stones(problem)
    st, tb = ST.state_from_stones(15, 15, rules.RENJU, black, white, side)
    before = st.cells.copy()
    seq = _solve(st, tb)
    assert seq is not None, problem["name"]
    assert np.array_equal(st.cells, before), "the solver must restore the position"
    verify_vcf(st.cells, 15, 15, rules.RENJU, side, seq)


def test_the_145_ply_vcf_is_found_in_full() -> None:
    problem = next(p for p in VCF_PROBLEMS if p["name"] == "test_vcf_long")
    black, white, side = problem_stones(problem)
    st, tb = ST.state_from_stones(15, 15, rules.RENJU, black, white, side)
    seq = _solve(st, tb)
    assert seq is not None and len(seq) >= 140
    verify_vcf(st.cells, 15, 15, rules.RENJU, side, seq)


def test_depth_limit_is_respected() -> None:
    problem = next(p for p in VCF_PROBLEMS if p["name"] == "test_vcf_long")
    black, white, side = problem_stones(problem)
    st, tb = ST.state_from_stones(15, 15, rules.RENJU, black, white, side)
    assert _solve(st, tb, depth=10) is None


@pytest.mark.parametrize("rule", [rules.FREESTYLE, rules.STANDARD, rules.CARO])
def test_no_vcf_in_a_quiet_position(rule: int) -> None:
    black = [(7, 7), (8, 8)]
    white = [(7, 8), (9, 9)]
    st, tb = ST.state_from_stones(15, 15, rule, black, white, 1)
    assert _solve(st, tb) is None


def test_simple_vcf_in_freestyle_and_standard_differ_on_overline() -> None:
    # black: X X X . X on row 7 plus a stone that makes the completion an overline in standard
    #   columns 2..6: X X X . X, and column 7 black: filling column 5 makes six (2..7)
    black = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)]
    white = [(0, 0), (14, 0), (0, 14), (14, 14), (10, 10)]
    for rule, expect in ((rules.FREESTYLE, True), (rules.STANDARD, False)):
        st, tb = ST.state_from_stones(15, 15, rule, black, white, 1)
        seq = _solve(st, tb)
        assert (seq is not None) == expect, rule
        if seq:
            verify_vcf(st.cells, 15, 15, rule, 1, seq)


def test_defender_counter_four_is_respected() -> None:
    # quintet's "counter" problem: the defender's blocks make fours that must be answered
    problem = next(p for p in VCF_PROBLEMS if p["name"] == "test_vcf_counter")
    black, white, side = problem_stones(problem)
    st, tb = ST.state_from_stones(15, 15, rules.RENJU, black, white, side)
    seq = _solve(st, tb)
    assert seq is not None
    verify_vcf(st.cells, 15, 15, rules.RENJU, side, seq)


def test_vcf_for_the_side_not_to_move() -> None:
    # black's open three h8-i8-j8 with white to move: black's VCF exists only as a threat,
    # which attacker=1 finds; white itself has none
    from plies.gomoku import Board
    from plies.gomoku.engine import Engine

    board = Board.from_moves(["h8", "a1", "i8", "a3", "j8", "a5", "a7"], 15, "freestyle")
    assert board.to_move == 2
    engine = Engine("freestyle", 15, hash_mb=1)
    line = engine.vcf(board, attacker=1)
    assert line is not None and (line[0].x, line[0].y) in ((6, 7), (10, 7))  # g8 or k8
    assert engine.vcf(board) is None
    with pytest.raises(InvalidOption):
        engine.vcf(board, attacker=3)


@pytest.mark.parametrize("rule", [rules.FREESTYLE, rules.STANDARD, rules.RENJU, rules.CARO])
@pytest.mark.parametrize("seed", range(6))
def test_vcf_depth_limit_matches_a_plain_reference(rule: int, seed: int) -> None:
    """Random crowded 9x9 positions: a VCF within 1, 2, 3 fours exists exactly when the plain
    recursion finds one, and every sequence found replays as a VCF."""
    rng = np.random.default_rng(1000 * rule + seed)
    size = 9
    checked = wins = 0
    while checked < 8:
        cells_xy = rng.permutation(size * size)[: rng.integers(14, 30)]
        black = [(int(c % size), int(c // size)) for c in cells_xy[0::2]]
        white = [(int(c % size), int(c // size)) for c in cells_xy[1::2]]
        side = int(rng.integers(1, 3))
        try:
            st, tb = ST.state_from_stones(size, size, rule, black, white, side)
        except InvalidOption:
            continue
        cells = st.cells.copy()
        stride = rules.padded_stride(size)
        if any(
            cells[q] != rules.EMPTY and rules.winning_direction(cells, stride, q, c, rule) >= 0
            for c in (1, 2)
            for q in range(cells.shape[0])
            if cells[q] == c
        ):
            continue  # a finished game
        dfives = sorted(
            q
            for q in range(cells.shape[0])
            if cells[q] == rules.EMPTY and rules.makes_five(cells, stride, q, 3 - side, rule)
        )
        checked += 1
        for depth in (1, 2, 3):
            seq = _solve(st, tb, depth=depth)
            expect = reference_vcf(cells.copy(), stride, rule, side, depth, dfives)
            assert (seq is not None) == expect, (rule, black, white, side, depth)
            if seq is not None:
                wins += 1
                verify_vcf(st.cells, size, size, rule, side, seq)
    assert checked == 8
    assert wins > 0, "no position with a VCF: the check would be empty"


def test_the_block_of_a_double_four_is_one_black_may_play() -> None:
    # Renju 9x9, white to move: 4,6 makes two fives, at 1,3 (forbidden to black) and 6,8; the
    # line must block at 6,8 (it used to block at the forbidden 1,3, the first cell found)
    moves = "6,5 5,2 3,1 2,5 1,1 2,7 7,3 2,4 2,6 3,4 4,3 5,4 1,4 4,5 3,6 5,6 2,3 5,5 5,3 5,7"
    moves += " 5,8 3,5 1,5"
    board = Board(9, "renju")
    for xy in moves.split():
        board.play(Move(*map(int, xy.split(","))))
    st, tb = ST.state_from_board(board)
    line = _solve(st, tb)
    assert line is not None
    stride = rules.padded_stride(9)
    assert line[0] == rules.to_pos(4, 6, stride)
    assert rules.is_forbidden(st.cells, stride, int(rules.to_pos(1, 3, stride)))
    verify_vcf(st.cells, 9, 9, rules.RENJU, rules.WHITE, line)
