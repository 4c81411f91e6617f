"""CPU time of a chess review, Chess960 against standard chess: one game of each, played by
the engine against itself at a fixed node count (deterministic), then reviewed in this process
(one worker, no cache) at ``--nodes`` per position. ``--game 518`` is the standard game
replayed on a ``chess960=True`` board (position 518 is the standard start): the same positions
through the Chess960 path, so its nodes and verdicts must equal ``--game standard``'s. Run it
in separate processes, alternating the games, and compare the medians.

    PYTHONPATH=src python benchmarks/chess960_review.py --game 960 [--nodes 20000] [--plies 60]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import chess
import chess.pgn

from plies.analysis.chess import review_game
from plies.analysis.review import Budget
from plies.chess.engine.api import Engine

START_960 = "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"  # Chess960 position 4


def self_play(board: chess.Board, plies: int, nodes: int = 2000) -> chess.pgn.Game:
    """``plies`` moves (fewer if the game ends) of the engine at ``nodes`` per move."""
    engine = Engine(hash_mb=16)
    start = board.copy()
    while len(board.move_stack) < plies and not board.is_game_over(claim_draw=True):
        engine.new_game()
        board.push(engine.search(board, nodes=nodes).move)
    game = chess.pgn.Game.from_board(board)
    assert game.board().fen() == start.fen()
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=("960", "518", "standard"), default="960")
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--plies", type=int, default=60)
    args = parser.parse_args()
    board = chess.Board(START_960, chess960=True) if args.game == "960" else chess.Board()
    game = self_play(board, args.plies)
    if args.game == "518":
        standard, replay = chess.Board(), chess.Board(chess960=True)
        for move in game.mainline_moves():
            replay.push_san(standard.san(move))
            standard.push(move)
        game = chess.pgn.Game.from_board(replay)
        assert game.headers["Variant"] == "Chess960" and game.board().chess960
    review_game(game, Budget(nodes=1000))  # compile / load the kernels outside the timing
    t0 = time.process_time()
    review = review_game(game, Budget(nodes=args.nodes))
    cpu = time.process_time() - t0
    castles = [m.move for m in review.moves if m.move.startswith("O-O")]
    verdicts = "".join(m.classification[0] for m in review.moves)
    digest = hashlib.sha256(json.dumps([m.to_dict() for m in review.moves]).encode()).hexdigest()
    print(
        f"{args.game}: {len(review.moves)} moves, {cpu:.2f} s CPU "
        f"({1000 * cpu / (len(review.moves) + 1):.0f} ms per position), rule "
        f"{review.game['rule']}, castling {castles}, verdicts {verdicts} (sha256 {digest[:8]})"
    )


if __name__ == "__main__":
    main()
