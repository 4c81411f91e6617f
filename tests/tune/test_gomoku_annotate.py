"""Arena games as training data (`plies train annotate`): each position after the opening
searched again, the record shaped like self-play's, the winner, resuming, bad input."""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from plies.cli import cli, main
from plies.errors import InvalidMove, InvalidOption
from plies.gomoku import Board
from plies.tune import gomoku_annotate as GA
from plies.tune import gomoku_data, gomoku_threat

# black makes five on row 4 (x 2..6) while white plays row 6: black wins on the board
FIVE = ["4,4", "4,6", "5,4", "5,6", "3,4", "3,6", "6,4", "6,6", "2,4"]
# the same game cut before black's fifth stone: lost by white on time (index 0 won)
CUT = FIVE[:-1]


def _write(path, games) -> str:
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    return str(path)


@pytest.fixture
def source(tmp_path):
    return _write(
        tmp_path / "arena.jsonl",
        [
            # the record's winner is wrong on purpose: a game that ended on the board is
            # scored by the board
            {"names": ["a", "b"], "winner": 1, "opening_length": 3, "moves": FIVE},
            {"names": ["b", "a"], "winner": 0, "reason": "time", "opening_length": 2,
             "moves": CUT},
        ],
    )  # fmt: skip


def test_records_are_self_play_records_with_plies_scores(source, tmp_path):
    settings = GA.AnnotateSettings(source, "freestyle", 9, nodes=300, first_seed=50)
    out = tmp_path / "ann.jsonl"
    assert GA.annotate(settings, out) == 2
    games = gomoku_data.load_games([out])
    by_seed = {g["seed"]: g for g in games}
    first, second = by_seed[50], by_seed[51]
    assert first["moves"] == FIVE and second["moves"] == CUT
    assert first["scores"][:3] == [None] * 3 and second["scores"][:2] == [None] * 2
    assert all(isinstance(s, int) for s in first["scores"][3:] + second["scores"][2:])
    # each searched position's line starts with a legal move of that position
    board = Board(9, "freestyle")
    for ply, (move, pv) in enumerate(zip(first["moves"], first["pvs"], strict=True)):
        assert (pv == []) == (ply < 3)
        if pv:
            assert board.is_legal(board.parse(pv[0]))
        board.play(move)
    # black's five on the board (the record says white); the cut game takes the record's
    # winner (index 0: black)
    assert first["winner"] == 1 and second["winner"] == 1
    # black to move at ply 8 of the won game sees the five: a winning score
    assert first["scores"][8] > 20000
    # the TD-leaf fits read them like self-play games
    assert sum(1 for _ in gomoku_threat.leaves(games, "freestyle")) > 0
    # resumed: nothing more to do
    assert GA.annotate(settings, out) == 2
    assert len(out.read_text().splitlines()) == 2


def test_a_draw_or_unknown_winner_counts_as_none(tmp_path):
    source = str(tmp_path / "a.jsonl.gz")
    with gzip.open(source, "wt") as f:
        f.write(json.dumps({"winner": None, "moves": CUT[:4]}) + "\n")
    record = GA.annotate_game(GA.AnnotateSettings(source, size=9, nodes=200), 1)
    assert record["winner"] == 0 and record["opening"] == 0
    assert all(isinstance(s, int) for s in record["scores"])


def test_bad_input_is_named(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"moves": ["4,4"]}\n{"names": []}\n')
    with pytest.raises(InvalidOption, match="line 2: not a game record"):
        GA.arena_games(bad)
    illegal = _write(tmp_path / "illegal.jsonl", [{"moves": ["4,4", "4,4"]}])
    with pytest.raises(InvalidMove):
        GA.annotate_game(GA.AnnotateSettings(illegal, size=9, nodes=200), 1)
    past_end = _write(tmp_path / "past.jsonl", [{"moves": FIVE + ["8,8"]}])
    with pytest.raises(InvalidOption, match="move 10 after the end"):
        GA.annotate_game(GA.AnnotateSettings(past_end, size=9, nodes=200), 1)
    with pytest.raises(InvalidOption, match="no game 2"):
        GA.annotate_game(GA.AnnotateSettings(past_end, size=9, nodes=200), 2)
    with pytest.raises(InvalidOption, match="no games file"):
        GA.AnnotateSettings(str(tmp_path / "none.jsonl")).check()


def test_plies_train_annotate_command(source, tmp_path, capsys):
    out = tmp_path / "ann.jsonl"
    args = ["train", "annotate", source, "--size", "9", "--nodes", "200", "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "2 games annotated" in result.output
    assert len(gomoku_data.load_games([out])) == 2
    with pytest.raises(SystemExit) as info:
        main([*args[:5], "--nodes", "50", "--out", str(out)])
    assert info.value.code == 2
    assert capsys.readouterr().err == "error: nodes must be at least 100, not 50\n"
