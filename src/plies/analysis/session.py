"""The parts of a review run that do not depend on the game: the budget ``plies analyze`` uses,
progress counting, the settings record, the cache and progress bar around the analysis, and
the printed and written reports."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, TypeVar

from plies.analysis.review import Budget, Review, Thresholds

T = TypeVar("T")
Progress = Callable[[int, int, bool], None]

DEFAULT_MOVETIME = 0.5  # seconds per position when no limit is given


def command_budget(
    movetime: float | None,
    depth: int | None,
    nodes: int | None,
    threads: int,
    solver_share: float | None = None,
) -> Budget:
    """The budget of ``plies analyze``: ``DEFAULT_MOVETIME`` per position unless a depth or a
    node limit is given; with ``solver_share``, the threat solvers get that share of it."""
    if movetime is None and depth is None and nodes is None:
        movetime = DEFAULT_MOVETIME
    solver_time = None
    if solver_share is not None and movetime is not None:
        solver_time = movetime * solver_share
    return Budget(
        movetime=movetime, depth=depth, nodes=nodes, threads=threads, solver_time=solver_time
    )


def counting_progress(total: int, on_progress: Progress | None) -> Callable[[int, Any, bool], None]:
    """An ``on_result`` callback for :func:`~plies.analysis.review.analyse_positions` that
    reports ``on_progress(done, total, cached)`` after each position."""
    count = [0]

    def progress(_i: int, _value: Any, cached: bool) -> None:
        count[0] += 1
        if on_progress:
            on_progress(count[0], total, cached)

    return progress


def review_settings(
    budget: Budget, workers: int, thresholds: Thresholds, version: str, **extra: Any
) -> dict[str, Any]:
    """The ``settings`` record of a review (``extra`` keys come last)."""
    return {
        "budget": budget.describe(),
        "movetime": budget.movetime,
        "depth": budget.depth,
        "nodes": budget.nodes,
        "multipv": budget.multipv,
        "threads": budget.threads,
        "workers": workers,
        "thresholds": vars(thresholds),
        "analysis_version": version,
        **extra,
    }


def with_progress(console: Any, use_cache: bool, run: Callable[[Any, Progress], T]) -> T:
    """``run(cache, progress)`` under a progress bar, with the review cache open (None when
    ``use_cache`` is off); the cache is closed afterwards, also after Ctrl-C."""
    from plies.analysis.cache import ReviewCache
    from plies.analysis.report.terminal import ReviewProgress

    opened = ReviewCache() if use_cache else nullcontext()
    with opened as cache, ReviewProgress(console) as progress:
        return run(cache, progress)


def report(
    review: Review,
    console: Any,
    *,
    notable_only: bool = False,
    json_out: str | None = None,
    html_out: str | None = None,
) -> None:
    """Print the review's table and summary; write the JSON and HTML reports asked for."""
    from plies.analysis.report.html import write_html
    from plies.analysis.report.json import write_json
    from plies.analysis.report.terminal import print_review

    print_review(review, console, notable_only=notable_only)
    if json_out:
        write_json(review, json_out)
    if html_out:
        write_html(review, html_out)
