"""Win At Chess: how many of the 300 positions the engine solves at a fixed time per position.

    PYTHONPATH=src python benchmarks/chess_wac.py [--movetime 1.0] [--threads 1] [--limit N]
    PYTHONPATH=src python benchmarks/chess_wac.py --nodes 400000   # load-independent

With ``--nodes`` each position gets a fixed node budget instead of a time (one thread: the
result is deterministic and does not depend on how busy the machine is).

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
    ap.add_argument("--nodes", type=int, default=None, help="node budget instead of a time")
    ap.add_argument("--off", action="append", default=[], help="search feature to switch off")
    args = ap.parse_args()
    features = {name: False for name in args.off}
    engine = Engine(hash_mb=args.hash, threads=args.threads, features=features)
    solved = total = 0
    start = time.perf_counter()
    for line in WAC.read_text().splitlines()[: args.limit]:
        if not line.strip():
            continue
        board, ops = chess.Board.from_epd(line)
        engine.new_game()
        if args.nodes:
            r = engine.search(board, nodes=args.nodes)
        else:
            r = engine.search(board, movetime=args.movetime)
        good = r.move in ops.get("bm", []) if "bm" in ops else r.move not in ops.get("am", [])
        total += 1
        solved += good
        if not good:
            print(f"{ops.get('id')}: played {board.san(r.move)} ({r.score_text}, depth {r.depth})")
    budget = f"{args.nodes} nodes" if args.nodes else f"{args.movetime}s"
    print(f"solved {solved}/{total} at {budget} ({time.perf_counter() - start:.0f}s)")


if __name__ == "__main__":
    main()
