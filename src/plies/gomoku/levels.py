"""The Gomoku engine at a playing level (:mod:`plies.search.levels`): a search at the level's
nodes and lines, then the level's choice; a blunder is a random legal cell next to the stones
(a beginner's move that ignores the threats on the board)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from plies.gomoku.board import Board
from plies.gomoku.engine import Engine, SearchResult
from plies.gomoku.notation import Move
from plies.search.levels import choose, level

NEAR = 2  # a plausible cell is at most this far (king steps) from a stone


@dataclass
class LevelMove:
    """The move chosen, the search it came from, whether it was a blunder, and the engine's
    score and line of the move chosen (None and ``[move]`` for a blunder)."""

    move: Move
    result: SearchResult
    blundered: bool
    score: int | None
    pv: list[Move]


def nearby_moves(board: Board, distance: int = NEAR) -> list[Move]:
    """The legal cells within ``distance`` of a stone (the centre on an empty board)."""
    if not board.history:
        return [Move(board.width // 2, board.height // 2)]
    stones = board.history
    return [
        m
        for m in board.moves()
        if any(max(abs(m.x - s.x), abs(m.y - s.y)) <= distance for s in stones)
    ]


def level_move(engine: Engine, board: Board, number: int, rng: random.Random) -> LevelMove:
    """The move of level ``number`` in ``board`` (which must not be over)."""
    lvl = level(number)
    result = engine.search(board, nodes=lvl.nodes, multipv=lvl.multipv)
    lines = [(line.move, line.score) for line in result.lines] or [(result.move, result.score)]
    move, blundered = choose(lines, nearby_moves(board), lvl, rng)
    if blundered:
        return LevelMove(move, result, True, None, [move])
    line = next((ln for ln in result.lines if ln.move == move), None)
    if line is None:
        return LevelMove(move, result, False, result.score, list(result.pv))
    return LevelMove(move, result, False, line.score, list(line.pv))
