"""Search limits (depth, time, nodes, iterations, a stop flag) and the budget that enforces them."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from plies.errors import InvalidOption


class SearchStopped(Exception):
    """Raised inside a search when its budget runs out; the search catches it and unwinds."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When a search must stop. ``None`` means no limit of that kind.

    ``depth`` caps the plies searched (iterative deepening stops there), ``movetime`` the
    seconds, ``nodes`` the positions visited (moves made), ``iterations`` the playouts of
    Monte Carlo searches; setting ``stop`` (a :class:`threading.Event`) stops any search.
    """

    depth: int | None = None
    movetime: float | None = None
    nodes: int | None = None
    iterations: int | None = None
    stop: threading.Event | None = None

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "iterations"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise InvalidOption(f"{name} must be a non-negative integer, not {value!r}")
        if self.movetime is not None and not self.movetime >= 0:
            raise InvalidOption(f"movetime must be a non-negative number, not {self.movetime!r}")


class Budget:
    """Counts nodes and checks the clock and stop flag every ``interval`` nodes.

    ``tick()`` is the hot-path call: one increment and one comparison; the slower check of
    time and stop flag happens only when the count reaches ``next_check``.
    """

    __slots__ = ("limits", "start", "deadline", "nodes", "next_check", "interval")

    def __init__(self, limits: Limits, interval: int = 256) -> None:
        self.limits = limits
        self.start = time.perf_counter()
        self.deadline = None if limits.movetime is None else self.start + limits.movetime
        self.nodes = 0
        self.interval = interval
        self.next_check = self._next()

    def _next(self) -> int:
        nxt = self.nodes + self.interval
        if self.limits.nodes is not None:
            nxt = min(nxt, self.limits.nodes)
        return nxt

    def tick(self) -> None:
        """Count one node; raise :class:`SearchStopped` if a limit is reached."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()

    def check(self) -> None:
        """Raise :class:`SearchStopped` if the node limit, the time or the stop flag says so."""
        if self.expired():
            raise SearchStopped
        self.next_check = self._next()

    def expired(self) -> bool:
        """Whether any limit other than depth and iterations has been reached."""
        lim = self.limits
        if lim.nodes is not None and self.nodes >= lim.nodes:
            return True
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return True
        return lim.stop is not None and lim.stop.is_set()

    def elapsed(self) -> float:
        """Seconds since the budget was created."""
        return time.perf_counter() - self.start
