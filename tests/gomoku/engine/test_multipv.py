"""MultiPV: lines sorted best first, the best move and score those of line 1."""

from __future__ import annotations

import random

import pytest

from plies.gomoku import Board, Move
from plies.gomoku.engine import Engine
from plies.gomoku.engine import search as S

# Positions (found by searching random games) where main before the fix returned a later line
# scoring above line 1 at this depth: a fresh engine, one thread, so the search is reproducible.
# The renju ones include a win found only by line 2 or 3 (line 1 scored 2036 and 1307).
UNSORTED_BEFORE = [
    ("freestyle", 4, "h8 j7 j10 f9 f11 j5 i6 g5 f7 h10"),  # 203, 274, 132
    ("freestyle", 5, "h8 g9 i10 f9 j6 k4 i8 l3"),  # 925, 1056, 699
    ("freestyle", 5, "h8 j6 i9 l6 m6 k5 f9 k8 l10"),  # 949, win, 912
    ("renju", 5, "h8 j6 i9 l6 m6 k5 f9 k8 l10"),  # 2036, win, win
    ("renju", 5, "h8 i9 i7 h11 i11 j11 f9 g7 d8 f13 h5 l11"),  # 1307, win, win
    ("renju", 5, "h8 g7 g9 j7 i10 j6"),  # 172, 191, 168
]


def check_lines(board: Board, result, multipv: int) -> None:
    lines = result.lines
    assert 1 <= len(lines) <= multipv
    scores = [line.score for line in lines]
    assert scores == sorted(scores, reverse=True), scores
    assert result.move == lines[0].move and result.score == lines[0].score
    assert result.pv == lines[0].pv
    assert len({line.move for line in lines}) == len(lines)
    for line in lines:
        assert board.is_legal(line.move)
        assert line.pv and line.pv[0] == line.move


@pytest.mark.parametrize(("rule", "depth", "moves"), UNSORTED_BEFORE)
def test_lines_that_were_out_of_order_are_sorted(rule: str, depth: int, moves: str) -> None:
    board = Board.from_moves(moves.split(), 15, rule)
    reported = []
    result = Engine(rule, hash_mb=4).search(
        board, depth=depth, multipv=3, info=lambda r: reported.append(list(r.lines))
    )
    check_lines(board, result, 3)
    assert len(result.lines) == 3
    for lines in reported:  # every iteration's report, not only the last
        assert [ln.score for ln in lines] == sorted((ln.score for ln in lines), reverse=True)


def test_a_five_gives_one_line() -> None:
    # black to move with an own four: the five is the only line (the kernel returns at once)
    board = Board.from_moves(["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"], 15, "freestyle")
    result = Engine("freestyle", hash_mb=4).search(board, depth=3, multipv=3)
    check_lines(board, result, 3)
    assert result.score == S.WIN - 1 and len(result.lines) == 1
    assert result.move in (Move(6, 7), Move(11, 7))


def random_position(rng: random.Random, rule: str) -> Board:
    """A random game of 6..30 stones, each within two cells of an earlier one."""
    while True:
        board = Board(15, rule)
        board.play(Move(7, 7))
        for _ in range(rng.randint(5, 29)):
            near = [
                m
                for m in board.moves()
                if any(abs(m.x - s.x) <= 2 and abs(m.y - s.y) <= 2 for s in board.history)
                and not board.is_forbidden(m)
            ]
            board.play(rng.choice(near))
            if board.is_over:
                break
        if not board.is_over:
            return board


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_random_positions_give_sorted_lines(rule: str) -> None:
    rng = random.Random(2024)
    engine = Engine(rule, hash_mb=4)
    for i in range(24):
        board = random_position(rng, rule)
        multipv = 2 + i % 3
        result = engine.search(board, depth=2 + i % 4, multipv=multipv)
        check_lines(board, result, multipv)


def test_multipv_1_result_is_its_only_line() -> None:
    board = Board.from_moves(
        ["h8", "j7", "j10", "f9", "f11", "j5", "i6", "g5", "f7", "h10"], 15, "freestyle"
    )
    result = Engine("freestyle", hash_mb=4).search(board, depth=4)
    check_lines(board, result, 1)
    assert len(result.lines) == 1


def test_more_lines_than_moves() -> None:
    # 5x5, three empty cells, no five possible: every move is a line
    board = Board(5, "freestyle")
    board.play_moves(
        [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (4, 0), (1, 1), (2, 1), (3, 1), (4, 1), (0, 2)]
        + [(1, 2), (3, 2), (2, 2), (4, 2), (0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (0, 4), (1, 4)]
    )
    engine = Engine("freestyle", 5, hash_mb=1)
    for multipv in (3, 4, 40):
        result = engine.search(board, depth=4, multipv=multipv)
        check_lines(board, result, multipv)
        assert {line.move for line in result.lines} == set(board.moves())
    # a sparse 15x15 board: more lines asked than the engine has candidates near the stones
    board = Board.from_moves(["h8", "i9"], 15, "freestyle")
    result = Engine("freestyle", hash_mb=4).search(board, depth=3, multipv=300)
    check_lines(board, result, 300)
    assert len(result.lines) >= 8


def test_a_forced_reply_leaves_one_line() -> None:
    moves = ["a1", "h9", "g9", "i9", "o1", "j9", "a15", "k9"]  # white's four: l9 is forced
    board = Board.from_moves(moves, 15, "freestyle")
    result = Engine("freestyle", hash_mb=4).search(board, depth=4, multipv=3)
    check_lines(board, result, 3)
    assert result.move == Move(11, 6)


def test_an_interrupted_multipv_search_keeps_sorted_lines() -> None:
    board = Board.from_moves(
        ["h8", "j7", "j10", "f9", "f11", "j5", "i6", "g5", "f7", "h10"], 15, "freestyle"
    )
    engine = Engine("freestyle", hash_mb=4)
    for nodes in (300, 3000, 30000):
        result = engine.search(board, nodes=nodes, multipv=3)
        check_lines(board, result, 3)
