"""VCT solver (df-pn): the quintet Renju problems, replay-verified with the rules kernels only;
a position without a VCT; a Renju win through a block forbidden to black; random small
positions (any line returned must replay as a win); the lazy defender nodes (K_DEFER) give the
verdicts of full ones; two fresh processes on numba's cache."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from fresh_process import run_twice
from plies.gomoku import Board, Move, rules
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import vct as VT
from plies.gomoku.engine.api import Engine

from .helpers import five_points, problem_stones, quintet_problems

# the ten quintet VCT problems, all proved since session 8 (docs/engine.md has the timings)
VCT_PROBLEMS = [p for p in quintet_problems() if p["solver"] != "VCFDFS"]
assert len(VCT_PROBLEMS) == 10


def _local_fives(cells, stride: int, around: int, color: int, rule: int) -> int:
    """Empty cells on the four lines within four steps of ``around`` where ``color`` makes a
    winning line."""
    n = 0
    for k in range(4):
        d = int(rules.direction(k, stride))
        for j in range(-4, 5):
            q = around + j * d
            if j and cells[q] == rules.EMPTY and rules.makes_five(cells, stride, q, color, rule):
                n += 1
    return n


def _has_open_three(cells, stride: int, pos: int, color: int, rule: int) -> bool:
    """Whether ``color`` has, on a line through ``pos``, a cell that makes a four with two
    winning points (an open four)."""
    for k in range(4):
        d = int(rules.direction(k, stride))
        for j in range(-4, 5):
            q = pos + j * d
            if j == 0 or cells[q] != rules.EMPTY:
                continue
            if (
                rule == rules.RENJU
                and color == rules.BLACK
                and rules.is_forbidden(cells, stride, q)
            ):
                continue
            cells[q] = color
            open_four = _local_fives(cells, stride, q, color, rule) >= 2
            cells[q] = rules.EMPTY
            if open_four:
                return True
    return False


def _has_four_move(cells, width: int, height: int, color: int, rule: int) -> bool:
    stride = rules.padded_stride(width)
    for y in range(height):
        for x in range(width):
            q = int(rules.to_pos(x, y, stride))
            if cells[q] != rules.EMPTY:
                continue
            cells[q] = color
            four = _local_fives(cells, stride, q, color, rule) > 0
            cells[q] = rules.EMPTY
            if four:
                return True
    return False


def verify_vct(cells, width: int, height: int, rule: int, attacker: int, line: list[int]) -> None:
    """Replay a VCT line (padded cells) with the rules kernels and assert it is a win: every
    move legal; every attacker move answers the defender's four and makes a four, an open
    three, or at least leaves a four to play (a VCF threat); the line ends with the attacker's
    five, or with a four whose every block is forbidden to the (black) defender."""
    cells = cells.copy()
    stride = rules.padded_stride(width)
    defender = 3 - attacker
    assert line, "empty line"
    for i, pos in enumerate(line):
        color = attacker if i % 2 == 0 else defender
        assert cells[pos] == rules.EMPTY, f"move {i} on an occupied cell"
        if rule == rules.RENJU and color == rules.BLACK:
            assert not rules.is_forbidden(cells, stride, pos), f"move {i} is forbidden"
        threats = five_points(cells, stride, width, height, defender, rule)
        cells[pos] = color
        if rules.winning_direction(cells, stride, pos, color, rule) >= 0:
            assert color == attacker, f"the defender makes five at move {i}"
            assert i == len(line) - 1, "the five must end the line"
            return
        if color == defender:
            continue
        # (Caro: a block may also cap the defender's other five at both ends)
        assert not threats or not five_points(cells, stride, width, height, defender, rule), (
            f"move {i} ignores the defender's four"
        )
        fives = five_points(cells, stride, width, height, attacker, rule)
        if i == len(line) - 1:
            blockable = [
                q
                for q in fives
                if not (
                    rule == rules.RENJU
                    and defender == rules.BLACK
                    and rules.is_forbidden(cells, stride, q)
                )
            ]
            assert fives and (len(fives) >= 2 or not blockable), "the line ends without a win"
            return
        assert (
            fives
            or _has_open_three(cells, stride, pos, attacker, rule)
            or _has_four_move(cells, width, height, attacker, rule)
        ), f"move {i} threatens nothing"
    raise AssertionError("the line does not end with a win")


def problem_board(problem: dict) -> Board:
    black, white, side = problem_stones(problem)
    board = Board(problem["size"], "renju", forbidden="loses")
    for i in range(max(len(black), len(white))):
        for stones in (black, white):
            if i < len(stones):
                board.play(Move(*stones[i]))
    assert board.to_move == side and not board.is_over
    return board


@pytest.fixture(scope="module")
def renju_engine() -> Engine:
    return Engine("renju", 15, hash_mb=1)


def _pos(m: Move, width: int) -> int:
    return int(rules.to_pos(m.x, m.y, rules.padded_stride(width)))


@pytest.mark.parametrize("problem", VCT_PROBLEMS, ids=[p["name"] for p in VCT_PROBLEMS])
def test_quintet_vct_problems_are_solved_and_verified(problem: dict, renju_engine) -> None:
    board = problem_board(problem)
    before = board.cells.copy()
    # a node limit, not a time limit: deterministic, and numba compiling on a cold cache
    # cannot make it fail (the largest, bench_vct_black, needs about 64,000 nodes)
    line = renju_engine.vct(board, max_depth=40, max_nodes=400_000)
    assert line is not None, problem["name"]
    assert np.array_equal(board.cells, before)
    verify_vct(board.cells, 15, 15, rules.RENJU, board.to_move, [_pos(m, 15) for m in line])


def test_no_vct_is_proved_in_a_quiet_position() -> None:
    black = [(7, 7), (8, 8)]
    white = [(7, 8), (9, 9)]
    st, tb = ST.state_from_stones(15, 15, rules.FREESTYLE, black, white, 1)
    ctx = VT.new_context(st.cells.shape[0], rules.FREESTYLE)
    assert VT.solve(st, tb, ctx, max_depth=6) is None
    assert ctx.ctl[VT.K_ROOT_DN] == 0, "the search must disprove, not run out of nodes"


def test_renju_white_wins_by_a_four_whose_block_is_forbidden_for_black() -> None:
    # (x, y) from the top: black on row 7 at x 4-6 and 8-9, so (7, 7) is an overline for
    # black; white on column 7 at y 3-5 under a black stone at (7, 2): white (7, 6) makes a
    # four whose only block, (7, 7), black may not play
    black = [(4, 7), (5, 7), (6, 7), (8, 7), (9, 7), (7, 2)]
    white = [(7, 3), (7, 4), (7, 5), (0, 14), (14, 14)]
    st, tb = ST.state_from_stones(15, 15, rules.RENJU, black, white, 2)
    stride = int(st.info[ST.I_STRIDE])
    h8 = int(rules.to_pos(7, 7, stride))
    assert rules.is_forbidden(st.cells, stride, h8)
    ctx = VT.new_context(st.cells.shape[0], rules.RENJU)
    line = VT.solve(st, tb, ctx, max_depth=4)
    assert line is not None
    verify_vct(st.cells, 15, 15, rules.RENJU, rules.WHITE, line)
    assert len(line) % 2 == 1 and line[-1] == int(rules.to_pos(7, 6, stride))


def _random_position(draw_moves: list[tuple[int, int]], size: int, rule: str) -> Board | None:
    board = Board(size, rule)
    for x, y in draw_moves:
        m = Move(x, y)
        if board.is_over or board[m] != rules.EMPTY:
            continue
        if m not in board.moves():
            continue
        board.play(m)
    return None if board.is_over else board


_ENGINES: dict[tuple[str, int], Engine] = {}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rule=hs.sampled_from(["freestyle", "renju"]),
    moves=hs.lists(hs.tuples(hs.integers(1, 7), hs.integers(1, 7)), min_size=5, max_size=12),
)
def test_any_line_returned_replays_as_a_win(rule: str, moves: list[tuple[int, int]]) -> None:
    size = 9
    board = _random_position(moves, size, rule)
    if board is None:
        return
    engine = _ENGINES.get((rule, size))
    if engine is None:
        engine = _ENGINES[(rule, size)] = Engine(rule, size, hash_mb=1)
    line = engine.vct(board, max_depth=6, max_nodes=3000)
    if line is None:
        return
    verify_vct(
        board.cells, size, size, board.rule_code, board.to_move, [_pos(m, size) for m in line]
    )


SCRIPT = textwrap.dedent(
    """
    from plies.gomoku import Board
    from plies.gomoku.engine.api import Engine

    board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11", "h9"], 15, "renju")
    line = Engine("renju", hash_mb=1).vct(board, max_depth=4, max_nodes=20000)
    print(line)
    """
)


def test_vct_runs_twice_from_the_cache() -> None:
    outputs = run_twice(SCRIPT)
    assert outputs[0] == outputs[1]


def _verdicts_with_and_without_deferral(board: Board) -> list[bool]:
    """Whether a VCT of at most four tree moves is proved with K_DEFER off and on (no limit
    but the depth; lines replay-verified)."""
    verdicts = []
    for defer in (0, 1):
        st, tb = ST.state_from_board(board, ST.make_tables(board.rule_code))
        ctx = VT.new_context(st.cells.shape[0], board.rule_code)
        ctx.ctl[VT.K_DEFER] = defer
        ctx.ctl[VT.K_VCF_BUDGET] = 10_000_000
        line = VT.solve(st, tb, ctx, max_depth=4)
        assert ctx.ctl[VT.K_ROOT_PN] == 0 or ctx.ctl[VT.K_ROOT_DN] == 0, "the search must finish"
        verdicts.append(line is not None)
        if line is not None:
            verify_vct(board.cells, 9, 9, board.rule_code, board.to_move, line)
    return verdicts


# 9x9 positions (moves from the start) found by random search, where a solver that did not
# wake a node's deferred fours once its other defences were proven got the verdict wrong: the
# Caro one it claimed as a win, the others it missed
DEFER_CASES = [
    ("caro", False, "3,1 1,7 7,6 6,4 2,5 3,3 6,5 2,7 4,5 2,4 1,4 5,4 4,1 6,1 2,6 7,5"),
    ("freestyle", True, "6,5 3,5 4,7 2,5 3,6 6,6 6,2 6,1 4,1 1,1 3,2 5,5"),
    ("renju", True, "1,4 3,1 1,1 4,1 3,3 5,2 3,2 7,2 4,5 6,4 1,5"),
    ("freestyle", True, "6,3 6,5 7,5 4,5 6,1 3,1 2,1 7,6 2,4 3,2 5,1 6,7 1,2 1,5 4,7 1,1 3,3"),
    (
        "freestyle",
        True,
        "3,1 2,6 2,5 1,6 5,3 4,5 3,2 6,1 3,5 5,5 7,7 4,7 6,6 1,3 5,7 1,2 4,1 2,7 2,1",
    ),
]


@pytest.mark.parametrize("rule,win,moves", DEFER_CASES)
def test_deferred_fours_are_woken_before_a_proof(rule: str, win: bool, moves: str) -> None:
    board = Board(9, rule)
    for xy in moves.split():
        board.play(Move(*map(int, xy.split(","))))
    assert _verdicts_with_and_without_deferral(board) == [win, win]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rule=hs.sampled_from(["freestyle", "renju", "caro"]),
    moves=hs.lists(hs.tuples(hs.integers(1, 7), hs.integers(1, 7)), min_size=10, max_size=24),
)
def test_deferring_the_defenders_fours_changes_no_verdict(
    rule: str, moves: list[tuple[int, int]]
) -> None:
    # K_DEFER only changes the order of the work (a defender node's lone fours join once its
    # other defences are proven), so with no limit but the depth both settings must agree
    board = _random_position(moves, 9, rule)
    if board is not None:
        verdicts = _verdicts_with_and_without_deferral(board)
        assert verdicts[0] == verdicts[1]
