"""Property tests: random games and random dense positions, the kernels against the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from plies.gomoku import Board, Move
from plies.gomoku import rules as kernel

from . import oracle
from .positions import cellset

RULES = oracle.RULES
SIZES = [(5, 5), (6, 9), (15, 15), (22, 22)]  # (width, height)
SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def draw_game_moves(data, board: Board, region: int, max_plies: int):
    """Yield random legal moves for ``board`` (played by the caller), within a random
    ``region`` x ``region`` box when ``region`` is not 0 (dense games), until the game ends."""
    if region:
        x0 = data.draw(st.integers(0, max(0, board.width - region)), label="x0")
        y0 = data.draw(st.integers(0, max(0, board.height - region)), label="y0")
    while not board.is_over and len(board) < max_plies:
        moves = board.moves()
        if region:
            moves = [m for m in moves if x0 <= m.x < x0 + region and y0 <= m.y < y0 + region]
        if not moves:
            return
        yield moves[data.draw(st.integers(0, len(moves) - 1), label="move")]


def assert_same_result(board: Board, game: oracle.Game) -> None:
    assert board.winner == game.winner
    assert board.lost_by_forbidden == game.lost_by_forbidden
    assert board.is_over == game.is_over
    if board.winning_line is None:
        assert game.lost_by_forbidden or not game.lines
    else:
        # when one move wins along two lines, the Board reports one of them
        assert cellset(board.winning_line) in [set(line) for line in game.lines]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("rule", RULES)
@settings(SETTINGS, max_examples=20)
@given(data=st.data())
def test_random_games_agree_with_oracle_and_undo_restores(rule, size, data):
    width, height = size
    forbidden = "illegal"
    if rule == "renju":
        forbidden = data.draw(st.sampled_from(["illegal", "loses"]), label="forbidden")
    region = data.draw(st.sampled_from([0, 5, 7]), label="region")
    board = Board(width=width, height=height, rule=rule, forbidden=forbidden)
    game = oracle.Game(width, height, rule, forbidden)
    empty = board.cells.copy()
    # comparing every legal-move list is cheap except for black under Renju on a big board
    check_every_ply = width * height <= 100 or rule != "renju"
    saved = []
    for move in draw_game_moves(data, board, region, max_plies=min(width * height, 60)):
        if check_every_ply:
            assert cellset(board.moves()) == game.legal_moves()
        saved.append((board.cells.copy(), board.hash))
        board.play(move)
        game.play((move.x, move.y))
        assert board.hash == board.recompute_hash()
        assert_same_result(board, game)
    assert cellset(board.moves()) == game.legal_moves()
    assert board.history == [Move(*c) for c in game.history]
    event("lost by forbidden" if board.lost_by_forbidden else f"winner {board.winner}")

    while saved:
        cells, h = saved.pop()
        board.undo()
        assert np.array_equal(board.cells, cells)
        assert board.hash == h == board.recompute_hash()
        assert board.winner == 0 and not board.lost_by_forbidden
    assert np.array_equal(board.cells, empty)
    assert board.hash == 0


@pytest.mark.parametrize(("width", "height"), [(7, 7), (9, 9)], ids=["7x7", "9x9"])
@pytest.mark.parametrize("forbidden", ["illegal", "loses"])
@settings(SETTINGS, max_examples=20)
@given(data=st.data())
def test_renju_dense_games_forbidden_points(width, height, forbidden, data):
    """Renju games packed into a 7x7 box: forbidden points and legal moves at every ply."""
    board = Board(width=width, height=height, rule="renju", forbidden=forbidden)
    game = oracle.Game(width, height, "renju", forbidden)
    seen = 0
    for move in draw_game_moves(data, board, region=7, max_plies=49):
        board.play(move)
        game.play((move.x, move.y))
        assert_same_result(board, game)
        points = oracle.forbidden_points(game.pos)
        assert cellset(board.forbidden_points()) == points
        assert cellset(board.moves()) == game.legal_moves()
        seen += len(points)
    event("lost by forbidden" if board.lost_by_forbidden else f"winner {board.winner}")
    event("forbidden points seen" if seen else "no forbidden point")


# Random stone patterns for a box: mostly black, since forbidden points need clustered black
# stones. sampled_from shrinks towards its first element, an empty cell.
CELL = st.sampled_from([oracle.EMPTY, oracle.BLACK, oracle.WHITE, oracle.BLACK, oracle.EMPTY])


def place_block(data, width: int, height: int, box: int) -> tuple[Board, oracle.Position]:
    """A board with a random ``box`` x ``box`` block of stones put straight into its cells
    (not a reachable game: any stone counts are fine for these checks)."""
    x0 = data.draw(st.integers(0, width - box), label="x0")
    y0 = data.draw(st.integers(0, height - box), label="y0")
    block = data.draw(st.lists(CELL, min_size=box * box, max_size=box * box), label="block")
    board = Board(width=width, height=height, rule="renju")
    stones = {}
    for i, color in enumerate(block):
        if color:
            x, y = x0 + i % box, y0 + i // box
            board.cells[kernel.to_pos(x, y, board.stride)] = color
            stones[(x, y)] = color
    return board, oracle.Position(width, height, stones)


@pytest.mark.parametrize(
    ("width", "height", "box"),
    [(6, 9, 6), (9, 9, 7), (15, 15, 8), (22, 22, 8)],
    ids=["6x9", "9x9", "15x15", "22x22"],
)
@settings(SETTINGS, max_examples=80)
@given(data=st.data())
def test_renju_forbidden_points_on_dense_positions(width, height, box, data):
    board, pos = place_block(data, width, height, box)
    points = oracle.forbidden_points(pos)
    assert cellset(board.forbidden_points()) == points
    for cell in points:  # why: overline, double four, double three, as the oracle says
        assert board.forbidden_reason(cell) == oracle.forbidden_reason(pos, cell).replace("-", " ")
    event(f"{min(len(points), 5)}+ forbidden points" if points else "no forbidden point")


@pytest.mark.parametrize(("width", "height", "box"), [(6, 9, 6), (15, 15, 8)], ids=["6x9", "15x15"])
@settings(SETTINGS, max_examples=40)
@given(data=st.data())
def test_wins_on_dense_positions(width, height, box, data):
    """For every empty cell, colour and rule: does a stone there win, and along which line?"""
    board, pos = place_block(data, width, height, box)
    out = np.empty(2 * max(width, height), dtype=np.int64)
    stride = board.stride
    for x, y in pos.empty_cells():
        p = kernel.to_pos(x, y, stride)
        for color in (oracle.BLACK, oracle.WHITE):
            after = pos.with_stone((x, y), color)
            for code, rule in enumerate(RULES):
                lines = [set(line) for line in oracle.winning_lines(after, (x, y), rule)]
                assert kernel.makes_five(board.cells, stride, p, color, code) == bool(lines)
                board.cells[p] = color
                n = kernel.winning_line(board.cells, stride, p, color, code, out)
                board.cells[p] = oracle.EMPTY
                got = {(q % stride - kernel.PAD, q // stride - kernel.PAD) for q in out[:n]}
                assert (got in lines) if lines else n == 0
