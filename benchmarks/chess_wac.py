"""Win At Chess: how many of the 300 positions the engine solves at a fixed time per position.

    PYTHONPATH=src python benchmarks/chess_wac.py [--movetime 1.0] [--threads 1] [--limit N]

A position counts as solved when the engine's move is one of the ``bm`` moves (SAN in the EPD);
``am`` (avoid) moves count as failures. Prints the failures and the total.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import chess

from plies.chess.engine.api import Engine

WAC = Path(__file__).resolve().parent / "data" / "chess" / "wac.epd"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--movetime", type=float, default=1.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=float, default=64)
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    engine = Engine(hash_mb=args.hash, threads=args.threads)
    solved = total = 0
    start = time.perf_counter()
    for line in WAC.read_text().splitlines()[: args.limit]:
        if not line.strip():
            continue
        board, ops = chess.Board.from_epd(line)
        engine.new_game()
        r = engine.search(board, movetime=args.movetime)
        good = r.move in ops.get("bm", []) if "bm" in ops else r.move not in ops.get("am", [])
        total += 1
        solved += good
        if not good:
            print(f"{ops.get('id')}: played {board.san(r.move)} ({r.score_text}, depth {r.depth})")
    print(f"solved {solved}/{total} at {args.movetime}s ({time.perf_counter() - start:.0f}s)")


if __name__ == "__main__":
    main()
