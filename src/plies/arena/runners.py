"""Where games run: in this process, in a local process pool, or on a Ray cluster.

Every runner takes an iterator of jobs and yields results as games finish, keeping at most
``concurrency`` games under way and asking ``should_stop()`` before starting each new one (the
SPRT's early stop). Ctrl-C (KeyboardInterrupt) stops the games under way, releases the workers
and propagates; the results already yielded are the caller's to keep.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import Any

from plies.arena.play import GameJob, GameResult
from plies.errors import InvalidOption

BACKENDS = ("local", "ray")


def default_concurrency() -> int:
    """Cores minus one, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def _never() -> bool:
    return False


def _keep_busy(
    jobs: Iterable[GameJob],
    concurrency: int,
    should_stop: Callable[[], bool],
    pending: Sized,
    submit: Callable[[GameJob], None],
    harvest: Callable[[], Iterable[GameResult]],
) -> Iterator[GameResult]:
    """Keep ``concurrency`` games under way: ``submit`` jobs while ``pending`` (the games under
    way) has room and ``should_stop()`` is false, then yield what ``harvest()`` collects of the
    finished ones (it waits for at least one), until no job is left or under way."""
    queue = iter(jobs)
    exhausted = False
    while True:
        while not exhausted and len(pending) < concurrency and not should_stop():
            job = next(queue, None)
            if job is None:
                exhausted = True
                break
            submit(job)
        if not pending:
            return
        yield from harvest()


def run_serial(
    jobs: Iterable[GameJob], should_stop: Callable[[], bool] = _never
) -> Iterator[GameResult]:
    """Play the games one after another in this process."""
    from plies.arena.worker import close_players, run_job

    try:
        for job in jobs:
            if should_stop():
                break
            yield run_job(job)
    finally:
        close_players()


def run_pool(
    jobs: Iterable[GameJob],
    concurrency: int,
    should_stop: Callable[[], bool] = _never,
    plugins: tuple[str, ...] = (),
) -> Iterator[GameResult]:
    """Play ``concurrency`` games at a time in a pool of worker processes (spawned, so that
    the parent's threads and locks are not copied into them)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    from plies.arena.worker import init_worker, run_job

    pool = ProcessPoolExecutor(
        max_workers=concurrency,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=init_worker,
        initargs=(plugins,),
    )
    pending: set[Future[GameResult]] = set()

    def harvest() -> list[GameResult]:
        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        pending.difference_update(done)
        return [f.result() for f in sorted(done, key=lambda f: f.result().job.index)]

    clean = False
    try:
        yield from _keep_busy(
            jobs,
            concurrency,
            should_stop,
            pending,
            lambda job: pending.add(pool.submit(run_job, job)),
            harvest,
        )
        clean = True
    finally:
        if clean:
            pool.shutdown(wait=True)
        else:
            for future in pending:
                future.cancel()
            processes = list(getattr(pool, "_processes", {}).values())
            for process in processes:  # SIGTERM: the worker closes its engines and exits
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.join(timeout=5)


def run_ray(
    jobs: Iterable[GameJob],
    concurrency: int,
    should_stop: Callable[[], bool] = _never,
    address: str | None = None,
    plugins: tuple[str, ...] = (),
) -> Iterator[GameResult]:
    """Play ``concurrency`` games at a time as Ray tasks (:func:`ray_map`)."""
    return ray_map(_ray_job, jobs, concurrency, should_stop, address, (plugins,))


def ray_map(
    func: Callable[..., Any],
    jobs: Iterable[Any],
    concurrency: int,
    should_stop: Callable[[], bool] = _never,
    address: str | None = None,
    args: tuple = (),
) -> Iterator[Any]:
    """Run ``func(job, *args)`` for each job as Ray tasks, ``concurrency`` at a time, on the
    cluster at ``address`` or on a local Ray instance started (and stopped) here; yield the
    results as they finish (the arena's games, the opening book's searches)."""
    from plies.ray_session import ray_session

    with ray_session(address, concurrency) as ray:
        yield from _map_on_ray(ray, func, jobs, concurrency, should_stop, args)


def _map_on_ray(ray, func, jobs, concurrency, should_stop, args) -> Iterator[Any]:
    remote = ray.remote(num_cpus=1, max_retries=0)(func)
    pending: dict = {}

    def submit(job: Any) -> None:
        pending[remote.remote(job, *args)] = job

    def harvest() -> Iterator[Any]:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            del pending[ref]
            yield ray.get(ref)

    clean = False
    try:
        yield from _keep_busy(jobs, concurrency, should_stop, pending, submit, harvest)
        clean = True
    finally:
        if not clean:
            for ref in pending:
                ray.cancel(ref, force=True)


def _ray_job(job: GameJob, plugins: tuple[str, ...]) -> GameResult:
    import importlib

    from plies.arena.worker import run_job

    for name in plugins:
        importlib.import_module(name)
    return run_job(job)


def run_games(
    jobs: Iterable[GameJob],
    concurrency: int = 1,
    backend: str = "local",
    should_stop: Callable[[], bool] = _never,
    ray_address: str | None = None,
    plugins: tuple[str, ...] = (),
) -> Iterator[GameResult]:
    """Dispatch to the right runner: ``local`` with concurrency 1 plays in this process."""
    if concurrency < 1:
        raise InvalidOption(f"concurrency must be at least 1, not {concurrency}")
    if backend == "ray":
        return run_ray(jobs, concurrency, should_stop, ray_address, plugins)
    if backend != "local":
        raise InvalidOption(f"unknown backend {backend!r}: expected local or ray")
    if concurrency == 1:
        return run_serial(jobs, should_stop)
    return run_pool(jobs, concurrency, should_stop, plugins)
