"""Single-thread nodes per second of the chess search after warm-up (median of runs).

PYTHONPATH=src python benchmarks/chess_nps.py [--seconds 2] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics

import chess

from plies.chess.engine.api import Engine

POSITIONS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n2n2/3p4/3P4/2NB1N2/PP3PPP/R1BQ1RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    engine = Engine(hash_mb=64)
    engine.search(chess.Board(), depth=6)  # warm-up
    rates = []
    for _ in range(args.runs):
        for fen in POSITIONS:
            engine.new_game()
            r = engine.search(chess.Board(fen), movetime=args.seconds)
            rates.append(r.nps)
            print(f"{r.nps:>10,} nodes/s  depth {r.depth:>2}  {fen}")
    print(f"median {statistics.median(rates):,.0f} nodes/s over {len(rates)} searches")


if __name__ == "__main__":
    main()
