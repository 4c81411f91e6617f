"""plies (``pbrain-plies``) against Rapfi, the strongest open Gomoku engine, at equal time.

    python benchmarks/vs_rapfi.py --rapfi /tmp/rapfi/pbrain-rapfi --rule freestyle \\
        --games 200 --st 0.5 [--openings FILE] [--size 15] [--concurrency 1] [--json OUT]
        [--plies-param NAME=VALUE ...] [--plies-nodes N --rapfi-nodes M]

Rapfi is GPL-3 and never part of this repository: build it apart with
``../shared/tools/build-rapfi.sh`` (its built-in classical evaluation; no network files) and
give the binary's path. Both brains get one thread (Rapfi: ``INFO thread_num 1``) and the same
``timeout_turn``; the arena's start-up allowance (1 s over an engine's first move of a game)
and its replay of a dropped command keep Rapfi's quirks from deciding games (docs/arena.md).
Openings: the balanced sets shipped with plies (``--openings balanced``) or the 26 Renju
openings (renju), each played with both colours. Rapfi runs in a fresh temporary directory
(it looks for a config file in its working directory and finds none). Prints plies' score and
Elo with its 95% error bar, the pentanomial counts and any failures; ``--json`` keeps the
arena's summary. Run it on a quiet machine: the engines play on the clock. With
``--plies-nodes``/``--rapfi-nodes`` each searches that many nodes a move instead (``INFO
max_node``; ``--st`` is then only the limit): a screen whose moves depend little on the load
(docs/engine.md, Session 33).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
sys.path.insert(0, str(SRC))
os.environ["PYTHONPATH"] = str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")

from plies.arena import build_config, run_match  # noqa: E402

DEFAULT_OPENINGS = {
    "freestyle": "balanced",
    "standard": "balanced",
    "renju": "renju26",
}


def engine_specs(
    rapfi: Path,
    workdir: str,
    plies_params: list[str],
    plies_nodes: int = 0,
    rapfi_nodes: int = 0,
    plies_book: str | None = None,
) -> list[str]:
    """The arena's specs of the two brains: plies (its ``INFO param`` numbers, its opening
    book when given: ``INFO book``) and Rapfi, one thread each, and each a node limit a move
    when given (0: none)."""
    plies_cmd = shlex.quote(f"{sys.executable} -m plies.gomoku.pbrain")
    return [
        f"cmd={plies_cmd} proto=pbrain name=plies option.thread_num=1"
        + (f" option.param={','.join(plies_params)}" if plies_params else "")
        + (f" option.max_node={plies_nodes}" if plies_nodes else "")
        + (f" option.book={plies_book}" if plies_book else ""),
        f"cmd={shlex.quote(str(rapfi))} proto=pbrain name=rapfi dir={workdir} option.thread_num=1"
        + (f" option.max_node={rapfi_nodes}" if rapfi_nodes else ""),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rapfi", required=True, help="path of the pbrain-rapfi binary")
    ap.add_argument("--rule", default="freestyle", choices=sorted(DEFAULT_OPENINGS))
    ap.add_argument("--size", default="15")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--st", type=float, default=0.5, help="seconds per move (timeout_turn)")
    ap.add_argument(
        "--plies-nodes",
        type=int,
        default=0,
        help="screening: plies searches this many nodes a move (INFO max_node) instead of "
        "to the time; --st is then only the limit (docs/engine.md)",
    )
    ap.add_argument(
        "--rapfi-nodes", type=int, default=0, help="screening: Rapfi's nodes a move (max_node)"
    )
    ap.add_argument("--openings", default=None)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--json", default=None)
    ap.add_argument(
        "--games-out",
        default=None,
        help="write every game (names, result, moves, times) as JSON lines here",
    )
    ap.add_argument(
        "--plies-param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an engine number for plies (pbrain INFO param), e.g. THREAT=off; repeatable",
    )
    ap.add_argument(
        "--plies-book",
        default=None,
        metavar="FILE",
        help="plies' opening book (pbrain INFO book: default or an SQLite file)",
    )
    args = ap.parse_args()
    if args.plies_nodes < 0 or args.rapfi_nodes < 0:
        print("error: --plies-nodes and --rapfi-nodes must not be negative", file=sys.stderr)
        return 2
    rapfi = Path(args.rapfi).resolve()
    if not os.access(rapfi, os.X_OK):
        print(f"error: no executable Rapfi at {args.rapfi}", file=sys.stderr)
        return 2
    workdir = tempfile.mkdtemp(prefix="rapfi-")
    book = args.plies_book
    if book is not None and book != "default":
        if not Path(book).is_file():
            print(f"error: no opening book at {book}", file=sys.stderr)
            return 2
        book = str(Path(book).resolve())
    engines = engine_specs(
        rapfi, workdir, args.plies_param, args.plies_nodes, args.rapfi_nodes, book
    )
    config = build_config(
        engines,
        rule=args.rule,
        size=args.size,
        games=args.games,
        st=args.st,
        openings=args.openings or DEFAULT_OPENINGS[args.rule],
        concurrency=args.concurrency,
    )
    if args.games_out:
        Path(args.games_out).write_text("")

    def on_result(report, r) -> None:
        """After each game: its row in --games-out, the running score on stdout, and the
        summary so far in --json (an interrupted match keeps what it played)."""
        if args.games_out:
            row = {
                "names": list(r.names), "winner": r.outcome.winner,
                "reason": r.outcome.reason, "opening_length": r.opening_length,
                "moves": r.moves, "times_ms": r.times_ms,
            }  # fmt: skip
            with open(args.games_out, "a") as out:
                out.write(json.dumps(row) + "\n")
        so_far = report.to_json()
        print(
            f"game {len(report.results)}/{args.games}: +{so_far['wins']} ={so_far['draws']} "
            f"-{so_far['losses']}",
            flush=True,
        )
        if args.json:
            Path(args.json).write_text(json.dumps(so_far, indent=2) + "\n")

    report = run_match(config, on_result)
    summary = report.to_json()
    wins, losses, draws = summary["wins"], summary["losses"], summary["draws"]
    games = wins + losses + draws
    score = (wins + draws / 2) / max(1, games)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    elo = "unbounded" if summary["elo"] is None else f"{summary['elo']:+.0f}"
    error = "" if summary["elo_error"] is None else f" +- {summary['elo_error']:.0f}"
    print(
        f"plies vs rapfi, {args.rule} {args.size}, st {args.st}: +{wins} ={draws} -{losses} "
        f"({100 * score:.1f}%), Elo {elo}{error}, pentanomial {report.scores[(0, 1)].pentanomial}"
    )
    failures: dict[str, int] = {}
    for result in report.results:
        if result.failure is not None:
            key = f"{result.failure.engine}: {result.failure.kind}"
            failures[key] = failures.get(key, 0) + 1
    print("failures:", failures or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
