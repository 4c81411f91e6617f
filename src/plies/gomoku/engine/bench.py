"""``plies bench gomoku``: search a fixed position set and report nodes, speed and a signature.

Every position is searched from a cleared transposition table with one thread to a fixed depth
(or node count), so node counts are deterministic: the signature (CRC32 of the node counts)
changes only when search behaviour changes, and nodes per second compare machines and builds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib import resources

from plies.gomoku.board import Board
from plies.gomoku.engine.api import Engine, SearchResult
from plies.search.bench import BenchReport

DEFAULT_DEPTH = 12


@dataclass
class BenchLine:
    rule: str
    size: int
    moves: int
    result: SearchResult


def bench_positions() -> list[tuple[str, int, list[str]]]:
    """The fixed bench set: (rule, size, moves)."""
    text = resources.files("plies.data").joinpath("bench_gomoku.txt").read_text()
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        rule, size, *moves = line.split()
        out.append((rule, int(size), moves))
    return out


def run_bench(
    depth: int | None = DEFAULT_DEPTH, nodes: int | None = None, hash_mb: float = 16, progress=None
) -> BenchReport:
    """Search every bench position; ``progress(line)`` is called after each one."""
    engines: dict[tuple[str, int], Engine] = {}
    lines = []
    total_nodes = 0
    total_time = 0.0
    for rule, size, moves in bench_positions():
        engine = engines.get((rule, size))
        if engine is None:
            engine = engines[(rule, size)] = Engine(rule, size, hash_mb=hash_mb)
        engine.new_game()
        board = Board.from_moves(moves, size, rule)
        start = time.perf_counter()
        result = engine.search(board, depth=depth if nodes is None else None, nodes=nodes)
        total_time += time.perf_counter() - start
        total_nodes += result.nodes
        line = BenchLine(rule, size, len(moves), result)
        lines.append(line)
        if progress is not None:
            progress(line)
    return BenchReport(lines, total_nodes, total_time)
