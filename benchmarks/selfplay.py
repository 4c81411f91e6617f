"""Self-play between two configurations of the Gomoku engine (in-process, one game at a time).

    python benchmarks/selfplay.py --rule freestyle --movetime 0.1 --b-off null_move

Every opening of the 26 canonical Renju openings is played twice, colours swapped. Prints
W/D/L from engine A's side and an Elo estimate with a 95% interval (normal approximation on
the game scores). Used to measure each search change; results go to docs/engine.md.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from plies.gomoku import Board
from plies.gomoku.engine.api import Engine

OPENINGS = [
    "h8 h9 h10",
    "h8 h9 i10",
    "h8 h9 j10",
    "h8 h9 i9",
    "h8 h9 j9",
    "h8 h9 i8",
    "h8 h9 j8",
    "h8 h9 h7",
    "h8 h9 i7",
    "h8 h9 j7",
    "h8 h9 h6",
    "h8 h9 i6",
    "h8 h9 j6",
    "h8 i9 j10",
    "h8 i9 j9",
    "h8 i9 j8",
    "h8 i9 j7",
    "h8 i9 j6",
    "h8 i9 i8",
    "h8 i9 i7",
    "h8 i9 i6",
    "h8 i9 h7",
    "h8 i9 h6",
    "h8 i9 g7",
    "h8 i9 g6",
    "h8 i9 f6",
]


def elo(score: float, games: int) -> tuple[float, float]:
    """Elo difference and the half-width of its 95% interval from a mean score."""
    if games == 0:
        return 0.0, 0.0
    s = min(max(score, 1e-3), 1 - 1e-3)
    diff = -400 * math.log10(1 / s - 1)
    se = math.sqrt(s * (1 - s) / games)
    lo = min(max(s - 1.96 * se, 1e-3), 1 - 1e-3)
    hi = min(max(s + 1.96 * se, 1e-3), 1 - 1e-3)
    return diff, (-400 * math.log10(1 / hi - 1) + 400 * math.log10(1 / lo - 1)) / 2


def play(
    a: Engine,
    b: Engine,
    opening: list[str],
    a_black: bool,
    rule: str,
    size: int,
    movetime: float | None,
    nodes: int | None,
) -> float:
    """One game; returns A's score (1, 0.5, 0)."""
    board = Board.from_moves(opening, size, rule, forbidden="loses")
    a.new_game()
    b.new_game()
    while not board.is_over:
        black_to_move = board.to_move == 1
        engine = a if black_to_move == a_black else b
        result = engine.search(board, movetime=movetime, nodes=nodes)
        board.play(result.move)
    if board.winner == 0:
        return 0.5
    a_color = 1 if a_black else 2
    return 1.0 if board.winner == a_color else 0.0


def parse_params(items: list[str]) -> dict:
    """``NAME=VALUE`` items (a value with commas is a list) into a parameter dict."""
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        number = float if "." in value else int
        out[name] = [int(v) for v in value.split(",")] if "," in value else number(value)
    return out


def make_engine(
    rule: str, size: int, off: list[str], params: list[str], threads: int = 1
) -> Engine:
    """An engine (16 MB table, ``threads`` search threads) with the features ``off`` switched
    off and the ``NAME=VALUE`` ``params`` set."""
    return Engine(
        rule,
        size,
        hash_mb=16,
        threads=threads,
        features={f: False for f in off},
        params=parse_params(params),
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--movetime", type=float, default=None)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--openings", type=int, default=26)
    ap.add_argument("--a-off", nargs="*", default=[], help="features off in engine A")
    ap.add_argument("--b-off", nargs="*", default=[], help="features off in engine B")
    ap.add_argument("--a-param", nargs="*", default=[], help="NAME=VALUE for engine A")
    ap.add_argument("--b-param", nargs="*", default=[], help="NAME=VALUE for engine B")
    ap.add_argument("--a-threads", type=int, default=1, help="search threads of engine A")
    ap.add_argument("--b-threads", type=int, default=1, help="search threads of engine B")
    args = ap.parse_args()
    if args.movetime is None and args.nodes is None:
        args.movetime = 0.1
    a = make_engine(args.rule, args.size, args.a_off, args.a_param, args.a_threads)
    b = make_engine(args.rule, args.size, args.b_off, args.b_param, args.b_threads)
    total = 0.0
    games = 0
    wins = draws = losses = 0
    start = time.time()
    for opening in OPENINGS[: args.openings]:
        for a_black in (True, False):
            s = play(
                a, b, opening.split(), a_black, args.rule, args.size, args.movetime, args.nodes
            )
            total += s
            games += 1
            wins += s == 1.0
            draws += s == 0.5
            losses += s == 0.0
            d, err = elo(total / games, games)
            print(
                f"\r{games} games  A: +{wins} ={draws} -{losses}  elo {d:+.0f} +- {err:.0f}  "
                f"({time.time() - start:.0f}s)",
                end="",
                file=sys.stderr,
                flush=True,
            )
    d, err = elo(total / games, games)
    print(
        f"\nA vs B, {args.rule} {args.size}x{args.size}, movetime={args.movetime} "
        f"nodes={args.nodes}: {games} games +{wins} ={draws} -{losses}, "
        f"elo {d:+.0f} +- {err:.0f}"
    )


if __name__ == "__main__":
    main()
