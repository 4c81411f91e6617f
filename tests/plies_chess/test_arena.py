"""``plies:chess`` in the arena: the in-process chess engine plays (and beats) a random mover
with python-chess as referee."""

from __future__ import annotations

import pytest

from plies.arena.config import build_config
from plies.arena.engines.registry import engine_factory, registered_engines
from plies.arena.match import run_match
from plies.errors import InvalidOption


def test_registered_with_options() -> None:
    assert "chess" in registered_engines()
    player = engine_factory("chess")({"nodes": "2000", "hash": "4"}, "c")
    assert player.nodes == 2000 and player.self_limited
    with pytest.raises(InvalidOption, match="unknown option"):
        engine_factory("chess")({"speed": "1"}, "c")


def test_beats_a_random_mover() -> None:
    config = build_config(
        ["plies:chess?nodes=3000&hash=4", "plies:random?seed=3"],
        game="chess",
        games=2,
        concurrency=1,
        max_moves=150,
    )
    summary = run_match(config).to_json()
    assert summary["games_played"] == 2
    assert summary["losses"] == 0 and summary["wins"] >= 1
