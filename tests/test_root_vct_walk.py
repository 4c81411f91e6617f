"""benchmarks/root_vct_walk.py: the root threat solver along whole games, as an engine meets it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from plies.gomoku.engine import Engine

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "root_vct_walk.py"
_SPEC = importlib.util.spec_from_file_location("plies_bench_root_vct_walk", _PATH)
walk = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(walk)

# black builds an open three on row 7 while white plays far away, then black wins
GAME = {
    "opening_length": 2,
    "moves": ["6,7", "0,0", "7,7", "14,0", "8,7", "0,14", "9,7", "0,13", "10,7"],
}


def test_each_side_solves_its_own_moves_and_proves_the_open_three(tmp_path) -> None:
    engines = [Engine("freestyle", 15, hash_mb=1, params={"VCT_KEEP": 1}) for _ in range(2)]
    rows = walk.walk_game(GAME, "freestyle", 15, engines, 5_000)
    # the positions after the opening up to the last move (the five itself is not searched)
    assert [r["ply"] for r in rows] == [2, 3, 4, 5, 6, 7, 8]
    proved = {r["ply"] for r in rows if r["proved"]}
    assert proved == {6, 8}  # black to move with an open three, then an open four
    assert all(r["nodes"] > 0 for r in rows)


def test_a_games_file_is_read_and_bad_numbers_are_clear_errors(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(GAME) + "\n\n")
    assert walk.load_games(path) == [GAME]
    assert walk.parse_params(["VCT_KEEP=1", "VCT_LOOKAHEAD=0"]) == {
        "VCT_KEEP": 1,
        "VCT_LOOKAHEAD": 0,
    }
    with pytest.raises(SystemExit, match="--param 'NO_SUCH=1': expected NAME=VALUE with NAME"):
        walk.parse_params(["NO_SUCH=1"])
    with pytest.raises(SystemExit, match="VCT_KEEP must be 0 or 1"):
        walk.parse_params(["VCT_KEEP=3"])
    with pytest.raises(SystemExit, match="NAME=VALUE"):
        walk.parse_params(["VCT_KEEP"])
