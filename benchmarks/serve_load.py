"""Load on ``plies serve``: concurrent clients submitting reviews and asking for moves.

Starts ``plies serve`` on a fresh store in a subprocess, then ``--clients`` threads each send
``--requests`` requests, alternating a review submission (a distinct random legal Gomoku game
of 8-14 moves, ``--nodes`` per position) and a move request (``--move-nodes``). Reports the
throughput, the p50/p99 latency per kind of request, the errors (must be 0), and, once every
review is done, that none was lost (every submitted job done, with one row per move).

    python benchmarks/serve_load.py --clients 8 --requests 10
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from plies.gomoku.board import Board

SRC = str(Path(__file__).resolve().parents[1] / "src")


def random_game(rng: random.Random, moves: int) -> str:
    board = Board(15, "freestyle")
    while len(board.history) < moves and not board.is_over:
        near = [
            m
            for m in board.moves()
            if not board.history
            or any(max(abs(m.x - s.x), abs(m.y - s.y)) <= 2 for s in board.history)
        ]
        board.play(rng.choice(near))
    return " ".join(m.algebraic(15) for m in board.history)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=10, help="per client")
    ap.add_argument("--nodes", type=int, default=1000, help="review budget per position")
    ap.add_argument("--move-nodes", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = Path(tempfile.mkdtemp()) / "load.sqlite"
    env = {**os.environ, "PYTHONPATH": SRC}
    cmd = [
        sys.executable,
        "-m",
        "plies.cli",
        "serve",
        "--port",
        str(port),
        "--db",
        str(db),
        "--workers",
        str(args.workers),
        "--max-queue",
        "10000",
    ]
    server = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        rng = random.Random(args.seed)
        games = [random_game(rng, rng.randint(8, 14)) for _ in range(args.clients * args.requests)]
        latencies: dict[str, list[float]] = {"review": [], "move": []}
        errors: list[str] = []
        jobs: dict[str, int] = {}
        lock = threading.Lock()

        def client(k: int) -> None:
            with httpx.Client(base_url=url, timeout=120) as c:
                for i in range(args.requests):
                    game = games[k * args.requests + i]
                    start = time.perf_counter()
                    if i % 2 == 0:
                        kind = "review"
                        r = c.post(
                            "/api/reviews", json={"game": game, "budget": {"nodes": args.nodes}}
                        )
                    else:
                        kind = "move"
                        r = c.post("/api/move", json={"moves": game, "nodes": args.move_nodes})
                    elapsed = time.perf_counter() - start
                    with lock:
                        latencies[kind].append(elapsed)
                        if r.status_code not in (200, 202):
                            errors.append(f"{kind} {r.status_code} {r.text[:200]}")
                        elif kind == "review":
                            jobs[r.json()["id"]] = len(game.split())

        start = time.perf_counter()
        threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        answered = time.perf_counter() - start
        # every review finishes: none lost
        lost = dict(jobs)
        with httpx.Client(base_url=url, timeout=60) as c:
            while lost and time.perf_counter() - start < 1800:
                for job_id in list(lost):
                    job = c.get(f"/api/reviews/{job_id}").json()
                    if job["status"] == "done" and len(job["review"]["moves"]) == lost[job_id]:
                        del lost[job_id]
                    elif job["status"] == "failed":
                        errors.append(f"job {job_id} failed: {job.get('error')}")
                        del lost[job_id]
                time.sleep(0.5)
            metrics = c.get("/api/metrics").json()
        finished = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(timeout=10)
    total = sum(len(v) for v in latencies.values())
    print(
        f"clients {args.clients}, requests {total} ({args.requests} per client), "
        f"review nodes {args.nodes}, move nodes {args.move_nodes}, workers {args.workers}"
    )
    print(f"answered in {answered:.2f} s: {total / answered:.1f} requests/s")
    for kind, values in latencies.items():
        if values:
            print(
                f"{kind:6s} n={len(values):4d} p50 {1000 * statistics.median(values):8.1f} ms  "
                f"p99 {1000 * percentile(values, 0.99):8.1f} ms"
            )
    print(
        f"reviews: {len(jobs)} submitted, {len(jobs) - len(lost)} done, {len(lost)} lost; "
        f"all done after {finished:.1f} s; cache hit rate {metrics['cache_hit_rate']}"
    )
    print(f"errors: {len(errors)}")
    for e in errors[:10]:
        print("  " + e)
    sys.exit(1 if errors or lost else 0)


if __name__ == "__main__":
    main()
