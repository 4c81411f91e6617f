"""The chess engine at a playing level (:mod:`plies.search.levels`): a search at the level's
nodes and lines, then the level's choice; a blunder is a random legal move.

A random legal chess move loses material far more often than a random cell near the stones
loses a Gomoku game: with the shared table each chess level lost nearly every game to the next
(docs/serve.md). So chess scales the table's blunder probability and temperature down
(:data:`BLUNDER_SCALE`, :data:`TEMPERATURE_SCALE`)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import chess

from plies.chess.engine.api import Engine, SearchResult
from plies.search.levels import choose, level

BLUNDER_SCALE = 0.25
TEMPERATURE_SCALE = 0.5


@dataclass
class LevelMove:
    """The move chosen, the search it came from, whether it was a blunder, and the engine's
    score and line of the move chosen (None and ``[move]`` for a blunder)."""

    move: chess.Move
    result: SearchResult
    blundered: bool
    score: int | None
    pv: list[chess.Move]


def level_move(engine: Engine, board: chess.Board, number: int, rng: random.Random) -> LevelMove:
    """The move of level ``number`` in ``board`` (which must have a legal move)."""
    base = level(number)
    lvl = replace(
        base, blunder=base.blunder * BLUNDER_SCALE, temperature=base.temperature * TEMPERATURE_SCALE
    )
    result = engine.search(board, nodes=lvl.nodes, multipv=lvl.multipv)
    lines = [(line.move, line.score) for line in result.lines] or [(result.move, result.score)]
    move, blundered = choose(lines, list(board.legal_moves), lvl, rng)
    if blundered:
        return LevelMove(move, result, True, None, [move])
    line = next((ln for ln in result.lines if ln.move == move), None)
    if line is None:
        return LevelMove(move, result, False, result.score, list(result.pv))
    return LevelMove(move, result, False, line.score, list(line.pv))
