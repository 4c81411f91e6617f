"""The parts of a review run that do not depend on the game: what ``plies analyze`` asks for
(:class:`AnalyzeRequest`: the budget, workers, language, cache and reports), progress
counting, the settings record, the cache and progress bar around the analysis, and the
printed and written reports."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from plies.analysis.review import Budget, Review, Thresholds

T = TypeVar("T")
Progress = Callable[[int, int, bool], None]

DEFAULT_MOVETIME = 0.5  # seconds per position when no limit is given


@dataclass(frozen=True)
class AnalyzeRequest:
    """The options of ``plies analyze`` that every game shares: one limit per position
    (``movetime`` seconds, ``depth`` or ``nodes``; ``DEFAULT_MOVETIME`` without any),
    ``threads`` per search, ``workers`` positions at once (None: cores - 1), the language,
    the report files, the cache, the table of all or only the notable moves, and where the
    positions run (``backend`` local or ray, ``ray_address``)."""

    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None
    threads: int = 1
    workers: int | None = None
    lang: str = "en"
    json_out: str | None = None
    html_out: str | None = None
    use_cache: bool = True
    notable_only: bool = False
    backend: str = "local"  # or "ray": the positions on Ray actors
    ray_address: str | None = None

    def budget(self, solver_share: float | None = None) -> Budget:
        """The budget per position; with ``solver_share``, the threat solvers get that share
        of the movetime."""
        movetime = self.movetime
        if movetime is None and self.depth is None and self.nodes is None:
            movetime = DEFAULT_MOVETIME
        solver_time = None
        if solver_share is not None and movetime is not None:
            solver_time = movetime * solver_share
        return Budget(
            movetime=movetime,
            depth=self.depth,
            nodes=self.nodes,
            threads=self.threads,
            solver_time=solver_time,
        )

    def pool_size(self) -> int:
        """The worker processes: ``workers``, else cores - 1."""
        from plies.analysis.review import default_workers

        return self.workers or default_workers()

    def run(self, console: Any, review: Callable[[Any, Progress], T]) -> T:
        """``review(cache, progress)`` under a progress bar, with the cache if asked for."""
        return with_progress(console, self.use_cache, review)

    def report(self, review: Review, console: Any, number: int = 1, count: int = 1) -> None:
        """Print and write the reports of game ``number`` of ``count`` (with several games,
        ``r.json`` becomes ``r-2.json`` for the second)."""
        report(
            review,
            console,
            notable_only=self.notable_only,
            json_out=self.json_out and numbered_path(self.json_out, number, count),
            html_out=self.html_out and numbered_path(self.html_out, number, count),
        )


def numbered_path(path: str, number: int, count: int) -> str:
    """``path`` for game ``number`` of ``count``: unchanged for one game, else ``-N`` before
    the suffix (``r.json`` -> ``r-2.json``)."""
    if count <= 1:
        return path
    p = Path(path)
    return str(p.with_name(f"{p.stem}-{number}{p.suffix}"))


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
