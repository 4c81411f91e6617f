"""Dots and Boxes benchmarks: solver times per board size, the solver's techniques switched
off one at a time, progress toward 4x4, and agents against a random player.

    python benchmarks/dots_bench.py [--repeat 3] [--sizes 1x1,...,3x4] [--skip-agents]
        [--games 100] [--toward-4x4 SECONDS]

Times are CPU seconds (``time.process_time``), medians of ``--repeat`` runs (3x4 and
larger: one run) of a fresh solver (tables allocated outside the clock, kernels loaded
first) computing the value only (no best-move pass). The machine is shared: quote medians
and expect a factor of two between runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from plies.dots.charts import wilson
from plies.dots.rules import Board
from plies.dots.solver import SolveAborted, Solver

KNOWN = {"1x1": -1, "1x2": 0, "1x3": -1, "2x2": 2, "2x3": -2, "3x3": -3, "4x4": 0}


def solve_size(size: str, repeat: int, hash_bits: int, **features: bool):
    rows, cols = (int(x) for x in size.split("x"))
    times, result = [], None
    for _ in range(repeat):
        solver = Solver(rows, cols, hash_bits=hash_bits, **features)
        cpu = time.process_time()
        result = solver.solve(Board(rows, cols), best_moves=False)
        times.append(time.process_time() - cpu)
    return result, statistics.median(times)


def part_sizes(sizes: list[str], repeat: int) -> None:
    print("1. Exact values of empty boards (value only), median CPU seconds")
    print(f"   {'size':>5} {'value':>6} {'known':>6} {'nodes':>12} {'seconds':>9} {'nodes/s':>11}")
    for size in sizes:
        rows, cols = (int(x) for x in size.split("x"))
        bits = 24 if rows * cols >= 10 else 20
        result, t = solve_size(size, 1 if rows * cols >= 12 else repeat, bits)
        known = KNOWN.get(size, "")
        print(
            f"   {size:>5} {result.value:>+6} {known!s:>6} {result.nodes:>12,} {t:>9.3f} "
            f"{int(result.nodes / max(t, 1e-9)):>11,}",
            flush=True,
        )


def part_features(size: str, repeat: int) -> None:
    print(f"2. {size}: each technique switched off (nodes, median seconds)")
    base, t0 = solve_size(size, repeat, 20)
    print(f"   {'all on':<28} {base.nodes:>12,} {t0:>8.3f} s  {base.stats}")
    for feature in ("loony", "chains", "equivalence", "corners", "symmetry", "ordering"):
        result, t = solve_size(size, repeat, 20, **{feature: False})
        assert result.value == base.value
        print(
            f"   {feature + ' off':<28} {result.nodes:>12,} {t:>8.3f} s  "
            f"x{result.nodes / base.nodes:.2f}"
        )


def part_4x4(budget: float, seed: int = 1) -> None:
    print(f"3. Toward 4x4: positions after k random safe lines (seed {seed}), {budget:.0f} s each")
    rng = random.Random(seed)
    order = list(range(40))
    rng.shuffle(order)
    for drawn in (20, 16, 12, 10, 8, 6, 4, 2, 0):
        board = Board(4, 4)
        for line in order:
            if len(board.history) >= drawn:
                break
            cs = [board.counts[b] for b in board.geo.line_boxes[line] if b >= 0]
            if max(cs) < 2:  # keep it a middle-game position: no box given away
                board.play(line)
        solver = Solver(4, 4, hash_bits=26)
        free = len(board.moves())
        cpu = time.process_time()
        try:
            r = solver.solve(board, best_moves=False, movetime=budget)
            cpu = time.process_time() - cpu
            print(f"   {len(board.history):>2} drawn, {free} free: value {r.value:+d}, "
                  f"{r.nodes:,} nodes, {r.seconds:.1f} s, {cpu:.1f} s CPU", flush=True)  # fmt: skip
        except SolveAborted:
            print(f"   {len(board.history):>2} drawn, {free} free: not solved in {budget:.0f} s")
            break


def part_agents(games: int) -> None:
    from plies.search.agents import make_agent

    print(f"4. Agents against dots-random on 3x3, {games} games each (colours alternate)")
    for spec in (
        "dots-chains?seed=1",
        "dots-mcts?iterations=2000&seed=1",
        "dots-alphabeta?depth=3",
        "dots-montecarlo?playouts=300&seed=1",
    ):
        wins = draws = 0
        start = time.perf_counter()
        for g in range(games):
            agent, rnd = make_agent(spec), make_agent(f"dots-random?seed={g}")
            players = (agent, rnd) if g % 2 == 0 else (rnd, agent)
            board = Board(3, 3)
            while not board.is_over:
                board.play(players[board.to_move].select_move(board.copy()))
            margin = board.margin if g % 2 == 0 else -board.margin
            wins += margin > 0
        lo, hi = wilson(wins, games)
        print(
            f"   {spec:<38} {wins}/{games} wins ({100 * wins / games:.0f}%, 95% CI "
            f"{100 * lo:.0f}-{100 * hi:.0f}%), {time.perf_counter() - start:.0f} s",
            flush=True,
        )
        _ = draws


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="1x1,1x2,1x3,2x2,2x3,2x4,3x3,2x5,3x4")
    ap.add_argument("--features", default="3x3")
    ap.add_argument("--toward-4x4", type=float, default=0.0, metavar="SECONDS")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--skip-agents", action="store_true")
    args = ap.parse_args()
    Solver(1, 1, hash_bits=4).solve(Board(1, 1))  # load the kernels outside the clock
    part_sizes(args.sizes.split(","), args.repeat)
    if args.features:
        part_features(args.features, args.repeat)
    if args.toward_4x4:
        part_4x4(args.toward_4x4)
    if not args.skip_agents:
        part_agents(args.games)


if __name__ == "__main__":
    main()
