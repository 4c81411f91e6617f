"""Self-play between two configurations of the Gomoku engine (in-process, one game at a time).

    python benchmarks/selfplay.py --rule freestyle --movetime 0.1 --b-off null_move
    python benchmarks/selfplay.py --movetime 0.1 --b-root-vct 0   # root VCT on (A) vs off (B)
    python benchmarks/selfplay.py --nodes 20000 --random-moves 2 --pairs 400 --b-off iir

Every opening of the 26 canonical Renju openings is played twice, colours swapped; with
``--random-moves K --pairs N``, N openings are drawn instead (a random one of the 26 plus K
seeded random moves in the central 7x7), each also played with both colours. Prints
W/D/L from engine A's side and an Elo estimate with a 95% interval (normal approximation on
the game scores). Used to measure each search change; results go to docs/engine.md. With
``--vct-stats``, also how often each engine's root VCT proved a win and its cost per move.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time

from plies.gomoku import Board
from plies.gomoku.engine.api import Engine
from plies.tune.gomoku_data import random_opening as add_random_stones

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
    stats: dict | None = None,
) -> float:
    """One game; returns A's score (1, 0.5, 0). ``stats[engine]`` collects the root VCT's
    figures of each of that engine's moves (``Engine.root_vct_stats``)."""
    board = Board.from_moves(opening, size, rule, forbidden="loses")
    a.new_game()
    b.new_game()
    while not board.is_over:
        black_to_move = board.to_move == 1
        engine = a if black_to_move == a_black else b
        result = engine.search(board, movetime=movetime, nodes=nodes)
        if stats is not None:
            stats.setdefault(engine, []).append(dict(engine.root_vct_stats, time=result.time))
        board.play(result.move)
    if board.winner == 0:
        return 0.5
    a_color = 1 if a_black else 2
    return 1.0 if board.winner == a_color else 0.0


def random_opening(
    rng: random.Random, rule: str, size: int, extra: int, bases: list[list[str]]
) -> list[str]:
    """One of ``bases`` plus ``extra`` random legal moves in the central 7x7 (fixed-node
    matches replay the same games from the same opening, so larger matches need more
    openings than the 26). The random moves come from the trainer's
    :func:`plies.tune.gomoku_data.random_opening` (session 9; before it, the same seed drew
    other moves)."""
    board = Board.from_moves(list(rng.choice(bases)), size, rule, forbidden="loses")
    add_random_stones(board, rng, extra)
    return [str(m) for m in board.history]


def parse_params(items: list[str]) -> dict:
    """``NAME=VALUE`` items (a value with commas is a list, a value that is no number stays a
    string, e.g. ``ORDER=path.npy``) into a parameter dict."""
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        number = float if "." in value else int
        try:
            out[name] = [int(v) for v in value.split(",")] if "," in value else number(value)
        except ValueError:
            out[name] = value
    return out


def make_engine(
    rule: str,
    size: int,
    off: list[str],
    params: list[str] | dict,
    threads: int = 1,
    root_vct: int | None = None,
) -> Engine:
    """An engine (16 MB table, ``threads`` search threads) with the features ``off`` switched
    off, the ``params`` set (``NAME=VALUE`` items or a dict) and ``root_vct`` (if given) as
    ROOT_VCT_SHARE."""
    p = dict(params) if isinstance(params, dict) else parse_params(params)
    if root_vct is not None:
        p["ROOT_VCT_SHARE"] = root_vct
    return Engine(
        rule,
        size,
        hash_mb=16,
        threads=threads,
        features={f: False for f in off},
        params=p,
    )


def vct_report(name: str, moves: list[dict]) -> str:
    """One line: moves that ran the root VCT, proofs, median CPU ms and df-pn nodes a move,
    and the longest search."""
    longest = f"longest search {max((m['time'] for m in moves), default=0):.3f} s"
    moves = [m for m in moves if "nodes" in m]
    if not moves:
        return f"{name}: root VCT never ran; {longest}"
    cpu = [1000 * m["cpu"] for m in moves]
    proved = sum(int(m["proved"]) for m in moves)
    rejected = sum(int(m.get("rejected", 0)) for m in moves)
    return (
        f"{name}: root VCT ran on {len(moves)} moves, proved {proved} ({rejected} lines "
        f"rejected), CPU ms a move median {statistics.median(cpu):.2f} "
        f"(90th pct {sorted(cpu)[int(0.9 * (len(cpu) - 1))]:.2f}, max {max(cpu):.2f}), "
        f"nodes median {statistics.median(m['nodes'] for m in moves):.0f}; {longest}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--movetime", type=float, default=None)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--openings", type=int, default=26)
    ap.add_argument(
        "--random-moves",
        type=int,
        default=0,
        help="add this many seeded random moves (central 7x7) to a random opening per pair",
    )
    ap.add_argument("--pairs", type=int, default=None, help="game pairs with --random-moves")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    ap.add_argument("--a-off", nargs="*", default=[], help="features off in engine A")
    ap.add_argument("--b-off", nargs="*", default=[], help="features off in engine B")
    ap.add_argument("--a-param", nargs="*", default=[], help="NAME=VALUE for engine A")
    ap.add_argument("--b-param", nargs="*", default=[], help="NAME=VALUE for engine B")
    ap.add_argument("--a-threads", type=int, default=1, help="search threads of engine A")
    ap.add_argument("--b-threads", type=int, default=1, help="search threads of engine B")
    ap.add_argument(
        "--a-root-vct", type=int, default=None, help="engine A's ROOT_VCT_SHARE (0: off)"
    )
    ap.add_argument(
        "--b-root-vct", type=int, default=None, help="engine B's ROOT_VCT_SHARE (0: off)"
    )
    ap.add_argument(
        "--vct-stats", action="store_true", help="report the root VCT's proofs and cost"
    )
    args = ap.parse_args()
    if args.random_moves < 0:
        ap.error(f"--random-moves must be 0 or more, not {args.random_moves}")
    if args.pairs is not None and (args.random_moves == 0 or args.pairs < 1):
        ap.error("--pairs needs --random-moves and at least one pair")
    if args.movetime is None and args.nodes is None:
        args.movetime = 0.1
    a = make_engine(args.rule, args.size, args.a_off, args.a_param, args.a_threads, args.a_root_vct)
    b = make_engine(args.rule, args.size, args.b_off, args.b_param, args.b_threads, args.b_root_vct)
    stats: dict | None = {} if args.vct_stats else None
    total = 0.0
    games = 0
    wins = draws = losses = 0
    start = time.time()
    openings = [o.split() for o in OPENINGS[: args.openings]]
    if args.random_moves > 0:
        rng = random.Random(args.seed)
        pairs = args.pairs if args.pairs is not None else args.openings
        openings = [
            random_opening(rng, args.rule, args.size, args.random_moves, openings)
            for _ in range(pairs)
        ]
    for opening in openings:
        for a_black in (True, False):
            s = play(
                a,
                b,
                opening,
                a_black,
                args.rule,
                args.size,
                args.movetime,
                args.nodes,
                stats,
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
    if stats is not None:
        print(vct_report("A", stats.get(a, [])))
        print(vct_report("B", stats.get(b, [])))


if __name__ == "__main__":
    main()
