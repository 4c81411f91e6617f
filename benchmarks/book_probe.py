"""How long an opening-book probe takes (docs/openings.md): positions along random book lines
(seeded) and one step beyond them (misses), each probed ``--repeat`` times.

    python benchmarks/book_probe.py [--book FILE | --rule freestyle --size 15] [--lines 200]

Prints the mean and the slowest probe in microseconds (CPU time of this process), for hits
(positions in the book) and misses separately.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from plies.gomoku.board import Board
from plies.gomoku.book import Book, shipped_book
from plies.gomoku.opening_rule import default_opening


def timed(book: Book, board: Board, repeat: int) -> float:
    t0 = time.process_time()
    for _ in range(repeat):
        book.probe(board)
    return (time.process_time() - t0) / repeat * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--book", help="A book file (default: the one shipped for --rule/--size).")
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--lines", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    path = args.book or shipped_book(args.rule, args.size, args.size, default_opening(args.rule))
    if path is None:
        raise SystemExit(f"no book ships for {args.rule} {args.size}")
    book = Book(path)
    rng = random.Random(args.seed)
    hits: list[float] = []
    misses: list[float] = []
    for _ in range(args.lines):
        board = Board(width=book.width, height=book.height, rule=book.rule, opening=book.opening)
        while True:
            moves = book.probe(board)
            (hits if moves else misses).append(timed(book, board, args.repeat))
            if not moves:
                break
            board.play(rng.choice(moves).move)
    print(f"{book.path.name}: {book.describe()}, {book.stats()['positions']} positions")
    for name, values in (("hit", hits), ("miss", misses)):
        if values:
            print(
                f"{name:>4}: {len(values)} positions, mean {statistics.mean(values):.0f} us, "
                f"median {statistics.median(values):.0f} us, max {max(values):.0f} us"
            )


if __name__ == "__main__":
    main()
