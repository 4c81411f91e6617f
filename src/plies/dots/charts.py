"""``plies charts dots``: PNG charts for comparing Dots and Boxes agents (matplotlib, an
optional dependency: ``pip install 'plies[charts]'``).

* ``winrates.png``: each agent's win rate (with a 95% Wilson interval) against an opponent
  (default ``dots-random``) by board size;
* ``search_time.png``: the mean time of one depth-limited alpha-beta move from the empty board
  by depth and board size, and the exact solver's time by board size.
The numbers behind them are written to ``charts.json`` beside them.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path

from plies.dots.rules import Board, parse_size
from plies.errors import InvalidOption


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(first, second, rows: int, cols: int) -> int:
    """Play one game; return the first agent's final margin."""
    agents = (first, second)
    for a in agents:
        reset = getattr(a, "reset", None)
        if callable(reset):
            reset()
    board = Board(rows, cols)
    while not board.is_over:
        board.play(agents[board.to_move].select_move(board.copy()))
    return board.margin


def win_rates(
    agents: list[str], sizes: list[str], games: int, opponent: str = "dots-random",
    progress: Callable[[str], None] | None = None,
) -> dict:  # fmt: skip
    """Win rates (a draw counts half) of each agent against ``opponent``, colours alternating."""
    from plies.search.agents import make_agent

    out: dict = {}
    for spec in agents:
        for size in sizes:
            rows, cols = parse_size(size)
            score = 0.0
            for g in range(games):
                a = make_agent(spec)
                b = make_agent(opponent + ("&" if "?" in opponent else "?") + f"seed={g}")
                margin = play_game(a, b, rows, cols) if g % 2 == 0 else -play_game(b, a, rows, cols)
                score += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            lo, hi = wilson(score, games)
            out.setdefault(spec, {})[size] = {"rate": score / games, "low": lo, "high": hi}
            if progress:
                progress(f"{spec} on {size}: {score}/{games}")
    return out


def search_times(depths: list[int], sizes: list[str], solve_sizes: list[str]) -> dict:
    """Seconds of one alpha-beta move from the empty board per depth and size, and of the
    exact solver per size."""
    from plies.dots.solver import Solver
    from plies.search import alphabeta

    out: dict = {"alphabeta": {}, "solver": {}}
    for size in sizes:
        rows, cols = parse_size(size)
        for depth in depths:
            start = time.perf_counter()
            alphabeta(Board(rows, cols), depth)
            out["alphabeta"].setdefault(size, {})[str(depth)] = time.perf_counter() - start
    Solver(1, 1, hash_bits=4).solve(Board(1, 1))
    for size in solve_sizes:
        rows, cols = parse_size(size)
        out["solver"][size] = (
            Solver(rows, cols, hash_bits=22).solve(Board(rows, cols), best_moves=False).seconds
        )
    return out


def make_charts(
    out_dir: str | Path,
    agents: list[str],
    sizes: list[str],
    games: int,
    depths: list[int],
    solve_sizes: list[str],
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidOption("charts need matplotlib: pip install 'plies[charts]'") from None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rates = win_rates(agents, sizes, games, progress=progress)
    times = search_times(depths, sizes, solve_sizes)
    (out / "charts.json").write_text(json.dumps({"win_rates": rates, "times": times}, indent=2))

    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / max(1, len(agents))
    for i, spec in enumerate(agents):
        xs = [j + i * width for j in range(len(sizes))]
        r = [rates[spec][s]["rate"] for s in sizes]
        err = [
            [rates[spec][s]["rate"] - rates[spec][s]["low"] for s in sizes],
            [rates[spec][s]["high"] - rates[spec][s]["rate"] for s in sizes],
        ]
        ax.bar(xs, r, width, yerr=err, capsize=3, label=spec)
    ax.set_xticks([j + width * (len(agents) - 1) / 2 for j in range(len(sizes))], sizes)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(f"win rate vs dots-random ({games} games, 95% CI)")
    ax.set_xlabel("board (boxes)")
    ax.legend(fontsize="small")
    fig.tight_layout()
    paths = [out / "winrates.png"]
    fig.savefig(paths[0], dpi=100)
    plt.close(fig)

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
    for size in sizes:
        ts = times["alphabeta"][size]
        a1.plot([int(d) for d in ts], list(ts.values()), marker="o", label=size)
    a1.set_yscale("log")
    a1.set_xticks(depths)
    a1.set_xlabel("alpha-beta depth (plies)")
    a1.set_ylabel("seconds for one move (empty board)")
    a1.legend(fontsize="small")
    solved = times["solver"]
    a2.bar(list(solved), list(solved.values()))
    a2.set_yscale("log")
    a2.set_xlabel("board (boxes)")
    a2.set_ylabel("exact solver, seconds")
    fig.tight_layout()
    paths.append(out / "search_time.png")
    fig.savefig(paths[1], dpi=100)
    plt.close(fig)
    return paths
