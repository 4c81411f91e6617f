"""How fast does the threat solver prove the forced wins of real games? A benchmark for its speed.

    python benchmarks/vct_game_proofs.py [--traces FILE ...] [--min-mate 9] [--nodes 40000]
        [--knob LOOKAHEAD=0 ...] [--limit N] [--json OUT]

The positions: every position of ``benchmarks/rapfi_trace.py`` outputs (default: the Renju
traces in benchmarks/data) where Rapfi, searching 1 s, announced a forced win for the side to
move in at least ``--min-mate`` plies. For each, the VCT solver (:mod:`plies.gomoku.engine.vct`,
a fresh context with ``vct.new_context``'s knobs, ``--knob NAME=VALUE`` overriding any of its
``K_`` numbers) searches for the side to move's win within ``--nodes`` df-pn nodes. Times are
the solving thread's CPU seconds (``time.thread_time``), so a loaded machine changes them
little, and the node cap makes the work deterministic. The summary gives the share proven and
the share proven within 0.05, 0.1, 0.2, 0.4 and 1 CPU seconds: what a 0.5 s turn's root VCT
or defence check can use (docs/engine.md, Session 38).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from plies.gomoku import Board
from plies.gomoku.board import rule_code
from plies.gomoku.engine import Engine
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import vct as VT

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_TRACES = sorted(DATA.glob("rapfi-trace-renju-*.json.gz"))
BOUNDS = (0.05, 0.1, 0.2, 0.4, 1.0)


def load_positions(paths: list[Path], min_mate: int) -> list[dict]:
    """The positions (moves, rule) where Rapfi's ``+M<n>``, n >= ``min_mate``, gives the side
    to move a forced win."""
    out = []
    for path in paths:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt") as f:
            data = json.load(f)
        rule = data["settings"]["rule"]
        for trace in data["traces"]:
            for point in trace["series"]:
                ev = point.get("ev") or ""
                if ev.startswith("+M") and int(ev[2:]) >= min_mate:
                    out.append(
                        {
                            "source": path.name,
                            "game": trace["game"],
                            "ply": point["ply"],
                            "moves": trace["moves"][: point["ply"]],
                            "rule": rule,
                            "mate": int(ev[2:]),
                        }
                    )
    return out


def parse_knobs(specs: list[str]) -> dict[int, int]:
    """``NAME=VALUE`` pairs as ``{vct.K_NAME: value}``; a one-line error for a bad one."""
    knobs = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        index = getattr(VT, "K_" + name.upper(), None)
        try:
            number = int(value)
        except ValueError:
            number = None
        if not sep or not isinstance(index, int) or not 0 <= index < VT.K_COUNT or number is None:
            raise SystemExit(f"error: --knob {spec!r}: expected NAME=INTEGER, a vct K_ name")
        knobs[index] = number
    return knobs


def solve_one(board: Board, tables, knobs: dict[int, int], nodes: int) -> tuple[bool, float, int]:
    """Whether the solver proves the side to move's win, its thread CPU seconds and nodes."""
    st, tb = ST.state_from_board(board, tables)
    ctx = VT.new_context(st.cells.shape[0], rule_code(board.rule), np.zeros(1, dtype=np.int64))
    for index, value in knobs.items():
        ctx.ctl[index] = value
    ctx.ctl[VT.K_NODE_LIMIT] = nodes
    t = time.thread_time()
    line = VT.solve(st, tb, ctx, max_depth=VT.MAX_TREE_DEPTH)
    return line is not None, time.thread_time() - t, int(ctx.ctl[VT.K_NODES])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--traces", nargs="*", type=Path, default=DEFAULT_TRACES)
    ap.add_argument("--min-mate", type=int, default=9, help="least plies of Rapfi's mate")
    ap.add_argument("--nodes", type=int, default=40_000, help="df-pn nodes a position")
    ap.add_argument("--knob", action="append", default=[], help="NAME=VALUE, a vct K_ number")
    ap.add_argument("--limit", type=int, default=0, help="the first N positions only")
    ap.add_argument("--json", type=Path, default=None, help="every position's result")
    args = ap.parse_args()
    try:
        knobs = parse_knobs(args.knob)
    except SystemExit as exc:  # the one-line message, with the usage error's status
        print(exc, file=sys.stderr)
        return 2
    try:
        positions = load_positions(args.traces, args.min_mate)
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: cannot read the traces: {exc}", file=sys.stderr)
        return 2
    if args.limit > 0:
        positions = positions[: args.limit]
    if not positions:
        print("error: no positions with a forced win in those traces", file=sys.stderr)
        return 2
    tables = {}
    rows = []
    for i, pos in enumerate(positions, 1):
        moves = [tuple(map(int, m.split(","))) for m in pos["moves"]]
        board = Board.from_moves(moves, 15, pos["rule"])
        if pos["rule"] not in tables:
            tables[pos["rule"]] = Engine(pos["rule"], 15, hash_mb=1).tables  # the engine's
            solve_one(board, tables[pos["rule"]], knobs, 100)  # load the kernels, untimed
        proved, seconds, nodes = solve_one(board, tables[pos["rule"]], knobs, args.nodes)
        rows.append({**pos, "proved": proved, "cpu_s": round(seconds, 4), "nodes": nodes})
        if i % 50 == 0 or i == len(positions):
            done = sum(r["proved"] for r in rows)
            print(f"{i}/{len(positions)} positions, {done} proved", file=sys.stderr, flush=True)
    proved = [r for r in rows if r["proved"]]
    summary = {
        "positions": len(rows),
        "proved": len(proved),
        "within": {f"{b:g}s": sum(r["cpu_s"] <= b for r in proved) for b in BOUNDS},
        "cpu_s_total": round(sum(r["cpu_s"] for r in rows), 2),
        "median_proof_s": round(statistics.median(r["cpu_s"] for r in proved), 4)
        if proved
        else None,
        "knobs": args.knob,
        "nodes": args.nodes,
    }
    print(json.dumps(summary))
    if args.json is not None:
        args.json.write_text(json.dumps({"summary": summary, "positions": rows}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
