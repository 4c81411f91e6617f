"""``plies play``: a game in the terminal, human against engine or engine against engine."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from plies.errors import InvalidMove
from plies.gomoku.board import Board
from plies.gomoku.engine import Engine, SearchResult
from plies.gomoku.levels import level_move
from plies.gomoku.notation import Move

HELP = (
    "moves: h8 or 7,7   commands: undo (take back your last move), hint, pass the turn to the "
    "engine with 'go', quit"
)


@dataclass
class PlayLimits:
    """How long the engine thinks per move."""

    movetime: float | None = 1.0
    depth: int | None = None
    nodes: int | None = None
    level: int | None = None  # a playing level (plies.search.levels) instead of the limits
    seed: int | None = None  # the level's choices, repeatable


def engine_line(board: Board, result: SearchResult) -> str:
    """One line describing an engine move: move, score, depth, nodes, PV."""
    pv = " ".join(m.algebraic(board.height) for m in result.pv[:8])
    return (
        f"{result.move.algebraic(board.height) if result.move else '-'}  "
        f"score {result.score_text} ({result.win_probability:.0%})  depth {result.depth}/"
        f"{result.seldepth}  {result.nodes} nodes  {result.nps} nodes/s  {result.time:.2f} s  "
        f"pv {pv}"
    )


def play_game(
    board: Board,
    engine: Engine,
    engine_colors: set[int],
    limits: PlayLimits,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    show: Callable[[Board], None],
) -> Board:
    """Play until the game ends or the human quits; returns the final board.

    ``engine_colors`` holds the colours the engine plays (1 black, 2 white); ``ask`` reads a
    human's line, ``say`` prints a line, ``show`` prints the board.
    """
    rng = random.Random(limits.seed)
    show(board)
    while not board.is_over:
        if board.to_move in engine_colors and limits.level is not None:
            chosen = level_move(engine, board, limits.level, rng)
            board.play(chosen.move)
            say(f"{chosen.move.algebraic(board.height)}  (level {limits.level})")
            show(board)
            continue
        if board.to_move in engine_colors:
            result = engine.search(
                board, depth=limits.depth, nodes=limits.nodes, movetime=limits.movetime
            )
            board.play(result.move)
            say(engine_line(board, result))
            show(board)
            continue
        text = ask("your move: ").strip().lower()
        if text in ("quit", "exit", "q"):
            break
        if text in ("help", "?"):
            say(HELP)
            continue
        if text == "undo":
            # take back the engine's reply and the human's move
            taken = [
                board.undo().algebraic(board.height)
                for _ in range(min(len(board), 2 if engine_colors else 1))
            ]
            if not taken:
                say("nothing to take back")
                continue
            say(f"took back {' and '.join(taken)}")
            show(board)
            continue
        if text == "hint":
            result = engine.search(board, movetime=limits.movetime or 1.0)
            say("hint: " + engine_line(board, result))
            continue
        if text == "go":
            engine_colors = engine_colors | {board.to_move}
            continue
        try:
            move: Move = board.play(text)
        except InvalidMove as exc:
            say(f"error: {exc}")
            continue
        say(f"you played {move.algebraic(board.height)}")
        show(board)
    return board
