"""Where a cold start's time goes: run a ``plies`` command in this process and list every
numba compile it triggers, with its own seconds (callees' compiles subtracted) and its
inclusive seconds, longest first (docs/engine.md, "Compile time: the first run").

    PLIES_COMPILE_WORKERS=1 NUMBA_CACHE_DIR=$(mktemp -d) PLIES_CACHE_DIR=$(mktemp -d) \\
        python benchmarks/compile_profile.py demo --html /tmp/demo.html

(one process: compiles in a worker process of ``plies.warmup`` are not listed here).

With a warm cache nothing compiles and the list is empty. A kernel listed several times was
compiled for several argument types (see "One specialisation per kernel").
"""

from __future__ import annotations

import sys
import time

from numba.core import event

START = time.perf_counter()
_stack: list[list] = []  # [start, seconds in callees' compiles, event data]
records: list[tuple[str, str, float, float, float]] = []  # name, args, incl, own, at


class _Listener(event.Listener):
    def on_start(self, ev) -> None:
        _stack.append([time.perf_counter(), 0.0, ev.data])

    def on_end(self, ev) -> None:
        t0, inner, data = _stack.pop()
        seconds = time.perf_counter() - t0
        func = data["dispatcher"].py_func
        name = f"{func.__module__}.{func.__qualname__}"
        records.append((name, str(data["args"]), seconds, seconds - inner, t0 - START))
        if _stack:
            _stack[-1][1] += seconds


def report(out=sys.stderr) -> None:
    own = sum(r[3] for r in records)
    wall = time.perf_counter() - START
    print(f"# {len(records)} compiles, {own:.1f} s compiling, {wall:.1f} s in all", file=out)
    for name, args, incl, excl, at in sorted(records, key=lambda r: -r[3]):
        print(f"{excl:7.2f} own {incl:7.2f} incl  at {at:6.1f} s  {name} {args[:80]}", file=out)


def main(argv: list[str]) -> None:
    from plies.cli import main as plies_main

    event.register("numba:compile", _Listener())
    try:
        plies_main(argv)
    except SystemExit:
        pass
    finally:
        report()


if __name__ == "__main__":
    main(sys.argv[1:])
