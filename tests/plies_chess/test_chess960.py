"""Chess960 against python-chess: perft of start positions and of positions after random
moves, random games checked move by move (legal move sets in king-takes-rook notation,
make/undo, incremental key), and the UCI front end with ``UCI_Chess960`` on."""

from __future__ import annotations

import chess
import chess.engine
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.chess.engine import board as B
from plies.chess.position import Position

from .test_board import _check_position, walk_game
from .test_uci import CMD

# (X-FEN, depth, leaves): Chess960 start positions 0, 218, 518 (the standard one), 759 and
# 959, then positions after seeded random moves in which castling is legal; counts computed
# with python-chess 1.11 (its Chess960 move generator)
PERFT960 = [
    ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", 3, 9006),
    ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", 4, 201143),
    ("nqrkbbnr/pppppppp/8/8/8/8/PPPPPPPP/NQRKBBNR w KQkq - 0 1", 3, 8898),
    ("nqrkbbnr/pppppppp/8/8/8/8/PPPPPPPP/NQRKBBNR w KQkq - 0 1", 4, 197181),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 8902),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197281),
    ("rkbnnrqb/pppppppp/8/8/8/8/PPPPPPPP/RKBNNRQB w KQkq - 0 1", 3, 8966),
    ("rkbnnrqb/pppppppp/8/8/8/8/PPPPPPPP/RKBNNRQB w KQkq - 0 1", 4, 199135),
    ("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1", 3, 9006),
    ("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1", 4, 201143),
    ("rbbn2q1/ppppppkr/6pp/8/5P2/1Nn1Q3/PPPPP1PP/RBB2K1R w KQ - 4 8", 3, 31416),
    ("b1qbr1kr/pppppppp/2n1n3/8/8/7P/PPPPPPPN/BNQBR1KR w KQkq - 3 3", 3, 14486),
    ("bnkrqbnr/1ppppppp/8/p7/4N3/8/PPPPPPPP/B1RKQBNR w KQ - 0 3", 3, 12010),
    ("qnrknbbr/pp1ppppp/8/2p5/8/2N5/PPPPPPPP/Q1RKNBBR w KQkq - 0 2", 3, 14498),
    ("1brkrqbn/pppppppp/1n6/8/2PP4/8/PP2PPPP/NBRKRQBN b KQkq - 0 2", 3, 12446),
    ("qbbrkr1n/pppp1ppp/4pn2/8/8/5NN1/PPPPPPPP/QBBRKR2 w KQkq - 2 3", 3, 13711),
    ("2brqkrb/pppppppp/1nn5/8/8/1NN5/PPPPPPPP/2BRQKRB w KQkq - 4 3", 3, 11657),
    ("nbbrqknr/1ppppppp/8/p7/8/5N2/PPPPPPPP/NBBRQK1R w KQkq - 0 2", 3, 10657),
    ("qnbrkr1b/pppppppp/5n2/8/8/5N2/PPPPPPPP/QNBRKR1B w KQkq - 2 2", 3, 12790),
    ("bbr1kr1q/ppppppp1/5n1N/2n4p/8/7P/PPPPPPP1/BBRK1RNQ b kq - 1 5", 3, 22003),
    ("qbrknrbn/pppppppp/8/8/8/8/PPPPPPPP/QBKRNRBN b kq - 1 1", 3, 8500),
    ("qn1rkbnr/p1pppppp/bp6/8/3P4/P7/NPP1PPPP/1QBRKBNR b KQkq - 0 5", 3, 25755),
    ("rqnbbkrn/pppppppp/8/8/8/3N4/PPPPPPPP/RQ1BBKRN b KQkq - 1 1", 3, 9807),
    ("bn1rqkrb/pppppppp/4n3/8/8/2N1N3/PPPPPPPP/B1R1QRKB b k - 5 3", 3, 13823),
]


@pytest.mark.parametrize("fen,depth,expected", PERFT960)
def test_perft_chess960(fen: str, depth: int, expected: int) -> None:
    assert Position.from_fen(fen, chess960=True).perft(depth) == expected


def test_castling_squares_overlap() -> None:
    # king g1 castles king side without moving; king d1 and rook c1 swap; king f1 and rook
    # g1 swap; the rook f1 stays while the king e1 castles; black's king e8 lands on its rook's
    # square g8; each castling move made, checked against python-chess and undone
    fens = [
        "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1",
        "1r2k2r/8/8/8/8/8/8/2RK3R w KQk - 0 1",
        "r3k2r/8/8/8/8/8/8/1R3KR1 w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R3KR2 w KQ - 0 1",
        "r3k1r1/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ]
    for fen in fens:
        board = chess.Board(fen, chess960=True)
        pos = Position.from_board(board)
        castles = [m for m in board.legal_moves if board.is_castling(m)]
        assert castles, fen
        _check_position(pos, board)
        for move in castles:
            board.push(move)
            pos.push(move)
            _check_position(pos, board)
            assert pos.key == int(B.compute_hash(pos.bd, pos.st))
            fresh = Position.from_board(board)
            assert np.array_equal(fresh.bd, pos.bd) and fresh.key == pos.key
            board.pop()
            pos.pop()


def test_castling_notation() -> None:
    board = chess.Board()
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]:
        board.push_uci(uci)
    assert "e1g1" in {m.uci() for m in Position.from_board(board).legal_moves()}
    b960 = chess.Board(board.fen(), chess960=True)
    assert "e1h1" in {m.uci() for m in Position.from_board(b960).legal_moves()}
    # a standard-mode board with its move stack replays castling into the kernel
    board.push_uci("e1g1")
    assert Position.from_board(board).key == Position.from_board(board.copy(stack=False)).key


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=959),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=100),
)
def test_random_chess960_games_match_python_chess(number: int, choices: list[int]) -> None:
    def pick(board: chess.Board, moves: list[chess.Move], c: int) -> chess.Move:
        # castle whenever the choice is odd and castling is legal: reach the odd cases
        castles = [m for m in moves if board.is_castling(m)]
        pieces = [m for m in moves if board.piece_type_at(m.from_square) != chess.PAWN]
        pool = castles if castles and c % 2 else (pieces if pieces and c % 3 else moves)
        return pool[c % len(pool)]

    board = chess.Board.from_chess960_pos(number)
    pos = walk_game(board, choices, pick)
    fresh = Position.from_board(board)
    assert np.array_equal(fresh.st[B.I_CMASK : B.I_CMASK + 64] & fresh.st[B.I_CASTLE],
                          pos.st[B.I_CMASK : B.I_CMASK + 64] & pos.st[B.I_CASTLE])  # fmt: skip


def test_uci_chess960_plays_legal_moves() -> None:
    eng = chess.engine.SimpleEngine.popen_uci(CMD, timeout=300)
    try:
        # python-chess manages UCI_Chess960 itself (configure() refuses it): a board with
        # chess960=True makes it send "setoption name UCI_Chess960 value true"
        assert "UCI_Chess960" in eng.options
        # a position where castling either way is legal, then a few moves of a game
        board = chess.Board("qnbrkr1b/pppppppp/5n2/8/8/5N2/PPPPPPPP/QNBRKR1B w KQkq - 2 2",
                            chess960=True)  # fmt: skip
        for _ in range(6):
            result = eng.play(board, chess.engine.Limit(nodes=2000))
            assert result.move in board.legal_moves, (board.fen(), result.move)
            board.push(result.move)
        # castling sent to the engine in king-takes-rook notation is understood
        board = chess.Board.from_chess960_pos(0)
        for uci in ["e1f3", "e8f6", "f1e1", "f8e8"]:
            board.push_uci(uci)
        castle = board.parse_uci("g1h1")
        assert board.is_castling(castle)
        board.push(castle)
        result = eng.play(board, chess.engine.Limit(nodes=2000))
        assert result.move in board.legal_moves
        info = eng.analyse(board, chess.engine.Limit(nodes=2000))
        line = board.copy()
        for move in info["pv"]:
            assert move in line.legal_moves
            line.push(move)
    finally:
        eng.quit()
