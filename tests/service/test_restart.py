"""Jobs are never lost: ``plies serve`` killed with SIGKILL in the middle of a review finishes
it after a restart, reusing the positions already analysed, with the same verdicts as a review
that was never interrupted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from tests.fresh_process import SRC
from tests.service.conftest import free_port

from plies.analysis.gomoku import review_record
from plies.gomoku.records import read_record
from plies.service.inputs import budget_of, parse_review

httpx = pytest.importorskip("httpx", reason="httpx is missing")
pytest.importorskip("uvicorn", reason="the serve extra (uvicorn) is missing")

# 24 moves: 25 positions at 2500 nodes, a few seconds of analysis
GAME = "h8 h9 i9 g7 j10 i8 j8 k11 j7 j9 k8 l8 g8 f8 g10 h10 f11 e12 k10 l9 l11 m12 i11 h11"
BODY = {"game": GAME, "rule": "freestyle", "budget": {"nodes": 2500}}


def _start(db, port) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.Popen(
        [sys.executable, "-m", "plies.cli", "serve", "--port", str(port), "--db", str(db)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def _ready(client, proc, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        try:
            if client.get("/api/health").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("the server did not start")


def test_kill_9_mid_review_then_restart(tmp_path):
    db, port = tmp_path / "serve.sqlite", free_port()
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    proc = _start(db, port)
    try:
        _ready(client, proc)
        job_id = client.post("/api/reviews", json=BODY).json()["id"]
        deadline = time.monotonic() + 600  # a cold numba cache compiles first (minutes)
        while True:  # kill it once some positions are done, well before the end
            job = client.get(f"/api/reviews/{job_id}").json()
            if job["progress"]["done"] >= 4 or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        done_before = job["progress"]["done"]
        assert job["status"] == "running" and 4 <= done_before < 25, job

        proc = _start(db, port)
        _ready(client, proc)
        deadline = time.monotonic() + 600
        while True:
            job = client.get(f"/api/reviews/{job_id}").json()
            if job["status"] in ("done", "failed") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert job["status"] == "done", job
        assert job["attempts"] == 2
        metrics = client.get("/api/metrics").json()
        assert metrics["recovered_at_start"] == 1
        assert metrics["cache_hits"] >= done_before  # the finished positions were reused
    finally:
        client.close()
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)
    spec = parse_review(BODY)
    direct = review_record(read_record(GAME, rule="freestyle"), budget_of(spec))
    assert [m["classification"] for m in job["review"]["moves"]] == [
        m.classification for m in direct.moves
    ]
    assert [m["best_move"] for m in job["review"]["moves"]] == [m.best_move for m in direct.moves]
