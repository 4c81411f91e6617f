"""The compiled board against python-chess: perft on fixed suites, and random games checked
move by move (legal move sets, make/undo, incremental Zobrist key and evaluation sums)."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.chess.engine import board as B
from plies.chess.position import Position

DATA = Path(__file__).resolve().parents[1] / "data" / "chess"

# well-known perft positions (start, "kiwipete", test positions 3-5) and a middle game
CLASSIC = [
    (chess.STARTING_FEN, 4, 197281),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379),
    # count from python-chess
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 81467),
]


def _suite() -> list[tuple[str, int, int]]:
    out = []
    for line in (DATA / "perft_random.epd").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *counts = line.split(";")
        for item in counts:
            d, n = item.split()
            out.append((fen.strip(), int(d[1:]), int(n)))
    return out


@pytest.mark.parametrize("fen,depth,expected", CLASSIC)
def test_perft_classic_positions(fen: str, depth: int, expected: int) -> None:
    assert Position.from_fen(fen).perft(depth) == expected


def test_perft_random_suite() -> None:
    suite = _suite()
    assert len(suite) >= 400
    wrong = [(f, d, n) for f, d, n in suite if Position.from_fen(f).perft(d) != n]
    assert wrong == []


def _snapshot(pos: Position):
    return pos.bd.copy(), pos.st.copy()


def _check_position(pos: Position, board: chess.Board) -> None:
    ours = {m.uci() for m in pos.legal_moves()}
    theirs = {m.uci() for m in board.legal_moves}
    assert ours == theirs, board.fen()
    assert pos.key == int(B.compute_hash(pos.bd, pos.st))
    mg, eg, phase = B.compute_psq(pos.bd, pos.pst)
    assert (pos.st[B.I_MG], pos.st[B.I_EG], pos.st[B.I_PHASE]) == (mg, eg, phase)
    fresh = pos.st.copy()
    B.set_bitboards(pos.bd, fresh)
    assert np.array_equal(pos.st[B.I_BB : B.I_BB + 16], fresh[B.I_BB : B.I_BB + 16])
    assert bool(B.in_check(pos.bd, pos.st)) == board.is_check()
    assert bool(B.in_check_fast(pos.bd, pos.st, pos.hist)) == board.is_check()
    # make/undo of every legal move restores the position exactly; the check tests before
    # (quiet moves) and after the move agree with python-chess
    bd, s = _snapshot(pos)
    ek = int(pos.st[B.I_KSQ + 1 - pos.st[B.I_SIDE]])
    for mv in pos.legal_ints():
        checks = board.gives_check(pos.move(mv))
        quiet = pos.bd[(mv >> 6) & 63] == 0 and (mv >> 12) & 7 == 0 and mv >> 16 in (0, 3)
        if quiet:
            assert bool(B.quiet_gives_check(pos.bd, mv, ek)) == checks, (board.fen(), mv)
        pos.push(mv)
        assert bool(B.gives_check(pos.bd, pos.st, mv)) == checks, (board.fen(), mv)
        pos.pop()
        assert np.array_equal(pos.bd, bd) and np.array_equal(pos.st, s)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120))
def test_random_games_match_python_chess(choices: list[int]) -> None:
    walk_game(chess.Board(), choices, lambda board, moves, c: moves[c % len(moves)])


def walk_game(board: chess.Board, choices: list[int], pick) -> Position:
    """Play ``pick(board, legal moves, choice)`` for each choice on ``board`` and on a kernel
    position, checking the position against python-chess at every step; at the end a position
    rebuilt from the board equals the incrementally updated one. Returns the latter."""
    pos = Position.from_board(board)
    B.set_bitboards(pos.bd, pos.st)  # from here on kept by make/undo (checked at every move)
    keys: dict[int, object] = {}
    for c in choices:
        _check_position(pos, board)
        # equal positions (python-chess's transposition key) have equal keys, and vice versa
        tkey = board._transposition_key()
        assert keys.setdefault(pos.key, tkey) == tkey
        moves = list(board.legal_moves)
        if not moves:
            break
        move = pick(board, moves, c)
        board.push(move)
        pos.push(move)
    fresh = Position.from_board(board)
    assert np.array_equal(fresh.bd, pos.bd)
    assert fresh.key == pos.key
    return pos


def test_repetition_and_insufficient_material() -> None:
    board = chess.Board()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        board.push_uci(uci)
    pos = Position.from_board(board)
    assert B.is_repetition(pos.st, pos.hist)
    board.push_uci("e2e4")
    assert not B.is_repetition(Position.from_board(board).st, Position.from_board(board).hist)
    assert B.insufficient_material(Position.from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").st)
    assert not B.insufficient_material(Position.from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 0 1").st)


def test_en_passant_only_when_capturable() -> None:
    # after e2e4 no black pawn can take en passant: the key equals the position without e.p.
    board = chess.Board()
    board.push_uci("e2e4")
    pos = Position.from_board(board)
    assert pos.st[B.I_EP] == -1
    board = chess.Board("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    board.push_uci("e2e4")
    pos = Position.from_board(board)
    assert pos.st[B.I_EP] == chess.E3
    assert "d4e3" in {m.uci() for m in pos.legal_moves()}


def test_check_tests_match_python_chess_on_the_perft_suite() -> None:
    # every legal move of every suite position: the check tests before (quiet moves) and
    # after the move, and the in-check test from the last move, against python-chess
    fens = sorted({f for f, _, _ in _suite()} | {f for f, _, _ in CLASSIC})
    for fen in fens:
        board = chess.Board(fen)
        pos = Position.from_board(board)
        ek = int(pos.st[B.I_KSQ + 1 - pos.st[B.I_SIDE]])
        for mv in pos.legal_ints():
            move = Position.to_move(mv)
            checks = board.gives_check(move)
            if pos.bd[(mv >> 6) & 63] == 0 and (mv >> 12) & 7 == 0 and mv >> 16 in (0, 3):
                assert bool(B.quiet_gives_check(pos.bd, mv, ek)) == checks, (fen, move)
            pos.push(mv)
            assert bool(B.gives_check(pos.bd, pos.st, mv)) == checks, (fen, move)
            assert bool(B.in_check_fast(pos.bd, pos.st, pos.hist)) == checks, (fen, move)
            pos.pop()


# every term on, with values unlike each other, so that a term counted for the wrong piece,
# colour or square shows
THREAT_TERMS = {
    "THREAT_BY_MINOR_MG": (3, 21, 23, 37, 41),
    "THREAT_BY_MINOR_EG": (11, 17, 19, 43, 53),
    "THREAT_BY_ROOK_MG": (5, 13, 29, 7, 31),
    "THREAT_BY_ROOK_EG": (9, 27, 33, 2, 47),
    "HANGING": (59, 61),
    "SAFE_CHECK": (67, 71, 73, 79),
    "MOBILITY_AREA": 1,
    "SPACE": 7,
    "MOBILITY_DELTA_MG": tuple((i * 37) % 29 - 14 for i in range(112)),
    "MOBILITY_DELTA_EG": tuple((i * 53) % 31 - 15 for i in range(112)),
}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=160),
    st.booleans(),
)
def test_evaluation_equals_the_square_by_square_reference(choices: list[int], threats) -> None:
    from plies.chess.engine import params as P
    from plies.chess.engine.evaluate import evaluate
    from plies.chess.position import default_eval_arrays

    from .reference import reference_evaluate

    _, w = P.eval_arrays(THREAT_TERMS) if threats else default_eval_arrays()
    scratch = np.zeros(256, dtype=np.int64)
    board = chess.Board()
    pos = Position.from_board(board)
    for c in choices:
        assert int(evaluate(pos.bd, pos.st, w, scratch)) == reference_evaluate(pos.bd, pos.st, w)
        moves = list(board.legal_moves)
        if not moves:
            break
        captures = [m for m in moves if board.is_capture(m) or m.promotion]
        pool = captures if captures and c % 2 else moves  # captures often: reach endings
        move = pool[c % len(pool)]
        board.push(move)
        pos.push(move)


def test_evaluation_equals_the_reference_on_the_test_positions() -> None:
    """The random games above rarely reach late endings; the perft and mate positions (and
    their mirror images) do."""
    from plies.chess.engine import params as P
    from plies.chess.engine.evaluate import evaluate

    from .reference import reference_evaluate

    _, w = P.eval_arrays(THREAT_TERMS)
    scratch = np.zeros(256, dtype=np.int64)
    for name in ("perft_random.epd", "mates.epd"):
        for line in (DATA / name).read_text().splitlines():
            if line.startswith("#") or not line.strip():
                continue
            board = chess.Board(" ".join(line.split()[:4]) + " 0 1")
            for b in (board, board.mirror()):
                pos = Position.from_board(b)
                expected = reference_evaluate(pos.bd, pos.st, w)
                assert int(evaluate(pos.bd, pos.st, w, scratch)) == expected, b.fen()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=160))
def test_see_equals_the_ray_walking_reference(choices: list[int]) -> None:
    from plies.chess.engine.search import see

    from .reference import reference_see

    buf = np.zeros(64, dtype=np.int64)
    board = chess.Board()
    pos = Position.from_board(board)
    for c in choices:
        for move in board.legal_moves:
            if board.is_capture(move) or move.promotion:
                mv = pos.to_int(move)
                assert int(see(pos.bd, mv, buf)) == reference_see(pos.bd, mv), (board.fen(), mv)
        moves = list(board.legal_moves)
        if not moves:
            break
        captures = [m for m in moves if board.is_capture(m) or m.promotion]
        pool = captures if captures and c % 2 else moves
        move = pool[c % len(pool)]
        board.push(move)
        pos.push(move)
