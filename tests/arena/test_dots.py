"""Dots and Boxes in the arena: the referee, records, openings and plies:dots-* engines."""

import pytest

from plies.arena import build_config, run_match
from plies.arena.game import GameSetup, Opening
from plies.arena.output import GameWriter
from plies.arena.referees import make_referee
from plies.arena.referees.dots import load_dots_record
from plies.cli import main
from plies.errors import InvalidMove, InvalidOption


def test_referee_extra_turns_and_result():
    ref = make_referee(GameSetup("dots", "standard", 2, 1), Opening(("h0,0", "h1,0")))
    assert ref.opening_length == 2 and ref.to_move() == 0
    assert ref.play("v0,0") == "v0,0" and ref.to_move() == 1
    assert ref.play("3") == "h1,1"  # a line index is read too; answers are canonical text
    ref.play("v0,1")  # A completes box (0, 0) and moves again
    assert ref.to_move() == 0 and ref.outcome() is None
    with pytest.raises(InvalidMove):
        ref.play("v0,1")
    ref.play("h0,1")
    assert ref.to_move() == 1
    ref.play("v0,2")  # B completes box (0, 1): every line drawn
    assert ref.outcome().winner is None and ref.outcome().reason == "boxes 1-1"
    assert ref.colour_name(0) == "A"


def test_match_between_dots_agents(tmp_path):
    openings = tmp_path / "open.txt"
    openings.write_text("# two openings\nh1,1\nv0,1 h2,2\n")
    config = build_config(
        ["plies:dots-chains?seed=1", "plies:dots-random?seed=2"],
        game="dots",
        size="3x3",
        games=4,
        openings=str(openings),
        concurrency=1,
    )
    writer = GameWriter(tmp_path / "games")
    report = run_match(config, lambda report, result: writer.write(result))
    summary = report.to_json()
    assert summary["game"] == "dots 3x3" and summary["games_played"] == 4
    assert summary["wins"] == 4
    files = sorted((tmp_path / "games").glob("*.dots"))
    assert len(files) == 4
    size, moves = load_dots_record(files[0].read_text())
    assert size == (3, 3) and len(moves) == 24 and moves[0] == "h1,1"
    assert "Termination: boxes" in files[0].read_text()


def test_dots_rejects_process_engines_and_bad_sizes():
    with pytest.raises(InvalidOption):
        build_config(["plies:dots-random", "cmd=/bin/true"], game="dots", games=2)
    with pytest.raises(InvalidOption):
        build_config(["plies:dots-random", "plies:dots-chains"], game="dots", size="0x3")


def test_cli_match_dots(tmp_path, capsys):
    main(
        [
            "match", "--game", "dots", "--size", "2x2", "--engine", "plies:dots-perfect",
            "--engine", "plies:dots-mcts?iterations=50&seed=1", "--games", "2",
            "--concurrency", "1", "--out", str(tmp_path / "m"), "--no-live",
        ]
    )  # fmt: skip
    assert "Score of dots-perfect" in capsys.readouterr().out


def test_dots_pro_plays_in_the_arena():
    config = build_config(
        ["plies:dots-pro?movetime=0.02&seed=1", "plies:dots-random?seed=2"],
        game="dots",
        size="3x3",
        games=2,
        concurrency=1,
    )
    summary = run_match(config, lambda report, result: None).to_json()
    assert summary["games_played"] == 2 and summary["wins"] == 2
