"""Depth reached within a node budget on the bench positions (one thread, cleared table).

    python benchmarks/depth.py [--nodes 500000] [--off FEATURE ...] [--param NAME=VALUE ...]

Nodes, unlike seconds, are not disturbed by other work on the machine, so this is the
repeatable way to compare how deep two versions or settings of the search get.
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
    ap.add_argument("--nodes", type=int, default=500_000)
    ap.add_argument("--off", nargs="*", default=[], help="search features to switch off")
    ap.add_argument("--param", nargs="*", default=[], help="NAME=VALUE engine parameters")
    args = ap.parse_args()
    features = {name: False for name in args.off}
    params = parse_params(args.param)
    engines: dict[tuple[str, int], Engine] = {}
    depths = []
    for rule, size, moves in bench_positions():
        engine = engines.get((rule, size))
        if engine is None:
            engine = Engine(rule, size, hash_mb=64, features=features, params=params or None)
            engines[(rule, size)] = engine
        engine.new_game()
        result = engine.search(Board.from_moves(moves, size, rule), nodes=args.nodes)
        depths.append(result.depth)
        print(
            f"{rule:9} {size:2} {len(moves):2} stones  depth {result.depth:2}  "
            f"seldepth {result.seldepth:2}  score {result.score_text:>12}  "
            f"move {result.move}  {result.nodes} nodes"
        )
    print(f"median depth {statistics.median(depths)}: {' '.join(map(str, depths))}")


if __name__ == "__main__":
    main()
