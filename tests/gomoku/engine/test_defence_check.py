"""The defence check (``DEFENCE_VCT_SHARE``): a root move after which the threat solver proves
a win for the opponent is excluded and the search goes on; its nodes come out of the search's
budget; a forced reply is never checked away; and a timed search keeps its deadline."""

from __future__ import annotations

from plies.gomoku import Board, Move
from plies.gomoku.engine.api import Engine

from .helpers import board_of

# freestyle, from a self-play game at 8,000 nodes a move (black to move): a 20,000-node search
# with the hand-written evaluation (NET off: the premise must not depend on the shipped net;
# session 46's net sees this trap by itself) prefers a move after which white has a 17-ply
# VCT (a slow threat the search's horizon misses), and a move that is not refuted exists
THREATENED = [
    (6, 9), (5, 9), (4, 4), (4, 10), (5, 8), (4, 7), (6, 8), (4, 8), (4, 9), (6, 7),
    (3, 7), (5, 7), (6, 6), (3, 9), (7, 7), (5, 5), (7, 8), (5, 10),
]  # fmt: skip
NODES = 20_000
CHECK = {"DEFENCE_VCT_SHARE": 20, "NET": "off"}


def opponent_wins(board: Board, move: Move, nodes: int = 100_000) -> bool:
    after = board.copy()
    after.play(move)
    return Engine(board.rule, 15, hash_mb=4).vct(after, max_nodes=nodes) is not None


def test_a_refuted_move_is_replaced_by_one_that_holds() -> None:
    board = board_of(THREATENED)
    engine = Engine("freestyle", 15, hash_mb=8, params=CHECK)
    result = engine.search(board, nodes=NODES)
    stats = engine.defence_stats
    assert stats["refuted"] >= 1 and stats["checks"] > stats["refuted"]
    # every refuted move really loses, and the move played is none of them
    refuted = [engine._to_move(p) for p in engine._refuted]
    assert len(refuted) == stats["refuted"] and result.move not in refuted
    for move in refuted:
        assert opponent_wins(board, move)
    assert not opponent_wins(board, result.move)
    assert result.pv[0] == result.move and board.is_legal(result.move)


def test_the_checks_nodes_come_out_of_the_node_budget() -> None:
    board = board_of(THREATENED)
    engine = Engine("freestyle", 15, hash_mb=8, params=CHECK)
    result = engine.search(board, nodes=NODES)
    assert engine.defence_stats["nodes"] > 0
    # the node limit is checked between nodes; the solvers stop at their own limits
    assert result.nodes <= NODES * 1.02


def test_a_forced_block_is_never_checked_away() -> None:
    # white (to move) must block black's four at (7, 11): the only move, checked or not
    moves = [(7, 7), (7, 6), (7, 8), (0, 0), (7, 9), (0, 2), (7, 10)]
    board = board_of(moves)
    engine = Engine("freestyle", 15, hash_mb=4, params=CHECK)
    result = engine.search(board, nodes=5_000)
    assert result.move == Move(7, 11)
    assert engine.defence_stats["checks"] == 0


def test_a_timed_search_with_the_check_keeps_its_deadline() -> None:
    board = board_of(THREATENED)
    engine = Engine("freestyle", 15, hash_mb=8, params=CHECK)
    result = engine.search(board, movetime=0.3)
    assert board.is_legal(result.move)
    assert result.time < 0.3 + 0.25  # the watchdogs stop the search and the solver


def test_a_refuted_move_is_not_played_when_time_runs_out_before_another(monkeypatch) -> None:
    board = board_of(THREATENED)
    engine = Engine("freestyle", 15, hash_mb=8, params=CHECK)
    engine.search(board, nodes=NODES)  # the gate opens here: checks run
    refuted = []

    def refute_then_stop(self, board, ctx, move, deadline):
        # the first checked move is refuted and the clock runs out at once after it
        if refuted:
            return False
        refuted.append(move)
        self._refuted.append(self._to_pos(move))
        self.stop_flag[0] = 1
        return True

    monkeypatch.setattr(Engine, "_refuted_by_threats", refute_then_stop)
    engine.new_game()
    result = engine.search(board, nodes=NODES)
    assert refuted and result.move is not None and result.move != refuted[0]
    assert board.is_legal(result.move) and result.pv == [result.move]
