"""Balanced opening sets: what is kept is balanced by the engine's own judgement, seeded and
independent of the number of processes; the shipped sets load with ``--openings balanced``."""

from __future__ import annotations

import random

import pytest

from plies.arena import build_config
from plies.arena.game import GameSetup
from plies.arena.openings import load_openings
from plies.errors import InvalidOption
from plies.gomoku import balanced
from plies.gomoku.board import Board
from plies.gomoku.engine import Engine

SETTINGS = balanced.BalanceSettings("caro", 15, 15, "pro", nodes=300, max_eval=60, seed=7)


def replay(line: str, settings: balanced.BalanceSettings) -> Board:
    board = Board(
        width=settings.width, height=settings.height, rule=settings.rule, opening=settings.opening
    )
    cx, cy = settings.width // 2, settings.height // 2
    for pair in line.split():
        dx, dy = map(int, pair.split(","))
        board.play((cx + dx, cy + dy))
    return board


def test_kept_openings_are_legal_and_judged_balanced():
    progress = []
    lines = balanced.generate(SETTINGS, 3, on_progress=lambda k, t: progress.append((k, t)))
    assert len(lines) == 3 and progress[-1][0] == 3
    tried = progress[-1][1]
    engine = Engine("caro", 15, hash_mb=16)
    for line in lines:
        board = replay(line, SETTINGS)  # raises on an illegal (or opening-breaking) move
        assert len(board) in (3, 4) and not board.is_over
        engine.new_game()
        assert abs(engine.search(board, nodes=SETTINGS.nodes).score) <= SETTINGS.max_eval
    # with no limit on the score every candidate is kept: the filter did reject some above
    loose = balanced.BalanceSettings(**{**SETTINGS.__dict__, "max_eval": 10**6})
    assert len(balanced.generate(loose, tried)) == tried
    assert tried > 3


def test_the_same_set_from_one_or_two_processes():
    settings = balanced.BalanceSettings("freestyle", 9, 9, "free", nodes=200, max_eval=80)
    one = balanced.generate(settings, 3)
    assert len(one) == 3
    assert balanced.generate(settings, 3, workers=2) == one


def test_random_openings_obey_long_pro():
    for seed in range(20):
        board = Board(15, "freestyle", opening="long-pro")
        balanced.random_opening(board, random.Random(seed), 4)
        assert len(board) == 4  # every stone was legal under the rule (Board checks it)


def test_bad_settings_are_one_line_errors():
    with pytest.raises(InvalidOption, match="count must be at least 1"):
        balanced.generate(SETTINGS, 0)
    with pytest.raises(InvalidOption, match="long-pro opening rule needs a board side"):
        balanced.generate(balanced.BalanceSettings("caro", 7, 7, "long-pro"), 1)


def test_shipped_sets_load_as_balanced():
    shipped = {n[:-4] for n in balanced.shipped_sets()}
    assert {"freestyle-15", "freestyle-20", "standard-15"} <= shipped
    config = build_config(
        ["plies:random?seed=1", "plies:random?seed=2"], openings="balanced", size="15"
    )
    assert len(config.openings) == 300
    assert config.openings[0].name == "balanced:2"
    for name in balanced.shipped_sets():
        rule, size = name[:-4].split("-")[:2]
        setup = GameSetup("gomoku", rule, int(size), int(size), "pro" if "caro" in rule else "free")
        assert load_openings("balanced", setup)  # every line replays under its rules
    with pytest.raises(InvalidOption, match="no balanced openings ship for freestyle-13"):
        build_config(["plies:random?seed=1", "plies:random?seed=2"], openings="balanced",
                     size="13")  # fmt: skip


def test_cli_generate_and_list(tmp_path, capsys):
    from plies.cli import main

    out = tmp_path / "set.txt"
    main(["openings", "generate", "--rule", "caro", "--size", "9", "--count", "2",
          "--max-eval", "200", "--nodes", "200", "--workers", "1", "--out", str(out)])  # fmt: skip
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# 2 balanced caro 9 openings (opening rule pro): |score| <= 200")
    setup = GameSetup("gomoku", "caro", 9, 9, "pro")
    assert len(load_openings(str(out), setup)) == 2  # replayed under pro by the referee
    main(["openings", "list"])
    assert "caro-19" in capsys.readouterr().out
