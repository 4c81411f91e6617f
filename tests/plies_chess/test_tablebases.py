"""Syzygy at the root: real 3-man tables (tests/data/chess/syzygy) through python-chess, and
the selection rules checked with a fake tablebase."""

from __future__ import annotations

from pathlib import Path

import chess
import chess.syzygy
import pytest

from plies.chess import tablebases as T
from plies.chess.engine.api import Engine
from plies.errors import InvalidOption

SYZYGY = Path(__file__).resolve().parents[1] / "data" / "chess" / "syzygy"


def test_real_tables_give_a_winning_move_that_keeps_the_win() -> None:
    tb = T.open_tablebase(str(SYZYGY))
    board = chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    move, score = T.probe_root(tb, board)
    assert score > 0 and score >= T.TB_WIN - 100
    board.push(move)
    assert tb.probe_wdl(board) == -2  # the opponent is lost after the table move
    # KR v K with the rook en prise: the table keeps the rook
    board = chess.Board("8/8/8/8/8/2k5/1R6/7K b - - 0 1")
    move, score = T.probe_root(tb, board)
    assert move == chess.Move.from_uci("c3b2") and score == 0
    tb.close()


def test_engine_plays_the_table_move_and_search_otherwise() -> None:
    engine = Engine(hash_mb=4, syzygy_path=str(SYZYGY))
    r = engine.search(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"), depth=4)
    assert r.tablebase and r.score > 0
    r = engine.search(chess.Board(), depth=3)  # too many pieces: a normal search
    assert not r.tablebase
    engine.set_syzygy_path(None)
    with pytest.raises(InvalidOption):
        engine.set_syzygy_path("/no/such/dir")


class FakeTablebase:
    """WDL/DTZ from a dict keyed by FEN board part (side to move's view); 0 otherwise."""

    def __init__(self, table: dict[str, tuple[int, int]]) -> None:
        self.table = table
        self.wdl: dict = {}
        self.dtz: dict = {}

    def probe_wdl(self, board: chess.Board) -> int:
        return self.table.get(board.board_fen(), (0, 0))[0]

    def probe_dtz(self, board: chess.Board) -> int:
        return self.table.get(board.board_fen(), (0, 0))[1]

    def close(self) -> None:
        pass


def test_selection_rules_with_a_fake_table() -> None:
    board = chess.Board("8/8/8/4k3/8/8/1P6/K7 w - - 0 1")
    after = {}
    for m in board.legal_moves:
        board.push(m)
        after[m.uci()] = board.board_fen()
        board.pop()
    # opponent's view after our move: -2 = we win; dtz counts from the opponent's side
    fake = FakeTablebase(
        {
            after["a1a2"]: (-2, -30),
            after["a1b1"]: (-2, -12),  # faster win
            after["b2b3"]: (-2, -40),  # zeroing, but slower: zeroing moves come first
            after["b2b4"]: (0, 0),
        }
    )
    move, score = T.probe_root(fake, board)
    assert move.uci() == "b2b3" and score == T.TB_WIN - 40
    # no pawn move winning: the fastest king move
    del fake.table[after["b2b3"]]
    move, _ = T.probe_root(fake, board)
    assert move.uci() == "a1b1"
    # castling rights or missing tables: no answer
    assert T.probe_root(fake, chess.Board()) is None

    class Missing(FakeTablebase):
        def probe_wdl(self, board):
            raise chess.syzygy.MissingTableError("no table")

    assert T.probe_root(Missing({}), board) is None
