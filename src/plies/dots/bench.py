"""``plies bench dots``: the exact solver on a fixed set of positions.

The set: the empty 2x4, 2x5, 3x3 boards and 3x3 / 3x4 positions after a few fixed lines
(``--full`` adds the empty 3x4 board, about 20 s). Each is solved from a fresh table with no
best-move pass; the signature is a hash of the per-position node counts and values, so it
changes only when the search does.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from plies.dots.rules import Board
from plies.dots.solver import Solver, SolveResult
from plies.search.bench import BenchReport

POSITIONS: list[tuple[str, str]] = [
    ("2x4", ""),
    ("2x5", ""),
    ("3x3", ""),
    ("3x3", "h1,1 v1,2"),
    ("3x3", "h0,0 h3,2 v1,1 v2,3"),
    ("3x4", "h1,1 h2,2 v0,2 v2,2 h0,0 h3,3"),
    ("3x4", "h1,0 h1,1 h1,2 h1,3 v2,0 v2,4"),
]
FULL_EXTRA: list[tuple[str, str]] = [("3x4", "")]


@dataclass
class BenchLine:
    size: str
    moves: str
    result: SolveResult


class DotsBenchReport(BenchReport):
    """The report every ``plies bench`` prints, with the Dots signature: 64 bits of a SHA-256
    over each position's size, moves, value and node count (so a wrong value shows too)."""

    @property
    def signature(self) -> str:
        digest = hashlib.sha256()
        for line in self.lines:
            result = line.result
            digest.update(f"{line.size}|{line.moves}|{result.value}|{result.nodes};".encode())
        return digest.hexdigest()[:16]


def run_bench(
    full: bool = False, hash_bits: int = 22, progress: Callable[[BenchLine], None] | None = None
) -> DotsBenchReport:
    """Solve the fixed positions (see the module docstring), calling ``progress(line)`` after
    each."""
    lines = []
    solvers: dict[str, Solver] = {}
    for size, moves in POSITIONS + (FULL_EXTRA if full else []):
        rows, cols = (int(x) for x in size.split("x"))
        board = Board(rows, cols)
        for m in moves.split():
            board.play(m)
        solver = solvers.get(size) or Solver(rows, cols, hash_bits=hash_bits)
        solvers[size] = solver
        solver.clear()
        if not lines:  # load the kernels outside the clock
            Solver(1, 1, hash_bits=4).solve(Board(1, 1))
        result = solver.solve(board, best_moves=False)
        line = BenchLine(size, moves, result)
        lines.append(line)
        if progress:
            progress(line)
    nodes = sum(x.result.nodes for x in lines)
    seconds = sum(x.result.seconds for x in lines)
    return DotsBenchReport(lines, nodes, seconds)


def default_hash_bits(rows: int, cols: int) -> int:
    """A table size that suits the board: 2**22 slots up to 3x3, 2**25 for 3x4, 2**26 at most."""
    from plies.dots.rules import geometry

    return min(26, max(22, geometry(rows, cols).n_lines - 6))


def solve_command(
    size: str,
    as_json: bool,
    hash_bits: int | None,
    moves: str | None,
    echo,
    memory: str | None = None,
    state: str | None = None,
    progress: float | None = None,
) -> None:
    """``plies solve dots RxC [--moves 'h0,0 v1,1'] [--json] [--memory 8G] [--state FILE]
    [--progress SECONDS]``: with ``--state`` a solve resumes from the table in FILE when it
    exists, and Ctrl-C (or SIGTERM) writes the table there (and exits with status 130)."""
    import json
    import os

    from plies.dots.display import ascii_board
    from plies.dots.rules import parse_size
    from plies.dots.solver import SolveInterrupted, hash_bits_for, parse_memory
    from plies.errors import InvalidOption

    rows, cols = parse_size(size)
    if hash_bits and memory:
        raise InvalidOption("give --hash-bits or --memory, not both")
    if memory:
        hash_bits = hash_bits_for(parse_memory(memory))
    hash_bits = hash_bits or default_hash_bits(rows, cols)
    board = Board(rows, cols)
    for m in (moves or "").split():
        board.play(m)
    start = time.perf_counter()
    cpu = time.process_time()
    solver = Solver(rows, cols, hash_bits=4 if state and os.path.exists(state) else hash_bits)
    if state and os.path.exists(state):
        solver.load(state, board)
        echo(f"resumed from {state}: bounds {solver.bounds}", err=True)

    def report(r: dict) -> None:
        echo(
            f"{time.perf_counter() - start:8.0f} s  {r['nodes']:>14,} nodes  table "
            f"{100 * r['fill']:5.1f}% full  value in [{r['lower']}, {r['upper']}]",
            err=True,
        )

    # the search runs in a thread so that Ctrl-C reaches this one at once; SIGTERM (and SIGINT,
    # even where a background shell ignores it) stops it too
    import signal

    def stop(signum, frame) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    interval = progress or (30.0 if state else 0.5)
    callback = report if (progress or state) else (lambda r: None)
    try:
        result = solver.solve(board, progress=callback, interval=interval)
    except SolveInterrupted:
        if state:
            solver.save(state, board)
            echo(f"interrupted: table and bounds {solver.bounds} written to {state}", err=True)
        else:
            echo(f"interrupted: bounds {solver.bounds} (give --state FILE to resume)", err=True)
        raise SystemExit(130) from None
    result.seconds = time.perf_counter() - start  # what the user waited (tables included)
    cpu = time.process_time() - cpu
    if as_json:
        echo(json.dumps(result.to_json()))
        return
    if board.history:
        echo(ascii_board(board))
    who = "first player" if board.to_move == 0 else "second player"
    echo(f"dots {rows}x{cols} boxes ({rows + 1}x{cols + 1} dots), {who} to move")
    echo(f"value: {result.value:+d} (first player's boxes minus second player's, perfect play)")
    echo(f"best moves: {' '.join(result.best_moves)}")
    echo(f"nodes: {result.nodes}  seconds: {result.seconds:.3f}  cpu: {cpu:.3f}")
