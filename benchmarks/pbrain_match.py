"""Two ``pbrain-plies`` processes play each other through the arena's pbrain adapter.

    python benchmarks/pbrain_match.py [--games 100] [--st 0.2 | --tc 5+0.05] [--rule renju]
                                      [--size 15] [--timemargin 0.0] [--json OUT]

Reports time forfeits, illegal moves and protocol failures (all must be zero) and the
distribution of (reply time - limit) in milliseconds over every move, as the arena measured
it (from sending the command to reading the move, so process and pipe latency included).
The brains run as ``python -m plies.gomoku.pbrain`` with this checkout's ``src`` first on
PYTHONPATH. Openings: the 26 Renju openings (centred on any board), colours swapped.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
sys.path.insert(0, str(SRC))
os.environ["PYTHONPATH"] = str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")

from plies.arena import build_config, run_match  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--st", type=float, default=None, help="seconds per move (timeout_turn)")
    ap.add_argument("--tc", default=None, help="match clock, e.g. 5+0.05 (time_left)")
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--size", default="15")
    ap.add_argument("--timemargin", type=float, default=0.0)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if args.st is None and args.tc is None:
        args.st = 0.2
    cmd = shlex.quote(f"{sys.executable} -m plies.gomoku.pbrain")
    engines = [f"cmd={cmd} proto=pbrain name=plies-{side}" for side in ("A", "B")]
    config = build_config(
        engines,
        rule=args.rule,
        size=args.size,
        games=args.games,
        st=args.st,
        tc=args.tc,
        timemargin=args.timemargin,
        openings="renju26",
        concurrency=args.concurrency,
    )
    started = time.monotonic()
    over: list[float] = []
    failures: dict[str, int] = {}

    def on_result(report, result) -> None:
        limit_ms = args.st * 1000 if args.st is not None else None
        if limit_ms is not None:
            over.extend(t - limit_ms for t in result.times_ms)
        if result.failure is not None:
            failures[result.failure.kind] = failures.get(result.failure.kind, 0) + 1
            print("FAILURE", result.failure.kind, result.failure.message, flush=True)
            for line in result.failure.output[-12:]:
                print("    ", line[:160], flush=True)
        print(
            f"game {len(report.results):3d}: {result.outcome.reason:24s} "
            f"{len(result.moves):3d} moves, {result.seconds:5.1f} s, "
            f"slowest move {max(result.times_ms or [0])} ms",
            flush=True,
        )

    report = run_match(config, on_result=on_result)
    summary = report.to_json()
    out = {
        "games": summary.get("games"),
        "wins": summary.get("wins"),
        "losses": summary.get("losses"),
        "draws": summary.get("draws"),
        "failures": failures,
        "time_forfeits": failures.get("timeout", 0),
        "illegal_moves": failures.get("illegal", 0),
        "seconds": round(time.monotonic() - started, 1),
        "rule": args.rule,
        "size": args.size,
        "st": args.st,
        "tc": args.tc,
    }
    if over:
        q = statistics.quantiles(over, n=100)
        out["reply_minus_limit_ms"] = {
            "moves": len(over),
            "min": min(over),
            "median": statistics.median(over),
            "p90": q[89],
            "p99": q[98],
            "max": max(over),
        }
    print(json.dumps(out, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
