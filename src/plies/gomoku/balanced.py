"""Balanced opening sets: random openings that plies' own search judges even.

Random stones usually hand one side a won game (black wins about 80% of unfiltered random
freestyle openings at a few thousand nodes), so a match played from them is mostly decided by
the opening: each pair of games splits 1-1 and measures nothing. A balanced set keeps only the
openings whose search score at a fixed node count is within ``max_eval`` centi-units of zero
for the side to move.

Opening number ``i`` of a run is drawn from ``random.Random(seed + i)``: 3 or 4 stones on legal
cells near the centre (obeying the opening rule), none ending the game. The candidates are
judged in parallel (one engine per process) but accepted in seed order, so a set depends only
on its settings, never on the number of processes. Sets are written in the Gomocup offset
format (``plies.arena.openings``, docs/arena.md); the package ships a few
(``plies/data/openings``) that ``--openings balanced`` selects.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from plies.errors import InvalidOption
from plies.gomoku import opening_rule
from plies.gomoku.notation import Move
from plies.gomoku.seen import SeenPositions, position_key

SHIPPED = "openings"  # the folder of plies/data holding the shipped sets


@dataclass(frozen=True)
class BalanceSettings:
    """What a balanced set is made of: rule, board, opening rule, the search that judges."""

    rule: str = "freestyle"
    width: int = 15
    height: int = 15
    opening: str = "free"
    nodes: int = 20000
    max_eval: int = 120
    seed: int = 1


def random_opening(board, rng: random.Random, count: int) -> None:
    """Play ``count`` random stones on legal cells near the centre (the central 7x7, or as far
    as the board's opening rule needs), none of which ends the game."""
    cx, cy = board.width // 2, board.height // 2
    r = max(3, opening_rule.min_distance(board.opening))
    for _ in range(count):
        cells = [
            Move(x, y)
            for x in range(cx - r, cx + r + 1)
            for y in range(cy - r, cy + r + 1)
            if board.is_legal(Move(x, y))
        ]
        rng.shuffle(cells)
        for cell in cells:
            board.play(cell)
            if not board.is_over:
                break
            board.undo()
        else:
            return


def offset_line(moves: list[Move], width: int, height: int) -> str:
    """Moves as one line of the offset format (``dx,dy`` from the centre)."""
    cx, cy = width // 2, height // 2
    return " ".join(f"{m.x - cx},{m.y - cy}" for m in moves)


_engine = None  # one engine per worker process, for the settings in _engine_key
_engine_key: tuple | None = None


def _judge(settings: BalanceSettings, index: int) -> tuple[int, str | None, int]:
    """Candidate ``index``: ``(index, offset line or None when rejected, score)``."""
    global _engine, _engine_key
    from plies.gomoku.board import Board
    from plies.gomoku.engine import Engine

    key = (settings.rule, settings.width, settings.height)
    if _engine is None or _engine_key != key:
        _engine = Engine(settings.rule, width=settings.width, height=settings.height, hash_mb=16)
        _engine_key = key
    rng = random.Random(settings.seed + index)
    board = Board(
        width=settings.width,
        height=settings.height,
        rule=settings.rule,
        forbidden="loses",
        opening=settings.opening,
    )
    random_opening(board, rng, rng.randint(3, 4))
    if board.is_over or len(board) < 3:
        return index, None, 0
    _engine.new_game()
    score = _engine.search(board, nodes=settings.nodes).score
    if abs(score) > settings.max_eval:
        return index, None, score
    return index, offset_line(board.history, settings.width, settings.height), score


def generate(
    settings: BalanceSettings,
    count: int,
    workers: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
    max_tries: int | None = None,
    seen: SeenPositions | None = None,
) -> list[str]:
    """``count`` balanced openings as offset lines, in seed order. ``on_progress(accepted,
    tried)`` after each candidate; at most ``max_tries`` candidates (default ``50 * count``);
    a candidate whose position is in ``seen`` or repeats one already kept (in any symmetry)
    is dropped."""
    if count < 1:
        raise InvalidOption(f"count must be at least 1, not {count}")
    if settings.max_eval < 0:
        raise InvalidOption(f"max-eval must not be negative, not {settings.max_eval}")
    if settings.nodes < 1:
        raise InvalidOption(f"nodes must be at least 1, not {settings.nodes}")
    from plies.arena.openings import parse_offsets
    from plies.gomoku.board import Board

    Board(  # checks rule, size and opening rule at once
        width=settings.width, height=settings.height, rule=settings.rule, opening=settings.opening
    )
    limit = max_tries if max_tries is not None else 50 * count
    lines: list[str] = []
    kept: set = set()
    for tried, (_, line, _) in enumerate(_candidates(settings, limit, workers), 1):
        if line is not None:
            moves = parse_offsets(line)
            key = position_key(moves)
            if key not in kept and not (seen is not None and moves in seen):
                kept.add(key)
                lines.append(line)
        if on_progress is not None:
            on_progress(len(lines), tried)
        if len(lines) >= count:
            break
    return lines


def _candidates(
    settings: BalanceSettings, limit: int, workers: int
) -> Iterator[tuple[int, str | None, int]]:
    """The judged candidates 0, 1, 2 ... in order, computed ``workers`` at a time."""
    if workers <= 1:
        for i in range(limit):
            yield _judge(settings, i)
        return
    import multiprocessing

    batch = 4 * workers
    # spawned, not forked: the parent runs threads (the progress bar) and numba
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        start = 0
        while start < limit:
            stop = min(limit, start + batch)
            yield from pool.map(_judge, [settings] * (stop - start), range(start, stop))
            start = stop


def header(settings: BalanceSettings, count: int, excluded: Sequence[str] = ()) -> str:
    """The comment line a generated file starts with (its settings, to reproduce it, and the
    files whose positions were left out)."""
    size = (
        str(settings.width)
        if settings.width == settings.height
        else f"{settings.width}x{settings.height}"
    )
    return (
        f"# {count} balanced {settings.rule} {size} openings (opening rule {settings.opening}): "
        f"|score| <= {settings.max_eval} at {settings.nodes} nodes, seed {settings.seed}"
        + (f"; none seen in {', '.join(excluded)}" if excluded else "")
    )


def shipped_name(rule: str, width: int, height: int, opening: str) -> str:
    """The file name of the shipped set for this game (it may not exist)."""
    size = str(width) if width == height else f"{width}x{height}"
    suffix = "" if opening == opening_rule.default_opening(rule) else f"-{opening}"
    return f"{rule}-{size}{suffix}.txt"


def shipped_sets() -> list[str]:
    """The names of the balanced sets that ship with the package."""
    folder = resources.files("plies.data").joinpath(SHIPPED)
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".txt"))


def shipped_path(rule: str, width: int, height: int, opening: str) -> Path:
    """The shipped balanced set for this game; :class:`InvalidOption` naming the sets that
    exist when there is none."""
    name = shipped_name(rule, width, height, opening)
    path = Path(str(resources.files("plies.data").joinpath(SHIPPED, name)))
    if not path.is_file():
        raise InvalidOption(
            f"no balanced openings ship for {name[:-4]}: the sets are "
            f"{', '.join(n[:-4] for n in shipped_sets())} "
            "(make one with plies openings generate)"
        )
    return path
