"""The compiled chess engine: board (move generation, make/undo), evaluation, search, and the
Python driver ``Engine`` (iterative deepening, time, threads)."""

from plies.kernel_cache import ensure_fresh

ensure_fresh()  # before any kernel is loaded from numba's cache (see plies.kernel_cache)
