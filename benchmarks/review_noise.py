"""How far apart two searches of one position are, by budget: the noise a review's verdict
must allow for (issue 19, docs/review.md "Quality").

    PYTHONPATH=src python benchmarks/review_noise.py [--positions 60] [--rule freestyle]
        [--budgets 2000,4000,8000,20000,50000] [--ref-factor 10] [--multipv 3] [--json OUT]
    PYTHONPATH=src python benchmarks/review_noise.py --game chess [--budgets 10000,30000,100000]

Positions: every fourth position after the random opening of seeded self-play games (8,000
nodes a move); for chess, every fourth position from ply 12 of self-play games (20,000 nodes
a move) from the balanced openings of benchmarks/data/chess/openings.pgn. For each budget,
the position is searched from a fresh table at the budget
(MultiPV as the review searches) and at ``--ref-factor`` times it; the difference of the two
top lines' win probabilities is the budget's error against a deeper search. Printed per budget:
the median and 90th percentile of the absolute error, its robust standard deviation (1.4826 x
median absolute deviation) and the mean nodes searched. Positions whose reference score is a
proven win or loss are left out (the review's proofs decide those).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from plies.gomoku import Board, Move  # noqa: E402
from plies.gomoku.engine import Engine  # noqa: E402
from plies.gomoku.engine.api import win_probability  # noqa: E402
from plies.gomoku.engine.search import WIN_BOUND  # noqa: E402
from plies.tune.gomoku_data import SelfPlaySettings, play_game  # noqa: E402


def positions(rule: str, count: int, seed: int) -> list[Board]:
    """``count`` positions from seeded self-play games (every fourth engine move)."""
    out: list[Board] = []
    settings = SelfPlaySettings(rule=rule, size=15, nodes=8000)
    game = 0
    while len(out) < count:
        record = play_game(settings, seed + game)
        game += 1
        moves = [Move(*map(int, m.split(","))) for m in record["moves"]]
        for ply in range(record["opening"] + 1, len(moves) - 2, 4):
            board = Board(15, rule, forbidden="loses")
            board.play_moves(moves[:ply])
            out.append(board)
            if len(out) == count:
                break
    return out


def chess_positions(count: int) -> list:
    """``count`` chess positions: self-play at 20,000 nodes a move from the balanced openings,
    every fourth position from ply 12 to ply 80 (the game's end, or a mate score, ends it)."""
    import chess.pgn

    from plies.chess.engine.api import Engine as ChessEngine
    from plies.chess.engine.search import MATE_BOUND

    engine = ChessEngine(hash_mb=16)
    path = Path(__file__).resolve().parent / "data" / "chess" / "openings.pgn"
    out: list = []
    with open(path) as f:
        while len(out) < count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.end().board()
            engine.new_game()
            while len(out) < count and board.ply() < 80 and not board.is_game_over():
                result = engine.search(board, nodes=20000)
                if abs(result.score) > MATE_BOUND:
                    break
                board.push(result.move)
                if board.ply() >= 12 and board.ply() % 4 == 0 and not board.is_game_over():
                    out.append(board.copy())
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--game", default="gomoku", choices=["gomoku", "chess"])
    ap.add_argument("--rule", default="freestyle", choices=["freestyle", "standard", "renju"])
    ap.add_argument("--budgets", default="2000,4000,8000,20000,50000")
    ap.add_argument("--ref-factor", type=int, default=10)
    ap.add_argument("--multipv", type=int, default=3)
    ap.add_argument("--seed", type=int, default=500)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if args.game == "chess":
        from plies.chess.engine.api import Engine as ChessEngine
        from plies.chess.engine.api import win_probability as chess_wp
        from plies.chess.engine.search import MATE_BOUND

        boards = chess_positions(args.positions)
        engine, wp, bound = ChessEngine(hash_mb=32), chess_wp, MATE_BOUND
    else:
        boards = positions(args.rule, args.positions, args.seed)
        engine, wp, bound = Engine(args.rule, 15, hash_mb=32), win_probability, WIN_BOUND
    report = {"settings": vars(args), "budgets": {}}
    for budget in (int(b) for b in args.budgets.split(",")):
        errors, nodes = [], []
        for board in boards:
            engine.new_game()
            low = engine.search(board, nodes=budget, multipv=args.multipv)
            engine.new_game()
            ref = engine.search(board, nodes=budget * args.ref_factor, multipv=args.multipv)
            if abs(ref.score) > bound or abs(low.score) > bound:
                continue
            errors.append(wp(low.score) - wp(ref.score))
            nodes.append(low.nodes)
        if not errors:
            continue
        absolute = sorted(abs(e) for e in errors)
        med = statistics.median(errors)
        mad = statistics.median(abs(e - med) for e in errors)
        row = {
            "positions": len(errors),
            "median_abs": round(statistics.median(absolute), 4),
            "p90_abs": round(absolute[int(0.9 * (len(absolute) - 1))], 4),
            "robust_sd": round(1.4826 * mad, 4),
            "mean_nodes": int(statistics.mean(nodes)),
        }
        report["budgets"][budget] = row
        print(f"{budget:>7} nodes: {row}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
