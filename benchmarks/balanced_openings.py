"""Balanced random openings for fixed-node self-play matches (an offset file, docs/arena.md).

    python benchmarks/balanced_openings.py --rule freestyle --count 400 --out openings.txt

Random openings of 3-4 stones in the central 7x7 (seeded), kept only when the engine's search
at ``--nodes`` scores them within ``--balance`` centi-units for the side to move: random stones
usually hand one side a won game (black wins about 80% of unfiltered freestyle ones), which
makes most game pairs of a match split 1-1 and tells nothing.
"""

from __future__ import annotations

import argparse
import random

from plies.gomoku import Board
from plies.gomoku.engine import Engine
from plies.tune.gomoku_data import random_opening


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--nodes", type=int, default=50000)
    ap.add_argument("--balance", type=int, default=120)
    ap.add_argument("--seed", type=int, default=900000)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    engine = Engine(args.rule, args.size, hash_mb=16, params={"EVAL": "classic"})
    lines: list[str] = []
    seed = args.seed
    c = args.size // 2
    while len(lines) < args.count:
        rng = random.Random(seed)
        seed += 1
        board = Board(args.size, args.rule, forbidden="loses")
        random_opening(board, rng, rng.randint(3, 4))
        if board.is_over:
            continue
        engine.new_game()
        if abs(engine.search(board, nodes=args.nodes).score) > args.balance:
            continue
        lines.append(" ".join(f"{m.x - c},{m.y - c}" for m in board.history))
    with open(args.out, "w") as f:
        f.write(f"# {args.count} {args.rule} openings within {args.balance}")
        f.write(f" at {args.nodes} nodes\n")
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} openings from {seed - args.seed} tries -> {args.out}")


if __name__ == "__main__":
    main()
