"""Where a review's positions run: Ray actors give the same review as local processes, and
``plies analyze DIR/`` reviews every game file of a folder (a bad one reported and skipped)."""

from __future__ import annotations

import json

import pytest

from plies.analysis.gomoku import review_record
from plies.analysis.review import Budget
from plies.cli import main
from plies.gomoku.records import read_record

GAME = "h8 h9 i9 g7 j10 i8 j8"
BUDGET = Budget(nodes=1500, solver_nodes=1500)


@pytest.mark.slow  # a local Ray instance and actors loading the kernels: 15-40 s
def test_ray_backend_gives_the_same_review():
    pytest.importorskip("ray", reason="Ray is missing")
    from plies.analysis.chess import load_pgn, review_game
    from plies.ray_session import ray_session

    record = read_record(GAME, rule="renju")
    game = load_pgn(text="1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0")
    local = review_record(record, BUDGET)
    local_chess = review_game(game, BUDGET)
    with ray_session(None, 2):  # one session: the Gomoku actors kept, then replaced by chess's
        on_ray = review_record(record, BUDGET, workers=2, backend="ray")
        assert on_ray.to_dict()["moves"] == local.to_dict()["moves"]
        chess_on_ray = review_game(game, BUDGET, workers=2, backend="ray")
        assert chess_on_ray.to_dict()["moves"] == local_chess.to_dict()["moves"]


def test_analyze_a_folder(tmp_path, capsys):
    games = tmp_path / "games"
    games.mkdir()
    (games / "a.txt").write_text(GAME)
    (games / "b.txt").write_text("h8 h8")
    (games / "c.pgn").write_text("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
    (games / "notes.md").write_text("not a game")
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exc:
        main(["analyze", str(games), "--nodes", "800", "--workers", "1", "--no-cache",
              "--json", str(out), "--notable"])  # fmt: skip
    assert exc.value.code == 2  # b.txt
    err = capsys.readouterr().err
    # (on a cold kernel cache a "compiling kernels" notice comes first: not an error)
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert errors == [f"error: {games / 'b.txt'}:1: move 2: cell 7,7 (h8) is occupied"]
    assert sorted(p.name for p in out.iterdir()) == ["a.json", "c.json"]
    a = json.loads((out / "a.json").read_text())
    assert [m["move"] for m in a["moves"]] == GAME.split()
    assert json.loads((out / "c.json").read_text())["game"]["game"] == "chess"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SystemExit) as exc:
        main(["analyze", str(empty)])
    assert exc.value.code == 2 and "no game files" in capsys.readouterr().err
