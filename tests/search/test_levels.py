"""Playing levels: the choice rule (blunders, the temperature) and a beginner that misses a
four where full strength never does."""

from __future__ import annotations

import random

import pytest

from plies.errors import InvalidOption
from plies.search.levels import LEVELS, MAX_LEVEL, Level, choose, level


def test_choose_follows_the_level():
    lines = [("a", 100), ("b", 90), ("c", -500)]
    rng = random.Random(1)
    top = Level(nodes=1, multipv=3, temperature=0.0, blunder=0.0)
    assert {choose(lines, ["x"], top, rng) for _ in range(50)} == {("a", False)}
    always = Level(nodes=1, multipv=3, temperature=0.0, blunder=1.0)
    assert {choose(lines, ["x", "y"], always, rng)[1] for _ in range(20)} == {True}
    warm = Level(nodes=1, multipv=3, temperature=50.0, blunder=0.0)
    picks = [choose(lines, [], warm, rng)[0] for _ in range(2000)]
    # exp(-10/50) = 0.82 against 1 for "b"; "c" at exp(-600/50): practically never
    assert 0.35 < picks.count("b") / len(picks) < 0.55
    assert picks.count("c") == 0


def test_levels_get_stronger():
    numbers = sorted(LEVELS)
    assert numbers == list(range(1, MAX_LEVEL + 1))
    for a, b in zip(numbers, numbers[1:], strict=False):
        assert LEVELS[a].nodes < LEVELS[b].nodes
        assert LEVELS[a].blunder >= LEVELS[b].blunder
    assert LEVELS[MAX_LEVEL].blunder == 0 and LEVELS[MAX_LEVEL].temperature == 0
    for bad in (0, MAX_LEVEL + 1, "x"):
        with pytest.raises(InvalidOption):
            level(bad)


def test_beginner_misses_a_four_full_strength_never():
    from plies.gomoku.board import Board
    from plies.gomoku.engine import Engine
    from plies.gomoku.levels import level_move

    board = Board(rule="freestyle")
    # black's four h8-k8, blocked at g8: white to move must take l8 or lose
    board.play_moves(["h8", "a1", "i8", "a3", "j8", "g8", "k8"])
    engine = Engine("freestyle", hash_mb=4)
    blocks = {"l8"}

    def moves(number: int) -> list[str]:
        return [
            level_move(engine, board, number, random.Random(seed)).move.algebraic(15)
            for seed in range(12)
        ]

    assert set(moves(MAX_LEVEL)) <= blocks
    beginner = moves(1)
    assert any(m not in blocks for m in beginner), beginner
    assert any(m in blocks for m in beginner), beginner


def test_arena_plays_at_a_level():
    from plies.arena.spec import parse_engine_spec

    player = parse_engine_spec("plies:gomoku?level=2&seed=3").create()
    assert player.level == 2 and player.self_limited
