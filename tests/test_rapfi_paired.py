"""The paired comparison of benchmarks/rapfi_paired.py (two versions against one peer)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "rapfi_paired.py"
_SPEC = importlib.util.spec_from_file_location("plies_bench_rapfi_paired", _PATH)
paired = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(paired)


def _game(first: str, winner: int | None) -> dict:
    names = [first, "rapfi" if first == "plies" else "plies"]
    return {"names": names, "winner": winner, "moves": []}


def test_points_follow_the_winning_colour_not_the_seat() -> None:
    assert paired.points(_game("plies", 0), "plies") == 1.0
    assert paired.points(_game("rapfi", 0), "plies") == 0.0
    assert paired.points(_game("rapfi", 1), "plies") == 1.0
    assert paired.points(_game("plies", None), "plies") == 0.5


def test_openings_are_paired_and_cut_to_the_shorter_match(tmp_path) -> None:
    # A: opening 1 both won, opening 2 one of two, opening 3 unfinished (one game)
    a = [_game("plies", 0), _game("rapfi", 1), _game("plies", 0), _game("rapfi", 0)]
    a.append(_game("plies", 0))
    # B: opening 1 one of two, opening 2 none, opening 3 both
    b = [_game("plies", 0), _game("rapfi", 0), _game("plies", 1), _game("rapfi", 0)]
    b += [_game("plies", 0), _game("rapfi", 1)]
    r = paired.compare(a, b)
    assert r["openings"] == 2
    assert r["score_a"] == pytest.approx(0.75) and r["score_b"] == pytest.approx(0.25)
    assert (r["better"], r["worse"], r["same"]) == (2, 0, 0)
    assert r["mean_gain_per_pair"] == pytest.approx(1.0) and r["se"] == pytest.approx(0.0)
    path_a, path_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    path_a.write_text("".join(json.dumps(g) + "\n" for g in a))
    path_b.write_text("".join(json.dumps(g) + "\n" for g in b))
    assert paired.main([str(path_a), str(path_b)]) == 0
    assert paired.main([str(path_a), str(tmp_path / "none.jsonl")]) == 2
