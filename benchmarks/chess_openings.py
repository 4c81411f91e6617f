"""Balanced random chess openings for fixed-node self-play matches (an EPD file for
``plies match --openings``).

    python benchmarks/chess_openings.py --count 400 --out openings.epd [--nodes 20000]
                                        [--balance 80] [--plies 8] [--seed 1000000]

Each is 2 to ``--plies`` uniformly random plies from the start position, kept when the
engine's search at ``--nodes`` scores it within ``--balance`` centipawns
(``plies.tune.chess_data.balanced_opening``, the openings of ``plies train chess``'s games;
the default seeds start far from the training games' seeds). With fixed nodes and one
thread a game is determined by its opening and colours, so a self-play match needs as many
distinct openings as game pairs: the 24 of ``benchmarks/data/chess/openings.pgn`` give only 48
distinct games.
"""

from __future__ import annotations

import argparse

from plies.tune.chess_data import ChessSelfPlay, balanced_opening


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--balance", type=int, default=80)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1_000_000)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    settings = ChessSelfPlay(nodes=args.nodes, random_moves=args.plies, balance=args.balance)
    settings.check()
    seen: set[str] = set()
    seed = args.seed
    with open(args.out, "w") as f:
        while len(seen) < args.count:
            board = balanced_opening(settings, seed)
            seed += 1
            epd = board.epd()
            if epd not in seen:
                seen.add(epd)
                f.write(epd + "\n")


if __name__ == "__main__":
    main()
