"""Kernel warm-up: the list of warm-up functions (``plies warmup``), and the first-run compile
that the commands ask for (:func:`ensure_compiled`).

Each entry is ``"module:function"``; the function takes no argument and compiles (or loads
from the numba cache) the kernels of its module. Add a line here when a module gains kernels.

numba compiles a kernel the first time it is called and keeps it in its on-disk cache; with an
empty cache the Gomoku engine alone takes about a minute of CPU. A command calls
:func:`ensure_compiled` with the entries it needs (``KERNELS["gomoku"]`` for the demo's
review, ``plies play`` and ``plies analyze``) before its engine starts. When every entry has
its stamp (a file beside numba's cache, naming the kernel sources' fingerprint and the numba
and Python versions) that costs a few file reads and nothing is printed. Otherwise it says so
on stderr, compiles the missing entries, spread over worker processes (each compiling into the
shared on-disk cache; this process takes a share too), with a progress bar counting the
kernels compiled, and stamps them. See README.md, "First run".
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

WARMUPS: list[str] = [
    "plies.gomoku.rules:warmup",
    "plies.gomoku.engine.api:compile_common",
    "plies.gomoku.engine.api:compile_search",
    "plies.gomoku.engine.api:compile_vct",
    "plies.chess.engine.api:warmup",
    "plies.dots.rules:warmup",
    "plies.dots.solver:warmup",
    "plies.dots.player:warmup",
]

# what each game's commands need; the Gomoku engine's two parts compile in parallel
KERNELS: dict[str, list[str]] = {
    "gomoku-rules": ["plies.gomoku.rules:warmup"],
    "gomoku": [
        "plies.gomoku.rules:warmup",
        "plies.gomoku.engine.api:compile_common",
        "plies.gomoku.engine.api:compile_search",
        "plies.gomoku.engine.api:compile_vct",
    ],
    "chess": ["plies.chess.engine.api:warmup"],
    "dots": ["plies.dots.rules:warmup", "plies.dots.solver:warmup", "plies.dots.player:warmup"],
}

# kernels each entry compiles on an empty cache (numba specialisations, measured with numba
# 0.68): the progress bar's total, nothing more (a count past it raises the total)
EXPECTED_KERNELS: dict[str, int] = {
    "plies.gomoku.rules:warmup": 25,
    "plies.gomoku.engine.api:compile_common": 40,
    "plies.gomoku.engine.api:compile_search": 25,
    "plies.gomoku.engine.api:compile_vct": 45,
    "plies.chess.engine.api:warmup": 60,
    "plies.dots.rules:warmup": 10,
    "plies.dots.solver:warmup": 15,
    "plies.dots.player:warmup": 10,
}

# relative compile cost of each entry (CPU seconds on an empty cache, rounded): the split
# over worker processes
COST: dict[str, float] = {
    "plies.gomoku.rules:warmup": 3,
    "plies.gomoku.engine.api:compile_common": 15,
    "plies.gomoku.engine.api:compile_search": 30,
    "plies.gomoku.engine.api:compile_vct": 25,
    "plies.chess.engine.api:warmup": 190,  # session 45: 195 s (410 s with make/undo inlined)
    "plies.dots.rules:warmup": 3,
    "plies.dots.solver:warmup": 10,
    "plies.dots.player:warmup": 5,
}


# entries that others call into: compiled first, in this process, before any worker starts
# (two workers would otherwise both compile them)
FIRST: frozenset[str] = frozenset(
    {"plies.gomoku.rules:warmup", "plies.gomoku.engine.api:compile_common"}
)


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


# --- stamps: which entries the on-disk cache holds -----------------------------------------


def _stamp_text() -> str:
    import numba

    from plies import kernel_cache

    return (
        f"{kernel_cache.fingerprint()} numba {numba.__version__} "
        f"python {sys.version_info.major}.{sys.version_info.minor}\n"
    )


def _stamp_file(entry: str) -> Path:
    from plies import kernel_cache

    name = entry.replace(":", ".")
    return kernel_cache._stamp_path().parent / f"plies-compiled-{name}.stamp"


def missing(entries: Sequence[str]) -> list[str]:
    """The entries whose kernels the on-disk cache does not hold yet (no valid stamp)."""
    from plies import kernel_cache

    kernel_cache.ensure_fresh()  # stale kernels (and so stale stamps) go first
    text = _stamp_text()
    out = []
    for entry in entries:
        try:
            if _stamp_file(entry).read_text() == text:
                continue
        except OSError:
            pass
        out.append(entry)
    return out


def _stamp(entry: str, text: str) -> None:
    path = _stamp_file(entry)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache: the next run compiles (or loads) again, and says so


# --- compiling: this process and worker processes -------------------------------------------


def _count_compiles(on_compile: Callable[[str], None]):
    """A numba event listener calling ``on_compile(name)`` after each kernel compiled."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev) -> None:
            pass

        def on_end(self, ev) -> None:
            func = getattr(ev.data["dispatcher"], "py_func", None)
            on_compile(getattr(func, "__qualname__", "?"))

    return event.install_listener("numba:compile", Listener())


def split(entries: Sequence[str], lanes: int) -> list[list[str]]:
    """``entries`` in ``lanes`` groups of about equal cost (longest first, each to the lane
    with the least work so far); entries keep their given order within a lane."""
    loads = [0.0] * lanes
    groups: list[list[str]] = [[] for _ in range(lanes)]
    for entry in sorted(entries, key=lambda e: -COST.get(e, 10)):
        i = loads.index(min(loads))
        groups[i].append(entry)
        loads[i] += COST.get(entry, 10)
    order = {e: k for k, e in enumerate(entries)}
    return [sorted(g, key=order.__getitem__) for g in groups if g]


def _worker_command(entries: Sequence[str]) -> list[str]:
    return [sys.executable, "-m", "plies.warmup", *entries]


def ensure_compiled(
    entries: Sequence[str], *, console=None, workers: int | None = None, quiet: bool = False
) -> list[tuple[str, float]]:
    """Compile the kernels of ``entries`` that the on-disk cache lacks; return ``(entry,
    seconds)`` for each one compiled (empty when the cache held them all: then nothing is
    printed). ``workers``: processes compiling at once, this one included (default:
    ``$PLIES_COMPILE_WORKERS``, else the cores; at most one per entry). Progress goes to
    ``console`` (default: a rich console on stderr) unless ``quiet``."""
    todo = missing(entries)
    if not todo:
        return []
    first = [e for e in todo if e in FIRST]
    rest = [e for e in todo if e not in FIRST]
    if workers is None:
        workers = int(os.environ.get("PLIES_COMPILE_WORKERS") or os.cpu_count() or 1)
    lanes = split(rest, max(1, min(workers, len(rest)))) or [[]]
    text = _stamp_text()
    times: list[tuple[str, float]] = []
    lock = threading.Lock()
    counted = [0]
    total = [sum(EXPECTED_KERNELS.get(e, 20) for e in todo)]
    update: Callable[[], None] = lambda: None  # noqa: E731 - replaced by the progress bar's

    def compiled(_name: str) -> None:
        with lock:
            counted[0] += 1
            total[0] = max(total[0], counted[0])
        update()

    def finished(entry: str, seconds: float) -> None:
        with lock:
            times.append((entry, seconds))
        _stamp(entry, text)

    def run_lane(lane: list[str]) -> list[str]:
        """A worker process compiling ``lane``; the entries it failed to finish."""
        # the worker imports the same plies as this process (its kernels, its cache)
        here = str(Path(__file__).resolve().parents[1])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (here, os.environ.get("PYTHONPATH")) if p
        )}  # fmt: skip
        proc = subprocess.Popen(
            _worker_command(lane),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        done = set()
        assert proc.stdout is not None
        for line in proc.stdout:
            kind, _, rest = line.rstrip("\n").partition(" ")
            if kind == "compiled":
                compiled(rest)
            elif kind == "done":
                entry, _, seconds = rest.rpartition(" ")
                done.add(entry)
                finished(entry, float(seconds))
        proc.wait()
        return [e for e in lane if e not in done]

    from contextlib import ExitStack

    with ExitStack() as stack:
        if not quiet:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            out = console or Console(stderr=True)
            cpu = sum(COST.get(e, 10) for e in todo)
            out.print(
                f"compiling kernels, once (about {cpu:.0f} s of CPU, over {len(lanes)} "
                f"process{'es' if len(lanes) > 1 else ''}); later runs load them from the cache",
                soft_wrap=True,
                highlight=False,
            )
            progress = stack.enter_context(
                Progress(
                    TextColumn("compiling kernels, once"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeElapsedColumn(),
                    console=out,
                    transient=True,
                )
            )
            task = progress.add_task("compile", total=total[0])

            def update() -> None:
                progress.update(task, completed=counted[0], total=total[0])

        stack.enter_context(_count_compiles(compiled))
        for name, seconds in run_warmups(first):
            finished(name, seconds)
        results: dict[int, list[str]] = {}
        threads = []
        for k, lane in enumerate(lanes[1:], start=1):

            def work(k: int = k, lane: list[str] = lane) -> None:
                try:
                    results[k] = run_lane(lane)
                except OSError:
                    results[k] = list(lane)

            thread = threading.Thread(target=work, daemon=True)
            thread.start()
            threads.append(thread)
        leftover: list[str] = []
        for entry in lanes[0]:
            for name, seconds in run_warmups([entry]):
                finished(name, seconds)
        for thread in threads:
            thread.join()
        for k in range(1, len(lanes)):
            leftover.extend(results.get(k, lanes[k]))
        for name, seconds in run_warmups(leftover):  # a worker failed: compile them here
            finished(name, seconds)
    return times


def _worker_main(entries: list[str]) -> int:
    """``python -m plies.warmup ENTRY...``: compile the entries, reporting on stdout one line
    ``compiled NAME`` per kernel and ``done ENTRY SECONDS`` per entry."""

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    with _count_compiles(lambda name: say(f"compiled {name}")):
        for entry, seconds in run_warmups(entries):
            say(f"done {entry} {seconds:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
