"""The root threat solver along whole games, as an engine meets it move after move.

    python benchmarks/root_vct_walk.py --games FILE [--rule renju] [--nodes 2000]
        [--param VCT_KEEP=1 ...] [--limit N] [--json OUT]

For every game of a ``--games-out`` file of ``benchmarks/vs_rapfi.py`` (JSON lines with
``moves``; gzip or plain), two engines (one per colour, as in a match) run their root VCT
(``Engine._solver_line``: the engine's own context, depth and solver numbers, ``--param``
overriding any engine number) on every position where their colour is to move, from the
end of the opening to the last move, with ``--nodes`` df-pn nodes each. Node limits make
the work deterministic; the CPU is the solving thread's (``time.thread_time``). A proof
counts only when its line replays as a win on the board. The summary gives the positions,
the proofs, the CPU and the nodes: the measure of what ``VCT_KEEP`` and the solver's table
do over a game (docs/engine.md, Session 40). ``--json`` keeps each position's result, so
two settings pair by position.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

from plies.errors import PliesError
from plies.gomoku import Board
from plies.gomoku.engine import Engine
from plies.gomoku.engine import state as ST
from plies.gomoku.engine.api import _replays_as_win
from plies.gomoku.notation import parse_move
from plies.gomoku.pbrain import BrainError, engine_param


def load_games(path: Path) -> list[dict]:
    """The games of a JSON-lines file (``moves`` as "x,y" strings, ``opening_length``)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def parse_params(specs: list[str]) -> dict:
    """``NAME=VALUE`` engine numbers or table choices, checked as the brain's ``INFO param``
    checks them (:func:`plies.gomoku.pbrain.engine_param`)."""
    try:
        return dict(engine_param(spec) for spec in specs)
    except BrainError as exc:
        raise SystemExit(f"error: --param {str(exc).removeprefix('INFO param ')}") from None


def walk_game(game: dict, rule: str, size: int, engines: list[Engine], nodes: int) -> list[dict]:
    """Each position of ``game`` after its opening: the side to move's root VCT result."""
    moves = [parse_move(m, size) for m in game["moves"]]
    for engine in engines:
        engine.new_game()
    out = []
    start = int(game.get("opening_length", 0))
    board = Board.from_moves(moves[:start], size, rule)
    for ply in range(start, len(moves)):
        if ply > start:
            board.play(moves[ply - 1])
        if board.is_over:
            break
        engine = engines[0 if board.to_move == 1 else 1]
        st, tb = ST.state_from_board(board, engine.tables)
        engine._claim()  # as a search does: the solver runs only inside one
        try:
            t0 = time.thread_time()
            line, used = engine._solver_line(st, tb, nodes, None)
            cpu = time.thread_time() - t0
        finally:
            engine._release()
        line_moves = [engine._to_move(p) for p in line] if line else []
        won = bool(line_moves) and _replays_as_win(board, line_moves)
        out.append({"ply": ply, "proved": int(won), "nodes": used, "cpu": round(cpu, 5)})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=Path, required=True, help="a vs_rapfi --games-out file")
    ap.add_argument("--rule", default="renju", choices=["freestyle", "standard", "renju"])
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--nodes", type=int, default=2000, help="df-pn nodes a position")
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE, an engine number")
    ap.add_argument("--limit", type=int, default=0, help="the first N games only")
    ap.add_argument("--json", type=Path, default=None, help="every position's result")
    args = ap.parse_args()
    if args.nodes < 1:
        print("error: --nodes must be at least 1", file=sys.stderr)
        return 2
    try:
        games = load_games(args.games)
    except (OSError, ValueError) as exc:
        print(f"error: cannot read {args.games}: {exc}", file=sys.stderr)
        return 2
    if args.limit:
        games = games[: args.limit]
    params = parse_params(args.param)
    engines = [Engine(args.rule, args.size, hash_mb=16, params=params) for _ in range(2)]
    results = []
    positions = proved = nodes = 0
    cpu = 0.0
    try:
        for i, game in enumerate(games):
            try:
                rows = walk_game(game, args.rule, args.size, engines, args.nodes)
            except (KeyError, TypeError, ValueError, PliesError) as exc:
                print(f"\nerror: game {i + 1} of {args.games}: {exc}", file=sys.stderr)
                return 2
            results.append({"game": i, "positions": rows})
            positions += len(rows)
            proved += sum(r["proved"] for r in rows)
            nodes += sum(r["nodes"] for r in rows)
            cpu += sum(r["cpu"] for r in rows)
            print(
                f"\rgame {i + 1}/{len(games)}: {positions} positions, {proved} proved, "
                f"{cpu:.1f} s CPU",
                end="",
                file=sys.stderr,
                flush=True,
            )
    except KeyboardInterrupt:
        print("\ninterrupted: the games done so far are summarised", file=sys.stderr)
    print(file=sys.stderr)
    summary = {
        "games": len(results),
        "positions": positions,
        "proved": proved,
        "nodes": nodes,
        "cpu": round(cpu, 3),
        "settings": {"nodes": args.nodes, "params": params, "rule": args.rule},
    }
    print(json.dumps(summary))
    if args.json is not None:
        args.json.write_text(json.dumps({"summary": summary, "games": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
