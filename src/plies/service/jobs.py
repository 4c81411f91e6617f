"""The job runner: one thread that takes the oldest queued review from the store, reviews it
with :mod:`plies.analysis` (the positions on ``workers`` processes, through the position
cache in the store's file), writes its progress after each position and its review when done.

A job that raises a :class:`~plies.errors.PliesError` (bad input found late) or any other
error is marked failed with a one-line message; the runner goes on with the next job.
"""

from __future__ import annotations

import threading
import time
import traceback
from typing import Any

from plies.analysis.review import Review
from plies.errors import PliesError
from plies.service.inputs import ReviewSpec, budget_of, read_chess, read_gomoku
from plies.service.store import JobStore


def spec_from_request(request: dict[str, Any]) -> ReviewSpec:
    """The spec a job was stored with (its text read again when it runs)."""
    return ReviewSpec(
        kind=request["kind"],
        game=request["game"],
        rule=request.get("rule"),
        size=request.get("size"),
        budget=request["budget"],
        lang=request.get("lang", "en"),
        pgn_game=request.get("pgn_game"),
        canonical="",
        positions=0,
    )


def run_review(
    spec: ReviewSpec,
    *,
    workers: int = 1,
    cache: Any = None,
    on_progress=None,
    backend: str = "local",
    ray_address: str | None = None,
) -> Review:
    """Review the game of ``spec`` as ``plies analyze`` would (same readers, budget and
    review functions; the positions on ``workers`` processes or Ray actors), without
    printing anything."""
    budget = budget_of(spec)
    where = {"backend": backend, "ray_address": ray_address}
    if spec.kind == "chess":
        from plies.analysis.chess import review_game

        game = read_chess(spec.game, spec.pgn_game)
        return review_game(
            game, budget, lang=spec.lang, workers=workers, cache=cache, source=None,
            on_progress=on_progress, **where,
        )  # fmt: skip
    from plies.analysis.gomoku import review_record

    record = read_gomoku(spec.game, spec.rule, spec.size)
    return review_record(
        record, budget, rule=spec.rule, lang=spec.lang, workers=workers, cache=cache,
        on_progress=on_progress, **where,
    )  # fmt: skip


class JobRunner(threading.Thread):
    """Reviews queued jobs one at a time until :meth:`stop`; :meth:`wake` after a submit."""

    def __init__(
        self,
        store: JobStore,
        workers: int = 1,
        poll: float = 0.5,
        backend: str = "local",
        ray_address: str | None = None,
    ) -> None:
        super().__init__(name="plies-jobs", daemon=True)
        self.store = store
        self.workers = workers
        self.backend, self.ray_address = backend, ray_address
        self.poll = poll
        self._wake = threading.Event()
        self._halt = threading.Event()
        self.cache_hits = 0
        self.cache_misses = 0
        self.positions_done = 0
        self.current: str | None = None
        self.job_seconds: list[float] = []  # the last jobs' run times (for Retry-After)

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._halt.set()
        self._wake.set()

    def run(self) -> None:
        cache = self.store.cache()  # its connection belongs to this thread
        try:
            while not self._halt.is_set():
                job = self.store.claim()
                if job is None:
                    self._wake.wait(self.poll)
                    self._wake.clear()
                    continue
                self._run(job, cache)
        finally:
            cache.close()

    def _run(self, job: dict[str, Any], cache: Any) -> None:
        job_id = job["id"]
        self.current = job_id
        start = time.perf_counter()
        hits, misses = cache.hits, cache.misses

        def progress(done: int, total: int, _cached: bool) -> None:
            self.positions_done += 1
            self.store.progress(job_id, done, total)

        try:
            review = run_review(
                spec_from_request(job["request"]),
                workers=self.workers,
                cache=cache,
                on_progress=progress,
                backend=self.backend,
                ray_address=self.ray_address,
            )
            self.store.finish(job_id, review.to_dict())
        except PliesError as exc:
            self.store.fail(job_id, " ".join(str(exc).split()))
        except Exception as exc:  # a defect: keep serving, say what happened
            traceback.print_exc()
            self.store.fail(job_id, f"internal error: {type(exc).__name__}: {exc}")
        finally:
            self.cache_hits += cache.hits - hits
            self.cache_misses += cache.misses - misses
            self.job_seconds = [*self.job_seconds[-19:], time.perf_counter() - start]
            self.current = None

    def retry_after(self, queued: int) -> int:
        """Seconds a client should wait before submitting again: the queue ahead at the recent
        mean job time (at least 1)."""
        mean = sum(self.job_seconds) / len(self.job_seconds) if self.job_seconds else 5.0
        return max(1, int(round(mean * max(1, queued))))
