"""Effect of each chess search feature on the tree: total nodes to a fixed depth over the bench
positions with the feature switched off (deterministic, one thread), against all on.

    PYTHONPATH=src python benchmarks/chess_features.py [--depth 9]

Fewer nodes to the same depth is not by itself strength (a pruning can cut the wrong moves);
the Win At Chess script and self-play in the arena measure that.
"""

from __future__ import annotations

import argparse

import chess

from plies.chess.engine.api import Engine
from plies.chess.engine.bench import BENCH_FENS
from plies.chess.engine.search import FEATURE_NAMES


def total_nodes(depth: int, off: str | None) -> tuple[int, list[str]]:
    engine = Engine(hash_mb=16, features={off: False} if off else None)
    nodes = 0
    moves = []
    for fen in BENCH_FENS:
        engine.new_game()
        r = engine.search(chess.Board(fen), depth=depth)
        nodes += r.nodes
        moves.append(r.move.uci())
    return nodes, moves


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=9)
    args = ap.parse_args()
    base, base_moves = total_nodes(args.depth, None)
    print(f"{'all on':<18} {base:>12,} nodes")
    for name in FEATURE_NAMES:
        if name in ("qsearch",):
            continue
        n, moves = total_nodes(args.depth, name)
        same = sum(a == b for a, b in zip(moves, base_moves, strict=True))
        ratio = n / base
        print(f"{name + ' off':<18} {n:>12,} nodes  x{ratio:6.2f}  same move {same}/{len(moves)}")


if __name__ == "__main__":
    main()
