"""The one list of kernel warm-up functions, run by ``plies warmup``.

Each entry is ``"module:function"``; the function takes no argument and compiles (or loads
from the numba cache) the kernels of its module. Add a line here when a module gains kernels.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator

WARMUPS: list[str] = [
    "plies.gomoku.rules:warmup",
    "plies.gomoku.engine.api:warmup",
    "plies.chess.engine.api:warmup",
    "plies.dots.rules:warmup",
    "plies.dots.solver:warmup",
]


def resolve(entry: str) -> Callable[[], object]:
    """The function named by a ``"module:function"`` entry."""
    module_name, _, func_name = entry.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, func_name or "warmup")


def run_warmups(entries: list[str] | None = None) -> Iterator[tuple[str, float]]:
    """Run each warm-up in turn, yielding ``(entry, seconds)`` as each one finishes."""
    for entry in WARMUPS if entries is None else entries:
        start = time.perf_counter()
        resolve(entry)()
        yield entry, time.perf_counter() - start
