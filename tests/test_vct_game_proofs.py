"""benchmarks/vct_game_proofs.py: the threat solver's speed on the forced wins of real games."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path

import pytest

from plies.gomoku import Board
from plies.gomoku.engine import Engine

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "vct_game_proofs.py"
_SPEC = importlib.util.spec_from_file_location("plies_bench_vct_game_proofs", _PATH)
vgp = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(vgp)


def _trace(tmp_path: Path) -> Path:
    series = [
        {"ply": 3, "mover": "plies", "played": "9,9", "ev": "-105"},
        {"ply": 4, "mover": "rapfi", "played": "6,6", "ev": "+M19"},
        {"ply": 5, "mover": "plies", "played": "5,5", "ev": "-M18"},
        {"ply": 6, "mover": "rapfi", "played": "4,4", "ev": "+M5"},
        {"ply": 7, "mover": "plies", "played": "3,3", "ev": None},
    ]
    moves = ["7,7", "7,6", "9,6", "9,9", "6,6", "5,5", "4,4", "3,3"]
    trace = {"game": 3, "moves": moves, "series": series}
    data = {"settings": {"rule": "renju"}, "traces": [trace]}
    path = tmp_path / "trace.json.gz"
    with gzip.open(path, "wt") as f:
        json.dump(data, f)
    return path


def test_only_announced_wins_long_enough_are_kept_with_their_moves(tmp_path) -> None:
    positions = vgp.load_positions([_trace(tmp_path)], min_mate=9)
    assert [(p["ply"], p["mate"], p["rule"]) for p in positions] == [(4, 19, "renju")]
    assert positions[0]["moves"] == ["7,7", "7,6", "9,6", "9,9"]
    assert len(vgp.load_positions([_trace(tmp_path)], min_mate=5)) == 2


def test_knobs_are_vct_numbers_and_a_bad_one_is_a_clear_error() -> None:
    from plies.gomoku.engine import vct

    assert vgp.parse_knobs(["LOOKAHEAD=0", "vcf_budget=2000"]) == {
        vct.K_LOOKAHEAD: 0,
        vct.K_VCF_BUDGET: 2000,
    }
    for bad in ("NO_SUCH=1", "LOOKAHEAD", "LOOKAHEAD=x", "LOOKAHEAD=--1", "COUNT=1"):
        with pytest.raises(SystemExit, match="expected NAME=INTEGER"):
            vgp.parse_knobs([bad])


def test_a_won_position_is_proved_and_a_quiet_one_is_not() -> None:
    tables = Engine("freestyle", 15, hash_mb=1).tables
    # black: an open three on row 7 with white far away: a win by threats
    won = Board.from_moves([(6, 7), (0, 0), (7, 7), (14, 0), (8, 7), (0, 14)], 15, "freestyle")
    proved, seconds, nodes = vgp.solve_one(won, tables, {}, 10_000)
    assert proved and seconds >= 0 and nodes > 0
    quiet = Board.from_moves([(7, 7), (8, 8)], 15, "freestyle")
    proved, _, nodes = vgp.solve_one(quiet, tables, {}, 2_000)
    assert not proved and nodes > 0
