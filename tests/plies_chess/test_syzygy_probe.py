"""The compiled Syzygy WDL prober against python-chess's, and its use inside the search.

Tables: tests/data/chess/syzygy (3- and 4-man WDL files from python-chess's source
distribution: pawnless and with pawns, split and symmetric, colour-flipped lookups)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import chess
import chess.syzygy
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from plies.chess import syzygy_kernel as K
from plies.chess import syzygy_tables as T
from plies.chess.engine import board as B
from plies.chess.engine import search as S
from plies.chess.engine.api import Engine
from plies.chess.position import Position
from plies.errors import InvalidOption

SYZYGY = Path(__file__).resolve().parents[1] / "data" / "chess" / "syzygy"
ENDINGS = ["KQvK", "KRvK", "KBNvK", "KRvKR", "KQvKR", "KRvKB", "KPvK", "KPvKP"]


@pytest.fixture(scope="module")
def tables() -> T.SyzygyTables:
    return T.load_wdl(str(SYZYGY))


@pytest.fixture(scope="module")
def reference():
    tb = chess.syzygy.open_tablebase(str(SYZYGY))
    yield tb
    tb.close()


def random_board(name: str, rng: random.Random) -> chess.Board:
    """A random legal position of the material ``name``, its colours swapped half the time,
    either side to move (no castling, no en passant)."""
    parts = name.split("v")
    while True:
        board = chess.Board(None)
        flip = rng.random() < 0.5
        pieces = [(c ^ flip, ch) for c, part in enumerate(parts) for ch in part]
        squares = rng.sample(range(64), len(pieces))
        ok = True
        for sq, (c, ch) in zip(squares, pieces, strict=True):
            piece_type = chess.Piece.from_symbol(ch).piece_type
            ok &= piece_type != chess.PAWN or chess.square_rank(sq) not in (0, 7)
            board.set_piece_at(sq, chess.Piece(piece_type, chess.WHITE if c == 0 else chess.BLACK))
        board.turn = rng.random() < 0.5
        if ok and board.is_valid():
            return board


def kernel_wdl(tables: T.SyzygyTables, board: chess.Board, exact: bool = True) -> int:
    pos = Position.from_board(board)
    B.set_bitboards(pos.bd, pos.st)
    buf = np.zeros(K.SCRATCH_SIZE + 8, dtype=np.int64)
    if exact:
        v = K.probe_wdl(tables.blob, pos.bd, pos.st, pos.hist, pos.pst, buf, 0)
    else:
        v = K.probe_table(tables.blob, pos.st, buf[:8])
    return int(v)


def test_loader_reads_every_table(tables) -> None:
    assert set(tables.names) >= set(ENDINGS) | {"KBvK", "KNvK"}
    assert tables.max_pieces == 4
    assert tables.blob.dtype == np.uint8 and tables.index[K.H_MAXPC] == 4
    empty = T.empty_tables()
    assert empty.index[K.H_MAXPC] == 0 and empty.blob.dtype == np.uint8


@pytest.mark.parametrize("name", ENDINGS)
def test_exact_wdl_equals_python_chess(tables, reference, name: str) -> None:
    rng = random.Random(f"wdl-{name}")
    captures = reversed_material = black = 0
    for _ in range(200):
        board = random_board(name, rng)
        expected = reference.probe_wdl(board)
        assert kernel_wdl(tables, board) == expected, board.fen()
        if any(board.is_capture(m) for m in board.legal_moves):
            captures += 1
        else:  # no capture: the table's own value is exact
            assert kernel_wdl(tables, board, exact=False) == expected, board.fen()
        reversed_material += chess.syzygy.calc_key(board) != name
        black += board.turn == chess.BLACK
    symmetric = name.split("v")[0] == name.split("v")[1]
    assert black > 50 and captures > 5 and (symmetric or reversed_material > 50)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hst.integers(0, 2**32), name=hst.sampled_from(ENDINGS))
def test_colour_mirrored_position_has_the_same_value(tables, seed: int, name: str) -> None:
    board = random_board(name, random.Random(seed))
    assert kernel_wdl(tables, board) == kernel_wdl(tables, board.mirror())


def test_missing_tables_give_no_value(tmp_path) -> None:
    shutil.copy(SYZYGY / "KQvKR.rtbw", tmp_path / "KQvKR.rtbw")
    only = T.load_wdl(str(tmp_path))
    assert only.names == ("KQvKR",)
    # the rook can be taken: the capture search needs KQvK, which is missing
    assert kernel_wdl(only, chess.Board("8/8/8/3k4/8/8/8/KQ4r1 w - - 0 1")) == K.TB_FAIL
    # no capture on the board: the table alone answers
    board = chess.Board("8/8/8/3k4/8/8/7r/KQ6 w - - 0 1")
    assert not any(board.is_capture(m) for m in board.legal_moves)
    assert kernel_wdl(only, board) != K.TB_FAIL
    assert kernel_wdl(only, chess.Board("8/8/8/3k4/8/8/4P3/K7 w - - 0 1")) == K.TB_FAIL
    assert kernel_wdl(only, chess.Board("8/8/8/3k4/8/8/8/K7 w - - 0 1")) == 0  # bare kings


def test_bad_files_are_refused(tmp_path) -> None:
    (tmp_path / "KQvK.rtbw").write_bytes(b"\x00" * 80)
    with pytest.raises(InvalidOption, match="magic"):
        T.load_wdl(str(tmp_path))
    (tmp_path / "KQvK.rtbw").write_bytes((SYZYGY / "KQvK.rtbw").read_bytes()[:64])
    with pytest.raises(InvalidOption, match="size|truncated"):
        T.load_wdl(str(tmp_path))
    with pytest.raises(InvalidOption, match="no directory"):
        T.load_wdl(str(tmp_path / "nowhere"))
    engine = Engine(hash_mb=1)
    with pytest.raises(InvalidOption, match="KQvK.rtbw"):
        engine.set_syzygy_path(str(tmp_path))
    assert engine.tables.max_pieces == 0 and engine.tablebase is None
    assert T.load_wdl(str(tmp_path), max_pieces=2).max_pieces == 0  # nothing that small


@pytest.fixture(scope="module")
def engine() -> Engine:
    e = Engine(hash_mb=4, syzygy_path=str(SYZYGY))
    e.tablebase = None  # no root probing: only the search's own probes
    return e


def test_search_scores_a_table_win(engine) -> None:
    # KQ v KR, the rook en prise: Qxg1 leads to a table win (KQvK)
    r = engine.search(chess.Board("8/8/8/8/3k4/8/8/KQ4r1 w - - 0 1"), depth=6)
    assert r.tbhits > 0 and r.score >= S.TB_BOUND and r.mate is None
    assert r.move == chess.Move.from_uci("b1g1")


def test_search_scores_a_table_draw(engine) -> None:
    # K+P v K, drawn. With the tables every push is probed as a draw, and black's king wins
    # the pawn of a white king that only shuffles: 0 from depth 12 (13 with continuation
    # history); without them the search stays a pawn up at every depth (108-145 at 12-18).
    board = chess.Board("8/8/8/8/4k3/8/4P3/4K3 w - - 0 1")
    engine.new_game()
    r = engine.search(board, depth=16)
    assert r.tbhits > 0 and r.score == 0
    plain = Engine(hash_mb=4)
    assert plain.search(board, depth=16).score > 50  # the evaluation alone: a pawn up


def test_search_still_finds_mates_with_tables(engine) -> None:
    # the mating move is a capture: the mated position is a table loss, but the search
    # scores it as the mate it is
    engine.new_game()
    r = engine.search(chess.Board("r6k/8/6K1/8/8/8/Q7/8 w - - 0 1"), depth=4)
    assert r.mate == 1 and r.move == chess.Move.from_uci("a2a8")


def test_no_probe_without_the_table(tmp_path) -> None:
    shutil.copy(SYZYGY / "KQvK.rtbw", tmp_path / "KQvK.rtbw")
    e = Engine(hash_mb=4, syzygy_path=str(tmp_path))
    r = e.search(chess.Board("8/8/8/4k3/8/2B5/8/KN6 w - - 0 1"), depth=6)  # KBNvK
    assert r.tbhits == 0
    off = Engine(hash_mb=4, syzygy_path=str(SYZYGY), features={"tablebases": False})
    off.tablebase = None
    assert off.search(chess.Board("8/8/8/8/3k4/8/8/KQ4r1 w - - 0 1"), depth=6).tbhits == 0


def test_uci_options_and_tbhits() -> None:
    import io
    import time

    from plies.chess.uci import UCIEngine

    out = io.StringIO()
    uci = UCIEngine(out)
    for line in (
        f"setoption name SyzygyPath value {SYZYGY}",
        "setoption name SyzygyProbeDepth value 2",
        "setoption name SyzygyProbeLimit value 4",
        "setoption name SyzygyProbeLimit value 9",
        "position fen 4k3/8/3K4/4P3/8/8/8/8 w - - 0 1",  # won, no DTZ table: the search answers
        "go depth 8",
    ):
        uci.handle(line)
    deadline = time.time() + 60
    while "bestmove" not in out.getvalue() and time.time() < deadline:
        time.sleep(0.05)
    text = out.getvalue()
    assert "SyzygyProbeLimit: 9 is outside 0..7" in text
    assert uci.engine.knobs[S.K_TB_DEPTH] == 2 and uci.engine.tables.max_pieces == 4
    assert " tbhits " in text and "bestmove " in text and "tablebase move" not in text
    uci.handle("quit")


def test_a_table_loss_in_check_without_a_move_is_a_mate(tables) -> None:
    from plies.chess.position import default_eval_arrays

    board = chess.Board("r6k/8/6K1/8/8/8/Q7/8 w - - 0 1")
    board.push_uci("a2a8")  # mate, and a table loss (KQvK) for the side to move
    pst, weights = default_eval_arrays()
    for window in ((-S.INF, S.INF), (-100, -99)):  # a PV node and a zero-window node
        pos = Position.from_board(board)
        ctx = S.new_context(S.new_tt(1), np.zeros(1, dtype=np.int64), pst, weights,
                            tables=tables)  # fmt: skip
        assert S.pvs(pos.bd, pos.st, pos.hist, ctx, *window, 2, 1) == -S.MATE + 1
    board = chess.Board("k6Q/8/2K5/8/8/8/8/8 b - - 0 1")  # check, not mate (Ka7): a loss
    pos = Position.from_board(board)
    ctx = S.new_context(S.new_tt(1), np.zeros(1, dtype=np.int64), pst, weights, tables=tables)
    assert S.pvs(pos.bd, pos.st, pos.hist, ctx, -100, -99, 2, 1) == -S.TB_WIN + 1
