"""plies against Sunfish at equal time, both as UCI processes, through the arena.

    python benchmarks/sunfish_match.py [--games 48] [--tc 10+0.1] [--openings FILE]
                                       [--overhead-ms 30] [--hash 64] [--json OUT] [--out DIR]

plies runs as ``python -m plies.chess.uci`` with this checkout's ``src`` first on PYTHONPATH;
Sunfish (``pip install --no-deps sunfish``: it pins chess==1.9.4, which plies cannot use, and
its UCI engine does not need chess) as its ``sunfish-uci`` console script.
Both get the same clock. Each opening of ``benchmarks/data/chess/openings.pgn`` (24 balanced
lines of 8-10 plies) is played twice, colours swapped; one game at a time. Both engines keep
the same move overhead (plies' ``Move Overhead``, Sunfish's ``TM_OVERHEAD_MS``, default
30 ms; Sunfish's own default of 200 ms is meant for lichess lag and would only spend less of
its clock). Prints every game, then W/D/L from plies' side, Elo +- 95% error (trinomial and
pentanomial), LOS, failures by kind (time forfeits, illegal moves, crashes: all must be 0),
and each engine's median depth and time per move (from the arena's move comments).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
sys.path.insert(0, str(SRC))
os.environ["PYTHONPATH"] = str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")

from plies.arena import build_config, run_match  # noqa: E402
from plies.arena.output import GameWriter  # noqa: E402

OPENINGS = ROOT / "benchmarks" / "data" / "chess" / "openings.pgn"


def sunfish_command() -> str:
    """The ``sunfish-uci`` script next to this Python, else on PATH."""
    here = Path(sys.executable).parent / "sunfish-uci"
    found = str(here) if here.exists() else shutil.which("sunfish-uci")
    if not found:
        sys.exit("sunfish-uci not found: pip install --no-deps sunfish")
    return found


def move_stats(results, names) -> dict:
    """Median depth and move time per engine, from comments like ``+0.35/12 0.512s``."""
    depths: dict[str, list[int]] = {n: [] for n in names}
    times: dict[str, list[float]] = {n: [] for n in names}
    for r in results:
        for k, comment in enumerate(r.comments):
            side = (r.opening_length + k) % 2
            name = names[r.job.engine_ids[side]]
            parts = comment.split()
            if parts and parts[-1].endswith("s"):
                times[name].append(float(parts[-1][:-1]))
            if len(parts) >= 2 and "/" in parts[0]:
                depth = parts[0].split("/")[1]
                if depth.isdigit():
                    depths[name].append(int(depth))
    return {
        n: {
            "moves": len(times[n]),
            "median_depth": statistics.median(depths[n]) if depths[n] else None,
            "median_move_s": round(statistics.median(times[n]), 3) if times[n] else None,
        }
        for n in names
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=48)
    ap.add_argument("--tc", default="10+0.1", help="clock for both, e.g. 10+0.1")
    ap.add_argument("--plies-tc", default=None, help="a different clock for plies only (time odds)")
    ap.add_argument("--openings", default=str(OPENINGS))
    ap.add_argument("--overhead-ms", type=int, default=30, help="both engines' move overhead")
    ap.add_argument("--hash", type=int, default=64, help="plies' Hash (MB)")
    ap.add_argument("--timemargin", type=float, default=0.1)
    ap.add_argument("--maxmoves", type=int, default=None)
    ap.add_argument("--out", default=None, help="directory for games.pgn and summary.json")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    os.environ["TM_OVERHEAD_MS"] = str(args.overhead_ms)  # read by sunfish-uci at start-up
    plies_cmd = shlex.quote(f"{sys.executable} -m plies.chess.uci")
    engines = [
        f"cmd={plies_cmd} proto=uci name=plies option.Hash={args.hash} "
        + shlex.quote(f"option.Move Overhead={args.overhead_ms}")
        + (f" tc={args.plies_tc}" if args.plies_tc else ""),
        f"cmd={shlex.quote(sunfish_command())} proto=uci name=sunfish",
    ]
    config = build_config(
        engines,
        game="chess",
        games=args.games,
        tc=args.tc,
        timemargin=args.timemargin,
        openings=args.openings,
        max_moves=args.maxmoves,
        concurrency=1,
    )
    writer = GameWriter(args.out, event="plies vs sunfish") if args.out else None
    started = time.monotonic()
    failures: dict[str, int] = {}

    def on_result(report, result) -> None:
        if writer is not None:
            writer.write(result)
        if result.failure is not None:
            key = f"{result.failure.engine}: {result.failure.kind}"
            failures[key] = failures.get(key, 0) + 1
            print("FAILURE", key, result.failure.message, flush=True)
            for line in result.failure.output[-8:]:
                print("    ", line[:160], flush=True)
        s = report.to_json()
        print(
            f"game {len(report.results):3d} {result.names[0]:>7s}-{result.names[1]:<7s} "
            f"{result.outcome.reason:22s} {len(result.moves):3d} plies {result.seconds:5.1f} s"
            f"  | plies +{s['wins']} ={s['draws']} -{s['losses']}",
            flush=True,
        )

    report = run_match(config, on_result=on_result)
    s = report.to_json()
    names = [spec.name for spec in config.engines]
    out = {
        "tc": args.tc,
        "plies_tc": args.plies_tc or args.tc,
        "overhead_ms": args.overhead_ms,
        "openings": Path(args.openings).name,
        "games": s.get("games"),
        "plies_wins": s.get("wins"),
        "plies_draws": s.get("draws"),
        "plies_losses": s.get("losses"),
        "score": s.get("score"),
        "elo": s.get("elo"),
        "elo_error": s.get("elo_error"),
        "penta_elo": s.get("penta_elo"),
        "penta_elo_error": s.get("penta_elo_error"),
        "pentanomial": s.get("pentanomial"),
        "los": s.get("los"),
        "score_95_range": wilson(s.get("wins") or 0, s.get("draws") or 0, s.get("games") or 0),
        "failures": failures,
        "reasons": _count(r.outcome.reason for r in report.results),
        "per_engine": move_stats(report.results, names),
        "seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps(out, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


def wilson(wins: int, draws: int, games: int) -> list | None:
    """The 95% Wilson interval of the score (draws as half points) and its Elo range: finite
    where the Elo estimate is not (a 100% or 0% score)."""
    if not games:
        return None
    z, p = 1.96, (wins + draws / 2) / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    low, high = max(centre - half, 1e-9), min(centre + half, 1 - 1e-9)

    def elo(x: float) -> float:
        return round(-400 * math.log10(1 / x - 1), 1)

    return [round(low, 4), round(high, 4), elo(low), elo(high)]


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out


if __name__ == "__main__":
    sys.exit(main())
