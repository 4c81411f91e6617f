"""plies against Stockfish's strength ladder (``UCI_LimitStrength``), both as UCI processes,
through the arena.

    python benchmarks/vs_stockfish.py [--stockfish /usr/games/stockfish] [--elo 2100,2400]
                                      [--games 24] [--tc 10+0.1] [--openings FILE]
                                      [--overhead-ms 30] [--hash 64] [--concurrency 1]
                                      [--json OUT] [--out DIR]

For each rung of ``--elo``, Stockfish (``apt-get install stockfish`` puts it in /usr/games) runs
with ``UCI_LimitStrength true``, ``UCI_Elo`` the rung, one thread and 16 MB of hash; plies as
``python -m plies.chess.uci`` with this checkout's ``src`` first on PYTHONPATH. Both get the
same clock and move overhead; each opening of ``benchmarks/data/chess/openings.pgn`` is played
twice, colours swapped. Prints every game, then per rung W/D/L from plies' side, the score,
Elo +- 95% error (trinomial and pentanomial), the score's 95% Wilson interval, failures by
kind, each engine's median depth and move time, and the load average (``os.getloadavg``) at
the start and the end of the rung: a loaded machine slows both engines, but not equally.
The test suite never needs Stockfish.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
sys.path.insert(0, str(SRC))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ["PYTHONPATH"] = str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")

from sunfish_match import _count, move_stats, wilson  # noqa: E402

from plies.arena import build_config, run_match  # noqa: E402
from plies.arena.output import GameWriter  # noqa: E402

OPENINGS = ROOT / "benchmarks" / "data" / "chess" / "openings.pgn"


def stockfish_command(path: str | None) -> str:
    """The Stockfish binary: ``path``, else ``stockfish`` on PATH, else /usr/games/stockfish."""
    found = path or shutil.which("stockfish") or "/usr/games/stockfish"
    if not (Path(found).is_file() and os.access(found, os.X_OK)):
        sys.exit(f"no Stockfish binary at {found!r}: apt-get install stockfish, or --stockfish")
    return found


def play_rung(args: argparse.Namespace, elo: int, stockfish: str) -> dict:
    """One rung of the ladder: ``args.games`` games against Stockfish at ``UCI_Elo`` ``elo``."""
    plies_cmd = shlex.quote(f"{sys.executable} -m plies.chess.uci")
    overhead = shlex.quote(f"option.Move Overhead={args.overhead_ms}")
    engines = [
        f"cmd={plies_cmd} proto=uci name=plies option.Hash={args.hash} {overhead}",
        f"cmd={shlex.quote(stockfish)} proto=uci name=sf{elo} option.Threads=1 option.Hash=16 "
        f"option.UCI_LimitStrength=true option.UCI_Elo={elo} {overhead}",
    ]
    config = build_config(
        engines,
        game="chess",
        games=args.games,
        tc=args.tc,
        timemargin=args.timemargin,
        openings=args.openings,
        concurrency=args.concurrency,
    )
    out_dir = Path(args.out) / f"elo{elo}" if args.out else None
    writer = GameWriter(str(out_dir), event=f"plies vs stockfish {elo}") if out_dir else None
    failures: dict[str, int] = {}
    load_start = os.getloadavg()
    started = time.monotonic()

    def on_result(report, result) -> None:
        if writer is not None:
            writer.write(result)
        if result.failure is not None:
            key = f"{result.failure.engine}: {result.failure.kind}"
            failures[key] = failures.get(key, 0) + 1
            print("FAILURE", key, result.failure.message, flush=True)
        s = report.to_json()
        print(
            f"[{elo}] game {len(report.results):3d} {result.names[0]:>7s}-{result.names[1]:<7s} "
            f"{result.outcome.reason:22s} {len(result.moves):3d} plies {result.seconds:5.1f} s"
            f"  | plies +{s['wins']} ={s['draws']} -{s['losses']}",
            flush=True,
        )

    report = run_match(config, on_result=on_result)
    s = report.to_json()
    names = [spec.name for spec in config.engines]
    return {
        "uci_elo": elo,
        "tc": args.tc,
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
        "score_95_range": wilson(s.get("wins") or 0, s.get("draws") or 0, s.get("games") or 0),
        "failures": failures,
        "reasons": _count(r.outcome.reason for r in report.results),
        "per_engine": move_stats(report.results, names),
        "load_average_start": [round(x, 2) for x in load_start],
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(time.monotonic() - started, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stockfish", default=None, help="path of the Stockfish binary")
    ap.add_argument("--elo", default="2100,2400", help="UCI_Elo rungs, comma-separated")
    ap.add_argument("--games", type=int, default=24, help="games per rung")
    ap.add_argument("--tc", default="10+0.1", help="clock for both, e.g. 10+0.1")
    ap.add_argument("--openings", default=str(OPENINGS))
    ap.add_argument("--overhead-ms", type=int, default=30, help="both engines' move overhead")
    ap.add_argument("--hash", type=int, default=64, help="plies' Hash (MB)")
    ap.add_argument("--timemargin", type=float, default=0.1)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--out", default=None, help="directory for each rung's games and summary")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    try:
        rungs = [int(x) for x in args.elo.split(",") if x.strip()]
    except ValueError:
        sys.exit(f"--elo must be comma-separated integers, not {args.elo!r}")
    stockfish = stockfish_command(args.stockfish)
    results = [play_rung(args, elo, stockfish) for elo in rungs]
    print(json.dumps(results, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
