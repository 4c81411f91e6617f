"""The HTTP API against the real application (uvicorn on a local port, httpx as the client):
reviews end to end, the same job for the same game, the CLI's error messages, limits, the
queue's 429, the token, moves and positions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.fresh_process import SRC

from plies.analysis.gomoku import review_record
from plies.cli import main
from plies.gomoku.board import Board
from plies.gomoku.records import read_record
from plies.service.inputs import Limits, budget_of, parse_review

GAME = "h8 h9 i9 g7 j10 i8 j8"
BUDGET = {"nodes": 1500}


def test_review_end_to_end(serve):
    s = serve()
    assert s.client.get("/api/health").json()["status"] == "ok"
    body = {"game": GAME, "rule": "renju", "budget": BUDGET, "match_id": "m-1", "lang": "vi"}
    r = s.client.post("/api/reviews", json=body)
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    with s.client.stream("GET", f"/api/reviews/{job_id}/events") as events:
        text = "".join(events.iter_text())
    assert text.rstrip().splitlines()[-2] == "event: end"
    last = json.loads(text.rstrip().splitlines()[-1].removeprefix("data: "))
    assert last == {"status": "done", "done": 8, "total": 8}
    job = s.wait(job_id)
    assert job["status"] == "done" and job["progress"] == {"done": 8, "total": 8}
    review = job["review"]
    assert review["schema_version"] == 1 and review["language"] == "vi"
    assert [m["move"] for m in review["moves"]] == GAME.split()
    # the same review as the library's at the same budget (what plies analyze --json writes)
    spec = parse_review(body)
    direct = review_record(read_record(GAME, rule="renju"), budget_of(spec), lang="vi")
    assert [m["classification"] for m in review["moves"]] == [
        m.classification for m in direct.moves
    ]
    assert review["moves"][3]["explanation"] == direct.moves[3].explanation
    # the same game (spelled as pbrain coordinates) and budget: the same job, no new work
    again = dict(body, game="7,7 7,6 8,6 6,8 9,5 8,7 9,7", match_id="m-2")
    r2 = s.client.post("/api/reviews", json=again)
    assert r2.status_code == 200 and r2.json()["id"] == job_id
    for match in ("m-1", "m-2"):
        listed = s.client.get("/api/reviews", params={"match_id": match}).json()["reviews"]
        assert [j["id"] for j in listed] == [job_id]
    assert s.client.get("/api/reviews", params={"match_id": "none"}).json()["reviews"] == []
    html = s.client.get(f"/api/reviews/{job_id}.html")
    assert html.status_code == 200 and "review-data" in html.text
    metrics = s.client.get("/api/metrics").json()
    assert metrics["jobs_done"] == 1 and metrics["queue_length"] == 0
    assert metrics["cache_misses"] >= 8
    assert s.client.get("/api/reviews/nope").status_code == 404
    assert s.client.get("/api/openapi.json").json()["paths"]["/api/reviews"]["post"]


def _cli_error(tmp_path: Path, text: str) -> str:
    """The one-line error of ``plies analyze game`` for a file named ``game`` holding ``text``."""
    (tmp_path / "game").write_text(text)
    proc = subprocess.run(
        [sys.executable, "-m", "plies.cli", "analyze", "game", "--nodes", "100"],
        cwd=tmp_path, capture_output=True, text=True, timeout=900,  # a cold cache compiles
        env={**os.environ, "PYTHONPATH": SRC},
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    return proc.stderr.strip().splitlines()[-1].removeprefix("error: ")


def test_bad_games_get_the_cli_message(serve, tmp_path):
    s = serve()
    for text in ("h8 h8", "h8 z99", "1. e4 e5 2. Ke3 Nc6", '[Event "x"]\n\n*'):
        r = s.client.post("/api/reviews", json={"game": text, "budget": BUDGET})
        assert r.status_code == 400
        assert r.json()["error"] == _cli_error(tmp_path, text), text
    # a path is text, never a file to read
    r = s.client.post("/api/reviews", json={"game": str(Path(__file__))})
    assert r.status_code == 400 and "cannot read move" in r.json()["error"]
    for body, word in (
        ({"game": GAME, "budget": {"nodes": -1}}, "budget nodes"),
        ({"game": GAME, "budget": {"tier": "huge"}}, "tier"),
        ({"game": GAME, "rule": "go"}, "unknown rule"),
        ({"game": GAME, "lang": "fr"}, "language"),
        ({"game": ""}, "no game"),
        ([1, 2], "JSON object"),
    ):
        r = s.client.post("/api/reviews", json=body)
        assert r.status_code == 400 and word in r.json()["error"], (body, r.text)
    r = s.client.post("/api/reviews", content=b"{not json", headers={"content-type": "x"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]


def test_size_limits_and_full_queue(serve):
    s = serve(limits=Limits(max_body=2000, max_moves=5), max_queue=1, start_runner=False)
    r = s.client.post("/api/reviews", json={"game": "h8 " * 1000})
    assert r.status_code == 413 and "2000 bytes" in r.json()["error"]
    r = s.client.post("/api/reviews", json={"game": GAME})
    assert r.status_code == 413 and "7 moves" in r.json()["error"]
    assert s.client.post("/api/reviews", json={"game": "h8 h9"}).status_code == 202
    assert s.client.post("/api/reviews", json={"game": "h8 h9"}).status_code == 202  # same job
    full = s.client.post("/api/reviews", json={"game": "h8 h7"})
    assert full.status_code == 429 and int(full.headers["retry-after"]) >= 1
    assert s.client.get("/api/metrics").json()["queue_length"] == 1


def test_token_guards_writes(serve):
    s = serve(token="s3cret", start_runner=False)
    body = {"game": "h8 h9", "budget": BUDGET}
    assert s.client.post("/api/reviews", json=body).status_code == 401
    bad = {"Authorization": "Bearer wrong"}
    assert s.client.post("/api/reviews", json=body, headers=bad).status_code == 401
    assert s.client.post("/api/move", json={"moves": "h8"}).status_code == 401
    good = {"Authorization": "Bearer s3cret"}
    assert s.client.post("/api/reviews", json=body, headers=good).status_code == 202
    assert s.client.get("/api/reviews").status_code == 200
    assert s.client.post("/api/position", json={"moves": "h8"}).status_code == 200


def test_move_and_position(serve):
    s = serve(start_runner=False)
    moves = "h8 a1 i8 a3 g10 a5 g11 a7"
    state = s.client.post("/api/position", json={"rule": "renju", "moves": moves}).json()
    board = Board(rule="renju")
    board.play_moves(moves.split())
    assert state["forbidden"] == [m.algebraic(15) for m in board.forbidden_points()] == ["g8"]
    assert state["to_move"] == "black" and not state["over"]
    r = s.client.post("/api/move", json={"rule": "renju", "moves": moves + " g8"})
    assert r.status_code == 400 and "forbidden" in r.json()["error"]
    # black's four h8..k8 open: white must block at g8 or l8 (full strength)
    four = "h8 a1 i8 a3 j8 a5 k8"
    r = s.client.post("/api/move", json={"rule": "freestyle", "moves": four, "nodes": 3000})
    answer = r.json()
    assert answer["move"] in ("g8", "l8"), answer
    assert answer["position"]["moves"][-1] == answer["move"]
    # a won position is over
    won = s.client.post("/api/position", json={"moves": "h8 a1 i8 a3 j8 a5 k8 a7 l8"}).json()
    assert won["over"] and won["winner"] == "black" and len(won["winning_line"]) == 5
    over = s.client.post("/api/move", json={"moves": "h8 a1 i8 a3 j8 a5 k8 a7 l8"})
    assert over.status_code == 400 and "over" in over.json()["error"]
    chess = s.client.post(
        "/api/move", json={"game": "chess", "moves": "e4 e5 Qh5 Nc6 Bc4 Nf6", "nodes": 3000}
    ).json()
    assert chess["san"] == "Qxf7#" and chess["position"]["over"]
    assert chess["position"]["winner"] == "white"
    for body, word in (
        ({"moves": "h8", "level": 99}, "level"),
        ({"moves": "h8", "level": 2, "nodes": 5}, "one of"),
        ({"moves": "h8 h8"}, "occupied"),
        ({"game": "go"}, "unknown game"),
        ({"game": "chess", "moves": "e5"}, "not legal"),
    ):
        r = s.client.post("/api/move", json=body)
        assert r.status_code == 400 and word in r.json()["error"], (body, r.text)


def test_serve_off_localhost_needs_a_token(capsys, monkeypatch):
    monkeypatch.delenv("PLIES_SERVE_TOKEN", raising=False)
    with pytest.raises(SystemExit) as exc:
        main(["serve", "--host", "0.0.0.0", "--port", "1"])
    assert exc.value.code == 2
    assert "needs an API token" in capsys.readouterr().err
