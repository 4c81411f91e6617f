"""The engine never names a move the opening rule forbids (root exclusions, every exit)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from plies.gomoku import opening_rule
from plies.gomoku.board import Board
from plies.gomoku.engine.api import Engine
from plies.gomoku.notation import Move

_ENGINES: dict[tuple[str, int, int], Engine] = {}


def engine_for(rule: str, width: int, height: int, threads: int = 1) -> Engine:
    key = (rule, width, height, threads)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(rule, width=width, height=height, hash_mb=1, threads=threads)
    return _ENGINES[key]


def legal(board: Board, opening: str, m: Move) -> bool:
    dist = {"pro": 3, "long-pro": 4}[opening]
    c = Move(board.width // 2, board.height // 2)
    if board.stones == 0:
        return m == c
    if board.stones == 2:
        return max(abs(m.x - c.x), abs(m.y - c.y)) >= dist
    return True


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rule=hs.sampled_from(["freestyle", "renju", "caro", "caro5"]),
    size=hs.sampled_from([(9, 9), (15, 15), (19, 19), (20, 15)]),
    opening=hs.sampled_from(["pro", "long-pro"]),
    first=hs.tuples(hs.integers(-2, 2), hs.integers(-2, 2)),
    white=hs.tuples(hs.integers(-4, 4), hs.integers(-4, 4)),
    nodes=hs.sampled_from([1, 50, 400]),
    multipv=hs.sampled_from([1, 3]),
    on_board=hs.booleans(),
)
def test_engine_never_plays_an_illegal_opening_move(
    rule, size, opening, first, white, nodes, multipv, on_board
):
    width, height = size
    cx, cy = width // 2, height // 2
    b1 = Move(cx + first[0], cy + first[1])  # set up freely: the manager's BOARD may do this
    w1 = Move(cx + white[0], cy + white[1])
    if w1 in (b1, Move(cx, cy)):
        return
    board = Board(width=width, height=height, rule=rule)
    engine = engine_for(rule, width, height)
    kwargs = {"opening": opening}
    if on_board:
        board = Board(width=width, height=height, rule=rule, opening=opening)
        kwargs = {}
    r = engine.search(board, nodes=nodes, **kwargs)
    assert r.move == Move(cx, cy)
    board.play(b1 if not on_board else Move(cx, cy))
    board.play(w1)
    r = engine.search(board, nodes=nodes, multipv=multipv, **kwargs)
    assert r.move is not None and legal(board, opening, r.move), (r.move, board.history)
    for line in r.lines:
        assert legal(board, opening, line.move)
    assert board.is_legal(r.move)


@pytest.mark.parametrize("opening", ["pro", "long-pro"])
def test_ring_moves_exist_when_no_stone_is_near(opening):
    """long-pro with white touching the centre: no cell near a stone is allowed; the engine
    must still search (and name) a move on the ring, not fall back blindly."""
    board = Board.from_moves(["h8", "h9"], 15, "freestyle", opening=opening)
    r = Engine("freestyle", 15, hash_mb=1).search(board, depth=3)
    c = opening_rule.centre(15, 15)
    dist = opening_rule.min_distance(opening)
    assert max(abs(r.move.x - c.x), abs(r.move.y - c.y)) >= dist
    assert r.depth >= 1 and r.pv[0] == r.move


def test_helper_threads_respect_the_rule():
    board = Board.from_moves(["j10", "k11"], 19, "caro", opening="pro")
    r = engine_for("caro", 19, 19, threads=2).search(board, nodes=3000)
    assert board.is_legal(r.move)
