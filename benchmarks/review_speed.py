"""Time a review: a 60-move game at 0.5 s per position (the issue's target: under 40 s on
2 cores), or any record file given.

    PYTHONPATH=src python benchmarks/review_speed.py [--movetime 0.5] [--workers 2] [FILE]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from plies.analysis.gomoku import review_record
from plies.analysis.review import Budget
from plies.gomoku import Board
from plies.gomoku.records import GameRecord, load_record


def sixty_move_game() -> GameRecord:
    """60 moves on a 15x15 freestyle board, on the cells two apart (seeded order): no move is
    next to another, so nobody wins, yet every position is full of broken shapes for the
    search and the solvers. Review time is bound by the per-position budget, not the play."""
    cells = [(x, y) for y in range(0, 15, 2) for x in range(0, 15, 2)]
    random.Random(6).shuffle(cells)
    board = Board(15, "freestyle")
    board.play_moves(cells[:60])
    return GameRecord.from_board(board)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", nargs="?")
    parser.add_argument("--movetime", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    record = load_record(args.file) if args.file else sixty_move_game()
    budget = Budget(movetime=args.movetime, solver_time=args.movetime / 4)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    review = review_record(record, budget, workers=args.workers)
    elapsed = time.perf_counter() - start
    counts: dict[str, int] = {}
    for m in review.moves:
        counts[m.classification] = counts.get(m.classification, 0) + 1
    print(f"{len(record.moves)} moves, {args.movetime} s per position, {args.workers} workers")
    print(f"review took {elapsed:.1f} s (load average before: {load:.2f})")
    print("classes:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
