"""Depth reached within a node budget (or a time) on the bench positions (cleared table).

    python benchmarks/depth.py [--nodes 500000 | --movetime 1.0] [--threads N]
                               [--off FEATURE ...] [--param NAME=VALUE ...]

Nodes, unlike seconds, are not disturbed by other work on the machine, so ``--nodes`` is the
repeatable way to compare how deep two versions or settings of the search get; ``--movetime``
is the issue's measure (depth in 1 s) and needs a quiet machine. Each line also gives the
share of the nodes spent in the horizon's VCF probes (``Engine.leaf_vcf_nodes``).
"""

from __future__ import annotations

import argparse
import statistics

from plies.gomoku import Board
from plies.gomoku.engine import Engine
from plies.gomoku.engine.bench import bench_positions


def parse_params(items: list[str]) -> dict:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name] = float(value) if "." in value else int(value)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=None, help="node budget (default 500000)")
    ap.add_argument("--movetime", type=float, default=None, help="seconds a position instead")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--off", nargs="*", default=[], help="search features to switch off")
    ap.add_argument("--param", nargs="*", default=[], help="NAME=VALUE engine parameters")
    args = ap.parse_args()
    if args.nodes is None and args.movetime is None:
        args.nodes = 500_000
    features = {name: False for name in args.off}
    params = parse_params(args.param)
    engines: dict[tuple[str, int], Engine] = {}
    depths = []
    speeds = []
    shares = []
    for rule, size, moves in bench_positions():
        engine = engines.get((rule, size))
        if engine is None:
            engine = Engine(
                rule,
                size,
                hash_mb=64,
                threads=args.threads,
                features=features,
                params=params or None,
            )
            engines[(rule, size)] = engine
            engine.search(Board.from_moves(moves[:3], size, rule), depth=4)  # load the kernels
        engine.new_game()
        board = Board.from_moves(moves, size, rule)
        result = engine.search(board, nodes=args.nodes, movetime=args.movetime)
        depths.append(result.depth)
        speeds.append(result.nps)
        share = engine.leaf_vcf_nodes / max(1, result.nodes)
        shares.append(share)
        print(
            f"{rule:9} {size:2} {len(moves):2} stones  depth {result.depth:2}  "
            f"seldepth {result.seldepth:2}  score {result.score_text:>12}  "
            f"move {result.move}  {result.nodes} nodes  leaf VCF {share:.0%}"
        )
    print(f"median depth {statistics.median(depths)}: {' '.join(map(str, depths))}")
    print(f"median nodes/s {statistics.median(speeds):.0f}")
    print(f"median share of the nodes in the horizon's VCF probes {statistics.median(shares):.0%}")


if __name__ == "__main__":
    main()
