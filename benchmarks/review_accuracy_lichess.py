"""The review's accuracy figure against lichess's published formula, on chess games reviewed at
a fixed node budget (deterministic).

Both use the review's one series of values (the win probability before each move is the value
of the position, after it the value of the next position), so only the formulas differ:

* plies: the engine's sigmoid ``1 / (1 + exp(-cp / 250))`` (mates 1 and 0), per move
  ``103.1668 * exp(-4.354 * loss) - 3.1669`` on the 0..1 loss, per player the mean of the
  arithmetic and the harmonic mean (each at least 1 in the harmonic mean); book moves and moves
  in proven-lost positions left out;
* lichess: win% ``50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)`` (mates as +-1000 cp), per
  move ``103.1668 * exp(-0.04354 * (winBefore - winAfter)) - 3.1669`` on win% 0..100 (clipped
  to 0..100), per player the mean of a volatility-weighted mean (each move weighted by the
  standard deviation of the win% over its window, window = moves / 10 clamped to 2..8, weight
  clamped to 0.5..12) and the harmonic mean of the move accuracies (each at least 1 here, as
  in plies); every move counts.

    PYTHONPATH=src python benchmarks/review_accuracy_lichess.py [--nodes 20000]
"""

from __future__ import annotations

import argparse
import math
import statistics

import chess
import chess.pgn

from plies.analysis.chess import load_pgn, review_game
from plies.analysis.review import Budget
from plies.chess.engine.api import Engine

GAMES = {
    "scholar": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
    "opera": (
        "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 "
        "8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 "
        "14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0"
    ),
}


def self_play(opening: str, plies: int, nodes: int) -> chess.pgn.Game:
    board = chess.Board()
    for san in opening.split():
        board.push_san(san)
    engine = Engine(hash_mb=16)
    while not board.is_game_over() and len(board.move_stack) < plies:
        engine.new_game()
        board.push(engine.search(board, nodes=nodes).move)
    return chess.pgn.Game.from_board(board)


def lichess_win(cp: float) -> float:
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def lichess_move_accuracy(before: float, after: float) -> float:
    value = 103.1668 * math.exp(-0.04354 * max(0.0, before - after)) - 3.1669
    return max(0.0, min(100.0, value))


def _cp(score: int) -> float:
    return max(-1000.0, min(1000.0, float(score)))  # a mate score as +-1000 cp


def lichess_accuracy(review) -> dict[str, float]:
    """lichess's game accuracy per colour, from the review's one series of values."""
    moves = review.moves
    # White's win% at every position: before each move, and after the last one
    series = []
    for m in moves:
        w = lichess_win(_cp(m.score_before))
        series.append(w if m.player == "white" else 100 - w)
    last = moves[-1]
    w = lichess_win(_cp(last.score_after))
    series.append(w if last.player == "white" else 100 - w)
    size = max(2, min(8, len(series) // 10))
    windows = [series[:size]] * max(0, min(size, len(series)) - 2)
    windows += [series[i : i + size] for i in range(0, len(series) - size + 1)]
    weights = [max(0.5, min(12.0, statistics.pstdev(w))) for w in windows]
    out = {}
    for colour in ("white", "black"):
        acc, wts = [], []
        for k, m in enumerate(moves):
            if m.player != colour:
                continue
            before, after = series[k], series[k + 1]
            if colour == "black":
                before, after = 100 - before, 100 - after
            acc.append(lichess_move_accuracy(before, after))
            wts.append(weights[min(k, len(weights) - 1)])
        if not acc:
            continue
        weighted = sum(a * w for a, w in zip(acc, wts, strict=True)) / sum(wts)
        harmonic = len(acc) / sum(1 / max(a, 1.0) for a in acc)  # as plies: at least 1
        out[colour] = (weighted + harmonic) / 2
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20000)
    args = parser.parse_args()
    games = {name: load_pgn(text=pgn) for name, pgn in GAMES.items()}
    games["selfplay"] = self_play("e4 e5 Nf3 Nc6 Bb5 a6", 60, 300)
    for name, game in games.items():
        review = review_game(game, Budget(nodes=args.nodes))
        ours = {c: s["accuracy"] for c, s in review.summary.players.items()}
        theirs = lichess_accuracy(review)
        print(
            f"{name:9s} {len(review.moves):3d} plies  plies: white {ours['white']:5.1f} "
            f"black {ours['black']:5.1f}   lichess: white {theirs['white']:5.1f} "
            f"black {theirs['black']:5.1f}"
        )


if __name__ == "__main__":
    main()
