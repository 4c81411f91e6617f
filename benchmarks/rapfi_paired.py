"""Two versions of plies against the same peer on the same openings, compared opening by opening.

``benchmarks/vs_rapfi.py --games-out`` writes one game a line, the openings in file order with
both colours (game 2k and 2k+1 play opening k). Given two such files (version A's match and
version B's, the same openings), this prints each version's score over the openings both
finished and the paired difference: for every opening, A's points in its two games less B's,
their mean with its standard error and z. Pairing removes most of the openings' own
variance (some openings are won by whoever moves second), so it decides sooner than the two
scores compared alone.

    python benchmarks/rapfi_paired.py A-games.jsonl[.gz] B-games.jsonl[.gz] [--name plies]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from plies.errors import InvalidOption
from plies.tune.gomoku_annotate import arena_games


def points(game: dict, name: str) -> float:
    """``name``'s points in a game record (``winner``: the index of the winning colour)."""
    winner = game.get("winner")
    if winner not in (0, 1):
        return 0.5
    return 1.0 if game["names"][winner] == name else 0.0


def pair_points(games: list[dict], name: str) -> list[float]:
    """``name``'s points per opening (two games each), for the complete pairs only."""
    return [
        points(games[i], name) + points(games[i + 1], name) for i in range(0, len(games) - 1, 2)
    ]


def compare(a: list[dict], b: list[dict], name: str = "plies") -> dict:
    """Scores over the openings both matches finished, and the paired difference A - B."""
    pa, pb = pair_points(a, name), pair_points(b, name)
    n = min(len(pa), len(pb))
    pa, pb = pa[:n], pb[:n]
    diff = [x - y for x, y in zip(pa, pb, strict=True)]
    mean = sum(diff) / n if n else 0.0
    var = sum((d - mean) ** 2 for d in diff) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n) if n else 0.0
    return {
        "openings": n,
        "score_a": sum(pa) / (2 * n) if n else 0.0,
        "score_b": sum(pb) / (2 * n) if n else 0.0,
        "better": sum(d > 0 for d in diff),
        "worse": sum(d < 0 for d in diff),
        "same": sum(d == 0 for d in diff),
        "mean_gain_per_pair": mean,
        "se": se,
        "z": mean / se if se else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="version A's games file")
    parser.add_argument("b", help="version B's games file")
    parser.add_argument("--name", default="plies", help="the version's name in the records")
    args = parser.parse_args(argv)
    for path in (args.a, args.b):
        if not Path(path).is_file():
            print(f"error: no games file {path}", file=sys.stderr)
            return 2
    try:
        r = compare(arena_games(args.a), arena_games(args.b), args.name)
    except InvalidOption as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (KeyError, IndexError):
        print("error: a game record without its two names or a winner index", file=sys.stderr)
        return 2
    print(
        f"{r['openings']} openings: A {100 * r['score_a']:.1f}%, B {100 * r['score_b']:.1f}%; "
        f"A better in {r['better']}, worse in {r['worse']}, the same in {r['same']}; "
        f"mean gain {r['mean_gain_per_pair']:+.3f} +- {r['se']:.3f} a pair, z {r['z']:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
